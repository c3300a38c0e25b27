// SPDX-License-Identifier: GPL-2.0
/*
 * infra_text.c - the infrastructure patch's texts: the templates, filled
 * and aligned, and the helpers that edit a source's lines (infra_int.h).
 */
#define _GNU_SOURCE
#include "infra_int.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- templates -------------------------------------------------------------------- */

const char *const infra_files[NR_FILES] = {
	"include/linux/fs.h", "include/linux/poll.h", "include/linux/anon_inodes.h", "fs/anon_inodes.c",
	"fs/debugfs/file.c", "fs/open.c", "fs/select.c", "Documentation/filesystems/locking.rst",
	"Documentation/filesystems/vfs.rst", "Documentation/filesystems/porting.rst",
};

void anchor(const struct gen *g, int f, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	{
		char *m = xvasprintf(fmt, ap);

		sb_adds(&sb, m);
		free(m);
	}
	va_end(ap);
	die_code(EXIT_INPUT, "'%s/%s': %s: polltax cannot make the infrastructure patch for this tree "
		 "(write it by hand and pass it with --infra PATCH)", g->t->root, infra_files[f], sb.buf);
}

char *join_names(const struct strvec *v, const char *suffix, const char *conj)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < v->n; i++)
		sb_addf(&sb, "%s%s%s()", i == 0 ? "" : i + 1 == v->n ? conj : ", ", v->v[i], suffix);
	return sb.buf ? sb_detach(&sb) : xstrdup("");
}

/* Section NAME of the templates file, without its trailing blank lines. */
char *tmpl(const struct gen *g, const char *name)
{
	char *hdr = xasprintf("\n%%%% %s\n", name);
	const char *p = strstr(g->tmpl, hdr), *e;
	size_t n;

	if (!p)
		die("'%s' has no section '%s'", g->tmpl_path, name);
	p += strlen(hdr);
	e = strstr(p, "\n%% ");
	n = e ? (size_t)(e - p) + 1 : strlen(p);
	while (n > 1 && p[n - 1] == '\n' && p[n - 2] == '\n')
		n--;
	free(hdr);
	return xstrndup(p, n);
}



int cols(const char *s, size_t n, int col)
{
	for (size_t i = 0; i < n && s[i]; i++)
		col = s[i] == '\t' ? (col / 8 + 1) * 8 : s[i] == '\n' ? 0 : col + 1;
	return col;
}

int width_of(const char *s)
{
	return cols(s, strlen(s), 0);
}

/* Tabs and spaces from column 0 to COL, the kernel's way. */
char *align_to(int col)
{
	struct strbuf sb = STRBUF_INIT;

	for (int i = 0; i < col / 8; i++)
		sb_addc(&sb, '\t');
	for (int i = 0; i < col % 8; i++)
		sb_addc(&sb, ' ');
	return sb.buf ? sb_detach(&sb) : xstrdup("");
}

/* The prefix of a paragraph's line: indentation, a comment's "* ", a bullet's "- " when BULLET. */
static size_t prefix_len(const char *l, bool bullet)
{
	size_t n = strspn(l, " \t");

	if (l[n] == '*' && (l[n + 1] == ' ' || l[n + 1] == '\t')) {
		n++;
		n += strspn(l + n, " \t");
	}
	if (bullet && l[n] == '-' && l[n + 1] == ' ')
		n += 2;
	return n;
}

