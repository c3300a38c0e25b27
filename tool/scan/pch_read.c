// SPDX-License-Identifier: GPL-2.0
/*
 * pch_read.c - what the precompiled headers are planned from (pch_int.h):
 * the unconditional #include lines of a file and of its own headers, the
 * macros it defines before its last #include (and which of them no header
 * after the PCH's looks at), the headers a group of files shares.
 */
#define _GNU_SOURCE
#include "pch_int.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A directive line: the line, and its directive's word (DN long) and argument. */
struct dline {
	const char *line, *end;
	const char *d, *arg;
	size_t dn;
};

/* The next directive line of BUF[0..LEN) from *AT on (*AT moves past it); false at the end. */
static bool next_directive(const char *buf, size_t len, const char **at, struct dline *dl)
{
	while (*at < buf + len) {
		const char *l = *at, *e = memchr(l, '\n', (size_t)(buf + len - l));

		if (!e)
			e = buf + len;
		*at = e + 1;
		dl->d = directive(l, e, &dl->dn);
		if (dl->d) {
			dl->line = l;
			dl->end = e;
			dl->arg = skip_blank(dl->d + dl->dn, e);
			return true;
		}
	}
	return false;
}

bool is_word_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* How long the identifier at S (up to END) is. */
static size_t ident_len(const char *s, const char *end)
{
	size_t k = 0;

	while (s + k < end && is_word_char(s[k]))
		k++;
	return k;
}

/* The macro a #define or #undef line names (allocated); NULL for any other line. */
static char *defined_name(const struct dline *dl)
{
	size_t k;

	if (!is_dir_word(dl->d, dl->dn, "define") && !is_dir_word(dl->d, dl->dn, "undef"))
		return NULL;
	k = ident_len(dl->arg, dl->end);
	return k ? xstrndup(dl->arg, k) : NULL;
}

/*
 * The header an #include line names (allocated), with *Q its closing
 * quote ('>' or '"'); NULL when it names none (a macro, "include_next").
 */
static char *include_target(const struct dline *dl, char *q)
{
	const char *a = dl->arg, *end = dl->end;
	const char *close;

	*q = *a == '<' ? '>' : *a == '"' ? '"' : 0;
	close = *q && a + 1 < end ? memchr(a + 1, *q, (size_t)(end - a - 1)) : NULL;
	return close && close > a + 1 ? xstrndup(a + 1, (size_t)(close - a - 1)) : NULL;
}

#define LOCAL_DEPTH 3		/* how deep #include "..." is followed */

/*
 * Read the #include <...> lines of PATH that are outside any #if, and
 * those of the headers it includes with #include "..." from its own
 * directory (a driver's "foo.h" is where its <linux/...> headers often
 * are), in the order the preprocessor would meet them; and the macros each
 * of these files defines before its last #include.
 */
void read_source(const char *path, struct finfo *fi, int level, struct strvec *seen)
{
	char *buf, *dir;
	size_t len;
	const char *last = NULL;
	int depth = 0;

	if (sv_contains(seen, path) || read_file(path, &buf, &len) < 0)
		return;
	sv_push(seen, path);
	dir = xstrdup(path);
	*strrchr(dir, '/') = '\0';
	for (int pass = 0; pass < 2; pass++) {
		struct dline dl;

		for (const char *at = buf; next_directive(buf, len, &at, &dl);) {
			const char *l = dl.line, *d = dl.d;
			size_t dn = dl.dn;

			if (pass == 1 && (!last || l >= last))
				break;
			if (pass == 0) {
				if (is_dir_word(d, dn, "if") || is_dir_word(d, dn, "ifdef") ||
				    is_dir_word(d, dn, "ifndef")) {
					depth++;
				} else if (is_dir_word(d, dn, "endif")) {
					depth -= depth > 0;
				} else if (is_dir_word(d, dn, "include")) {
					char q, *h = include_target(&dl, &q);

					last = l;
					/* level 0 is a .c file; a header is read inside its include guard */
					if (!h || depth > (level > 0)) {
						free(h);
						continue;
					}
					if (q == '>' && !sv_contains(&fi->hdrs, h)) {
						sv_push(&fi->hdrs, h);
					} else if (q == '"' && level < LOCAL_DEPTH) {
						char *lp = path_join(dir, h);

						read_source(lp, fi, level + 1, seen);
						free(lp);
					}
					free(h);
				}
			} else {
				char *name = defined_name(&dl);

				if (name && !sv_contains(&fi->early, name))
					sv_push(&fi->early, name);
				free(name);
			}
		}
	}
	free(dir);
	free(buf);
}

