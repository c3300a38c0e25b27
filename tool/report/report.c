// SPDX-License-Identifier: GPL-2.0
/*
 * report.c - report.html, the page a maintainer opens (see report.h).
 *
 * It decides no class: it shows the classes of TAXONOMY.md (plus
 * "converted") that the scan recorded in polltax.json, and reads nothing
 * else of the scan (not the Markdown, not the CSV).  The first screen
 * answers "how many, how many converted, convertible, flagged, and why";
 * the table below answers "where is my driver and what is wrong with it".
 *
 * Deterministic: objects are walked in sorted key order, rows in the
 * scan's order, percentages with two decimals, no date but those in the
 * data.  This file writes the page and its summary sections; the table of
 * implementations and the sections after it are in report_table.c.
 */
#define _GNU_SOURCE
#include "report.h"
#include "lib/json_util.h"
#include "report_impl.h"
#include "scan/history.h"
#include "html.h"
#include "movement.h"
#include "scan/output.h"
#include "progress.h"

#include <stdlib.h>
#include <string.h>

/* The meaning of each class, in the words of TAXONOMY.md, shortened. */
static const struct class_info {
	const char *cls, *meaning, *conv;
} class_info[] = {
	{ "none", "no poll_wait reachable; the mask comes from state or is constant", "yes (poll_mask only)" },
	{ "single-static", "one global or static head, registered on every path", "yes" },
	{ "single-private", "one head derived from the file through fields fixed at open", "yes, or needs-open" },
	{ "single-cond", "one head, but a path that can report not-ready skips poll_wait",
	  "review (yes when the guard proof holds)" },
	{ "single-dynamic", "one poll_wait site, but the head depends on per-call state", "no" },
	{ "multi", "two or more distinct heads", "no" },
	{ "busy-poll", "networking socket poll that busy-polls", "no (flag)" },
	{ "delegate", "forwards to another layer's poll", "no at this layer" },
	{ "unknown", "the analysis could not decide (see the reason)", "no" },
	{ "converted", "already ->poll_mask(), f_poll_head set where the file is created", "done" },
	{ "not-poll", "the .poll member is not file polling", "excluded" },
};

static const char *const conv_label[] = {
	"converted", "convertible", "needs open", "review", "flagged", "excluded",
};

/* A stacked bar of the convertible counts c[] (in conv_order, excluded left out). */
static void stack_bar(struct strbuf *sb, const long long *c, bool big)
{
	long long total = 0;

	for (int i = 0; i < 5; i++)
		total += c[i];
	sb_addf(sb, "<div class=\"stack%s\" title=\"", big ? " big" : "");
	for (int i = 0; i < 5; i++)
		sb_addf(sb, "%s%s %lld", i ? ", " : "", conv_label[i], c[i]);
	sb_adds(sb, "\">");
	for (int i = 0; i < 5 && total; i++)
		if (c[i])
			sb_addf(sb, "<span class=\"s-%s\" style=\"width:%.2f%%\"></span>", conv_order[i],
				100.0 * (double)c[i] / (double)total);
	sb_adds(sb, "</div>");
}

static void legend(struct strbuf *sb)
{
	sb_adds(sb, "<div class=\"legend\">");
	for (int i = 0; i < 5; i++)
		sb_addf(sb, "<i class=\"s-%s\"></i>%s", conv_order[i], conv_label[i]);
	sb_adds(sb, "</div>\n");
}

static void page_head(struct strbuf *sb, json_t *r)
{
	json_t *tree = json_object_get(r, "tree");

	sb_adds(sb, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		    "<meta name=\"generator\" content=\"");
	sb_add_esc(sb, jstr(r, "tool"));
	sb_adds(sb, "\">\n<title>polltax: linux ");
	sb_add_esc(sb, jstr(tree, "version"));
	sb_adds(sb, " -&gt;poll report</title>\n<style>\n");
	sb_adds(sb, report_css);
	sb_adds(sb, "</style>\n</head>\n<body>\n<header><h1>-&gt;poll implementations of linux ");
	sb_add_esc(sb, jstr(tree, "version"));
	if (jstr(tree, "git_describe")[0]) {
		sb_adds(sb, " (");
		sb_add_esc(sb, jstr(tree, "git_describe"));
		sb_adds(sb, ")");
	}
	sb_adds(sb, "</h1>\n<div class=\"meta\">");
	sb_add_esc(sb, jstr(r, "tool"));
	sb_addf(sb, ", schema %lld; flags: ", jint(r, "schema"));
	sb_add_esc(sb, jstr(tree, "flags"));
	if (jstr(tree, "git_head")[0]) {
		sb_adds(sb, "; HEAD ");
		sb_add_esc(sb, jstr(tree, "git_head"));
	}
	sb_adds(sb, ". Classes: <code>TAXONOMY.md</code>; facts: <code>polltax.json</code>.</div></header>\n");
}

