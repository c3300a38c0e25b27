// SPDX-License-Identifier: GPL-2.0
/*
 * headexpr.c - head expressions as token lists (see headexpr.h).  Only
 * what a wait queue head can look like is handled well: names, member
 * access, address-of, casts, container_of(); anything else still
 * tokenizes and prints, and the convert stage refuses what it cannot
 * vouch for (hx_only_pure_calls(), hx_loads()).
 */
#define _GNU_SOURCE
#include "headexpr.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static bool is_word_char(int c)
{
	return isalnum(c) || c == '_' || c == '$';
}

static bool is_word(const char *t)
{
	return t && (is_word_char((unsigned char)t[0]));
}

static bool is_name(const char *t)
{
	return t && (isalpha((unsigned char)t[0]) || t[0] == '_' || t[0] == '$');
}

bool hx_split(const char *s, struct strvec *out)
{
	static const char *const punct3[] = { "...", "<<=", ">>=", NULL };
	static const char *const punct2[] = { "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&",
					      "||", "##", "+=", "-=", "*=", "/=", "|=", "&=", "^=", NULL };
	const char *p = s;

	while (*p) {
		const char *st = p;
		bool done = false;

		if (isspace((unsigned char)*p)) {
			p++;
			continue;
		}
		if (p[0] == '/' && p[1] == '*') {
			const char *e = strstr(p + 2, "*/");

			if (!e)
				return false;
			p = e + 2;
			continue;
		}
		if (p[0] == '/' && p[1] == '/') {
			p += strcspn(p, "\n");
			continue;
		}
		if (is_word_char((unsigned char)*p)) {
			while (is_word_char((unsigned char)*p) || (*p == '.' && isdigit((unsigned char)*st)))
				p++;
		} else if (*p == '"' || *p == '\'') {
			char q = *p++;

			while (*p && *p != q)
				p += (*p == '\\' && p[1]) ? 2 : 1;
			if (!*p)
				return false;
			p++;
		} else {
			for (int i = 0; punct3[i] && !done; i++)
				if (!strncmp(p, punct3[i], 3)) {
					p += 3;
					done = true;
				}
			for (int i = 0; punct2[i] && !done; i++)
				if (!strncmp(p, punct2[i], 2)) {
					p += 2;
					done = true;
				}
			if (!done) {
				if (!strchr("()[]{}.,;:?&*+-~!/%<>^|=#", *p))
					return false;
				p++;
			}
		}
		sv_push(out, "");
		free(out->v[out->n - 1]);
		out->v[out->n - 1] = xstrndup(st, (size_t)(p - st));
	}
	return true;
}

static char *join(const struct strvec *t, size_t from, size_t to)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = from; i < to; i++) {
		if (i > from)
			sb_addc(&sb, ' ');
		sb_adds(&sb, t->v[i]);
	}
	return sb_detach(&sb);
}

char *hx_norm(const char *s)
{
	struct strvec t = STRVEC_INIT;
	char *r;

	if (!hx_split(s, &t)) {
		sv_clear(&t);
		return NULL;
	}
	r = join(&t, 0, t.n);
	sv_clear(&t);
	return r;
}

static bool operand_end(const char *t)
{
	return is_word(t) || !strcmp(t, ")") || !strcmp(t, "]");
}

char *hx_pretty(const char *norm)
{
	struct strvec t = STRVEC_INIT;
	struct strbuf sb = STRBUF_INIT;

	hx_split(norm, &t);
	for (size_t i = 0; i < t.n; i++) {
		const char *a = i ? t.v[i - 1] : NULL, *b = t.v[i];
		bool space = false;

		if (!a) {
			space = false;
		} else if (!strcmp(a, ",")) {
			space = true;
		} else if (!strcmp(b, "*") && i + 1 < t.n && !strcmp(t.v[i + 1], ")") && is_word(a)) {
			space = true;		/* (struct foo *) */
		} else if (is_word(a) && is_word(b)) {
			space = true;
		} else if (strchr("?:|^=<>+-/%", b[0]) && strcmp(b, "->") && strcmp(b, "++") && strcmp(b, "--") &&
			   operand_end(a)) {
			space = true;		/* binary operator */
		} else if ((!strcmp(b, "&") || !strcmp(b, "*") || !strcmp(b, "&&") || !strcmp(b, "||")) &&
			   operand_end(a)) {
			space = true;
		} else if (i >= 2 && strchr("?:|^=<>+-/%&*", a[0]) && strcmp(a, "->") && strlen(a) <= 2 &&
			   strcmp(a, "++") && strcmp(a, "--") && operand_end(t.v[i - 2]) &&
			   strcmp(b, ")") && strcmp(b, "]")) {
			space = true;		/* after a binary operator */
		}
		if (space)
			sb_addc(&sb, ' ');
		sb_adds(&sb, b);
	}
	sv_clear(&t);
	return sb_detach(&sb);
}

