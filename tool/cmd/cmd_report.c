// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_report.c - "polltax report OUT_DIR": write OUT_DIR/report.html, the
 * one self-contained page of a scan (see report.h).  'polltax scan' writes
 * one at the end of every run; this command rewrites it with source links
 * or the movement since an older scan.
 */
#define _GNU_SOURCE
#include "args.h"
#include "commands.h"
#include "report/report.h"

#include <getopt.h>
#include <stdlib.h>

static const char usage[] =
"usage: polltax report [options] OUT_DIR\n"
"\n"
"Write OUT_DIR/report.html from OUT_DIR/polltax.json (a 'polltax scan -o\n"
"OUT_DIR'): one page, style and script inline, that opens from disk.  It\n"
"embeds the progress chart when OUT_DIR/history.json exists and a \"Tested\"\n"
"section when OUT_DIR/boot-test.json exists.  The same inputs give the same\n"
"bytes.\n"
"\n"
"options:\n"
"  -o, --output DIR      write DIR/report.html instead of OUT_DIR/report.html\n"
"      --html FILE       write the page to FILE (the old '-o FILE', which is\n"
"                        still taken, with a warning)\n"
"      --url TEMPLATE    link every location through TEMPLATE: %f is the file\n"
"                        (relative to the tree), %l the line, %v the tree's\n"
"                        version, %% a '%', e.g.\n"
"                        'https://elixir.bootlin.com/linux/v6.12/source/%f#L%l';\n"
"                        default: file://TREE/%f#L%l with --tree,\n"
"                        else the plain relative path\n"
"      --tree DIR        the scanned tree, for the default links ('polltax\n"
"                        scan' passes it)\n"
"      --since OLD_DIR   add the movement since the scan in OLD_DIR: implementations\n"
"                        added, removed, moved and reclassified\n"
"  -q, --quiet           do not say which file it wrote (on stderr)\n"
"  -h, --help            this text\n"
"\n"
"exit status: 0 done, 2 usage, 3 OUT_DIR (or OLD_DIR) holds no scan,\n"
"128 the page cannot be written.\n";

int cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "html", required_argument, NULL, 'H' },
		{ "url", required_argument, NULL, 'u' },
		{ "since", required_argument, NULL, 's' },
		{ "tree", required_argument, NULL, 't' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct report_opts o = { NULL, NULL, NULL, NULL };
	char *p, *dir, *outf = NULL, *shown;
	bool quiet = false;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'o': o.out = outf = args_out_file("report", optarg, "report.html", "--html"); break;
		case 'H': o.out = optarg; break;
		case 'u': o.url = optarg; break;
		case 's': o.since = optarg; break;
		case 't': o.tree = optarg; break;
		case 'q': quiet = true; break;
		case 'h': return args_help(usage);
		default: return args_bad_option(usage);
		}
	}
	if (args_check(usage, argc, argv, optind, "OUT_DIR"))
		return EXIT_USAGE;
	/* every path as typed, resolved against the cwd once; the page named as typed */
	shown = o.out ? xstrdup(o.out) : path_join(argv[optind], "report.html");
	dir = abs_path(argv[optind]);
	o.out = abs_path(o.out);
	o.since = abs_path(o.since);
	o.tree = o.tree ? realpath_or_die(o.tree) : NULL;
	p = path_join(dir, "polltax.json");
	if (!is_file(p))
		die_code(EXIT_INPUT, "'%s' holds no scan (no polltax.json); run 'polltax scan -o %s' first",
			 argv[optind], argv[optind]);
	free(p);
	if (o.since) {
		p = path_join(o.since, "polltax.json");
		if (!is_file(p))
			die_code(EXIT_INPUT, "'%s' holds no scan (no polltax.json)", o.since);
		free(p);
	}
	if (o.out)
		args_make_parent(o.out);
	if (report_write(dir, &o) < 0)
		die("cannot write the report of '%s'", argv[optind]);
	if (!quiet)
		fprintf(stderr, "polltax: wrote %s%s\n", shown, o.url || o.tree ? "" :
			" (its source links are paths in the tree: --tree DIR makes them open the file, "
			"--url TEMPLATE a web view)");
	free(shown);
	free(dir);
	free((char *)o.out);
	free((char *)o.since);
	free((char *)o.tree);
	free(outf);
	return 0;
}
