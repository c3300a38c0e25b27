/* SPDX-License-Identifier: GPL-2.0 */
/*
 * classify.h - join the per-file facts into one tree-wide picture and give
 * every ->poll implementation its class of TAXONOMY.md, its heads, its
 * creation sites and a one-line reason.
 */
#ifndef POLLTAX_CLASSIFY_H
#define POLLTAX_CLASSIFY_H

#include <jansson.h>
#include "lib/tree.h"

/*
 * TUS: array of per-file facts (extract.h); COCCI: the second opinion keyed
 * "file:function" (cocci.h) or NULL; FAILED/NOT_COMPILED: files without
 * facts.  Returns the polltax.json object (without "files").
 */
json_t *classify(const struct tree *t, json_t *tus, json_t *cocci, json_t *failed, json_t *not_compiled);

/* The class families used to compare the two classifiers. */
const char *class_family(const char *cls);

#endif
