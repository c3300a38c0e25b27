// SPDX-License-Identifier: GPL-2.0
/*
 * util_cache.c - the cache directory: ~/.cache/polltax, a temporary one
 * when it cannot be written, cache_write() (util.h).  Nothing here knows
 * about poll.
 */
#define _GNU_SOURCE
#include "util_int.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Set once, before the scan forks its workers: shared by them, so that a run warns once. */
static int *cache_warned;
static char *cache_tmp;		/* the temporary cache of this run, if any */
static pid_t cache_tmp_owner;

static void cache_tmp_remove(void)
{
	if (cache_tmp && getpid() == cache_tmp_owner)
		rm_rf(cache_tmp);
}

/* Can the directories a scan writes under ROOT be written?  NULL, or why not. */
static char *cache_unwritable(const char *root)
{
	static const char *const dirs[] = { "facts/sets", "pch", "prefilter", "cocci", "tmp", NULL };

	for (int i = 0; dirs[i]; i++) {
		char *d = path_join(root, dirs[i]), *probe = xasprintf("%s/.probe.%d", d, (int)getpid());
		char *why = NULL;
		int fd;

		if (mkdir_p(d) < 0)
			why = xasprintf("cannot create '%s': %s", d, strerror(errno));
		else if ((fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644)) < 0)
			why = xasprintf("cannot write in '%s': %s", d, strerror(errno));
		else {
			close(fd);
			unlink(probe);
		}
		free(probe);
		free(d);
		if (why)
			return why;
	}
	return NULL;
}

char *cache_home(void)
{
	const char *x = getenv("XDG_CACHE_HOME");
	char *root;

	if (x && *x == '/') {
		root = xasprintf("%s/polltax", x);
	} else if (x && *x) {
		/* made absolute: the workers and the PCH paths (pch.c) must not depend on a cwd */
		char *cwd = getcwd(NULL, 0);

		root = xasprintf("%s/%s/polltax", cwd ? cwd : ".", x);
		free(cwd);
	} else if ((x = getenv("HOME")) && *x) {
		root = xasprintf("%s/.cache/polltax", x);
	} else {
		root = xstrdup("/tmp/polltax-cache");
	}
	return root;
}

const char *cache_root(void)
{
	static char *root;
	char *why;

	if (root)
		return root;
	root = cache_home();
	cache_warned = mmap(NULL, sizeof(*cache_warned), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (cache_warned == MAP_FAILED)
		cache_warned = NULL;
	why = cache_unwritable(root);
	if (why) {
		const char *t = getenv("TMPDIR");
		char *tmpl = xasprintf("%s/polltax-cache-XXXXXX", t && *t == '/' ? t : "/tmp");

		if (!mkdtemp(tmpl))
			die("the cache '%s' cannot be written (%s), nor a temporary one made ('%s'): %s", root, why,
			    tmpl, strerror(errno));
		warning("the cache '%s' cannot be written (%s): this run uses '%s' instead, removed at the "
			"end, and reuses nothing", root, why, tmpl);
		if (cache_warned)
			*cache_warned = 1;	/* one warning is enough */
		cache_tmp = tmpl;
		cache_tmp_owner = getpid();
		atexit(cache_tmp_remove);
		free(root);
		root = xstrdup(tmpl);
		free(why);
	}
	return root;
}

int cache_write(const char *path, const char *data, size_t len)
{
	char *dir = xstrdup(path), *why = NULL, *sl = strrchr(dir, '/');
	int rc;

	if (sl)
		*sl = '\0';
	if (sl && mkdir_p(dir) < 0) {
		why = xasprintf("cannot create '%s': %s", dir, strerror(errno));
		rc = -1;
	} else {
		rc = write_atomic(path, data, len, &why);
	}
	if (rc < 0 && (!cache_warned || !__atomic_exchange_n(cache_warned, 1, __ATOMIC_SEQ_CST)))
		warning("the cache cannot be written (%s): going on without it; files whose facts could not be "
			"stored are listed as failed", why);
	free(why);
	free(dir);
	return rc;
}
