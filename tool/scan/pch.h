/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pch.h - precompiled kernel headers shared by the files of one scan.
 *
 * Most of the time of parsing a kernel .c file goes into the same few
 * hundred headers (linux/fs.h and what it pulls in).  Before a cold scan,
 * the files to parse are grouped by their own -D flags and each group
 * gets one precompiled header (PCH) of the headers many of its files
 * include, so that libclang reads them once instead of once per file.
 *
 * The PCH is an optimisation that must not change a single fact, so a
 * file uses it only when nothing it does can make the headers read
 * differently: it defines no macro before its last #include, and has no
 * -D of its own, that the precompiled headers mention outside their
 * comments, literals and macro parameters (a default such as pr_fmt,
 * which a header defines only "#ifndef", is fine; so is a macro after
 * whose #define the file includes only headers it has included before
 * and X-macro lists, which are never precompiled).  A parse with
 * the PCH that reports an error in the file itself, or a fatal one, is
 * redone without it (scan_workers.c).  The PCH files live in a private directory
 * of the cache and are removed when the scan ends.
 */
#ifndef POLLTAX_PCH_H
#define POLLTAX_PCH_H

#include "lib/tree.h"
#include "lib/util.h"

struct pch;

/*
 * Plan and build the PCHs for FILES (relative paths; ARGS[i]: the
 * flags_for() of file i; WANT[i]: file i is to be parsed).  NULL when none is worth building: too few files, or
 * flags of each file's own (compile_commands.json).
 */
struct pch *pch_build(const struct tree *t, const struct flags *fl, char *const *files,
		      const struct strvec *const *args, const bool *want, size_t n, int jobs, bool quiet);

/*
 * The flags for file I with its group's PCH: PLAIN (its flags_for()) with
 * the forced -include headers replaced by -include-pch (which comes first
 * when there are none).  False when file I
 * parses without a PCH (OUT is then left alone).
 */
bool pch_args(const struct pch *p, size_t i, const struct strvec *plain, struct strvec *out);

/* Why file I parses without a PCH (NULL: it has one, or no PCH was planned). */
const char *pch_why(const struct pch *p, size_t i);

/* The headers inside file I's PCH (absolute paths), for its cache entry. */
const struct strvec *pch_headers(const struct pch *p, size_t i);

/* The directory of the PCH files (they are not dependencies of any entry). */
const char *pch_dir(const struct pch *p);

/* Remove the PCH files and free P (NULL is fine). */
void pch_free(struct pch *p);

#endif
