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

/* The classes of TAXONOMY.md in report order (NULL-terminated). */
extern const char *const class_order[];

#endif
