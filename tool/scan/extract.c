// SPDX-License-Identifier: GPL-2.0
/*
 * extract.c - facts of one translation unit, read off libclang's AST.
 *
 * Decides nothing about classes (classify.c does); it records, for the
 * main file of the translation unit:
 *  - a summary of every function that takes a poll_table (and of the
 *    header inlines such a function calls with it): the poll_wait() calls
 *    with their head as written and what the head is derived from, the
 *    calls that pass the poll_table on (direct: a helper; indirect: a
 *    lower layer), poll_requested_events()/poll_does_not_wait(), other
 *    uses of the poll_table, busy-poll evidence, returns and gotos with
 *    whether they are conditional, in source order;
 *  - every struct initializer whose members point at functions that poll
 *    (file_operations and every other ops struct; macro-built ones too);
 *  - run-time assignments of a function to a struct member;
 *  - references to struct objects from calls, initializers and
 *    assignments (the creation sites: anon_inode_getfile(), misc devices);
 *  - assignments to file->private_data and file->f_poll_head;
 *  - queues released with wake_up_pollfree() (per-task queues).
 * Derivations ("what is this head made of") follow locals, container_of
 * statement expressions, accessor inlines and casts; see derive().
 */
#define _GNU_SOURCE
#include "extract.h"
#include "lib/util.h"

#include <clang-c/Index.h>
#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/*
 * D_CALL: the value a direct call returns when the callee's body is not in
 * this translation unit.  Only the whole tree can say what it is (the
 * callee's "returns" fact, classify.c's resolve_base()); until then it is
 * not known, and a body never seen leaves it unknown.
 */
enum dkind { D_UNKNOWN, D_GLOBAL, D_PARAM, D_TASK, D_DYNAMIC, D_CONST, D_CALL };

struct deriv {
	enum dkind kind;
	int param;
	char first[64];		/* first hop from the param: a field or "f()" */
	char name[96];		/* global: its name */
	char why[200];		/* dynamic/unknown: the reason */
	int nalts;
	char alts[4][128];	/* dynamic: the candidate heads, as written */
	int nfields;
	char fields[8][96];	/* "struct.field" members the value was read through */
	/* D_CALL: name is the callee; param/first/fields the arguments' object */
	bool call_acc;		/* every non-constant argument derives from one param */
	bool call_global;	/* an argument is a global object */
};

struct cvec {
	CXCursor *c;
	unsigned n, alloc;
};

struct fstate {
	CXCursor fn;
	CXCursor body;
	int pt;			/* index of the poll_table parameter, -1 */
	json_t *events;
	json_t *file_calls;	/* functions this one hands its struct file * to */
};

struct ectx {
	CXTranslationUnit tu;
	const char *root;
	size_t rootlen;
	const char *mainrel;
	CXFile mainfile;
	json_t *functions, *fn_done, *ops, *assigns, *refs;
	json_t *pd_sets, *ph_sets, *pollfree, *errors, *relcache, *defs, *field_sets;
	json_t *returns;	/* extern function -> what its result is derived from */
	json_t *memo;		/* derivation key -> index in memo_v, or -1 while in progress */
	struct deriv *memo_v;
	size_t memo_n, memo_alloc;
	struct fstate *fs;
	int depth;
	CXCursor guard;		/* the value an enclosing "if (!E)" tests, or a null cursor */
	const char *cur_fn;	/* name of the function being walked, for records */
	const CXFile *unit_files;	/* a unity build: every .c file of the unit (unity.c) */
	unsigned n_unit_files;
};

/* ---- small libclang wrappers ------------------------------------------------ */

/* Source text can hold any bytes: what we keep is valid UTF-8 (JSON). */
static char *cxs(CXString s)
{
	const char *c = clang_getCString(s);
	char *r = utf8_safe(c);

	clang_disposeString(s);
	return r;
}

static enum CXChildVisitResult collect_cb(CXCursor c, CXCursor parent, CXClientData d)
{
	struct cvec *v = d;

	(void)parent;
	if (v->n == v->alloc) {
		v->alloc = v->alloc * 2 + 8;
		v->c = xrealloc(v->c, v->alloc * sizeof(*v->c));
	}
	v->c[v->n++] = c;
	return CXChildVisit_Continue;
}

static struct cvec children(CXCursor c)
{
	struct cvec v = { NULL, 0, 0 };

	clang_visitChildren(c, collect_cb, &v);
	return v;
}

/* Strip implicit casts, parens and explicit casts: the expression underneath. */
static CXCursor strip(CXCursor c)
{
	for (int i = 0; i < 32; i++) {
		enum CXCursorKind k = clang_getCursorKind(c);
		struct cvec ch;

		if (k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr &&
		    k != CXCursor_CStyleCastExpr)
			break;
		ch = children(c);
		if (!ch.n) {
			free(ch.c);
			break;
		}
		c = ch.c[ch.n - 1];
		free(ch.c);
	}
	return c;
}

static const char *relpath(struct ectx *x, CXFile f)
{
	char *name, *real, *safe;
	json_t *hit;
	const char *r;
	CXString raw;

	if (!f)
		return "";
	raw = clang_getFileName(f);
	name = utf8_safe(clang_getCString(raw));
	hit = json_object_get(x->relcache, name);
	if (!hit) {
		/* the real name for realpath(), the UTF-8-safe one for the facts */
		real = realpath(clang_getCString(raw) ? clang_getCString(raw) : "", NULL);
		if (real && !strncmp(real, x->root, x->rootlen) && real[x->rootlen] == '/')
			r = real + x->rootlen + 1;
		else
			r = real ? real : name;
		safe = utf8_safe(r);
		hit = json_string(safe);
		json_object_set_new(x->relcache, name, hit);
		free(safe);
		free(real);
	}
	clang_disposeString(raw);
	free(name);
	return json_string_value(hit);
}

struct loc {
	CXFile file;
	unsigned line, off;
};

static struct loc loc_of(CXSourceLocation l)
{
	struct loc r;

	clang_getExpansionLocation(l, &r.file, &r.line, NULL, &r.off);
	return r;
}

static struct loc cursor_loc(CXCursor c)
{
	return loc_of(clang_getCursorLocation(c));
}

static bool in_main(struct ectx *x, CXCursor c)
{
	struct loc l = cursor_loc(c);

	return l.file && clang_File_isEqual(l.file, x->mainfile);
}

/* Is F another .c file of a unity build's unit (extract_unit()) than the one recorded? */
static bool other_unit_file(struct ectx *x, CXFile f)
{
	for (unsigned i = 0; f && i < x->n_unit_files; i++)
		if (clang_File_isEqual(f, x->unit_files[i]) && !clang_File_isEqual(f, x->mainfile))
			return true;
	return false;
}

/* The source text of C as written (macro invocations unexpanded), whitespace folded. */
static char *text_of(struct ectx *x, CXCursor c)
{
	CXSourceRange r = clang_getCursorExtent(c);
	struct loc a = loc_of(clang_getRangeStart(r)), b = loc_of(clang_getRangeEnd(r));
	struct strbuf sb = STRBUF_INIT;
	const char *buf;
	size_t size;
	bool space = false;

	if (!a.file || !b.file || !clang_File_isEqual(a.file, b.file) || b.off < a.off)
		return cxs(clang_getCursorSpelling(c));
	buf = clang_getFileContents(x->tu, a.file, &size);
	if (!buf || b.off > size)
		return cxs(clang_getCursorSpelling(c));
	for (unsigned i = a.off; i < b.off; i++) {
		char ch = buf[i];

		if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\\') {
			space = sb.len > 0;
			continue;
		}
		if (space)
			sb_addc(&sb, ' ');
		space = false;
		sb_addc(&sb, ch);
	}
	if (!sb.len)
		return cxs(clang_getCursorSpelling(c));
	{
		char *safe = utf8_safe(sb.buf);

		sb_release(&sb);
		return safe;
	}
}

/* libclang 14 has no operator accessor: read it between the operands. */
static char *binop(struct ectx *x, CXCursor c, struct cvec *ch)
{
	struct loc a, b;
	const char *buf;
	size_t size;
	char op[8];
	unsigned n = 0;

	if (ch->n != 2)
		return xstrdup("");
	a = loc_of(clang_getRangeEnd(clang_getCursorExtent(ch->c[0])));
	b = loc_of(clang_getRangeStart(clang_getCursorExtent(ch->c[1])));
	(void)c;
	if (!a.file || !b.file || !clang_File_isEqual(a.file, b.file) || b.off < a.off)
		return xstrdup("");
	buf = clang_getFileContents(x->tu, a.file, &size);
	if (!buf || b.off > size)
		return xstrdup("");
	for (unsigned i = a.off; i < b.off && n < sizeof(op) - 1; i++)
		if (buf[i] != ' ' && buf[i] != '\t' && buf[i] != '\n' && buf[i] != '\r' &&
		    buf[i] != ')' && buf[i] != '(')
			op[n++] = buf[i];
	op[n] = '\0';
	return xstrdup(op);
}

static char *struct_name_of_type(CXType t)
{
	char *s;
	const char *p;
	char *r;

	t = clang_getCanonicalType(t);
	while (t.kind == CXType_Pointer)
		t = clang_getCanonicalType(clang_getPointeeType(t));
	if (t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray)
		t = clang_getCanonicalType(clang_getArrayElementType(t));
	s = cxs(clang_getTypeSpelling(clang_getCanonicalType(t)));
	p = s;
	for (;;) {
		if (!strncmp(p, "const ", 6))
			p += 6;
		else if (!strncmp(p, "volatile ", 9))
			p += 9;
		else
			break;
	}
	if (!strncmp(p, "struct ", 7))
		p += 7;
	r = xstrdup(p);
	free(s);
	return r;
}

/* "struct.field" of a FieldDecl. */
static char *field_key(CXCursor field)
{
	CXCursor parent = clang_getCursorSemanticParent(field);
	char *sn = struct_name_of_type(clang_getCursorType(parent));
	char *fn = cxs(clang_getCursorSpelling(field));
	char *r = xasprintf("%s.%s", sn, fn);

	free(sn);
	free(fn);
	return r;
}

static int param_index(CXCursor parm)
{
	CXCursor fn = clang_getCursorSemanticParent(parm);
	int n = clang_Cursor_getNumArguments(fn);

	for (int i = 0; i < n; i++)
		if (clang_equalCursors(clang_Cursor_getArgument(fn, (unsigned)i), parm))
			return i;
	return -1;
}

static bool is_poll_table_type(CXType t)
{
	char *s;
	bool r;

	t = clang_getCanonicalType(t);
	if (t.kind != CXType_Pointer)
		return false;
	s = cxs(clang_getTypeSpelling(clang_getCanonicalType(clang_getPointeeType(t))));
	r = strstr(s, "struct poll_table_struct") != NULL;
	free(s);
	return r;
}

