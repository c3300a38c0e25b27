// SPDX-License-Identifier: GPL-2.0
/*
 * pch.c - precompiled kernel headers shared by the files of one scan
 * (pch.h says why and when a file may use one).
 *
 * Plan: each file to parse is read for its unconditional #include <...>
 * lines (and those of its own "..." headers); files are grouped by the -D
 * flags of their Makefiles (most have none: one group holds nearly all).
 * A group's PCH holds the forced headers of the kernel's flags
 * (kconfig.h, compiler_types.h, ...) and every header that at least
 * PCH_SHARE percent of its files include, in the order the files include
 * them.  The PCHs are built in parallel worker processes, like the parses.
 * (Groups by directory, one PCH each, were tried: 11 PCHs on 6.12 cost
 * more to build than their closer fit saved; one big PCH is ~20% faster.)
 */
#define _GNU_SOURCE
#include "pch.h"
#include "extract.h"

#include <clang-c/Index.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define PCH_MIN_FILES 16	/* fewer files to parse than this: no PCH for them */
#define PCH_SHARE 3		/* % of a group's files that must include a header */

struct finfo {
	struct strvec hdrs;	/* #include <...> outside any #if, in order */
	struct strvec early;	/* macros #defined or #undef'd before the last #include */
};

/*
 * The words of the headers of a group's PCH, to tell whether a macro is
 * mentioned there: the maximal runs of [A-Za-z0-9_] outside comments,
 * literals and the parameters of function-like macros (code_only()) that
 * are among the names a file may ask about (struct pch's asked), sorted,
 * and those of them given a default somewhere ("#ifndef NAME" then
 * "#define NAME").
 */
struct words {
	char **w;
	size_t n;
	char **dflt;
	size_t nd;
};

struct group {
	struct strvec defs;	/* the -D flags of its files (their Makefile's) */
	size_t nfiles;
	struct strvec hdrs;	/* the headers precompiled, in order */
	struct strvec deps;	/* every file the PCH read */
	char *pch;		/* NULL: not built */
	struct words words;	/* the deps' words, read when a macro must be looked up */
	bool words_read;
};

struct pch {
	char *dir;
	pid_t owner;
	struct group *g;
	size_t ng;
	int *use;		/* per file: its group, or -1 */
	struct strvec asked;	/* sorted: every macro a file defines early or has a -D of */
	char **why;		/* per file without a PCH: why */
	size_t n;
};

static struct pch *cleanup_at_exit;

static void remove_at_exit(void)
{
	if (cleanup_at_exit && cleanup_at_exit->owner == getpid())
		rm_rf(cleanup_at_exit->dir);
}

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

