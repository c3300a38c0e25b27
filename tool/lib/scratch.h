/* SPDX-License-Identifier: GPL-2.0 */
/*
 * scratch.h - git work trees in the cache, for the stages that write
 * (series, verify, boot-test): polltax never writes into the user's tree.
 *
 * Per kernel tree there is one bare repository in the cache,
 * $CACHE/work/<name>-<hash>/base.git, holding the tree's base commit; it
 * is the one import of the tree, shared by series, verify and the boot
 * test:
 *   - a git clone: a "git clone --shared" of it, and the base is its
 *     HEAD (nothing is written into the clone, not even a worktree entry);
 *   - an unpacked tarball: the tree's files are committed into it as they
 *     are ("git add" reading the tree, writing only base.git), build
 *     products left out (a tree built in place), with the date of the
 *     tree's Makefile, so the same tree gives the same commit.
 * Each use ("series", "verify"; the boot test's kernels) checks out its
 * own work tree from it, reset and cleaned on every run, and kept so that
 * a build directory next to it stays valid across runs.  One polltax at a
 * time works in $CACHE/work/<name>-<hash> (a lock file there; a second
 * one waits).
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
	int lock;		/* dir/lock, held (scratch_lock()) */
};

/* Prepare the base repository of T and the work tree USE at the base commit (clean). Dies on failure. */
void scratch_open(struct scratch *s, const struct tree *t, const char *use, bool quiet);
/* Only the base repository of T (locked until the process exits); S->work stays NULL. */
void scratch_base(struct scratch *s, const struct tree *t, bool quiet);
void scratch_free(struct scratch *s);

/*
 * The pieces scratch_open() is made of, which the boot test's own layout
 * (boot_kernel.c) uses too:
 */
/*
 * Hold DIR/lock until the process exits (or scratch_unlock() of what it
 * returns); WAIT for another polltax holding it, or die at once.
 */
int scratch_lock(const char *dir, bool wait, bool quiet);
void scratch_unlock(int lock);
/* "@<mtime of ROOT/Makefile> +0000": the date of every commit made from the tree. */
char *scratch_tree_date(const char *root);
/*
 * Record the files of ROOT in the bare repository GIT_DIR (created when
 * missing): "git add -A -f" reads ROOT and writes only GIT_DIR, leaving
 * out the pathspecs EXCLUDE (NULL-terminated, or NULL).  When the files
 * differ from REF (or there is no REF), a root commit of them with MSG,
 * polltax's identity and DATE becomes REF.  Returns REF's commit.
 */
char *scratch_import(const char *git_dir, const char *root, const char *const *exclude, const char *ref,
		     const char *msg, const char *date, bool quiet);
/* Add the worktree PATH of GIT_DIR at COMMIT (detached) unless it is one already: true when it was added. */
bool scratch_worktree_add(const char *git_dir, const char *path, const char *commit, bool quiet);

/* Run git in the work tree (or with --git-dir when WORK is NULL); 0 or git's exit status.  QUIET: int, as va_start() needs. */
int scratch_git(const struct scratch *s, struct strbuf *out, int quiet, ...) __attribute__((sentinel));

/* Set the identity and date of the commits git makes from now on (environment of the children). */
void scratch_identity(const char *name, const char *email, const char *date);

/* Copy the kernel scripts that a tree without scripts/ lacks (get_maintainer.pl, checkpatch.pl, ...) into WORK/scripts. */
int scratch_kernel_scripts(const char *work, bool quiet);

#endif
