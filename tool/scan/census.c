// SPDX-License-Identifier: GPL-2.0
/*
 * census.c - nothing vanishes (TAXONOMY.md, census.h).
 *
 * The classifier sees what libclang parsed: a file that did not parse, an
 * initializer clang dropped (a member the tree's struct lacks: code for
 * another kernel version), a file the configuration does not build, code
 * an #if compiles out, leave no fact, and their polls would vanish
 * without a word.  So the text of every candidate file is read again
 * (comments and strings blanked, preprocessor lines left out) for the
 * members that can hold a poll: ".M = value" and "x->M = value" where M is
 * poll, proc_poll, poll_mask or the member of a layer the classifier
 * discovered (never a driver's name), and the value a function name.
 *
 * Each member is looked up in the facts of its file (the ops record or the
 * run-time assignment libclang recorded for it, which also names the
 * function a macro value stands for) and then among the implementations.
 * One that is not there is added to them: unknown with the reason (the
 * file's first parse error, the error inside the dropped initializer, "not
 * compiled by this configuration", the #if it is under), or not-poll when
 * its initializer's struct is one the classifier found is not file
 * polling.  A member of a file that parsed, that libclang compiled and
 * recorded nothing for, is not a function (a variable or a parameter: the
 * napi_struct's "poll = poll"): it is counted apart and not listed.  In a
 * file with no facts the text alone decides, and a value the text declares
 * as an object is left out the same way.
 *
 * And an implementation that the classifier classified from a file that
 * did not parse (libclang reported errors, or yielded no function) is made
 * unknown with the file's reason: what a broken parse yields is partial.
 * The Coccinelle pass's verdicts on files without facts stand.
 */
#define _GNU_SOURCE
#include "census.h"
#include "lib/json_util.h"
#include "lib/strutil.h"
#include "output.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

const char *const census_kinds[] = {
	"errors", "no-function", "libclang", "not-read", "not-compiled", "compiled-out", "not-reported", NULL,
};

const char *census_kind_text(const char *kind)
{
	static const struct {
		const char *kind, *text;
	} texts[] = {
		{ "errors", "libclang reported errors" },
		{ "no-function", "libclang found no function in the file" },
		{ "libclang", "libclang crashed or timed out" },
		{ "not-read", "compiled only through an includer that does not read it" },
		{ "not-compiled", "not compiled by this configuration" },
		{ "compiled-out", "in code this configuration compiles out" },
		{ "not-reported", "in the facts, not reported by the classifier" },
	};

	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
		if (!strcmp(texts[i].kind, kind))
			return texts[i].text;
	return kind;
}

static bool ident_char(char c)
{
	return c == '_' || isalnum((unsigned char)c);
}

/* ---- the text ------------------------------------------------------------------ */

/* A file's text with comments, strings and character constants blanked, and its lines. */
struct text {
	char *t;
	size_t len;
	size_t nlines;
	size_t *bol;		/* per line (from 1): the offset it starts at */
	bool *directive;	/* per line: part of a preprocessor line */
	unsigned *cond;		/* per line: the line of the innermost #if it is under, 0 for none */
};

static bool text_read(struct text *x, const char *root, const char *rel)
{
	char *p = path_join(root, rel), *end;
	size_t len, alloc = 64;
	unsigned stack[64];
	int depth = 0;
	bool cont = false;

	memset(x, 0, sizeof(*x));
	if (read_file_max(p, &x->t, &len, 16u << 20) < 0) {
		free(p);
		return false;
	}
	free(p);
	x->len = strlen(x->t);	/* (the text ends at a NUL byte) */
	c_blank_text(x->t);
	end = x->t + x->len;
	x->bol = xcalloc(alloc, sizeof(*x->bol));
	x->directive = xcalloc(alloc, sizeof(*x->directive));
	x->cond = xcalloc(alloc, sizeof(*x->cond));
	for (const char *l = x->t; l <= end;) {
		const char *e = memchr(l, '\n', (size_t)(end - l)), *d;
		size_t n = ++x->nlines, dl;

		if (!e)
			e = end;
		if (n + 1 >= alloc) {
			alloc *= 2;
			x->bol = xrealloc(x->bol, alloc * sizeof(*x->bol));
			x->directive = xrealloc(x->directive, alloc * sizeof(*x->directive));
			x->cond = xrealloc(x->cond, alloc * sizeof(*x->cond));
		}
		x->bol[n] = (size_t)(l - x->t);
		x->cond[n] = depth > 0 && depth <= 64 ? stack[depth - 1] : depth > 64 ? stack[63] : 0;
		d = cont ? NULL : directive(l, e, &dl);
		x->directive[n] = cont || d;
		if (d && (is_dir_word(d, dl, "if") || is_dir_word(d, dl, "ifdef") || is_dir_word(d, dl, "ifndef"))) {
			if (depth < 64)
				stack[depth] = (unsigned)n;
			depth++;
		} else if (d && is_dir_word(d, dl, "endif") && depth > 0) {
			depth--;
		}
		{
			const char *t = e;

			while (t > l && (t[-1] == ' ' || t[-1] == '\t' || t[-1] == '\r'))
				t--;
			cont = x->directive[n] && t > l && t[-1] == '\\';
		}
		if (e == end)
			break;
		l = e + 1;
	}
	return true;
}

