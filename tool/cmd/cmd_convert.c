// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_convert.c - "polltax convert KERNEL_DIR": the convert stage alone.
 * Converts the auto-convertible implementations in a private copy of
 * the files involved and prints one unified diff; the tree is not
 * written to.  "polltax series" does the same in a scratch git tree and
 * makes patches of it.
 */
#define _GNU_SOURCE
#include "args.h"
#include "commands.h"
#include "convert/convert.h"
#include "scan/cocci.h"
#include "scan/pipeline.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage[] =
"usage: polltax convert [options] KERNEL_DIR\n"
"\n"
"Convert every implementation that the scan found auto-convertible\n"
"(\"convertible\": \"yes\") to ->poll_mask and f_poll_head, with\n"
"cocci/poll_mask.cocci and cocci/f_poll_head.cocci instantiated for each,\n"
"in a private copy of the files involved, and print the result as one\n"
"unified diff (a/ b/ paths, for patch -p1 or git apply).  KERNEL_DIR is\n"
"not written to.  An implementation that cannot be converted mechanically\n"
"and correctly is left alone and reported on stderr with the reason.\n"
"\n"
"options:\n"
"      --scan DIR      the scan of KERNEL_DIR to use (DIR/polltax.json);\n"
"                      default: scan it now\n"
"      --only FUNC     convert only the implementation FUNC (repeatable)\n"
"      --plan          print the plans (JSON) instead of converting\n"
"  -o, --output DIR    write the diff to DIR/convert.diff instead of stdout\n"
"      --diff FILE     write the diff to FILE (the old '-o FILE', which is\n"
"                      still taken, with a warning)\n"
"  -q, --quiet         no summary on stderr\n"
"  -h, --help          this text\n"
"\n"
"exit status: 0 done (also when some were refused), 2 usage, 3 bad input,\n"
"4 spatch missing, 128 other fatal errors.\n";

/* Copy ROOT/REL to DST/REL. */
static void copy_rel(const char *root, const char *dst, const char *rel)
{
	char *s = path_join(root, rel), *d = path_join(dst, rel), *dir = xstrdup(d), *text;
	size_t len;

	*strrchr(dir, '/') = '\0';
	if (mkdir_p(dir) < 0)
		die("cannot create '%s': %s", dir, strerror(errno));
	if (read_file(s, &text, &len) < 0)
		die_code(EXIT_INPUT, "cannot read '%s': %s", s, strerror(errno));
	if (write_file_atomic(d, text, len) < 0)
		die("cannot write '%s'", d);
	free(text);
	free(s);
	free(d);
	free(dir);
}

