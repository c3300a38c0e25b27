// SPDX-License-Identifier: GPL-2.0
/*
 * movement.c - the difference between two scans (see movement.h).  It
 * decides no class: it reports how the classes of TAXONOMY.md recorded by
 * two scans moved, so a maintainer can tell conversions ("converted"),
 * new drivers and analysis changes apart.
 *
 * Matching is by file + function; foo_poll_mask of class converted
 * matches the foo_poll it replaced in the same file.  A function that disappears from one
 * file and appears in exactly one other file under the same name (and is
 * the only one of that name on each side) is "moved", not removed+added:
 * between 6.1 and 6.12 whole directories moved (staging graduations).
 */
#define _GNU_SOURCE
#include "movement.h"
#include "lib/json_util.h"
#include "html.h"

#include <stdlib.h>
#include <string.h>

static bool is_impl(json_t *x)
{
	return strcmp(jstr(x, "class"), "not-poll") != 0;
}

static char *key(json_t *x)
{
	return xasprintf("%s\t%s", jstr(x, "file"), jstr(x, "function"));
}

/* key -> array of implementations (a file can define a name twice under #ifdef) */
static json_t *index_by_key(json_t *impls)
{
	json_t *m = json_object(), *x, *a;
	size_t i;

	json_array_foreach(impls, i, x) {
		char *k;

		if (!is_impl(x))
			continue;
		k = key(x);
		a = json_object_get(m, k);
		if (!a) {
			a = json_array();
			json_object_set_new(m, k, a);
		}
		json_array_append(a, x);
		free(k);
	}
	return m;
}

/* Take the first entry under x's key out of the index; NULL when none. */
static json_t *take(json_t *index, json_t *x)
{
	char *k = key(x);
	json_t *a = json_object_get(index, k), *y = NULL;

	if (a && json_array_size(a)) {
		y = json_incref(json_array_get(a, 0));
		json_array_remove(a, 0);
	}
	free(k);
	return y;
}

static size_t count_name(json_t *list, const char *fn)
{
	size_t n = 0, i;
	json_t *x;

	json_array_foreach(list, i, x)
		n += !strcmp(jstr(x, "function"), fn);
	return n;
}

/* "class -> class"; when only the convertibility moved, "class (conv) -> class (conv)" */
static void add_transition(json_t *tr, json_t *was, json_t *now)
{
	char *k;

	if (strcmp(jstr(was, "class"), jstr(now, "class")))
		k = xasprintf("%s -> %s", jstr(was, "class"), jstr(now, "class"));
	else
		k = xasprintf("%s (%s) -> %s (%s)", jstr(was, "class"), jstr(was, "convertible"), jstr(now, "class"),
			      jstr(now, "convertible"));

	json_object_set_new(tr, k, json_integer(jint(tr, k) + 1));
	free(k);
}

