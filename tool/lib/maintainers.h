/* SPDX-License-Identifier: GPL-2.0 */
/*
 * maintainers.h - who a change goes to, asked of the tree's own
 * scripts/get_maintainer.pl (never a copy of its logic): the MAINTAINERS
 * section a file belongs to, the To:/Cc: of a patch, and the subject
 * prefix a subsystem uses.
 */
#ifndef POLLTAX_MAINTAINERS_H
#define POLLTAX_MAINTAINERS_H

#include "util.h"

struct maint {
	const char *work;	/* the tree (with scripts/get_maintainer.pl) */
	bool no_tree;		/* not a full kernel tree: get_maintainer.pl --no-tree */
	bool history;		/* the tree has git history to learn prefixes from */
};

/* The most specific MAINTAINERS section of FILE, other than THE REST; "THE REST" when none. */
char *maint_section(const struct maint *m, const char *file);

/*
 * Ask get_maintainer.pl about each of the N ARGS not yet in the cache,
 * JOBS at a time, so that maint_section() (OPT "--sections", ARGS files)
 * or maint_recipients() (OPT NULL, ARGS patch files) then read its answer.
 */
void maint_prefetch(const struct maint *m, const char *opt, const char *const *args, size_t n, int jobs);

/* To: (maintainers) and Cc: (reviewers, lists) for the patch file PATCH. */
int maint_recipients(const struct maint *m, const char *patch, struct strvec *to, struct strvec *cc);

/*
 * The subject prefix for a change to FILES ("Input", "drm", "char"): the
 * most common prefix of the recent commits that touched them when the
 * tree has history, else one made from the path.
 */
char *maint_prefix(const struct maint *m, const struct strvec *files);

/*
 * The title of the MAINTAINERS section of ROOT named NAME (case aside; "THE
 * REST" included; or the one title that is NAME without its parenthesized
 * parts: "INPUT DRIVERS" for "INPUT (KEYBOARD, MOUSE, ...) DRIVERS"), or
 * NULL with CLOSE filled with the titles near it (a few letters off, with
 * or without their parentheses, or containing NAME), nearest first.  Dies (exit 3) when
 * ROOT/MAINTAINERS cannot be read.
 */
char *maint_section_named(const char *root, const char *name, struct strvec *close);

/*
 * ROOT/MAINTAINERS read by polltax itself, for the scan (one perl per file
 * would cost minutes on a real tree): maint_db_section() is the section
 * maint_section() gives, found by get_maintainer.pl's rules (F: and N:
 * match, X: excludes; '*' crosses no more directories than the pattern
 * has) and maint_section()'s choice of the most specific; NULL when only
 * THE REST matches.  maint_db_load() is NULL when there is no MAINTAINERS.
 */
struct maint_db;
struct maint_db *maint_db_load(const char *root);
const char *maint_db_section(const struct maint_db *db, const char *file);
void maint_db_free(struct maint_db *db);

#endif
