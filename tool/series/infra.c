// SPDX-License-Identifier: GPL-2.0
/*
 * infra.c - the infrastructure patch made for the tree at hand (infra.h).
 *
 * Every change has an anchor in the tree's sources: a member of struct
 * file or struct file_operations, a function found by its name (a small
 * reader of C that knows comments, strings, preprocessor lines and braces:
 * enough to find a top-level definition, its parameters and its body), a
 * line of the documentation.  What the generator replaces it first
 * recognises (vfs_poll() and file_can_poll() must be the ones it knows,
 * whitespace aside); what it adds it writes in the indentation of its
 * neighbours, breaking parameter lists at 80 columns as the kernel does.
 * An anchor that is not there is an error naming the file and the anchor:
 * a patch is written only when every change has its place.
 */
#define _GNU_SOURCE
#include "infra.h"
#include "lib/datadir.h"

#include <ctype.h>
#include <errno.h>
#include <glob.h>
/* sparse cannot parse glibc's VLA parameters in regex.h */
#ifdef __CHECKER__
#define __STDC_NO_VLA__ 1
#endif
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

enum {
	F_FS_H, F_POLL_H, F_ANON_H, F_ANON_C, F_DEBUGFS, F_OPEN, F_SELECT, F_LOCKING, F_VFS, F_PORTING,
	NR_FILES
};

static const char *const files[NR_FILES] = {
	"include/linux/fs.h", "include/linux/poll.h", "include/linux/anon_inodes.h", "fs/anon_inodes.c",
	"fs/debugfs/file.c", "fs/open.c", "fs/select.c", "Documentation/filesystems/locking.rst",
	"Documentation/filesystems/vfs.rst", "Documentation/filesystems/porting.rst",
};

#define MAX_COLS 80	/* code and documentation */
#define MSG_COLS 72	/* commit messages */

struct gen {
	const struct tree *t;
	char *tmpl_path, *tmpl;
	char *orig[NR_FILES];
	char *text[NR_FILES];	/* as edited so far */
	struct strvec fd;	/* the anon_inode helpers that install a file descriptor */
	char *tree;		/* "linux-6.12.118", for the commit messages */
};

__attribute__((noreturn, format(printf, 3, 4)))
static void anchor(const struct gen *g, int f, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	{
		char *m;

		if (vasprintf(&m, fmt, ap) < 0)
			die("out of memory");
		sb_adds(&sb, m);
		free(m);
	}
	va_end(ap);
	die_code(EXIT_INPUT, "'%s/%s': %s: polltax cannot make the infrastructure patch for this tree "
		 "(write it by hand and pass it with --infra PATCH)", g->t->root, files[f], sb.buf);
}

/* ---- templates -------------------------------------------------------------------- */

/* Section NAME of the templates file, without its trailing blank lines. */
static char *tmpl(const struct gen *g, const char *name)
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

struct var {
	const char *name, *value;
	bool raw;	/* substituted as it is: the paragraph is not filled again */
};

static int cols(const char *s, size_t n, int col)
{
	for (size_t i = 0; i < n && s[i]; i++)
		col = s[i] == '\t' ? (col / 8 + 1) * 8 : s[i] == '\n' ? 0 : col + 1;
	return col;
}

static int width_of(const char *s)
{
	return cols(s, strlen(s), 0);
}