json_t *movement_compute(json_t *old, json_t *cur)
{
	json_t *oi = index_by_key(json_object_get(old, "implementations"));
	json_t *added = json_array(), *removed = json_array(), *moved = json_array();
	json_t *recl = json_array(), *tr = json_object(), *trl = json_array(), *x, *y, *mv;
	json_t *oimpls = json_object_get(old, "implementations");
	json_t *otree = json_object_get(old, "tree"), *ctree = json_object_get(cur, "tree");
	struct strvec keys = STRVEC_INIT;
	long long unchanged = 0;
	size_t i;

	json_array_foreach(json_object_get(cur, "implementations"), i, x) {
		if (!is_impl(x))
			continue;
		y = take(oi, x);
		if (!y) {
			json_array_append(added, x);
			continue;
		}
		if (strcmp(jstr(x, "class"), jstr(y, "class")) || strcmp(jstr(x, "convertible"), jstr(y, "convertible"))) {
			json_array_append_new(recl, json_pack("{s:s, s:s, s:I, s:s, s:s, s:s, s:s, s:s}",
				"function", jstr(x, "function"), "file", jstr(x, "file"), "line", (json_int_t)jint(x, "line"),
				"from_class", jstr(y, "class"), "to_class", jstr(x, "class"),
				"from_convertible", jstr(y, "convertible"), "to_convertible", jstr(x, "convertible"),
				"reason", jstr(x, "reason")));
			add_transition(tr, y, x);
		} else {
			unchanged++;
		}
		json_decref(y);
	}
	/* what is left in the index was removed; keep the old scan's order */
	json_array_foreach(oimpls, i, x) {
		if (!is_impl(x))
			continue;
		y = take(oi, x);
		if (y)
			json_array_append_new(removed, y);
	}
	/*
	 * A conversion renames foo_poll to foo_poll_mask in the same file: that
	 * is the same implementation, reclassified as converted.
	 */
	for (i = 0; i < json_array_size(added); ) {
		size_t j, n;

		x = json_array_get(added, i);
		n = strlen(jstr(x, "function"));
		y = NULL;
		if (!strcmp(jstr(x, "class"), "converted") && n > 5 && !strcmp(jstr(x, "function") + n - 5, "_mask"))
			json_array_foreach(removed, j, y)
				if (!strcmp(jstr(y, "file"), jstr(x, "file")) && strlen(jstr(y, "function")) == n - 5 &&
				    !strncmp(jstr(y, "function"), jstr(x, "function"), n - 5))
					break;
		if (!y || j == json_array_size(removed)) {
			i++;
			continue;
		}
		json_array_append_new(recl, json_pack("{s:s, s:s, s:s, s:I, s:s, s:s, s:s, s:s, s:s}",
			"function", jstr(x, "function"), "from_function", jstr(y, "function"), "file", jstr(x, "file"),
			"line", (json_int_t)jint(x, "line"), "from_class", jstr(y, "class"), "to_class", jstr(x, "class"),
			"from_convertible", jstr(y, "convertible"), "to_convertible", jstr(x, "convertible"),
			"reason", jstr(x, "reason")));
		add_transition(tr, y, x);
		json_array_remove(removed, j);
		json_array_remove(added, i);
	}
	/* pair unique names across removed and added */
	for (i = 0; i < json_array_size(added); ) {
		const char *fn = jstr(json_array_get(added, i), "function");
		size_t j;

		if (count_name(added, fn) != 1 || count_name(removed, fn) != 1) {
			i++;
			continue;
		}
		x = json_array_get(added, i);
		for (j = 0; strcmp(jstr(json_array_get(removed, j), "function"), fn); j++)
			;	/* count_name() says it is there */
		y = json_array_get(removed, j);
		json_array_append_new(moved, json_pack("{s:s, s:s, s:I, s:s, s:I, s:s, s:s, s:s, s:s}",
			"function", fn, "from_file", jstr(y, "file"), "from_line", (json_int_t)jint(y, "line"),
			"to_file", jstr(x, "file"), "to_line", (json_int_t)jint(x, "line"),
			"from_class", jstr(y, "class"), "to_class", jstr(x, "class"),
			"from_convertible", jstr(y, "convertible"), "to_convertible", jstr(x, "convertible")));
		if (strcmp(jstr(x, "class"), jstr(y, "class")) || strcmp(jstr(x, "convertible"), jstr(y, "convertible")))
			add_transition(tr, y, x);
		json_array_remove(removed, j);
		json_array_remove(added, i);
	}
	json_sorted_keys(tr, &keys);
	for (i = 0; i < keys.n; i++) {
		char *arrow = strstr(keys.v[i], " -> ");
		char *from = xstrndup(keys.v[i], (size_t)(arrow - keys.v[i]));

		json_array_append_new(trl, json_pack("{s:s, s:s, s:I}", "from", from, "to", arrow + 4,
						     "n", (json_int_t)jint(tr, keys.v[i])));
		free(from);
	}
	sv_clear(&keys);
	mv = json_pack("{s:s, s:s, s:I, s:I, s:o, s:o, s:o, s:o, s:o, s:I}",
		       "from", jstr(otree, "git_describe")[0] ? jstr(otree, "git_describe") : jstr(otree, "version"),
		       "to", jstr(ctree, "git_describe")[0] ? jstr(ctree, "git_describe") : jstr(ctree, "version"),
		       "implementations_from", (json_int_t)jint(json_object_get(old, "counts"), "implementations"),
		       "implementations_to", (json_int_t)jint(json_object_get(cur, "counts"), "implementations"),
		       "added", added, "removed", removed, "moved", moved, "reclassified", recl,
		       "transitions", trl, "unchanged", (json_int_t)unchanged);
	json_decref(tr);
	json_decref(oi);
	return mv;
}

static size_t asize(json_t *mv, const char *k)
{
	return json_array_size(json_object_get(mv, k));
}

static void summary_sentence(struct strbuf *sb, json_t *mv)
{
	long long d = jint(mv, "implementations_to") - jint(mv, "implementations_from");

	sb_addf(sb, "From %s to %s the implementations went from %lld to %lld (%+lld): %zu added, %zu removed, "
		    "%zu moved to another file, %zu reclassified, %lld unchanged.",
		jstr(mv, "from"), jstr(mv, "to"), jint(mv, "implementations_from"), jint(mv, "implementations_to"), d,
		asize(mv, "added"), asize(mv, "removed"), asize(mv, "moved"), asize(mv, "reclassified"),
		jint(mv, "unchanged"));
}

