/* SPDX-License-Identifier: GPL-2.0 */
/*
 * prefilter.h - the scan's cheap first pass (prefilter.c): the .c files
 * whose text can matter, found without libclang, and the stamps by which
 * the cache knows a file unchanged.
 */
#ifndef POLLTAX_PREFILTER_H
#define POLLTAX_PREFILTER_H

#include <jansson.h>
#include "lib/util.h"

/*
 * How a file was when it was read: "mtime.nsec.size", the form every
 * dependency and prefilter stat takes in the cache.
 */
struct stat;
json_t *stat_stamp(const struct stat *st);

/* Pick .c files that can matter; FILES gets relative paths, sorted. */
void prefilter(const char *root, struct strvec *files, struct strvec *skipped);

/*
 * The same, and every .c file of the tree (ALL) with the stamps of its
 * walk (*STATS, owned), and the .c files that other .c files #include (a
 * unity build: *INCLUDED_BY, owned, maps such a file to its includers,
 * sorted).  Any of the three may be NULL.
 */
void prefilter_all(const char *root, struct strvec *files, struct strvec *skipped, struct strvec *all,
		   json_t **stats, json_t **included_by);

/*
 * The .c files of ALL (STATS: their stamps), less EXCLUDE, whose text
 * defines a function of NAMES (the callees whose result a head is derived
 * from): the scan parses them too, so that no head depends on a body it
 * could have read.  Remembered in the cache.
 */
void find_definers(const char *root, const struct strvec *all, json_t *stats, const struct strvec *names,
		   const struct strvec *exclude, struct strvec *out);

/*
 * The .c files of ALL, less EXCLUDE, whose text names a word of NAMES (the
 * ops records with a poll member that are not static: another file may
 * create files with them, and the open path of the poll is not known
 * until those files are read).  Remembered in the cache.
 */
void find_referrers(const char *root, const struct strvec *all, json_t *stats, const struct strvec *names,
		    const struct strvec *exclude, struct strvec *out);

/*
 * The .c files of ALL, less EXCLUDE, that name both the struct and the
 * member of a "STRUCT.FIELD" of FIELDS (the members a driver hands its
 * fops to a framework through): the framework's code that reads them,
 * which says whether its files are opened through ->open.
 */
/* For each file of FILES, the words of NAMES its text names: OUT[i] (FILES->n strvecs, initialized). */
void names_in_files(const char *root, const struct strvec *files, const struct strvec *names, struct strvec *out);

void find_member_readers(const char *root, const struct strvec *all, json_t *stats, const struct strvec *fields,
			 const struct strvec *exclude, struct strvec *out);

#endif
