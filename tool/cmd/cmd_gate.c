// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_gate.c - "polltax gate --scan SAVED_DIR KERNEL_DIR": for a
 * subsystem's CI or a pre-commit hook.  Scans the tree now and compares
 * it with a saved scan (movement.c): every implementation that is
 * convertible "yes" now and was not before (added, or reclassified or
 * moved from another verdict) is a new ->poll that could be ->poll_mask,
 * printed as "file:line: function(): could be ->poll_mask: reason";
 * exit 1 when there is one.
 */
#include "args.h"
#include "commands.h"
#include "lib/json_util.h"
#include "report/movement.h"
#include "scan/output.h"
#include "scan/scan.h"

#include <getopt.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
"usage: polltax gate [options] --scan SAVED_DIR KERNEL_DIR\n"
"\n"
"For a subsystem's CI or a pre-commit hook: scan KERNEL_DIR now and\n"
"compare it with the saved scan SAVED_DIR/polltax.json (a 'polltax scan\n"
"-o SAVED_DIR' of the tree before the change).  Every ->poll implementation\n"
"that could be ->poll_mask (convertible \"yes\") and was not so in the\n"
"saved scan (new, or reclassified, or moved from another verdict) is\n"
"printed on stdout, one line each:\n"
"\n"
"  file:line: function(): could be ->poll_mask: reason\n"
"\n"
"Nothing is written to KERNEL_DIR; the new scan is kept only with -o.\n"
"\n"
"options:\n"
"      --scan DIR       the saved scan to compare with (required)\n"
"  -o, --output DIR     also write the new scan there (as 'polltax scan -o')\n"
"  -j, --jobs N         parallel parses (default: number of CPUs)\n"
"  -q, --quiet          no progress line and no summary on stderr\n"
"  -h, --help           this text\n"
"\n"
"exit status: 0 no new convertible ->poll, 1 at least one (listed), 2 usage,\n"
"3 bad input (no saved scan in DIR, not a kernel tree), 128 other fatal errors.\n";

/* the implementation FN of FILE in the scan's IMPLS, or NULL */
static json_t *find_impl(json_t *impls, const char *file, const char *fn)
{
	json_t *x;
	size_t i;

	json_array_foreach(impls, i, x)
		if (!strcmp(jstr(x, "file"), file) && !strcmp(jstr(x, "function"), fn))
			return x;
	return NULL;
}

static bool yes(const char *v)
{
	return !strcmp(v, "yes");
}

/* Print the gained convertible implementations of MV (movement_compute() of the saved scan and CUR); their number. */
static size_t print_gained(json_t *mv, json_t *cur)
{
	json_t *impls = json_object_get(cur, "implementations"), *x, *y;
	size_t i, n = 0;

	json_array_foreach(json_object_get(mv, "added"), i, x) {
		if (!yes(jstr(x, "convertible")))
			continue;
		printf("%s:%lld: %s(): could be ->poll_mask: %s\n", jstr(x, "file"), jint(x, "line"),
		       jstr(x, "function"), jstr(x, "reason"));
		n++;
	}
	json_array_foreach(json_object_get(mv, "reclassified"), i, x) {
		if (!yes(jstr(x, "to_convertible")) || yes(jstr(x, "from_convertible")))
			continue;
		printf("%s:%lld: %s(): could be ->poll_mask: %s (was %s, convertible %s)\n", jstr(x, "file"),
		       jint(x, "line"), jstr(x, "function"), jstr(x, "reason"), jstr(x, "from_class"),
		       jstr(x, "from_convertible"));
		n++;
	}
	json_array_foreach(json_object_get(mv, "moved"), i, x) {
		if (!yes(jstr(x, "to_convertible")) || yes(jstr(x, "from_convertible")))
			continue;
		y = find_impl(impls, jstr(x, "to_file"), jstr(x, "function"));
		printf("%s:%lld: %s(): could be ->poll_mask: %s (moved from %s, was convertible %s)\n",
		       jstr(x, "to_file"), jint(x, "to_line"), jstr(x, "function"), y ? jstr(y, "reason") : "",
		       jstr(x, "from_file"), jstr(x, "from_convertible"));
		n++;
	}
	return n;
}

int cmd_gate(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "scan", required_argument, NULL, 's' },
		{ "output", required_argument, NULL, 'o' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct scan_opts o = { .outdir = "", .timeout = 300 };
	const char *saved_arg = NULL, *out_arg = NULL;
	char *saved_file, *outdir = NULL;
	json_error_t je;
	json_t *old, *cur, *mv;
	struct tree t;
	size_t n;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:j:qh", opts, NULL)) != -1) {
		switch (c) {
		case 's': saved_arg = optarg; break;
		case 'o': out_arg = optarg; break;
		case 'j': o.jobs = args_jobs(optarg); break;
		case 'q': o.quiet = true; break;
		case 'h': return args_help(usage);
		default: return args_bad_option(usage);
		}
	}
	if (args_check(usage, argc, argv, optind, "KERNEL_DIR"))
		return EXIT_USAGE;
	if (!saved_arg) {
		fputs("polltax gate: missing --scan SAVED_DIR, the scan to compare with\n", stderr);
		return args_bad_option(usage);
	}
	if (!o.jobs)
		o.jobs = online_cpus();
	o.prep.jobs = o.jobs;
	o.prep.quiet = o.quiet;
	/* the saved scan first: a bad one fails before the scan */
	saved_file = path_join(saved_arg, "polltax.json");
	old = json_load_file(saved_file, 0, &je);
	if (!old || !json_is_array(json_object_get(old, "implementations")))
		die_code(EXIT_INPUT, "'%s' holds no scan: cannot read '%s': %s", saved_arg, saved_file,
			 old ? "no implementations" : je.text);
	tree_open(&t, argv[optind]);
	if (out_arg) {
		outdir = abs_path(out_arg);
		refuse_inside_tree(outdir, out_arg, "-o", false, t.root);
		args_writable_dir(outdir, out_arg, "-o");
		o.outdir = outdir;
	}
	cur = scan_tree(&t, &o);
	if (outdir && (mkdir_p(outdir) < 0 || write_outputs(outdir, cur) < 0))
		die("cannot write the scan to '%s'", out_arg);
	mv = movement_compute(old, cur);
	n = print_gained(mv, cur);
	fflush(stdout);
	if (!o.quiet)
		fprintf(stderr, "polltax gate: %zu new ->poll that could be ->poll_mask since the scan '%s'\n", n,
			saved_arg);
	json_decref(mv);
	json_decref(cur);
	json_decref(old);
	tree_free(&t);
	free(saved_file);
	free(outdir);
	return n ? EXIT_FINDINGS : 0;
}