static bool is_word_char(char c)
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
static void read_source(const char *path, struct finfo *fi, int level, struct strvec *seen)
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
static bool header_found(const struct strvec *flags, const char *h)
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
static void late_safe(const char *path, const struct strvec *early, const struct strvec *flags,
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
static void choose_headers(struct group *g, int gi, const struct finfo *fi, const int *fg, size_t n,
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

/* Remove the PCH directories of scans that are no longer running. */
static void remove_stale(const char *top)
{
	DIR *d = opendir(top);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		char *endp;
		long pid = strtol(e->d_name, &endp, 10);

		if (*endp || pid <= 0 || (kill((pid_t)pid, 0) < 0 && errno == ESRCH)) {
			char *p;

			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			p = path_join(top, e->d_name);
			rm_rf(p);
			free(p);
		}
	}
	closedir(d);
}

static void inclusion_cb(CXFile f, CXSourceLocation *stack, unsigned len, CXClientData data)
{
	CXString n = clang_getFileName(f);

	(void)stack;
	(void)len;
	sb_addf(data, "%s\n", clang_getCString(n));
	clang_disposeString(n);
}

/* The worker that builds the PCH of group GI and lists what it read.  Never returns. */
static void build_one(const struct pch *p, size_t gi, const struct strvec *args)
{
	char *src = xasprintf("%s/g%zu.h", p->dir, gi), *out = xasprintf("%s/g%zu.pch", p->dir, gi);
	char *tmp = xasprintf("%s.tmp", out), *deps = xasprintf("%s/g%zu.deps", p->dir, gi);
	CXIndex idx = clang_createIndex(0, 0);
	CXTranslationUnit tu = NULL;
	struct strbuf sb = STRBUF_INIT;
	unsigned opts = CXTranslationUnit_Incomplete | CXTranslationUnit_ForSerialization;
	struct CXUnsavedFile uf;
	unsigned nuf = remap_unsaved(&uf);	/* the same text as every parse */

	if (clang_parseTranslationUnit2(idx, src, (const char *const *)args->v, (int)args->n, &uf, nuf, opts,
					&tu) != CXError_Success || !tu)
		_exit(2);
	for (unsigned i = 0; i < clang_getNumDiagnostics(tu); i++) {
		CXDiagnostic dg = clang_getDiagnostic(tu, i);

		if (clang_getDiagnosticSeverity(dg) >= CXDiagnostic_Error)
			_exit(3);	/* these headers do not go together: no PCH */
		clang_disposeDiagnostic(dg);
	}
	if (clang_saveTranslationUnit(tu, tmp, clang_defaultSaveOptions(tu)) != CXSaveError_None ||
	    rename(tmp, out) < 0)
		_exit(4);
	clang_getInclusions(tu, inclusion_cb, &sb);
	if (cache_write(deps, sb.buf ? sb.buf : "", sb.len) < 0)
		_exit(5);
	_exit(0);
}

/* Build the PCH of every group, JOBS at a time; a group whose build fails gets none. */
static void build_all(struct pch *p, const struct strvec *args, int jobs)
{
	pid_t *pids = xcalloc(p->ng, sizeof(pid_t));
	size_t next = 0, running = 0;

	while (next < p->ng || running) {
		if (next < p->ng && running < (size_t)jobs) {
			fflush(stdout);
			fflush(stderr);
			pids[next] = fork();
			if (pids[next] < 0)
				die("fork: %s", strerror(errno));
			if (pids[next] == 0) {
				struct strvec ga = STRVEC_INIT;

				for (size_t k = 0; k < args->n; k++)
					sv_push(&ga, args->v[k]);
				for (size_t k = 0; k < p->g[next].defs.n; k++)
					sv_push(&ga, p->g[next].defs.v[k]);
				build_one(p, next, &ga);
			}
			next++;
			running++;
			continue;
		}
		int status;
		pid_t pid = waitpid(-1, &status, 0);

		if (pid < 0) {
			if (errno == EINTR)
				continue;
			die("waitpid: %s", strerror(errno));
		}
		for (size_t gi = 0; gi < p->ng; gi++) {
			if (pids[gi] != pid)
				continue;
			running--;
			if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
				char *dp = xasprintf("%s/g%zu.deps", p->dir, gi), *buf;

				if (read_file(dp, &buf, NULL) == 0) {
					for (char *s = NULL, *l = strtok_r(buf, "\n", &s); l; l = strtok_r(NULL, "\n", &s))
						if (strncmp(l, p->dir, strlen(p->dir)))
							sv_push(&p->g[gi].deps, l);
					free(buf);
					p->g[gi].pch = xasprintf("%s/g%zu.pch", p->dir, gi);
				}
				free(dp);
			}
		}
	}
	free(pids);
}

static int by_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sort V[0..*N) and drop the repeats. */
static void sort_unique(char **v, size_t *n)
{
	size_t k = 0;

	if (!*n)
		return;
	qsort(v, *n, sizeof(*v), by_str);
	for (size_t i = 1; i < *n; i++) {
		if (strcmp(v[i], v[k]))
			v[++k] = v[i];
		else
			free(v[i]);
	}
	*n = k + 1;
}

#define MAX_PARAMS 64

