// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_progress.c - "polltax progress OUT_DIR": conversion progress across
 * the scans recorded in OUT_DIR/history.json: a table on stdout and a
 * chart, OUT_DIR/progress.svg (see progress.h).  With --since, also the
 * movement between an older scan and this one, and --markdown writes both
 * as a Markdown page (reports/progress.md is made so).
 */
#define _GNU_SOURCE
#include "args.h"
#include "commands.h"
#include "scan/history.h"
#include "report/movement.h"
#include "report/progress.h"

#include <getopt.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
"usage: polltax progress [options] OUT_DIR\n"
"\n"
"Print one row per scan recorded in OUT_DIR/history.json (date, version,\n"
"implementations, converted, convertible \"yes\", refused, needs-open, review,\n"
"flagged \"no\") and write the chart of converted, convertible and flagged to\n"
"OUT_DIR/progress.svg.  \"refused\" is what 'polltax series --scan OUT_DIR'\n"
"refused to convert (it records that in OUT_DIR/refused.json); each is\n"
"listed with the reason, and \"convertible\" counts the others, so it reaches\n"
"0 once the series is applied.  The version is the tree's git describe (a\n"
"commit without a tag: its hash@date of the commit), else its Makefile's.\n"
"\n"
"options:\n"
"  -o, --output DIR      write the chart to DIR/progress.svg instead\n"
"      --svg FILE        write the chart to FILE (the old '-o SVG', which is\n"
"                        still taken, with a warning)\n"
"      --since OLD_DIR   also print what moved between the scan in OLD_DIR and\n"
"                        the one in OUT_DIR: implementations added, removed,\n"
"                        moved to another file and reclassified\n"
"      --markdown FILE   write the table, the chart (as a link) and the\n"
"                        movement to FILE as Markdown\n"
"      --history FILE    read the scans from FILE instead of\n"
"                        OUT_DIR/history.json (reports/: the history of 6.1,\n"
"                        6.12 and 6.12 with each posting of its series\n"
"                        applied, shown with the scan of 6.12)\n"
"  -h, --help            this text\n"
"\n"
"exit status: 0 done, 2 usage, 3 no history.json (or no scan in OLD_DIR),\n"
"128 a file cannot be written.\n";

static json_t *load_scan(const char *dir)
{
	char *p = path_join(dir, "polltax.json");
	json_error_t je;
	json_t *r = json_load_file(p, 0, &je);

	if (!r)
		die_code(EXIT_INPUT, "cannot read '%s': %s", p, je.text);
	free(p);
	return r;
}

/* PATH as seen from the directory of FROM (both as given, made absolute). */
static char *relative_to(const char *path, const char *from)
{
	char *dir = xstrdup(from), *slash = strrchr(dir, '/'), *a, *b, *rel;
	const char *pa, *pb, *cut;
	struct strbuf sb = STRBUF_INIT;

	if (slash)
		*slash = '\0';
	else
		strcpy(dir, ".");
	a = realpath(dir, NULL);
	b = realpath(path, NULL);
	free(dir);
	if (!a || !b) {
		free(a);
		free(b);
		return xstrdup(path);
	}
	/* the longest common prefix of whole components */
	pa = a;
	pb = b;
	cut = a;
	while (*pa && *pa == *pb) {
		pa++;
		pb++;
		if (*pa == '/' && (*pb == '/' || !*pb))
			cut = pa;
	}
	if (!*pa && *pb == '/')
		cut = pa;
	pb = b + (cut - a);
	for (pa = cut; *pa; pa++)
		if (*pa == '/')
			sb_adds(&sb, "../");
	sb_adds(&sb, *pb == '/' ? pb + 1 : pb);
	rel = sb_detach(&sb);
	free(a);
	free(b);
	return rel;
}

/* The refusals of the last scan, each with its reason (MD: as a Markdown list). */
static void refused_list(struct strbuf *sb, json_t *refused, bool md)
{
	json_t *x;
	size_t i;

	if (!json_array_size(refused))
		return;
	sb_addf(sb, "\n%zu refused by polltax series, with the reason:\n%s", json_array_size(refused), md ? "\n" : "");
	json_array_foreach(refused, i, x)
		sb_addf(sb, md ? "- `%s`: `%s()`: %s\n" : "  %s: %s(): %s\n",
			json_string_value(json_object_get(x, "file")), json_string_value(json_object_get(x, "function")),
			json_string_value(json_object_get(x, "reason")));
}

