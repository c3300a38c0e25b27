// SPDX-License-Identifier: GPL-2.0
/*
 * polltax.c - the command table.  Each command lives in cmd_<name>.c.
 */
#include "commands.h"

#include <stdio.h>
#include <string.h>

static const struct cmd {
	const char *name;
	int (*fn)(int, char **);
	const char *help;
} commands[] = {
	{ "scan", cmd_scan, "classify every ->poll implementation of a kernel tree" },
	{ "list", cmd_list, "print a scan's implementations, one per line" },
	{ "gate", cmd_gate, "exit 1 when the tree gains a ->poll that could be ->poll_mask (CI, hooks)" },
	{ "facts", cmd_facts, "print the facts extracted from some files (debugging)" },
	{ "convert", cmd_convert, "convert the single-queue implementations, print a diff" },
	{ "infra", cmd_infra, "write the infrastructure patch made for a kernel tree" },
	{ "series", cmd_series, "convert and emit a kernel patch series, per MAINTAINERS section" },
	{ "verify", cmd_verify, "apply a series to a tree, build, sparse and checkpatch each patch" },
	{ "boot-test", cmd_boot_test, "boot base, patched and two-call kernels in qemu: checks and poll tax" },
	{ "run", cmd_run, "the whole job: scan, series, verify, boot-test, report; skips what is up to date" },
	{ "report", cmd_report, "write a scan's report.html, one self-contained page" },
	{ "progress", cmd_progress, "conversion progress across scans: table and chart" },
	{ "cache", cmd_cache, "the cache's parts and their sizes; 'cache clean [PART]' removes them" },
	{ "parse-floor", cmd_parse_floor, "only parse what scan would parse (make bench)" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: polltax COMMAND [options] ...\n\n"
		   "polltax repeals the poll() tax: it finds every ->poll implementation of a\n"
		   "Linux tree, classifies it by the wait queues it registers, and converts the\n"
		   "single-queue ones to f_poll_head + ->poll_mask().\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-12s %s\n", commands[i].name, commands[i].help);
	fprintf(f, "\n'polltax help COMMAND' (or 'polltax COMMAND --help') tells more.\n");
}

int main(int argc, char **argv)
{
	/* "polltax help scan" is "polltax scan --help" */
	if (argc >= 3 && !strcmp(argv[1], "help")) {
		for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
			if (!strcmp(argv[2], commands[i].name))
				return commands[i].fn(2, (char *[]){ argv[2], (char *)"--help", NULL });
		fprintf(stderr, "polltax: '%s' is not a polltax command\n\n", argv[2]);
		usage(stderr);
		return EXIT_USAGE;
	}
	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_USAGE : 0;
	}
	if (!strcmp(argv[1], "--version")) {
		puts("polltax 0.1");
		return 0;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name)) {
			/* getopt's messages then say "polltax scan: unrecognized option" */
			char *self = xasprintf("polltax %s", argv[1]);

			argv[1] = self;
			return commands[i].fn(argc - 1, argv + 1);
		}
	fprintf(stderr, "polltax: '%s' is not a polltax command\n\n", argv[1]);
	usage(stderr);
	return EXIT_USAGE;
}