static void nav(struct strbuf *sb, bool history, bool since, bool boot)
{
	sb_adds(sb, "<nav><a href=\"#summary\">Summary</a><a href=\"#classes\">Classes</a>"
		    "<a href=\"#subsystems\">Subsystems</a><a href=\"#sections\">MAINTAINERS</a>");
	if (history)
		sb_adds(sb, "<a href=\"#progress\">Progress</a>");
	if (since)
		sb_adds(sb, "<a href=\"#movement\">Movement</a>");
	if (boot)
		sb_adds(sb, "<a href=\"#tested\">Tested</a>");
	sb_adds(sb, "<a href=\"#implementations\">Implementations</a><a href=\"#disagreements\">Disagreements</a>"
		    "<a href=\"#layers\">Layers</a><a href=\"#files\">Files</a></nav>\n");
}

/* "multi 40, single-dynamic 27" for the implementations with this convertibility */
static void why(struct strbuf *sb, json_t *r, const char *conv)
{
	long long n[32] = { 0 };
	int order[32], k = 0;
	json_t *x;
	size_t i;

	json_array_foreach(json_object_get(r, "implementations"), i, x) {
		int c = class_index(jstr(x, "class"));

		if (c < 32 && !strcmp(jstr(x, "convertible"), conv))
			n[c]++;
	}
	for (int c = 0; class_order[c] && c < 32; c++)
		if (n[c])
			order[k++] = c;
	/* most frequent first; equal counts in taxonomy order */
	for (int a = 0; a < k; a++)
		for (int b = a + 1; b < k; b++)
			if (n[order[b]] > n[order[a]]) {
				int t = order[a];

				order[a] = order[b];
				order[b] = t;
			}
	for (int a = 0; a < k; a++)
		sb_addf(sb, "%s%s %lld", a ? ", " : "", class_order[order[a]], n[order[a]]);
	if (!k)
		sb_adds(sb, "none");
}

static void summary(struct strbuf *sb, json_t *r)
{
	json_t *counts = json_object_get(r, "counts"), *bv = json_object_get(counts, "by_convertible");
	json_t *bc = json_object_get(counts, "by_class");
	long long c[6];
	static const char *const whatis[] = {
		"already ->poll_mask()", "convertible \"yes\": one head known at open",
		"single head, but the open path is not known", "one head, registered conditionally",
		"not convertible; kept as ->poll", "",
	};

	for (int i = 0; i < 6; i++)
		c[i] = jint(bv, conv_order[i]);
	sb_adds(sb, "<section id=\"summary\">\n<div class=\"cards\">\n");
	sb_addf(sb, "<div class=\"card k-impl\"><div class=\"num\">%lld</div><div class=\"lbl\">implementations</div>"
		    "<div class=\"why\">%lld file_operations with a poll; %lld .poll members that are not file polling "
		    "left out</div></div>\n", jint(counts, "implementations"), jint(counts, "file_operations_with_poll"),
		jint(bc, "not-poll"));
	for (int i = 0; i < 5; i++) {
		sb_addf(sb, "<div class=\"card k-%s\" data-fconv=\"%s\" title=\"show these implementations\">"
			    "<div class=\"num\">%lld</div><div class=\"lbl\">%s</div><div class=\"why\">",
			conv_order[i], conv_order[i], c[i], conv_label[i]);
		sb_add_esc(sb, whatis[i]);
		if (c[i]) {
			sb_adds(sb, "<br>");
			why(sb, r, conv_order[i]);
		}
		sb_adds(sb, "</div></div>\n");
	}
	sb_adds(sb, "</div>\n");
	stack_bar(sb, c, true);
	legend(sb);
	if (jint(counts, "implementations")) {
		long long done = c[0], can = c[0] + c[1] + c[2];

		sb_addf(sb, "<p>%.1f%% converted; %.1f%% converted or convertible once their open path is known; "
			    "%lld to review by hand (<code>single-cond</code>); %lld flagged, which keep "
			    "<code>-&gt;poll</code>.</p>\n",
			100.0 * (double)done / (double)jint(counts, "implementations"),
			100.0 * (double)can / (double)jint(counts, "implementations"), c[3], c[4]);
	}
	census_summary_line(sb, r);
	sb_adds(sb, "</section>\n");
}