/*
 * Blank, in TEXT (comments already blanked), the parameters of every
 * function-like #define where they stand for themselves: in its parameter
 * list and its body (to the end of the line and its backslash
 * continuations).  A parameter is never looked up as a macro there, so
 * "#define KMEM_CACHE_USERCOPY(__struct, __flags, __field)" does not
 * mention a macro __field.  A body continued by a comment that spans lines
 * keeps its later lines' words: more words, never fewer, than the truth.
 */
static void blank_macro_params(char *text)
{
	for (char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		char *s = l, *end;
		struct { char *w; size_t n; } prm[MAX_PARAMS];
		size_t np = 0;

		while (*s == ' ' || *s == '\t')
			s++;
		if (*s++ != '#')
			continue;
		while (*s == ' ' || *s == '\t')
			s++;
		if (strncmp(s, "define", 6) || (s[6] != ' ' && s[6] != '\t'))
			continue;
		s += 6;
		while (*s == ' ' || *s == '\t')
			s++;
		while (is_word_char(*s))
			s++;
		if (*s != '(')	/* object-like: no parameters */
			continue;
		/* the logical line: up to a newline not preceded by a backslash */
		for (end = s; *end && !(*end == '\n' && end[-1] != '\\'); end++)
			;
		for (s++; s < end && *s != ')' && np < MAX_PARAMS; ) {
			if (is_word_char(*s)) {
				prm[np].w = s;
				while (is_word_char(*s))
					s++;
				prm[np].n = (size_t)(s - prm[np].w);
				np++;
			} else {
				s++;
			}
		}
		if (np == MAX_PARAMS)
			continue;	/* (no macro has that many: leave it whole) */
		for (size_t k = 0; k < np; k++)	/* the names, apart from the text they blank */
			prm[k].w = xstrndup(prm[k].w, prm[k].n);
		for (char *w = strchr(l, '('); w < end; ) {
			size_t n = 0;

			if (!is_word_char(*w)) {
				w++;
				continue;
			}
			while (is_word_char(w[n]))
				n++;
			for (size_t k = 0; k < np; k++)
				if (prm[k].n == n && !memcmp(prm[k].w, w, n)) {
					memset(w, ' ', n);
					break;
				}
			w += n;
		}
		for (size_t k = 0; k < np; k++)
			free(prm[k].w);
		l = end - 1;	/* (the loop goes on after the logical line) */
	}
}

/*
 * TEXT with its comments and the insides of its string and character
 * literals blanked (newlines kept): no macro is ever expanded there, and a
 * word a header only says in prose ("the LSB of addr") must not keep a
 * file that #defines LSB from the PCH.  A literal ends at its line's end
 * at the latest (an apostrophe in #error prose blanks the rest of that
 * line only); a "//" or "/ *" inside a literal starts nothing.
 */
static char *code_only(const char *text)
{
	char *out = xstrdup(text), *o = out;
	const char *s = text;

	while (*s) {
		if (s[0] == '/' && s[1] == '*') {
			const char *e = strstr(s + 2, "*/");

			e = e ? e + 2 : s + strlen(s);
			for (; s < e; s++, o++)
				*o = *s == '\n' ? '\n' : ' ';
		} else if (s[0] == '/' && s[1] == '/') {
			while (*s && *s != '\n')
				*o++ = ' ', s++;
		} else if (*s == '"' || *s == '\'') {
			char q = *s;

			*o++ = *s++;
			while (*s && *s != q && *s != '\n') {
				if (*s == '\\' && s[1] && s[1] != '\n')
					*o++ = ' ', s++;
				*o++ = ' ', s++;
			}
			if (*s == q)
				*o++ = *s++;
		} else {
			*o++ = *s++;
		}
	}
	blank_macro_params(out);
	return out;
}

static bool in_sorted(char *const *v, size_t n, const char *s)
{
	return n && bsearch(&s, v, n, sizeof(*v), by_str) != NULL;
}

