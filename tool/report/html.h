/* SPDX-License-Identifier: GPL-2.0 */
/*
 * html.h - the small pieces every HTML or SVG writer of polltax needs:
 * escaping text for element content and attribute values, expanding a
 * source-link template, and showing a JSON value of unknown shape as
 * nested tables.  Everything appends to a strbuf; nothing allocates
 * behind the caller's back.
 */
#ifndef POLLTAX_HTML_H
#define POLLTAX_HTML_H

#include "lib/util.h"

#include <jansson.h>

/* Text escaped for HTML/XML content and double- or single-quoted attributes. */
void sb_add_esc(struct strbuf *sb, const char *s);
__attribute__((format(printf, 2, 3)))
void sb_add_escf(struct strbuf *sb, const char *fmt, ...);

/*
 * The link of a source location: TEMPLATE with %f replaced by FILE
 * (percent-encoded, '/' kept), %l by LINE and %% by '%'.  A NULL template
 * gives the plain relative path.  The result is escaped for an attribute.
 */
/* s percent-encoded for a URL's path ('/' and unreserved characters kept). */
void sb_add_path_encoded(struct strbuf *sb, const char *s);
void sb_add_href(struct strbuf *sb, const char *tmpl, const char *file, long long line);

/* <a href="...">file:line</a>, or only file when line is 0. */
void sb_add_loc(struct strbuf *sb, const char *tmpl, const char *file, long long line, const char *text);

/* A JSON value of any shape: scalars as text, objects as key/value tables
 * (keys sorted), arrays of objects as one table with the union of keys. */
void sb_add_json_table(struct strbuf *sb, json_t *v);

/* The keys of an object in byte order (jansson keeps insertion order). */
void json_sorted_keys(json_t *o, struct strvec *keys);

/* A class chip; with filter, clicking it filters the implementations table of report.html. */
void html_class_chip(struct strbuf *sb, const char *cls, bool filter);

#endif
