// SPDX-License-Identifier: GPL-2.0
/*
 * extract_cx.c - small libclang wrappers of the extract stage (extract_int.h):
 * strings, children, source locations and text, struct and parameter types.
 */
#define _GNU_SOURCE
#include "extract_int.h"

#include <clang-c/Index.h>
#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* ---- small libclang wrappers ------------------------------------------------ */

/* Source text can hold any bytes: what we keep is valid UTF-8 (JSON). */
char *cxs(CXString s)
{
	const char *c = clang_getCString(s);
	char *r = utf8_safe(c);

	clang_disposeString(s);
	return r;
}

enum CXChildVisitResult collect_cb(CXCursor c, CXCursor parent, CXClientData d)
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

struct cvec children(CXCursor c)
{
	struct cvec v = { NULL, 0, 0 };

	clang_visitChildren(c, collect_cb, &v);
	return v;
}

/* Strip implicit casts, parens and explicit casts: the expression underneath. */
CXCursor strip(CXCursor c)
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

const char *relpath(struct ectx *x, CXFile f)
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

struct loc loc_of(CXSourceLocation l)
{
	struct loc r;

	clang_getExpansionLocation(l, &r.file, &r.line, NULL, &r.off);
	return r;
}

struct loc cursor_loc(CXCursor c)
{
	return loc_of(clang_getCursorLocation(c));
}

bool in_main(struct ectx *x, CXCursor c)
{
	struct loc l = cursor_loc(c);

	return l.file && clang_File_isEqual(l.file, x->mainfile);
}

/* Is F another .c file of a unity build's unit (extract_unit()) than the one recorded? */
bool other_unit_file(struct ectx *x, CXFile f)
{
	for (unsigned i = 0; f && i < x->n_unit_files; i++)
		if (clang_File_isEqual(f, x->unit_files[i]) && !clang_File_isEqual(f, x->mainfile))
			return true;
	return false;
}

/* The source text of C as written (macro invocations unexpanded), whitespace folded. */
char *text_of(struct ectx *x, CXCursor c)
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
char *binop(struct ectx *x, CXCursor c, struct cvec *ch)
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

char *struct_name_of_type(CXType t)
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
char *field_key(CXCursor field)
{
	CXCursor parent = clang_getCursorSemanticParent(field);
	char *sn = struct_name_of_type(clang_getCursorType(parent));
	char *fn = cxs(clang_getCursorSpelling(field));
	char *r = xasprintf("%s.%s", sn, fn);

	free(sn);
	free(fn);
	return r;
}

int param_index(CXCursor parm)
{
	CXCursor fn = clang_getCursorSemanticParent(parm);
	int n = clang_Cursor_getNumArguments(fn);

	for (int i = 0; i < n; i++)
		if (clang_equalCursors(clang_Cursor_getArgument(fn, (unsigned)i), parm))
			return i;
	return -1;
}

bool is_poll_table_type(CXType t)
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

bool is_struct_file_ptr(CXType t)
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

bool has_void_ptr_param(CXCursor fn)
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
int pt_param_of(CXCursor fn)
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

bool is_local_var(CXCursor var)
{
	enum CX_StorageClass sc = clang_Cursor_getStorageClass(var);
	CXCursor p = clang_getCursorSemanticParent(var);

	if (sc == CX_SC_Static || sc == CX_SC_Extern)
		return false;
	return clang_getCursorKind(p) == CXCursor_FunctionDecl;
}