int cmd_convert(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "scan", required_argument, NULL, 's' },
		{ "only", required_argument, NULL, 'O' },
		{ "plan", no_argument, NULL, 'p' },
		{ "output", required_argument, NULL, 'o' },
		{ "diff", required_argument, NULL, 'D' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *scan_dir = NULL, *output = NULL, *typed_out;
	char *outf = NULL;
	struct strvec only = STRVEC_INIT, files = STRVEC_INIT;
	bool plan_only = false, quiet = false;
	struct tree t;
	struct convert cv;
	json_t *scan, *impls, *plans = json_array(), *x;
	struct strbuf diff = STRBUF_INIT;
	char *tmp;
	size_t i, nconv = 0, nref = 0;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:qh", opts, NULL)) != -1) {
		switch (c) {
		case 's': scan_dir = optarg; break;
		case 'O': sv_push(&only, optarg); break;
		case 'p': plan_only = true; break;
		case 'o': output = outf = args_out_file("convert", optarg, "convert.diff", "--diff"); break;
		case 'D': output = optarg; break;
		case 'q': quiet = true; break;
		case 'h': return args_help(usage);
		default: return args_bad_option(usage);
		}
	}
	if (args_check(usage, argc, argv, optind, "KERNEL_DIR"))
		return EXIT_USAGE;
	/* every path as typed, resolved against the cwd once */
	typed_out = output;
	scan_dir = abs_path(scan_dir);
	output = abs_path(output);
	if (!have_program("spatch"))
		die_code(EXIT_TOOL, "spatch not found (apt-get install coccinelle)");
	tree_open(&t, argv[optind]);
	refuse_inside_tree(output, typed_out, "-o", false, t.root);
	scan = pipeline_scan(&t, scan_dir, NULL, NULL, quiet);
	impls = pipeline_convertible(scan);

	/* plan on the tree itself (read only) */
	convert_init(&cv, t.root, cocci_dir());
	convert_prefetch(&cv, impls, online_cpus());
	json_array_foreach(impls, i, x) {
		const char *fn = json_string_value(json_object_get(x, "function"));
		json_t *p;

		if (only.n && !sv_contains(&only, fn))
			continue;
		p = convert_plan(&cv, x);
		json_array_append_new(plans, p);
		if (json_is_true(json_object_get(p, "ok")))
			convert_plan_files(p, &files);
	}
	if (plan_only) {
		char *s = json_dumps(plans, JSON_INDENT(2) | JSON_SORT_KEYS);

		printf("%s\n", s);
		free(s);
		goto out;
	}

	/* apply in a copy of the files involved */
	tmp = xasprintf("%s/tmp/convert-XXXXXX", cache_root());
	{
		char *d = xasprintf("%s/tmp", cache_root());

		if (mkdir_p(d) < 0 || !mkdtemp(tmp))
			die("cannot create a directory under '%s': %s", d, strerror(errno));
		free(d);
	}
	for (i = 0; i < files.n; i++)
		copy_rel(t.root, tmp, files.v[i]);
	cv.root = tmp;
	json_object_clear(cv.refs);	/* the copy holds exactly the files that mention a name */
	json_array_foreach(plans, i, x) {
		char *reason = NULL;

		if (!json_is_true(json_object_get(x, "ok"))) {
			nref++;
			if (!quiet)
				fprintf(stderr, "polltax: %s: %s(): not converted: %s\n",
					json_string_value(json_object_get(x, "file")),
					json_string_value(json_object_get(x, "function")),
					json_string_value(json_object_get(x, "reason")));
			continue;
		}
		if (convert_apply(&cv, x, &reason) < 0) {
			nref++;
			if (!quiet)
				fprintf(stderr, "polltax: %s: %s(): not converted: %s\n",
					json_string_value(json_object_get(x, "file")),
					json_string_value(json_object_get(x, "function")), reason);
			free(reason);
			continue;
		}
		nconv++;
	}
	for (i = 0; i < files.n; i++) {
		char *a = path_join(t.root, files.v[i]), *b = path_join(tmp, files.v[i]);
		char *la = xasprintf("a/%s", files.v[i]), *lb = xasprintf("b/%s", files.v[i]);
		const char *dargv[] = { "diff", "-u", "--label", la, "--label", lb, a, b, NULL };
		int rc = run_cmd(dargv, NULL, &diff, false);

		if (rc != 0 && rc != 1)
			die("diff failed on '%s'", files.v[i]);
		free(a);
		free(b);
		free(la);
		free(lb);
	}
	if (output) {
		args_make_parent(output);
		if (write_file_atomic(output, diff.buf ? diff.buf : "", diff.len) < 0)
			die("cannot write '%s'", output);
	} else {
		fwrite(diff.buf ? diff.buf : "", 1, diff.len, stdout);
	}
	if (!quiet)
		fprintf(stderr, "polltax: %zu converted, %zu not converted\n", nconv, nref);
	rm_rf(tmp);
	free(tmp);
out:
	convert_release(&cv);
	json_decref(plans);
	json_decref(impls);
	json_decref(scan);
	sb_release(&diff);
	sv_clear(&only);
	sv_clear(&files);
	tree_free(&t);
	free((char *)scan_dir);
	free(outf);
	free((char *)output);
	return 0;
}