/* Tabs and spaces from column 0 to COL, the kernel's way. */
static char *align_to(int col)
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
static char *render(const struct gen *g, const char *what, const char *text, const struct var *v, size_t nv,
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
static char *indented(const char *block, const char *indent)
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

static size_t line_start(const char *s, size_t at)
{
	while (at > 0 && s[at - 1] != '\n')
		at--;
	return at;
}

static size_t line_next(const char *s, size_t at)
{
	const char *e = strchr(s + at, '\n');

	return e ? (size_t)(e - s) + 1 : strlen(s);
}

static char *line_text(const char *s, size_t ls)
{
	return xstrndup(s + ls, strcspn(s + ls, "\n"));
}

static char *indent_of(const char *s, size_t ls)
{
	return xstrndup(s + ls, strspn(s + ls, " \t"));
}

static void splice(char **s, size_t at, size_t del, const char *ins)
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
static bool line_matches(const char *s, size_t ls, const char *re, regmatch_t *m, size_t nm)
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
static int find_line(const char *s, size_t from, size_t to, const char *re, size_t *ls)
{
	int n = 0;

	for (size_t l = line_start(s, from); l < to && s[l]; l = line_next(s, l))
		if (line_matches(s, l, re, NULL, 0) && !n++ && ls)
			*ls = l;
	return n;
}

/* S without the whitespace that C does not need: for recognising code whatever its layout. */
static char *squash(const char *s, size_t n)
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

static bool same_code(const char *s, size_t n, const char *want)
{
	char *a = squash(s, n), *b = squash(want, strlen(want));
	bool r = !strcmp(a, b);

	free(a);
	free(b);
	return r;
}

/* ---- a reader of C: the top-level definitions ------------------------------------- */

struct cdef {
	size_t hdr;		/* where its header starts (after any comment before it) */
	size_t open, close;	/* its braces */
	size_t name, nlen;	/* a function's name; else the header ("struct file") */
	size_t lparen, rparen;	/* a function's parameter list */
	bool func;
};

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

static size_t c_defs(const char *s, struct cdef **defs)
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
static bool find_def(const char *s, const char *name, bool func, struct cdef *out)
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
static bool doc_before(const char *s, size_t hdr, size_t *from, size_t *to)
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
static size_t def_start(const char *s, const struct cdef *d)
{
	size_t from, to;

	if (doc_before(s, d->hdr, &from, &to))
		return from;
	return line_start(s, d->hdr);
}

/* ---- parameter lists -------------------------------------------------------------- */

struct params {
	struct strvec v;	/* each one, on one line */
	bool *newline;		/* it started a line of its own */
};

static void params_parse(const char *s, size_t from, size_t to, struct params *p)
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

static void params_add(struct params *p, const char *param, bool newline)
{
	p->newline = xrealloc(p->newline, (p->v.n + 1) * sizeof(bool));
	p->newline[p->v.n] = newline;
	sv_push(&p->v, param);
}

static void params_free(struct params *p)
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
static void emit_params(struct strbuf *sb, const char *first, const struct params *p, const char *end)
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

/* ---- include/linux/fs.h ----------------------------------------------------------- */

/* struct file gets f_poll_head after f_ep, documented in its kernel-doc or by a comment. */
static void add_f_poll_head(struct gen *g, const char *doc_section, const char *comment_section)
{
	char **s = &g->text[F_FS_H];
	struct cdef d;
	size_t ls, at, from, to;
	regmatch_t m[2];
	char *ind, *pad, *member;
	int namecol;

	if (!find_def(*s, "struct file", false, &d))
		anchor(g, F_FS_H, "no definition of struct file");
	if (find_line(*s, d.open, d.close, "^[[:space:]]*struct[[:space:]]+hlist_head[[:space:]]*\\*[[:space:]]*f_ep;",
		      &ls) != 1)
		anchor(g, F_FS_H, "struct file has no 'struct hlist_head *f_ep;' member, after which f_poll_head goes");
	line_matches(*s, ls, "(\\*[[:space:]]*f_ep;)", m, 2);
	namecol = cols(*s + ls, (size_t)m[1].rm_so, 0);
	at = line_next(*s, ls);
	if (line_matches(*s, at, "^[[:space:]]*#[[:space:]]*endif", NULL, 0))
		at = line_next(*s, at);	/* after the #ifdef CONFIG_EPOLL that holds f_ep */
	ind = indent_of(*s, ls);
	{
		int c = width_of(ind) + (int)strlen("struct wait_queue_head");

		if (c >= namecol) {
			pad = xstrdup("\t");
		} else {
			struct strbuf sb = STRBUF_INIT;

			while ((c / 8 + 1) * 8 <= namecol) {
				sb_addc(&sb, '\t');
				c = (c / 8 + 1) * 8;
			}
			while (c++ < namecol)
				sb_addc(&sb, ' ');
			pad = sb.buf ? sb_detach(&sb) : xstrdup(" ");
		}
	}
	member = xasprintf("%sstruct wait_queue_head%s*f_poll_head;\n", ind, pad);
	if (doc_before(*s, d.hdr, &from, &to) && find_line(*s, from, to, "^ \\* @[A-Za-z_0-9]+:", NULL)) {
		/* the kernel-doc of struct file: after @f_ep, or else after its last member */
		char *doc = tmpl(g, doc_section);
		size_t l, after = 0;

		splice(s, at, 0, member);
		for (l = from; l < to; l = line_next(*s, l))
			if (line_matches(*s, l, "^ \\* @[A-Za-z_0-9]+:", NULL, 0) && (!after || !line_matches(*s, after,
			    "^ \\* @f_ep:", NULL, 0))) {
				after = l;
			}
		/* and the lines that continue that entry */
		for (l = line_next(*s, after); l < to && line_matches(*s, l, "^ \\*(\t|  )", NULL, 0) &&
		     !line_matches(*s, l, "^ \\* @", NULL, 0); l = line_next(*s, l))
			;
		splice(s, l, 0, doc);
		free(doc);
	} else {
		char *c = tmpl(g, comment_section), *ci = indented(c, ind), *both = xasprintf("%s%s", ci, member);

		splice(s, at, 0, both);
		free(c);
		free(ci);
		free(both);
	}
	free(member);
	free(pad);
	free(ind);
}

/* struct file_operations gets the section's members after ->poll. */
static void add_fops_members(struct gen *g, const char *section)
{
	char **s = &g->text[F_FS_H];
	struct cdef d;
	size_t ls;
	char *ind, *block, *text;

	if (!find_def(*s, "struct file_operations", false, &d))
		anchor(g, F_FS_H, "no definition of struct file_operations");
	if (find_line(*s, d.open, d.close, "poll_mask", NULL))
		anchor(g, F_FS_H, "struct file_operations has ->poll_mask already, but struct file has no f_poll_head "
		       "(a part of the infrastructure, or another one?)");
	if (find_line(*s, d.open, d.close, "^[[:space:]]*__poll_t[[:space:]]*\\([[:space:]]*\\*[[:space:]]*poll[[:space:]]*\\)"
		      "[[:space:]]*\\(", &ls) != 1)
		anchor(g, F_FS_H, "struct file_operations has no '__poll_t (*poll) (...)' member, after which "
		       "->poll_mask goes");
	ind = indent_of(*s, ls);
	text = tmpl(g, section);
	block = indented(text, ind);
	splice(s, line_next(*s, ls), 0, block);
	free(ind);
	free(text);
	free(block);
}

/* ---- include/linux/poll.h --------------------------------------------------------- */

static void replace_body(char **s, const struct cdef *d, const char *stmt)
{
	size_t first = line_next(*s, d->open);
	char *ind = indent_of(*s, first), *body = xasprintf("\n%s%s\n", *ind ? ind : "\t", stmt);

	splice(s, d->open + 1, d->close - d->open - 1, body);
	free(ind);
	free(body);
}

static void find_poll_functions(struct gen *g, struct cdef *can, struct cdef *vfs)
{
	const char *s = g->text[F_POLL_H];

	if (!find_def(s, "file_can_poll", true, can))
		anchor(g, F_POLL_H, "no file_can_poll()");
	if (!find_def(s, "vfs_poll", true, vfs))
		anchor(g, F_POLL_H, "no vfs_poll()");
}

/* vfs_poll() calls the section's __vfs_poll(), file_can_poll() accepts ->poll_mask. */
static void edit_vfs_poll(struct gen *g, const char *vfs_section, const char *proto_section)
{
	char **s = &g->text[F_POLL_H];
	struct cdef can, vfs;
	char *text;

	find_poll_functions(g, &can, &vfs);
	if (!same_code(*s + can.hdr, can.close + 1 - can.hdr,
		       "static inline bool file_can_poll(struct file *file) { return file->f_op->poll; }"))
		anchor(g, F_POLL_H, "file_can_poll() is not the one polltax knows (static inline bool "
		       "file_can_poll(struct file *file) { return file->f_op->poll; })");
	if (!same_code(*s + vfs.hdr, vfs.close + 1 - vfs.hdr,
		       "static inline __poll_t vfs_poll(struct file *file, struct poll_table_struct *pt) {"
		       " if (unlikely(!file->f_op->poll)) return DEFAULT_POLLMASK;"
		       " return file->f_op->poll(file, pt); }"))
		anchor(g, F_POLL_H, "vfs_poll() is not the one polltax knows (static inline __poll_t vfs_poll(struct "
		       "file *file, struct poll_table_struct *pt) { if (unlikely(!file->f_op->poll)) return "
		       "DEFAULT_POLLMASK; return file->f_op->poll(file, pt); })");

	replace_body(s, &vfs, "return __vfs_poll(file, file->f_op, pt);");
	text = tmpl(g, vfs_section);
	{
		char *t = xasprintf("%s\n", text);

		splice(s, def_start(*s, &vfs), 0, t);
		free(t);
	}
	free(text);
	find_poll_functions(g, &can, &vfs);
	replace_body(s, &can, "return file->f_op->poll || file->f_op->poll_mask;");
	find_poll_functions(g, &can, &vfs);
	text = tmpl(g, proto_section);
	{
		size_t a = def_start(*s, &can), b = def_start(*s, &vfs);
		char *t = xasprintf("%s\n", text);

		splice(s, a < b ? a : b, 0, t);
		free(t);
	}
	free(text);
}

/* After the prototype of vfs_poll_mask_wait() (made by the patch before). */
static void add_poll_prototype(struct gen *g, const char *section)
{
	char **s = &g->text[F_POLL_H];
	const char *p = strstr(*s, "vfs_poll_mask_wait(");
	char *text;

	if (!p || !strchr(p, ';'))
		anchor(g, F_POLL_H, "no prototype of vfs_poll_mask_wait()");
	text = tmpl(g, section);
	splice(s, line_next(*s, (size_t)(strchr(p, ';') - *s)), 0, text);
	free(text);
}

/* ---- fs/select.c ------------------------------------------------------------------ */

/* The section before the first line after the #include lines at the top. */
static void add_after_includes(struct gen *g, const char *section)
{
	char **s = &g->text[F_SELECT];
	size_t l, last = 0, at;
	bool comment = false, found = false;
	char *text, *t;

	if (!find_line(*s, 0, strlen(*s), "^#include[[:space:]]+<linux/poll\\.h>", NULL))
		anchor(g, F_SELECT, "no '#include <linux/poll.h>'");
	for (l = 0; (*s)[l]; l = line_next(*s, l)) {
		char *x = line_text(*s, l), *tl = x + strspn(x, " \t");
		bool stop = false;

		if (comment) {
			comment = !strstr(tl, "*/");
		} else if (!strncmp(tl, "/*", 2)) {
			comment = !strstr(tl + 2, "*/");
		} else if (*tl == '#') {
			if (!strncmp(tl, "#include", 8)) {
				last = l;
				found = true;
			}
		} else if (*tl && strncmp(tl, "//", 2)) {
			stop = true;
		}
		free(x);
		if (stop)
			break;
	}
	if (!found)
		anchor(g, F_SELECT, "no #include lines at the top");
	for (at = line_next(*s, last); (*s)[at] == '\n'; at++)
		;
	text = tmpl(g, section);
	t = xasprintf("%s\n", text);
	splice(s, at, 0, t);
	free(t);
	free(text);
}

/* The section after the block that ends with EXPORT_SYMBOL(vfs_poll_mask_wait) (made by the patch before). */
static void add_after_mask_wait(struct gen *g, const char *section)
{
	char **s = &g->text[F_SELECT];
	size_t ls, at;
	char *text, *t;

	if (find_line(*s, 0, strlen(*s), "^EXPORT_SYMBOL\\(vfs_poll_mask_wait\\);", &ls) != 1)
		anchor(g, F_SELECT, "no 'EXPORT_SYMBOL(vfs_poll_mask_wait);'");
	for (at = line_next(*s, ls); (*s)[at] == '\n'; at++)
		;
	text = tmpl(g, section);
	t = xasprintf("%s\n", text);
	splice(s, at, 0, t);
	free(t);
	free(text);
}

/* ---- fs/open.c -------------------------------------------------------------------- */

/* do_dentry_open() clears f_poll_head where it puts the fops of a failed ->open(). */
static void edit_do_dentry_open(struct gen *g)
{
	char **s = &g->text[F_OPEN];
	struct cdef d;
	size_t ls;
	regmatch_t m[2];
	char *f, *text, *r, *ind, *block;
	const char *open_call;

	if (!find_def(*s, "do_dentry_open", true, &d))
		anchor(g, F_OPEN, "no do_dentry_open()");
	if (find_line(*s, d.open, d.close, "^[[:space:]]*fops_put\\([A-Za-z_][A-Za-z_0-9]*->f_op\\);", &ls) != 1)
		anchor(g, F_OPEN, "do_dentry_open() has not one 'fops_put(f->f_op);', where the fops of a failed "
		       "->open() are put and f_poll_head is cleared");
	open_call = strstr(*s + d.open, "->open(");
	if (!open_call || (size_t)(open_call - *s) > ls)
		anchor(g, F_OPEN, "do_dentry_open() calls no ->open() before its 'fops_put(f->f_op);'");
	line_matches(*s, ls, "fops_put\\(([A-Za-z_][A-Za-z_0-9]*)->f_op\\)", m, 2);
	{
		char *l = line_text(*s, ls);

		f = xstrndup(l + m[1].rm_so, (size_t)(m[1].rm_eo - m[1].rm_so));
		free(l);
	}
	text = tmpl(g, "open.c");
	{
		struct var v[] = { { "F", f, true } };

		r = render(g, "open.c", text, v, 1, 0);
	}
	ind = indent_of(*s, ls);
	block = indented(r, ind);
	splice(s, line_next(*s, ls), 0, block);
	free(block);
	free(ind);
	free(r);
	free(text);
	free(f);
}

/* ---- fs/debugfs/file.c ------------------------------------------------------------ */

/* The full proxy polls the real fops through __vfs_poll(), and has a ->poll for a ->poll_mask file too. */
static void edit_debugfs(struct gen *g, const char *comment_section)
{
	char **s = &g->text[F_DEBUGFS];
	struct cdef d;
	size_t ls;
	regmatch_t m[5];
	char *l, *ind, *c, *ci, *rep, *part[4];

	if (!find_def(*s, "full_proxy_poll", true, &d))
		anchor(g, F_DEBUGFS, "no full_proxy_poll()");
	if (find_line(*s, d.open, d.close, "^[[:space:]]*[A-Za-z_][A-Za-z_0-9]*[[:space:]]*=[[:space:]]*"
		      "[A-Za-z_][A-Za-z_0-9]*->poll\\([A-Za-z_][A-Za-z_0-9]*,[[:space:]]*[A-Za-z_][A-Za-z_0-9]*\\);", &ls) != 1)
		anchor(g, F_DEBUGFS, "full_proxy_poll() has not one 'r = real_fops->poll(filp, wait);'");
	line_matches(*s, ls, "([A-Za-z_][A-Za-z_0-9]*)[[:space:]]*=[[:space:]]*([A-Za-z_][A-Za-z_0-9]*)->poll\\("
		     "([A-Za-z_][A-Za-z_0-9]*),[[:space:]]*([A-Za-z_][A-Za-z_0-9]*)\\);", m, 5);
	l = line_text(*s, ls);
	for (int i = 0; i < 4; i++)
		part[i] = xstrndup(l + m[i + 1].rm_so, (size_t)(m[i + 1].rm_eo - m[i + 1].rm_so));
	ind = indent_of(*s, ls);
	c = tmpl(g, comment_section);
	ci = indented(c, ind);
	rep = xasprintf("%s%s%s = __vfs_poll(%s, %s, %s);\n", ci, ind, part[0], part[2], part[1], part[3]);
	splice(s, ls, line_next(*s, ls) - ls, rep);
	free(rep);
	free(ci);
	free(c);
	free(ind);
	free(l);
	for (int i = 0; i < 4; i++)
		free(part[i]);

	if (!find_def(*s, "__full_proxy_fops_init", true, &d))
		anchor(g, F_DEBUGFS, "no __full_proxy_fops_init()");
	if (find_line(*s, d.open, d.close, "^[[:space:]]*if \\([A-Za-z_][A-Za-z_0-9]*->poll\\)$", &ls) != 1 ||
	    !line_matches(*s, line_next(*s, ls), "->poll[[:space:]]*=[[:space:]]*full_proxy_poll;", NULL, 0))
		anchor(g, F_DEBUGFS, "__full_proxy_fops_init() has not one 'if (real_fops->poll)' setting "
		       "full_proxy_poll");
	line_matches(*s, ls, "\\(([A-Za-z_][A-Za-z_0-9]*)->poll\\)", m, 2);
	l = line_text(*s, ls);
	{
		char *fops = xstrndup(l + m[1].rm_so, (size_t)(m[1].rm_eo - m[1].rm_so));

		rep = xasprintf(" || %s->poll_mask", fops);
		splice(s, ls + (size_t)m[1].rm_eo + strlen("->poll"), 0, rep);
		free(fops);
		free(rep);
	}
	free(l);
}

/* ---- the anon_inode helpers ------------------------------------------------------- */

struct wrapper {
	char *name;
	char *exported;		/* "EXPORT_SYMBOL_GPL" or NULL */
};

static char *join_names(const struct strvec *v, const char *suffix, const char *conj)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < v->n; i++)
		sb_addf(&sb, "%s%s%s()", i == 0 ? "" : i + 1 == v->n ? conj : ", ", v->v[i], suffix);
	return sb.buf ? sb_detach(&sb) : xstrdup("");
}

