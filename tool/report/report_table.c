// SPDX-License-Identifier: GPL-2.0
/*
 * report_table.c - the sections of report.html after the summary: every
 * implementation (one row each, in the scan's order, with the data the
 * page's script sorts and filters on), the disagreements between the
 * libclang classifier and the Coccinelle pass, the poll layers and the
 * files the scan could not use.  It shows the classes of TAXONOMY.md as
 * recorded; it decides none.
 */
#define _GNU_SOURCE
#include "report_impl.h"
#include "lib/json_util.h"
#include "html.h"
#include "scan/output.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* sites shown before the rest folds away: one implementation in 6.12 has 101 */
enum { SITES_SHOWN = 4 };

static void lower_esc(struct strbuf *sb, const char *s)
{
	struct strbuf t = STRBUF_INIT;

	for (; *s; s++)
		sb_addc(&t, (char)tolower((unsigned char)*s));
	sb_add_esc(sb, t.buf ? t.buf : "");
	sb_release(&t);
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

const char *report_section_of(json_t *x)
{
	const char *s = jstr(x, "section");

	return s[0] ? s : NO_SECTION;
}

bool report_has_sections(json_t *r)
{
	json_t *x;
	size_t i;

	json_array_foreach(json_object_get(r, "implementations"), i, x)
		if (json_is_string(json_object_get(x, "section")))
			return true;
	return false;
}

/* One <option> a name of V, escaped. */
static void add_options(struct strbuf *sb, const struct strvec *v)
{
	for (size_t i = 0; i < v->n; i++) {
		sb_adds(sb, "<option>");
		sb_add_esc(sb, v->v[i]);
		sb_adds(sb, "</option>");
	}
}

static void filters(struct strbuf *sb, json_t *r)
{
	json_t *impls = json_object_get(r, "implementations"), *x;
	struct strvec subs = STRVEC_INIT, secs = STRVEC_INIT;
	bool has_secs = report_has_sections(r);
	long long nc[16] = { 0 }, nv[8] = { 0 };
	size_t i;

	json_array_foreach(impls, i, x) {
		int c = class_index(jstr(x, "class")), v = conv_index(jstr(x, "convertible"));

		if (c < 16)
			nc[c]++;
		if (v < 8)
			nv[v]++;
		if (!sv_contains(&subs, jstr(x, "subsystem")))
			sv_push(&subs, jstr(x, "subsystem"));
		if (has_secs && jstr(x, "section")[0] && !sv_contains(&secs, jstr(x, "section")))
			sv_push(&secs, jstr(x, "section"));
	}
	sv_sort(&subs);
	sv_sort(&secs);
	if (has_secs)
		sv_push(&secs, NO_SECTION);	/* last, as in the view by section */
	sb_adds(sb, "<div class=\"filters\"><label for=\"f-text\">Find</label>"
		    "<input type=\"search\" id=\"f-text\" placeholder=\"function or file name\" autocomplete=\"off\">"
		    "<label for=\"f-class\">class</label><select id=\"f-class\"><option value=\"\">all classes</option>");
	for (int c = 0; class_order[c] && c < 16; c++)
		if (nc[c])
			sb_addf(sb, "<option value=\"%s\">%s (%lld)</option>", class_order[c], class_order[c], nc[c]);
	sb_adds(sb, "</select><label for=\"f-conv\">convertible</label><select id=\"f-conv\">"
		    "<option value=\"\">any</option>");
	for (int v = 0; conv_order[v] && v < 8; v++)
		if (nv[v])
			sb_addf(sb, "<option value=\"%s\">%s (%lld)</option>", conv_order[v], conv_order[v], nv[v]);
	sb_adds(sb, "</select><label for=\"f-sub\">subsystem</label><select id=\"f-sub\">"
		    "<option value=\"\">all subsystems</option>");
	add_options(sb, &subs);
	sb_adds(sb, "</select>");
	if (has_secs) {
		sb_adds(sb, "<label for=\"f-sec\">MAINTAINERS</label><select id=\"f-sec\">"
			    "<option value=\"\">all sections</option>");
		add_options(sb, &secs);
		sb_adds(sb, "</select>");
	}
	sb_addf(sb, "<button type=\"button\" id=\"f-reset\">reset</button>"
		    "<span id=\"f-count\" class=\"dim\">%zu rows</span></div>\n", json_array_size(impls));
	sv_clear(&subs);
	sv_clear(&secs);
}

static void function_cell(struct strbuf *sb, json_t *x, const char *url)
{
	json_t *ops = json_object_get(x, "ops"), *o;
	size_t i;

	sb_adds(sb, "<td data-v=\"");
	sb_add_esc(sb, jstr(x, "function"));
	sb_adds(sb, "\"><code><b>");
	sb_add_esc(sb, jstr(x, "function"));
	sb_adds(sb, "</b></code><br><small>");
	sb_add_esc(sb, jstr(x, "layer"));
	sb_adds(sb, "</small>");
	json_array_foreach(ops, i, o) {
		if (i == 3) {
			sb_addf(sb, "<br><small>+%zu more ops</small>", json_array_size(ops) - 3);
			break;
		}
		sb_adds(sb, "<br><small>in ");
		sb_add_loc(sb, url, jstr(o, "file"), jint(o, "line"), jstr(o, "var"));
		if (jstr(o, "macro")[0]) {
			sb_adds(sb, " via ");
			sb_add_esc(sb, jstr(o, "macro"));
		}
		sb_adds(sb, "</small>");
	}
	sb_adds(sb, "</td>");
}

static void heads_cell(struct strbuf *sb, json_t *x, const char *url)
{
	json_t *heads = json_object_get(x, "heads"), *h;
	size_t i;

	sb_addf(sb, "<td class=\"heads\" data-v=\"%zu\">", json_array_size(heads));
	json_array_foreach(heads, i, h) {
		sb_adds(sb, "<div><code>");
		sb_add_esc(sb, jstr(h, "expr"));
		sb_adds(sb, "</code>");
		if (jstr(h, "resolved")[0] && strcmp(jstr(h, "resolved"), jstr(h, "expr"))) {
			sb_adds(sb, " <small>= <code>");
			sb_add_esc(sb, jstr(h, "resolved"));
			sb_adds(sb, "</code></small>");
		}
		sb_adds(sb, "<br><small>");
		sb_add_esc(sb, jstr(h, "base"));
		if (json_is_true(json_object_get(h, "conditional")))
			sb_adds(sb, ", <b>conditional</b>");
		sb_adds(sb, ", ");
		if (jstr(h, "via")[0]) {
			sb_adds(sb, "via ");
			sb_add_esc(sb, jstr(h, "via"));
			sb_adds(sb, " ");
		}
		sb_adds(sb, "at ");
		{
			char *t = xasprintf("%s:%lld", base_name(jstr(h, "file")), jint(h, "line"));

			sb_add_loc(sb, url, jstr(h, "file"), jint(h, "line"), t);
			free(t);
		}
		sb_adds(sb, "</small></div>");
	}
	sb_adds(sb, "</td>");
}

static void site(struct strbuf *sb, json_t *s, const char *url)
{
	sb_adds(sb, "<div>");
	sb_add_esc(sb, jstr(s, "kind"));
	sb_adds(sb, " ");
	sb_add_loc(sb, url, jstr(s, "file"), jint(s, "line"), jstr(s, "function"));
	if (json_is_false(json_object_get(s, "settable")))
		sb_adds(sb, " <small title=\"polltax cannot set f_poll_head at this site\">(not settable)</small>");
	sb_adds(sb, "</div>");
}

static void sites_cell(struct strbuf *sb, json_t *x, const char *url)
{
	json_t *sites = json_object_get(x, "creation_sites"), *s;
	size_t n = json_array_size(sites), i;

	sb_addf(sb, "<td class=\"sites\" data-v=\"%zu\">", n);
	json_array_foreach(sites, i, s) {
		if (i == SITES_SHOWN && n > SITES_SHOWN + 1)
			sb_addf(sb, "<details><summary>%zu more</summary>", n - SITES_SHOWN);
		site(sb, s, url);
	}
	if (n > SITES_SHOWN + 1)
		sb_adds(sb, "</details>");
	sb_adds(sb, "</td>");
}

static void evidence(struct strbuf *sb, json_t *x, const char *k, const char *label)
{
	json_t *a = json_object_get(x, k), *e;
	size_t i;

	if (!json_array_size(a))
		return;
	sb_addf(sb, "<br><small>%s: ", label);
	json_array_foreach(a, i, e) {
		if (i)
			sb_adds(sb, "; ");
		sb_add_esc(sb, json_string_value(e) ? json_string_value(e) : "");
	}
	sb_adds(sb, "</small>");
}

static void reason_cell(struct strbuf *sb, json_t *x)
{
	json_t *pr = json_object_get(x, "private_data_reassigned"), *p;
	size_t i;

	sb_adds(sb, "<td class=\"reason\">");
	sb_add_esc(sb, jstr(x, "reason"));
	evidence(sb, x, "busy_poll", "busy-poll");
	evidence(sb, x, "delegates", "delegates to");
	evidence(sb, x, "pt_uses", "poll_table used by");
	json_array_foreach(pr, i, p) {
		sb_adds(sb, "<br><small>private_data reassigned in ");
		sb_add_esc(sb, jstr(p, "function"));
		sb_addf(sb, "()</small>");
	}
	if (json_is_false(json_object_get(x, "compiled")) && !strstr(jstr(x, "reason"), "not compiled"))
		sb_adds(sb, "<br><small>not compiled: classified by the Coccinelle pass only</small>");
	sb_adds(sb, "</td>");
}

static void cocci_cell(struct strbuf *sb, json_t *x, bool disagree)
{
	json_t *c = json_object_get(x, "cocci");

	if (!json_is_object(c)) {
		sb_adds(sb, "<td class=\"cocci\" data-v=\"\"><span class=\"dim\">&#8212;</span></td>");
		return;
	}
	sb_adds(sb, "<td class=\"cocci\" data-v=\"");
	sb_add_esc(sb, jstr(c, "class"));
	sb_adds(sb, "\">");
	html_class_chip(sb, jstr(c, "class"), false);
	if (disagree)
		sb_adds(sb, " <b title=\"the two classifiers disagree\">&#9888; disagrees</b>");
	if (jstr(c, "reason")[0]) {
		sb_adds(sb, "<br><small>");
		sb_add_esc(sb, jstr(c, "reason"));
		sb_adds(sb, "</small>");
	}
	sb_adds(sb, "</td>");
}

static bool disagrees(json_t *r, json_t *x)
{
	json_t *d;
	size_t i;

	json_array_foreach(json_object_get(r, "disagreements"), i, d)
		if (!strcmp(jstr(d, "function"), jstr(x, "function")) && !strcmp(jstr(d, "file"), jstr(x, "file")))
			return true;
	return false;
}

void implementations_section(struct strbuf *sb, json_t *r, const char *url)
{
	json_t *x;
	size_t i;

	sb_adds(sb, "<section id=\"implementations\">\n<h2>Implementations</h2>\n");
	filters(sb, r);
	sb_adds(sb, "<div class=\"tscroll\"><table class=\"grid sortable\" id=\"impl\"><colgroup>"
		    "<col style=\"width:13%\"><col style=\"width:13%\"><col style=\"width:9%\">"
		    "<col style=\"width:7%\"><col style=\"width:18%\"><col style=\"width:11%\">"
		    "<col style=\"width:17%\"><col style=\"width:12%\"></colgroup><thead><tr>"
		    "<th data-sort>function</th><th data-sort aria-sort=\"ascending\">location</th>"
		    "<th data-sort>class</th><th data-sort>convertible</th><th data-sort>heads</th>"
		    "<th data-sort>creation sites</th><th>reason</th><th data-sort>Coccinelle</th></tr></thead>"
		    "<tbody>\n");
	json_array_foreach(json_object_get(r, "implementations"), i, x) {
		bool dis = disagrees(r, x);

		sb_adds(sb, "<tr data-class=\"");
		sb_add_esc(sb, jstr(x, "class"));
		sb_adds(sb, "\" data-conv=\"");
		sb_add_esc(sb, jstr(x, "convertible"));
		sb_adds(sb, "\" data-sub=\"");
		sb_add_esc(sb, jstr(x, "subsystem"));
		if (json_is_string(json_object_get(x, "section"))) {
			sb_adds(sb, "\" data-sec=\"");
			sb_add_esc(sb, report_section_of(x));
		}
		sb_adds(sb, "\" data-name=\"");
		lower_esc(sb, jstr(x, "function"));
		sb_adds(sb, " ");
		lower_esc(sb, jstr(x, "file"));
		sb_addf(sb, "\"%s>", dis ? " class=\"disagree\"" : "");
		function_cell(sb, x, url);
		sb_adds(sb, "<td data-v=\"");
		sb_add_esc(sb, jstr(x, "file"));
		sb_addf(sb, " %08lld\">", jint(x, "line"));
		sb_add_loc(sb, url, jstr(x, "file"), jint(x, "line"), NULL);
		sb_addf(sb, "</td><td data-v=\"%02d\">", class_index(jstr(x, "class")));
		html_class_chip(sb, jstr(x, "class"), false);
		sb_addf(sb, "</td><td data-v=\"%d\" class=\"v-", conv_index(jstr(x, "convertible")));
		sb_add_esc(sb, jstr(x, "convertible"));
		sb_adds(sb, "\">");
		sb_add_esc(sb, jstr(x, "convertible"));
		sb_adds(sb, "</td>");
		heads_cell(sb, x, url);
		sites_cell(sb, x, url);
		reason_cell(sb, x);
		cocci_cell(sb, x, dis);
		sb_adds(sb, "</tr>\n");
	}
	sb_adds(sb, "</tbody></table></div>\n</section>\n");
}

static bool cocci_ran(json_t *r)
{
	json_t *x;
	size_t i;

	json_array_foreach(json_object_get(r, "implementations"), i, x)
		if (json_is_object(json_object_get(x, "cocci")))
			return true;
	return false;
}

void disagreements_section(struct strbuf *sb, json_t *r, const char *url)
{
	json_t *ds = json_object_get(r, "disagreements"), *d;
	size_t i;

	sb_addf(sb, "<section id=\"disagreements\">\n<h2>Disagreements between the classifiers (%zu)</h2>\n"
		    "<p class=\"dim\">The libclang classifier and the Coccinelle pass "
		    "(<code>cocci/classify.cocci</code>) disagree when their class families differ: none, single "
		    "(every single-*), multi, busy-poll, delegate, unknown.</p>\n", json_array_size(ds));
	if (!cocci_ran(r)) {
		sb_adds(sb, "<p class=\"note\">The Coccinelle pass did not run for this scan, so there is no "
			    "second opinion.</p>\n</section>\n");
		return;
	}
	if (!json_array_size(ds)) {
		sb_adds(sb, "<p>The two classifiers agree on every implementation.</p>\n</section>\n");
		return;
	}
	sb_adds(sb, "<table class=\"grid sortable\" id=\"dis\"><thead><tr><th data-sort>function</th>"
		    "<th data-sort>location</th><th data-sort>polltax</th><th data-sort class=\"n\">heads</th>"
		    "<th data-sort>Coccinelle</th><th data-sort>heads</th><th>Coccinelle's reason</th></tr>"
		    "</thead><tbody>\n");
	json_array_foreach(ds, i, d) {
		sb_adds(sb, "<tr><td><code>");
		sb_add_esc(sb, jstr(d, "function"));
		sb_adds(sb, "</code></td><td>");
		sb_add_loc(sb, url, jstr(d, "file"), jint(d, "line"), NULL);
		sb_adds(sb, "</td><td>");
		html_class_chip(sb, jstr(d, "polltax"), false);
		sb_addf(sb, "</td><td class=\"n\">%lld</td><td>", jint(d, "polltax_heads"));
		html_class_chip(sb, jstr(d, "cocci"), false);
		sb_adds(sb, "</td><td><code>");
		sb_add_esc(sb, jstr(d, "cocci_heads"));
		sb_adds(sb, "</code></td><td>");
		sb_add_esc(sb, jstr(d, "cocci_reason"));
		sb_adds(sb, "</td></tr>\n");
	}
	sb_adds(sb, "</tbody></table>\n</section>\n");
}

void layers_section(struct strbuf *sb, json_t *r)
{
	json_t *layers = json_object_get(r, "layers"), *l, *x;
	size_t i, j;

	sb_addf(sb, "<section id=\"layers\">\n<h2>Poll layers (%zu)</h2>\n<p class=\"dim\">Found by following "
		    "the indirect calls of the file polls, not from a list.</p>\n<table class=\"grid sortable\" "
		    "id=\"layers-t\"><thead><tr><th data-sort>layer</th><th data-sort class=\"n\">implementations</th>"
		    "<th data-sort>busy-poll</th><th data-sort>found via</th></tr></thead><tbody>\n",
		json_array_size(layers));
	json_array_foreach(layers, i, l) {
		long long n = 0;

		json_array_foreach(json_object_get(r, "implementations"), j, x)
			n += !strcmp(jstr(x, "layer"), jstr(l, "layer"));
		sb_adds(sb, "<tr><td><code>");
		sb_add_esc(sb, jstr(l, "layer"));
		sb_addf(sb, "</code></td><td class=\"n\">%lld</td><td>%s</td><td>", n,
			json_is_true(json_object_get(l, "busy_poll")) ? "yes" : "");
		sb_add_esc(sb, jstr(l, "found_via"));
		sb_adds(sb, "</td></tr>\n");
	}
	sb_adds(sb, "</tbody></table>\n</section>\n");
}

static void string_list(struct strbuf *sb, json_t *a, const char *what)
{
	json_t *e;
	size_t i;

	if (!json_array_size(a))
		return;
	sb_addf(sb, "<details><summary>%zu %s</summary><ul>", json_array_size(a), what);
	json_array_foreach(a, i, e) {
		sb_adds(sb, "<li>");
		if (json_is_object(e)) {
			sb_add_esc(sb, jstr(e, "file"));
			sb_adds(sb, ": ");
			sb_add_esc(sb, jstr(e, "reason"));
		} else {
			sb_add_esc(sb, json_string_value(e) ? json_string_value(e) : "");
		}
		sb_adds(sb, "</li>");
	}
	sb_adds(sb, "</ul></details>\n");
}

void files_section(struct strbuf *sb, json_t *r)
{
	json_t *f = json_object_get(r, "files");

	sb_addf(sb, "<section id=\"files\">\n<h2>Files</h2>\n<p>%lld candidate files (the prefilter kept them), "
		    "%lld parsed, %zu parsed through the .c file that #includes them, %zu did not parse (libclang "
		    "crashed, timed out, reported errors or found no function: see the census), %zu not compiled "
		    "by the configuration, %zu skipped.</p>\n", jint(f, "candidates"), jint(f, "parsed"),
		json_array_size(json_object_get(f, "through_includer")), json_array_size(json_object_get(f, "failed")),
		json_array_size(json_object_get(f, "not_compiled")), json_array_size(json_object_get(f, "skipped")));
	string_list(sb, json_object_get(f, "failed"), "did not parse");
	{
		json_t *t;
		size_t i;

		if (json_array_size(json_object_get(f, "through_includer"))) {
			sb_addf(sb, "<details><summary>%zu parsed through their includer</summary><ul>",
				json_array_size(json_object_get(f, "through_includer")));
			json_array_foreach(json_object_get(f, "through_includer"), i, t) {
				sb_adds(sb, "<li>");
				sb_add_esc(sb, jstr(t, "file"));
				sb_adds(sb, " through ");
				sb_add_esc(sb, jstr(t, "includer"));
				sb_adds(sb, "</li>");
			}
			sb_adds(sb, "</ul></details>\n");
		}
	}
	string_list(sb, json_object_get(f, "not_compiled"), "not compiled");
	string_list(sb, json_object_get(f, "skipped"), "skipped");
	sb_adds(sb, "</section>\n");
}
