/* SPDX-License-Identifier: GPL-2.0 */
/*
 * output.h - the scan's files: polltax.json (the facts, schema in
 * tool/SCHEMA.md), polltax.csv (one row per implementation) and
 * summary.md (counts per class and per subsystem, to paste into a mail).
 * Every file is written to a temporary name and renamed into place.
 */
#ifndef POLLTAX_OUTPUT_H
#define POLLTAX_OUTPUT_H

#include <jansson.h>

int write_json(const char *path, json_t *v);
int write_outputs(const char *dir, json_t *result);
char *summary_markdown(json_t *result);
/* Per subsystem of RESULT (polltax.json): {"total": N, CONVERTIBLE: N, ...}, "not-poll" left out. */
json_t *subsystem_counts(json_t *result);

/* The classes of TAXONOMY.md in report order (NULL-terminated). */
extern const char *const class_order[];
/* Convertibility in report order: converted, yes, needs-open, review, no, excluded. */
extern const char *const conv_order[];
int class_index(const char *cls);	/* position in class_order, 99 when unknown */
int conv_index(const char *conv);	/* position in conv_order, 99 when unknown */

/*
 * The identity of the sources a scan read, for "tree"."sources" of
 * polltax.json: {"files": N, "xxh64": HEX}, a hash of the names and
 * contents of every file the implementations IMPLS name (their own, their
 * ops', their creation sites') under ROOT.  A --scan whose identity is
 * not the tree's is refused: it was made from another tree.
 */
json_t *scan_sources_id(const char *root, json_t *impls);

#endif