static void text_free(struct text *x)
{
	free(x->t);
	free(x->bol);
	free(x->directive);
	free(x->cond);
}

static unsigned line_at(const struct text *x, size_t off)
{
	size_t lo = 1, hi = x->nlines;

	while (lo < hi) {
		size_t mid = (lo + hi + 1) / 2;

		if (x->bol[mid] <= off)
			lo = mid;
		else
			hi = mid - 1;
	}
	return (unsigned)lo;
}

/* The last character before OFF that is not white space, or 0. */
static char prev_char(const struct text *x, size_t off, size_t *at)
{
	while (off > 0) {
		off--;
		if (!isspace((unsigned char)x->t[off])) {
			if (at)
				*at = off;
			return x->t[off];
		}
	}
	return 0;
}

/* The '{' that opens the braces around OFF, or (size_t)-1. */
static size_t open_brace(const struct text *x, size_t off)
{
	int depth = 0;

	while (off > 0) {
		char c = x->t[--off];

		if (c == '}')
			depth++;
		else if (c == '{' && depth-- == 0)
			return off;
	}
	return (size_t)-1;
}

/* The '}' that closes the '{' at OPEN, or the end of the text. */
static size_t close_brace(const struct text *x, size_t open)
{
	int depth = 0;

	for (size_t i = open; i < x->len; i++) {
		if (x->t[i] == '{')
			depth++;
		else if (x->t[i] == '}' && --depth == 0)
			return i;
	}
	return x->len;
}

/* The last "struct NAME" of T[from..to), allocated, or NULL. */
static char *struct_in(const struct text *x, size_t from, size_t to)
{
	char *r = NULL;

	for (size_t i = from; i + 6 < to; i++) {
		size_t e;

		if (memcmp(x->t + i, "struct", 6) || (i && ident_char(x->t[i - 1])) || ident_char(x->t[i + 6]))
			continue;
		for (i += 6; i < to && isspace((unsigned char)x->t[i]); i++)
			;
		for (e = i; e < to && ident_char(x->t[e]); e++)
			;
		if (e > i) {
			free(r);
			r = xstrndup(x->t + i, e - i);
		}
	}
	return r;
}

/*
 * The designated initializer around the member at OFF: the struct its
 * declaration names (allocated, NULL when the text does not say) and the
 * lines of its braces.
 */
static char *initializer_of(const struct text *x, size_t off, unsigned *first, unsigned *last)
{
	size_t open = off;

	*first = *last = 0;
	for (int level = 0; level < 8; level++) {
		size_t at = 0, from;
		char c;

		open = open_brace(x, open);
		if (open == (size_t)-1)
			return NULL;
		if (!level) {
			*first = line_at(x, open);
			*last = line_at(x, close_brace(x, open));
		}
		c = prev_char(x, open, &at);
		if (c == ',' || c == '{')
			continue;	/* an element of an array of them: the next braces out */
		if (c != '=')
			return NULL;	/* a compound literal, a function body: not said here */
		/* "static const struct file_operations foo_fops =", or a member's ".ops =" */
		for (from = at; from > 0 && !strchr(";{}", x->t[from - 1]); from--)
			;
		if (memchr(x->t + from, '.', at - from))
			return NULL;
		return struct_in(x, from, at);
	}
	return NULL;
}

