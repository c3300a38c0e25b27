// SPDX-License-Identifier: GPL-2.0
/*
 * census_md.c - the census (census.c) in summary.md, and the counts that
 * report/census_report.c shows in report.html too: how many poll members
 * the text has and how many the classification holds, the files that did
 * not parse and the implementations made unknown by missing facts, each
 * grouped by reason (census_kinds).  It reads polltax.json only.
 */
#define _GNU_SOURCE
#include "census.h"
#include "lib/json_util.h"

#include <stdlib.h>
#include <string.h>

/* How many of A have "kind" KIND; with KIND NULL, how many have a kind of none of census_kinds. */
size_t census_n_kind(json_t *a, const char *kind)
{
	json_t *x;
	size_t i, n = 0;

	json_array_foreach(a, i, x) {
		bool known = false;

		for (int k = 0; census_kinds[k] && !known; k++)
			known = !strcmp(jstr(x, "kind"), census_kinds[k]);
		n += kind ? !strcmp(jstr(x, "kind"), kind) : !known;
	}
	return n;
}

/* Does X belong to group KIND (NULL: the kinds census_kinds does not name)? */
bool census_of_kind(json_t *x, const char *kind)
{
	bool known = false;

	if (kind)
		return !strcmp(jstr(x, "kind"), kind);
	for (int k = 0; census_kinds[k] && !known; k++)
		known = !strcmp(jstr(x, "kind"), census_kinds[k]);
	return !known;
}

/* The implementations made unknown by missing facts: census "missing" (unknown ones) and "reclassified". */
size_t census_n_unknown(json_t *cen)
{
	json_t *x;
	size_t i, n = json_array_size(json_object_get(cen, "reclassified"));

	json_array_foreach(json_object_get(cen, "missing"), i, x)
		n += !strcmp(jstr(x, "class"), "unknown");
	return n;
}

void census_markdown(struct strbuf *sb, json_t *result)
{
	json_t *cen = json_object_get(result, "census"), *files = json_object_get(result, "files");
	json_t *failed = json_object_get(files, "failed"), *missing = json_object_get(cen, "missing");
	json_t *recl = json_object_get(cen, "reclassified"), *x;
	size_t i;

	if (!cen)
		return;
	sb_addf(sb, "\n## Census: every poll member of the text\n\n"
		    "%lld `.poll`-like members in the text of the %lld candidate files (`.poll`, `.proc_poll`, "
		    "`.poll_mask` and the members of the poll layers, given a function): %lld in the "
		    "implementations as classified, %zu in no fact, added to them (below).  Not counted: %lld "
		    "values that libclang shows are no function (a variable, a parameter).  Files that did not "
		    "parse: %zu; parsed through the `.c` file that `#include`s them: %zu.\n",
		    (long long)json_integer_value(json_object_get(cen, "members")),
		    (long long)json_integer_value(json_object_get(files, "candidates")),
		    (long long)json_integer_value(json_object_get(cen, "matched")), json_array_size(missing),
		    (long long)json_integer_value(json_object_get(cen, "not_functions")), json_array_size(failed),
		    json_array_size(json_object_get(files, "through_includer")));
	sb_addf(sb, "\n### Files that did not parse (%zu)\n", json_array_size(failed));
	for (int k = 0; k == 0 || census_kinds[k - 1]; k++) {
		const char *kind = census_kinds[k];

		if (!census_n_kind(failed, kind))
			continue;
		sb_addf(sb, "\n%s (%zu):\n\n", kind ? census_kind_text(kind) : "other", census_n_kind(failed, kind));
		json_array_foreach(failed, i, x)
			if (census_of_kind(x, kind))
				sb_addf(sb, "- `%s`: %s\n", jstr(x, "file"), jstr(x, "reason"));
	}
	sb_addf(sb, "\n### Implementations made unknown by missing facts (%zu)\n", census_n_unknown(cen));
	for (int k = 0; k == 0 || census_kinds[k - 1]; k++) {
		const char *kind = census_kinds[k];
		size_t n = census_n_kind(missing, kind) + census_n_kind(recl, kind);

		if (!n)
			continue;
		sb_addf(sb, "\n%s (%zu):\n\n", kind ? census_kind_text(kind) : "other", n);
		json_array_foreach(missing, i, x)
			if (census_of_kind(x, kind))
				sb_addf(sb, "- `%s` (`%s:%lld`, `.%s`)%s: %s\n", jstr(x, "function"), jstr(x, "file"),
					(long long)json_integer_value(json_object_get(x, "line")), jstr(x, "member"),
					strcmp(jstr(x, "class"), "unknown") ? ", `not-poll`" : "", jstr(x, "reason"));
		json_array_foreach(recl, i, x)
			if (census_of_kind(x, kind))
				sb_addf(sb, "- `%s` (`%s:%lld`), was `%s`: %s\n", jstr(x, "function"), jstr(x, "file"),
					(long long)json_integer_value(json_object_get(x, "line")), jstr(x, "was"),
					jstr(x, "reason"));
	}
}

