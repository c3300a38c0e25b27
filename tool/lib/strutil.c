// SPDX-License-Identifier: GPL-2.0
/*
 * strutil.c - small text helpers (strutil.h).
 */
#include "strutil.h"

#include <ctype.h>
#include <string.h>

void shell_split(const char *s, struct strvec *out)
{
	struct strbuf w = STRBUF_INIT;
	bool in = false;
	char q = 0;

	for (; *s; s++) {
		if (q) {
			if (*s == q)
				q = 0;
			else if (*s == '\\' && q == '"' && s[1])
				sb_addc(&w, *++s);
			else
				sb_addc(&w, *s);
			continue;
		}
		if (*s == '\'' || *s == '"') {
			q = *s;
			in = true;
		} else if (*s == '\\' && s[1]) {
			sb_addc(&w, *++s);
			in = true;
		} else if (*s == ' ' || *s == '\t' || *s == '\n') {
			if (in) {
				sv_push(out, w.buf ? w.buf : "");
				sb_reset(&w);
				in = false;
			}
		} else {
			sb_addc(&w, *s);
			in = true;
		}
	}
	if (in)
		sv_push(out, w.buf ? w.buf : "");
	sb_release(&w);
}

char *trim_dup(const char *s)
{
	size_t n;

	s += strspn(s, " \t\r\n");
	n = strlen(s);
	while (n && strchr(" \t\r\n", s[n - 1]))
		n--;
	return xstrndup(s, n);
}

char *sb_detach_trimmed(struct strbuf *sb)
{
	char *r = trim_dup(sb->buf ? sb->buf : "");

	sb_release(sb);
	return r;
}

void c_blank_text(char *t)
{
	for (char *p = t; *p; p++) {
		if (p[0] == '/' && p[1] == '*') {
			for (; *p && !(p[0] == '*' && p[1] == '/'); p++)
				if (*p != '\n')
					*p = ' ';
			if (!*p)
				break;
			p[0] = p[1] = ' ';
			p++;
		} else if (p[0] == '/' && p[1] == '/') {
			for (; *p && *p != '\n'; p++)
				*p = ' ';
			if (!*p)
				break;
		} else if (*p == '"' || *p == '\'') {
			char q = *p;

			for (p++; *p && *p != q && *p != '\n'; p++) {
				if (*p == '\\' && p[1] && p[1] != '\n')
					*p++ = ' ';
				*p = ' ';
			}
			if (!*p)
				break;
		}
	}
}

char *git_stripspace(const char *text)
{
	struct strbuf sb = STRBUF_INIT;
	bool empty_run = false;

	for (const char *p = text; *p;) {
		size_t n = strcspn(p, "\n"), len = n;

		while (len && isspace((unsigned char)p[len - 1]))
			len--;
		if (!len) {
			empty_run = sb.len > 0;
		} else {
			if (empty_run)
				sb_addc(&sb, '\n');
			sb_add(&sb, p, len);
			sb_addc(&sb, '\n');
			empty_run = false;
		}
		p += n + (p[n] == '\n');
	}
	return sb_detach(&sb);
}
