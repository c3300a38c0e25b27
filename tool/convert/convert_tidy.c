// SPDX-License-Identifier: GPL-2.0
/*
 * convert_tidy.c - what convert_apply.c does to the text spatch leaves:
 * the members it wrote aligned with their neighbours, the blank lines
 * where poll_wait() was, the kernel-doc, ops built by macros rewritten as
 * text, a longer call's arguments laid out again (convert_int.h).
 */
#define _GNU_SOURCE
#include "convert_int.h"
#include "cfacts.h"
#include "headexpr.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Text of lines: a NULL-terminated array into a copy of TEXT. */
char **split_lines(const char *text, size_t *n)
{
	size_t cap = 16;
	char **v = xcalloc(cap, sizeof(*v));
	const char *p = text;

	*n = 0;
	while (*p) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);

		if (*n + 1 >= cap) {
			cap *= 2;
			v = xrealloc(v, cap * sizeof(*v));
		}
		v[(*n)++] = xstrndup(p, len);
		p += len + (e ? 1 : 0);
	}
	v[*n] = NULL;
	return v;
}

static char *join_lines(char **v, size_t n, bool final_newline)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < n; i++) {
		if (!v[i])
			continue;
		sb_adds(&sb, v[i]);
		if (i + 1 < n || final_newline)
			sb_addc(&sb, '\n');
	}
	return sb_detach(&sb);
}

