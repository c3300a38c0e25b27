// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_series.c - "polltax series KERNEL_DIR -o DIR": the options, then
 * series_build() (the commits in a scratch tree) and series_post() (the
 * postings, README.md and series.json): series.h.
 */
#define _GNU_SOURCE
#include "args.h"
#include "commands.h"
#include "lib/maintainers.h"
#include "series/series.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
"usage: polltax series [options] KERNEL_DIR -o DIR\n"
"\n"
"Convert the single-queue ->poll implementations of KERNEL_DIR and write a\n"
"kernel patch series to DIR: the infrastructure patch first, then one patch\n"
"per MAINTAINERS section, then the cover letter; git format-patch layout\n"
"with To:/Cc: from scripts/get_maintainer.pl.  More than --max-patches\n"
"patches are split into postings DIR/posting-1/, posting-2/, ...  DIR also\n"
"gets README.md (how the output maps to postings) and series.json.\n"
"KERNEL_DIR is never written to: the work happens in a git tree in\n"
"~/.cache/polltax/work/.\n"
"\n"
"options:\n"
"  -o, --output DIR       where to write (replaced as a whole; not inside\n"
"                         KERNEL_DIR)\n"
"      --scan SCAN_DIR    use this scan of KERNEL_DIR (default: scan now,\n"
"                         into DIR/scan/)\n"
"      --signoff ID       \"Name <mail>\" for Signed-off-by and the author\n"
"                         (default: git config user.name and user.email)\n"
"      --split-per-driver one patch per driver file instead of per section\n"
"      --infra PATCH      use PATCH as the infrastructure patch (default: the\n"
"                         one polltax makes for KERNEL_DIR, as 'polltax infra')\n"
"      --no-infra         no infrastructure patch: the tree already has\n"
"                         f_poll_head and ->poll_mask (checked)\n"
"      --max-patches N    patches per posting (default: 15)\n"
"      --only FUNC        convert only FUNC (repeatable)\n"
"      --section NAME     convert only the implementations of this MAINTAINERS\n"
"                         section (its title in MAINTAINERS, case aside);\n"
"                         the infrastructure patch stays unless the tree has it\n"
"      --subject-prefix TEXT\n"
"                         \"[TEXT n/m]\" in the subjects (default: PATCH)\n"
"      --rfc              \"RFC \" before the subject prefix: [RFC PATCH n/m]\n"
"      --review           the review posting instead: convert the single-cond\n"
"                         implementations the scan could not prove safe (an\n"
"                         early return or a condition before poll_wait()),\n"
"                         as an RFC series of their own; each patch names the\n"
"                         facts its maintainer must confirm.  Never mixed\n"
"                         with the ready series: give it its own -o DIR\n"
"  -v, --reroll-count N   version N of the series: [PATCH vN n/m], files\n"
"                         vN-0001-*.patch (as git format-patch -v N)\n"
"      --tested FILE      put FILE, the \"Tested\" section 'polltax boot-test'\n"
"                         writes (boot-test.md), in the first cover letter\n"
"      --config TARGET    convert only what this configuration builds, so\n"
"                         that verify can build every patch (default:\n"
"                         allmodconfig; the scan's prepared build is used)\n"
"      --arch LIST        other architectures that may build a file x86's\n"
"                         configuration does not (as 'polltax scan --arch';\n"
"                         default: those the scan was made with); verify\n"
"                         builds such a file with that architecture's cross\n"
"                         compiler, and its commit message says so\n"
"  -q, --quiet            no progress output\n"
"  -h, --help             this text\n"
"\n"
"Without --infra or --no-infra: a tree whose include/linux/fs.h already has\n"
"f_poll_head and poll_mask needs none; otherwise polltax makes the\n"
"infrastructure patch for the tree from its own sources, signed off as the\n"
"other patches.\n"
"\n"
"exit status: 0 done, 2 usage (an unknown --section: the message lists the\n"
"names near it), 3 bad input (the tree's sources are not what\n"
"the infrastructure patch is made for: the message names the file and the\n"
"anchor; the infrastructure patch does not apply; no identity; a --scan of\n"
"another tree; nothing to send: the tree has f_poll_head and nothing could\n"
"be converted), 4 a required tool is missing, 128 other fatal errors.\n";

/* --section NAME: its title as MAINTAINERS writes it; an unknown name is a usage error naming the close ones. */
static const char *section_title(const char *root, const char *name)
{
	struct strvec close = STRVEC_INIT;
	struct strbuf sb = STRBUF_INIT;
	char *title = maint_section_named(root, name, &close);

	if (title)
		return title;
	for (size_t i = 0; i < close.n && i < 8; i++)
		sb_addf(&sb, "\n\t%s", close.v[i]);
	if (close.n > 8)
		sb_addf(&sb, "\n\t(%zu more)", close.n - 8);
	die_code(EXIT_USAGE, "--section: no MAINTAINERS section '%s' in '%s'%s%s", name, root,
		 close.n ? "; the most similar:" : " (see its MAINTAINERS file)", sb.buf ? sb.buf : "");
}

