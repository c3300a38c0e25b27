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

struct arch_info;

struct flags {
	enum { FLAGS_CCDB, FLAGS_FILE, FLAGS_INTREE, FLAGS_PREPARED } kind;
	const struct arch_info *arch;	/* x86, or the architecture of an alternative (alt) */
	char *source;		/* for reports: "compile_commands.json", ... */
	char *build;		/* the build directory (O=), or the tree */
	json_t *ccdb;		/* relpath -> array of args (FLAGS_CCDB) */
	struct strvec common;	/* flags shared by every file (other kinds) */
	char *config;		/* allmodconfig, ... */
	struct remap remap;	/* tracepoint.h as parsed (trace_remap()) */
	struct kbuild *kb;	/* the makefiles' ccflags (kbuild.h); NULL for the first two kinds */
	/*
	 * --arch: one prepared build per other architecture, each with its
	 * configuration (conf) to tell which files it builds; the files x86's
	 * configuration does not build get the flags of the first that does.
	 */
	struct flags *alt;
	size_t nalt;
	struct kbuild *conf;	/* this build's configuration (kbuild_open()): a kernel build's only, NULL without auto.conf */
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
	const char *arches;	/* --arch: other architectures, "powerpc,s390" or "all"; NULL: none */
};
/* Decide where flags come from; may run make O=... prepare (never in the tree). */
void flags_init(struct flags *f, const struct tree *t, const struct prepare_opts *o);
/* Flags for one file (relative path); false when the configuration cannot compile it. */
bool flags_for(const struct flags *f, const struct tree *t, const char *rel, struct strvec *out);
/*
 * The flags (F itself or one of its alternatives) whose architecture
 * builds REL: F unless F's configuration does not build REL and an
 * alternative's does, or REL is under that alternative's arch/ directory.
 */
const struct flags *flags_arch_of(const struct flags *f, const char *rel);
void flags_free(struct flags *f);
/* A string that changes whenever any file's flags would. */
char *flags_fingerprint(const struct flags *f);

#endif