static void words_of(const char *raw, const struct strvec *asked, struct words *ws)
{
	size_t alloc = 0, dalloc = 0;
	static const char ifndef[] = "#ifndef ", define[] = "\n#define ";
	char *text = code_only(raw);

	/* (TEXT is ours: each word is cut out in place for the lookup) */
	for (char *s = text; *s; ) {
		size_t k = 0;
		char end;

		while (*s && !is_word_char(*s))
			s++;
		while (is_word_char(s[k]))
			k++;
		if (!k)
			break;
		end = s[k];
		s[k] = '\0';
		if (in_sorted(asked->v, asked->n, s)) {
			if (ws->n == alloc) {
				alloc = alloc * 2 + 64;
				ws->w = xrealloc(ws->w, alloc * sizeof(*ws->w));
			}
			ws->w[ws->n++] = xstrdup(s);
		}
		s[k] = end;
		s += k;
	}
	sort_unique(ws->w, &ws->n);
	for (const char *s = strstr(text, ifndef); s; s = strstr(s + 1, ifndef)) {
		const char *name = s + sizeof(ifndef) - 1;
		size_t k = 0;

		while (is_word_char(name[k]))
			k++;
		if (!k || strncmp(name + k, define, sizeof(define) - 1) ||
		    strncmp(name + k + sizeof(define) - 1, name, k))
			continue;
		if (ws->nd == dalloc) {
			dalloc = dalloc * 2 + 64;
			ws->dflt = xrealloc(ws->dflt, dalloc * sizeof(*ws->dflt));
		}
		ws->dflt[ws->nd++] = xstrndup(name, k);
	}
	sort_unique(ws->dflt, &ws->nd);
	free(text);
}

static void words_free(struct words *ws)
{
	for (size_t i = 0; i < ws->n; i++)
		free(ws->w[i]);
	for (size_t i = 0; i < ws->nd; i++)
		free(ws->dflt[i]);
	free(ws->w);
	free(ws->dflt);
	memset(ws, 0, sizeof(*ws));
}

/* The words of group G's headers (read once). */
static const struct words *group_words(const struct pch *p, struct group *g)
{
	struct strbuf sb = STRBUF_INIT;

	if (g->words_read)
		return &g->words;
	for (size_t i = 0; i < g->deps.n; i++) {
		char *buf;
		size_t len;

		if (read_file(g->deps.v[i], &buf, &len) < 0)
			continue;
		sb_add(&sb, buf, len);
		sb_addc(&sb, '\n');
		free(buf);
	}
	words_of(sb.buf ? sb.buf : "", &p->asked, &g->words);
	sb_release(&sb);
	g->words_read = true;
	return &g->words;
}

/* Do group G's headers mention macro NAME, other than to give it a default? */
static bool mentioned(const struct pch *p, struct group *g, const char *name)
{
	const struct words *ws = group_words(p, g);

	return !in_sorted(ws->dflt, ws->nd, name) && in_sorted(ws->w, ws->n, name);
}

/* Is "-DNAME" or "-DNAME=..." flag D about macro NAME of flag E too? */
static bool same_macro(const char *d, const char *e)
{
	size_t n = strcspn(d + 2, "="), m = strcspn(e + 2, "=");

	return n == m && !strncmp(d + 2, e + 2, n);
}

/*
 * A group whose PCH a file with the -D flags DEFS ("\n-DA\n-DB=1") may
 * use: the group's own -D flags are all among DEFS, and the headers of its
 * PCH mention none of the others, so they read the same with or without
 * them (clang adds a command-line macro a PCH does not have to the
 * predefines).  The largest such group, or -1.
 */