/* The @-entries of a kernel-doc comment, realigned for the longer @poll_head, and @poll_head itself. */
static char *param_docs(struct gen *g, const char *s, size_t from, size_t to)
{
	struct strvec tags = STRVEC_INIT, rests = STRVEC_INIT;
	struct strbuf sb = STRBUF_INIT;
	int w = 0;
	char *ph = tmpl(g, "anon.poll_head");
	size_t l;

	for (l = from; l < to; l = line_next(s, l)) {
		regmatch_t m[3];

		if (!line_matches(s, l, "^ \\* (@[A-Za-z_0-9]+:)[[:space:]]*(.*)$", m, 3))
			continue;
		{
			char *x = line_text(s, l);

			sv_push(&tags, "");
			free(tags.v[tags.n - 1]);
			tags.v[tags.n - 1] = xstrndup(x + m[1].rm_so, (size_t)(m[1].rm_eo - m[1].rm_so));
			if (m[2].rm_eo > m[2].rm_so) {
				if (!w)
					w = (int)(m[2].rm_so - m[1].rm_so);
				sv_push(&rests, x + m[2].rm_so);
			} else {
				/* "@context_inode:" alone, its text on the next line */
				char *y;

				l = line_next(s, l);
				y = line_text(s, l);
				sv_push(&rests, y + strspn(y, " *\t"));
				free(y);
			}
			free(x);
		}
	}
	sv_push(&tags, "@poll_head:");
	ph[strcspn(ph, "\n")] = '\0';
	sv_push(&rests, ph);
	if (w < (int)strlen("@poll_head:") + 1)
		w = (int)strlen("@poll_head:") + 1;
	for (size_t i = 0; i < tags.n; i++) {
		if ((int)strlen(tags.v[i]) + 1 <= w)
			sb_addf(&sb, " * %-*s%s\n", w, tags.v[i], rests.v[i]);
		else
			sb_addf(&sb, " * %s\n * %*s%s\n", tags.v[i], w, "", rests.v[i]);
	}
	sb.buf[sb.len - 1] = '\0';	/* @{PARAMS} stands on a line of its own */
	sv_clear(&tags);
	sv_clear(&rests);
	free(ph);
	return sb_detach(&sb);
}

