/* SPDX-License-Identifier: GPL-2.0 */
/*
 * verify.h - the engine of "polltax verify": a series checked the way a
 * maintainer would, in a scratch work tree (scratch.h), never the user's
 * tree.  Patch by patch, in order: git am; build the objects of the .c
 * files it touches (so that every step of the series builds: bisectable);
 * sparse on them before and after the patch, and no new warning;
 * scripts/checkpatch.pl --strict, 0 errors and 0 warnings.
 *
 * Two ways to build, chosen from the tree: a kernel tree (it has
 * scripts/Makefile.build) is built with its own Kbuild in one build
 * directory next to the work tree, configured once (--config, default
 * allmodconfig) and reused across runs, so only what changed is rebuilt
 * ("make O=<dir> C=2 path/file.o"); a tree without Kbuild but with a
 * compile_flags.txt (the test fixture) has each touched file compiled
 * with gcc -Werror and checked with sparse, with those flags.  What the
 * series' series.json says is used too: a file only another architecture
 * builds is built with that one's cross compiler, in a build directory
 * of its own; a patch that changes an ops macro of a header is built
 * with the files that use it.
 * cmd_verify.c parses the options and prints the table.
 */
#ifndef POLLTAX_VERIFY_H
#define POLLTAX_VERIFY_H

#include "lib/scratch.h"
#include "lib/tree.h"
#include "lib/util.h"

struct verify_opts {
	const char *config;	/* the configuration to build (Kbuild) */
	int jobs;		/* make -j; 0: the number of CPUs */
	bool no_build, quiet;
};

/* One patch's results, a row of the table. */
struct verify_row {
	char *patch;		/* its path relative to the series directory */
	const char *am, *build, *sparse, *checkpatch;	/* ok, FAIL, -, not tried */
	char *build_note, *sparse_note, *cp_note;
	bool ok;
};

struct verify_state;

struct verify {
	const struct verify_opts *o;
	const char *dir;		/* the series directory, absolute */
	const struct strvec *patches;	/* its patches in order (series_dir_patches()) */
	struct verify_row *rows;	/* one per patch */
	bool all_ok;			/* every check of every patch passed */
	struct scratch s;
	struct verify_state *st;	/* the builder and sparse's baseline */
};

/* The scratch tree of T at its base and the builder (configured once for Kbuild).  Dies on failure. */
void verify_open(struct verify *v, const struct verify_opts *o, const struct tree *t, const char *dir,
		 const struct strvec *patches);
/* Check every patch in order (a patch that does not apply stops the rest); fills v->rows.  True: all passed. */
bool verify_run(struct verify *v);
/* The Markdown table of the rows, and the verdict line. */
char *verify_table(const struct verify *v);
void verify_close(struct verify *v);

#endif
