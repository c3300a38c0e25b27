// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_cache.c - "polltax cache [clean [PART...]]": what polltax keeps in
 * its cache ($XDG_CACHE_HOME/polltax, else ~/.cache/polltax), part by
 * part, with the size of each on disk, and removing a part or all.
 * Every part is made again when it is needed: cleaning costs time, never
 * a result.
 */
#define _GNU_SOURCE
#include "args.h"
#include "commands.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The parts, in the order a scan, a series and a boot test make them. */
static const struct part {
	const char *name, *what;
} parts[] = {
	{ "prefilter", "which files of a tree can hold a ->poll (scan)" },
	{ "facts", "each parsed file's facts, by contents and flags (scan)" },
	{ "pch", "precompiled headers (scan)" },
	{ "cocci", "the Coccinelle second opinion per file (scan)" },
	{ "build", "trees prepared with make O=... allmodconfig prepare (scan, verify)" },
	{ "work", "the one import of each tree (series, verify, boot-test), their worktrees, verify's build" },
	{ "infra", "scratch copies for the infrastructure patch (infra, series)" },
	{ "kernel-scripts", "checkpatch.pl and get_maintainer.pl for a tree without them" },
	{ "cfacts", "poll_facts.cocci's facts per file, by the rule and the file's contents (series)" },
	{ "refs", "which files name a function, per clean tree (series)" },
	{ "applied", "each conversion's result, by polltax, the rules, the plan and the files (series)" },
	{ "maintainers", "get_maintainer.pl's answers, by MAINTAINERS, script and input (series)" },
	{ "boot", "boot-test kernels: worktrees of the import in work, builds (several GB)" },
	{ "src", "unpacked linux-source trees (make check-linux, make reports)" },
	{ "reports", "the scans of make reports" },
	{ "tmp", "temporary files of a run (removed at its end)" },
};
#define NPARTS (sizeof(parts) / sizeof(parts[0]))

static const char usage[] =
"usage: polltax cache [clean [PART...]]\n"
"\n"
"Print where polltax's cache is ($XDG_CACHE_HOME/polltax, else\n"
"~/.cache/polltax), each of its parts with its size on disk and what it\n"
"holds, and the total.  'polltax cache clean' removes all the parts,\n"
"'polltax cache clean PART...' only those named.  A part is made again\n"
"when it is needed: cleaning costs time (the next scan is a cold one, the\n"
"next boot test builds its kernels again), never a result.  Do not clean\n"
"while a polltax runs.\n"
"\n"
"parts: prefilter facts pch cocci build work infra kernel-scripts cfacts refs\n"
"applied maintainers boot src reports tmp\n"
"\n"
"options:\n"
"  -h, --help    this text\n"
"\n"
"exit status: 0 done, 2 usage (a PART that is not one), 128 a part cannot be\n"
"removed.\n";

/* Has inode INO been counted already (one device: a part's)?  An open-addressing set. */
static bool seen_before(ino_t ino)
{
	static ino_t *set;
	static size_t n, cap;
	size_t h;

	if (2 * (n + 1) > cap) {
		ino_t *old = set;
		size_t ocap = cap;

		cap = cap ? cap * 2 : 1024;
		set = xcalloc(cap, sizeof(*set));
		n = 0;
		for (size_t k = 0; k < ocap; k++)
			if (old[k])
				seen_before(old[k]);
		free(old);
	}
	for (h = (size_t)(ino * 0x9e3779b97f4a7c15ULL) & (cap - 1); set[h]; h = (h + 1) & (cap - 1))
		if (set[h] == ino)
			return true;
	set[h] = ino;
	n++;
	return false;
}

/* Bytes on disk under the directory DFD (closed here), each inode once; symlinks not followed. */
static unsigned long long du_fd(int dfd, dev_t dev)
{
	DIR *d = fdopendir(dfd);
	struct dirent *e;
	unsigned long long n = 0;

	if (!d) {
		close(dfd);
		return 0;
	}
	while ((e = readdir(d))) {
		struct stat st;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		/* a hard link (the boot worktrees share files) counts where its first name is */
		if (st.st_nlink > 1 && !S_ISDIR(st.st_mode) && seen_before(st.st_ino))
			continue;
		n += (unsigned long long)st.st_blocks * 512;
		if (S_ISDIR(st.st_mode) && st.st_dev == dev) {
			int fd = openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);

			if (fd >= 0)
				n += du_fd(fd, dev);
		}
	}
	closedir(d);
	return n;
}

static unsigned long long du(const char *path, bool *exists)
{
	struct stat st;
	int fd;

	*exists = lstat(path, &st) == 0;
	if (!*exists)
		return 0;
	if (!S_ISDIR(st.st_mode))
		return (unsigned long long)st.st_blocks * 512;
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
	return (unsigned long long)st.st_blocks * 512 + (fd < 0 ? 0 : du_fd(fd, st.st_dev));
}

static void human(char *buf, size_t n, unsigned long long b)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	double v = (double)b;
	int u = 0;

	while (v >= 1024 && u < 4) {
		v /= 1024;
		u++;
	}
	if (u == 0)
		snprintf(buf, n, "%llu B", b);
	else
		snprintf(buf, n, "%.1f %s", v, unit[u]);
}

static const struct part *part_named(const char *name)
{
	for (size_t i = 0; i < NPARTS; i++)
		if (!strcmp(parts[i].name, name))
			return &parts[i];
	return NULL;
}

static int clean(const char *root, int n, char **names)
{
	for (int i = 0; i < n; i++)
		if (!part_named(names[i])) {
			fprintf(stderr, "polltax cache: '%s' is not a part of the cache\n", names[i]);
			return args_bad_option(usage);
		}
	for (size_t i = 0; i < NPARTS; i++) {
		char *p, hb[32];
		bool want = !n, exists;
		unsigned long long b;

		for (int k = 0; k < n; k++)
			want = want || !strcmp(names[k], parts[i].name);
		if (!want)
			continue;
		p = path_join(root, parts[i].name);
		b = du(p, &exists);
		if (exists) {
			if (rm_rf(p) < 0)
				die("cannot remove '%s'", p);
			human(hb, sizeof(hb), b);
			printf("removed %-15s %10s  %s\n", parts[i].name, hb, p);
		}
		free(p);
	}
	return 0;
}

int cmd_cache(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long long total = 0;
	char *root, hb[32];
	int c, rc;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
		switch (c) {
		case 'h': return args_help(usage);
		default: return args_bad_option(usage);
		}
	}
	root = cache_home();
	if (optind < argc) {
		if (strcmp(argv[optind], "clean")) {
			fprintf(stderr, "polltax cache: '%s' is not 'clean'\n", argv[optind]);
			free(root);
			return args_bad_option(usage);
		}
		rc = clean(root, argc - optind - 1, argv + optind + 1);
		free(root);
		return rc;
	}
	printf("%s\n", root);
	for (size_t i = 0; i < NPARTS; i++) {
		char *p = path_join(root, parts[i].name);
		bool exists;
		unsigned long long b = du(p, &exists);

		total += b;
		human(hb, sizeof(hb), b);
		printf("  %-15s %10s  %s\n", parts[i].name, exists ? hb : "-", parts[i].what);
		free(p);
	}
	human(hb, sizeof(hb), total);
	printf("  %-15s %10s  ('polltax cache clean [PART...]' removes them)\n", "total", hb);
	free(root);
	return 0;
}
