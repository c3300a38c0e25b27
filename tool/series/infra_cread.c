// SPDX-License-Identifier: GPL-2.0
/*
 * infra_cread.c - a small reader of C for the infrastructure patch: the
 * top-level definitions, their comments and parameter lists (infra_int.h).
 */
#define _GNU_SOURCE
#include "infra_int.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ---- a reader of C: the top-level definitions ------------------------------------- */



static bool only_blank(const char *a, const char *b)
{
	for (; a < b; a++)
		if (!isspace((unsigned char)*a))
			return false;
	return true;
}

static const char *skip_literal(const char *p)
{
	char q = *p++;

	while (*p && *p != q && *p != '\n') {
		if (*p == '\\' && p[1])
			p++;
		p++;
	}
	return *p == q ? p + 1 : p;
}

static void record(const char *s, const char *hdr, const char *open, const char *close, struct cdef **defs,
		   size_t *n)
{
	struct cdef d = { 0 };
	const char *e = open;

	while (hdr < open && isspace((unsigned char)*hdr))
		hdr++;
	while (e > hdr && isspace((unsigned char)e[-1]))
		e--;
	d.hdr = (size_t)(hdr - s);
	d.open = (size_t)(open - s);
	d.close = (size_t)(close - s);
	d.name = d.hdr;
	d.nlen = (size_t)(e - hdr);
	if (e > hdr && e[-1] == ')') {
		const char *r = e - 1, *q = r;
		int depth = 0;

		for (; q >= hdr; q--) {
			depth += *q == ')' ? 1 : *q == '(' ? -1 : 0;
			if (!depth)
				break;
		}
		if (q > hdr) {
			const char *ne = q;

			while (ne > hdr && isspace((unsigned char)ne[-1]))
				ne--;
			{
				const char *nb = ne;

				while (nb > hdr && (isalnum((unsigned char)nb[-1]) || nb[-1] == '_'))
					nb--;
				if (nb < ne) {
					d.func = true;
					d.name = (size_t)(nb - s);
					d.nlen = (size_t)(ne - nb);
					d.lparen = (size_t)(q - s);
					d.rparen = (size_t)(r - s);
				}
			}
		}
	}
	*defs = xrealloc(*defs, (*n + 1) * sizeof(**defs));
	(*defs)[(*n)++] = d;
}

size_t c_defs(const char *s, struct cdef **defs)
{
	const char *p = s, *hdr = s, *open = NULL;
	int depth = 0;
	bool bol = true;
	size_t n = 0;

	*defs = NULL;
	while (*p) {
		if (bol) {
			const char *q = p + strspn(p, " \t");

			bol = false;
			if (*q == '#') {
				/* a preprocessor line, continued by backslashes */
				while (*q && *q != '\n') {
					if (*q == '\\' && q[1] == '\n')
						q++;
					q++;
				}
				if (!depth && only_blank(hdr, p))
					hdr = q;
				p = q;
				continue;
			}
		}
		if (p[0] == '/' && p[1] == '*') {
			const char *e = strstr(p + 2, "*/");

			e = e ? e + 2 : p + strlen(p);
			if (!depth && only_blank(hdr, p))
				hdr = e;
			p = e;
			continue;
		}
		if (p[0] == '/' && p[1] == '/') {
			p += strcspn(p, "\n");
			continue;
		}
		switch (*p) {
		case '"':
		case '\'':
			p = skip_literal(p);
			continue;
		case '\n':
			bol = true;
			break;
		case '{':
			if (!depth++)
				open = p;
			break;
		case '}':
			if (depth > 0 && !--depth) {
				record(s, hdr, open, p, defs, &n);
				hdr = p + 1;
			}
			break;
		case ';':
			if (!depth)
				hdr = p + 1;
			break;
		}
		p++;
	}
	return n;
}

/* The definition of function NAME (FUNC) or the one whose header is NAME ("struct file"). */
bool find_def(const char *s, const char *name, bool func, struct cdef *out)
{
	struct cdef *defs;
	size_t n = c_defs(s, &defs);
	bool found = false;

	for (size_t i = 0; i < n && !found; i++)
		if (defs[i].func == func && defs[i].nlen == strlen(name) && !strncmp(s + defs[i].name, name, defs[i].nlen)) {
			*out = defs[i];
			found = true;
		}
	free(defs);
	return found;
}

