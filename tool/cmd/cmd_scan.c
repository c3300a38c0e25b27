// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_scan.c - "polltax scan KERNEL_DIR": classify every ->poll
 * implementation of a tree and write polltax.json, polltax.csv,
 * summary.md and report.html (and append an entry to history.json when the
 * counts changed) in the output directory.
 */
#define _GNU_SOURCE
#include "args.h"
#include "commands.h"
#include "scan/history.h"
#include "scan/output.h"
#include "scan/scan.h"

#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
"usage: polltax scan [options] KERNEL_DIR\n"
"\n"
"Classify every ->poll implementation of the kernel tree KERNEL_DIR (a git\n"
"clone or an unpacked tarball) by the wait queues it registers, and write:\n"
"  polltax.json   every fact (schema: tool/SCHEMA.md)\n"
"  polltax.csv    one row per implementation\n"
"  summary.md     counts per class and per subsystem, for a mail\n"
"  history.json   one entry per scan whose counts changed (see 'polltax\n"
"                 progress')\n"
"  report.html    one self-contained page of it all (see 'polltax report')\n"
"\n"
"Compile flags come from KERNEL_DIR/compile_commands.json, else its\n"
"compile_flags.txt, else an in-tree prepared build, else polltax runs\n"
"'make O=<cache> CONFIG prepare' in its cache.  The tree is never written to.\n"
"\n"
"options:\n"
"  -o, --output DIR     where to write (default: polltax-out, in the current\n"
"                       directory); never inside KERNEL_DIR: refused there\n"
"  -j, --jobs N         parallel parses (default: number of CPUs)\n"
"      --only-dir DIR   report only the implementations under DIR (relative to\n"
"                       KERNEL_DIR, or a path inside it), decided with the\n"
"                       whole tree's flags and helpers; 'polltax scan\n"
"                       TREE/drivers/media' is 'polltax scan --only-dir\n"
"                       drivers/media TREE' (the tree's top is the first\n"
"                       directory above with Makefile, Kconfig and MAINTAINERS)\n"
"      --config TARGET  configuration to prepare (default: allmodconfig)\n"
"      --build DIR      prepared build directory to use (O=)\n"
"      --arch LIST      other architectures for the files x86's configuration\n"
"                       does not build: powerpc, s390, arm64, arm, um,\n"
"                       comma-separated, or 'all'.  Each is prepared in the\n"
"                       cache with its Debian cross compiler (for powerpc,\n"
"                       gcc-powerpc64le-linux-gnu; um uses gcc), and such a\n"
"                       file is parsed with the flags of the first one whose\n"
"                       configuration builds it\n"
"      --no-cache       read no cached result: parse every file and give it to\n"
"                       Coccinelle again (the entries are written anew)\n"
"      --no-cocci       skip the Coccinelle second opinion\n"
"      --no-pch         do not precompile the headers files share (slower;\n"
"                       for checking that the facts are the same)\n"
"      --trace-bodies   parse the bodies of the tracepoints as the tree writes\n"
"                       them (slower; by default a tracepoint is a call that\n"
"                       waits on nothing, whatever it is handed)\n"
"      --times FILE     write each parsed file's seconds there, with how it\n"
"                       was parsed (pch, plain, again: see polltax parse-floor)\n"
"                       and why not with a precompiled header\n"
"      --timeout SEC    give up on one file after SEC seconds (default: 300)\n"
"      --label TEXT     name this scan TEXT in history.json, for 'polltax\n"
"                       progress' (default: the tree's git describe or version;\n"
"                       e.g. '6.12 + 2/6 char..notify' for a tree with part of\n"
"                       a series applied)\n"
"  -q, --quiet          no progress output\n"
"  -h, --help           this text\n"
"\n"
"exit status: 0 done, 2 usage (an output inside KERNEL_DIR too), 3 bad input\n"
"(not a kernel tree, prepare failed), 4 a required tool is missing, 128 other\n"
"fatal errors.\n";

#define DEFAULT_OUT "polltax-out"

/* Does DIR hold what a kernel tree's top holds (Makefile, Kconfig, MAINTAINERS)? */
static bool is_tree_top(const char *dir)
{
	static const char *const tops[] = { "Makefile", "Kconfig", "MAINTAINERS" };
	bool all = true;

	for (size_t i = 0; i < 3 && all; i++) {
		char *p = path_join(dir, tops[i]);

		all = is_file(p);
		free(p);
	}
	return all;
}

/*
 * When PATH is a directory below a kernel tree's top (the first directory
 * above it that is a top), that top, and *SUB PATH relative to it; else
 * NULL (PATH is the tree, or no tree holds it: tree_open() says why).
 */
static char *tree_top_above(const char *path, char **sub)
{
	char *real = realpath(path, NULL), *d, *s;

	if (!real || !is_dir(real) || is_tree_top(real)) {
		free(real);
		return NULL;
	}
	d = xstrdup(real);
	while ((s = strrchr(d, '/')) && s != d) {
		*s = '\0';
		if (is_tree_top(d)) {
			*sub = xstrdup(real + strlen(d) + 1);
			free(real);
			return d;
		}
	}
	free(d);
	free(real);
	return NULL;
}

