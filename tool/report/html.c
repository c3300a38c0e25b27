// SPDX-License-Identifier: GPL-2.0
/*
 * html.c - escaping, source links and a generic JSON-to-table view for the
 * report page and the progress chart (see html.h).
 */
#define _GNU_SOURCE
#include "html.h"

#include <stdlib.h>
#include <string.h>

void sb_add_esc(struct strbuf *sb, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': sb_adds(sb, "&amp;"); break;
		case '<': sb_adds(sb, "&lt;"); break;
		case '>': sb_adds(sb, "&gt;"); break;
		case '"': sb_adds(sb, "&quot;"); break;
		case '\'': sb_adds(sb, "&#39;"); break;
		default: sb_addc(sb, *s);
		}
	}
}

void sb_add_escf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	sb_add_esc(sb, s);
	free(s);
}

void sb_add_path_encoded(struct strbuf *sb, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		    strchr("/-._~+,", c)) {
			sb_addc(sb, (char)c);
		} else {
			sb_addc(sb, '%');
			sb_addc(sb, hex[c >> 4]);
			sb_addc(sb, hex[c & 15]);
		}
	}
}

void sb_add_href(struct strbuf *sb, const char *tmpl, const char *file, long long line)
{
	struct strbuf u = STRBUF_INIT;
	const char *p;

	if (!tmpl)
		tmpl = "%f";
	for (p = tmpl; *p; p++) {
		if (*p != '%' || !p[1]) {
			sb_addc(&u, *p);
			continue;
		}
		p++;
		if (*p == 'f')
			sb_add_path_encoded(&u, file);
		else if (*p == 'l')
			sb_addf(&u, "%lld", line);
		else if (*p == '%')
			sb_addc(&u, '%');
		else {
			sb_addc(&u, '%');
			sb_addc(&u, *p);
		}
	}
	sb_add_esc(sb, u.buf ? u.buf : "");
	sb_release(&u);
}

void sb_add_loc(struct strbuf *sb, const char *tmpl, const char *file, long long line, const char *text)
{
	if (!file || !*file) {
		sb_add_esc(sb, text ? text : "");
		return;
	}
	sb_adds(sb, "<a href=\"");
	sb_add_href(sb, tmpl, file, line);
	sb_adds(sb, "\">");
	if (text)
		sb_add_esc(sb, text);
	else if (line > 0)
		sb_add_escf(sb, "%s:%lld", file, line);
	else
		sb_add_esc(sb, file);
	sb_adds(sb, "</a>");
}

void json_sorted_keys(json_t *o, struct strvec *keys)
{
	const char *k;
	json_t *v;

	json_object_foreach(o, k, v)
		sv_push(keys, k);
	sv_sort(keys);
}

static void add_scalar(struct strbuf *sb, json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_STRING: sb_add_esc(sb, json_string_value(v)); break;
	case JSON_INTEGER: sb_addf(sb, "%lld", (long long)json_integer_value(v)); break;
	case JSON_REAL: sb_addf(sb, "%.6g", json_real_value(v)); break;
	case JSON_TRUE: sb_adds(sb, "<span class=\"yes\">true</span>"); break;
	case JSON_FALSE: sb_adds(sb, "<span class=\"no\">false</span>"); break;
	default: sb_adds(sb, "<span class=\"dim\">null</span>"); break;
	}
}

static bool all_scalars(json_t *a)
{
	json_t *x;
	size_t i;

	json_array_foreach(a, i, x)
		if (json_is_object(x) || json_is_array(x))
			return false;
	return true;
}

static bool all_objects(json_t *a)
{
	json_t *x;
	size_t i;

	json_array_foreach(a, i, x)
		if (!json_is_object(x))
			return false;
	return json_array_size(a) > 0;
}

static void add_value(struct strbuf *sb, json_t *v, int depth);

static void add_object(struct strbuf *sb, json_t *o, int depth)
{
	struct strvec keys = STRVEC_INIT;

	json_sorted_keys(o, &keys);
	sb_adds(sb, "<table class=\"kv\">");
	for (size_t i = 0; i < keys.n; i++) {
		sb_adds(sb, "<tr><th>");
		sb_add_esc(sb, keys.v[i]);
		sb_adds(sb, "</th><td>");
		add_value(sb, json_object_get(o, keys.v[i]), depth + 1);
		sb_adds(sb, "</td></tr>");
	}
	sb_adds(sb, "</table>");
	sv_clear(&keys);
}

static void add_rows(struct strbuf *sb, json_t *a, int depth)
{
	struct strvec keys = STRVEC_INIT;
	json_t *x, *v;
	const char *k;
	size_t i;

	json_array_foreach(a, i, x)
		json_object_foreach(x, k, v)
			if (!sv_contains(&keys, k))
				sv_push(&keys, k);
	sv_sort(&keys);
	sb_adds(sb, "<table class=\"grid\"><tr>");
	for (i = 0; i < keys.n; i++) {
		sb_adds(sb, "<th>");
		sb_add_esc(sb, keys.v[i]);
		sb_adds(sb, "</th>");
	}
	sb_adds(sb, "</tr>");
	json_array_foreach(a, i, x) {
		sb_adds(sb, "<tr>");
		for (size_t j = 0; j < keys.n; j++) {
			sb_adds(sb, "<td>");
			v = json_object_get(x, keys.v[j]);
			if (v)
				add_value(sb, v, depth + 1);
			sb_adds(sb, "</td>");
		}
		sb_adds(sb, "</tr>");
	}
	sb_adds(sb, "</table>");
	sv_clear(&keys);
}

static void add_value(struct strbuf *sb, json_t *v, int depth)
{
	json_t *x;
	size_t i;

	if (depth > 8) {
		/* a file of unknown shape must not blow the page up */
		char *s = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);

		sb_adds(sb, "<code>");
		sb_add_esc(sb, s ? s : "");
		sb_adds(sb, "</code>");
		free(s);
	} else if (json_is_object(v)) {
		add_object(sb, v, depth);
	} else if (json_is_array(v) && all_objects(v)) {
		add_rows(sb, v, depth);
	} else if (json_is_array(v) && all_scalars(v)) {
		json_array_foreach(v, i, x) {
			if (i)
				sb_adds(sb, ", ");
			add_scalar(sb, x);
		}
	} else if (json_is_array(v)) {
		sb_adds(sb, "<ol>");
		json_array_foreach(v, i, x) {
			sb_adds(sb, "<li>");
			add_value(sb, x, depth + 1);
			sb_adds(sb, "</li>");
		}
		sb_adds(sb, "</ol>");
	} else {
		add_scalar(sb, v);
	}
}

void sb_add_json_table(struct strbuf *sb, json_t *v)
{
	add_value(sb, v, 0);
}

void html_class_chip(struct strbuf *sb, const char *cls, bool filter)
{
	if (filter) {
		sb_adds(sb, "<a class=\"f cls c-");
		sb_add_esc(sb, cls);
		sb_adds(sb, "\" href=\"#implementations\" data-fclass=\"");
		sb_add_esc(sb, cls);
		sb_adds(sb, "\" title=\"show these implementations\">");
	} else {
		sb_adds(sb, "<span class=\"cls c-");
		sb_add_esc(sb, cls);
		sb_adds(sb, "\">");
	}
	sb_add_esc(sb, cls);
	sb_adds(sb, filter ? "</a>" : "</span>");
}
