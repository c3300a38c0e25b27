// SPDX-License-Identifier: GPL-2.0
/*
 * extract_derive.c - what a head expression is derived from (derive()):
 * locals, container_of() statement expressions, accessor inlines and casts,
 * the values callees return; and its JSON form (deriv_json()).
 */
#define _GNU_SOURCE
#include "extract_int.h"

#include <clang-c/Index.h>
#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

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


enum CXChildVisitResult assign_scan_cb(CXCursor c, CXCursor parent, CXClientData data)
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
	struct strvec texts = STRVEC_INIT;
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
	for (unsigned i = 0; i < src.n; i++) {
		struct deriv o;
		char *t;

		derive(x, src.c[i], &o);
		if (o.kind == D_CONST)
			continue;
		t = text_of(x, src.c[i]);
		if (!texts.n)
			*d = o;
		else if (strcmp(t, texts.v[0]))
			differ = true;
		sv_push(&texts, t);
		free(t);
	}
	if (differ) {
		d_set(d, D_DYNAMIC, "local '%s' is assigned different objects", name);
		for (size_t i = 0; i < texts.n; i++)
			add_alt(d, texts.v[i]);
	}
out:
	sv_clear(&texts);
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
bool derive_returns(struct ectx *x, CXCursor def, struct deriv *d)
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

/* A name: a parameter, a local (followed), a global object, or a constant. */
static void derive_declref(struct ectx *x, CXCursor e, struct deriv *d)
{
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
}

/* A member E of the object CH names: the object's derivation, the member read through. */
static void derive_member(struct ectx *x, CXCursor e, const struct cvec *ch, struct deriv *d)
{
	if (!ch->n) {
		d_set(d, D_UNKNOWN, "member of an implicit object");
		return;
	}
	derive(x, ch->c[0], d);
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
}

/* ARRAY[INDEX] (CH: the two): fixed when the index is, or is read from the same object. */
static void derive_subscript(struct ectx *x, const struct cvec *ch, struct deriv *d)
{
	struct deriv idx;

	if (ch->n != 2) {
		d_set(d, D_UNKNOWN, "subscript");
		return;
	}
	derive(x, ch->c[1], &idx);
	if (idx.kind == D_CONST) {
		derive(x, ch->c[0], d);
	} else if (idx.kind == D_PARAM && (derive(x, ch->c[0], d), d->kind == D_PARAM) &&
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
		char *t = text_of(x, ch->c[1]);

		d_set(d, D_DYNAMIC, "indexed by '%s'", t);
		free(t);
	}
}

/* C ? A : B (CH: the three): one head when A and B are written alike, else dynamic. */
static void derive_conditional(struct ectx *x, const struct cvec *ch, struct deriv *d)
{
	char *a, *b;

	if (ch->n != 3) {
		d_set(d, D_UNKNOWN, "conditional");
		return;
	}
	a = text_of(x, ch->c[1]);
	b = text_of(x, ch->c[2]);
	if (!strcmp(a, b)) {
		derive(x, ch->c[1], d);
	} else {
		char *c = text_of(x, ch->c[0]);

		d_set(d, D_DYNAMIC, "chosen by '%s'", c);
		add_alt(d, a);
		add_alt(d, b);
		free(c);
	}
	free(a);
	free(b);
}

void derive(struct ectx *x, CXCursor e, struct deriv *d)
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
	case CXCursor_DeclRefExpr:
		derive_declref(x, e, d);
		break;
	case CXCursor_MemberRefExpr:
		derive_member(x, e, &ch, d);
		break;
	case CXCursor_UnaryOperator:
		if (ch.n)
			derive(x, ch.c[0], d);
		else
			d_set(d, D_UNKNOWN, "operator without operand");
		break;
	case CXCursor_ArraySubscriptExpr:
		derive_subscript(x, &ch, d);
		break;
	case CXCursor_ConditionalOperator:
		derive_conditional(x, &ch, d);
		break;
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

json_t *deriv_json(const struct deriv *d)
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