/* file:line, or the file alone when the scan knows no line */
static void md_loc(struct strbuf *sb, json_t *x)
{
	sb_adds(sb, jstr(x, "file"));
	if (jint(x, "line") > 0)
		sb_addf(sb, ":%lld", jint(x, "line"));
}

void movement_markdown(struct strbuf *sb, json_t *mv)
{
	json_t *x;
	size_t i;

	sb_addf(sb, "## Movement from %s to %s\n\n", jstr(mv, "from"), jstr(mv, "to"));
	summary_sentence(sb, mv);
	sb_adds(sb, " Implementations are matched by file and function; `not-poll` members are left out.\n");
	if (asize(mv, "transitions")) {
		sb_adds(sb, "\n| class before | class after | implementations |\n|---|---|---:|\n");
		json_array_foreach(json_object_get(mv, "transitions"), i, x)
			sb_addf(sb, "| `%s` | `%s` | %lld |\n", jstr(x, "from"), jstr(x, "to"), jint(x, "n"));
	}
	if (asize(mv, "reclassified")) {
		sb_adds(sb, "\n### Reclassified\n\n| function | file | before | after | reason now |\n"
			    "|---|---|---|---|---|\n");
		json_array_foreach(json_object_get(mv, "reclassified"), i, x) {
			sb_adds(sb, "| ");
			if (jstr(x, "from_function")[0])
				sb_addf(sb, "`%s` -> ", jstr(x, "from_function"));
			sb_addf(sb, "`%s` | ", jstr(x, "function"));
			md_loc(sb, x);
			sb_addf(sb, " | `%s` (%s) | `%s` (%s) | %s |\n", jstr(x, "from_class"), jstr(x, "from_convertible"),
				jstr(x, "to_class"), jstr(x, "to_convertible"), jstr(x, "reason"));
		}
	}
	if (asize(mv, "moved")) {
		sb_adds(sb, "\n### Moved to another file\n\n| function | from | to | class |\n|---|---|---|---|\n");
		json_array_foreach(json_object_get(mv, "moved"), i, x) {
			sb_addf(sb, "| `%s` | %s | %s | `%s`", jstr(x, "function"), jstr(x, "from_file"),
				jstr(x, "to_file"), jstr(x, "to_class"));
			if (strcmp(jstr(x, "from_class"), jstr(x, "to_class")))
				sb_addf(sb, " (was `%s`)", jstr(x, "from_class"));
			sb_adds(sb, " |\n");
		}
	}
	for (int pass = 0; pass < 2; pass++) {
		const char *k = pass ? "removed" : "added";

		if (!asize(mv, k))
			continue;
		sb_addf(sb, "\n### %s\n\n| function | file | class | convertible |\n|---|---|---|---|\n",
			pass ? "Removed" : "Added");
		json_array_foreach(json_object_get(mv, k), i, x) {
			sb_addf(sb, "| `%s` | ", jstr(x, "function"));
			md_loc(sb, x);
			sb_addf(sb, " | `%s` | %s |\n", jstr(x, "class"), jstr(x, "convertible"));
		}
	}
}

/* a class chip; "class (convertible)" keeps the colour of its class */
static void html_class(struct strbuf *sb, const char *cls)
{
	sb_adds(sb, "<span class=\"cls c-");
	sb_add_escf(sb, "%.*s", (int)strcspn(cls, " "), cls);
	sb_adds(sb, "\">");
	sb_add_esc(sb, cls);
	sb_adds(sb, "</span>");
}

static void html_impl_list(struct strbuf *sb, json_t *list, const char *url, bool link)
{
	json_t *x;
	size_t i;

	sb_adds(sb, "<table class=\"grid\"><tr><th>function</th><th>location</th><th>class</th>"
		    "<th>convertible</th></tr>\n");
	json_array_foreach(list, i, x) {
		sb_adds(sb, "<tr><td><code>");
		sb_add_esc(sb, jstr(x, "function"));
		sb_adds(sb, "</code></td><td>");
		if (link)
			sb_add_loc(sb, url, jstr(x, "file"), jint(x, "line"), NULL);
		else if (jint(x, "line") > 0)
			sb_add_escf(sb, "%s:%lld", jstr(x, "file"), jint(x, "line"));
		else
			sb_add_esc(sb, jstr(x, "file"));
		sb_adds(sb, "</td><td>");
		html_class(sb, jstr(x, "class"));
		sb_adds(sb, "</td><td>");
		sb_add_esc(sb, jstr(x, "convertible"));
		sb_adds(sb, "</td></tr>\n");
	}
	sb_adds(sb, "</table>\n");
}