/* Does the text declare NAME as an object (a variable, a parameter), not a function? */
static bool declared_object(const struct text *x, const char *name)
{
	size_t l = strlen(name);

	for (const char *q = memmem(x->t, x->len, name, l); q;
	     q = memmem(q + 1, x->len - (size_t)(q + 1 - x->t), name, l)) {
		size_t off = (size_t)(q - x->t), e = off + l, pat = 0;
		char before, after;

		if ((off && ident_char(q[-1])) || ident_char(q[l]))
			continue;
		while (e < x->len && isspace((unsigned char)x->t[e]))
			e++;
		after = e < x->len ? x->t[e] : ';';
		before = prev_char(x, off, &pat);
		if (!strchr(";,=)[", after))
			continue;
		if (before == '*' || (ident_char(before) && !(pat >= 5 && !memcmp(x->t + pat - 5, "return", 6))))
			return true;
	}
	return false;
}

/* Does the text name NAME as a function (a call, a prototype, a definition)? */
static bool named_function(const struct text *x, const char *name)
{
	size_t l = strlen(name);

	for (const char *q = memmem(x->t, x->len, name, l); q;
	     q = memmem(q + 1, x->len - (size_t)(q + 1 - x->t), name, l)) {
		size_t off = (size_t)(q - x->t), e = off + l;
		char before;

		if ((off && ident_char(q[-1])) || ident_char(q[l]))
			continue;
		while (e < x->len && isspace((unsigned char)x->t[e]))
			e++;
		before = prev_char(x, off, NULL);
		if (e < x->len && x->t[e] == '(' && before != '.' && before != '>')
			return true;
	}
	return false;
}

/* ---- the members --------------------------------------------------------------- */

struct member {
	unsigned line;
	char *member, *value;
	char *type;		/* its initializer's struct, when the text says */
	unsigned init_first, init_last;	/* its initializer's lines (0: an assignment) */
};

struct members {
	struct member *v;
	size_t n, alloc;
};

static const char *const not_functions[] = { "NULL", "true", "false", "nullptr", NULL };

/* The members of MEMBERS given a value in the text X, into OUT. */
static void find_members(const struct text *x, const struct strvec *names, struct members *out)
{
	for (size_t i = 0; i + 1 < x->len; i++) {
		size_t p, s, e, v;
		char *m, *val;
		bool designator = false;
		unsigned line;

		if (x->t[i] == '.' && (i + 1 < x->len) && x->t[i + 1] != '.') {
			p = i + 1;
			designator = strchr("{,", prev_char(x, i, NULL) ?: ';') != NULL;
		} else if (x->t[i] == '-' && x->t[i + 1] == '>') {
			p = i + 2;
		} else {
			continue;
		}
		for (s = p; s < x->len && isspace((unsigned char)x->t[s]); s++)
			;
		for (e = s; e < x->len && ident_char(x->t[e]); e++)
			;
		if (e == s)
			continue;
		m = xstrndup(x->t + s, e - s);
		if (!sv_contains(names, m)) {
			free(m);
			continue;
		}
		for (; e < x->len && isspace((unsigned char)x->t[e]); e++)
			;
		if (e + 1 >= x->len || x->t[e] != '=' || x->t[e + 1] == '=') {
			free(m);
			continue;
		}
		for (v = e + 1; v < x->len && (isspace((unsigned char)x->t[v]) || x->t[v] == '&'); v++)
			;
		for (e = v; e < x->len && ident_char(x->t[e]); e++)
			;
		line = line_at(x, i);
		if (e == v || isdigit((unsigned char)x->t[v]) || x->directive[line]) {
			free(m);
			continue;
		}
		val = xstrndup(x->t + v, e - v);
		for (; e < x->len && isspace((unsigned char)x->t[e]); e++)
			;
		{
			bool ok = e >= x->len || strchr(",;}", x->t[e]);

			for (int k = 0; not_functions[k] && ok; k++)
				ok = strcmp(val, not_functions[k]) != 0;
			if (!ok) {
				free(m);
				free(val);
				continue;
			}
		}
		if (out->n == out->alloc) {
			out->alloc = out->alloc * 2 + 16;
			out->v = xrealloc(out->v, out->alloc * sizeof(*out->v));
		}
		memset(&out->v[out->n], 0, sizeof(out->v[0]));
		out->v[out->n].line = line;
		out->v[out->n].member = m;
		out->v[out->n].value = val;
		if (designator)
			out->v[out->n].type = initializer_of(x, i, &out->v[out->n].init_first, &out->v[out->n].init_last);
		out->n++;
		i = e > i ? e - 1 : i;
	}
}

static void members_free(struct members *ms)
{
	for (size_t i = 0; i < ms->n; i++) {
		free(ms->v[i].member);
		free(ms->v[i].value);
		free(ms->v[i].type);
	}
	free(ms->v);
}