/* The "/ **" comment right before offset HDR: [*FROM, *TO), TO at the end of its last line. */
bool doc_before(const char *s, size_t hdr, size_t *from, size_t *to)
{
	size_t e = hdr;

	while (e > 0 && isspace((unsigned char)s[e - 1]))
		e--;
	if (e < 2 || strncmp(s + e - 2, "*/", 2))
		return false;
	for (size_t b = e - 2; b-- > 0;)
		if (!strncmp(s + b, "/*", 2)) {
			if (strncmp(s + b, "/**", 3))
				return false;
			*from = line_start(s, b);
			*to = line_next(s, e - 1);
			return true;
		}
	return false;
}

/* Where to insert before definition D: the start of its comment, if one is right before it, else of its line. */
size_t def_start(const char *s, const struct cdef *d)
{
	size_t from, to;

	if (doc_before(s, d->hdr, &from, &to))
		return from;
	return line_start(s, d->hdr);
}

/* ---- parameter lists -------------------------------------------------------------- */



void params_parse(const char *s, size_t from, size_t to, struct params *p)
{
	size_t i = from, start = from;
	int depth = 0;

	memset(p, 0, sizeof(*p));
	for (;; i++) {
		if (i == to || (s[i] == ',' && !depth)) {
			struct strbuf sb = STRBUF_INIT;
			bool nl = false, space = false;

			for (size_t k = start; k < i; k++) {
				if (isspace((unsigned char)s[k])) {
					nl |= s[k] == '\n' && !sb.len;
					space = sb.len > 0;
					continue;
				}
				if (space)
					sb_addc(&sb, ' ');
				space = false;
				sb_addc(&sb, s[k]);
			}
			p->newline = xrealloc(p->newline, (p->v.n + 1) * sizeof(bool));
			p->newline[p->v.n] = nl;
			sv_push(&p->v, sb.buf ? sb.buf : "");
			sb_release(&sb);
			if (i == to)
				break;
			start = i + 1;
			continue;
		}
		depth += s[i] == '(' ? 1 : s[i] == ')' ? -1 : 0;
	}
}

void params_add(struct params *p, const char *param, bool newline)
{
	p->newline = xrealloc(p->newline, (p->v.n + 1) * sizeof(bool));
	p->newline[p->v.n] = newline;
	sv_push(&p->v, param);
}

void params_free(struct params *p)
{
	sv_clear(&p->v);
	free(p->newline);
}

/*
 * FIRST (up to and with its '('), the parameters, then END (")" or ");"):
 * a parameter that started a line starts one again, aligned after the
 * '(', and a line that would pass 80 columns is broken before the
 * parameter that passes them.
 */
void emit_params(struct strbuf *sb, const char *first, const struct params *p, const char *end)
{
	const char *nl = strrchr(first, '\n');
	char *align = align_to(width_of(nl ? nl + 1 : first));
	struct strbuf line = STRBUF_INIT;
	bool has = false;

	sb_adds(&line, first);
	for (size_t i = 0; i < p->v.n; i++) {
		char *piece = xasprintf("%s%s", p->v.v[i], i + 1 == p->v.n ? end : ",");
		const char *ll = strrchr(line.buf, '\n');

		if (has && (p->newline[i] || width_of(ll ? ll + 1 : line.buf) + 1 + width_of(piece) > MAX_COLS)) {
			sb_add(sb, line.buf, line.len);
			sb_addc(sb, '\n');
			sb_reset(&line);
			sb_adds(&line, align);
			has = false;
		}
		if (has)
			sb_addc(&line, ' ');
		sb_adds(&line, piece);
		has = true;
		free(piece);
	}
	if (!p->v.n)
		sb_adds(&line, end);
	sb_add(sb, line.buf, line.len);
	sb_addc(sb, '\n');
	sb_release(&line);
	free(align);
}