bool hx_is_ident(const char *s)
{
	if (!is_name(s))
		return false;
	for (const char *p = s; *p; p++)
		if (!is_word_char((unsigned char)*p))
			return false;
	return true;
}

/* Index just past the bracket group opening at T[I] ("(" or "["), or T->n when unbalanced. */
static size_t skip_group(const struct strvec *t, size_t i)
{
	int depth = 0;

	for (; i < t->n; i++) {
		if (!strcmp(t->v[i], "(") || !strcmp(t->v[i], "["))
			depth++;
		else if (!strcmp(t->v[i], ")") || !strcmp(t->v[i], "]"))
			if (--depth == 0)
				return i + 1;
	}
	return t->n;
}

/* End of the postfix expression starting at I, or I when there is none. */
static size_t postfix_end(const struct strvec *t, size_t i)
{
	if (i >= t->n)
		return i;
	if (is_name(t->v[i])) {
		i++;
	} else if (!strcmp(t->v[i], "(")) {
		size_t e = skip_group(t, i);

		if (e > t->n || e == i + 2)
			return i;
		i = e;
	} else {
		return i;
	}
	while (i < t->n) {
		if ((!strcmp(t->v[i], "->") || !strcmp(t->v[i], ".")) && i + 1 < t->n && is_name(t->v[i + 1]))
			i += 2;
		else if (!strcmp(t->v[i], "[") || !strcmp(t->v[i], "("))
			i = skip_group(t, i);
		else
			break;
	}
	return i;
}

bool hx_is_postfix(const char *norm)
{
	struct strvec t = STRVEC_INIT;
	bool r;

	hx_split(norm, &t);
	r = t.n && postfix_end(&t, 0) == t.n;
	sv_clear(&t);
	return r;
}

static bool is_pure_call(const char *name)
{
	return !strcmp(name, "container_of") || !strcmp(name, "container_of_const") || !strcmp(name, "list_entry");
}

static bool member_pos(const struct strvec *t, size_t i)
{
	return i > 0 && (!strcmp(t->v[i - 1], "->") || !strcmp(t->v[i - 1], ".") || !strcmp(t->v[i - 1], "struct") ||
			 !strcmp(t->v[i - 1], "union") || !strcmp(t->v[i - 1], "enum"));
}

char *hx_subst(const char *norm, const char *name, const char *repl)
{
	struct strvec t = STRVEC_INIT;
	struct strbuf sb = STRBUF_INIT;
	bool paren = !hx_is_postfix(repl);
	char *r;

	hx_split(norm, &t);
	for (size_t i = 0; i < t.n; i++) {
		if (i)
			sb_addc(&sb, ' ');
		if (!strcmp(t.v[i], name) && !member_pos(&t, i))
			sb_addf(&sb, paren ? "( %s )" : "%s", repl);
		else
			sb_adds(&sb, t.v[i]);
	}
	sv_clear(&t);
	r = hx_simplify(sb.buf ? sb.buf : "");
	sb_release(&sb);
	return r;
}

/* FROM replaced by TO in NORM: every whole occurrence, or (VALUE) only where it stands as a value. */
static char *replace(const char *norm, const char *from, const char *to, bool value)
{
	struct strvec t = STRVEC_INIT, f = STRVEC_INIT;
	struct strbuf sb = STRBUF_INIT;

	hx_split(norm, &t);
	hx_split(from, &f);
	for (size_t i = 0; i < t.n;) {
		bool m = f.n && i + f.n <= t.n && !member_pos(&t, i);
		size_t e = i + f.n;

		for (size_t j = 0; m && j < f.n; j++)
			m = !strcmp(t.v[i + j], f.v[j]);
		if (m && value) {
			const char *prev = i ? t.v[i - 1] : NULL, *next = e < t.n ? t.v[e] : NULL;
			bool whole = !prev && !next;
			bool deref = next && !strcmp(next, "->");
			bool arg = prev && next && (!strcmp(prev, "(") || !strcmp(prev, ",")) &&
				   (!strcmp(next, ",") || !strcmp(next, ")"));

			m = whole || deref || arg;
		}
		if (sb.len)
			sb_addc(&sb, ' ');
		if (m) {
			sb_adds(&sb, to);
			i = e;
		} else {
			sb_adds(&sb, t.v[i]);
			i++;
		}
	}
	sv_clear(&t);
	sv_clear(&f);
	return sb_detach(&sb);
}

