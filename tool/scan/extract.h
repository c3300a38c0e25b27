/* SPDX-License-Identifier: GPL-2.0 */
/*
 * extract.h - per-translation-unit fact extraction on libclang.
 *
 * One call parses one .c file with its compile flags and returns the facts
 * that the classifier (classify.c) joins across the tree: function summaries
 * (what reaches poll_wait, with which head, derived from what), ops struct
 * initializers and run-time assignments, references to file_operations
 * objects (creation sites) and private_data / f_poll_head assignments.
 * It decides no class: it records facts.  The facts format (every key, its
 * type and meaning, and what the cache keeps) is tool/scan/FACTS.md: change it
 * with extract.c, and bump FACTS_VERSION in scan.c.
 */
#ifndef POLLTAX_EXTRACT_H
#define POLLTAX_EXTRACT_H

#include <jansson.h>
#include <stdbool.h>

/*
 * Parse ROOT/RELPATH with ARGS and return the facts object, or NULL with
 * *err set (malloc'd) when libclang could not produce a translation unit.
 */
json_t *extract_tu(const char *root, const char *relpath,
		   const char *const *args, int nargs, char **err);

/*
 * The same for a unity build: RELPATH #includes the .c files ALSO
 * (relative to ROOT, NULL for none), and the one parse records the facts
 * of each of them too, as if it had been parsed alone, in the "included"
 * array of the returned object (a file the parse did not read has none).
 */
struct strvec;
json_t *extract_unit(const char *root, const char *relpath, const char *const *args, int nargs,
		     const struct strvec *also, char **err);

/*
 * The same parse and nothing else (the parse floor of 'make bench'): 0 when
 * libclang made a translation unit; *ERRORS: it reported an error (what
 * makes the scan parse again without a precompiled header).
 */
int parse_tu_only(const char *root, const char *relpath,
		  const char *const *args, int nargs, bool *errors);

/*
 * The file libclang reads from memory (parse_remap(): the tree's
 * tracepoint.h) as an unsaved file in *UF: how many, 0 or 1.  Every parse
 * and every PCH build passes it, so that they all read the same text.
 */
struct CXUnsavedFile;
unsigned remap_unsaved(struct CXUnsavedFile *uf);

#endif
