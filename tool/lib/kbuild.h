/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbuild.h - the one reader of the tree's Kbuild makefiles, for every
 * stage: scan (the -I/-D flags of ccflags-y and subdir-ccflags-y),
 * series and verify (does the configuration build this file? which make
 * target builds it?) and boot-test (the line that builds a file, for its
 * Kconfig symbol; the objects an option adds).
 *
 * A directory's makefile is read as kbuild reads it: its Kbuild file, or
 * its Makefile when it has none (scripts/Makefile.build's kbuild-file),
 * once per reader, into its assignments: continued lines joined (a
 * backslash-newline is a blank), comments cut, "export" and "override"
 * dropped, the operator ("=", ":=", "::=", "+=", "?=") found outside
 * parentheses.  ifdef/ifeq blocks are read as if every branch were taken,
 * which can only make a file look built: "not built" is said only when
 * every line naming the file is guarded by a symbol the configuration does
 * not set; when the makefiles say something the reader does not follow,
 * the answer is "cannot tell" and verify decides.
 */
#ifndef POLLTAX_KBUILD_H
#define POLLTAX_KBUILD_H

#include "util.h"

/* One assignment "NAME OP VALUE" of a makefile. */
struct kb_assign {
	char *name;		/* trimmed: "obj-$(CONFIG_FOO)", "foo-objs", "ccflags-y" */
	const char *op;		/* "=", ":=", "::=", "+=", "?=" */
	char *value;		/* unexpanded, leading blanks skipped */
	struct strvec words;	/* VALUE split at blanks */
	int line;		/* of its first line, from 1 */
};

struct kb_flags;

/* A directory's makefile, parsed. */
struct kb_file {
	char *dir;		/* relative to the tree, "" for the top */
	const char *name;	/* "Kbuild" or "Makefile"; NULL: the directory has neither */
	struct kb_assign *a;
	size_t n;
	struct kb_flags *flags;	/* its ccflags, expanded on first use (kbuild_flags()) */
};

struct kbuild;

/*
 * A reader of the makefiles under ROOT.  BUILD, the O= directory (or
 * NULL), is what $(obj) and $(objtree) expand to in kbuild_flags().
 */
struct kbuild *kbuild_new(const char *root, const char *build);
/* The same, with BUILD's configuration (for kbuild_built()); NULL when BUILD has no include/config/auto.conf. */
struct kbuild *kbuild_open(const char *root, const char *build);
void kbuild_close(struct kbuild *k);
/* The configured architecture (its directory under arch/), "x86" unless set. */
void kbuild_set_arch(struct kbuild *k, const char *arch);

/* DIR's Kbuild or Makefile (DIR relative to the root, "" the top), read once. */
const struct kb_file *kbuild_file(struct kbuild *k, const char *dir);

/* The first assignment of F whose value has the word WORD, or NULL. */
const struct kb_assign *kbuild_names(const struct kb_file *f, const char *word);

/*
 * The first assignment of F that lists WORD ("foo.o" or "sub/") as
 * "PREFIX-y", "PREFIX-objs" or "PREFIX-$(CONFIG_X)" with "=", ":=" or
 * "+=": *PREFIX gets "obj", "lib" or a composite object's name, *VAR "y",
 * "objs" or the symbol X.  NULL when there is none.
 */
const struct kb_assign *kbuild_find(const struct kb_file *f, const char *word, char **prefix, char **var);

/*
 * The Kconfig symbol that builds FILE (a .c file), found from the
 * "obj-$(CONFIG_X) += file.o" line of its directory's makefile through
 * composite objects and conditional directories: "y" when it is built
 * whatever the configuration; *COND gets the symbol a composite object's
 * part also needs ("foo-$(CONFIG_Y) += file.o"), or NULL.  NULL with *WHY
 * when no line builds it.
 */
char *kbuild_symbol(struct kbuild *k, const char *file, char **cond, char **why);

/*
 * The -I/-D flags DIR's makefile adds to a file, into OUT: ccflags-y,
 * subdir-ccflags-y and ccflags-$(CONFIG_...) whatever the configuration,
 * with the makefile's own variables expanded as make does.  DIR is the
 * file's own directory (OBJ NULL), or one above it: then only its
 * subdir-ccflags apply, unless it builds the file's object OBJ itself
 * ("pci/foo.o", as kbuild lets a Makefile do), and its ccflags too.
 */
void kbuild_flags(struct kbuild *k, const char *dir, const char *obj, struct strvec *out);

/*
 * 1: the configuration builds REL (a .c file); 0: it does not (*WHY says
 * which symbol or directory); -1: cannot tell (or K has no configuration).
 */
int kbuild_built(struct kbuild *k, const char *rel, char **why);

/*
 * The make target of REL (a .c file).  A directory whose makefile has no
 * obj- line is not a Kbuild directory of its own: its files are built
 * from a sibling's makefile through "../DIR/" (amdgpu builds ../amdkfd/),
 * and only that path gets the sibling's flags.
 */
char *kbuild_target(struct kbuild *k, const char *rel);

#endif