static void classes(struct strbuf *sb, json_t *r)
{
	json_t *bc = json_object_get(json_object_get(r, "counts"), "by_class");
	long long max = 1;

	for (size_t i = 0; i < sizeof(class_info) / sizeof(class_info[0]); i++)
		if (jint(bc, class_info[i].cls) > max)
			max = jint(bc, class_info[i].cls);
	sb_adds(sb, "<section id=\"classes\">\n<h2>Classes</h2>\n<table class=\"grid\"><thead><tr><th>class</th>"
		    "<th class=\"n\">n</th><th class=\"barcell\"></th><th>meaning</th><th>auto-convertible</th></tr>"
		    "</thead><tbody>\n");
	for (size_t i = 0; i < sizeof(class_info) / sizeof(class_info[0]); i++) {
		const struct class_info *ci = &class_info[i];

		sb_adds(sb, "<tr><td>");
		html_class_chip(sb, ci->cls, true);
		sb_addf(sb, "</td><td class=\"n\">%lld</td><td class=\"barcell\"><div class=\"hbar\" "
			    "style=\"width:%.2f%%\"></div></td><td class=\"meaning\">", jint(bc, ci->cls),
			100.0 * (double)jint(bc, ci->cls) / (double)max);
		sb_add_esc(sb, ci->meaning);
		sb_adds(sb, "</td><td class=\"conv\">");
		sb_add_esc(sb, ci->conv);
		sb_adds(sb, "</td></tr>\n");
	}
	sb_adds(sb, "</tbody></table>\n</section>\n");
}

static void subsystems(struct strbuf *sb, json_t *r)
{
	json_t *subs = subsystem_counts(r), *s;
	struct strvec keys = STRVEC_INIT;
	size_t i;

	json_sorted_keys(subs, &keys);
	sb_addf(sb, "<section id=\"subsystems\">\n<h2>Subsystems (%zu directories)</h2>\n"
		    "<div class=\"scroll\"><table class=\"grid sortable\" id=\"subs\"><colgroup>"
		    "<col style=\"width:21%%\"><col style=\"width:7%%\"><col style=\"width:11%%\">"
		    "<col style=\"width:11%%\"><col style=\"width:11%%\"><col style=\"width:8%%\">"
		    "<col style=\"width:9%%\"><col style=\"width:22%%\"></colgroup><thead><tr>"
		    "<th data-sort>subsystem</th><th data-sort class=\"n\">total</th>", keys.n);
	for (int c = 0; c < 5; c++)
		sb_addf(sb, "<th data-sort class=\"n\">%s</th>", conv_label[c]);
	sb_adds(sb, "<th data-sort title=\"sorted by the share converted or convertible\">progress</th></tr></thead><tbody>\n");
	for (i = 0; i < keys.n; i++) {
		long long c[5];

		s = json_object_get(subs, keys.v[i]);
		for (int k = 0; k < 5; k++)
			c[k] = jint(s, conv_order[k]);
		sb_adds(sb, "<tr><td><a class=\"f\" href=\"#implementations\" data-fsub=\"");
		sb_add_esc(sb, keys.v[i]);
		sb_adds(sb, "\">");
		sb_add_esc(sb, keys.v[i]);
		sb_addf(sb, "</a></td><td class=\"n\">%lld</td>", jint(s, "total"));
		for (int k = 0; k < 5; k++)
			sb_addf(sb, "<td class=\"n %s%s\">%lld</td>", c[k] ? "v-" : "z", c[k] ? conv_order[k] : "", c[k]);
		sb_addf(sb, "<td class=\"pbar\" data-v=\"%.4f\">", (double)(c[0] + c[1]) / (double)jint(s, "total"));
		stack_bar(sb, c, false);
		sb_adds(sb, "</td></tr>\n");
	}
	sb_adds(sb, "</tbody></table></div>\n");
	legend(sb);
	sb_adds(sb, "</section>\n");
	sv_clear(&keys);
	json_decref(subs);
}

