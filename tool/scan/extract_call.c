// SPDX-License-Identifier: GPL-2.0
/*
 * extract_call.c - calls and assignments in a function body: poll_wait()
 * and the other uses of the poll_table, the calls that pass it on, creation
 * sites, stores into struct members, file->private_data and f_poll_head.
 */
#define _GNU_SOURCE
#include "extract_int.h"

#include <clang-c/Index.h>
#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* ---- function bodies ------------------------------------------------------------ */

bool is_pt_ref(struct ectx *x, CXCursor c)
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

void add_event(struct ectx *x, json_t *ev, CXCursor at, int cond)
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
bool global_object_ref(CXCursor c, CXCursor *var)
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

void add_ref(struct ectx *x, CXCursor var, const char *ctx, CXCursor at, json_t *extra)
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

/* A fop_flow record K of the function walked, at AT: KEY: VAL when KEY is not NULL. */
void add_flow(struct ectx *x, const char *k, CXCursor at, const char *key, const char *val)
{
	json_t *f;

	if (!x->cur_fn)
		return;
	f = json_pack("{s:s, s:s, s:I}", "k", k, "in", x->cur_fn, "line", (json_int_t)cursor_loc(at).line);
	if (key)
		json_object_set_new(f, key, json_string(val));
	json_array_append_new(x->fop_flow, f);
}

/*
 * K (owned), a field key: a member of an anonymous union in a struct
 * ("union inode::(anonymous at PATH:L:C).i_fop") becomes the struct's
 * ("inode.i_fop"), without the path of the header.
 */
static char *plain_field_key(char *k)
{
	char *colons = strstr(k, "::"), *sp, *dot, *n;

	if (!colons || (strncmp(colons, "::(anonymous", 12) && strncmp(colons, "::(unnamed", 10)))
		return k;
	*colons = '\0';
	sp = strrchr(k, ' ');
	dot = strrchr(colons + 1, '.');
	n = xasprintf("%s%s", sp ? sp + 1 : k, dot ? dot : "");
	free(k);
	return n;
}

/* Is T a pointer to struct file_operations? */
bool is_fops_ptr(CXType t)
{
	char *sn;
	bool r;

	t = clang_getCanonicalType(t);
	if (t.kind != CXType_Pointer)
		return false;
	sn = struct_name_of_type(t);
	r = !strcmp(sn, "file_operations");
	free(sn);
	return r;
}

/*
 * REF, a DeclRefExpr the walk met in no context that records it (a call's
 * argument, a store into a member, an initializer): a global that is or
 * carries a file_operations named as a value (a local takes it, a return,
 * a ?:) is a "use", which the creation sites cannot follow.  Compared
 * (file->f_op == &x_fops) it is not.
 */
void note_use(struct ectx *x, CXCursor ref)
{
	CXCursor var;

	if (!x->cur_fn || x->in_compare || !global_object_ref(ref, &var))
		return;
	add_ref(x, var, "use", ref, NULL);
}

/* Does T hold a file_operations pointer: one, or an array of them (usb_minors[])? */
static bool holds_fops(CXType t)
{
	t = clang_getCanonicalType(t);
	if (t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray)
		t = clang_getArrayElementType(t);
	return is_fops_ptr(t);
}

/* The global variable C (stripped) is, or indexes (tbl[i]), when it holds fops pointers: its name, or NULL. */
static char *fops_global_of(CXCursor c)
{
	CXCursor v;

	c = strip(c);
	if (clang_getCursorKind(c) == CXCursor_ArraySubscriptExpr) {
		struct cvec ch = children(c);

		c = ch.n ? strip(ch.c[0]) : clang_getNullCursor();
		free(ch.c);
	}
	if (clang_Cursor_isNull(c) || clang_getCursorKind(c) != CXCursor_DeclRefExpr)
		return NULL;
	v = clang_getCursorReferenced(c);
	if (clang_getCursorKind(v) != CXCursor_VarDecl || is_local_var(v) || !holds_fops(clang_getCursorType(v)))
		return NULL;
	return cxs(clang_getCursorSpelling(v));
}

