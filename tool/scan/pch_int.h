/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pch_int.h - the precompiled headers' own header (not for other stages):
 * the plan of one scan's PCHs (struct pch, its groups) and the helpers
 * the files of pch.h share:
 *   pch_read.c   the reading of the sources: their #include lines, the
 *                macros they define early, the headers a group shares
 *   pch_words.c  the words of a group's headers: is a macro mentioned there
 *   pch.c        the plan, the builds in worker processes, the answers
 */
#ifndef POLLTAX_PCH_INT_H
#define POLLTAX_PCH_INT_H

#include "pch.h"
#include "lib/util.h"

#include <stdbool.h>
#include <sys/types.h>
#define PCH_MIN_FILES 16	/* fewer files to parse than this: no PCH for them */
#define PCH_SHARE 3		/* % of a group's files that must include a header */

struct finfo {
	struct strvec hdrs;	/* #include <...> outside any #if, in order */
	struct strvec early;	/* macros #defined or #undef'd before the last #include */
};

/*
 * The words of the headers of a group's PCH, to tell whether a macro is
 * mentioned there: the maximal runs of [A-Za-z0-9_] outside comments,
 * literals and the parameters of function-like macros (code_only()) that
 * are among the names a file may ask about (struct pch's asked), sorted,
 * and those of them given a default somewhere ("#ifndef NAME" then
 * "#define NAME").
 */
struct words {
	char **w;
	size_t n;
	char **dflt;
	size_t nd;
};

struct group {
	struct strvec defs;	/* the -D flags of its files (their Makefile's) */
	size_t nfiles;
	struct strvec hdrs;	/* the headers precompiled, in order */
	struct strvec deps;	/* every file the PCH read */
	char *pch;		/* NULL: not built */
	struct words words;	/* the deps' words, read when a macro must be looked up */
	bool words_read;
};

struct pch {
	char *dir;
	pid_t owner;
	struct group *g;
	size_t ng;
	int *use;		/* per file: its group, or -1 */
	struct strvec asked;	/* sorted: every macro a file defines early or has a -D of */
	char **why;		/* per file without a PCH: why */
	size_t n;
};


/* pch_read.c */
bool is_word_char(char c);
void read_source(const char *path, struct finfo *fi, int level, struct strvec *seen);
bool header_found(const struct strvec *flags, const char *h);
void late_safe(const char *path, const struct strvec *early, const struct strvec *flags,
		      struct strvec *safe);
void choose_headers(struct group *g, int gi, const struct finfo *fi, const int *fg, size_t n,
			   const struct strvec *common);

/* pch_words.c */
void sort_unique(char **v, size_t *n);
void words_free(struct words *ws);
bool mentioned(const struct pch *p, struct group *g, const char *name);
int host_group(struct pch *p, const char *defs);

#endif