/*
 * The view by MAINTAINERS section: one row per section the scan recorded
 * ("section" of each implementation, from the tree's MAINTAINERS), with
 * its counts per convertibility and per class and its implementations;
 * the files only THE REST claims are the last group, NO_SECTION.  Sorted
 * by name; the script sorts by any column and filters the table below by
 * section (#sec=NAME).
 */
static void sections_view(struct strbuf *sb, json_t *r, const char *url)
{
	json_t *impls = json_object_get(r, "implementations"), *x;
	struct strvec names = STRVEC_INIT;
	size_t i;

	if (!report_has_sections(r)) {
		sb_adds(sb, "<section id=\"sections\">\n<h2>MAINTAINERS sections</h2>\n<p class=\"note\">This scan "
			    "records no MAINTAINERS section per implementation (it was made by an older polltax): "
			    "scan again for this view.</p>\n</section>\n");
		return;
	}
	json_array_foreach(impls, i, x)
		if (jstr(x, "section")[0] && !sv_contains(&names, jstr(x, "section")))
			sv_push(&names, jstr(x, "section"));
	sv_sort(&names);
	json_array_foreach(impls, i, x)
		if (!jstr(x, "section")[0]) {
			sv_push(&names, NO_SECTION);
			break;
		}
	sb_addf(sb, "<section id=\"sections\">\n<h2>By MAINTAINERS section (%zu sections)</h2>\n"
		    "<p class=\"dim\">The section of the tree's <code>MAINTAINERS</code> that claims each "
		    "implementation's file, the most specific one, as <code>polltax series</code> groups its "
		    "patches; files that only THE REST claims are under <i>" NO_SECTION "</i>. Click a section "
		    "to list its implementations below (<code>.poll</code> members that are not file polling "
		    "included, as <i>excluded</i>).</p>\n<div class=\"scroll\"><table class=\"grid sortable\" id=\"secs\">"
		    "<colgroup><col style=\"width:19%%\"><col style=\"width:5%%\"><col span=\"6\" style=\"width:6%%\">"
		    "<col style=\"width:8%%\"><col style=\"width:20%%\"><col style=\"width:12%%\"></colgroup><thead><tr>"
		    "<th data-sort aria-sort=\"ascending\">section</th><th data-sort class=\"n\">total</th>",
		names.n);
	for (int c = 0; c < 6; c++)
		sb_addf(sb, "<th data-sort class=\"n\">%s</th>", conv_label[c]);
	sb_adds(sb, "<th data-sort title=\"sorted by the share converted or convertible\">progress</th>"
		    "<th data-sort title=\"sorted by the number of classes\">classes</th>"
		    "<th data-sort title=\"sorted by their number\">implementations</th></tr></thead><tbody>\n");
	for (size_t k = 0; k < names.n; k++) {
		long long c[6] = { 0 }, nc[32] = { 0 }, total = 0;
		int ncls = 0;

		json_array_foreach(impls, i, x) {
			int v = conv_index(jstr(x, "convertible")), cl = class_index(jstr(x, "class"));

			if (strcmp(report_section_of(x), names.v[k]))
				continue;
			total++;
			if (v < 6)
				c[v]++;
			if (cl < 32)
				nc[cl]++;
		}
		for (int cl = 0; cl < 32 && class_order[cl]; cl++)
			ncls += nc[cl] > 0;
		sb_adds(sb, "<tr data-sec=\"");
		sb_add_esc(sb, names.v[k]);
		/* the group of no section sorts last */
		sb_addf(sb, "\"><td data-v=\"%s", k + 1 == names.n && !strcmp(names.v[k], NO_SECTION) ? "~" : "");
		sb_add_esc(sb, names.v[k]);
		sb_adds(sb, "\"><a class=\"f\" href=\"#implementations\" data-fsec=\"");
		sb_add_esc(sb, names.v[k]);
		sb_adds(sb, "\">");
		sb_add_esc(sb, names.v[k]);
		sb_addf(sb, "</a></td><td class=\"n\">%lld</td>", total);
		for (int v = 0; v < 6; v++)
			sb_addf(sb, "<td class=\"n %s%s\">%lld</td>", c[v] ? "v-" : "z", c[v] ? conv_order[v] : "", c[v]);
		sb_addf(sb, "<td class=\"pbar\" data-v=\"%.4f\">", total > c[5] ? (double)(c[0] + c[1]) / (double)(total - c[5]) : 0.0);
		stack_bar(sb, c, false);
		sb_addf(sb, "</td><td class=\"secl\" data-v=\"%d\">", ncls);
		for (int cl = 0, first = 1; cl < 32 && class_order[cl]; cl++)
			if (nc[cl]) {
				if (!first)
					sb_adds(sb, " ");
				first = 0;
				sb_adds(sb, "<span class=\"nw\">");
				html_class_chip(sb, class_order[cl], false);
				sb_addf(sb, "&#160;%lld</span>", nc[cl]);
			}
		sb_addf(sb, "</td><td class=\"impls\" data-v=\"%lld\"><details><summary>%lld</summary>", total, total);
		json_array_foreach(impls, i, x) {
			if (strcmp(report_section_of(x), names.v[k]))
				continue;
			sb_adds(sb, "<div><code>");
			sb_add_esc(sb, jstr(x, "function"));
			sb_adds(sb, "</code> <small>");
			sb_add_loc(sb, url, jstr(x, "file"), jint(x, "line"), NULL);
			sb_adds(sb, "</small> ");
			html_class_chip(sb, jstr(x, "class"), false);
			sb_adds(sb, "</div>");
		}
		sb_adds(sb, "</details></td></tr>\n");
	}
	sb_adds(sb, "</tbody></table></div>\n");
	legend(sb);
	sb_adds(sb, "</section>\n");
	sv_clear(&names);
}