/*
 * REF, a DeclRefExpr of a global that holds fops pointers (a framework's
 * table, usb_minors[]): read there, as a member is ("var:NAME").
 */
void note_fop_global_read(struct ectx *x, CXCursor ref)
{
	char *n = x->in_compare ? NULL : fops_global_of(ref), *k;

	if (!n)
		return;
	k = xasprintf("var:%s", n);
	add_flow(x, "read", ref, "field", k);
	free(k);
	free(n);
}

/*
 * MEMBER, a MemberRefExpr: a read of a member that holds a
 * file_operations pointer (a framework's drm_driver.fops), other than
 * file.f_op and inode.i_fop themselves, is where a framework takes the
 * fops a driver registered (classify_sites.c's framework_opens()).
 */
void note_fop_read(struct ectx *x, CXCursor member)
{
	CXCursor f = clang_getCursorReferenced(member);
	char *k;

	/* compared (f->f_op != dev->fops) it is not taken */
	if (x->in_compare || clang_getCursorKind(f) != CXCursor_FieldDecl || !is_fops_ptr(clang_getCursorType(f)))
		return;
	k = plain_field_key(field_key(f));
	if (strcmp(k, "file.f_op") && strcmp(k, "inode.i_fop"))
		add_flow(x, "read", member, "field", k);
	free(k);
}

/* A function whose body this translation unit has, outside the main file: a header's inline. */
static bool header_inline(struct ectx *x, CXCursor fn)
{
	CXCursor def = clang_getCursorDefinition(fn);

	return !clang_Cursor_isNull(def) && clang_isCursorDefinition(def) &&
	       !clang_File_isEqual(cursor_loc(def).file, x->mainfile);
}

/*
 * Open helpers: drm_open() -> drm_open_helper(filp) sets private_data (a
 * header's inline is read here, not a helper): NAME, the direct callee of
 * CALL, is handed a struct file * parameter of the function walked.
 */
