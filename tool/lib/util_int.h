/* SPDX-License-Identifier: GPL-2.0 */
/*
 * util_int.h - what the files of util.h's helpers share among themselves
 * (util_file.c's atomic write, which util_cache.c's cache_write() uses).
 * Not for the rest of polltax: it uses util.h.
 */
#ifndef POLLTAX_UTIL_INT_H
#define POLLTAX_UTIL_INT_H

#include "util.h"

/*
 * Write to PATH.tmp.PID, fsync, rename: readers see the old or the new
 * file, never half.  -1 with errno on failure; *WHY (when not NULL) gets
 * the message, else it is printed with error().
 */
int write_atomic(const char *path, const char *data, size_t len, char **why);

#endif