static void progress_section(struct strbuf *sb, json_t *history)
{
	json_t *e;
	size_t i;

	sb_addf(sb, "<section id=\"progress\">\n<h2>Progress (%zu scans in history.json)</h2>\n",
		json_array_size(history));
	progress_svg(sb, history);
	sb_adds(sb, "<table class=\"grid\" style=\"width:auto\"><thead><tr><th>date</th><th>version</th>"
		    "<th class=\"n\">implementations</th>");
	for (int c = 0; c < 5; c++)
		sb_addf(sb, "<th class=\"n\">%s</th>", conv_label[c]);
	sb_adds(sb, "</tr></thead><tbody>\n");
	json_array_foreach(history, i, e) {
		struct progress_row pr;

		progress_row(e, &pr);
		sb_adds(sb, "<tr><td>");
		sb_add_esc(sb, pr.date);
		sb_adds(sb, "</td><td>");
		sb_add_esc(sb, pr.label);
		sb_addf(sb, "</td><td class=\"n\">%lld</td><td class=\"n\">%lld</td><td class=\"n\">%lld</td>"
			    "<td class=\"n\">%lld</td><td class=\"n\">%lld</td><td class=\"n\">%lld</td></tr>\n",
			pr.implementations, pr.converted, pr.yes, pr.needs_open, pr.review, pr.no);
	}
	sb_adds(sb, "</tbody></table>\n</section>\n");
}

static void tested_section(struct strbuf *sb, json_t *boot, const char *boot_error)
{
	sb_adds(sb, "<section id=\"tested\">\n<h2>Tested</h2>\n<p class=\"dim\">From <code>boot-test.json</code> "
		    "in the output directory, shown as recorded.</p>\n");
	if (boot_error) {
		sb_adds(sb, "<p class=\"note\">boot-test.json cannot be read: ");
		sb_add_esc(sb, boot_error);
		sb_adds(sb, "</p>\n");
	} else {
		sb_add_json_table(sb, boot);
		sb_addc(sb, '\n');
	}
	sb_adds(sb, "</section>\n");
}