/* Where #include <H> is found through the -I directories of FLAGS (allocated), or NULL. */
static char *find_header(const struct strvec *flags, const char *h)
{
	for (size_t i = 0; i < flags->n; i++) {
		const char *dir = flags->v[i] + 2;
		char *p;

		if (strncmp(flags->v[i], "-I", 2))
			continue;
		if (!*dir && i + 1 < flags->n)	/* "-I" "dir" */
			dir = flags->v[++i];
		p = path_join(dir, h);
		if (is_file(p))
			return p;
		free(p);
	}
	return NULL;
}

/* Is header H (as in #include <H>) found through the -I directories of FLAGS? */
bool header_found(const struct strvec *flags, const char *h)
{
	char *p = find_header(flags, h);

	free(p);
	return p != NULL;
}

/*
 * How deep in #if a directive of BUF is outside any condition but the
 * include guard: 1 when the first two directives are "#ifndef G" and
 * "#define G" (or 0 with "#pragma once" first), else 0; -1 when BUF has
 * neither (no guard).
 */
static int guard_depth(const char *buf, size_t len)
{
	const char *a1 = NULL;	/* the first directive's argument */
	struct dline dl;

	for (const char *at = buf; next_directive(buf, len, &at, &dl);) {
		const char *d = dl.d, *a = dl.arg;
		size_t dn = dl.dn;

		if (is_dir_word(d, dn, "pragma") && !strncmp(a, "once", 4))
			return 0;
		if (!a1) {
			a1 = a;
			if (!is_dir_word(d, dn, "ifndef"))
				return -1;
			continue;
		}
		if (is_dir_word(d, dn, "define")) {
			size_t k = ident_len(a1, buf + len);

			return k && ident_len(a, buf + len) == k && !strncmp(a, a1, k) ? 1 : -1;
		}
		return -1;
	}
	return -1;
}

/*
 * Is header PATH a list meant to be read again and again (an X-macro
 * header such as <linux/cgroup_subsys.h>): no include guard, and no
 * #include of its own?
 */
static bool xmacro_header(const char *path)
{
	char *buf;
	size_t len;
	struct dline dl;
	bool ok;

	if (read_file(path, &buf, &len) < 0)
		return false;
	ok = guard_depth(buf, len) < 0;
	for (const char *at = buf; ok && next_directive(buf, len, &at, &dl);)
		ok = !is_dir_word(dl.d, dl.dn, "include");
	free(buf);
	return ok;
}

/*
 * Is #include <H> found through FLAGS, with an include guard?  A header
 * without one is meant to be read where it is included, with macros of
 * the includer's (an X-macro list): it has no place in a PCH.
 */
static bool guarded_header(const struct strvec *flags, const char *h)
{
	char *p = find_header(flags, h), *buf;
	size_t len;
	bool ok = false;

	if (p && read_file(p, &buf, &len) == 0) {
		ok = guard_depth(buf, len) >= 0;
		free(buf);
	}
	free(p);
	return ok;
}

/*
 * The walk of late_safe(): the file's lines in the preprocessor's order,
 * into its own "..." headers (conditional ones too).
 */
struct lwalk {
	const struct strvec *early, *flags;
	struct strvec before;	/* <...> headers included outside any #if so far */
	struct strvec active;	/* early macros #defined or #undef'd so far */
	struct strvec unsafe;	/* those an #include after them may show to a PCH header */
};

/* Every macro defined so far may be seen by a PCH header. */
static void all_unsafe(struct lwalk *w)
{
	for (size_t k = 0; k < w->active.n; k++)
		sv_push(&w->unsafe, w->active.v[k]);
}