/* PARA (lines ending in '\n') filled again to WIDTH columns, greedily, keeping its prefixes. */
static char *refill(const char *para, int width)
{
	struct strbuf words = STRBUF_INIT, out = STRBUF_INIT, line = STRBUF_INIT;
	char *first = NULL, *cont = NULL;
	const char *l = para;
	int nl = 0;

	for (; *l; nl++) {
		const char *e = strchr(l, '\n');
		size_t len = e ? (size_t)(e - l) : strlen(l), pl = prefix_len(l, nl == 0);

		if (nl == 0) {
			first = xstrndup(l, pl);
		} else if (nl == 1) {
			cont = xstrndup(l, pl);
		}
		if (words.len)
			sb_adds(&words, words.buf[words.len - 1] == '.' ? "  " : " ");
		sb_add(&words, l + pl, len - pl);
		l = e ? e + 1 : l + len;
	}
	if (!first)
		return xstrdup(para);
	if (!cont) {
		/* one line: the continuation lines are indented as far, a bullet's "- " becomes "  " */
		cont = xstrdup(first);
		if (strlen(cont) >= 2 && !strcmp(cont + strlen(cont) - 2, "- "))
			cont[strlen(cont) - 2] = ' ';
	}
	sb_adds(&line, first);
	{
		const char *p = words.buf ? words.buf : "", *sep = "";
		bool has = false;

		while (*p) {
			size_t wl = strcspn(p, " "), sl = strspn(p + wl, " ");

			if (has && width_of(line.buf) + (int)strlen(sep) + cols(p, wl, 0) > width) {
				sb_add(&out, line.buf, line.len);
				sb_addc(&out, '\n');
				sb_reset(&line);
				sb_adds(&line, cont);
				has = false;
			}
			if (has)
				sb_adds(&line, sep);
			sb_add(&line, p, wl);
			has = true;
			sep = sl >= 2 ? "  " : " ";
			p += wl + sl;
		}
	}
	sb_add(&out, line.buf, line.len);
	sb_addc(&out, '\n');
	sb_release(&words);
	sb_release(&line);
	free(first);
	free(cont);
	return sb_detach(&out);
}

/* A line that no paragraph takes in: blank, or a comment's "*", slash-star or star-slash alone. */
static bool separator_line(const char *l)
{
	const char *e = strchr(l, '\n');
	size_t a = strspn(l, " \t"), n = (e ? (size_t)(e - l) : strlen(l)) - a;

	while (n && (l[a + n - 1] == ' ' || l[a + n - 1] == '\t'))
		n--;
	return !n || (n == 1 && l[a] == '*') || (n == 2 && !strncmp(l + a, "/*", 2)) ||
	       (n == 3 && !strncmp(l + a, "/**", 3)) || (n == 2 && !strncmp(l + a, "*/", 2));
}

static const char *var_value(const struct gen *g, const char *what, const struct var *v, size_t nv, const char *name,
			     size_t n, bool *raw)
{
	for (size_t i = 0; i < nv; i++)
		if (strlen(v[i].name) == n && !strncmp(v[i].name, name, n)) {
			*raw = v[i].raw;
			return v[i].value;
		}
	die("'%s', section %s: unknown @{%.*s}", g->tmpl_path, what, (int)n, name);
}

/* TEXT with its @{NAME} and @{NAME|TEXT} replaced, each paragraph they change filled again to WIDTH (0: never). */
char *render(const struct gen *g, const char *what, const char *text, const struct var *v, size_t nv,
		    int width)
{
	struct strbuf out = STRBUF_INIT;
	const char *p = text;

	while (*p) {
		const char *e = p;
		struct strbuf para = STRBUF_INIT;
		bool again = false;

		if (separator_line(p)) {
			e = strchr(p, '\n');
			e = e ? e + 1 : p + strlen(p);
			sb_add(&out, p, (size_t)(e - p));
			p = e;
			continue;
		}
		/* a bullet ("- ") starts a paragraph of its own */
		while (*e && !separator_line(e) && (e == p || strncmp(e + strspn(e, " \t"), "- ", 2))) {
			const char *nl = strchr(e, '\n');

			e = nl ? nl + 1 : e + strlen(e);
		}
		for (const char *q = p; q < e;) {
			const char *at = strstr(q, "@{");

			if (!at || at >= e) {
				sb_add(&para, q, (size_t)(e - q));
				break;
			}
			sb_add(&para, q, (size_t)(at - q));
			{
				const char *name = at + 2, *bar, *close = strchr(name, '}');
				size_t n;
				const char *val;
				bool raw = false;

				if (!close || close >= e)
					die("'%s', section %s: @{ without }", g->tmpl_path, what);
				bar = memchr(name, '|', (size_t)(close - name));
				n = (size_t)((bar ? bar : close) - name);
				val = var_value(g, what, v, nv, name, n, &raw);
				if (bar) {
					/* the text as it stands while the tree's value is that text */
					char *def = xstrndup(bar + 1, (size_t)(close - bar - 1));

					for (char *c = def; *c; c++)
						if (*c == '\n')
							*c = ' ';
					if (!strcmp(def, val)) {
						sb_add(&para, bar + 1, (size_t)(close - bar - 1));
					} else {
						sb_adds(&para, val);
						again = true;
					}
					free(def);
				} else {
					sb_adds(&para, val);
					again |= !raw;
				}
				q = close + 1;
			}
		}
		if (again && width && para.len) {
			char *f = refill(para.buf, width);

			sb_adds(&out, f);
			free(f);
		} else if (para.len) {
			sb_add(&out, para.buf, para.len);
		}
		sb_release(&para);
		p = e;
	}
	return out.buf ? sb_detach(&out) : xstrdup("");
}