/* --only-dir DIR: relative to the tree T, or a path inside it as typed; dies when it is neither. */
static char *only_dir_of(const struct tree *t, const char *dir)
{
	char *p = path_join(t->root, dir), *real = NULL, *rel = NULL;
	size_t n = strlen(t->root);

	if (*dir != '/' && is_dir(p))
		real = realpath(p, NULL);
	if (!real && is_dir(dir))
		real = realpath(dir, NULL);
	if (real && !strncmp(real, t->root, n) && real[n] == '/')
		rel = xstrdup(real + n + 1);
	free(p);
	free(real);
	if (!rel)
		die_code(EXIT_USAGE, "--only-dir '%s' is no directory of the kernel tree '%s'", dir, t->root);
	return rel;
}

int cmd_scan(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "only-dir", required_argument, NULL, 'd' },
		{ "config", required_argument, NULL, 'c' },
		{ "build", required_argument, NULL, 'b' },
		{ "arch", required_argument, NULL, 'A' },
		{ "no-cache", no_argument, NULL, 'n' },
		{ "no-cocci", no_argument, NULL, 'N' },
		{ "no-pch", no_argument, NULL, 'P' },
		{ "trace-bodies", no_argument, NULL, 'B' },
		{ "times", required_argument, NULL, 'T' },
		{ "timeout", required_argument, NULL, 't' },
		{ "label", required_argument, NULL, 'L' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct scan_opts o = { .outdir = DEFAULT_OUT, .timeout = 300 };
	struct tree t;
	json_t *res;
	sigset_t hold, old;
	char *outdir, *build, *times, *where;
	const char *typed_out, *only = NULL, *tree_arg, *label = NULL;
	char *top = NULL, *sub = NULL;
	bool out_given = false;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:j:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'o': o.outdir = optarg; out_given = true; break;
		case 'j': o.jobs = args_jobs(optarg); break;
		case 'd': only = optarg; break;
		case 'c': o.prep.config = optarg; break;
		case 'b': o.prep.build = optarg; break;
		case 'A': o.prep.arches = args_arches(optarg); break;
		case 'n': o.no_cache = true; break;
		case 'N': o.no_cocci = true; break;
		case 'P': o.no_pch = true; break;
		case 'B': o.prep.trace_bodies = true; break;
		case 'T': o.times = optarg; break;
		case 't':
			o.timeout = atoi(optarg);
			if (o.timeout < 1)
				die_code(EXIT_USAGE, "--timeout takes a number of seconds, not '%s'", optarg);
			break;
		case 'L': label = optarg; break;
		case 'q': o.quiet = true; break;
		case 'h': return args_help(usage);
		default: return args_bad_option(usage);
		}
	}
	if (args_check(usage, argc, argv, optind, "KERNEL_DIR"))
		return EXIT_USAGE;
	o.prep.jobs = o.jobs;
	o.prep.quiet = o.quiet;
	/* every path as typed, resolved against the cwd once (make runs in the tree) */
	outdir = abs_path(o.outdir);
	build = abs_path(o.prep.build);
	times = abs_path(o.times);
	/* a directory below a tree's top: that tree, only that directory */
	tree_arg = argv[optind];
	top = tree_top_above(tree_arg, &sub);
	if (top && only)
		die_code(EXIT_USAGE, "'%s' is a directory of the kernel tree '%s': give the tree's top with --only-dir, "
			 "or the directory alone", tree_arg, top);
	tree_open(&t, top ? top : tree_arg);
	if (only)
		sub = only_dir_of(&t, only);
	o.only_dir = sub;
	/* before anything is written: the tree is only read */
	refuse_inside_tree(outdir, o.outdir, "-o", !out_given, t.root);
	refuse_inside_tree(build, o.prep.build, "--build", false, t.root);
	refuse_inside_tree(times, o.times, "--times", false, t.root);
	/* an output that cannot be written fails now, not after the scan */
	args_writable_dir(outdir, o.outdir, "-o");
	typed_out = o.outdir;
	o.outdir = outdir;
	o.prep.build = build;
	o.times = times;
	res = scan_tree(&t, &o);
	/*
	 * Each file is renamed into place whole; with the interrupting signals
	 * held until the last one is, an interrupted scan leaves all the
	 * previous outputs or all the new ones, never a mix.
	 */
	sigemptyset(&hold);
	sigaddset(&hold, SIGINT);
	sigaddset(&hold, SIGTERM);
	sigaddset(&hold, SIGHUP);
	sigaddset(&hold, SIGQUIT);
	sigprocmask(SIG_BLOCK, &hold, &old);
	if (write_outputs(o.outdir, res) < 0)
		die("cannot write the outputs to '%s'", o.outdir);
	where = sub ? xasprintf("%s//%s", t.root, sub) : xstrdup(t.root);
	if (history_append(o.outdir, typed_out, res, label, where) < 0)
		die("cannot update the history in '%s'", o.outdir);
	free(where);
	/* report.html, with the history just written, linking into the tree (scan says it wrote it) */
	cmd_report(5, (char *[]){ "report", "-q", "--tree", t.root, (char *)o.outdir, NULL });
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (!o.quiet) {
		json_t *cn = json_object_get(res, "counts");

		fprintf(stderr, "polltax: %lld implementations, %lld disagreements; wrote %s/polltax.json, "
			"polltax.csv, summary.md, report.html\n",
			json_integer_value(json_object_get(cn, "implementations")),
			json_integer_value(json_object_get(cn, "disagreements")), typed_out);
	}
	json_decref(res);
	tree_free(&t);
	free(outdir);
	free(build);
	free(times);
	free(top);
	free(sub);
	return 0;
}