/* "return __anon_inode_getfd(ARGS, LAST);" at 80 columns */
static char *getfd_call(const char *ind, const struct params *args, const char *last)
{
	struct params p = { STRVEC_INIT, NULL };
	struct strbuf sb = STRBUF_INIT;
	char *first = xasprintf("%sreturn __anon_inode_getfd(", ind);

	for (size_t i = 0; i < args->v.n; i++)
		params_add(&p, args->v.v[i], false);
	params_add(&p, last, false);
	emit_params(&sb, first, &p, ");");
	params_free(&p);
	free(first);
	return sb_detach(&sb);
}

/* Each wrapper of __anon_inode_getfd() in fs/anon_inodes.c gets a _poll twin that takes the queue. */
static void edit_anon_c(struct gen *g)
{
	char **s = &g->text[F_ANON_C];
	struct cdef *defs, inner;
	size_t n = c_defs(*s, &defs), calls = 0;

	if (!find_def(*s, "__anon_inode_getfd", true, &inner))
		anchor(g, F_ANON_C, "no __anon_inode_getfd()");
	for (const char *p = *s; (p = strstr(p, "__anon_inode_getfd(")); p++)
		calls++;
	/* the wrappers, from the last one up, so that the offsets before stay valid */
	for (size_t i = n; i-- > 0;) {
		struct cdef *d = &defs[i];
		struct params args;
		char *name, *body, *ind, *exported = NULL;
		const char *call;
		size_t end, call_l, call_end, from, to;
		struct strbuf nf = STRBUF_INIT;

		if (!d->func)
			continue;
		call = strstr(*s + d->open, "__anon_inode_getfd(");
		if (!call || (size_t)(call - *s) > d->close)
			continue;
		name = xstrndup(*s + d->name, d->nlen);
		if (!strcmp(name, "__anon_inode_getfd")) {
			free(name);
			continue;
		}
		if (!strncmp(*s + d->hdr, "static", 6))
			anchor(g, F_ANON_C, "%s() calls __anon_inode_getfd() but is static: polltax knows only the "
			       "exported helpers", name);
		body = squash(*s + d->open, d->close + 1 - d->open);
		if (strncmp(body, "{return __anon_inode_getfd(", 27) || strcmp(body + strlen(body) - 3, ");}") ||
		    strchr(body + 27, ';') != body + strlen(body) - 2)
			anchor(g, F_ANON_C, "%s() does more than 'return __anon_inode_getfd(...);'", name);
		free(body);
		sv_push(&g->fd, name);
		call_l = line_start(*s, (size_t)(call - *s));
		ind = indent_of(*s, call_l);
		{
			const char *lp = call + strlen("__anon_inode_getfd");
			const char *rp = strstr(lp, ");");

			params_parse(*s, (size_t)(lp + 1 - *s), (size_t)(rp - *s), &args);
			call_end = line_next(*s, (size_t)(rp - *s));
		}
		/* the twin, after the wrapper and its EXPORT_SYMBOL */
		end = line_next(*s, d->close);
		{
			regmatch_t m[2];
			char *re = xasprintf("^(EXPORT_SYMBOL[A-Z_]*)\\(%s\\);", name);

			if (line_matches(*s, end, re, m, 2)) {
				char *l = line_text(*s, end);

				exported = xstrndup(l, (size_t)m[1].rm_eo);
				free(l);
				end = line_next(*s, end);
			}
			free(re);
		}
		{
			char *k = tmpl(g, "anon.kerneldoc"), *pd, *twin = xasprintf("%s_poll", name), *kd;
			struct params hp;
			char *first;

			pd = doc_before(*s, d->hdr, &from, &to) ? param_docs(g, *s, from, to) : param_docs(g, "", 0, 0);
			{
				struct var v[] = { { "NAME", twin, false }, { "ORIG", name, false }, { "PARAMS", pd, true } };

				kd = render(g, "anon.kerneldoc", k, v, 3, MAX_COLS);
			}
			sb_addc(&nf, '\n');
			sb_adds(&nf, kd);
			params_parse(*s, d->lparen + 1, d->rparen, &hp);
			params_add(&hp, "struct wait_queue_head *poll_head", true);
			first = xasprintf("%.*s%s(", (int)(d->name - d->hdr), *s + d->hdr, twin);
			emit_params(&nf, first, &hp, ")");
			sb_adds(&nf, "{\n");
			{
				char *c = getfd_call(ind, &args, "poll_head");

				sb_adds(&nf, c);
				free(c);
			}
			sb_adds(&nf, "}\n");
			if (exported)
				sb_addf(&nf, "%s(%s);\n", exported, twin);
			splice(s, end, 0, nf.buf);
			params_free(&hp);
			free(first);
			free(kd);
			free(pd);
			free(k);
			free(twin);
		}
		/* the wrapper itself passes no queue */
		{
			char *c = getfd_call(ind, &args, "NULL");

			splice(s, call_l, call_end - call_l, c);
			free(c);
		}
		params_free(&args);
		sb_release(&nf);
		free(exported);
		free(ind);
	}
	free(defs);
	if (!g->fd.n)
		anchor(g, F_ANON_C, "no exported helper calls __anon_inode_getfd()");
	if (calls != g->fd.n + 1)
		anchor(g, F_ANON_C, "__anon_inode_getfd() is called %zu times, by %zu helpers polltax knows",
		       calls - 1, g->fd.n);
	/* the order of the file, for the documentation */
	for (size_t i = 0; i < g->fd.n / 2; i++) {
		char *x = g->fd.v[i];

		g->fd.v[i] = g->fd.v[g->fd.n - 1 - i];
		g->fd.v[g->fd.n - 1 - i] = x;
	}

	/* __anon_inode_getfd() takes the queue and sets it before fd_install() */
	if (!find_def(*s, "__anon_inode_getfd", true, &inner))
		anchor(g, F_ANON_C, "no __anon_inode_getfd()");
	{
		size_t ls;
		regmatch_t m[2];
		char *l, *file, *ind, *set;

		if (find_line(*s, inner.open, inner.close, "^[[:space:]]*fd_install\\([A-Za-z_][A-Za-z_0-9]*,[[:space:]]*"
			      "[A-Za-z_][A-Za-z_0-9]*\\);", &ls) != 1)
			anchor(g, F_ANON_C, "__anon_inode_getfd() has not one 'fd_install(fd, file);'");
		line_matches(*s, ls, ",[[:space:]]*([A-Za-z_][A-Za-z_0-9]*)\\);", m, 2);
		l = line_text(*s, ls);
		file = xstrndup(l + m[1].rm_so, (size_t)(m[1].rm_eo - m[1].rm_so));
		ind = indent_of(*s, ls);
		set = xasprintf("%s%s->f_poll_head = poll_head;\n", ind, file);
		splice(s, ls, 0, set);
		free(set);
		free(ind);
		free(file);
		free(l);
	}
	if (!find_def(*s, "__anon_inode_getfd", true, &inner))
		anchor(g, F_ANON_C, "no __anon_inode_getfd()");
	{
		size_t pl = line_start(*s, inner.rparen);
		char *ind, *add;

		if (pl > inner.lparen) {
			ind = indent_of(*s, pl);
		} else {
			size_t ls = line_start(*s, inner.lparen);

			ind = align_to(cols(*s + ls, inner.lparen + 1 - ls, 0));
		}
		add = xasprintf(",\n%sstruct wait_queue_head *poll_head", ind);
		splice(s, inner.rparen, 0, add);
		free(add);
		free(ind);
	}
}

