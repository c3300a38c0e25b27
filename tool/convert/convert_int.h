/* SPDX-License-Identifier: GPL-2.0 */
/*
 * convert_int.h - what the files of the convert stage share: convert.c
 * plans (names; convert_head.c: the head in the poll function's terms),
 * convert_tree.c reads the tree's files and their facts, convert_frame.c
 * follows a function's locals to their definitions, convert_site.c writes
 * the head at each creation site (convert_express.c: in the site's terms;
 * convert_helper.c: private_data set elsewhere; convert_open.c: a new
 * ->open()), convert_apply.c runs the semantic patches and checks the
 * result (convert_tidy.c tidies the text they leave).  Not for other
 * stages: they use convert.h.
 */
#ifndef POLLTAX_CONVERT_INT_H
#define POLLTAX_CONVERT_INT_H

#include "convert.h"
#include "lib/json_util.h"

/* ---- convert_frame.c: one function's parameters and local definitions ---- */

struct frame {
	const char *func;
	json_t *facts;
	const char *fparam;	/* the struct file * parameter */
	const char *iparam;	/* the struct inode * parameter, or NULL */
	const char *ptparam;	/* the poll_table parameter, or NULL */
	json_t *params;
	int line;
};

int cv_frame_init(struct frame *fr, json_t *facts, const char *func, char **err);
bool cv_is_param(struct frame *fr, const char *v, const char **type);
/* Definitions of local V: their number; *DEF the last; *TYPE the declared type; *NDECLS declarations. */
int cv_defs_of(struct frame *fr, const char *v, json_t **def, const char **type, int *ndecls);
const char *cv_def_rhs(json_t *d);
/* FR's file and inode written as the roots $FILE, $PD (private_data), $INODE. */
char *cv_frame_norm(struct frame *fr, const char *e);
/* Locals replaced by their one definition until only roots, globals, parameters and STOP are left. */
char *cv_rootify(struct frame *fr, const char *e, const struct strvec *stop, char **err);
/* Locals of FR defined as file->private_data (maybe cast). */
void cv_pd_locals(struct frame *fr, struct strvec *out);
bool cv_same_type(const char *a, const char *b);
/* Is every variable of E a global (not a local or parameter of FR)? */
bool cv_only_globals(struct frame *fr, const char *e);

/* ---- convert_tree.c: what the stage reads of the tree ---- */

/* The facts of file REL (cocci/poll_facts.cocci, cached); NULL with *ERR. */
json_t *cv_facts_of(struct convert *c, const char *rel, char **err);
/* .c and .h files of the tree that mention NAME (cached) */
json_t *cv_refs_of(struct convert *c, const char *name);
/* Which files mention each of NAMES, in one pass of JOBS greps over the tree: cv_refs_of() then answers from the cache. */
void cv_refs_prefetch(struct convert *c, const struct strvec *names, int jobs);
/* The tree is about to change: the refs of the clean tree written to the cache, no more kept. */
void cv_refs_detach(struct convert *c);

/* convert_memo.c: convert_apply()'s results, in the cache part "applied" */
char *memo_key(struct convert *c, json_t *plan, const struct strvec *files);
int memo_replay(struct convert *c, const char *key, json_t *plan, char **reason);
void memo_store(struct convert *c, const char *key, json_t *plan, const struct strvec *files, int rc,
		const char *reason);
/* The text of file REL, or NULL. */
char *cv_read_rel(struct convert *c, const char *rel);

/* ---- convert.c ---- */

struct plan_ctx {
	struct convert *c;
	json_t *impl;
	struct frame poll;
	char *head_pd;		/* the head with $B for the local(s) holding private_data */
	char *head_root;	/* the head in roots only */
	char *btype;		/* the type of $B, or NULL when the head has no $B */
	char *bname;		/* the name the poll function gives it */
	bool uses_pd;		/* the head depends on private_data */
	bool static_head;	/* only globals */
};

char *mask_name(const char *fn);

/* ---- convert_head.c ---- */