char *report_html(json_t *r, json_t *history, json_t *since, json_t *boot, const char *boot_error,
		  const char *url)
{
	struct strbuf sb = STRBUF_INIT;
	bool has_hist = history && json_array_size(history);

	page_head(&sb, r);
	nav(&sb, has_hist, since != NULL, boot || boot_error);
	sb_adds(&sb, "<main>\n");
	summary(&sb, r);
	sb_adds(&sb, "<div class=\"two\">\n");
	classes(&sb, r);
	subsystems(&sb, r);
	sb_adds(&sb, "</div>\n");
	sections_view(&sb, r, url);
	if (has_hist)
		progress_section(&sb, history);
	if (since) {
		json_t *mv = movement_compute(since, r);

		sb_adds(&sb, "<section id=\"movement\">\n<h2>Movement since ");
		sb_add_esc(&sb, jstr(mv, "from"));
		sb_adds(&sb, "</h2>\n");
		movement_html(&sb, mv, url);
		sb_adds(&sb, "</section>\n");
		json_decref(mv);
	}
	if (boot || boot_error)
		tested_section(&sb, boot, boot_error);
	implementations_section(&sb, r, url);
	disagreements_section(&sb, r, url);
	layers_section(&sb, r);
	files_section(&sb, r);
	census_section(&sb, r, url);
	sb_adds(&sb, "</main>\n<footer>Generated by ");
	sb_add_esc(&sb, jstr(r, "tool"));
	sb_adds(&sb, " (<code>polltax report</code>) from polltax.json. Click a column header to sort, a class, "
		     "a subsystem, a MAINTAINERS section or a figure to filter the implementations.</footer>\n"
		     "<div id=\"selftest\" hidden></div>\n<script>\n");
	sb_adds(&sb, report_js);
	sb_adds(&sb, "</script>\n</body>\n</html>\n");
	return sb_detach(&sb);
}

static json_t *load_result(const char *dir)
{
	char *p = path_join(dir, "polltax.json");
	json_error_t je;
	json_t *r = json_load_file(p, 0, &je);

	if (!r)
		error("cannot read '%s': %s", p, je.text);
	else if (!json_is_object(r) || !json_is_array(json_object_get(r, "implementations"))) {
		error("'%s' is not a polltax scan (no \"implementations\")", p);
		json_decref(r);
		r = NULL;
	}
	free(p);
	return r;
}

/*
 * The link template with %v replaced by the tree's version (%% stays for
 * sb_add_href).  Without one, a tree's path gives file://TREE/%f#L%l, so
 * that the links open the source from the page wherever it lies.
 */
static char *url_for_tree(const char *tmpl, const char *tree, json_t *r)
{
	struct strbuf sb = STRBUF_INIT;

	if (!tmpl && tree && *tree == '/') {
		struct strbuf enc = STRBUF_INIT;

		sb_add_path_encoded(&enc, tree);
		sb_adds(&sb, "file://");
		for (const char *p = enc.buf ? enc.buf : ""; *p; p++) {
			if (*p == '%')
				sb_addc(&sb, '%');
			sb_addc(&sb, *p);
		}
		sb_release(&enc);
		sb_adds(&sb, "/%f#L%l");
		return sb_detach(&sb);
	}
	if (!tmpl)
		return NULL;
	for (const char *p = tmpl; *p; p++) {
		if (p[0] == '%' && p[1] == 'v') {
			sb_adds(&sb, jstr(json_object_get(r, "tree"), "version"));
			p++;
		} else if (p[0] == '%' && p[1]) {
			sb_add(&sb, p, 2);
			p++;
		} else {
			sb_addc(&sb, *p);
		}
	}
	return sb_detach(&sb);
}

int report_write(const char *dir, const struct report_opts *o)
{
	static const struct report_opts defaults;
	json_t *r, *history = NULL, *since = NULL, *boot = NULL;
	char *p, *html, *url, *boot_error = NULL;
	int rc;

	if (!o)
		o = &defaults;
	r = load_result(dir);
	if (!r)
		return -1;
	if (o->since && !(since = load_result(o->since))) {
		json_decref(r);
		return -1;
	}
	p = path_join(dir, "history.json");
	if (is_file(p))
		history = history_load(p);
	free(p);
	p = path_join(dir, "boot-test.json");
	if (is_file(p)) {
		json_error_t je;

		boot = json_load_file(p, JSON_DECODE_ANY, &je);
		if (!boot) {
			warning("cannot read '%s': %s", p, je.text);
			boot_error = xasprintf("line %d: %s", je.line, je.text);
		}
	}
	free(p);
	url = url_for_tree(o->url, o->tree, r);
	html = report_html(r, history, since, boot, boot_error, url);
	free(url);
	p = o->out ? xstrdup(o->out) : path_join(dir, "report.html");
	rc = write_file_atomic(p, html, strlen(html));	/* says why itself */
	free(p);
	free(html);
	free(boot_error);
	json_decref(boot);
	json_decref(history);
	json_decref(since);
	json_decref(r);
	return rc < 0 ? -1 : 0;
}