void movement_html(struct strbuf *sb, json_t *mv, const char *url)
{
	json_t *x;
	size_t i;

	sb_adds(sb, "<p>");
	{
		struct strbuf t = STRBUF_INIT;

		summary_sentence(&t, mv);
		sb_add_esc(sb, t.buf);
		sb_release(&t);
	}
	sb_adds(sb, " Matched by file and function; <code>not-poll</code> members are left out. "
		    "Links point into the newer tree.</p>\n");
	if (asize(mv, "transitions")) {
		sb_adds(sb, "<table class=\"grid\" style=\"width:auto\"><tr><th>class before</th><th>class after</th>"
			    "<th class=\"n\">implementations</th></tr>\n");
		json_array_foreach(json_object_get(mv, "transitions"), i, x) {
			sb_adds(sb, "<tr><td>");
			html_class(sb, jstr(x, "from"));
			sb_adds(sb, "</td><td>");
			html_class(sb, jstr(x, "to"));
			sb_addf(sb, "</td><td class=\"n\">%lld</td></tr>\n", jint(x, "n"));
		}
		sb_adds(sb, "</table>\n");
	}
	if (asize(mv, "reclassified")) {
		sb_addf(sb, "<details><summary>%zu reclassified</summary>\n<table class=\"grid\"><tr>"
			    "<th>function</th><th>location</th><th>before</th><th>after</th><th>reason now</th></tr>\n",
			asize(mv, "reclassified"));
		json_array_foreach(json_object_get(mv, "reclassified"), i, x) {
			sb_adds(sb, "<tr><td><code>");
			if (jstr(x, "from_function")[0]) {
				sb_add_esc(sb, jstr(x, "from_function"));
				sb_adds(sb, "</code> &#8594; <code>");
			}
			sb_add_esc(sb, jstr(x, "function"));
			sb_adds(sb, "</code></td><td>");
			sb_add_loc(sb, url, jstr(x, "file"), jint(x, "line"), NULL);
			sb_adds(sb, "</td><td>");
			html_class(sb, jstr(x, "from_class"));
			sb_add_escf(sb, " %s", jstr(x, "from_convertible"));
			sb_adds(sb, "</td><td>");
			html_class(sb, jstr(x, "to_class"));
			sb_add_escf(sb, " %s", jstr(x, "to_convertible"));
			sb_adds(sb, "</td><td>");
			sb_add_esc(sb, jstr(x, "reason"));
			sb_adds(sb, "</td></tr>\n");
		}
		sb_adds(sb, "</table></details>\n");
	}
	if (asize(mv, "moved")) {
		sb_addf(sb, "<details><summary>%zu moved to another file</summary>\n<table class=\"grid\"><tr>"
			    "<th>function</th><th>from</th><th>to</th><th>class</th></tr>\n", asize(mv, "moved"));
		json_array_foreach(json_object_get(mv, "moved"), i, x) {
			sb_adds(sb, "<tr><td><code>");
			sb_add_esc(sb, jstr(x, "function"));
			sb_adds(sb, "</code></td><td>");
			sb_add_esc(sb, jstr(x, "from_file"));
			sb_adds(sb, "</td><td>");
			sb_add_loc(sb, url, jstr(x, "to_file"), jint(x, "to_line"), NULL);
			sb_adds(sb, "</td><td>");
			html_class(sb, jstr(x, "to_class"));
			if (strcmp(jstr(x, "from_class"), jstr(x, "to_class"))) {
				sb_adds(sb, " (was ");
				html_class(sb, jstr(x, "from_class"));
				sb_adds(sb, ")");
			}
			sb_adds(sb, "</td></tr>\n");
		}
		sb_adds(sb, "</table></details>\n");
	}
	if (asize(mv, "added")) {
		sb_addf(sb, "<details><summary>%zu added</summary>\n", asize(mv, "added"));
		html_impl_list(sb, json_object_get(mv, "added"), url, true);
		sb_adds(sb, "</details>\n");
	}
	if (asize(mv, "removed")) {
		/* removed code is not in the newer tree: no links */
		sb_addf(sb, "<details><summary>%zu removed</summary>\n", asize(mv, "removed"));
		html_impl_list(sb, json_object_get(mv, "removed"), url, false);
		sb_adds(sb, "</details>\n");
	}
}
