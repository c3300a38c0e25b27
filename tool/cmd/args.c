// SPDX-License-Identifier: GPL-2.0
/*
 * args.c - the command line in one voice for every command (args.h).
 */
#define _GNU_SOURCE
#include "args.h"
#include "lib/arch.h"
#include "lib/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

/* "polltax scan" from "usage: polltax scan [options] KERNEL_DIR\n..." */
static char *usage_cmd(const char *usage)
{
	const char *p = strncmp(usage, "usage: ", 7) ? usage : usage + 7;
	const char *sp = strchr(p, ' ');

	if (sp)
		sp = strchr(sp + 1, ' ');
	return xstrndup(p, sp ? (size_t)(sp - p) : strcspn(p, "\n"));
}

static void usage_tail(const char *usage)
{
	char *cmd = usage_cmd(usage);

	fprintf(stderr, "%.*s\n'%s --help' tells more.\n", (int)strcspn(usage, "\n"), usage, cmd);
	free(cmd);
}

int args_help(const char *usage)
{
	static const char home[] = "~/.cache/polltax";
	const char *x = getenv("XDG_CACHE_HOME");
	char *cache;
	const char *p = usage, *hit;

	if (!x || !*x) {
		fputs(usage, stdout);
		return 0;
	}
	cache = cache_home();
	while ((hit = strstr(p, home))) {
		fwrite(p, 1, (size_t)(hit - p), stdout);
		fputs(cache, stdout);
		p = hit + sizeof(home) - 1;
	}
	fputs(p, stdout);
	free(cache);
	return 0;
}

int args_bad_option(const char *usage)
{
	usage_tail(usage);
	return EXIT_USAGE;
}

int args_jobs(const char *arg)
{
	char *end;
	long n = strtol(arg, &end, 10);

	if (end == arg || *end || n < 1 || n > 1024)
		die_code(EXIT_USAGE, "-j takes a number from 1 to 1024, not '%s'", arg);
	return (int)n;
}

const char *args_arches(const char *arg)
{
	const struct arch_info *as[ARCH_MAX];
	char *err;

	if (arch_parse(arg, as, &err) < 0)
		die_code(EXIT_USAGE, "%s", err);
	return arg;
}

int args_check(const char *usage, int argc, char **argv, int first, const char *names)
{
	struct strvec nv = STRVEC_INIT;
	char *cmd, *dup = xstrdup(names), *save = NULL;
	size_t min, max, have = argc > first ? (size_t)(argc - first) : 0;
	int rc = 0;

	for (char *w = strtok_r(dup, " ", &save); w; w = strtok_r(NULL, " ", &save))
		sv_push(&nv, w);
	free(dup);
	min = max = nv.n;
	if (nv.n && has_suffix(nv.v[nv.n - 1], "..."))
		max = (size_t)-1;
	cmd = usage_cmd(usage);
	if (have < min) {
		struct strbuf sb = STRBUF_INIT;

		for (size_t i = have; i < min; i++) {
			const char *n = nv.v[i];

			sb_addf(&sb, "%s%.*s", i == have ? "" : i + 1 == min ? " and " : ", ",
				(int)(strlen(n) - (has_suffix(n, "...") ? 3 : 0)), n);
		}
		fprintf(stderr, "%s: missing %s\n", cmd, sb.buf);
		sb_release(&sb);
		rc = EXIT_USAGE;
	} else if (have > max) {
		fprintf(stderr, "%s: unexpected argument '%s' (it takes %s)\n", cmd, argv[first + max], names);
		rc = EXIT_USAGE;
	}
	if (rc)
		usage_tail(usage);
	free(cmd);
	sv_clear(&nv);
	return rc;
}

char *args_out_file(const char *cmd, const char *arg, const char *name, const char *file_opt)
{
	struct stat st;
	const char *base = strrchr(arg, '/') ? strrchr(arg, '/') + 1 : arg;
	const char *dot = strrchr(base, '.');
	bool file = !stat(arg, &st) ? !S_ISDIR(st.st_mode) : dot && dot > base && dot[1];

	if (!file)
		return path_join(arg, name);
	warning("'polltax %s -o FILE' is deprecated: -o names a directory (it gets %s); "
		"write '%s %s' for a file", cmd, name, file_opt, arg);
	return xstrdup(arg);
}

void args_writable_dir(const char *path, const char *typed, const char *opt)
{
	char *d = xstrdup(path), *probe;
	struct stat st;

	/* the nearest part of PATH that exists */
	while (stat(d, &st) < 0) {
		char *s = strrchr(d, '/');

		if (errno != ENOENT && errno != ENOTDIR)
			die_code(EXIT_USAGE, "%s '%s' cannot be written: '%s': %s", opt, typed, d, strerror(errno));
		if (!s || s == d) {
			d[1] = '\0';
			d[0] = '/';
			break;
		}
		*s = '\0';
	}
	if (stat(d, &st) == 0 && !S_ISDIR(st.st_mode))
		die_code(EXIT_USAGE, "%s '%s' cannot be written: '%s' is not a directory", opt, typed, d);
	if (!strcmp(d, path)) {
		/* it exists: asked, not tried (its previous outputs, mtime included, stay as they are) */
		struct statvfs vfs;

		if (access(d, W_OK | X_OK) < 0)
			die_code(EXIT_USAGE, "%s '%s' cannot be written: %s", opt, typed, strerror(errno));
		if (statvfs(d, &vfs) == 0 && (vfs.f_flag & ST_RDONLY))
			die_code(EXIT_USAGE, "%s '%s' cannot be written: %s", opt, typed, strerror(EROFS));
		free(d);
		return;
	}
	/* as root, access() says yes to what a read-only file system refuses: try it */
	probe = path_join(d, ".polltax-probe-XXXXXX");
	if (!mkdtemp(probe))
		die_code(EXIT_USAGE, "%s '%s' cannot be written: cannot create anything in '%s': %s", opt, typed, d,
			 strerror(errno));
	rmdir(probe);
	free(probe);
	free(d);
}

void args_make_parent(const char *file)
{
	char *d = xstrdup(file), *s = strrchr(d, '/');

	if (s && s != d) {
		*s = '\0';
		if (mkdir_p(d) < 0)
			die("cannot create '%s': %s", d, strerror(errno));
	}
	free(d);
}
