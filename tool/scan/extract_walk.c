// SPDX-License-Identifier: GPL-2.0
/*
 * extract_walk.c - the walk of a function body (walk()), with the
 * conditions it is under, and the summary of a function (summarize()).
 */
#define _GNU_SOURCE
#include "extract_int.h"
#include "lib/strutil.h"

#include <clang-c/Index.h>
#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

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
bool is_null_const(CXCursor c)
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

/* Is the condition C (a "!" aside) a fops pointer itself, only tested for NULL? */
static bool only_tested(CXCursor c)
{
	enum CXCursorKind k;

	c = strip(c);
	if (clang_getCursorKind(c) == CXCursor_UnaryOperator) {
		struct cvec u = children(c);

		if (u.n == 1)
			c = strip(u.c[0]);
		free(u.c);
	}
	k = clang_getCursorKind(c);
	return (k == CXCursor_DeclRefExpr || k == CXCursor_ArraySubscriptExpr || k == CXCursor_MemberRefExpr) &&
	       is_fops_ptr(clang_getCursorType(c));
}

/* Is C, a MemberRefExpr, a member of struct file_operations (->owner, ->open)? */
static bool member_of_fops(CXCursor c)
{
	CXCursor f = clang_getCursorReferenced(c);
	char *k;
	bool r;

	if (clang_getCursorKind(f) != CXCursor_FieldDecl)
		return false;
	k = field_key(f);
	r = !strncmp(k, "file_operations.", 16);
	free(k);
	return r;
}

/* Has the binary operator C the pointer type of its left operand L, a member (an assignment's type)? */
static bool is_pointer_store(CXCursor c, CXCursor l)
{
	CXType t = clang_getCanonicalType(clang_getCursorType(c));

	return t.kind == CXType_Pointer && clang_getCursorKind(strip(l)) == CXCursor_MemberRefExpr &&
	       clang_equalTypes(t, clang_getCanonicalType(clang_getCursorType(strip(l))));
}

void walk(struct ectx *x, CXCursor c, int cond)
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
		note_use(x, c);
		/* a global table of fops read (not the one a store writes into) */
		if (!x->lhs_member)
			note_fop_global_read(x, c);
		x->lhs_member = false;
		return;
	}
	ch = children(c);
	if (k == CXCursor_MemberRefExpr) {
		if (!x->lhs_member)
			note_fop_read(x, c);
		x->lhs_member = false;
		if (ch.n == 1) {
			CXCursor b = strip(ch.c[0]);

			/* x_fops.owner, misc.minor: a member of the object read, not the object named */
			if (clang_getCursorKind(b) == CXCursor_DeclRefExpr &&
			    clang_getCanonicalType(clang_getCursorType(b)).kind == CXType_Record) {
				free(ch.c);
				return;
			}
			/* dev->driver->fops->owner: neither is the fops read as a value */
			if (clang_getCursorKind(b) == CXCursor_MemberRefExpr && member_of_fops(c)) {
				struct cvec bch = children(b);

				for (unsigned i = 0; i < bch.n; i++)
					walk(x, bch.c[i], cond);
				free(bch.c);
				free(ch.c);
				return;
			}
		}
	}
	switch (k) {
	case CXCursor_IfStmt: {
		/* the then-branch of "if (!E)" runs only when E is NULL */
		CXCursor saved = x->guard;

		for (unsigned i = 0; i < ch.n; i++) {
			x->guard = i == 1 && x->fs && x->fs->pt >= 0 ? null_tested(x, ch.c[0]) : clang_getNullCursor();
			/* if (tbl[minor]), if (!dev->fops): a fops pointer tested, not read as a value */
			x->lhs_member = i == 0 && only_tested(ch.c[0]);
			walk(x, ch.c[i], i == 0 ? cond : cond + 1);
			x->lhs_member = false;
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
		} else if (ch.n == 2 && (!strcmp(op, ",") || !op[0]) && is_pointer_store(c, ch.c[0])) {
			/*
			 * the same for a store of a pointer in a macro's body
			 * (replace_fops()'s BUG_ON(!(__file->f_op = (fops)))):
			 * a comparison is an int, this has the member's type
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
			bool noted = handle_assign(x, ch.c[0], ch.c[1], c);

			/* the member stored into is not read (walk()'s first MemberRefExpr) */
			x->lhs_member = clang_getCursorKind(strip(ch.c[0])) == CXCursor_MemberRefExpr ||
					clang_getCursorKind(strip(ch.c[0])) == CXCursor_ArraySubscriptExpr ||
					clang_getCursorKind(strip(ch.c[0])) == CXCursor_DeclRefExpr;
			walk(x, ch.c[0], cond);
			x->lhs_member = false;
			if (noted) {
				/* the global stored is a ref already */
			} else if (clang_getCursorKind(strip(ch.c[1])) == CXCursor_CallExpr) {
				char *lt = text_of(x, ch.c[0]);

				handle_call(x, strip(ch.c[1]), cond, lt);
				free(lt);
			} else {
				walk(x, ch.c[1], cond);
			}
		} else {
			bool saved = x->in_compare;

			/*
			 * f_op == &x_fops: the result is no pointer (a compare, a
			 * truth value), as the text of an operator in a macro's
			 * body (unlikely(f->f_op != &x_fops)) cannot tell
			 */
			x->in_compare |= !strcmp(op, "==") || !strcmp(op, "!=") ||
					 (clang_getCanonicalType(clang_getCursorType(c)).kind != CXType_Pointer &&
					  strcmp(op, "=") && strcmp(op, ","));
			for (unsigned i = 0; i < ch.n; i++)
				walk(x, ch.c[i], cond);
			x->in_compare = saved;
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
		} else if (clang_Cursor_getStorageClass(c) == CX_SC_Static &&
			   clang_getCursorKind(strip(init)) == CXCursor_InitListExpr) {
			/* a function's static table: its refs are its initializer's (extract.c's var_init()) */
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

/* The argument text from A to END, without the white space around it. */
static void push_arg(struct strvec *args, const char *a, const char *end)
{
	char *t = xstrndup(a, (size_t)(end - a));
	char *s = trim_dup(t);

	sv_push(args, s);
	free(s);
	free(t);
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
				push_arg(args, a, p);
				return p;
			}
		} else if (*p == ',' && depth == 1) {
			push_arg(args, a, p);
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
	c_blank_text(text);
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
void summarize(struct ectx *x, CXCursor fn)
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

