// SPDX-License-Identifier: GPL-2.0
/*
 * statmemo.c - one stat() per header path per worker process, not one per
 * parse.
 *
 * Each libclang parse has a FileManager of its own, so each parse asks the
 * kernel again about every header it can reach: with a precompiled header
 * that is the ~1200 headers inside it (the PCH's list of included files is
 * looked up on every load), plus every -I directory an #include is
 * searched in.  On 6.12 that is ~1.1 million stat() calls for 667 files,
 * ~1300 per file, of which all but ~25 per file were asked before by the
 * same worker (measured: 708k of 724k).
 *
 * This file defines stat() (and stat64(), the same call on x86-64): libLLVM
 * calls the C library's stat() through its PLT, so the program's own
 * definition is the one it reaches (ordinary ELF interposition, as with
 * malloc).  While a worker parses (stat_memo_enable()), the answer for an
 * absolute path, success or failure, is kept for the rest of the worker's
 * life (scan_workers.c retires a worker when it grows big): the tree does not change
 * under a scan, and the size and mtime the worker records in its cache
 * entries (dep_stats() in scan_cache.c) come from this memo too, so a header
 * that changed during the scan is recorded as first seen, and found
 * changed by the next scan.
 * Everywhere else, and for relative paths, stat() is fstatat() as in the
 * C library.
 */
#define _GNU_SOURCE
#include "lib/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <xxhash.h>

struct memo_entry {
	char *path;		/* NULL: free slot */
	uint64_t hash;
	int err;		/* 0: ST holds the answer; else the errno */
	struct stat st;
};

static bool memo_on;
static int memo_busy;	/* a lock; one thread parses at a time: never waits */
static struct memo_entry *memo;	/* open addressing, a power of two */
static size_t memo_cap, memo_used;

void stat_memo_enable(void)
{
	memo_on = true;
}

static void memo_lock(void)
{
	while (__sync_lock_test_and_set(&memo_busy, 1))
		;
}

static void memo_unlock(void)
{
	__sync_lock_release(&memo_busy);
}

static struct memo_entry *memo_slot(struct memo_entry *tab, size_t cap, const char *path, uint64_t h)
{
	size_t i = (size_t)h & (cap - 1);

	while (tab[i].path && (tab[i].hash != h || strcmp(tab[i].path, path)))
		i = (i + 1) & (cap - 1);
	return &tab[i];
}

static bool memo_grow(void)
{
	size_t cap = memo_cap ? memo_cap * 2 : 4096;
	struct memo_entry *tab = calloc(cap, sizeof(*tab));

	if (!tab)
		return false;
	for (size_t i = 0; i < memo_cap; i++)
		if (memo[i].path)
			*memo_slot(tab, cap, memo[i].path, memo[i].hash) = memo[i];
	free(memo);
	memo = tab;
	memo_cap = cap;
	return true;
}

int stat(const char *restrict path, struct stat *restrict st)
{
	struct memo_entry *e;
	uint64_t h;
	int err;

	if (!memo_on || path[0] != '/')
		return fstatat(AT_FDCWD, path, st, 0);
	h = XXH3_64bits(path, strlen(path));
	memo_lock();
	if ((memo_used + 1) * 2 > memo_cap && !memo_grow()) {
		memo_unlock();
		return fstatat(AT_FDCWD, path, st, 0);	/* no memory for the memo: no memo */
	}
	e = memo_slot(memo, memo_cap, path, h);
	if (!e->path) {
		char *copy = strdup(path);

		if (!copy) {
			memo_unlock();
			return fstatat(AT_FDCWD, path, st, 0);
		}
		e->err = fstatat(AT_FDCWD, path, &e->st, 0) < 0 ? errno : 0;
		e->hash = h;
		e->path = copy;
		memo_used++;
	}
	err = e->err;
	if (!err)
		*st = e->st;
	memo_unlock();
	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}

#if __WORDSIZE == 64
/* libLLVM binds stat64 too; on 64-bit systems it is stat() under another name. */
_Static_assert(sizeof(struct stat64) == sizeof(struct stat), "struct stat64 is struct stat");
int stat64(const char *restrict path, struct stat64 *restrict st)
{
	return stat(path, (struct stat *)st);
}
#endif