/*
 * What libclang recorded for member M in FACTS: the function (borrowed)
 * of the run-time assignment on its line, or of the ops record that gives
 * that member a value (the one for VALUE, else the nearest above), and its
 * struct in *TYPE; NULL when nothing.
 */
static const char *recorded(json_t *facts, const struct member *m, const char **type)
{
	json_t *o, *best = NULL, *mv;
	json_int_t best_line = -1;
	size_t i;

	json_array_foreach(json_object_get(facts, "assigns"), i, o) {
		if (strcmp(jstr(o, "member"), m->member))
			continue;
		if (json_integer_value(json_object_get(o, "line")) == (json_int_t)m->line ||
		    !strcmp(jstr(o, "function"), m->value)) {
			*type = jstr(o, "type");
			return jstr(o, "function");
		}
	}
	json_array_foreach(json_object_get(facts, "ops"), i, o) {
		json_int_t l = json_integer_value(json_object_get(o, "line"));

		mv = json_object_get(json_object_get(o, "members"), m->member);
		if (!mv)
			continue;
		if (!strcmp(jstr(mv, "function"), m->value)) {
			best = o;
			break;
		}
		if (l <= (json_int_t)m->line && l > best_line) {
			best = o;
			best_line = l;
		}
	}
	if (!best)
		return NULL;
	*type = jstr(best, "type");
	return jstr(json_object_get(json_object_get(best, "members"), m->member), "function");
}

/* ---- the cross-check ------------------------------------------------------------- */

struct ctx {
	json_t *impls;		/* result "implementations" */
	json_t *by_fn;		/* function -> [implementations] */
	json_t *facts;		/* file -> its facts */
	json_t *failed;		/* file -> its files.failed entry */
	json_t *notcomp;	/* file -> true */
	json_t *not_poll;	/* layer -> true: a struct that is not file polling */
};

/* Is FN of file F among the implementations (defined in F, or named by an ops of F)? */
static bool in_output(struct ctx *c, const char *fn, const char *f)
{
	json_t *x, *o;
	size_t i, j;

	json_array_foreach(json_object_get(c->by_fn, fn), i, x) {
		if (!strcmp(jstr(x, "file"), f))
			return true;
		json_array_foreach(json_object_get(x, "ops"), j, o)
			if (!strcmp(jstr(o, "file"), f))
				return true;
	}
	return false;
}

static char *subsystem(const char *f)
{
	const char *s1 = strchr(f, '/'), *s2 = s1 ? strchr(s1 + 1, '/') : NULL;

	return s2 ? xstrndup(f, (size_t)(s2 - f)) : s1 ? xstrndup(f, (size_t)(s1 - f)) : xstrdup(".");
}

/* The reason why member M of file F is in no fact, and its kind; NULL: it is not a function. */
static char *why_missing(struct ctx *c, const char *f, const struct text *x, const struct member *m,
			 const char **kind)
{
	json_t *fail = json_object_get(c->failed, f), *facts = json_object_get(c->facts, f);

	if (json_object_get(c->notcomp, f)) {
		if (declared_object(x, m->value))
			return NULL;
		*kind = "not-compiled";
		return xstrdup("not compiled by this configuration, and the Coccinelle pass did not classify it");
	}
	if (fail) {
		json_t *e;
		size_t i;

		if (declared_object(x, m->value))
			return NULL;
		*kind = jstr(fail, "kind")[0] ? jstr(fail, "kind") : "libclang";
		/* an error inside its initializer: what made libclang drop it */
		json_array_foreach(json_object_get(facts, "errors"), i, e) {
			json_int_t l = json_integer_value(json_object_get(e, "line"));

			if (m->init_first && !strcmp(jstr(e, "file"), f) && l >= m->init_first && l <= m->init_last)
				return xasprintf("libclang dropped its initializer: %s:%lld: %s", f, (long long)l,
						 jstr(e, "msg"));
		}
		return xasprintf("%s did not parse: %s", f, jstr(fail, "reason"));
	}
	/* the file parsed: libclang compiled the line and saw no function, unless an #if left it out */
	if (x->cond[m->line] && named_function(x, m->value)) {
		*kind = "compiled-out";
		return xasprintf("not seen by libclang: under the #if of %s:%u, which this configuration compiles out",
				 f, x->cond[m->line]);
	}
	return NULL;
}