char *hx_replace_seq(const char *norm, const char *from, const char *to)
{
	return replace(norm, from, to, false);
}

char *hx_replace_value(const char *norm, const char *from, const char *to)
{
	return replace(norm, from, to, true);
}

bool hx_contains_seq(const char *norm, const char *sub)
{
	struct strvec t = STRVEC_INIT, f = STRVEC_INIT;
	bool found = false;

	hx_split(norm, &t);
	hx_split(sub, &f);
	for (size_t i = 0; f.n && i + f.n <= t.n && !found; i++) {
		bool m = true;

		for (size_t j = 0; m && j < f.n; j++)
			m = !strcmp(t.v[i + j], f.v[j]);
		found = m;
	}
	sv_clear(&t);
	sv_clear(&f);
	return found;
}

char *hx_simplify(const char *norm)
{
	struct strvec t = STRVEC_INIT;
	bool changed = true;
	char *r;

	hx_split(norm, &t);
	while (changed) {
		changed = false;
		for (size_t i = 0; i < t.n && !changed; i++) {
			size_t e, pe;
			struct strvec n = STRVEC_INIT;

			if (strcmp(t.v[i], "("))
				continue;
			if (i > 0 && (is_name(t.v[i - 1]) || !strcmp(t.v[i - 1], ")") || !strcmp(t.v[i - 1], "]")))
				continue;	/* a call's parentheses */
			e = skip_group(&t, i);	/* just past the ")" */
			if (e > t.n || e < i + 3)
				continue;
			/* ( & X ) -> m  =>  X . m */
			if (!strcmp(t.v[i + 1], "&") && e < t.n && !strcmp(t.v[e], "->")) {
				pe = postfix_end(&t, i + 2);
				if (pe == e - 1) {
					for (size_t k = 0; k < i; k++)
						sv_push(&n, t.v[k]);
					for (size_t k = i + 2; k < e - 1; k++)
						sv_push(&n, t.v[k]);
					sv_push(&n, ".");
					for (size_t k = e + 1; k < t.n; k++)
						sv_push(&n, t.v[k]);
					changed = true;
				}
			}
			/* ( X ) => X for a postfix X not followed by something a cast would take */
			if (!changed) {
				pe = postfix_end(&t, i + 1);
				if (pe == e - 1 && (e >= t.n || !(is_word(t.v[e]) || !strcmp(t.v[e], "(")))) {
					for (size_t k = 0; k < t.n; k++)
						if (k != i && k != e - 1)
							sv_push(&n, t.v[k]);
					changed = true;
				}
			}
			if (changed) {
				sv_clear(&t);
				t = n;
			} else {
				sv_clear(&n);
			}
		}
		/* * & X => X */
		for (size_t i = 0; i + 1 < t.n && !changed; i++) {
			if (!strcmp(t.v[i], "*") && !strcmp(t.v[i + 1], "&") && (i == 0 || !operand_end(t.v[i - 1]))) {
				struct strvec n = STRVEC_INIT;

				for (size_t k = 0; k < t.n; k++)
					if (k != i && k != i + 1)
						sv_push(&n, t.v[k]);
				sv_clear(&t);
				t = n;
				changed = true;
			}
		}
	}
	r = join(&t, 0, t.n);
	sv_clear(&t);
	return r;
}

