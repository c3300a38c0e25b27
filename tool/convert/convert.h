/* SPDX-License-Identifier: GPL-2.0 */
/*
 * convert.h - the convert stage: turn one implementation that the scan
 * found auto-convertible ("convertible": "yes") into ->poll_mask, with
 * the two semantic patches of cocci/ instantiated for it, and set
 * f_poll_head at each of its creation sites.
 *
 * A conversion is planned first (no writes: the new names, where each
 * creation site sets the head and as which expression), then applied to
 * a writable tree and checked (no reference to the old name left, the
 * poll_table gone from the function, one f_poll_head line per site).
 * Whatever cannot be done mechanically and correctly is refused with a
 * one-line reason, and the files are left as they were.
 */
#ifndef POLLTAX_CONVERT_H
#define POLLTAX_CONVERT_H

#include <jansson.h>
#include "lib/util.h"

struct convert {
	const char *root;	/* the tree read by plans and written by apply */
	const char *cocci_dir;	/* poll_mask.cocci, f_poll_head.cocci */
	json_t *facts;		/* relpath -> facts (cfacts.h) */
	json_t *refs;		/* name -> [relpaths of .c/.h files that mention it] */
	/*
	 * The refs of a clean git worktree are kept on disk (the cache part
	 * "refs", by the tree's id): refs_path, when the tree was clean at the
	 * first question; refs_new, answers it lacked.  The first change to
	 * the tree (convert_apply()) writes them and stops the keeping.
	 */
	char *refs_path;
	bool refs_looked, refs_new;
	bool review;		/* plan "review" implementations with a plan too ('series --review') */
};

void convert_init(struct convert *c, const char *root, const char *cocci_dir);
void convert_release(struct convert *c);

/* Read the facts of every file the plans of IMPLS will need, in one spatch run. */
void convert_prefetch(struct convert *c, json_t *impls, int jobs);

/*
 * Plan the conversion of IMPL (an element of polltax.json's
 * "implementations").  Returns
 *   { "ok": true, "function", "file", "mask_fn", "events", "head"
 *     (in the poll function's terms, "" for none), "files": [files the
 *     poll side is rewritten in], "sites": [ { "file", "function",
 *     "kind", "anchor", "vars": {name: value}, "head" } ],
 *     "commands": [the spatch command lines] }
 * or { "ok": false, "function", "file", "reason" }.
 */
json_t *convert_plan(struct convert *c, json_t *impl);

/* Every file a plan reads or writes (relative paths, sorted). */
void convert_plan_files(json_t *plan, struct strvec *out);
/* ", which foo_open() calls": the ->open()s that call a helper setting the head */
void convert_add_callers(struct strbuf *sb, json_t *callers);

/*
 * Apply PLAN to c->root (which may differ from the root it was planned
 * on, if it holds the same files).  Returns 0, or -1 with *REASON set
 * and every file restored.
 */
int convert_apply(struct convert *c, json_t *plan, char **reason);

/* One line for a commit message: "foo_poll(): &dev->wait, set in foo_open()". */
char *convert_describe(json_t *plan);

#endif
