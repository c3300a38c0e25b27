/* SPDX-License-Identifier: GPL-2.0 */
/*
 * census.h - nothing vanishes (TAXONOMY.md): every .poll-like member in
 * the text of the candidate files is in the output, classified or
 * unknown with the reason.
 */
#ifndef POLLTAX_CENSUS_H
#define POLLTAX_CENSUS_H

#include <jansson.h>
#include "lib/util.h"

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
/* How many of A (census entries) have "kind" KIND; KIND NULL: a kind census_kinds does not name. */
size_t census_n_kind(json_t *a, const char *kind);
/* Does X belong to group KIND (NULL: the kinds census_kinds does not name)? */
bool census_of_kind(json_t *x, const char *kind);
/* The implementations made unknown by missing facts ("missing" unknown ones and "reclassified"). */
size_t census_n_unknown(json_t *cen);

/* The kinds of the census' reasons (census "missing", "reclassified", files "failed"), in report order. */
extern const char *const census_kinds[];
/* What a kind means, for summary.md and report.html. */
const char *census_kind_text(const char *kind);

#endif
