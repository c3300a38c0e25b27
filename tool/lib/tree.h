/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tree.h - what a kernel tree is: its identity (version, git describe) and
 * where each .c file gets its compile flags from (compile_commands.json,
 * compile_flags.txt, an in-tree prepared build, or a build directory that
 * polltax prepares in its cache with the kernel's own make O=...).
 */
#ifndef POLLTAX_TREE_H
#define POLLTAX_TREE_H

#include <jansson.h>
#include <stdbool.h>
#include "util.h"

struct tree {
	char *root;		/* realpath */
	char *version;		/* "6.12.118" from the top Makefile */
	char *describe;		/* git describe, or NULL */
	char *head;		/* git HEAD commit, or NULL */
	bool is_git;
};

struct kbuild;

struct flags {
	enum { FLAGS_CCDB, FLAGS_FILE, FLAGS_INTREE, FLAGS_PREPARED } kind;
	char *source;		/* for reports: "compile_commands.json", ... */
	char *build;		/* the build directory (O=), or the tree */
	json_t *ccdb;		/* relpath -> array of args (FLAGS_CCDB) */
	struct strvec common;	/* flags shared by every file (other kinds) */
	char *config;		/* allmodconfig, ... */
	struct remap remap;	/* tracepoint.h as parsed (trace_remap()) */
	struct kbuild *kb;	/* the makefiles' ccflags (kbuild.h); NULL for the first two kinds */
};

/* Fills T or dies with EXIT_INPUT and a message saying what is missing. */
void tree_open(struct tree *t, const char *path);
void tree_free(struct tree *t);

struct prepare_opts {
	const char *config;	/* make target, default "allmodconfig" */
	const char *build;	/* O= directory, default in the cache */
	int jobs;
	bool quiet;
	bool trace_bodies;	/* parse the tree's own tracepoint.h (no overlay) */
};
/* Decide where flags come from; may run make O=... prepare (never in the tree). */
void flags_init(struct flags *f, const struct tree *t, const struct prepare_opts *o);
/* Flags for one file (relative path); false when the configuration cannot compile it. */
bool flags_for(const struct flags *f, const struct tree *t, const char *rel, struct strvec *out);
void flags_free(struct flags *f);
/* A string that changes whenever any file's flags would. */
char *flags_fingerprint(const struct flags *f);

#endif
