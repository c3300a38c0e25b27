/* SPDX-License-Identifier: GPL-2.0 */
/*
 * census.h - nothing vanishes (TAXONOMY.md): every .poll-like member in
 * the text of the candidate files is in the output, classified or
 * unknown with the reason.
 */
#ifndef POLLTAX_CENSUS_H
#define POLLTAX_CENSUS_H

#include <jansson.h>
#include "util.h"

/*
 * Cross-check RESULT (classify()'s, with its "files" set by the scan)
 * against the text of FILES (the candidates, relative to ROOT), whose
 * facts TUS holds: a member not in the implementations is added to them
 * (unknown with the reason, or not-poll when its struct is not file
 * polling), an implementation classified from a file that did not parse
 * is made unknown, the counts are made again, and RESULT gets "census".
 */
void census(json_t *result, const char *root, const struct strvec *files, json_t *tus);

/* summary.md's section on the census (census_report.c). */
void census_markdown(struct strbuf *sb, json_t *result);

/* The kinds of the census' reasons (census "missing", "reclassified", files "failed"), in report order. */
extern const char *const census_kinds[];
/* What a kind means, for summary.md and report.html. */
const char *census_kind_text(const char *kind);

#endif