/* include/linux/anon_inodes.h declares the twins, each after its wrapper. */
static void edit_anon_h(struct gen *g)
{
	char **s = &g->text[F_ANON_H];
	size_t first_proto = strlen(*s);

	for (size_t i = 0; i < g->fd.n; i++) {
		char *re = xasprintf("^[A-Za-z_][A-Za-z_0-9 \t*]*[[:space:]*]%s\\(", g->fd.v[i]);
		size_t ls, lp, rp, end;
		int depth = 0;
		struct params p;
		struct strbuf sb = STRBUF_INIT;
		char *first;

		if (find_line(*s, 0, strlen(*s), re, &ls) != 1)
			anchor(g, F_ANON_H, "no declaration of %s()", g->fd.v[i]);
		free(re);
		if (ls < first_proto)
			first_proto = ls;
		lp = (size_t)(strstr(*s + ls, g->fd.v[i]) - *s) + strlen(g->fd.v[i]);
		for (rp = lp; (*s)[rp]; rp++) {
			depth += (*s)[rp] == '(' ? 1 : (*s)[rp] == ')' ? -1 : 0;
			if (!depth)
				break;
		}
		if ((*s)[rp] != ')' || (*s)[rp + 1] != ';')
			anchor(g, F_ANON_H, "the declaration of %s() is not 'int %s(...);'", g->fd.v[i], g->fd.v[i]);
		end = line_next(*s, rp);
		params_parse(*s, lp + 1, rp, &p);
		params_add(&p, "struct wait_queue_head *poll_head", true);
		first = xasprintf("%.*s%s_poll(", (int)(lp - strlen(g->fd.v[i]) - ls), *s + ls, g->fd.v[i]);
		emit_params(&sb, first, &p, ");");
		splice(s, end, 0, sb.buf);
		free(first);
		sb_release(&sb);
		params_free(&p);
	}
	/* struct wait_queue_head is declared with the other structs, unless the header has it */
	if (!find_line(*s, 0, strlen(*s), "^struct wait_queue_head;|^#include <linux/wait\\.h>", NULL)) {
		size_t l, last = (size_t)-1;

		for (l = 0; l < first_proto && (*s)[l]; l = line_next(*s, l))
			if (line_matches(*s, l, "^struct [A-Za-z_0-9]+;$", NULL, 0))
				last = l;
		if (last != (size_t)-1)
			splice(s, line_next(*s, last), 0, "struct wait_queue_head;\n");
		else
			splice(s, first_proto, 0, "struct wait_queue_head;\n\n");
	}
}

