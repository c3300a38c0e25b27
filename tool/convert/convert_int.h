/* SPDX-License-Identifier: GPL-2.0 */
/*
 * convert_int.h - what the files of the convert stage share: convert.c
 * plans (names, the head in the poll function's terms), convert_tree.c
 * reads the tree's files and their facts, convert_frame.c
 * follows a function's locals to their definitions, convert_site.c writes
 * the head at each creation site (or a new ->open()), convert_apply.c
 * runs the semantic patches and checks the result.  Not for other stages:
 * they use convert.h.
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
/* Which files mention each of NAMES, in one grep over the tree: cv_refs_of() then answers from the cache. */
void cv_refs_prefetch(struct convert *c, const struct strvec *names);
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

/* ---- convert_site.c ---- */

/* Where and how creation site SITE (of the scan) sets the head; NULL with *ERR when it cannot. */
json_t *site_plan(struct plan_ctx *pc, json_t *site, char **err);
/* A new ->open() (KIND "new-open", or "wrap" around OLDOPEN) that sets the head. */
json_t *new_open_plan(struct plan_ctx *pc, const char *kind, const char *oldopen, char **err);

#endif