static int int_arg(const char *opt, const char *arg, int lo, int hi)
{
	char *end;
	long v = strtol(arg, &end, 10);

	if (!*arg || *end || v < lo || v > hi)
		die_code(EXIT_USAGE, "%s takes a number from %d to %d, not '%s'", opt, lo, hi, arg);
	return (int)v;
}

int cmd_series(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "scan", required_argument, NULL, 's' },
		{ "signoff", required_argument, NULL, 'S' },
		{ "split-per-driver", no_argument, NULL, 'd' },
		{ "infra", required_argument, NULL, 'i' },
		{ "no-infra", no_argument, NULL, 'n' },
		{ "max-patches", required_argument, NULL, 'm' },
		{ "only", required_argument, NULL, 'O' },
		{ "section", required_argument, NULL, 'e' },
		{ "subject-prefix", required_argument, NULL, 'p' },
		{ "rfc", no_argument, NULL, 'r' },
		{ "review", no_argument, NULL, 'R' },
		{ "reroll-count", required_argument, NULL, 'v' },
		{ "config", required_argument, NULL, 'c' },
		{ "arch", required_argument, NULL, 'A' },
		{ "tested", required_argument, NULL, 'T' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct series_opts o = { .max = 15, .config = "allmodconfig" };
	struct series_run r;
	struct tree t;
	const char *typed_out;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:v:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'o': o.out = optarg; break;
		case 's': o.scan = optarg; break;
		case 'S': o.signoff = optarg; break;
		case 'd': o.split = true; break;
		case 'i': o.infra = optarg; break;
		case 'n': o.no_infra = true; break;
		case 'm':
			o.max = atoi(optarg);
			if (o.max < 2 || o.max > 100)
				die_code(EXIT_USAGE, "--max-patches takes a number from 2 to 100, not '%s'", optarg);
			break;
		case 'O': sv_push(&o.only, optarg); break;
		case 'e': o.section = optarg; break;
		case 'p':
			if (!*optarg || strpbrk(optarg, "[]\n"))
				die_code(EXIT_USAGE, "--subject-prefix takes a text without brackets or line breaks, not '%s'", optarg);
			o.subject_prefix = optarg;
			break;
		case 'r': o.rfc = true; break;
		case 'R': o.review = o.rfc = true; break;
		case 'v': o.reroll = int_arg("-v/--reroll-count", optarg, 1, 999); break;
		case 'c': o.config = optarg; break;
		case 'A': o.arches = args_arches(optarg); break;
		case 'T':
			/* read now: a wrong path should not cost the whole conversion */
			if (read_file(optarg, &o.tested, NULL) != 0)
				die_code(EXIT_INPUT, "cannot read %s (--tested): %s", optarg, strerror(errno));
			break;
		case 'q': o.quiet = true; break;
		case 'h': return args_help(usage);
		default: return args_bad_option(usage);
		}
	}
	if (args_check(usage, argc, argv, optind, "KERNEL_DIR"))
		return EXIT_USAGE;
	if (!o.out) {
		fputs("polltax series: missing -o DIR, the directory to write to\n", stderr);
		return args_bad_option(usage);
	}
	if (o.infra && o.no_infra)
		die_code(EXIT_USAGE, "--infra and --no-infra exclude each other");
	/* git format-patch and spatch run in the scratch tree: the paths must not depend on a cwd */
	typed_out = o.out;
	o.out_typed = typed_out;
	o.out = abs_path(o.out);
	o.scan = abs_path(o.scan);
	o.infra = abs_path(o.infra);
	for (const char *const *p = (const char *const[]){ "git", "spatch", "perl", NULL }; *p; p++)
		if (!have_program(*p))
			die_code(EXIT_TOOL, "%s not found (apt-get install %s)", *p,
				 !strcmp(*p, "spatch") ? "coccinelle" : *p);
	tree_open(&t, argv[optind]);
	refuse_inside_tree(o.out, typed_out, "-o", false, t.root);
	if (o.section)
		o.section = section_title(t.root, o.section);

	series_build(&r, &o, &t);
	series_post(&r);

	series_run_free(&r);
	free((char *)o.out);
	free((char *)o.scan);
	free((char *)o.infra);
	free((char *)o.section);
	free(o.tested);
	sv_clear(&o.only);
	tree_free(&t);
	return 0;
}