void free_lines(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static int col_of(const char *s, size_t upto)
{
	int col = 0;

	for (size_t i = 0; i < upto && s[i]; i++)
		col = s[i] == '\t' ? (col / 8 + 1) * 8 : col + 1;
	return col;
}

/*
 * Column of '=' in an initializer line "\t.name<ws>= ...", -1 otherwise;
 * *TABS when aligned with tabs.  A line with one space before '=' is not
 * aligned: its column is -2.
 */
static int init_eq_col(const char *l, bool *tabs)
{
	const char *p = l;

	while (*p == ' ' || *p == '\t')
		p++;
	if (*p != '.')
		return -1;
	p++;
	while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_')
		p++;
	if (*p != ' ' && *p != '\t')
		return -1;
	if (tabs)
		*tabs = false;
	while (*p == ' ' || *p == '\t') {
		if (*p == '\t' && tabs)
			*tabs = true;
		p++;
	}
	if (*p != '=' || p[1] == '=')
		return -1;
	if (tabs && !*tabs && p[-1] == ' ' && p[-2] != ' ')
		return -2;	/* ".name = x": not aligned */
	return col_of(l, (size_t)(p - l));
}

/* Is L an initializer line ".member<ws>= [&]NAME," with NAME in NAMES (a line polltax wrote)? */
static bool our_member(const char *l, const struct strvec *names)
{
	const char *p = l + strspn(l, " \t"), *q;

	if (*p != '.' || init_eq_col(l, NULL) == -1)
		return false;
	q = strchr(p, '=') + 1;
	q += strspn(q, " \t&");
	for (size_t k = 0; k < names->n; k++)
		if (!strncmp(q, names->v[k], strlen(names->v[k])) && q[strlen(names->v[k])] == ',')
			return true;
	return false;
}

/* Column of the value of an initializer line "\t.name<ws>=<ws>value", -1 otherwise. */
static int init_val_col(const char *l)
{
	const char *eq;

	if (init_eq_col(l, NULL) == -1)
		return -1;
	eq = strchr(l, '=') + 1;
	return col_of(l, (size_t)(eq + strspn(eq, " \t") - l));
}

/*
 * The column the members around line I (not ours) align their values to,
 * when they write ".name =" and pad after the '=' instead (".owner =
 * THIS_MODULE" beside ".fasync =\thidraw_fasync": drivers/hid/hidraw.c):
 * two of them with '=' in different columns and their values in the same
 * one.  -1 when they do not.
 */
static int value_col(char **v, size_t n, const bool *ours, size_t i)
{
	int eq[8], val[8], m = 0;
	bool tabs;

	for (size_t k = i > 4 ? i - 4 : 0; k < n && k <= i + 4 && m < 8; k++) {
		if (k == i || ours[k] || init_eq_col(v[k], &tabs) != -2)
			continue;
		eq[m] = col_of(v[k], (size_t)(strchr(v[k], '=') - v[k]));
		val[m++] = init_val_col(v[k]);
	}
	for (int a = 0; a < m; a++)
		for (int b = a + 1; b < m; b++)
			if (val[a] == val[b] && eq[a] != eq[b])
				return val[a];
	return -1;
}

/* Re-align ".member<ws>= NAME" (a member polltax wrote, NAME in NAMES) with the neighbouring members. */
char *realign(const char *text, const struct strvec *names)
{
	size_t n;
	char **v = split_lines(text, &n);
	bool *ours = xcalloc(n + 1, sizeof(*ours));
	char *r;
	bool nl = text[0] && text[strlen(text) - 1] == '\n';

	for (size_t i = 0; i < n; i++)
		ours[i] = our_member(v[i], names);
	for (size_t i = 0; i < n; i++) {
		const char *l = v[i], *p = l, *member, *rest;
		int target = -1;
		bool tabs = false;
		struct strbuf sb = STRBUF_INIT;
		size_t ml;

		if (!ours[i])
			continue;
		p += strspn(p, " \t");
		member = p;
		ml = strcspn(p, " \t=");
		/* the nearest members polltax did not write, within the initializer */
		for (size_t k = i; k-- > 0 && target == -1 && i - k <= 4;)
			if (!ours[k])
				target = init_eq_col(v[k], &tabs);
		for (size_t k = i + 1; k < n && target == -1 && k - i <= 4; k++)
			if (!ours[k])
				target = init_eq_col(v[k], &tabs);
		rest = strchr(p, '=');
		sb_add(&sb, l, (size_t)(p - l));
		sb_add(&sb, member, ml);
		if (target == -2 && (target = value_col(v, n, ours, i)) >= 0) {
			/* ".member = " and the value at the neighbours' column, padded as the line was */
			const char *val = rest + 1 + strspn(rest + 1, " \t");
			bool pad_tabs = memchr(rest + 1, '\t', (size_t)(val - rest - 1)) != NULL;
			int col;

			sb_adds(&sb, " =");
			col = col_of(sb.buf, sb.len);
			if (col + 1 > target) {
				sb_addc(&sb, ' ');
			} else if (pad_tabs && (target % 8 == 0)) {
				while (col < target) {
					sb_addc(&sb, '\t');
					col = (col / 8 + 1) * 8;
				}
			} else {
				while (col++ < target)
					sb_addc(&sb, ' ');
			}
			sb_adds(&sb, val);
			free(v[i]);
			v[i] = sb_detach(&sb);
			continue;
		}
		{
			int col = col_of(sb.buf, sb.len);

			if (target <= col) {
				sb_addc(&sb, ' ');
			} else if (tabs) {
				while (col < target) {
					sb_addc(&sb, '\t');
					col = (col / 8 + 1) * 8;
				}
				if (col > target) {	/* cannot land there with tabs */
					sb.len = 0;
					sb_add(&sb, l, (size_t)(p - l));
					sb_add(&sb, member, ml);
					sb_addc(&sb, ' ');
				}
			} else {
				while (col++ < target)
					sb_addc(&sb, ' ');
			}
		}
		sb_adds(&sb, rest);
		free(v[i]);
		v[i] = sb_detach(&sb);
	}
	r = join_lines(v, n, nl);
	free_lines(v, n);
	free(ours);
	return r;
}

bool blank(const char *l)
{
	return l && l[strspn(l, " \t")] == '\0';
}

/* Is L "if (COND)" alone, COND calling nothing (no "name(" in it)? */
static bool bare_if(const char *l)
{
	const char *p = l + strspn(l, " \t"), *c;
	size_t n;

	if (strncmp(p, "if (", 4))
		return false;
	n = strlen(p);
	while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
		n--;
	if (n < 5 || p[n - 1] != ')')
		return false;
	for (c = p + 4; c < p + n - 1; c++)
		if (*c == '(' && c > p + 4 && (isalnum((unsigned char)c[-1]) || c[-1] == '_'))
			return false;	/* a call: its side effects stay */
	return true;
}

/*
 * Blank lines the removal of poll_wait() left: after "{", before "}",
 * doubled; and "if (COND)" over the empty "{}" spatch leaves where a
 * poll_wait() was the whole branch (a conditional registration, of a
 * single-cond under review), when COND calls nothing.
 */
char *tidy_body(const char *text, const char *old_text, const char *old_fn, const char *fn)
{
	size_t s, e, os, oe, n;
	char **v;
	int first, last;
	bool had_double = false, had_lead = false;
	char *r;

	if (!cfacts_func_body(text, fn, &s, &e))
		return xstrdup(text);
	if (old_text && cfacts_func_body(old_text, old_fn, &os, &oe)) {
		char *ob = xstrndup(old_text + os, oe - os);

		had_double = strstr(ob, "\n\n\n") != NULL;
		had_lead = !strncmp(ob, "{\n\n", 3);
		free(ob);
	}
	v = split_lines(text, &n);
	first = cfacts_line_of(text, s) - 1;
	last = cfacts_line_of(text, e - 1) - 1;
	for (int i = first + 2; i < last; i++) {
		const char *t = v[i] ? v[i] + strspn(v[i], " \t") : "";

		if (v[i - 1] && !strcmp(t, "{}") && bare_if(v[i - 1]) &&
		    (i + 1 >= last || !v[i + 1] || strncmp(v[i + 1] + strspn(v[i + 1], " \t"), "else", 4))) {
			free(v[i - 1]);
			free(v[i]);
			v[i - 1] = v[i] = NULL;
		}
	}
	for (int i = first + 1; i < last; i++) {
		int nx = i + 1;	/* the next line left */

		while (nx < last && !v[nx])
			nx++;
		if (!v[i] || !blank(v[i]))
			continue;
		if (i == first + 1 && !had_lead && !strcmp(v[first] + strlen(v[first]) - 1, "{")) {
			free(v[i]);
			v[i] = NULL;
		} else if (!had_double && nx < last && blank(v[nx])) {
			free(v[i]);
			v[i] = NULL;
		} else if (nx == last) {
			free(v[i]);
			v[i] = NULL;
		}
	}
	r = join_lines(v, n, text[0] && text[strlen(text) - 1] == '\n');
	free_lines(v, n);
	return r;
}

/* A kernel-doc block right above the definition: the new name and the new parameter. */
char *tidy_kerneldoc(const char *text, const char *old_fn, const char *fn, const char *pt, const char *ev)
{
	size_t s, e, n;
	char **v;
	int def, i;
	char *r;

	if (!cfacts_func_body(text, fn, &s, &e))
		return xstrdup(text);
	v = split_lines(text, &n);
	def = cfacts_line_of(text, s) - 1;
	while (def > 0 && !strstr(v[def], fn))
		def--;
	i = def - 1;
	if (i >= 0 && strstr(v[i], "*/")) {
		int top = i;

		while (top > 0 && !strstr(v[top], "/**") && !strstr(v[top], "/*"))
			top--;
		if (strstr(v[top], "/**")) {
			for (int k = top; k <= i; k++) {
				char *at = xasprintf("@%s:", pt);
				char *p;
				size_t ol = strlen(old_fn);

				if ((p = strstr(v[k], at))) {
					char *nl = xasprintf("%.*s@%s: the events the caller is interested in",
							     (int)(p - v[k]), v[k], ev);

					free(v[k]);
					v[k] = nl;
				} else if ((p = strstr(v[k], old_fn)) && (p == v[k] || !((p[-1] >= 'a' && p[-1] <= 'z') ||
									 p[-1] == '_')) &&
					   !((p[ol] >= 'a' && p[ol] <= 'z') || p[ol] == '_' || (p[ol] >= '0' && p[ol] <= '9'))) {
					char *nl = xasprintf("%.*s%s%s", (int)(p - v[k]), v[k], fn, p + ol);

					free(v[k]);
					v[k] = nl;
				}
				free(at);
			}
		}
	}
	r = join_lines(v, n, text[0] && text[strlen(text) - 1] == '\n');
	free_lines(v, n);
	return r;
}

/*
 * .poll = fn in #define bodies (ops built by macros): the same rewrite, as
 * text.  MACROS gets the name of each macro rewritten.
 */
char *fix_macros(const char *text, const char *fn, const char *mask_fn, bool *changed, struct strvec *macros)
{
	size_t n;
	char **v = split_lines(text, &n);
	bool in_define = false;
	char *r, *name = NULL;

	*changed = false;
	for (size_t i = 0; i < n; i++) {
		const char *p = v[i] + strspn(v[i], " \t");
		size_t len = strlen(v[i]);

		if (!strncmp(p, "#define", 7) || !strncmp(p, "# define", 8)) {
			const char *m = p + (p[1] == ' ' ? 8 : 7);

			m += strspn(m, " \t");
			free(name);
			name = xstrndup(m, strspn(m, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_"));
			in_define = true;
		}
		if (in_define) {
			char *q = strstr(v[i], ".poll");

			while (q) {
				const char *a = q + 5, *b;

				b = a + strspn(a, " \t");
				if (*b == '=' && !strncmp(b + 1 + strspn(b + 1, " \t"), fn, strlen(fn))) {
					const char *c = b + 1 + strspn(b + 1, " \t");
					const char *after = c + strlen(fn);

					if (!((*after >= 'a' && *after <= 'z') || *after == '_' || (*after >= '0' && *after <= '9'))) {
						char *nl = xasprintf("%.*s.poll_mask%.*s%s%s", (int)(q - v[i]), v[i],
								     (int)(c - a), a, mask_fn, after);

						free(v[i]);
						v[i] = nl;
						*changed = true;
						if (name && *name && !sv_contains(macros, name))
							sv_push(macros, name);
						break;
					}
				}
				q = strstr(q + 1, ".poll");
			}
		}
		len = strlen(v[i]);
		if (!(len && v[i][len - 1] == '\\'))
			in_define = false;
	}
	r = join_lines(v, n, text[0] && text[strlen(text) - 1] == '\n');
	free_lines(v, n);
	free(name);
	return r;
}


static bool ident_char(char ch)
{
	return ch == '_' || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
}

/*
 * The argument list of the call to CALLEE in FUNC, laid out again as the
 * kernel does: as many arguments on a line as fit in 80 columns, the
 * continuation lines aligned with the open parenthesis.  spatch keeps
 * the old breaks and indentation when a call gets a longer name and one
 * more argument.  When an argument is too long to fit after the open
 * parenthesis, the continuation lines keep the indentation the call had
 * (as the kernel does for such calls).  TEXT unchanged (a copy) when the
 * call has comments.
 */
char *relayout_call(const char *text, const char *func, const char *callee)
{
	size_t s, e, cl = strlen(callee);
	const char *c = NULL, *open, *close, *ls, *le;
	struct strbuf sb = STRBUF_INIT, ind = STRBUF_INIT;
	struct strvec args = STRVEC_INIT;
	int depth = 0, col0, col;

	if (!cfacts_func_body(text, func, &s, &e))
		return xstrdup(text);
	for (const char *p = text + s; p < text + e && !c; p++)
		if (!strncmp(p, callee, cl) && !ident_char(p[-1]) && !ident_char(p[cl]))
			c = p;
	if (!c)
		return xstrdup(text);
	open = c + cl + strspn(c + cl, " \t");
	if (*open != '(')
		return xstrdup(text);
	for (close = open; *close; close++) {
		if (*close == '"' || *close == '\'') {
			char q = *close;

			for (close++; *close && *close != q; close++)
				if (*close == '\\' && close[1])
					close++;
			if (!*close)
				return xstrdup(text);
			continue;
		}
		if (*close == '/' && (close[1] == '*' || close[1] == '/'))
			return xstrdup(text);
		if (*close == '(' || *close == '[' || *close == '{')
			depth++;
		if ((*close == ')' || *close == ']' || *close == '}') && --depth == 0)
			break;
	}
	if (*close != ')')
		return xstrdup(text);
	/* the arguments, each on one line */
	{
		struct strbuf a = STRBUF_INIT;

		depth = 0;
		for (const char *p = open + 1; p <= close; p++) {
			if (*p == '"' || *p == '\'') {
				const char *q = p;

				for (q++; *q && *q != *p; q++)
					if (*q == '\\' && q[1])
						q++;
				sb_add(&a, p, (size_t)(q - p + 1));
				p = q;
				continue;
			}
			if (*p == '(' || *p == '[' || *p == '{')
				depth++;
			if ((*p == ')' || *p == ']' || *p == '}') && depth-- == 0) {
				sv_push(&args, a.buf ? a.buf : "");
				break;
			}
			if (*p == ',' && depth == 0) {
				sv_push(&args, a.buf ? a.buf : "");
				sb_reset(&a);
				p += strspn(p + 1, " \t\n");
				continue;
			}
			if (*p == '\n' || *p == '\t' || *p == ' ') {
				size_t n = strspn(p, " \t\n");

				if (a.len && p[n] != ')' && p[n] != ',')
					sb_addc(&a, ' ');
				p += n - 1;
				continue;
			}
			sb_addc(&a, *p);
		}
		sb_release(&a);
	}
	for (ls = c; ls > text && ls[-1] != '\n'; ls--)
		;
	le = strchr(close, '\n');
	if (!le)
		le = close + strlen(close);
	sb_add(&sb, text, (size_t)(open + 1 - text));
	col = col0 = col_of(ls, (size_t)(open + 1 - ls));
	for (int k = 0; k < col0 / 8; k++)
		sb_addc(&ind, '\t');
	for (int k = 0; k < col0 % 8; k++)
		sb_addc(&ind, ' ');
	{
		/* an argument that does not fit aligned: the call's own continuation indentation */
		const char *nl = memchr(open, '\n', (size_t)(close - open));
		bool too_long = false;

		for (size_t i = 1; i < args.n; i++)
			too_long |= col0 + (int)strlen(args.v[i]) + 1 > 80;
		if (too_long && nl) {
			size_t n = strspn(nl + 1, " \t");
			int c2 = col_of(nl + 1, n);

			if (c2 < col0 && c2 > col_of(ls, strspn(ls, " \t"))) {
				sb_reset(&ind);
				sb_add(&ind, nl + 1, n);
				col0 = c2;
			}
		}
	}
	for (size_t i = 0; i < args.n; i++) {
		bool last = i + 1 == args.n;
		char *piece = last ? xasprintf("%s%.*s", args.v[i], (int)(le - close), close)
				   : xasprintf("%s,", args.v[i]);
		int w = (int)strlen(piece);

		if (i && col + 1 + w > 80) {
			sb_addf(&sb, "\n%s", ind.buf);
			col = col0;
		} else if (i) {
			sb_addc(&sb, ' ');
			col++;
		}
		sb_adds(&sb, piece);
		col += w;
		free(piece);
	}
	sb_adds(&sb, le);
	sv_clear(&args);
	sb_release(&ind);
	return sb_detach(&sb);
}