static int host_group(struct pch *p, const char *defs)
{
	struct strvec fd = STRVEC_INIT;
	int best = -1;

	for (const char *s = defs; *s; ) {
		size_t k;

		s += *s == '\n';
		k = strcspn(s, "\n");
		if (k)
			sv_pushf(&fd, "%.*s", (int)k, s);
		s += k;
	}
	for (size_t gi = 0; gi < p->ng; gi++) {
		struct group *g = &p->g[gi];
		bool ok = g->pch != NULL;

		for (size_t k = 0; k < g->defs.n && ok; k++)
			ok = sv_contains(&fd, g->defs.v[k]);
		for (size_t k = 0; k < fd.n && ok; k++) {
			bool own = false;

			for (size_t j = 0; j < g->defs.n && !own; j++)
				own = same_macro(fd.v[k], g->defs.v[j]);
			if (!own) {
				char *name = xstrndup(fd.v[k] + 2, strcspn(fd.v[k] + 2, "="));

				ok = !mentioned(p, g, name);
				free(name);
			} else {
				ok = sv_contains(&g->defs, fd.v[k]);
			}
		}
		if (ok && (best < 0 || g->nfiles > p->g[best].nfiles))
			best = (int)gi;
	}
	sv_clear(&fd);
	return best;
}

