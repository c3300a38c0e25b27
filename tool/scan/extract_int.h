/* SPDX-License-Identifier: GPL-2.0 */
/*
 * extract_int.h - the extract stage's own header (not for other stages):
 * the state of one parse (struct ectx), what a value is derived from
 * (struct deriv), and the helpers the files of the stage share:
 *   extract_cx.c      small libclang wrappers: text, locations, types
 *   extract_derive.c  the derivation of head expressions (derive())
 *   extract_call.c    calls and assignments in a function body
 *   extract_walk.c    the walk of a function body and its summary
 *   extract.c         initializers, the translation unit, the parse
 */
#ifndef POLLTAX_EXTRACT_INT_H
#define POLLTAX_EXTRACT_INT_H

#include "extract.h"
#include "lib/util.h"

#include <clang-c/Index.h>
#include <jansson.h>
#include <stdbool.h>

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
	json_t *fop_flow;	/* where file_operations pointers go in each function (FACTS.md) */
	json_t *unseen;		/* static functions of the file declared with no body the parse saw */
	bool lhs_member;	/* the next MemberRefExpr or DeclRefExpr walked is stored into, not read */
	bool in_compare;	/* walking an operand of == or !=: a global named there is only compared */
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

struct loc {
	CXFile file;
	unsigned line, off;
};

struct assign_scan {
	struct ectx *x;
	CXCursor var;
	struct cvec rhs;
	bool address_taken;
};

/* extract_life.c: the "life" facts (FACTS.md) */
json_t *life_facts(struct ectx *x);

/* extract_cx.c */
char *cxs(CXString s);
enum CXChildVisitResult collect_cb(CXCursor c, CXCursor parent, CXClientData d);
struct cvec children(CXCursor c);
CXCursor strip(CXCursor c);
const char *relpath(struct ectx *x, CXFile f);
struct loc loc_of(CXSourceLocation l);
struct loc cursor_loc(CXCursor c);
bool in_main(struct ectx *x, CXCursor c);
bool other_unit_file(struct ectx *x, CXFile f);
char *text_of(struct ectx *x, CXCursor c);
char *binop(struct ectx *x, CXCursor c, struct cvec *ch);
char *struct_name_of_type(CXType t);
char *field_key(CXCursor field);
int param_index(CXCursor parm);
bool is_poll_table_type(CXType t);
bool is_struct_file_ptr(CXType t);
bool has_void_ptr_param(CXCursor fn);
int pt_param_of(CXCursor fn);
bool is_local_var(CXCursor var);

/* extract_derive.c */
enum CXChildVisitResult assign_scan_cb(CXCursor c, CXCursor parent, CXClientData data);
bool derive_returns(struct ectx *x, CXCursor def, struct deriv *d);
void derive(struct ectx *x, CXCursor e, struct deriv *d);
json_t *deriv_json(const struct deriv *d);

/* extract_call.c */
bool is_pt_ref(struct ectx *x, CXCursor c);
void add_event(struct ectx *x, json_t *ev, CXCursor at, int cond);
bool global_object_ref(CXCursor c, CXCursor *var);
void add_ref(struct ectx *x, CXCursor var, const char *ctx, CXCursor at, json_t *extra);
void handle_call(struct ectx *x, CXCursor call, int cond, const char *assigned_to);
bool handle_assign(struct ectx *x, CXCursor l, CXCursor r, CXCursor at);
void note_use(struct ectx *x, CXCursor ref);
bool is_fops_ptr(CXType t);
void note_fop_read(struct ectx *x, CXCursor member);
void note_fop_global_read(struct ectx *x, CXCursor ref);
void add_flow(struct ectx *x, const char *k, CXCursor at, const char *key, const char *val);

/* extract_walk.c */
void walk(struct ectx *x, CXCursor c, int cond);
bool is_null_const(CXCursor c);
void summarize(struct ectx *x, CXCursor fn);

#endif
