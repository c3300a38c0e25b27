// SPDX-License-Identifier: GPL-2.0
/*
 * extract_life.c - the "life" facts of a file (FACTS.md): what decides how
 * long an object of a struct the file defines lives.  The classifier's
 * guard proof (classify_decide.c) reads them: an object of a struct only
 * this file can name is freed only where this file frees it.
 *
 *   structs     every struct the file defines, with the structs its
 *               members hold by value (an object freed with its container)
 *   frees       each call of a free function: the function it is in and
 *               the struct its pointer argument points to ("" for void *)
 *   allocs      each store into a struct pointer of what a call with
 *               "alloc" in its name (kzalloc(), kvzalloc_noprof(), ...)
 *               returned: the function it is in and the struct
 *   devm        the file allocates through devres (devm_*alloc(),
 *               devres_alloc()): freed on unbind, by no call of its own
 *   callers     for each function of the file, the functions of the file
 *               that call it directly
 *   addr_taken  the functions of the file used otherwise than called
 *               (a callback, an ops member: called from anywhere)
 */
#define _GNU_SOURCE
#include "extract_int.h"

#include <stdlib.h>
#include <string.h>

/* The free functions, and which argument is the object. */
static const struct {
	const char *name;
	int arg;
} free_api[] = {
	{ "kfree", 0 }, { "kvfree", 0 }, { "kfree_sensitive", 0 }, { "kvfree_sensitive", 0 }, { "vfree", 0 },
	{ "kzfree", 0 }, { "kmem_cache_free", 1 }, { "kvfree_call_rcu", 1 }, { "kfree_call_rcu", 1 },
	{ "free_pages_exact", 0 }, { "devm_kfree", 1 },
};

struct lctx {
	struct ectx *x;
	const char *fn;		/* the function being visited, NULL outside one */
	json_t *structs, *frees, *allocs, *callers, *ncalls, *nrefs;
	bool devm;
};

/* The struct a pointer expression points to: its name, "" for void *, NULL for anything else. */
static char *pointee_struct(CXCursor e)
{
	CXType t = clang_getCanonicalType(clang_getCursorType(strip(e)));
	CXType p;

	if (t.kind != CXType_Pointer)
		return NULL;
	p = clang_getCanonicalType(clang_getPointeeType(t));
	if (p.kind == CXType_Void)
		return xstrdup("");
	if (p.kind != CXType_Record)
		return NULL;
	return cxs(clang_getCursorSpelling(clang_getTypeDeclaration(p)));
}

static bool defined_here(struct lctx *l, CXCursor f)
{
	CXCursor def = clang_getCursorDefinition(f);

	return !clang_Cursor_isNull(def) && in_main(l->x, def);
}

static void count(json_t *o, const char *k)
{
	json_object_set_new(o, k, json_integer(json_integer_value(json_object_get(o, k)) + 1));
}

static void note_call(struct lctx *l, CXCursor call)
{
	CXCursor callee = clang_getCursorReferenced(call);
	char *name;
	int n = clang_Cursor_getNumArguments(call);

	if (clang_getCursorKind(callee) != CXCursor_FunctionDecl)
		return;
	name = cxs(clang_getCursorSpelling(callee));
	if (!strncmp(name, "devm_", 5) ? strstr(name, "alloc") || strstr(name, "kmemdup") || strstr(name, "kstrdup")
				       : !strcmp(name, "devres_alloc") || !strncmp(name, "__devres_alloc", 14))
		l->devm = true;
	for (size_t i = 0; i < sizeof(free_api) / sizeof(free_api[0]); i++) {
		char *s;

		if (strcmp(name, free_api[i].name) || free_api[i].arg >= n)
			continue;
		s = pointee_struct(clang_Cursor_getArgument(call, (unsigned)free_api[i].arg));
		if (s)
			json_array_append_new(l->frees, json_pack("{s:s, s:s, s:I}", "in", l->fn ? l->fn : "", "type",
								  s, "line", (json_int_t)cursor_loc(call).line));
		free(s);
	}
	if (defined_here(l, callee)) {
		count(l->ncalls, name);
		if (l->fn) {
			json_t *a = json_object_get(l->callers, name);
			bool seen = false;
			size_t i;
			json_t *v;

			if (!a) {
				a = json_array();
				json_object_set_new(l->callers, name, a);
			}
			json_array_foreach(a, i, v)
				seen |= !strcmp(json_string_value(v), l->fn);
			if (!seen)
				json_array_append_new(a, json_string(l->fn));
		}
	}
	free(name);
}

/* Does the expression E call, anywhere inside it, a function with "alloc" (or kmemdup) in its name? */
static enum CXChildVisitResult find_alloc(CXCursor c, CXCursor parent, CXClientData d)
{
	(void)parent;
	if (clang_getCursorKind(c) == CXCursor_CallExpr) {
		char *n = cxs(clang_getCursorSpelling(c));
		bool hit = strstr(n, "alloc") || strstr(n, "kmemdup");

		free(n);
		if (hit) {
			*(bool *)d = true;
			return CXChildVisit_Break;
		}
	}
	return CXChildVisit_Recurse;
}

