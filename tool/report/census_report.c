// SPDX-License-Identifier: GPL-2.0
/*
 * census_report.c - the census (census.c, census_md.c) in report.html:
 * how many poll members the text has and how many the classification
 * holds, the files that did not parse and the implementations made
 * unknown by missing facts, each grouped by reason (census_kinds).  It
 * reads polltax.json only.
 */
#define _GNU_SOURCE
#include "scan/census.h"
#include "lib/json_util.h"
#include "html.h"
#include "report_impl.h"

#include <stdlib.h>
#include <string.h>

void census_summary_line(struct strbuf *sb, json_t *r)
{
	json_t *cen = json_object_get(r, "census");

	if (!cen)
		return;
	sb_addf(sb, "<p>Files that did not parse: %zu; implementations <code>unknown</code> for missing facts: "
		    "%zu (<a href=\"#census\">census</a>).</p>\n",
		json_array_size(json_object_get(json_object_get(r, "files"), "failed")), census_n_unknown(cen));
}

void census_section(struct strbuf *sb, json_t *r, const char *url)
{
	json_t *cen = json_object_get(r, "census"), *files = json_object_get(r, "files");
	json_t *failed = json_object_get(files, "failed"), *missing = json_object_get(cen, "missing");
	json_t *recl = json_object_get(cen, "reclassified"), *x;
	size_t i;

	if (!cen)
		return;
	sb_addf(sb, "<section id=\"census\">\n<h2>Census</h2>\n<p>%lld <code>.poll</code>-like members in the "
		    "text of the candidate files, %lld of them in the implementations as classified, %zu in no "
		    "fact (added to the implementations); %lld values that are no function not counted.</p>\n",
		(long long)json_integer_value(json_object_get(cen, "members")),
		(long long)json_integer_value(json_object_get(cen, "matched")), json_array_size(missing),
		(long long)json_integer_value(json_object_get(cen, "not_functions")));
	sb_addf(sb, "<h3>Files that did not parse (%zu)</h3>\n", json_array_size(failed));
	for (int k = 0; k == 0 || census_kinds[k - 1]; k++) {
		const char *kind = census_kinds[k];

		if (!census_n_kind(failed, kind))
			continue;
		sb_addf(sb, "<details><summary>%zu: ", census_n_kind(failed, kind));
		sb_add_esc(sb, kind ? census_kind_text(kind) : "other");
		sb_adds(sb, "</summary><ul>");
		json_array_foreach(failed, i, x) {
			if (!census_of_kind(x, kind))
				continue;
			sb_adds(sb, "<li>");
			sb_add_loc(sb, url, jstr(x, "file"), 0, jstr(x, "file"));
			sb_adds(sb, ": ");
			sb_add_esc(sb, jstr(x, "reason"));
			sb_adds(sb, "</li>");
		}
		sb_adds(sb, "</ul></details>\n");
	}
	sb_addf(sb, "<h3>Implementations made unknown by missing facts (%zu)</h3>\n", census_n_unknown(cen));
	for (int k = 0; k == 0 || census_kinds[k - 1]; k++) {
		const char *kind = census_kinds[k];
		size_t n = census_n_kind(missing, kind) + census_n_kind(recl, kind);
		json_t *lists[2] = { missing, recl };

		if (!n)
			continue;
		sb_addf(sb, "<details><summary>%zu: ", n);
		sb_add_esc(sb, kind ? census_kind_text(kind) : "other");
		sb_adds(sb, "</summary><ul>");
		for (int l = 0; l < 2; l++) {
			json_array_foreach(lists[l], i, x) {
				if (!census_of_kind(x, kind))
					continue;
				sb_adds(sb, "<li><code>");
				sb_add_esc(sb, jstr(x, "function"));
				sb_adds(sb, "</code> ");
				{
					json_int_t line = json_integer_value(json_object_get(x, "line"));
					char *at = xasprintf("%s:%lld", jstr(x, "file"), (long long)line);

					sb_add_loc(sb, url, jstr(x, "file"), line, at);
					free(at);
				}
				if (l == 1) {
					sb_adds(sb, ", was ");
					html_class_chip(sb, jstr(x, "was"), false);
				} else if (strcmp(jstr(x, "class"), "unknown")) {
					sb_adds(sb, ", ");
					html_class_chip(sb, jstr(x, "class"), false);
				}
				sb_adds(sb, ": ");
				sb_add_esc(sb, jstr(x, "reason"));
				sb_adds(sb, "</li>");
			}
		}
		sb_adds(sb, "</ul></details>\n");
	}
	sb_adds(sb, "</section>\n");
}