struct pch *pch_build(const struct tree *t, const struct flags *fl, char *const *files,
		      const struct strvec *const *args, const bool *want, size_t n, int jobs, bool quiet)
{
	struct pch *p;
	struct finfo *fi;
	char **defs;
	int *fg;
	size_t nwant = 0, nuse = 0;
	json_t *count = json_object(), *index = json_object();
	struct strvec forced = STRVEC_INIT, hargs = STRVEC_INIT;
	char *top = path_join(cache_root(), "pch");
	double t0 = now_seconds();

	/* an interrupted scan leaves its PCHs: whatever runs next removes them */
	remove_stale(top);
	if (fl->kind == FLAGS_CCDB) {
		free(top);
		json_decref(count);
		json_decref(index);
		return NULL;
	}
	for (size_t i = 0; i < fl->common.n; i++) {
		if (!strcmp(fl->common.v[i], "-include") && i + 1 < fl->common.n)
			sv_push(&forced, fl->common.v[++i]);
		else
			sv_push(&hargs, fl->common.v[i]);
	}
	sv_push(&hargs, "-xc-header");
	for (size_t i = 0; i < n; i++)
		nwant += want[i];
	if (nwant < PCH_MIN_FILES) {
		free(top);
		json_decref(count);
		json_decref(index);
		sv_clear(&forced);
		sv_clear(&hargs);
		return NULL;
	}

	/*
	 * Group the files to parse by their own -D flags (their Makefile's),
	 * with which their PCH is built.
	 */
	fi = xcalloc(n, sizeof(*fi));
	fg = xcalloc(n, sizeof(*fg));
	defs = xcalloc(n, sizeof(*defs));
	for (size_t i = 0; i < n; i++) {
		struct strbuf sb = STRBUF_INIT;

		if (!want[i])
			continue;
		for (size_t k = fl->common.n; k < args[i]->n; k++)
			if (!strncmp(args[i]->v[k], "-D", 2))
				sb_addf(&sb, "\n%s", args[i]->v[k]);
		defs[i] = sb.buf ? sb_detach(&sb) : xstrdup("");
	}
	for (size_t i = 0; i < n; i++)
		if (want[i])
			json_object_set_new(count, defs[i],
					    json_integer(json_integer_value(json_object_get(count, defs[i])) + 1));
	for (size_t i = 0; i < n; i++) {
		json_t *gi;

		fg[i] = -1;
		if (!want[i] || json_integer_value(json_object_get(count, defs[i])) < PCH_MIN_FILES)
			continue;
		gi = json_object_get(index, defs[i]);
		if (!gi) {
			gi = json_integer(json_object_size(index));
			json_object_set_new(index, defs[i], gi);
		}
		fg[i] = (int)json_integer_value(gi);
	}
	p = xcalloc(1, sizeof(*p));
	p->n = n;
	p->ng = json_object_size(index);
	p->g = xcalloc(p->ng ? p->ng : 1, sizeof(*p->g));
	p->use = fg;
	p->owner = getpid();
	{
		const char *k;
		json_t *v;

		json_object_foreach(index, k, v) {
			struct group *g = &p->g[json_integer_value(v)];
			const char *nl = strchr(k, '\n');

			for (; nl; nl = strchr(nl + 1, '\n')) {
				const char *e = strchr(nl + 1, '\n');

				sv_push(&g->defs, "");
				free(g->defs.v[g->defs.n - 1]);
				g->defs.v[g->defs.n - 1] = xstrndup(nl + 1, e ? (size_t)(e - nl - 1) : strlen(nl + 1));
			}
		}
	}
	for (size_t i = 0; i < n; i++) {
		if (!want[i])
			continue;
		char *abs = path_join(t->root, files[i]);

		{
			struct strvec seen = STRVEC_INIT;

			read_source(abs, &fi[i], 0, &seen);
			sv_clear(&seen);
		}
		free(abs);
		if (fg[i] >= 0)
			p->g[fg[i]].nfiles++;
	}
	p->dir = xasprintf("%s/%d", top, (int)getpid());
	free(top);
	if (mkdir_p(p->dir) < 0) {
		warning("cannot create '%s' (%s): parsing without precompiled headers", p->dir, strerror(errno));
		for (size_t i = 0; i < n; i++)
			fg[i] = -1;
	} else {
		cleanup_at_exit = p;
		atexit(remove_at_exit);
	}
	for (size_t gi = 0; gi < p->ng && cleanup_at_exit == p; gi++) {
		struct strbuf sb = STRBUF_INIT;
		char *src = xasprintf("%s/g%zu.h", p->dir, gi);

		choose_headers(&p->g[gi], (int)gi, fi, fg, n, &fl->common);
		sb_addf(&sb, "/* polltax: the headers %d%% of the files with these -D flags include */\n",
			PCH_SHARE);
		for (size_t k = 0; k < forced.n; k++)
			sb_addf(&sb, "#include \"%s\"\n", forced.v[k]);
		for (size_t k = 0; k < p->g[gi].hdrs.n; k++)
			sb_addf(&sb, "#include <%s>\n", p->g[gi].hdrs.v[k]);
		/* unwritten (cache_write() warned), the group's build fails: its files parse without a PCH */
		cache_write(src, sb.buf, sb.len);
		sb_release(&sb);
		free(src);
	}
	if (cleanup_at_exit == p) {
		if (!quiet && isatty(2))
			status_line("polltax: precompiling the headers %zu groups of files share...", p->ng);
		build_all(p, &hargs, jobs > 0 ? jobs : 1);
	}

	/*
	 * the macros a header may be asked about: those the files define
	 * early, and those of their -D flags (only these words of the headers
	 * are kept: the headers hold ~10 MB of them)
	 */
	for (size_t i = 0; i < n; i++) {
		if (!want[i])
			continue;
		for (size_t k = 0; k < fi[i].early.n; k++)
			sv_push(&p->asked, fi[i].early.v[k]);
		for (const char *d = strstr(defs[i], "\n-D"); d; d = strstr(d + 1, "\n-D"))
			sv_pushf(&p->asked, "%.*s", (int)strcspn(d + 3, "=\n"), d + 3);
	}
	sort_unique(p->asked.v, &p->asked.n);

	/* a file of a group too small for a PCH may use another group's */
	p->why = xcalloc(n, sizeof(*p->why));
	for (size_t i = 0; i < n; i++) {
		if (!want[i] || fg[i] >= 0)
			continue;
		if (cleanup_at_exit == p)
			fg[i] = host_group(p, defs[i]);
		if (fg[i] < 0) {
			p->why[i] = xasprintf("-D flags of fewer than %d files:%s", PCH_MIN_FILES, defs[i]);
			for (char *c = p->why[i]; *c; c++)
				*c = *c == '\n' ? ' ' : *c;
		}
	}

	/* which files may use their group's PCH */
	for (size_t i = 0; i < n; i++) {
		struct group *g;
		bool ok = true, safe_done = false;
		struct strvec safe = STRVEC_INIT;

		if (fg[i] < 0)
			continue;
		g = &p->g[fg[i]];
		if (!g->pch) {
			fg[i] = -1;
			p->why[i] = xstrdup("its group's PCH was not built");
			continue;
		}
		for (size_t k = 0; k < fi[i].early.n && ok; k++) {
			if (!mentioned(p, g, fi[i].early.v[k]))
				continue;
			if (!safe_done) {
				char *abs = path_join(t->root, files[i]);

				late_safe(abs, &fi[i].early, args[i], &safe);
				safe_done = true;
				free(abs);
			}
			if (!sv_contains(&safe, fi[i].early.v[k])) {
				p->why[i] = xasprintf("#defines %s before an #include", fi[i].early.v[k]);
				ok = false;
			}
		}
		sv_clear(&safe);
		/*
		 * an #include that cannot be found (another architecture's
		 * header) is an error with the PCH, and the parse would be
		 * done again without it: go without it at once
		 */
		for (size_t k = 0; k < fi[i].hdrs.n && ok; k++)
			if (!header_found(args[i], fi[i].hdrs.v[k])) {
				p->why[i] = xasprintf("<%s> not found", fi[i].hdrs.v[k]);
				ok = false;
			}
		if (!ok)
			fg[i] = -1;
		nuse += ok;
	}
	if (!quiet) {
		size_t built = 0;

		for (size_t gi = 0; gi < p->ng; gi++)
			built += p->g[gi].pch != NULL;
		fprintf(stderr, "%spolltax: %zu precompiled header%s for %zu of %zu files to parse (%.1f s)\n",
			isatty(2) ? "\r\033[K" : "", built, built == 1 ? "" : "s",
			nuse, nwant, now_seconds() - t0);
	}
	for (size_t i = 0; i < n; i++) {
		sv_clear(&fi[i].hdrs);
		sv_clear(&fi[i].early);
		free(defs[i]);
	}
	free(defs);
	free(fi);
	json_decref(count);
	json_decref(index);
	sv_clear(&forced);
	sv_clear(&hargs);
	return p;
}