/* ---- Documentation/filesystems ---------------------------------------------------- */

#define POLL_PROTO "^[[:space:]]*__poll_t \\(\\*poll\\) \\(struct file \\*, struct poll_table_struct \\*\\);"

static void add_rst_prototype(struct gen *g, int f, const char *section)
{
	char **s = &g->text[f];
	size_t ls;
	char *ind, *text, *block;

	if (find_line(*s, 0, strlen(*s), POLL_PROTO, &ls) != 1)
		anchor(g, f, "not one line '__poll_t (*poll) (struct file *, struct poll_table_struct *);' in the "
		       "prototypes of struct file_operations");
	ind = indent_of(*s, ls);
	text = tmpl(g, section);
	block = indented(text, ind);
	splice(s, line_next(*s, ls), 0, block);
	free(block);
	free(text);
	free(ind);
}

static void insert_before_line(struct gen *g, int f, const char *re, const char *what, const char *section)
{
	char **s = &g->text[f];
	size_t ls;
	char *text, *t;

	if (!find_line(*s, 0, strlen(*s), re, &ls))
		anchor(g, f, "%s", what);
	text = tmpl(g, section);
	t = xasprintf("%s\n", text);
	splice(s, ls, 0, t);
	free(t);
	free(text);
}

static void edit_docs(struct gen *g, const char *v, const struct var *vars, size_t nv)
{
	char *sec = xasprintf("%s.rst.prototype", v);

	add_rst_prototype(g, F_LOCKING, sec);
	add_rst_prototype(g, F_VFS, sec);
	free(sec);
	sec = xasprintf("%s.locking.text", v);
	insert_before_line(g, F_LOCKING, "^->fasync\\(\\) is responsible",
			   "no paragraph '->fasync() is responsible ...', before which the one on ->poll_mask() goes", sec);
	free(sec);
	{
		char **s = &g->text[F_VFS];
		size_t ls, l;
		char *text, *t;

		if (find_line(*s, 0, strlen(*s), "^``poll``$", &ls) != 1)
			anchor(g, F_VFS, "no entry ``poll`` in the methods of struct file_operations");
		for (l = line_next(*s, ls); (*s)[l] && strncmp(*s + l, "``", 2); l = line_next(*s, l))
			;
		if (!(*s)[l])
			anchor(g, F_VFS, "no entry after ``poll`` in the methods of struct file_operations");
		sec = xasprintf("%s.vfs.text", v);
		text = tmpl(g, sec);
		t = xasprintf("%s\n", text);
		splice(s, l, 0, t);
		free(t);
		free(text);
		free(sec);
	}
	{
		char **s = &g->text[F_PORTING];
		size_t n = strlen(*s);
		char *text, *r, *t;

		while (n && (*s)[n - 1] == '\n')
			n--;
		sec = xasprintf("%s.porting.text", v);
		text = tmpl(g, sec);
		r = render(g, sec, text, vars, nv, MAX_COLS);
		t = xasprintf("\n\n%s", r);
		splice(s, n, strlen(*s) - n, t);
		free(t);
		free(r);
		free(text);
		free(sec);
	}
}

/* ---- the variants ----------------------------------------------------------------- */

struct names {
	char *fd, *fd_or, *fd_poll, *fd_poll_or;
};