int cmd_progress(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "svg", required_argument, NULL, 'S' },
		{ "since", required_argument, NULL, 's' },
		{ "markdown", required_argument, NULL, 'm' },
		{ "history", required_argument, NULL, 'H' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *svg_path = NULL, *since = NULL, *md = NULL, *hist = NULL;
	struct strbuf sb = STRBUF_INIT;
	json_t *h, *mv = NULL, *refused;
	char *hp, *svg, *dir, *outf = NULL;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o': svg_path = outf = args_out_file("progress", optarg, "progress.svg", "--svg"); break;
		case 'S': svg_path = optarg; break;
		case 's': since = optarg; break;
		case 'm': md = optarg; break;
		case 'H': hist = optarg; break;
		case 'h': return args_help(usage);
		default: return args_bad_option(usage);
		}
	}
	if (args_check(usage, argc, argv, optind, "OUT_DIR"))
		return EXIT_USAGE;
	/* every path as typed, resolved against the cwd once */
	dir = abs_path(argv[optind]);
	svg_path = abs_path(svg_path);
	since = abs_path(since);
	md = abs_path(md);
	hp = hist ? abs_path(hist) : path_join(dir, "history.json");
	if (!is_file(hp))
		die_code(EXIT_INPUT, "no history in '%s'; every 'polltax scan -o %s' adds to it", hp, argv[optind]);
	h = history_load(hp);
	if (!json_array_size(h))
		die_code(EXIT_INPUT, "'%s' records no scan", hp);
	svg = svg_path ? xstrdup(svg_path) : path_join(dir, "progress.svg");
	{
		/* what series refused of the last scan (it ran after that scan: the entry may not say it) */
		char *sp = path_join(dir, "polltax.json");
		json_t *cur = is_file(sp) ? json_load_file(sp, 0, NULL) : NULL;
		json_t *last = json_array_get(h, json_array_size(h) - 1);

		refused = cur ? history_refused(dir, cur) : NULL;
		if (refused && !json_object_get(last, "refused"))
			json_object_set_new(last, "refused", json_integer((json_int_t)json_array_size(refused)));
		json_decref(cur);
		free(sp);
	}
	if (since) {
		json_t *old = load_scan(since), *cur = load_scan(dir);

		mv = movement_compute(old, cur);
		json_decref(old);
		json_decref(cur);
	}

	progress_table_text(&sb, h);
	refused_list(&sb, refused, false);
	fputs(sb.buf, stdout);
	sb_reset(&sb);
	progress_svg(&sb, h);
	args_make_parent(svg);
	if (write_file_atomic(svg, sb.buf, sb.len) < 0)
		die("cannot write the chart");
	sb_reset(&sb);
	if (mv) {
		movement_markdown(&sb, mv);
		printf("\n%s", sb.buf);
		sb_reset(&sb);
	}
	if (md) {
		char *rel = relative_to(svg, md);
		json_t *last = json_array_get(h, json_array_size(h) - 1);

		sb_addf(&sb, "# Conversion progress of the ->poll implementations\n\n"
			     "%zu scans recorded in `history.json`, the last of linux %s. \"convertible\" counts "
			     "convertible `yes` that `polltax series` did not refuse, \"refused\" what it refused "
			     "(with the reason, in `refused.json` next to the scan it used), \"flagged\" "
			     "convertible `no` (they keep `->poll`); the classes are those of `TAXONOMY.md`.\n\n",
			json_array_size(h),
			json_string_value(json_object_get(last, "version")) ?
			json_string_value(json_object_get(last, "version")) : "?");
		progress_table_markdown(&sb, h);
		refused_list(&sb, refused, true);
		sb_addf(&sb, "\n![converted, convertible and flagged per scan](%s)\n\n", rel);
		if (mv)
			movement_markdown(&sb, mv);
		if (write_file_atomic(md, sb.buf, sb.len) < 0)
			die("cannot write the Markdown page");
		free(rel);
	}
	sb_release(&sb);
	json_decref(mv);
	json_decref(refused);
	json_decref(h);
	free(svg);
	free(outf);
	free(hp);
	free(dir);
	free((char *)svg_path);
	free((char *)since);
	free((char *)md);
	return 0;
}