static bool calls_alloc(CXCursor e)
{
	bool hit = false;

	if (clang_getCursorKind(e) == CXCursor_CallExpr)
		find_alloc(e, e, &hit);
	if (!hit)
		clang_visitChildren(e, find_alloc, &hit);
	return hit;
}

/* TARGET (a variable or an lvalue) of a struct pointer type gets VALUE: an allocation of that struct when VALUE calls one. */
static void note_store(struct lctx *l, CXType target, CXCursor value, CXCursor at)
{
	CXType t = clang_getCanonicalType(target), p;
	char *s;

	if (t.kind != CXType_Pointer)
		return;
	p = clang_getCanonicalType(clang_getPointeeType(t));
	if (p.kind != CXType_Record || !calls_alloc(value))
		return;
	s = cxs(clang_getCursorSpelling(clang_getTypeDeclaration(p)));
	if (*s)
		json_array_append_new(l->allocs, json_pack("{s:s, s:s, s:I}", "in", l->fn ? l->fn : "", "type", s,
							   "line", (json_int_t)cursor_loc(at).line));
	free(s);
}

static void note_struct(struct lctx *l, CXCursor s)
{
	char *name = cxs(clang_getCursorSpelling(s));
	json_t *emb;
	struct cvec ch;

	if (!*name || strchr(name, ' ') || json_object_get(l->structs, name)) {
		free(name);
		return;
	}
	emb = json_array();
	ch = children(s);
	for (unsigned i = 0; i < ch.n; i++) {
		CXType t;

		if (clang_getCursorKind(ch.c[i]) != CXCursor_FieldDecl)
			continue;
		t = clang_getCanonicalType(clang_getCursorType(ch.c[i]));
		while (t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray)
			t = clang_getCanonicalType(clang_getArrayElementType(t));
		if (t.kind == CXType_Record) {
			char *e = cxs(clang_getCursorSpelling(clang_getTypeDeclaration(t)));

			if (*e)
				json_array_append_new(emb, json_string(e));
			free(e);
		}
	}
	free(ch.c);
	json_object_set_new(l->structs, name, emb);
	free(name);
}

static enum CXChildVisitResult life_cb(CXCursor c, CXCursor parent, CXClientData d)
{
	struct lctx *l = d;
	enum CXCursorKind k = clang_getCursorKind(c);

	(void)parent;
	if (k == CXCursor_CallExpr) {
		note_call(l, c);
	} else if (k == CXCursor_BinaryOperator || k == CXCursor_VarDecl) {
		/* p = kzalloc(...), struct foo *p = kzalloc(...): the last child is the value */
		struct cvec ch = children(c);

		if (ch.n >= 1 && (k == CXCursor_VarDecl || ch.n == 2))
			note_store(l, clang_getCursorType(k == CXCursor_VarDecl ? c : ch.c[0]), ch.c[ch.n - 1], c);
		free(ch.c);
	} else if (k == CXCursor_DeclRefExpr) {
		CXCursor r = clang_getCursorReferenced(c);

		if (clang_getCursorKind(r) == CXCursor_FunctionDecl && defined_here(l, r)) {
			char *name = cxs(clang_getCursorSpelling(r));

			count(l->nrefs, name);
			free(name);
		}
	} else if (k == CXCursor_StructDecl && clang_isCursorDefinition(c) && in_main(l->x, c)) {
		note_struct(l, c);
	}
	return CXChildVisit_Recurse;
}

json_t *life_facts(struct ectx *x)
{
	struct lctx l = { .x = x };
	struct cvec top = children(clang_getTranslationUnitCursor(x->tu));
	json_t *addr = json_array(), *out;
	const char *k;
	json_t *v;

	l.structs = json_object();
	l.frees = json_array();
	l.allocs = json_array();
	l.callers = json_object();
	l.ncalls = json_object();
	l.nrefs = json_object();
	for (unsigned i = 0; i < top.n; i++) {
		char *fn = NULL;

		if (!in_main(x, top.c[i]))
			continue;
		if (clang_getCursorKind(top.c[i]) == CXCursor_FunctionDecl && clang_isCursorDefinition(top.c[i]))
			fn = cxs(clang_getCursorSpelling(top.c[i]));
		else if (clang_getCursorKind(top.c[i]) == CXCursor_StructDecl && clang_isCursorDefinition(top.c[i]))
			note_struct(&l, top.c[i]);
		l.fn = fn;
		clang_visitChildren(top.c[i], life_cb, &l);
		l.fn = NULL;
		free(fn);
	}
	free(top.c);
	/* a function referred to more often than it is called is used as a value: called from anywhere */
	json_object_foreach(l.nrefs, k, v)
		if (json_integer_value(v) > json_integer_value(json_object_get(l.ncalls, k)))
			json_array_append_new(addr, json_string(k));
	out = json_pack("{s:o, s:o, s:o, s:b, s:o, s:o}", "structs", l.structs, "frees", l.frees, "allocs",
			l.allocs, "devm", l.devm, "callers", l.callers, "addr_taken", addr);
	json_decref(l.ncalls);
	json_decref(l.nrefs);
	return out;
}
