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
#include "extract_int.h"

#include <clang-c/Index.h>
#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

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

/* The variable C's initializer, when it is a list: an ops struct, perhaps. */
static void var_init(struct ectx *x, CXCursor c)
{
	CXCursor init = clang_Cursor_getVarDeclInitializer(c);

	if (!clang_Cursor_isNull(init) && clang_getCursorKind(init) == CXCursor_InitListExpr) {
		char *vn = cxs(clang_getCursorSpelling(c));

		handle_init(x, c, vn, clang_getCursorType(c), init);
		free(vn);
	}
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
	} else if (k == CXCursor_FunctionDecl && clang_Cursor_getStorageClass(c) == CX_SC_Static &&
		   clang_Cursor_isNull(clang_getCursorDefinition(c))) {
		/* a static function with no body in the file: what it does was not seen (#if'd out, hidden) */
		char *n = cxs(clang_getCursorSpelling(c));
		bool have = false;
		size_t i;
		json_t *v;

		json_array_foreach(x->unseen, i, v)
			have |= !strcmp(json_string_value(v), n);
		if (!have)
			json_array_append_new(x->unseen, json_string(n));
		free(n);
	} else if (k == CXCursor_VarDecl) {
		var_init(x, c);
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
		var_init(x, c);
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
	x.fop_flow = json_array();
	x.unseen = json_array();
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
		json_object_set_new(out, "fop_flow", x.fop_flow);
		json_object_set_new(out, "unseen_bodies", x.unseen);
		json_object_set_new(out, "life", life_facts(&x));
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
		json_decref(x.fop_flow);
		json_decref(x.unseen);
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