static void names_of(const struct gen *g, struct names *n, struct var *v)
{
	n->fd = join_names(&g->fd, "", " and ");
	n->fd_or = join_names(&g->fd, "", " or ");
	n->fd_poll = join_names(&g->fd, "_poll", " and ");
	n->fd_poll_or = join_names(&g->fd, "_poll", " or ");
	v[0] = (struct var){ "TREE", g->tree, false };
	v[1] = (struct var){ "FD", n->fd, false };
	v[2] = (struct var){ "FD_OR", n->fd_or, false };
	v[3] = (struct var){ "FD_POLL", n->fd_poll, false };
	v[4] = (struct var){ "FD_POLL_OR", n->fd_poll_or, false };
}

static void names_free(struct names *n)
{
	free(n->fd);
	free(n->fd_or);
	free(n->fd_poll);
	free(n->fd_poll_or);
}

static char *message(const struct gen *g, const char *section, const struct var *v, size_t nv,
		     const struct infra_id *id)
{
	char *t = tmpl(g, section), *r = render(g, section, t, v, nv, MSG_COLS);
	const char *last = r;
	char *m;

	/* the Signed-off-by joins the trailers (Link:) that end the message, if any */
	for (const char *l = r; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l))
		if (*l != '\n')
			last = l;
	m = xasprintf("%s%sSigned-off-by: %s <%s>\n", r, strncmp(last, "Link: ", 6) ? "\n" : "", id->name, id->email);

	free(t);
	free(r);
	return m;
}

/* ---- the scratch repository ------------------------------------------------------- */

static const char *const git_env[] = {
	"GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_AUTHOR_DATE", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL",
	"GIT_COMMITTER_DATE", "GIT_CONFIG_NOSYSTEM", "GIT_CONFIG_GLOBAL", NULL
};

static void env_save(char **saved)
{
	for (int i = 0; git_env[i]; i++)
		saved[i] = getenv(git_env[i]) ? xstrdup(getenv(git_env[i])) : NULL;
}

static void env_restore(char **saved)
{
	for (int i = 0; git_env[i]; i++) {
		if (saved[i])
			setenv(git_env[i], saved[i], 1);
		else
			unsetenv(git_env[i]);
		free(saved[i]);
	}
}

static void env_identity(const char *name, const char *email, const char *date)
{
	setenv("GIT_AUTHOR_NAME", name, 1);
	setenv("GIT_AUTHOR_EMAIL", email, 1);
	setenv("GIT_COMMITTER_NAME", name, 1);
	setenv("GIT_COMMITTER_EMAIL", email, 1);
	setenv("GIT_AUTHOR_DATE", date, 1);
	setenv("GIT_COMMITTER_DATE", date, 1);
}

static void git_or_die(const char *work, const char *const *argv)
{
	if (run_cmd(argv, work, NULL, true) != 0)
		die("git %s failed in '%s'", argv[1], work);
}

static void write_texts(const char *work, char *const *text)
{
	for (int f = 0; f < NR_FILES; f++) {
		char *p = path_join(work, files[f]), *d = xstrdup(p);

		*strrchr(d, '/') = '\0';
		if (mkdir_p(d) < 0 || write_file_atomic(p, text[f], strlen(text[f])) < 0)
			die("cannot write '%s': %s", p, strerror(errno));
		free(d);
		free(p);
	}
}

/* ---- the interface ---------------------------------------------------------------- */

bool infra_present(const char *root)
{
	char *p = path_join(root, "include/linux/fs.h"), *text;
	struct cdef d;
	bool r = false;

	if (read_file(p, &text, NULL) == 0) {
		if (find_def(text, "struct file", false, &d))
			r = find_line(text, d.open, d.close, "\\*[[:space:]]*f_poll_head;", NULL) > 0;
		free(text);
	}
	free(p);
	return r;
}

char *infra_date(const struct tree *t)
{
	struct strbuf out = STRBUF_INIT;
	struct stat st;
	char *mk;

	if (t->is_git && t->head) {
		const char *argv[] = { "git", "-C", t->root, "log", "-1", "--format=%ct", t->head, NULL };

		if (run_cmd(argv, NULL, &out, true) == 0 && out.len) {
			char *r;

			out.buf[strcspn(out.buf, "\n")] = '\0';
			r = xasprintf("@%s +0000", out.buf);
			sb_release(&out);
			return r;
		}
		sb_release(&out);
	}
	mk = path_join(t->root, "Makefile");
	if (stat(mk, &st) < 0)
		die_code(EXIT_INPUT, "cannot stat '%s': %s", mk, strerror(errno));
	free(mk);
	return xasprintf("@%lld +0000", (long long)st.st_mtime);
}

char *infra_measurements(void)
{
	return xasprintf("%s/kernel-patches/MEASUREMENTS.md", data_dir());
}

static bool all_hex(const char *s)
{
	return *s && strspn(s, "0123456789abcdef") == strlen(s);
}

int infra_write(const struct tree *t, enum infra_kind kind, const struct infra_id *id, const char *dir,
		struct strvec *out)
{
	struct gen g;
	struct names nm;
	struct var v[5];
	char *msgs[2] = { NULL, NULL }, *snap[NR_FILES] = { NULL }, *date, *base, *work, *outdir;
	static const char *const names[2][2] = {
		{ "0001-fs-add-f_poll_head-and-poll_mask.patch", NULL },
		{ "0001-fs-add-get_poll_head-two-call.patch", "0002-fs-f_poll_head-for-the-two-call-variant.patch" },
	};
	int npatches = kind == INFRA_TWO_CALL ? 2 : 1;
	char *saved[16];

	if (infra_present(t->root))
		return 1;
	memset(&g, 0, sizeof(g));
	g.t = t;
	g.tmpl_path = xasprintf("%s/kernel-patches/infra/templates.txt", data_dir());
	if (read_file(g.tmpl_path, &g.tmpl, NULL) < 0)
		die("cannot read '%s': %s", g.tmpl_path, strerror(errno));
	for (int f = 0; f < NR_FILES; f++) {
		char *p = path_join(t->root, files[f]);

		if (read_file(p, &g.orig[f], NULL) < 0)
			die_code(EXIT_INPUT, "cannot read '%s': %s: polltax cannot make the infrastructure patch for this "
				 "tree (write it by hand and pass it with --infra PATCH)", p, strerror(errno));
		g.text[f] = xstrdup(g.orig[f]);
		free(p);
	}
	g.tree = t->describe && !all_hex(t->describe) ? xasprintf("linux-%s (%s)", t->version, t->describe) :
		 xasprintf("linux-%s", t->version);

