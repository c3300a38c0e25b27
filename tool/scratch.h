/* SPDX-License-Identifier: GPL-2.0 */
/*
 * scratch.h - git work trees in the cache, for the stages that write
 * (series, verify): polltax never writes into the user's tree.
 *
 * Per kernel tree there is one bare repository in the cache,
 * $CACHE/work/<name>-<hash>/base.git, holding the tree's base commit:
 *   - a git clone: a "git clone --shared" of it, and the base is its
 *     HEAD (nothing is written into the clone, not even a worktree entry);
 *   - an unpacked tarball: the tree's files are committed into it as they
 *     are ("git add" reading the tree, writing only base.git), with the
 *     date of the tree's Makefile, so the same tree gives the same commit.
 * Each use ("series", "verify") checks out its own work tree from it,
 * reset and cleaned on every run, and kept so that a build directory
 * next to it stays valid across runs.  One polltax at a time works in
 * $CACHE/work/<name>-<hash> (a lock file there; a second one waits).
 */
#ifndef POLLTAX_SCRATCH_H
#define POLLTAX_SCRATCH_H

#include "tree.h"

struct scratch {
	char *dir;		/* $CACHE/work/<name>-<hash> */
	char *git_dir;		/* dir/base.git */
	char *work;		/* dir/<use> */
	char *base;		/* the base commit */
	char *date;		/* its date, "@<seconds> +0000": for every commit polltax makes */
	bool from_git;		/* the tree is a git clone: base is one of its commits */
};

/* Prepare the base repository of T and the work tree USE at the base commit (clean). Dies on failure. */
void scratch_open(struct scratch *s, const struct tree *t, const char *use, bool quiet);
void scratch_free(struct scratch *s);

/* Run git in the work tree (or with --git-dir when WORK is NULL); 0 or git's exit status.  QUIET: int, as va_start() needs. */
int scratch_git(const struct scratch *s, struct strbuf *out, int quiet, ...) __attribute__((sentinel));

/* Set the identity and date of the commits git makes from now on (environment of the children). */
void scratch_identity(const char *name, const char *email, const char *date);

/* Copy the kernel scripts that a tree without scripts/ lacks (get_maintainer.pl, checkpatch.pl, ...) into WORK/scripts. */
int scratch_kernel_scripts(const char *work, bool quiet);

#endif