bool pch_args(const struct pch *p, size_t i, const struct strvec *plain, struct strvec *out)
{
	bool put = false;

	if (!p || i >= p->n || p->use[i] < 0)
		return false;
	if (!sv_contains(plain, "-include")) {
		sv_push(out, "-include-pch");
		sv_push(out, p->g[p->use[i]].pch);
		put = true;
	}
	for (size_t k = 0; k < plain->n; k++) {
		if (!strcmp(plain->v[k], "-include") && k + 1 < plain->n) {
			k++;
			if (!put) {
				sv_push(out, "-include-pch");
				sv_push(out, p->g[p->use[i]].pch);
				put = true;
			}
			continue;
		}
		sv_push(out, plain->v[k]);
	}
	return true;
}

const char *pch_why(const struct pch *p, size_t i)
{
	return p && i < p->n && p->why ? p->why[i] : NULL;
}

const struct strvec *pch_headers(const struct pch *p, size_t i)
{
	return p && i < p->n && p->use[i] >= 0 ? &p->g[p->use[i]].deps : NULL;
}

const char *pch_dir(const struct pch *p)
{
	return p ? p->dir : NULL;
}

void pch_free(struct pch *p)
{
	if (!p)
		return;
	if (p->dir && p->owner == getpid())
		rm_rf(p->dir);
	if (cleanup_at_exit == p)
		cleanup_at_exit = NULL;
	for (size_t gi = 0; gi < p->ng; gi++) {
		free(p->g[gi].pch);
		words_free(&p->g[gi].words);
		sv_clear(&p->g[gi].hdrs);
		sv_clear(&p->g[gi].defs);
		sv_clear(&p->g[gi].deps);
	}
	free(p->g);
	for (size_t i = 0; p->why && i < p->n; i++)
		free(p->why[i]);
	free(p->why);
	free(p->use);
	sv_clear(&p->asked);
	free(p->dir);
	free(p);
}