	/* every change first: an anchor that is missing stops before anything is written */
	if (kind == INFRA_ONE_CALL) {
		add_fops_members(&g, "one.fs.h.fops");
		add_f_poll_head(&g, "one.fs.h.kerneldoc", "one.fs.h.comment");
		edit_vfs_poll(&g, "one.poll.h.__vfs_poll", "one.poll.h.prototypes");
		add_after_includes(&g, "one.select.c");
		edit_debugfs(&g, "one.debugfs.comment");
		edit_do_dentry_open(&g);
		edit_anon_c(&g);
		edit_anon_h(&g);
		names_of(&g, &nm, v);
		edit_docs(&g, "one", v, 5);
		msgs[0] = message(&g, "one.message", v, 5, id);
	} else {
		/* the second patch adds the helpers: find them first, on a copy */
		char *keep = xstrdup(g.text[F_ANON_C]);

		edit_anon_c(&g);
		free(g.text[F_ANON_C]);
		g.text[F_ANON_C] = keep;
		names_of(&g, &nm, v);
		sv_clear(&g.fd);

		add_fops_members(&g, "two.fs.h.fops");
		edit_vfs_poll(&g, "two.poll.h.__vfs_poll", "two.poll.h.prototypes");
		add_after_includes(&g, "two.select.c");
		edit_debugfs(&g, "two.debugfs.comment");
		edit_docs(&g, "two", v, 5);
		msgs[0] = message(&g, "two.message", v, 5, id);
		for (int f = 0; f < NR_FILES; f++)
			snap[f] = xstrdup(g.text[f]);
		add_f_poll_head(&g, "two2.fs.h.kerneldoc", "two2.fs.h.comment");
		add_poll_prototype(&g, "two2.poll.h.prototypes");
		add_after_mask_wait(&g, "two2.select.c");
		edit_do_dentry_open(&g);
		edit_anon_c(&g);
		edit_anon_h(&g);
		msgs[1] = message(&g, "two2.message", v, 5, id);
	}

	/* a scratch repository of the touched files: the originals, then each patch */
	{
		unsigned long long h = XXH64(t->root, strlen(t->root), 0);
		const char *b = strrchr(t->root, '/');

		base = xasprintf("%s/infra/%s-%08llx", cache_root(), b ? b + 1 : t->root, h & 0xffffffffULL);
	}
	work = xasprintf("%s/tmp-%d", base, (int)getpid());
	outdir = dir ? xstrdup(dir) : xasprintf("%s/%s", base, kind == INFRA_TWO_CALL ? "two-call" : "one-call");
	date = id->date ? xstrdup(id->date) : infra_date(t);
	rm_rf(work);
	if (mkdir_p(work) < 0)
		die("cannot create '%s': %s", work, strerror(errno));
	if (mkdir_p(outdir) < 0)
		die("cannot create '%s': %s", outdir, strerror(errno));
	env_save(saved);
	setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
	setenv("GIT_CONFIG_GLOBAL", "/dev/null", 1);
	write_texts(work, g.orig);
	env_identity("polltax", "polltax@localhost", date);
	git_or_die(work, (const char *const[]){ "git", "init", "-q", NULL });
	{
		/* the hunk headers of the tree's own diffs: its .gitattributes (diff=cpp), not committed */
		char *ga = path_join(t->root, ".gitattributes"), *info = xasprintf("%s/.git/info", work);
		char *ia = path_join(info, "attributes"), *text;

		if (read_file(ga, &text, NULL) < 0)
			text = xstrdup("*.[ch] diff=cpp\n");
		if (mkdir_p(info) < 0 || write_file_atomic(ia, text, strlen(text)) < 0)
			die("cannot write '%s'", ia);
		free(text);
		free(ga);
		free(info);
		free(ia);
	}
	git_or_die(work, (const char *const[]){ "git", "add", "-A", "-f", ".", NULL });
	git_or_die(work, (const char *const[]){ "git", "commit", "-q", "--no-verify", "-m", "base", NULL });
	env_identity(id->name, id->email, date);
	for (int i = 0; i < npatches; i++) {
		char *mf = xasprintf("%s/.git/polltax-msg", work);

		write_texts(work, kind == INFRA_TWO_CALL && i == 0 ? snap : g.text);
		if (write_file_atomic(mf, msgs[i], strlen(msgs[i])) < 0)
			die("cannot write '%s'", mf);
		git_or_die(work, (const char *const[]){ "git", "commit", "-q", "--no-verify", "-a", "--cleanup=whitespace",
							"-F", mf, NULL });
		free(mf);
	}
	{
		char *range = xasprintf("HEAD~%d..HEAD", npatches), *fmt = xasprintf("%s/.git/polltax-out", work);

		git_or_die(work, (const char *const[]){ "git", "format-patch", "-q", "--abbrev=12", "-o", fmt, range, NULL });
		for (int i = 0; i < npatches; i++) {
			char *pat = xasprintf("%s/%04d-*.patch", fmt, i + 1), *text, *dst;
			glob_t gl;
			size_t len;

			if (glob(pat, 0, NULL, &gl) != 0 || gl.gl_pathc != 1)
				die("git format-patch wrote no '%s'", pat);
			if (read_file(gl.gl_pathv[0], &text, &len) < 0)
				die("cannot read '%s': %s", gl.gl_pathv[0], strerror(errno));
			dst = path_join(outdir, names[kind == INFRA_TWO_CALL][i]);
			if (write_file_atomic(dst, text, len) < 0)
				die("cannot write '%s'", dst);
			sv_push(out, dst);
			globfree(&gl);
			free(text);
			free(dst);
			free(pat);
		}
		free(range);
		free(fmt);
	}
	env_restore(saved);
	rm_rf(work);

	names_free(&nm);
	for (int f = 0; f < NR_FILES; f++) {
		free(g.orig[f]);
		free(g.text[f]);
		free(snap[f]);
	}
	sv_clear(&g.fd);
	free(msgs[0]);
	free(msgs[1]);
	free(g.tmpl);
	free(g.tmpl_path);
	free(g.tree);
	free(date);
	free(base);
	free(work);
	free(outdir);
	return 0;
}