static json_t *added_impl(const char *f, const struct member *m, const char *fn, const char *layer,
			  bool not_poll, bool compiled, const char *reason)
{
	char *sub = subsystem(f);
	json_t *o = json_pack("{s:s, s:s, s:I, s:s, s:s, s:s, s:s, s:[], s:s, s:b, s:[], s:[], s:[], s:[], s:[],"
			      " s:[], s:b, s:s, s:n, s:[]}",
			      "function", fn, "file", f, "line", (json_int_t)m->line, "layer", layer,
			      "class", not_poll ? "not-poll" : "unknown", "convertible", not_poll ? "excluded" : "no",
			      "reason", reason, "heads", "base", "", "unconditional", 0, "busy_poll", "delegates",
			      "pt_uses", "ops", "creation_sites", "private_data_reassigned", "compiled", compiled,
			      "subsystem", sub, "cocci", "plan");

	free(sub);
	return o;
}

static int cmp_impl(const void *a, const void *b)
{
	json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
	json_int_t lx = json_integer_value(json_object_get(x, "line"));
	json_int_t ly = json_integer_value(json_object_get(y, "line"));
	int r = strcmp(jstr(x, "file"), jstr(y, "file"));

	if (r)
		return r;
	if (lx != ly)
		return lx < ly ? -1 : 1;
	r = strcmp(jstr(x, "function"), jstr(y, "function"));
	return r ? r : strcmp(jstr(x, "layer"), jstr(y, "layer"));
}

/* The implementations sorted again, and the counts made again from them. */
static void recount(json_t *result)
{
	json_t *impls = json_object_get(result, "implementations"), *counts = json_object_get(result, "counts");
	json_t *by_class = json_object(), *by_conv = json_object(), *x, *sorted = json_array();
	json_t **v = xcalloc(json_array_size(impls) + 1, sizeof(*v));
	json_int_t total = 0;
	size_t i, n = json_array_size(impls);

	json_array_foreach(impls, i, x)
		v[i] = x;
	qsort(v, n, sizeof(*v), cmp_impl);
	for (i = 0; i < n; i++) {
		const char *cls = jstr(v[i], "class"), *cv = jstr(v[i], "convertible");

		json_array_append(sorted, v[i]);
		json_object_set_new(by_class, cls, json_integer(json_integer_value(json_object_get(by_class, cls)) + 1));
		json_object_set_new(by_conv, cv, json_integer(json_integer_value(json_object_get(by_conv, cv)) + 1));
		total += strcmp(cls, "not-poll") != 0;
	}
	free(v);
	json_object_set_new(result, "implementations", sorted);
	json_object_set_new(counts, "by_class", by_class);
	json_object_set_new(counts, "by_convertible", by_conv);
	json_object_set_new(counts, "implementations", json_integer(total));
}

/* Implementations classified from a file that did not parse: unknown, with the file's reason. */
static void reclassify(struct ctx *c, json_t *out)
{
	json_t *x;
	size_t i;

	json_array_foreach(c->impls, i, x) {
		const char *cls = jstr(x, "class");
		json_t *fail = json_object_get(c->failed, jstr(x, "file"));
		char *reason;

		if (!fail || !json_is_true(json_object_get(x, "compiled")) || !strcmp(cls, "unknown") ||
		    !strcmp(cls, "not-poll") || !strcmp(cls, "converted"))
			continue;
		reason = xasprintf("%s did not parse: %s (from what parsed: %s)", jstr(x, "file"), jstr(fail, "reason"),
				   cls);
		json_array_append_new(out, json_pack("{s:s, s:s, s:O, s:s, s:s, s:s, s:s}", "function",
						     jstr(x, "function"), "file", jstr(x, "file"), "line",
						     json_object_get(x, "line"), "layer", jstr(x, "layer"), "was", cls,
						     "kind", jstr(fail, "kind"), "reason", reason));
		json_object_set_new(x, "class", json_string("unknown"));
		json_object_set_new(x, "convertible", json_string("no"));
		json_object_set_new(x, "reason", json_string(reason));
		json_object_set_new(x, "plan", json_array());
		free(reason);
	}
}

