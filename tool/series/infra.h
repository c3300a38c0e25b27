/* SPDX-License-Identifier: GPL-2.0 */
/*
 * infra.h - the infrastructure patch, made for the tree at hand (issue 19).
 *
 * struct file gains f_poll_head, struct file_operations gains ->poll_mask(),
 * vfs_poll() does the one poll_wait() itself; the anon_inode helpers get
 * their _poll variants, the debugfs proxy polls through __vfs_poll(),
 * do_dentry_open() clears the field, the documentation says so.  Each
 * change is placed by its anchor in the tree's own sources and written in
 * the tree's indentation, the texts come from
 * kernel-patches/infra/templates.txt: nothing is kept per version.  The
 * touched files are copied into a scratch git repository in the cache,
 * edited there and committed; the patches are its git format-patch.
 */
#ifndef POLLTAX_INFRA_H
#define POLLTAX_INFRA_H

#include "lib/tree.h"

enum infra_kind {
	INFRA_ONE_CALL,		/* the infrastructure patch of a series */
	INFRA_TWO_CALL,		/* the boot test's two-call variant: two patches */
};

struct infra_id {
	const char *name, *email;	/* author and Signed-off-by */
	const char *date;		/* "@<seconds> +0000"; NULL: infra_date() */
};

/* Does the tree's struct file already have f_poll_head? */
bool infra_present(const char *root);

/*
 * Write the patches of KIND made for T into DIR (created; NULL: a
 * directory of the cache, ~/.cache/polltax/infra/<tree>-<hash>/<kind>)
 * and push their paths to OUT in order.  Returns 0, or 1 without writing
 * anything when the tree already has f_poll_head.  Dies with EXIT_INPUT,
 * naming the file and the anchor, when the tree's sources are not what the
 * generator knows: it never writes a patch that would not build.
 */
int infra_write(const struct tree *t, enum infra_kind kind, const struct infra_id *id, const char *dir,
		struct strvec *out);

/* The date the patches carry by default: HEAD's for a git clone, the top Makefile's otherwise. */
char *infra_date(const struct tree *t);

/* kernel-patches/MEASUREMENTS.md of this polltax (may not exist). */
char *infra_measurements(void);

#endif
