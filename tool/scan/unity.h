/* SPDX-License-Identifier: GPL-2.0 */
/*
 * unity.h - unity builds: a .c file that the kernel compiles only by
 * #including it into another .c file (kernel/sched/build_utility.c
 * includes psi.c) is parsed through the unit that compiles it.
 */
#ifndef POLLTAX_UNITY_H
#define POLLTAX_UNITY_H

#include <jansson.h>
#include "lib/tree.h"

/* The translation units that parse a list of files. */
struct unity {
	struct strvec rels;	/* the file each unit parses, in the list's order */
	struct strvec *also;	/* per unit: the files of the list its parse records too */
	size_t *unit_of;	/* per file of the list: the unit whose parse records it */
};

/*
 * Plan the units for FILES (sorted): a file that no other .c file
 * #includes, or that the build compiles on its own (compile_commands.json
 * lists it), is its own unit; a file that one does (INCLUDED_BY: file ->
 * its includers, sorted, from prefilter_all()) is recorded by the parse of
 * the first includer the configuration compiles, followed up while that
 * one is included in turn.  An includer need not be in FILES.
 */
void unity_plan(struct unity *u, const struct tree *t, const struct flags *fl, const struct strvec *files,
		json_t *included_by);
void unity_free(struct unity *u);

/*
 * The .c files that REL's text (BUF, LEN) #includes with quotes
 * ("#include \"psi.c\""), relative to the tree, in its order, into OUT
 * (whether they are files of the tree is the caller's to check).
 */
void unity_c_includes(const char *rel, const char *buf, size_t len, struct strvec *out);

/*
 * The .c file the build compiles REL (relative to ROOT) through: the first
 * .c file of REL's directory, by name, that #includes it (the kernel's
 * unity builds keep their includer beside their parts), else REL;
 * allocated.  For 'verify', which builds the files a patch touches.
 */
char *unity_compiled_as(const char *root, const char *rel);

#endif