static bool is_struct_file_ptr(CXType t)
{
	char *s;
	bool r;

	t = clang_getCanonicalType(t);
	if (t.kind != CXType_Pointer)
		return false;
	s = struct_name_of_type(t);
	r = !strcmp(s, "file");
	free(s);
	return r;
}

struct pt_scan {
	CXCursor fn;
	int param;
};

static bool has_void_ptr_param(CXCursor fn)
{
	int n = clang_Cursor_getNumArguments(fn);

	for (int i = 0; i < n; i++) {
		CXType t = clang_getCanonicalType(clang_getCursorType(clang_Cursor_getArgument(fn, (unsigned)i)));

		if (t.kind == CXType_Pointer && clang_getCanonicalType(clang_getPointeeType(t)).kind == CXType_Void)
			return true;
	}
	return false;
}

/* poll_wait(f, head, (poll_table *)arg): ARG, a parameter of S->fn, carries the table */
static enum CXChildVisitResult pt_scan_cb(CXCursor c, CXCursor parent, CXClientData data)
{
	struct pt_scan *s = data;
	CXCursor a, r;
	char *n;

	(void)parent;
	if (clang_getCursorKind(c) != CXCursor_CallExpr || clang_Cursor_getNumArguments(c) != 3)
		return CXChildVisit_Recurse;
	n = cxs(clang_getCursorSpelling(c));
	if (!strcmp(n, "poll_wait")) {
		a = strip(clang_Cursor_getArgument(c, 2));
		r = clang_getCursorReferenced(a);
		if (clang_getCursorKind(a) == CXCursor_DeclRefExpr && clang_getCursorKind(r) == CXCursor_ParmDecl &&
		    clang_equalCursors(clang_getCursorSemanticParent(r), s->fn))
			s->param = param_index(r);
	}
	free(n);
	return s->param >= 0 ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/*
 * The parameter that carries the poll_table: one of its type, or an untyped
 * one (void *arg of an ioctl-like callback) that the body hands to
 * poll_wait() as its table.
 */
static int pt_param_of(CXCursor fn)
{
	int n = clang_Cursor_getNumArguments(fn);
	bool untyped = false;
	CXCursor def;
	struct pt_scan s;

	for (int i = 0; i < n; i++) {
		CXType t = clang_getCanonicalType(clang_getCursorType(clang_Cursor_getArgument(fn, (unsigned)i)));

		if (is_poll_table_type(clang_getCursorType(clang_Cursor_getArgument(fn, (unsigned)i))))
			return i;
		untyped |= t.kind == CXType_Pointer &&
			   clang_getCanonicalType(clang_getPointeeType(t)).kind == CXType_Void;
	}
	def = clang_getCursorDefinition(fn);
	if (!untyped || clang_Cursor_isNull(def) || !clang_isCursorDefinition(def))
		return -1;
	s.fn = def;
	s.param = -1;
	clang_visitChildren(def, pt_scan_cb, &s);
	return s.param;
}

static bool is_local_var(CXCursor var)
{
	enum CX_StorageClass sc = clang_Cursor_getStorageClass(var);
	CXCursor p = clang_getCursorSemanticParent(var);

	if (sc == CX_SC_Static || sc == CX_SC_Extern)
		return false;
	return clang_getCursorKind(p) == CXCursor_FunctionDecl;
}

/* ---- derivations ---------------------------------------------------------------- */

static void d_set(struct deriv *d, enum dkind k, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void d_set(struct deriv *d, enum dkind k, const char *fmt, ...)
{
	va_list ap;

	memset(d, 0, sizeof(*d));
	d->kind = k;
	d->param = -1;
	if (fmt) {
		va_start(ap, fmt);
		vsnprintf(d->why, sizeof(d->why), fmt, ap);
		va_end(ap);
	}
}

static void derive(struct ectx *x, CXCursor e, struct deriv *d);

struct assign_scan {
	struct ectx *x;
	CXCursor var;
	struct cvec rhs;
	bool address_taken;
};

static enum CXChildVisitResult assign_scan_cb(CXCursor c, CXCursor parent, CXClientData data)
{
	struct assign_scan *s = data;
	enum CXCursorKind k = clang_getCursorKind(c);

	(void)parent;
	if (k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator) {
		struct cvec ch = children(c);

		if (ch.n == 2) {
			CXCursor l = strip(ch.c[0]);

			if (clang_getCursorKind(l) == CXCursor_DeclRefExpr &&
			    clang_equalCursors(clang_getCursorReferenced(l), s->var)) {
				char *op = binop(s->x, c, &ch);

				if (k == CXCursor_CompoundAssignOperator)
					s->address_taken = true;	/* += and friends: not a fixed value */
				else if (!strcmp(op, "="))
					collect_cb(ch.c[1], c, &s->rhs);
				free(op);
			}
		}
		free(ch.c);
	} else if (k == CXCursor_UnaryOperator) {
		struct cvec ch = children(c);
		char *t = text_of(s->x, c);
		size_t tl = strlen(t);

		if (ch.n == 1 && (t[0] == '&' || !strncmp(t, "++", 2) || !strncmp(t, "--", 2) ||
				  (tl > 2 && (!strcmp(t + tl - 2, "++") || !strcmp(t + tl - 2, "--"))))) {
			CXCursor o = strip(ch.c[0]);

			if (clang_getCursorKind(o) == CXCursor_DeclRefExpr &&
			    clang_equalCursors(clang_getCursorReferenced(o), s->var))
				s->address_taken = true;
		}
		free(t);
		free(ch.c);
	}
	return CXChildVisit_Recurse;
}

static void add_alt(struct deriv *d, const char *t)
{
	for (int i = 0; i < d->nalts; i++)
		if (!strcmp(d->alts[i], t))
			return;
	if (d->nalts < 4)
		snprintf(d->alts[d->nalts++], sizeof(d->alts[0]), "%s", t);
}

static void derive_local_uncached(struct ectx *x, CXCursor var, struct deriv *d)
{
	struct assign_scan s = { x, var, { NULL, 0, 0 }, false };
	CXCursor init = clang_Cursor_getVarDeclInitializer(var);
	CXCursor fn = clang_getCursorSemanticParent(var);
	char *name = cxs(clang_getCursorSpelling(var));
	struct cvec src = { NULL, 0, 0 };
	char *first_text = NULL;
	bool differ = false;

	clang_visitChildren(fn, assign_scan_cb, &s);
	if (s.address_taken) {
		d_set(d, D_DYNAMIC, "local '%s' is changed through a pointer or compound assignment", name);
		goto out;
	}
	if (!clang_Cursor_isNull(init) && clang_getCursorKind(init) != CXCursor_InvalidFile)
		collect_cb(init, var, &src);
	for (unsigned i = 0; i < s.rhs.n; i++)
		collect_cb(s.rhs.c[i], var, &src);
	/* the sources that are not constants (a NULL initializer is no source) */
	d_set(d, D_UNKNOWN, "local '%s' is never assigned", name);
	for (unsigned i = 0, have = 0; i < src.n; i++) {
		struct deriv o;
		char *t;

		derive(x, src.c[i], &o);
		if (o.kind == D_CONST)
			continue;
		t = text_of(x, src.c[i]);
		if (!have) {
			*d = o;
			first_text = t;
			have = 1;
		} else {
			if (strcmp(t, first_text))
				differ = true;
			free(t);
		}
	}
	if (differ) {
		d_set(d, D_DYNAMIC, "local '%s' is assigned different objects", name);
		for (unsigned i = 0; i < src.n; i++) {
			struct deriv o;
			char *t;

			derive(x, src.c[i], &o);
			if (o.kind == D_CONST)
				continue;
			t = text_of(x, src.c[i]);
			add_alt(d, t);
			free(t);
		}
	}
out:
	free(first_text);
	free(src.c);
	free(s.rhs.c);
	free(name);
}

/* A cache of derivations (locals, function results) in this translation unit. */
static struct deriv *memo_get(struct ectx *x, const char *key, bool *busy)
{
	json_t *m = json_object_get(x->memo, key);

	*busy = m && json_integer_value(m) < 0;
	return m && !*busy ? &x->memo_v[json_integer_value(m)] : NULL;
}

static void memo_put(struct ectx *x, const char *key, const struct deriv *d)
{
	if (!d) {
		json_object_set_new(x->memo, key, json_integer(-1));	/* in progress */
		return;
	}
	if (x->memo_n == x->memo_alloc) {
		x->memo_alloc = x->memo_alloc * 2 + 16;
		x->memo_v = realloc(x->memo_v, x->memo_alloc * sizeof(*x->memo_v));
		if (!x->memo_v)
			die("out of memory");
	}
	x->memo_v[x->memo_n] = *d;
	json_object_set_new(x->memo, key, json_integer((json_int_t)x->memo_n++));
}

/*
 * What local VAR holds: each local is derived once per translation unit
 * (its function is scanned for assignments), not once per use; a local
 * that depends on itself (a = b; b = a) is unknown.
 */
static void derive_local(struct ectx *x, CXCursor var, struct deriv *d)
{
	CXSourceLocation l = clang_getCursorLocation(var);
	unsigned off;
	CXFile f;
	char key[48];
	bool busy;
	struct deriv *m;

	clang_getSpellingLocation(l, &f, NULL, NULL, &off);
	snprintf(key, sizeof(key), "l%p:%u", f, off);
	m = memo_get(x, key, &busy);
	if (m) {
		*d = *m;
		return;
	}
	if (busy) {
		d_set(d, D_UNKNOWN, "a local derived from itself");
		return;
	}
	memo_put(x, key, NULL);
	derive_local_uncached(x, var, d);
	memo_put(x, key, d);
}

struct ret_scan {
	struct ectx *x;
	struct deriv *d;
	bool have, differ;
};

static enum CXChildVisitResult ret_scan_cb(CXCursor c, CXCursor parent, CXClientData data)
{
	struct ret_scan *s = data;
	struct deriv o;
	struct cvec r;

	(void)parent;
	if (clang_getCursorKind(c) != CXCursor_ReturnStmt)
		return CXChildVisit_Recurse;
	r = children(c);
	if (r.n == 1) {
		derive(s->x, r.c[0], &o);
		if (o.kind != D_CONST) {
			bool same = s->have && o.kind == s->d->kind &&
				    (o.kind != D_PARAM || o.param == s->d->param) &&
				    (o.kind != D_GLOBAL || !strcmp(o.name, s->d->name)) &&
				    (o.kind != D_CALL || !strcmp(o.name, s->d->name));

			if (!s->have) {
				*s->d = o;
				s->have = true;
			} else if (!same) {
				s->differ = true;
			}
		}
	}
	free(r.c);
	return CXChildVisit_Continue;
}

/*
 * What the result of function DEF is made of, in its own parameters: every
 * "return E;" of its body, constants (NULL) left out.  False when DEF has no
 * body here.  Returns that disagree make the result a lookup (dynamic);
 * a body that returns only constants gives no object (unknown).
 */
static bool derive_returns(struct ectx *x, CXCursor def, struct deriv *d)
{
	struct ret_scan s = { x, d, false, false };
	struct cvec ch;
	char *usr, *name;
	struct deriv *memo;
	bool busy;

	if (clang_Cursor_isNull(def) || !clang_isCursorDefinition(def))
		return false;
	ch = children(def);
	if (!ch.n || clang_getCursorKind(ch.c[ch.n - 1]) != CXCursor_CompoundStmt) {
		free(ch.c);
		return false;
	}
	usr = cxs(clang_getCursorUSR(def));
	memo = memo_get(x, usr, &busy);
	if (memo || busy) {
		if (busy)
			d_set(d, D_UNKNOWN, "a recursive function's result");
		else
			*d = *memo;
		free(usr);
		free(ch.c);
		return true;
	}
	memo_put(x, usr, NULL);
	name = cxs(clang_getCursorSpelling(def));
	clang_visitChildren(ch.c[ch.n - 1], ret_scan_cb, &s);
	if (!s.have)
		d_set(d, D_UNKNOWN, "%s() returns no object", name);
	else if (s.differ)
		d_set(d, D_DYNAMIC, "%s() returns different objects", name);
	memo_put(x, usr, d);
	free(name);
	free(usr);
	free(ch.c);
	return true;
}

static void derive_call(struct ectx *x, CXCursor call, struct deriv *d)
{
	CXCursor callee = clang_getCursorReferenced(call);
	char *name = cxs(clang_getCursorSpelling(call));
	int n = clang_Cursor_getNumArguments(call);
	struct deriv inner;
	bool have = false;
	struct deriv acc;

	if (!strcmp(name, "get_current")) {
		d_set(d, D_TASK, "the current task");
		goto out;
	}
	if (clang_getCursorKind(callee) != CXCursor_FunctionDecl) {
		/* which function it calls is not known here: neither is what it returns */
		struct cvec ch = children(call);
		char *t = ch.n ? text_of(x, ch.c[0]) : xstrdup("?");

		d_set(d, D_UNKNOWN, "result of the indirect call %s()", t);
		free(t);
		free(ch.c);
		goto out;
	}
	if (derive_returns(x, clang_getCursorDefinition(callee), &inner)) {
		if (inner.kind == D_PARAM && inner.param >= 0 && inner.param < n) {
			derive(x, clang_Cursor_getArgument(call, (unsigned)inner.param), d);
			if (d->kind == D_PARAM && !d->first[0]) {
				if (inner.first[0])
					snprintf(d->first, sizeof(d->first), "%s", inner.first);
				else
					snprintf(d->first, sizeof(d->first), "%s()", name);
			}
			/* the fields the callee reads through count as read here */
			for (int i = 0; i < inner.nfields && d->nfields < 8; i++)
				snprintf(d->fields[d->nfields++], sizeof(d->fields[0]), "%s", inner.fields[i]);
		} else if (inner.kind == D_PARAM) {
			d_set(d, D_UNKNOWN, "%s() returns an argument it was not given", name);
		} else {
			*d = inner;
		}
		goto out;
	}
	/*
	 * The body is in another file, or nowhere in the tree (a binary
	 * object, another module): record the call and the object its
	 * arguments come from; the whole tree decides (classify.c).
	 */
	d_set(d, D_CALL, NULL);
	snprintf(d->name, sizeof(d->name), "%s", name);
	for (int i = 0; i < n; i++) {
		struct deriv a;

		derive(x, clang_Cursor_getArgument(call, (unsigned)i), &a);
		if (a.kind == D_CONST)
			continue;
		if (a.kind == D_GLOBAL) {
			d->call_global = true;
			continue;
		}
		if (a.kind != D_PARAM || (have && a.param != acc.param)) {
			have = false;
			d->call_acc = false;
			snprintf(d->why, sizeof(d->why), "looked up by %.60s() from %.100s", name,
				 a.kind == D_PARAM ? "several objects" : a.why[0] ? a.why : "an unknown object");
			goto out;
		}
		if (!have)
			acc = a;
		have = true;
	}
	if (have) {
		d->call_acc = true;
		d->param = acc.param;
		if (acc.first[0])
			snprintf(d->first, sizeof(d->first), "%s", acc.first);
		else
			snprintf(d->first, sizeof(d->first), "%s()", name);
		d->nfields = acc.nfields;
		memcpy(d->fields, acc.fields, sizeof(d->fields));
	} else {
		snprintf(d->why, sizeof(d->why), "looked up by %s()%s", name,
			 d->call_global ? " in a global table" : "");
	}
out:
	free(name);
}

static void derive(struct ectx *x, CXCursor e, struct deriv *d)
{
	enum CXCursorKind k;
	struct cvec ch;

	if (++x->depth > 24) {
		d_set(d, D_UNKNOWN, "derivation too deep");
		x->depth--;
		return;
	}
	e = strip(e);
	k = clang_getCursorKind(e);
	ch = children(e);
	switch (k) {
	case CXCursor_DeclRefExpr: {
		CXCursor r = clang_getCursorReferenced(e);
		enum CXCursorKind rk = clang_getCursorKind(r);

		if (rk == CXCursor_ParmDecl) {
			d_set(d, D_PARAM, NULL);
			d->param = param_index(r);
		} else if (rk == CXCursor_VarDecl && is_local_var(r)) {
			derive_local(x, r, d);
		} else if (rk == CXCursor_VarDecl) {
			d_set(d, D_GLOBAL, NULL);
			char *n = cxs(clang_getCursorSpelling(r));

			snprintf(d->name, sizeof(d->name), "%s", n);
			free(n);
		} else {
			d_set(d, D_CONST, NULL);
		}
		break;
	}
	case CXCursor_MemberRefExpr:
		if (!ch.n) {
			d_set(d, D_UNKNOWN, "member of an implicit object");
			break;
		}
		derive(x, ch.c[0], d);
		if (d->kind == D_PARAM && !d->first[0]) {
			char *f = cxs(clang_getCursorSpelling(e));

			snprintf(d->first, sizeof(d->first), "%s", f);
			free(f);
		}
		if (d->nfields < 8) {
			CXCursor fd = clang_getCursorReferenced(e);

			if (clang_getCursorKind(fd) == CXCursor_FieldDecl) {
				char *k = field_key(fd);

				snprintf(d->fields[d->nfields++], sizeof(d->fields[0]), "%s", k);
				free(k);
			}
		}
		break;
	case CXCursor_UnaryOperator:
		if (ch.n)
			derive(x, ch.c[0], d);
		else
			d_set(d, D_UNKNOWN, "operator without operand");
		break;
	case CXCursor_ArraySubscriptExpr: {
		struct deriv idx;

		if (ch.n != 2) {
			d_set(d, D_UNKNOWN, "subscript");
			break;
		}
		derive(x, ch.c[1], &idx);
		if (idx.kind == D_CONST) {
			derive(x, ch.c[0], d);
		} else if (idx.kind == D_PARAM && (derive(x, ch.c[0], d), d->kind == D_PARAM) &&
			   d->param == idx.param) {
			/*
			 * &dev->queue[priv->type]: an array of the object chosen by
			 * a selector read from the same object.  Fixed for the file
			 * when nothing writes the selector after open: the fields it
			 * is read through join the head's (classify.c checks them).
			 */
			for (int i = 0; i < idx.nfields && d->nfields < 8; i++)
				snprintf(d->fields[d->nfields++], sizeof(d->fields[0]), "%s", idx.fields[i]);
		} else {
			char *t = text_of(x, ch.c[1]);

			d_set(d, D_DYNAMIC, "indexed by '%s'", t);
			free(t);
		}
		break;
	}
	case CXCursor_ConditionalOperator: {
		char *a, *b;

		if (ch.n != 3) {
			d_set(d, D_UNKNOWN, "conditional");
			break;
		}
		a = text_of(x, ch.c[1]);
		b = text_of(x, ch.c[2]);
		if (!strcmp(a, b)) {
			derive(x, ch.c[1], d);
		} else {
			char *c = text_of(x, ch.c[0]);

			d_set(d, D_DYNAMIC, "chosen by '%s'", c);
			add_alt(d, a);
			add_alt(d, b);
			free(c);
		}
		free(a);
		free(b);
		break;
	}
	case CXCursor_CallExpr:
		derive_call(x, e, d);
		break;
	case CXCursor_StmtExpr: {
		/* container_of(): ({ void *__mptr = (void *)(ptr); ...; (type *)(__mptr - off); }) */
		struct cvec body = ch.n ? children(ch.c[0]) : (struct cvec){ NULL, 0, 0 };

		if (body.n)
			derive(x, body.c[body.n - 1], d);
		else
			d_set(d, D_UNKNOWN, "empty statement expression");
		free(body.c);
		break;
	}
	case CXCursor_BinaryOperator:
		/* pointer arithmetic: the object is on the left */
		if (ch.n == 2)
			derive(x, ch.c[0], d);
		else
			d_set(d, D_UNKNOWN, "binary operator");
		break;
	case CXCursor_IntegerLiteral:
	case CXCursor_CharacterLiteral:
	case CXCursor_StringLiteral:
	case CXCursor_UnaryExpr:	/* sizeof, offsetof */
	case CXCursor_CXXNullPtrLiteralExpr:
		d_set(d, D_CONST, NULL);
		break;
	default: {
		char *ks = cxs(clang_getCursorKindSpelling(k));

		if (ch.n == 1) {
			derive(x, ch.c[0], d);
		} else {
			d_set(d, D_UNKNOWN, "cannot follow a %s", ks);
		}
		free(ks);
		break;
	}
	}
	free(ch.c);
	x->depth--;
}

/* A string from the fixed buffers of struct deriv: truncation can split a UTF-8 sequence. */
static json_t *jsafe(const char *s)
{
	char *t = utf8_safe(s);
	json_t *j = json_string(t);

	free(t);
	return j;
}

static json_t *deriv_json(const struct deriv *d)
{
	json_t *o;

	switch (d->kind) {
	case D_GLOBAL:
		o = json_pack("{s:s, s:o}", "k", "global", "name", jsafe(d->name));
		break;
	case D_PARAM:
		o = json_pack("{s:s, s:i, s:o}", "k", "param", "param", d->param, "first", jsafe(d->first));
		break;
	case D_TASK:
		o = json_pack("{s:s}", "k", "task");
		break;
	case D_DYNAMIC:
		o = json_pack("{s:s, s:o}", "k", "dynamic", "why", jsafe(d->why));
		break;
	case D_CONST:
		o = json_pack("{s:s}", "k", "const");
		break;
	case D_CALL:
		o = json_pack("{s:s, s:o, s:b, s:b}", "k", "call", "callee", jsafe(d->name), "acc",
			      d->call_acc, "global_arg", d->call_global);
		if (d->call_acc)
			json_object_set_new(o, "param", json_integer(d->param));
		json_object_set_new(o, "first", jsafe(d->first));
		if (d->why[0])
			json_object_set_new(o, "why", jsafe(d->why));
		break;
	default:
		o = json_pack("{s:s, s:o}", "k", "unknown", "why", jsafe(d->why));
		break;
	}
	if (d->nalts) {
		json_t *a = json_array();

		for (int i = 0; i < d->nalts; i++)
			json_array_append_new(a, jsafe(d->alts[i]));
		json_object_set_new(o, "alts", a);
	}
	if (d->nfields) {
		json_t *a = json_array();

		for (int i = 0; i < d->nfields; i++)
			json_array_append_new(a, jsafe(d->fields[i]));
		json_object_set_new(o, "fields", a);
	}
	return o;
}

/* ---- function bodies ------------------------------------------------------------ */

static bool is_pt_ref(struct ectx *x, CXCursor c)
{
	CXCursor r;

	if (!x->fs || x->fs->pt < 0)
		return false;
	c = strip(c);
	if (clang_getCursorKind(c) != CXCursor_DeclRefExpr)
		return false;
	r = clang_getCursorReferenced(c);
	return clang_getCursorKind(r) == CXCursor_ParmDecl &&
	       clang_equalCursors(clang_getCursorSemanticParent(r), x->fs->fn) &&
	       param_index(r) == x->fs->pt;
}

static void add_event(struct ectx *x, json_t *ev, CXCursor at, int cond)
{
	json_object_set_new(ev, "line", json_integer(cursor_loc(at).line));
	json_object_set_new(ev, "cond", json_boolean(cond > 0));
	json_array_append_new(x->fs->events, ev);
}

static const char *const busy_api[] = {
	"sk_busy_loop", "sk_can_busy_loop", "sk_busy_loop_timeout", "napi_busy_loop",
	"napi_busy_loop_rcu", "sk_busy_loop_end", "busy_loop_timeout", NULL,
};

static bool in_list(const char *const *list, const char *s)
{
	for (; *list; list++)
		if (!strcmp(*list, s))
			return true;
	return false;
}

static void summarize(struct ectx *x, CXCursor fn);
static void walk(struct ectx *x, CXCursor c, int cond);

static enum CXVisitorResult fops_field_cb(CXCursor c, CXClientData d)
{
	CXType t = clang_getCanonicalType(clang_getCursorType(c));
	char *sn;

	if (t.kind != CXType_Pointer)
		return CXVisit_Continue;
	sn = struct_name_of_type(t);
	if (!strcmp(sn, "file_operations"))
		*(bool *)d = true;
	free(sn);
	return *(bool *)d ? CXVisit_Break : CXVisit_Continue;
}

/* Is C (stripped) &global_struct_var or global_struct_var?  Returns the var cursor. */
static bool global_object_ref(CXCursor c, CXCursor *var)
{
	c = strip(c);
	if (clang_getCursorKind(c) == CXCursor_UnaryOperator) {
		struct cvec ch = children(c);

		if (ch.n == 1)
			c = strip(ch.c[0]);
		free(ch.c);
	}
	if (clang_getCursorKind(c) != CXCursor_DeclRefExpr)
		return false;
	*var = clang_getCursorReferenced(c);
	if (clang_getCursorKind(*var) != CXCursor_VarDecl || is_local_var(*var))
		return false;
	CXType t = clang_getCanonicalType(clang_getCursorType(*var));

	if (t.kind != CXType_Record)
		return false;
	/*
	 * Creation sites matter for file_operations objects, and for the
	 * objects that carry one to a framework (a miscdevice's .fops).
	 */
	char *sn = struct_name_of_type(t);
	bool r = !strcmp(sn, "file_operations");

	free(sn);
	if (!r)
		clang_Type_visitFields(t, fops_field_cb, &r);
	return r;
}

static void add_ref(struct ectx *x, CXCursor var, const char *ctx, CXCursor at, json_t *extra)
{
	char *vn = cxs(clang_getCursorSpelling(var));
	char *ty = struct_name_of_type(clang_getCursorType(var));
	json_t *r = json_pack("{s:s, s:s, s:s, s:s, s:I}", "var", vn, "type", ty, "ctx", ctx,
			      "in", x->cur_fn ? x->cur_fn : "", "line", (json_int_t)cursor_loc(at).line);

	if (extra)
		json_object_update(r, extra);
	json_array_append_new(x->refs, r);
	json_decref(extra);
	free(vn);
	free(ty);
}

/* A function whose body this translation unit has, outside the main file: a header's inline. */
static bool header_inline(struct ectx *x, CXCursor fn)
{
	CXCursor def = clang_getCursorDefinition(fn);

	return !clang_Cursor_isNull(def) && clang_isCursorDefinition(def) &&
	       !clang_File_isEqual(cursor_loc(def).file, x->mainfile);
}

static void handle_call(struct ectx *x, CXCursor call, int cond, const char *assigned_to)
{
	CXCursor callee = clang_getCursorReferenced(call);
	enum CXCursorKind ck = clang_getCursorKind(callee);
	char *name = cxs(clang_getCursorSpelling(call));
	int n = clang_Cursor_getNumArguments(call);
	bool direct = ck == CXCursor_FunctionDecl;
	int ptpos = -1;
	struct cvec ch;

	for (int i = 0; i < n; i++)
		if (is_pt_ref(x, clang_Cursor_getArgument(call, (unsigned)i)))
			ptpos = i;
	if (x->fs && direct && !header_inline(x, callee)) {
		/*
		 * open helpers: drm_open() -> drm_open_helper(filp) sets
		 * private_data (a header's inline is read here, not a helper)
		 */
		for (int i = 0; i < n; i++) {
			CXCursor a = strip(clang_Cursor_getArgument(call, (unsigned)i)), r;

			if (clang_getCursorKind(a) != CXCursor_DeclRefExpr)
				continue;
			r = clang_getCursorReferenced(a);
			/* (dev_err(dev, "%p", file): a variadic argument is only printed) */
			if (clang_getCursorKind(r) == CXCursor_ParmDecl &&
			    is_struct_file_ptr(clang_getCursorType(r)) &&
			    i < clang_Cursor_getNumArguments(callee)) {
				json_array_append_new(x->fs->file_calls, json_string(name));
				break;
			}
		}
	}

	/* references to struct objects passed to calls: creation sites */
	for (int i = 0; i < n; i++) {
		CXCursor var;

		if (global_object_ref(clang_Cursor_getArgument(call, (unsigned)i), &var)) {
			char *ctx = xasprintf("call:%s:%d", name, i);
			json_t *args = json_array();

			for (int j = 0; j < n; j++) {
				char *t = text_of(x, clang_Cursor_getArgument(call, (unsigned)j));

				json_array_append_new(args, json_string(t));
				free(t);
			}
			add_ref(x, var, ctx, call, json_pack("{s:o, s:s}", "args", args,
							      "result", assigned_to ? assigned_to : ""));
			free(ctx);
		}
	}
	if (direct && !strcmp(name, "wake_up_pollfree") && n == 1) {
		CXCursor a = strip(clang_Cursor_getArgument(call, 0));

		if (clang_getCursorKind(a) == CXCursor_UnaryOperator) {
			struct cvec u = children(a);

			if (u.n == 1)
				a = strip(u.c[0]);
			free(u.c);
		}
		if (clang_getCursorKind(a) == CXCursor_MemberRefExpr) {
			char *k = field_key(clang_getCursorReferenced(a));

			json_array_append_new(x->pollfree, json_string(k));
			free(k);
		}
	}

	if (x->fs && x->fs->pt >= 0) {
		if (direct && !strcmp(name, "poll_wait") && n == 3) {
			CXCursor head = clang_Cursor_getArgument(call, 1);
			CXCursor h = strip(head);
			struct deriv d;
			char *t = text_of(x, head);
			json_t *ev;

			derive(x, head, &d);
			ev = json_pack("{s:s, s:s, s:o, s:b}", "k", "wait", "head", t,
				       "base", deriv_json(&d), "pt_ok", ptpos == 2);
			if (clang_getCursorKind(h) == CXCursor_UnaryOperator) {
				struct cvec u = children(h);

				if (u.n == 1)
					h = strip(u.c[0]);
				free(u.c);
			}
			if (clang_getCursorKind(h) == CXCursor_MemberRefExpr) {
				char *k = field_key(clang_getCursorReferenced(h));

				json_object_set_new(ev, "field", json_string(k));
				free(k);
			}
			add_event(x, ev, call, cond);
			free(t);
			goto out;
		}
		if (direct && (!strcmp(name, "poll_requested_events") ||
			       !strcmp(name, "poll_does_not_wait")) && ptpos >= 0) {
			add_event(x, json_pack("{s:s, s:s}", "k", "pt_use", "what", name), call, cond);
			goto out;
		}
		if (direct && in_list(busy_api, name))
			add_event(x, json_pack("{s:s, s:s}", "k", "busy", "what", name), call, cond);
		if (ptpos >= 0) {
			json_t *args = json_array(), *ev;

			for (int i = 0; i < n; i++) {
				CXCursor a = clang_Cursor_getArgument(call, (unsigned)i);
				struct deriv d;
				char *t = text_of(x, a);

				derive(x, a, &d);
				json_array_append_new(args, json_pack("{s:s, s:o}", "text", t,
								      "base", deriv_json(&d)));
				free(t);
			}
			if (direct) {
				CXCursor def = clang_getCursorDefinition(callee);
				struct loc dl = cursor_loc(clang_isCursorDefinition(def) ? def : callee);
				bool st = clang_Cursor_getStorageClass(callee) == CX_SC_Static;

				bool typed = ptpos < clang_Cursor_getNumArguments(callee) &&
					     (is_poll_table_type(clang_getCursorType(
						      clang_Cursor_getArgument(callee, (unsigned)ptpos))) ||
					      pt_param_of(callee) == ptpos);

				ev = json_pack("{s:s, s:s, s:s, s:b, s:i, s:o, s:b, s:b}", "k", "call",
					       "callee", name, "callee_file", relpath(x, dl.file),
					       "static", st, "pt_pos", ptpos, "args", args, "pt_typed", typed,
					       "variadic", ptpos >= clang_Cursor_getNumArguments(callee));
				if (!clang_Cursor_isNull(def) && clang_isCursorDefinition(def) &&
				    !clang_File_isEqual(cursor_loc(def).file, x->mainfile))
					summarize(x, def);
			} else {
				char *ct, *member = xstrdup(""), *type = xstrdup("");
				CXCursor cal;
				bool pm;

				ch = children(call);
				cal = ch.n ? ch.c[0] : call;
				ct = text_of(x, cal);
				if (ck == CXCursor_VarDecl && is_local_var(callee)) {
					/* poll = pde->proc_ops->proc_poll; ... poll(file, pts) */
					CXCursor init = strip(clang_Cursor_getVarDeclInitializer(callee));
					struct assign_scan sc = { x, callee, { NULL, 0, 0 }, false };

					if (clang_getCursorKind(init) != CXCursor_MemberRefExpr) {
						clang_visitChildren(clang_getCursorSemanticParent(callee),
								    assign_scan_cb, &sc);
						if (sc.rhs.n)
							init = strip(sc.rhs.c[0]);
					}
					free(sc.rhs.c);
					if (clang_getCursorKind(init) == CXCursor_MemberRefExpr) {
						callee = clang_getCursorReferenced(init);
						ck = clang_getCursorKind(callee);
					}
				}
				if (ck == CXCursor_FieldDecl) {
					char *k = field_key(callee);
					char *dot = strrchr(k, '.');

					free(member);
					free(type);
					member = xstrdup(dot ? dot + 1 : k);
					if (dot)
						*dot = '\0';
					type = xstrdup(k);
					free(k);
				}
				/*
				 * A lower layer's poll method returns the mask
				 * (__poll_t); any other callback handed the table
				 * (an ioctl-like command op) is followed like a
				 * helper (classify.c)
				 */
				{
					char *rt = cxs(clang_getTypeSpelling(clang_getCursorType(call)));

					pm = strstr(rt, "__poll_t") || strstr(member, "poll");
					free(rt);
				}
				ev = json_pack("{s:s, s:s, s:s, s:s, s:i, s:o, s:b}", "k", "icall", "expr", ct,
					       "member", member, "type", type, "pt_pos", ptpos,
					       "args", args, "poll_method", pm);
				free(ct);
				free(member);
				free(type);
				free(ch.c);
			}
			add_event(x, ev, call, cond);
		}
	}
	/* walk the callee expression and the arguments that are not the poll_table */
	ch = children(call);
	for (unsigned i = 0; i < ch.n; i++)
		if (!is_pt_ref(x, ch.c[i]))
			walk(x, ch.c[i], cond);
	free(ch.c);
out:
	free(name);
}

static void handle_assign(struct ectx *x, CXCursor l, CXCursor r, CXCursor at)
{
	CXCursor ls = strip(l), rs = strip(r), var, fref;
	char *field, *sname;

	/* WRITE_ONCE(p->x, v) writes *(volatile typeof(p->x) *)&(p->x) */
	for (int i = 0; i < 2 && clang_getCursorKind(ls) == CXCursor_UnaryOperator; i++) {
		struct cvec u = children(ls);

		if (u.n == 1)
			ls = strip(u.c[0]);
		free(u.c);
	}
	if (clang_getCursorKind(ls) != CXCursor_MemberRefExpr)
		return;
	fref = clang_getCursorReferenced(ls);
	if (clang_getCursorKind(fref) != CXCursor_FieldDecl)
		return;
	field = cxs(clang_getCursorSpelling(fref));
	{
		char *k = field_key(fref), *dot = strrchr(k, '.');

		/*
		 * pointer members written here: a head read through them may
		 * move; scalar ones: a selector of the head may change
		 */
		enum CXTypeKind tk = clang_getCanonicalType(clang_getCursorType(fref)).kind;

		if (tk != CXType_Record && tk != CXType_ConstantArray && tk != CXType_IncompleteArray &&
		    x->cur_fn) {
			json_t *a = json_object_get(x->field_sets, k);
			bool seen = false;
			size_t i;
			json_t *v;

			if (!a) {
				a = json_array();
				json_object_set_new(x->field_sets, k, a);
			}
			json_array_foreach(a, i, v)
				seen |= !strcmp(json_string_value(v), x->cur_fn);
			if (!seen)
				json_array_append_new(a, json_string(x->cur_fn));
		}
		if (dot)
			*dot = '\0';
		sname = k;
	}
	if (!strcmp(sname, "file") && (!strcmp(field, "private_data") || !strcmp(field, "f_poll_head"))) {
		struct deriv d;
		char *t = text_of(x, r), *lt = text_of(x, l);

		derive(x, r, &d);
		json_array_append_new(!strcmp(field, "private_data") ? x->pd_sets : x->ph_sets,
				      json_pack("{s:s, s:I, s:s, s:s, s:o}", "in", x->cur_fn ? x->cur_fn : "",
						"line", (json_int_t)cursor_loc(at).line, "lhs", lt, "rhs", t,
						"base", deriv_json(&d)));
		free(t);
		free(lt);
	}
	if (clang_getCursorKind(rs) == CXCursor_UnaryOperator) {
		struct cvec u = children(rs);

		if (u.n == 1)
			rs = strip(u.c[0]);
		free(u.c);
	}
	if (clang_getCursorKind(rs) == CXCursor_DeclRefExpr &&
	    clang_getCursorKind(clang_getCursorReferenced(rs)) == CXCursor_FunctionDecl) {
		CXCursor f = clang_getCursorReferenced(rs);
		char *fname = cxs(clang_getCursorSpelling(f));
		CXCursor def = clang_getCursorDefinition(f);
		struct loc dl = cursor_loc(clang_isCursorDefinition(def) ? def : f);
		char *lt = text_of(x, l);

		json_array_append_new(x->assigns,
				      json_pack("{s:s, s:s, s:s, s:s, s:b, s:s, s:I, s:s, s:b}", "type", sname,
						"member", field, "function", fname, "function_file",
						relpath(x, dl.file), "static",
						clang_Cursor_getStorageClass(f) == CX_SC_Static, "in",
						x->cur_fn ? x->cur_fn : "", "line",
						(json_int_t)cursor_loc(at).line, "lhs", lt, "pt",
						pt_param_of(f) >= 0));
		free(lt);
		free(fname);
	}
	if (global_object_ref(r, &var)) {
		char *ctx = xasprintf("assign:%s.%s", sname, field);
		char *lt = text_of(x, l);

		add_ref(x, var, ctx, at, json_pack("{s:s}", "lhs", lt));
		free(lt);
		free(ctx);
	}
	free(field);
	free(sname);
}

/* *(T *)&(x): the form of a store through WRITE_ONCE() */
static bool is_deref_of_address(CXCursor c)
{
	struct cvec u;
	bool r = false;

	c = strip(c);
	if (clang_getCursorKind(c) != CXCursor_UnaryOperator)
		return false;
	u = children(c);
	r = u.n == 1 && clang_getCursorKind(strip(u.c[0])) == CXCursor_UnaryOperator;
	free(u.c);
	return r;
}

/* NULL, 0, (void *)0 */
static bool is_null_const(CXCursor c)
{
	enum CXCursorKind k;

	c = strip(c);
	k = clang_getCursorKind(c);
	if (k == CXCursor_IntegerLiteral) {
		CXEvalResult e = clang_Cursor_Evaluate(c);
		bool zero = e && clang_EvalResult_getKind(e) == CXEval_Int && clang_EvalResult_getAsLongLong(e) == 0;

		if (e)
			clang_EvalResult_dispose(e);
		return zero;
	}
	return k == CXCursor_GNUNullExpr || k == CXCursor_CXXNullPtrLiteralExpr;
}

/* The E of a condition "!E", "E == NULL", "NULL == E", unlikely(!E): else a null cursor. */
static CXCursor null_tested(struct ectx *x, CXCursor c)
{
	for (int i = 0; i < 8; i++) {
		enum CXCursorKind k;
		struct cvec ch;
		char *t;
		CXCursor r = clang_getNullCursor();
		bool more = false;

		c = strip(c);
		k = clang_getCursorKind(c);
		ch = children(c);
		t = text_of(x, c);
		if (k == CXCursor_UnaryOperator && ch.n == 1 && !strncmp(t, "!!", 2)) {
			struct cvec in = children(strip(ch.c[0]));

			/* !!(E): a truth value; unlikely(!E) is __builtin_expect(!!(!E), 1) */
			if (in.n == 1) {
				c = in.c[0];
				more = true;
			}
			free(in.c);
		} else if (k == CXCursor_UnaryOperator && ch.n == 1 && t[0] == '!') {
			r = strip(ch.c[0]);
		} else if (k == CXCursor_BinaryOperator && ch.n == 2) {
			char *op = binop(x, c, &ch);

			if (!strcmp(op, "==")) {
				if (is_null_const(ch.c[1]) && !is_null_const(ch.c[0]))
					r = strip(ch.c[0]);
				else if (is_null_const(ch.c[0]) && !is_null_const(ch.c[1]))
					r = strip(ch.c[1]);
			}
			free(op);
		} else if (k == CXCursor_CallExpr && clang_Cursor_getNumArguments(c) >= 1) {
			char *n = cxs(clang_getCursorSpelling(c));

			if (!strcmp(n, "__builtin_expect")) {
				c = clang_Cursor_getArgument(c, 0);
				more = true;
			}
			free(n);
		}
		free(t);
		free(ch.c);
		if (!more)
			return r;
	}
	return clang_getNullCursor();
}

static void walk(struct ectx *x, CXCursor c, int cond)
{
	enum CXCursorKind k = clang_getCursorKind(c);
	struct cvec ch;

	if (k == CXCursor_CallExpr) {
		handle_call(x, c, cond, NULL);
		return;
	}
	if (k == CXCursor_DeclRefExpr) {
		if (is_pt_ref(x, c))
			add_event(x, json_pack("{s:s, s:s}", "k", "pt_use", "what", "other"), c, cond);
		return;
	}
	ch = children(c);
	switch (k) {
	case CXCursor_IfStmt: {
		/* the then-branch of "if (!E)" runs only when E is NULL */
		CXCursor saved = x->guard;

		for (unsigned i = 0; i < ch.n; i++) {
			x->guard = i == 1 && x->fs && x->fs->pt >= 0 ? null_tested(x, ch.c[0]) : clang_getNullCursor();
			walk(x, ch.c[i], i == 0 ? cond : cond + 1);
		}
		x->guard = saved;
		break;
	}
	case CXCursor_ForStmt:
	case CXCursor_WhileStmt:
		for (unsigned i = 0; i < ch.n; i++)
			walk(x, ch.c[i], cond + 1);
		break;
	case CXCursor_SwitchStmt:
	case CXCursor_ConditionalOperator:
		for (unsigned i = 0; i < ch.n; i++)
			walk(x, ch.c[i], i == 0 ? cond : cond + 1);
		break;
	case CXCursor_BinaryOperator:
	case CXCursor_CompoundAssignOperator: {
		char *op = binop(x, c, &ch);

		if (ch.n == 2 && (!strcmp(op, ",") || !op[0]) && is_deref_of_address(ch.c[0])) {
			/*
			 * Inside a macro the text between the operands is the
			 * macro's argument list: *(volatile T *)&(x) = (v) is
			 * WRITE_ONCE()'s store, and nothing else writes "*&x"
			 */
			free(op);
			op = xstrdup("=");
		}

		if (!strcmp(op, "&&") || !strcmp(op, "||")) {
			walk(x, ch.c[0], cond);
			walk(x, ch.c[1], cond + 1);
		} else if (!strcmp(op, "=") && ch.n == 2) {
			if (is_pt_ref(x, ch.c[1])) {
				/* req.pt = wait: the table escapes into memory */
				char *lt = text_of(x, ch.c[0]);

				add_event(x, json_pack("{s:s, s:s, s:s}", "k", "pt_use", "what", "store",
						       "into", lt), c, cond);
				free(lt);
				free(op);
				break;
			}
			handle_assign(x, ch.c[0], ch.c[1], c);
			walk(x, ch.c[0], cond);
			if (clang_getCursorKind(strip(ch.c[1])) == CXCursor_CallExpr) {
				char *lt = text_of(x, ch.c[0]);

				handle_call(x, strip(ch.c[1]), cond, lt);
				free(lt);
			} else {
				walk(x, ch.c[1], cond);
			}
		} else {
			for (unsigned i = 0; i < ch.n; i++)
				walk(x, ch.c[i], cond);
		}
		free(op);
		break;
	}
	case CXCursor_VarDecl: {
		CXCursor init = clang_Cursor_getVarDeclInitializer(c);

		if (!clang_Cursor_isNull(init) && is_pt_ref(x, init)) {
			/* poll_table *pt = wait: an alias the analysis does not follow */
			char *vn = cxs(clang_getCursorSpelling(c));

			add_event(x, json_pack("{s:s, s:s, s:s}", "k", "pt_use", "what", "store", "into", vn),
				  c, cond);
			free(vn);
		} else if (!clang_Cursor_isNull(init) && clang_getCursorKind(strip(init)) == CXCursor_CallExpr) {
			char *vn = cxs(clang_getCursorSpelling(c));

			handle_call(x, strip(init), cond, vn);
			free(vn);
		} else {
			for (unsigned i = 0; i < ch.n; i++)
				walk(x, ch.c[i], cond);
		}
		break;
	}
	case CXCursor_ReturnStmt:
		for (unsigned i = 0; i < ch.n; i++)
			walk(x, ch.c[i], cond);
		if (x->fs && x->fs->pt >= 0) {
			json_t *ev = json_pack("{s:s}", "k", "return");

			if (ch.n) {
				char *t = text_of(x, ch.c[0]);

				json_object_set_new(ev, "value", json_string(t));
				free(t);
			}
			if (!clang_Cursor_isNull(x->guard)) {
				/* if (!dev) return EPOLLERR;: what dev is, so that the whole tree can tell */
				struct deriv d;
				char *t = text_of(x, x->guard);

				derive(x, x->guard, &d);
				json_object_set_new(ev, "null_test", deriv_json(&d));
				json_object_set_new(ev, "null_text", json_string(t));
				free(t);
			}
			add_event(x, ev, c, cond);
		}
		break;
	case CXCursor_GotoStmt:
		if (x->fs && x->fs->pt >= 0)
			add_event(x, json_pack("{s:s}", "k", "goto"), c, cond);
		break;
	default:
		for (unsigned i = 0; i < ch.n; i++)
			walk(x, ch.c[i], cond);
		break;
	}
	free(ch.c);
}

/* ---- functions, initializers, the translation unit ----------------------------- */

static json_t *fn_key(struct ectx *x, CXCursor fn, const char **file)
{
	char *name = cxs(clang_getCursorSpelling(fn));
	json_t *k;

	*file = relpath(x, cursor_loc(fn).file);
	k = json_string(name);
	free(name);
	return k;
}

static bool body_has_text(struct ectx *x, CXCursor fn, const char *needle)
{
	char *t = text_of(x, fn);
	bool r = strstr(t, needle) != NULL;

	free(t);
	return r;
}

/* Split "f(a, g(b, c), d)" at its top-level commas, from the '(' at P.  Returns the ')' or NULL. */
static const char *split_args(const char *p, const char *end, struct strvec *args)
{
	int depth = 0;
	const char *a = p + 1;

	for (; p < end; p++) {
		if (*p == '(' || *p == '[' || *p == '{') {
			depth++;
		} else if (*p == ')' || *p == ']' || *p == '}') {
			if (--depth == 0) {
				char *t = xstrndup(a, (size_t)(p - a));
				char *s = t, *e = t + strlen(t);

				while (*s == ' ' || *s == '\t' || *s == '\n')
					s++;
				while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n'))
					*--e = '\0';
				sv_push(args, s);
				free(t);
				return p;
			}
		} else if (*p == ',' && depth == 1) {
			char *t = xstrndup(a, (size_t)(p - a));
			char *s = t, *e = t + strlen(t);

			while (*s == ' ' || *s == '\t' || *s == '\n')
				s++;
			while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n'))
				*--e = '\0';
			sv_push(args, s);
			free(t);
			a = p + 1;
		}
	}
	return NULL;
}

/*
 * Code the configuration compiles out (#ifdef CONFIG_X) is still code: the
 * taxonomy decides on the source as it stands, all configs considered.
 * libclang does not parse it, so when the function's text has conditional
 * compilation, read the text (comments blanked) for poll_wait() calls and
 * calls that hand the poll_table on, on lines where the AST has none.
 */
static void skipped_events(struct ectx *x, CXCursor fn, struct fstate *fs)
{
	CXSourceRange ext = clang_getCursorExtent(fn);
	struct loc fa = loc_of(clang_getRangeStart(ext)), fb = loc_of(clang_getRangeEnd(ext));
	const char *buf;
	size_t size;
	char *text, *ptname;
	unsigned line = fa.line;
	json_t *seen, *ev;
	size_t i;

	if (!fa.file || !clang_File_isEqual(fa.file, x->mainfile))
		return;
	buf = clang_getFileContents(x->tu, fa.file, &size);
	if (!buf || fb.off > size || fb.off <= fa.off)
		return;
	{
		/* its bytes end up in the facts (heads as written): UTF-8 only */
		char *raw = xstrndup(buf + fa.off, fb.off - fa.off);

		text = utf8_safe(raw);
		free(raw);
	}
	if (!strstr(text, "#if")) {
		free(text);
		return;
	}
	seen = json_object();	/* only now: the returns above would leak it */
	/* blank comments and strings, keeping newlines */
	for (char *p = text; *p; p++) {
		if (p[0] == '/' && p[1] == '*') {
			for (; *p && !(p[0] == '*' && p[1] == '/'); p++)
				if (*p != '\n')
					*p = ' ';
			if (!*p)
				break;	/* unterminated: the text ends inside the comment */
			p[0] = p[1] = ' ';
			p++;
		} else if (p[0] == '/' && p[1] == '/') {
			for (; *p && *p != '\n'; p++)
				*p = ' ';
			if (!*p)
				break;
		} else if (*p == '"') {
			for (p++; *p && *p != '"' && *p != '\n'; p++) {
				if (*p == '\\' && p[1])
					*p++ = ' ';
				*p = ' ';
			}
			if (!*p)
				break;
		}
	}
	json_array_foreach(fs->events, i, ev) {
		char k[24];

		snprintf(k, sizeof(k), "%lld", json_integer_value(json_object_get(ev, "line")));
		json_object_set_new(seen, k, json_true());
	}
	ptname = cxs(clang_getCursorSpelling(clang_Cursor_getArgument(fn, (unsigned)fs->pt)));
	for (const char *p = text, *end = text + strlen(text); p < end; p++) {
		const char *q = p;
		struct strvec args = STRVEC_INIT;
		char *name, k[24];
		int ptpos = -1;

		if (*p == '\n')
			line++;
		if (!(*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')) ||
		    (p > text && (p[-1] == '_' || (p[-1] >= 'a' && p[-1] <= 'z') ||
				  (p[-1] >= 'A' && p[-1] <= 'Z') || (p[-1] >= '0' && p[-1] <= '9'))))
			continue;
		while (q < end && (*q == '_' || (*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') ||
				   (*q >= '0' && *q <= '9')))
			q++;
		snprintf(k, sizeof(k), "%u", line);
		if (q >= end || *q != '(' || json_object_get(seen, k) || p == text)
			continue;
		name = xstrndup(p, (size_t)(q - p));
		if (!split_args(q, end, &args)) {
			sv_clear(&args);
			free(name);
			continue;
		}
		for (size_t a = 0; a < args.n; a++)
			if (!strcmp(args.v[a], ptname))
				ptpos = (int)a;
		if (!strcmp(name, "poll_wait") && args.n == 3) {
			json_array_append_new(fs->events,
					      json_pack("{s:s, s:s, s:{s:s, s:s}, s:b, s:I, s:b, s:b}", "k", "wait",
							"head", args.v[1], "base", "k", "unknown", "why",
							"in code this configuration compiles out", "pt_ok", ptpos == 2,
							"line", (json_int_t)line, "cond", 1, "skipped", 1));
		} else if (ptpos >= 0 && strcmp(name, "poll_requested_events") &&
			   strcmp(name, "poll_does_not_wait") && strcmp(name, ptname)) {
			json_t *ja = json_array();

			for (size_t a = 0; a < args.n; a++)
				json_array_append_new(ja, json_pack("{s:s, s:{s:s, s:s}}", "text", args.v[a], "base",
								    "k", "unknown", "why",
								    "in code this configuration compiles out"));
			json_array_append_new(fs->events,
					      json_pack("{s:s, s:s, s:s, s:b, s:i, s:o, s:b, s:I, s:b, s:b}", "k", "call",
							"callee", name, "callee_file", x->mainrel, "static", 1,
							"pt_pos", ptpos, "args", ja, "pt_typed", 1,
							"line", (json_int_t)line, "cond", 1, "skipped", 1));
		}
		sv_clear(&args);
		free(name);
	}
	free(ptname);
	free(text);
	json_decref(seen);
}

/* Summarize FN (a definition): its params and, when it takes a poll_table, its events. */
static void summarize(struct ectx *x, CXCursor fn)
{
	const char *file;
	json_t *name = fn_key(x, fn, &file);
	char *key = xasprintf("%s:%s", file, json_string_value(name));
	struct fstate fs, *saved = x->fs;
	const char *saved_fn = x->cur_fn;
	struct cvec ch;
	json_t *params = json_array(), *summary;
	int n = clang_Cursor_getNumArguments(fn), filep = -1;
	bool in_main_file = clang_File_isEqual(cursor_loc(fn).file, x->mainfile);

	/* a unity build: a function of another .c file of the unit is in that file's facts */
	if (json_object_get(x->fn_done, key) || (!in_main_file && other_unit_file(x, cursor_loc(fn).file))) {
		json_decref(name);
		json_decref(params);
		free(key);
		return;
	}
	json_object_set_new(x->fn_done, key, json_true());
	fs.fn = fn;
	fs.pt = pt_param_of(fn);
	fs.events = json_array();
	fs.file_calls = json_array();
	for (int i = 0; i < n; i++) {
		CXCursor p = clang_Cursor_getArgument(fn, (unsigned)i);
		char *pn = cxs(clang_getCursorSpelling(p));
		char *pt = cxs(clang_getTypeSpelling(clang_getCursorType(p)));

		if (filep < 0 && is_struct_file_ptr(clang_getCursorType(p)))
			filep = i;
		json_array_append_new(params, json_pack("{s:s, s:s}", "name", pn, "type", pt));
		free(pn);
		free(pt);
	}
	ch = children(fn);
	if (ch.n && clang_getCursorKind(ch.c[ch.n - 1]) == CXCursor_CompoundStmt) {
		CXCursor saved_guard = x->guard;

		x->fs = &fs;
		x->guard = clang_getNullCursor();
		x->cur_fn = json_string_value(name);
		/* header inlines are walked only for their poll facts */
		if (in_main_file || fs.pt >= 0)
			walk(x, ch.c[ch.n - 1], 0);
		if (in_main_file && fs.pt >= 0)
			skipped_events(x, fn, &fs);
		x->fs = saved;
		x->guard = saved_guard;
		x->cur_fn = saved_fn;
	}
	free(ch.c);
	if (fs.pt >= 0 || !in_main_file) {
		summary = json_pack("{s:o, s:s, s:I, s:b, s:o, s:i, s:i, s:o, s:b}",
				    "name", json_incref(name), "file", file,
				    "line", (json_int_t)cursor_loc(fn).line,
				    "static", clang_Cursor_getStorageClass(fn) == CX_SC_Static,
				    "params", params, "pt", fs.pt, "file_param", filep,
				    "events", fs.events,
				    "busy_text", fs.pt >= 0 && body_has_text(x, fn, "POLL_BUSY_LOOP"));
		{
			CXSourceRange r = clang_getCursorExtent(fn);
			struct loc a = loc_of(clang_getRangeStart(r)), b = loc_of(clang_getRangeEnd(r));

			json_object_set_new(summary, "end_line", json_integer(b.line));
			(void)a;
		}
		json_array_append_new(x->functions, summary);
	} else {
		json_decref(params);
		json_decref(fs.events);
	}
	if (in_main_file && clang_Cursor_getStorageClass(fn) != CX_SC_Static &&
	    clang_getCanonicalType(clang_getCursorResultType(fn)).kind == CXType_Pointer) {
		/* what another file's call of this function returns */
		struct deriv d;

		if (derive_returns(x, fn, &d))
			json_object_set_new(x->returns, json_string_value(name), deriv_json(&d));
	}
	if (in_main_file) {
		CXSourceRange r = clang_getCursorExtent(fn);

		json_object_set_new(x->defs, json_string_value(name),
				    json_pack("[I, I, O]", (json_int_t)cursor_loc(fn).line,
					      (json_int_t)loc_of(clang_getRangeEnd(r)).line, fs.file_calls));
	}
	json_decref(fs.file_calls);
	json_decref(name);
	free(key);
}

struct field_list {
	struct cvec f;
};

static enum CXVisitorResult field_cb(CXCursor c, CXClientData d)
{
	collect_cb(c, c, &((struct field_list *)d)->f);
	return CXVisit_Continue;
}

/* Was this initializer written by a macro?  Then name the macro. */
static char *macro_of(struct ectx *x, CXCursor c)
{
	CXSourceLocation l = clang_getCursorLocation(c);
	CXFile sf, ef;
	unsigned soff, eoff;
	const char *buf;
	size_t size, i;

	clang_getSpellingLocation(l, &sf, NULL, NULL, &soff);
	clang_getExpansionLocation(l, &ef, NULL, NULL, &eoff);
	if (sf && ef && clang_File_isEqual(sf, ef) && soff == eoff)
		return NULL;
	buf = clang_getFileContents(x->tu, ef, &size);
	if (!buf || eoff >= size)
		return xstrdup("?");
	for (i = eoff; i < size && (buf[i] == '_' || (buf[i] >= 'a' && buf[i] <= 'z') ||
				      (buf[i] >= 'A' && buf[i] <= 'Z') || (buf[i] >= '0' && buf[i] <= '9')); i++)
		;
	return i > eoff ? xstrndup(buf + eoff, i - eoff) : xstrdup("?");
}

static void handle_init(struct ectx *x, CXCursor var, const char *vname, CXType type, CXCursor init);

static void record_ops(struct ectx *x, CXCursor var, const char *vname, const char *sname,
		       json_t *members, json_t *ptfns, const char *macro)
{
	bool interesting = false;
	const char *k;
	json_t *v;

	json_object_foreach(members, k, v) {
		if (strstr(k, "poll") || json_object_get(ptfns, k) || json_object_get(v, "opaque"))
			interesting = true;
	}
	/* file_operations always: ->poll may be added at run time */
	interesting |= !strcmp(sname, "file_operations");
	if (!interesting)
		return;
	json_array_append_new(x->ops, json_pack("{s:s, s:s, s:I, s:b, s:s, s:O, s:O}",
						  "var", vname, "type", sname,
						  "line", (json_int_t)cursor_loc(var).line,
						  "static", clang_Cursor_getStorageClass(var) == CX_SC_Static,
						  "macro", macro ? macro : "",
						  "members", members, "pt_members", ptfns));
}

static void handle_init(struct ectx *x, CXCursor var, const char *vname, CXType type, CXCursor init)
{
	CXType ct = clang_getCanonicalType(type);
	struct cvec ch = children(init);
	struct field_list fl = { { NULL, 0, 0 } };
	json_t *members, *ptfns, *fnfiles;
	char *sname, *macro = NULL;

	if (ct.kind == CXType_ConstantArray || ct.kind == CXType_IncompleteArray) {
		CXType et = clang_getArrayElementType(ct);

		for (unsigned i = 0; i < ch.n; i++) {
			CXCursor e = strip(ch.c[i]);

			if (clang_getCursorKind(e) == CXCursor_InitListExpr) {
				char *n = xasprintf("%s[%u]", vname, i);

				handle_init(x, var, n, et, e);
				free(n);
			}
		}
		free(ch.c);
		return;
	}
	if (ct.kind != CXType_Record) {
		free(ch.c);
		return;
	}
	sname = struct_name_of_type(ct);
	clang_Type_visitFields(ct, field_cb, &fl);
	members = json_object();
	ptfns = json_object();
	fnfiles = json_object();
	for (unsigned i = 0; i < ch.n; i++) {
		CXCursor item = ch.c[i], value = item, fieldc = clang_getNullCursor(), gvar;
		struct cvec ich = children(item);
		char *field;

		if (clang_getCursorKind(item) == CXCursor_UnexposedExpr && ich.n >= 2 &&
		    clang_getCursorKind(ich.c[0]) == CXCursor_MemberRef) {
			for (unsigned j = 0; j + 1 < ich.n; j++)
				if (clang_getCursorKind(ich.c[j]) == CXCursor_MemberRef)
					fieldc = clang_getCursorReferenced(ich.c[j]);
			value = ich.c[ich.n - 1];
			if (!macro)
				macro = macro_of(x, ich.c[0]);
		} else if (i < fl.f.n) {
			fieldc = fl.f.c[i];
		}
		free(ich.c);
		if (clang_Cursor_isNull(fieldc))
			continue;
		field = cxs(clang_getCursorSpelling(fieldc));
		value = strip(value);
		if (clang_getCursorKind(value) == CXCursor_UnaryOperator) {
			struct cvec u = children(value);

			if (u.n == 1 && clang_getCursorKind(strip(u.c[0])) == CXCursor_DeclRefExpr &&
			    clang_getCursorKind(clang_getCursorReferenced(strip(u.c[0]))) == CXCursor_FunctionDecl)
				value = strip(u.c[0]);
			free(u.c);
		}
		if (clang_getCursorKind(value) == CXCursor_DeclRefExpr &&
		    clang_getCursorKind(clang_getCursorReferenced(value)) == CXCursor_FunctionDecl) {
			CXCursor f = clang_getCursorReferenced(value);
			CXCursor def = clang_getCursorDefinition(f);
			char *fname = cxs(clang_getCursorSpelling(f));
			struct loc dl = cursor_loc(clang_isCursorDefinition(def) ? def : f);
			bool st = clang_Cursor_getStorageClass(f) == CX_SC_Static;

			json_object_set_new(members, field, json_pack("{s:s, s:s, s:b}", "function", fname,
								       "file", relpath(x, dl.file), "static", st));
			if (pt_param_of(f) >= 0)
				json_object_set_new(ptfns, field, json_true());
			else if (!clang_isCursorDefinition(def) && has_void_ptr_param(f))
				/* no body here: it could take a poll_table through its void * */
				json_object_set_new(json_object_get(members, field), "opaque", json_true());
			free(fname);
		} else if (clang_getCursorKind(value) == CXCursor_InitListExpr) {
			char *n = xasprintf("%s.%s", vname, field);

			handle_init(x, var, n, clang_getCursorType(fieldc), value);
			free(n);
		} else if (global_object_ref(value, &gvar)) {
			char *ctx = xasprintf("init:%s.%s", sname, field);
			const char *saved = x->cur_fn;

			x->cur_fn = vname;
			add_ref(x, gvar, ctx, value, NULL);
			x->cur_fn = saved;
			free(ctx);
		}
		free(field);
	}
	record_ops(x, var, vname, sname, members, ptfns, macro);
	json_decref(members);
	json_decref(ptfns);
	json_decref(fnfiles);
	free(macro);
	free(sname);
	free(fl.f.c);
	free(ch.c);
}

static enum CXChildVisitResult top_cb(CXCursor c, CXCursor parent, CXClientData data)
{
	struct ectx *x = data;
	enum CXCursorKind k = clang_getCursorKind(c);

	(void)parent;
	if (!in_main(x, c))
		return CXChildVisit_Continue;
	if (k == CXCursor_FunctionDecl && clang_isCursorDefinition(c)) {
		summarize(x, c);
	} else if (k == CXCursor_VarDecl) {
		CXCursor init = clang_Cursor_getVarDeclInitializer(c);

		if (!clang_Cursor_isNull(init) && clang_getCursorKind(init) == CXCursor_InitListExpr) {
			char *vn = cxs(clang_getCursorSpelling(c));

			handle_init(x, c, vn, clang_getCursorType(c), init);
			free(vn);
		}
	}
	return CXChildVisit_Continue;
}

/* Static local ops structs (rare) live inside functions: look for them too. */
static enum CXChildVisitResult local_static_cb(CXCursor c, CXCursor parent, CXClientData data)
{
	struct ectx *x = data;

	(void)parent;
	if (clang_getCursorKind(c) == CXCursor_VarDecl &&
	    clang_Cursor_getStorageClass(c) == CX_SC_Static) {
		CXCursor init = clang_Cursor_getVarDeclInitializer(c);

		if (!clang_Cursor_isNull(init) && clang_getCursorKind(init) == CXCursor_InitListExpr) {
			char *vn = cxs(clang_getCursorSpelling(c));

			handle_init(x, c, vn, clang_getCursorType(c), init);
			free(vn);
		}
		return CXChildVisit_Continue;
	}
	return CXChildVisit_Recurse;
}

static void inclusion_cb(CXFile f, CXSourceLocation *stack, unsigned len, CXClientData data)
{
	json_t *deps = data;
	char *n = cxs(clang_getFileName(f));

	(void)stack;
	(void)len;
	json_object_set_new(deps, n, json_true());
	free(n);
}

static const char *cx_error_name(enum CXErrorCode e)
{
	switch (e) {
	case CXError_Failure: return "libclang failed to parse";
	case CXError_Crashed: return "libclang crashed";
	case CXError_InvalidArguments: return "invalid arguments to libclang";
	case CXError_ASTReadError: return "AST read error";
	default: return "unknown libclang error";
	}
}

/*
 * Names the kernel makes with __COUNTER__ (__UNIQUE_ID(), the
 * compiletime_assert() of BUILD_BUG_ON()) lose their number: it counts
 * every use in every header before, so it changes when a header does, and
 * with a precompiled header (pch.c), which is not a change of the file.
 */
static const char *const counter_made[] = { "__UNIQUE_ID_", "__compiletime_assert_", NULL };

static bool has_counter_name(const char *s)
{
	for (int m = 0; counter_made[m]; m++)
		if (strstr(s, counter_made[m]))
			return true;
	return false;
}

static void strip_counter(char *s)
{
	for (int m = 0; counter_made[m]; m++) {
		const char *made = counter_made[m];

		for (char *p = strstr(s, made); p; p = strstr(p + 1, made)) {
			char *e = p + strlen(made), *d;

			while (isalnum((unsigned char)*e) || *e == '_')
				e++;
			for (d = e; d > p && isdigit((unsigned char)d[-1]); d--)
				;
			memmove(d, e, strlen(e) + 1);
		}
	}
}

static void strip_counters(json_t *j)
{
	const char *k;
	json_t *v;
	size_t i;

	if (json_is_object(j)) {
		struct strvec renamed = STRVEC_INIT;

		json_object_foreach(j, k, v) {
			strip_counters(v);
			if (has_counter_name(k))
				sv_push(&renamed, k);
		}
		for (i = 0; i < renamed.n; i++) {
			char *t = xstrdup(renamed.v[i]);

			strip_counter(t);
			json_object_set(j, t, json_object_get(j, renamed.v[i]));
			if (strcmp(t, renamed.v[i]))
				json_object_del(j, renamed.v[i]);
			free(t);
		}
		sv_clear(&renamed);
	} else if (json_is_array(j)) {
		json_array_foreach(j, i, v)
			strip_counters(v);
	} else if (json_is_string(j) && has_counter_name(json_string_value(j))) {
		char *t = xstrdup(json_string_value(j));

		strip_counter(t);
		json_string_set(j, t);
		free(t);
	}
}

unsigned remap_unsaved(struct CXUnsavedFile *uf)
{
	const struct remap *r = parse_remap();

	if (!r)
		return 0;
	uf->Filename = r->path;
	uf->Contents = r->text;
	uf->Length = (unsigned long)r->len;
	return 1;
}

/*
 * The parse of extract_tu() and parse_tu_only(): one index per file.
 * excludeDeclarationsFromPCH: visiting the translation unit then walks the
 * declarations this parse read, not the whole precompiled header
 * (-include-pch, pch.c): reading those back costs more than the parse.
 * Without a PCH every declaration is this parse's and nothing changes.
 */
static enum CXErrorCode parse_file(const char *abs, const char *const *args, int nargs, CXIndex *idx,
				   CXTranslationUnit *tu)
{
	unsigned opts = CXTranslationUnit_KeepGoing | CXTranslationUnit_IgnoreNonErrorsFromIncludedFiles;
	struct CXUnsavedFile uf;
	unsigned nuf = remap_unsaved(&uf);

	*idx = clang_createIndex(1, 0);
	*tu = NULL;
	return clang_parseTranslationUnit2(*idx, abs, args, nargs, &uf, nuf, opts, tu);
}

/* The parse of extract_tu() and nothing else: the parse floor of 'make bench'. */
int parse_tu_only(const char *root, const char *relp, const char *const *args, int nargs, bool *errors)
{
	CXIndex idx;
	CXTranslationUnit tu;
	char *abs = path_join(root, relp);
	int rc = -1;

	*errors = false;
	if (parse_file(abs, args, nargs, &idx, &tu) == CXError_Success && tu) {
		for (unsigned i = 0; i < clang_getNumDiagnostics(tu) && !*errors; i++) {
			CXDiagnostic dg = clang_getDiagnostic(tu, i);

			*errors = clang_getDiagnosticSeverity(dg) >= CXDiagnostic_Error;
			clang_disposeDiagnostic(dg);
		}
		clang_disposeTranslationUnit(tu);
		rc = 0;
	}
	clang_disposeIndex(idx);
	free(abs);
	return rc;
}

/*
 * The facts of file RELP (ABS) of translation unit TU; NULL with *err set
 * when they cannot be encoded.  UNIT: the .c files of a unity build, each
 * recorded on its own (extract_unit()), or NULL.
 */
static json_t *facts_of(CXTranslationUnit tu, const char *root, const char *relp, const char *abs,
			const CXFile *unit, unsigned nunit, char **err)
{
	struct ectx x;
	json_t *out, *deps, *deplist;
	unsigned nd;
	const char *k;
	json_t *v;
	char *saferel;

	memset(&x, 0, sizeof(x));
	x.unit_files = unit;
	x.n_unit_files = nunit;
	x.guard = clang_getNullCursor();
	x.tu = tu;
	x.root = root;
	x.rootlen = strlen(root);
	saferel = utf8_safe(relp);	/* the facts name files in UTF-8 */
	x.mainrel = saferel;
	x.mainfile = clang_getFile(tu, abs);
	x.functions = json_array();
	x.fn_done = json_object();
	x.ops = json_array();
	x.assigns = json_array();
	x.refs = json_array();
	x.pd_sets = json_array();
	x.ph_sets = json_array();
	x.pollfree = json_array();
	x.errors = json_array();
	x.relcache = json_object();
	x.defs = json_object();
	x.field_sets = json_object();
	x.returns = json_object();
	x.memo = json_object();

	nd = clang_getNumDiagnostics(tu);
	for (unsigned i = 0; i < nd; i++) {
		CXDiagnostic dg = clang_getDiagnostic(tu, i);
		enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(dg);

		if (sev >= CXDiagnostic_Error && json_array_size(x.errors) < 50) {
			struct loc l = loc_of(clang_getDiagnosticLocation(dg));
			char *msg = cxs(clang_getDiagnosticSpelling(dg));

			json_array_append_new(x.errors, json_pack("{s:s, s:I, s:s, s:b}", "file",
								  relpath(&x, l.file), "line", (json_int_t)l.line,
								  "msg", msg, "fatal", sev == CXDiagnostic_Fatal));
			free(msg);
		}
		clang_disposeDiagnostic(dg);
	}
	clang_visitChildren(clang_getTranslationUnitCursor(tu), top_cb, &x);
	{
		/* function-scope static ops structs */
		struct cvec top = children(clang_getTranslationUnitCursor(tu));

		for (unsigned i = 0; i < top.n; i++)
			if (clang_getCursorKind(top.c[i]) == CXCursor_FunctionDecl &&
			    clang_isCursorDefinition(top.c[i]) && in_main(&x, top.c[i]))
				clang_visitChildren(top.c[i], local_static_cb, &x);
		free(top.c);
	}
	deps = json_object();
	clang_getInclusions(tu, inclusion_cb, deps);
	deplist = json_array();
	json_object_foreach(deps, k, v)
		json_array_append_new(deplist, json_string(k));
	json_decref(deps);

	out = json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			"file", saferel, "functions", x.functions, "ops", x.ops, "assigns", x.assigns,
			"refs", x.refs, "private_data_sets", x.pd_sets, "poll_head_sets", x.ph_sets,
			"pollfree", x.pollfree, "errors", x.errors, "deps", deplist,
			"defs", x.defs);
	if (out) {
		json_object_set_new(out, "field_sets", x.field_sets);
		json_object_set_new(out, "returns", x.returns);
		if (x.n_unit_files) {
			/* a unity build: the .c files of the unit, which see each other's statics */
			json_t *uf = json_array();

			for (unsigned i = 0; i < x.n_unit_files; i++)
				json_array_append_new(uf, json_string(relpath(&x, x.unit_files[i])));
			json_object_set_new(out, "unit", uf);
		}
		strip_counters(out);
	} else {	/* a string jansson refused: say so rather than lose the file */
		json_decref(x.field_sets);
		json_decref(x.returns);
		*err = xstrdup("the facts cannot be encoded as JSON (please report this bug)");
	}
	free(saferel);
	json_decref(x.fn_done);
	json_decref(x.relcache);
	json_decref(x.memo);
	free(x.memo_v);
	return out;
}

json_t *extract_tu(const char *root, const char *relp, const char *const *args, int nargs, char **err)
{
	return extract_unit(root, relp, args, nargs, NULL, err);
}

json_t *extract_unit(const char *root, const char *relp, const char *const *args, int nargs,
		     const struct strvec *also, char **err)
{
	CXIndex idx;
	CXTranslationUnit tu;
	char *abs = path_join(root, relp);
	size_t nalso = also ? also->n : 0;
	CXFile *unit = xcalloc(nalso + 1, sizeof(*unit));
	unsigned nunit = 0;
	enum CXErrorCode e;
	json_t *out;

	e = parse_file(abs, args, nargs, &idx, &tu);
	if (e != CXError_Success || !tu) {
		*err = xasprintf("%s", cx_error_name(e));
		free(abs);
		free(unit);
		clang_disposeIndex(idx);
		return NULL;
	}
	unit[nunit++] = clang_getFile(tu, abs);
	for (size_t i = 0; i < nalso; i++) {
		char *a = path_join(root, also->v[i]);
		CXFile f = clang_getFile(tu, a);

		/* (not read by this parse: its #include is compiled out) */
		if (f)
			unit[nunit++] = f;
		free(a);
	}
	out = facts_of(tu, root, relp, abs, nalso ? unit : NULL, nalso ? nunit : 0, err);
	if (out && nalso) {
		json_t *inc = json_array();

		for (size_t i = 0; i < nalso; i++) {
			char *a = path_join(root, also->v[i]);
			json_t *f = clang_getFile(tu, a) ? facts_of(tu, root, also->v[i], a, unit, nunit, err) : NULL;

			if (f) {
				json_object_del(f, "deps");	/* the unit's, in its includer's facts */
				json_array_append_new(inc, f);
			} else {
				free(*err);	/* (scan.c says the file was not covered) */
				*err = NULL;
			}
			free(a);
		}
		json_object_set_new(out, "included", inc);
	}
	free(unit);
	clang_disposeTranslationUnit(tu);
	clang_disposeIndex(idx);
	free(abs);
	return out;
}