void hx_vars(const char *norm, struct strvec *out)
{
	struct strvec t = STRVEC_INIT;

	hx_split(norm, &t);
	for (size_t i = 0; i < t.n; i++) {
		if (!is_name(t.v[i]) || member_pos(&t, i))
			continue;
		if (i + 1 < t.n && !strcmp(t.v[i + 1], "(")) {
			/* container_of(ptr, type, member): only ptr names variables */
			if (is_pure_call(t.v[i])) {
				size_t e = skip_group(&t, i + 1), k = i + 2;
				int depth = 0;

				for (; k < e; k++) {
					if (!strcmp(t.v[k], "(") || !strcmp(t.v[k], "["))
						depth++;
					else if (!strcmp(t.v[k], ")") || !strcmp(t.v[k], "]"))
						depth--;
					else if (!strcmp(t.v[k], ",") && depth == 0)
						break;
					else if (is_name(t.v[k]) && !member_pos(&t, k) &&
						 !(k + 1 < e && !strcmp(t.v[k + 1], "(")) && !sv_contains(out, t.v[k]))
						sv_push(out, t.v[k]);
				}
				i = e - 1;
			}
			continue;	/* a function or macro */
		}
		if (!strcmp(t.v[i], "struct") || !strcmp(t.v[i], "union") || !strcmp(t.v[i], "enum") ||
		    !strcmp(t.v[i], "const") || !strcmp(t.v[i], "sizeof"))
			continue;
		if (!sv_contains(out, t.v[i]))
			sv_push(out, t.v[i]);
	}
	sv_clear(&t);
}

static void add_load(struct strvec *out, const struct strvec *t, size_t s, size_t e)
{
	char *x;

	if (e <= s || (e == s + 1 && is_name(t->v[s])))
		return;		/* a variable: its value is at hand, nothing is read */
	if (!strcmp(t->v[s], "&"))
		return;
	x = join(t, s, e);
	if (!sv_contains(out, x))
		sv_push(out, x);
	free(x);
}

void hx_loads(const char *norm, struct strvec *out)
{
	struct strvec t = STRVEC_INIT;

	hx_split(norm, &t);
	for (size_t i = 0; i < t.n; i++) {
		if (!strcmp(t.v[i], "->")) {
			/* the left operand of -> is read */
			size_t s = i, depth = 0;

			/* walk back over the postfix expression ending at i */
			while (s > 0) {
				const char *x = t.v[s - 1];

				if (!strcmp(x, ")") || !strcmp(x, "]")) {
					depth = 0;
					do {
						const char *y = t.v[--s];

						if (!strcmp(y, ")") || !strcmp(y, "]"))
							depth++;
						else if (!strcmp(y, "(") || !strcmp(y, "["))
							depth--;
					} while (s > 0 && depth > 0);
					if (s > 0 && is_name(t.v[s - 1]))
						s--;
				} else if (is_name(x)) {
					s--;
				} else {
					break;
				}
				if (s >= 1 && (!strcmp(t.v[s - 1], "->") || !strcmp(t.v[s - 1], ".")))
					s--;
				else
					break;
			}
			/* container_of() computes an address: only its argument is read (below) */
			if (!(is_pure_call(t.v[s]) && s + 1 < i && !strcmp(t.v[s + 1], "(") && skip_group(&t, s + 1) == i))
				add_load(out, &t, s, i);
		} else if (is_pure_call(t.v[i]) && i + 1 < t.n && !strcmp(t.v[i + 1], "(")) {
			/* the first argument is a value: read when it is a field */
			size_t s = i + 2, e = s;
			int depth = 0;

			for (; e < t.n; e++) {
				if (!strcmp(t.v[e], "(") || !strcmp(t.v[e], "["))
					depth++;
				else if (!strcmp(t.v[e], ")") || !strcmp(t.v[e], "]"))
					depth--;
				else if (!strcmp(t.v[e], ",") && depth == 0)
					break;
			}
			add_load(out, &t, s, e);
		}
	}
	sv_clear(&t);
}

bool hx_only_pure_calls(const char *norm, char **bad_call)
{
	static const char *const pure[] = { "container_of", "container_of_const", "list_entry", NULL };
	struct strvec t = STRVEC_INIT;
	bool ok = true;

	hx_split(norm, &t);
	for (size_t i = 0; i + 1 < t.n && ok; i++) {
		bool p = false;

		if (!is_name(t.v[i]) || strcmp(t.v[i + 1], "(") || member_pos(&t, i))
			continue;
		for (int k = 0; pure[k]; k++)
			p = p || !strcmp(t.v[i], pure[k]);
		if (!p) {
			ok = false;
			if (bad_call)
				*bad_call = xstrdup(t.v[i]);
		}
	}
	sv_clear(&t);
	return ok;
}