/* Each line of BLOCK with INDENT before it (blank lines stay blank). */
char *indented(const char *block, const char *indent)
{
	struct strbuf sb = STRBUF_INIT;

	for (const char *l = block; *l;) {
		const char *e = strchr(l, '\n');
		size_t len = e ? (size_t)(e - l) : strlen(l);

		if (len)
			sb_adds(&sb, indent);
		sb_add(&sb, l, len);
		sb_addc(&sb, '\n');
		l += len + (e != NULL);
	}
	return sb.buf ? sb_detach(&sb) : xstrdup("");
}

/* ---- text ------------------------------------------------------------------------- */

size_t line_start(const char *s, size_t at)
{
	while (at > 0 && s[at - 1] != '\n')
		at--;
	return at;
}

size_t line_next(const char *s, size_t at)
{
	const char *e = strchr(s + at, '\n');

	return e ? (size_t)(e - s) + 1 : strlen(s);
}

char *line_text(const char *s, size_t ls)
{
	return xstrndup(s + ls, strcspn(s + ls, "\n"));
}

char *indent_of(const char *s, size_t ls)
{
	return xstrndup(s + ls, strspn(s + ls, " \t"));
}

void insert_after_line(char **s, size_t ls, const char *text)
{
	char *ind = indent_of(*s, ls), *block = indented(text, ind);

	text_splice(s, line_next(*s, ls), 0, block);
	free(block);
	free(ind);
}

void text_splice(char **s, size_t at, size_t del, const char *ins)
{
	size_t n = strlen(*s), k = strlen(ins);
	char *r = xmalloc(n - del + k + 1);

	memcpy(r, *s, at);
	memcpy(r + at, ins, k);
	memcpy(r + at + k, *s + at + del, n - at - del + 1);
	free(*s);
	*s = r;
}

/* Does the line at LS match the extended regular expression RE?  Its groups go to M. */
bool line_matches(const char *s, size_t ls, const char *re, regmatch_t *m, size_t nm)
{
	regex_t rx;
	char *l = line_text(s, ls);
	bool r;

	if (regcomp(&rx, re, REG_EXTENDED | (m ? 0 : REG_NOSUB)))
		BUG("bad regular expression '%s'", re);
	r = !regexec(&rx, l, m ? nm : 0, m, 0);
	regfree(&rx);
	free(l);
	return r;
}

/* The lines of [FROM, TO) matching RE: how many, and the first one's start in *LS. */
int find_line(const char *s, size_t from, size_t to, const char *re, size_t *ls)
{
	int n = 0;

	for (size_t l = line_start(s, from); l < to && s[l]; l = line_next(s, l))
		if (line_matches(s, l, re, NULL, 0) && !n++ && ls)
			*ls = l;
	return n;
}

/* S without the whitespace that C does not need: for recognising code whatever its layout. */
char *squash(const char *s, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	bool space = false;

	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (isspace(c)) {
			space = true;
			continue;
		}
		if (space && sb.len && (isalnum((unsigned char)sb.buf[sb.len - 1]) || sb.buf[sb.len - 1] == '_') &&
		    (isalnum(c) || c == '_'))
			sb_addc(&sb, ' ');
		sb_addc(&sb, (char)c);
		space = false;
	}
	return sb.buf ? sb_detach(&sb) : xstrdup("");
}

bool same_code(const char *s, size_t n, const char *want)
{
	char *a = squash(s, n), *b = squash(want, strlen(want));
	bool r = !strcmp(a, b);

	free(a);
	free(b);
	return r;
}