static void late_walk(struct lwalk *w, const char *path, int level, bool cond)
{
	char *buf, *dir;
	size_t len;
	int depth = 0, gd;
	struct dline dl;

	if (level > 8 || read_file(path, &buf, &len) < 0) {
		all_unsafe(w);
		return;
	}
	gd = level ? guard_depth(buf, len) : 0;
	dir = xstrdup(path);
	*strrchr(dir, '/') = '\0';
	for (const char *at = buf; next_directive(buf, len, &at, &dl);) {
		const char *d = dl.d;
		size_t dn = dl.dn;

		if (is_dir_word(d, dn, "if") || is_dir_word(d, dn, "ifdef") || is_dir_word(d, dn, "ifndef")) {
			depth++;
		} else if (is_dir_word(d, dn, "endif")) {
			depth -= depth > 0;
		} else if (is_dir_word(d, dn, "define") || is_dir_word(d, dn, "undef")) {
			char *name = defined_name(&dl);

			if (name && sv_contains(w->early, name) && !sv_contains(&w->active, name))
				sv_push(&w->active, name);
			free(name);
		} else if (is_dir_word(d, dn, "include")) {
			char q, *h = include_target(&dl, &q);
			bool uncond = !cond && gd >= 0 && depth <= gd;
			char *lp = h && q == '"' ? path_join(dir, h) : NULL;
			bool local = lp && is_file(lp), ok = true;

			if (w->active.n && !local) {
				char *hp = h && q == '>' && !sv_contains(&w->before, h) ? find_header(w->flags, h) : NULL;

				ok = h && q == '>' && (sv_contains(&w->before, h) || (hp && xmacro_header(hp)));
				free(hp);
			}
			if (!ok)
				all_unsafe(w);
			if (local)
				late_walk(w, lp, level + 1, !uncond);
			else if (h && q == '>' && uncond && !sv_contains(&w->before, h))
				sv_push(&w->before, h);
			free(lp);
			free(h);
		}
	}
	free(dir);
	free(buf);
}

/*
 * Of the macros EARLY that file PATH defines before an #include, those
 * after whose first #define or #undef every #include (conditional or
 * not, in its own "..." headers too) is of a header it has already
 * included outside any #if, or of an X-macro header (xmacro_header()).
 * With or without the PCH, the headers read after that #define are then
 * the same ones, read in the same state: the PCH's headers, read without
 * the macro, are read without it in the file's own parse too.  This is
 * the X-macro pattern of kernel/cgroup/cgroup.c (#define SUBSYS, then
 * #include <linux/cgroup_subsys.h>).
 */
void late_safe(const char *path, const struct strvec *early, const struct strvec *flags,
		      struct strvec *safe)
{
	struct lwalk w = { early, flags, STRVEC_INIT, STRVEC_INIT, STRVEC_INIT };

	late_walk(&w, path, 0, false);
	for (size_t k = 0; k < w.active.n; k++)
		if (!sv_contains(&w.unsafe, w.active.v[k]))
			sv_push(safe, w.active.v[k]);
	sv_clear(&w.before);
	sv_clear(&w.active);
	sv_clear(&w.unsafe);
}

struct hcount {
	const char *h;
	size_t n;
	double pos;
};

static int by_pos(const void *a, const void *b)
{
	const struct hcount *x = a, *y = b;
	double px = x->pos / (double)x->n, py = y->pos / (double)y->n;

	if (px != py)
		return px < py ? -1 : 1;
	return strcmp(x->h, y->h);
}

/*
 * The headers of group G: those PCH_SHARE % of its files include, and at
 * least two (in a small group, a header of one file is not shared).
 */
void choose_headers(struct group *g, int gi, const struct finfo *fi, const int *fg, size_t n,
			   const struct strvec *common)
{
	struct hcount *hc = NULL;
	size_t nh = 0;

	for (size_t i = 0; i < n; i++) {
		if (fg[i] != gi)
			continue;
		for (size_t k = 0; k < fi[i].hdrs.n; k++) {
			size_t j;

			for (j = 0; j < nh && strcmp(hc[j].h, fi[i].hdrs.v[k]); j++)
				;
			if (j == nh) {
				hc = xrealloc(hc, (nh + 1) * sizeof(*hc));
				hc[nh++] = (struct hcount){ fi[i].hdrs.v[k], 0, 0 };
			}
			hc[j].n++;
			hc[j].pos += (double)k / (double)fi[i].hdrs.n;
		}
	}
	if (nh)
		qsort(hc, nh, sizeof(*hc), by_pos);
	for (size_t j = 0; j < nh; j++)
		if (hc[j].n >= 2 && hc[j].n * 100 >= PCH_SHARE * g->nfiles && guarded_header(common, hc[j].h))
			sv_push(&g->hdrs, hc[j].h);
	free(hc);
}