/*
 * The head of the poll function in PC (its one poll_wait(), or its
 * helper's) in *H as written, and in PC's terms: with $B for the locals
 * holding private_data (head_pd) and in roots only (head_root), whether
 * it uses private_data or only globals.  0, or -1 with *ERR.
 */
int plan_head(struct plan_ctx *pc, const char *text, size_t bs, size_t be, char **h, char **err);

/* ---- convert_express.c: the head in a creation site's frame ---- */

/* Does FR have V as a local (declared or assigned) or parameter? */
bool frame_has(struct frame *fr, const char *v);
/* Do the variables of H mean in site frame SF what they meant (each in ALLOWED or not a name of SF)? 0, or -1 with *ERR. */
int check_capture(struct frame *sf, const char *h, const struct strvec *allowed, char **err);
/* The fields H reads at LINE of SF, each stored before LINE (MUST_STORE) and never after; stored locals replace them. */
char *check_loads(struct frame *sf, const char *h, int line, bool must_store, struct strvec *used,
		  char **err);
/* container_of(&x->m, struct T, m) folded to x when x is a struct T *. */
char *fold_container_of(struct frame *sf, const char *h);
/* Roots back to SF's names; NULL when private_data would be dereferenced as void *. */
char *unroot(struct frame *sf, const char *h, const char *filevar, char **err);
/* Rooted head H written with SF's own locals; *ANCHOR "first" or "local" (*LVAR). */
char *express_with_locals(struct frame *sf, const char *h, bool site_sets_pd, const char **anchor,
			  char **lvar, int *anchor_line, struct strvec *used, char **err);

/* ---- convert_helper.c: sites where private_data is set elsewhere ---- */

/* An ->open() that sets private_data to a plain lvalue (PDSET): the head right after that store. */
json_t *lvalue_site_plan(struct plan_ctx *pc, struct frame *sf, json_t *site, json_t *pdset, char **err);
/*
 * An ->open() SF that hands its file to a helper setting private_data:
 * that helper as a site of its own (kind "open", "helper_of" SF), for
 * site_plan(), and in CALLERS the ->open()s that call it; NULL and *ERR
 * when it cannot be the site.
 */
json_t *helper_site(struct plan_ctx *pc, struct frame *sf, json_t *site, struct strvec *callers, char **err);
/* The head of a file KIND() creates in FUNC() at LINE with private data P (added to ALLOWED). */
char *head_from_priv(struct plan_ctx *pc, struct frame *sf, const char *kind, const char *func,
		     const char *p, int line, struct strvec *allowed, char **err);

/* ---- convert_site.c, convert_open.c ---- */

/* Where and how creation site SITE (of the scan) sets the head; NULL with *ERR when it cannot. */
json_t *site_plan(struct plan_ctx *pc, json_t *site, char **err);
/* A new ->open() (KIND "new-open", or "wrap" around OLDOPEN) that sets the head. */
json_t *new_open_plan(struct plan_ctx *pc, const char *kind, const char *oldopen, char **err);

/* ---- convert_tidy.c: the text spatch leaves ---- */

/* Text of lines: a NULL-terminated array into a copy of TEXT. */
char **split_lines(const char *text, size_t *n);
void free_lines(char **v, size_t n);
bool blank(const char *l);
/* Re-align ".member<ws>= NAME" (a member polltax wrote, NAME in NAMES) with the neighbouring members. */
char *realign(const char *text, const struct strvec *names);
/* Blank lines the removal of poll_wait() left: after "{", before "}", doubled. */
char *tidy_body(const char *text, const char *old_text, const char *old_fn, const char *fn);
/* A kernel-doc block right above the definition: the new name and the new parameter. */
char *tidy_kerneldoc(const char *text, const char *old_fn, const char *fn, const char *pt, const char *ev);
/* .poll = fn in #define bodies (ops built by macros): the same rewrite, as text; MACROS gets each macro rewritten. */
char *fix_macros(const char *text, const char *fn, const char *mask_fn, bool *changed, struct strvec *macros);
/* The argument list of the call to CALLEE in FUNC laid out again as the kernel does (TEXT copied if it has comments). */
char *relayout_call(const char *text, const char *func, const char *callee);

#endif
