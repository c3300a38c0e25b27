// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_verify.c - "polltax verify DIR KERNEL_DIR": the options, the
 * patches of DIR (series_dir_patches()), then verify_run() (verify.h)
 * and the table.
 */
#define _GNU_SOURCE
#include "args.h"
#include "commands.h"
#include "series/series.h"
#include "verify/verify.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
"usage: polltax verify [options] DIR KERNEL_DIR\n"
"\n"
"Check the series in DIR (the output of 'polltax series', one posting or\n"
"several) against KERNEL_DIR, in a scratch work tree: git am every patch\n"
"in order; after each, build the objects of the .c files it touches, run\n"
"sparse on them and compare its warnings with those before the patch, and\n"
"run scripts/checkpatch.pl --strict (0 errors, 0 warnings).  Prints a\n"
"table, one row per patch.  KERNEL_DIR is never written to.\n"
"\n"
"A kernel tree is built with its Kbuild: make O=<build dir> C=2 file.o,\n"
"in a build directory configured once with --config and kept for the next\n"
"runs.  A tree without Kbuild but with compile_flags.txt (a test fixture)\n"
"has each file compiled with gcc -Werror and checked with sparse.\n"
"\n"
"options:\n"
"      --config TARGET  the configuration to build (default: allmodconfig)\n"
"  -j, --jobs N         parallel make jobs (default: number of CPUs)\n"
"      --no-build       only git am and checkpatch\n"
"  -o, --output DIR     also write the table (Markdown) to DIR/verify.md\n"
"      --table FILE     also write the table to FILE (the old '-o FILE', still\n"
"                       taken, with a warning)\n"
"  -q, --quiet          no progress output\n"
"  -h, --help           this text\n"
"\n"
"exit status: 0 every check passed, 1 a check failed, 2 usage, 3 bad input,\n"
"4 a required tool is missing, 128 other fatal errors.\n";

int cmd_verify(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "no-build", no_argument, NULL, 'B' },
		{ "output", required_argument, NULL, 'o' },
		{ "table", required_argument, NULL, 'T' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct verify_opts o = { "allmodconfig", 0, false, false };
	struct strvec patches = STRVEC_INIT;
	struct verify v;
	struct tree t;
	double t0 = now_seconds();
	const char *output = NULL, *typed_out;
	char *dir, *table;
	bool ok;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "j:o:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'c': o.config = optarg; break;
		case 'j': o.jobs = args_jobs(optarg); break;
		case 'B': o.no_build = true; break;
		case 'o': output = args_out_file("verify", optarg, "verify.md", "--table"); break;
		case 'T': output = optarg; break;
		case 'q': o.quiet = true; break;
		case 'h': return args_help(usage);
		default: return args_bad_option(usage);
		}
	}
	if (args_check(usage, argc, argv, optind, "DIR KERNEL_DIR"))
		return EXIT_USAGE;
	/* git am and make run in the scratch tree: no path may depend on the cwd */
	dir = abs_path(argv[optind]);
	typed_out = output;
	output = abs_path(output);
	if (!is_dir(dir))
		die_code(EXIT_INPUT, "'%s' is not a directory of patches", argv[optind]);
	series_dir_patches(dir, &patches, NULL);
	if (!patches.n)
		die_code(EXIT_INPUT, "no patches in '%s' (*.patch, or posting-N/*.patch)", argv[optind]);
	for (const char *const *p = (const char *const[]){ "git", "perl", "make", "gcc", "sparse", NULL }; *p; p++)
		if (!have_program(*p))
			die_code(EXIT_TOOL, "%s not found (apt-get install %s)", *p, *p);
	tree_open(&t, argv[optind + 1]);
	refuse_inside_tree(output, typed_out, "-o", false, t.root);

	verify_open(&v, &o, &t, dir, &patches);
	ok = verify_run(&v);
	table = verify_table(&v);
	fputs(table, stdout);
	if (output)
		args_make_parent(output);
	if (output && write_file_atomic(output, table, strlen(table)) < 0)
		die("cannot write '%s'", output);
	if (!o.quiet)
		fprintf(stderr, "polltax: verify took %.0f s\n", now_seconds() - t0);

	verify_close(&v);
	free(table);
	sv_clear(&patches);
	free(dir);
	free((char *)output);
	tree_free(&t);
	return ok ? 0 : EXIT_FINDINGS;
}
