// SPDX-License-Identifier: GPL-2.0
/*
 * pch_words.c - the words of the headers of a group's PCH (struct
 * words): is a macro a file defines early mentioned there, and may a file
 * whose group is too small use another group's PCH (host_group()).
 */
#define _GNU_SOURCE
#include "pch_int.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int by_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sort V[0..*N) and drop the repeats. */
void sort_unique(char **v, size_t *n)
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

void words_free(struct words *ws)
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
bool mentioned(const struct pch *p, struct group *g, const char *name)
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
int host_group(struct pch *p, const char *defs)
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