static void note_file_call(struct ectx *x, CXCursor call, CXCursor callee, const char *name, int n)
{
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

/* References to struct objects passed to calls: creation sites. */
static void note_call_refs(struct ectx *x, CXCursor call, const char *name, int n, const char *assigned_to)
{
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
}

/* wake_up_pollfree(&obj->member): the member is a per-task queue. */
static void note_pollfree(struct ectx *x, CXCursor call)
{
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

/* poll_wait(file, head, pt): the head as written and what it is derived from. */
static void wait_event(struct ectx *x, CXCursor call, int ptpos, int cond)
{
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
}

/* The N arguments of CALL: each one's text and what it is derived from. */
static json_t *call_args(struct ectx *x, CXCursor call, int n)
{
	json_t *args = json_array();

	for (int i = 0; i < n; i++) {
		CXCursor a = clang_Cursor_getArgument(call, (unsigned)i);
		struct deriv d;
		char *t = text_of(x, a);

		derive(x, a, &d);
		json_array_append_new(args, json_pack("{s:s, s:o}", "text", t,
						      "base", deriv_json(&d)));
		free(t);
	}
	return args;
}

/*
 * The event of a direct call handed the poll_table at PTPOS: a helper; a
 * header's inline is summarized too.
 */
static json_t *direct_call_event(struct ectx *x, CXCursor callee, const char *name, int ptpos, json_t *args)
{
	CXCursor def = clang_getCursorDefinition(callee);
	struct loc dl = cursor_loc(clang_isCursorDefinition(def) ? def : callee);
	bool st = clang_Cursor_getStorageClass(callee) == CX_SC_Static;
	json_t *ev;

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
	return ev;
}

/*
 * The event of an indirect call handed the poll_table at PTPOS: a lower
 * layer, named by the struct member the function pointer was read from.
 */
static json_t *icall_event(struct ectx *x, CXCursor call, CXCursor callee, int ptpos, json_t *args)
{
	enum CXCursorKind ck = clang_getCursorKind(callee);
	char *ct, *member = xstrdup(""), *type = xstrdup("");
	CXCursor cal;
	bool pm;
	struct cvec ch;
	json_t *ev;

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
	return ev;
}

void handle_call(struct ectx *x, CXCursor call, int cond, const char *assigned_to)
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
	if (x->fs && direct && !header_inline(x, callee))
		note_file_call(x, call, callee, name, n);
	note_call_refs(x, call, name, n, assigned_to);
	if (ck == CXCursor_FieldDecl) {
		char *k = field_key(callee);

		/* file->f_op->open(inode, file): a framework opening through the fops it installed */
		if (!strcmp(k, "file_operations.open"))
			add_flow(x, "open_call", call, NULL, NULL);
		free(k);
	} else if (direct) {
		/* a file_operations pointer handed on (not a global: that is a ref) */
		for (int i = 0; i < n; i++) {
			CXCursor a = clang_Cursor_getArgument(call, (unsigned)i), var;

			if (is_fops_ptr(clang_getCursorType(a)) && !global_object_ref(a, &var))
				add_flow(x, "pass", call, "callee", name);
		}
	}
	if (direct && !strcmp(name, "wake_up_pollfree") && n == 1)
		note_pollfree(x, call);

	if (x->fs && x->fs->pt >= 0) {
		if (direct && !strcmp(name, "poll_wait") && n == 3) {
			wait_event(x, call, ptpos, cond);
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
			json_t *args = call_args(x, call, n);
			json_t *ev = direct ? direct_call_event(x, callee, name, ptpos, args)
					    : icall_event(x, call, callee, ptpos, args);

			add_event(x, ev, call, cond);
		}
	}
	/* walk the callee expression and the arguments that are not the poll_table (nor a ref noted) */
	ch = children(call);
	for (unsigned i = 0; i < ch.n; i++) {
		CXCursor var;

		if (!is_pt_ref(x, ch.c[i]) && !global_object_ref(ch.c[i], &var))
			walk(x, ch.c[i], cond);
	}
	free(ch.c);
out:
	free(name);
}

bool handle_assign(struct ectx *x, CXCursor l, CXCursor r, CXCursor at)
{
	CXCursor ls = strip(l), rs = strip(r), var, fref;
	char *field, *sname;
	bool noted = false;

	/* WRITE_ONCE(p->x, v) writes *(volatile typeof(p->x) *)&(p->x) */
	for (int i = 0; i < 2 && clang_getCursorKind(ls) == CXCursor_UnaryOperator; i++) {
		struct cvec u = children(ls);

		if (u.n == 1)
			ls = strip(u.c[0]);
		free(u.c);
	}
	if (clang_getCursorKind(ls) != CXCursor_MemberRefExpr) {
		/* a fops pointer kept in a global table (usb_minors[minor] = class_driver->fops) */
		char *g = is_fops_ptr(clang_getCursorType(r)) && !global_object_ref(r, &var) && !is_null_const(r)
				  ? fops_global_of(ls) : NULL;

		if (g) {
			char *k = xasprintf("var:%s", g);

			add_flow(x, "store", at, "field", k);
			free(k);
			free(g);
		}
		return false;
	}
	fref = clang_getCursorReferenced(ls);
	if (clang_getCursorKind(fref) != CXCursor_FieldDecl)
		return false;
	field = cxs(clang_getCursorSpelling(fref));
	{
		char *k = field_key(fref), *dot;

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
		/* a member of an anonymous union: the struct around it (plain_field_key()) */
		sname = plain_field_key(k);
		dot = strrchr(sname, '.');
		if (dot)
			*dot = '\0';
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
		noted = true;
	}
	/*
	 * a file's or an inode's fops installed: the f_op switch of a
	 * framework's open, or the VFS's; a fops pointer kept in another
	 * member (a framework's table: snd_minor.f_ops), where a reader of
	 * that member takes it
	 */
	if (((!strcmp(sname, "file") && !strcmp(field, "f_op")) || (!strcmp(sname, "inode") && !strcmp(field, "i_fop")) ||
	     (!noted && is_fops_ptr(clang_getCursorType(fref)))) && !is_null_const(r)) {
		char *k = xasprintf("%s.%s", sname, field);

		add_flow(x, "store", at, "field", k);
		free(k);
	}
	free(field);
	free(sname);
	return noted;
}