void census(json_t *result, const char *root, const struct strvec *files, json_t *tus)
{
	struct ctx c = { json_object_get(result, "implementations"), json_object(), json_object(), json_object(),
			 json_object(), json_object() };
	json_t *fs = json_object_get(result, "files"), *x, *missing = json_array(), *recl = json_array(), *added, *seen;
	struct strvec names = STRVEC_INIT;
	json_int_t nmembers = 0, nmatched = 0, nnotfn = 0;
	size_t i;

	sv_push(&names, "poll");
	sv_push(&names, "proc_poll");
	sv_push(&names, "poll_mask");
	json_array_foreach(json_object_get(result, "layers"), i, x) {
		const char *dot = strrchr(jstr(x, "layer"), '.');

		if (dot && dot[1] && !sv_contains(&names, dot + 1))
			sv_push(&names, dot + 1);
	}
	json_array_foreach(c.impls, i, x) {
		json_t *a = json_object_get(c.by_fn, jstr(x, "function"));

		if (!a) {
			a = json_array();
			json_object_set_new(c.by_fn, jstr(x, "function"), a);
		}
		json_array_append(a, x);
		if (!strcmp(jstr(x, "class"), "not-poll"))
			json_object_set_new(c.not_poll, jstr(x, "layer"), json_true());
	}
	json_array_foreach(tus, i, x)
		if (!json_object_get(c.facts, jstr(x, "file")))
			json_object_set(c.facts, jstr(x, "file"), x);
	json_array_foreach(json_object_get(fs, "failed"), i, x)
		json_object_set(c.failed, jstr(x, "file"), x);
	json_array_foreach(json_object_get(fs, "not_compiled"), i, x)
		json_object_set_new(c.notcomp, json_string_value(x) ?: "", json_true());

	added = json_array();
	seen = json_object();
	for (size_t f = 0; f < files->n; f++) {
		struct text t;
		struct members ms = { NULL, 0, 0 };
		char *rel = utf8_safe(files->v[f]);
		json_t *facts = json_object_get(c.facts, rel);

		if (!text_read(&t, root, files->v[f])) {
			free(rel);
			continue;
		}
		find_members(&t, &names, &ms);
		for (size_t k = 0; k < ms.n; k++) {
			const struct member *m = &ms.v[k];
			const char *type = NULL, *fn = facts ? recorded(facts, m, &type) : NULL;
			const char *kind = NULL;
			char *reason = NULL, *layer, *full;
			bool np;

			if (in_output(&c, fn ? fn : m->value, rel)) {
				nmembers++;
				nmatched++;
				continue;
			}
			if (fn && !json_object_get(c.failed, rel)) {
				kind = "not-reported";
				reason = xasprintf("libclang recorded it (%s.%s), the classifier did not report it",
						   type && *type ? type : "?", m->member);
			} else {
				reason = why_missing(&c, rel, &t, m, &kind);
			}
			if (!reason) {
				nnotfn++;
				continue;
			}
			nmembers++;
			layer = xasprintf("%s.%s", type && *type ? type : m->type ? m->type : "?", m->member);
			np = json_is_true(json_object_get(c.not_poll, layer));
			full = np ? xasprintf("%s is not file polling: no file poll passes its poll_table to it; %s",
					      layer, reason) : xstrdup(reason);
			{
				/* one implementation per function and layer, as the classifier's (psi.c: 4 proc_ops) */
				char *key = xasprintf("%s\t%s\t%s", rel, fn ? fn : m->value, layer);

				if (!json_object_get(seen, key))
					json_array_append_new(added, added_impl(rel, m, fn ? fn : m->value, layer, np,
										!json_object_get(c.notcomp, rel), full));
				json_object_set_new(seen, key, json_true());
				free(key);
			}
			json_array_append_new(missing, json_pack("{s:s, s:I, s:s, s:s, s:s, s:s, s:s, s:s}", "file", rel,
								 "line", (json_int_t)m->line, "member", m->member,
								 "function", fn ? fn : m->value, "layer", layer,
								 "class", np ? "not-poll" : "unknown", "kind", kind,
								 "reason", full));
			free(layer);
			free(full);
			free(reason);
		}
		members_free(&ms);
		text_free(&t);
		free(rel);
	}
	reclassify(&c, recl);
	json_array_extend(c.impls, added);
	json_decref(added);
	json_decref(seen);
	recount(result);
	json_object_set_new(result, "census", json_pack("{s:I, s:I, s:I, s:o, s:o}", "members", nmembers,
							"matched", nmatched, "not_functions", nnotfn,
							"missing", missing, "reclassified", recl));
	sv_clear(&names);
	json_decref(c.by_fn);
	json_decref(c.facts);
	json_decref(c.failed);
	json_decref(c.notcomp);
	json_decref(c.not_poll);
}
