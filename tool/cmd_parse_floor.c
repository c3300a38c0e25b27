// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_parse_floor.c - "polltax parse-floor KERNEL_DIR": the parse floor of
 * 'make bench': libclang parses the translation units that 'polltax scan'
 * would parse, with the same flags and the same worker processes, and does
 * nothing else.  The scan's cold time is compared with this.
 */
#define _GNU_SOURCE
#include "commands.h"
#include "scan.h"

#include <clang-c/Index.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void parse_only(const struct tree *t, const char *rel, struct strvec *args)
{
	CXIndex idx = clang_createIndex(0, 0);
	CXTranslationUnit tu = NULL;
	char *abs = path_join(t->root, rel);
	unsigned opts = CXTranslationUnit_KeepGoing | CXTranslationUnit_IgnoreNonErrorsFromIncludedFiles;

	clang_parseTranslationUnit2(idx, abs, (const char *const *)args->v, (int)args->n, NULL, 0, opts, &tu);
	if (tu)
		clang_disposeTranslationUnit(tu);
	clang_disposeIndex(idx);
	free(abs);
}

int cmd_parse_floor(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "jobs", required_argument, NULL, 'j' },
		{ "build", required_argument, NULL, 'b' },
		{ "list", no_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct prepare_opts po = { NULL, NULL, 0, true };
	struct strvec files = STRVEC_INIT, skipped = STRVEC_INIT;
	struct tree t;
	struct flags fl;
	int jobs = online_cpus(), c, running = 0;
	bool list = false;
	size_t n = 0;
	double t0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "j:h", opts, NULL)) != -1) {
		if (c == 'j') {
			jobs = atoi(optarg);
		} else if (c == 'b') {
			po.build = optarg;
		} else if (c == 'l') {
			list = true;
		} else if (c == 'h') {
			puts("usage: polltax parse-floor [-j N] [--build DIR] [--list] KERNEL_DIR\n\n"
			     "Parse the files 'polltax scan' would parse, with the same flags, and do\n"
			     "nothing else; print the number of files and the seconds it took.\n"
			     "--list prints the files instead (for running another tool on them).");
			return 0;
		} else {
			return EXIT_USAGE;
		}
	}
	if (argc - optind != 1 || jobs < 1)
		die_code(EXIT_USAGE, "usage: polltax parse-floor [-j N] KERNEL_DIR");
	tree_open(&t, argv[optind]);
	flags_init(&fl, &t, &po);
	prefilter(t.root, &files, &skipped);
	if (list) {
		for (size_t i = 0; i < files.n; i++)
			puts(files.v[i]);
		return 0;
	}
	t0 = now_seconds();
	for (size_t i = 0; i < files.n || running; ) {
		if (i < files.n && running < jobs) {
			struct strvec args = STRVEC_INIT;

			if (!flags_for(&fl, &t, files.v[i], &args)) {
				sv_clear(&args);
				i++;
				continue;
			}
			fflush(stdout);
			pid_t pid = fork();

			if (pid < 0)
				die("fork: %s", strerror(errno));
			if (pid == 0) {
				parse_only(&t, files.v[i], &args);
				_exit(0);
			}
			sv_clear(&args);
			running++;
			n++;
			i++;
			continue;
		}
		if (wait(NULL) > 0)
			running--;
	}
	printf("%zu files parsed in %.2f s\n", n, now_seconds() - t0);
	sv_clear(&files);
	sv_clear(&skipped);
	flags_free(&fl);
	tree_free(&t);
	return 0;
}
