// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_parse_floor.c - "polltax parse-floor KERNEL_DIR": the parse floor of
 * 'make bench': libclang parses the translation units that 'polltax scan'
 * would parse, with the same flags, precompiled headers and worker
 * processes, and does nothing else (scan_parse_floor()).  The scan's cold
 * time is compared with this.
 */
#define _GNU_SOURCE
#include "args.h"
#include "commands.h"
#include "scan/scan.h"

#include <getopt.h>
#include <stdlib.h>

static const char usage[] =
"usage: polltax parse-floor [-j N] [--build DIR] [--no-pch] [--trace-bodies]\n"
"                           [--times FILE] [--scan DIR] [--list] KERNEL_DIR\n"
"\n"
"Parse the files a cold 'polltax scan' would parse, with the same flags,\n"
"precompiled headers (building them is part of the time) and worker\n"
"processes, and do nothing else; print the number of files and the\n"
"seconds it took ('make bench' compares the scan's cold time with it).\n"
"\n"
"options:\n"
"  -j, --jobs N          parallel parses (default: number of CPUs)\n"
"      --build DIR       prepared build directory to use (O=), as for scan\n"
"      --no-pch          parse each file on its own, no precompiled headers\n"
"      --trace-bodies    parse the bodies of the tracepoints too, as scan does\n"
"                        with the same option\n"
"      --times FILE      write a line per file there, tab-separated: seconds,\n"
"                        how it was parsed (pch, plain, or again: with the\n"
"                        PCH, then without because of an error), the file,\n"
"                        and why it was not parsed with a precompiled header\n"
"                        (\"#defines DEBUG before an #include\", ...)\n"
"      --scan DIR        also the files that scan (DIR/polltax.json, of the\n"
"                        same tree) parsed beyond the candidates: the\n"
"                        definers of the callees heads come from, the files\n"
"                        naming non-static ops, the frameworks' code\n"
"                        (files.definers)\n"
"      --list            print the files instead (to run another tool on them)\n"
"  -h, --help            this text\n"
"\n"
"exit status: 0 done, 2 usage, 3 bad input (not a kernel tree), 4 a\n"
"required tool is missing, 128 other fatal errors.\n";

int cmd_parse_floor(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "jobs", required_argument, NULL, 'j' },
		{ "build", required_argument, NULL, 'b' },
		{ "list", no_argument, NULL, 'l' },
		{ "no-pch", no_argument, NULL, 'P' },
		{ "trace-bodies", no_argument, NULL, 'B' },
		{ "times", required_argument, NULL, 'T' },
		{ "scan", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct scan_opts o = { .jobs = online_cpus(), .quiet = true, .timeout = 300 };
	struct strvec files = STRVEC_INIT, skipped = STRVEC_INIT, also = STRVEC_INIT;
	const char *scan_dir = NULL;
	struct tree t;
	int c;
	bool list = false;
	size_t n = 0;
	double secs;

	optind = 1;
	while ((c = getopt_long(argc, argv, "j:h", opts, NULL)) != -1) {
		if (c == 'j') {
			o.jobs = atoi(optarg);
		} else if (c == 'b') {
			o.prep.build = optarg;
		} else if (c == 'l') {
			list = true;
		} else if (c == 'P') {
			o.no_pch = true;
		} else if (c == 'B') {
			o.prep.trace_bodies = true;
		} else if (c == 'T') {
			o.times = optarg;
		} else if (c == 'S') {
			scan_dir = optarg;
		} else if (c == 'h') {
			return args_help(usage);
		} else {
			return args_bad_option(usage);
		}
	}
	if (o.jobs < 1)
		die_code(EXIT_USAGE, "-j takes a number from 1 to 1024");
	if (args_check(usage,
		       argc, argv, optind, "KERNEL_DIR"))
		return EXIT_USAGE;
	o.prep.jobs = o.jobs;
	o.prep.quiet = true;
	/* resolved against the cwd once: make runs in the tree */
	o.prep.build = abs_path(o.prep.build);
	o.times = abs_path(o.times);
	tree_open(&t, argv[optind]);
	if (scan_dir) {
		char *jp = path_join(scan_dir, "polltax.json");
		json_error_t je;
		json_t *j = json_load_file(jp, 0, &je), *v;
		size_t i;

		if (!j)
			die_code(EXIT_INPUT, "cannot read '%s': %s (give the output directory of 'polltax scan')", jp,
				 je.text);
		json_array_foreach(json_object_get(json_object_get(j, "files"), "definers"), i, v)
			if (json_is_string(v))
				sv_push(&also, json_string_value(v));
		json_decref(j);
		free(jp);
	}
	refuse_inside_tree(o.prep.build, o.prep.build, "--build", false, t.root);
	refuse_inside_tree(o.times, o.times, "--times", false, t.root);
	if (list) {
		struct flags fl;

		flags_init(&fl, &t, &o.prep);	/* prepares the build directory if need be */
		flags_free(&fl);
		prefilter(t.root, &files, &skipped);
		for (size_t i = 0; i < also.n; i++)
			if (!sv_contains(&files, also.v[i]))
				sv_push(&files, also.v[i]);
		sv_sort(&files);
		for (size_t i = 0; i < files.n; i++)
			puts(files.v[i]);
		sv_clear(&files);
		sv_clear(&skipped);
		tree_free(&t);
		free((char *)o.prep.build);
		free((char *)o.times);
		return 0;
	}
	secs = scan_parse_floor(&t, &o, &also, &n);
	sv_clear(&also);
	printf("%zu files parsed in %.2f s\n", n, secs);
	tree_free(&t);
	free((char *)o.prep.build);
	free((char *)o.times);
	return 0;
}
