// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_infra.c - "polltax infra KERNEL_DIR -o DIR": the infrastructure patch
 * made for KERNEL_DIR (infra.h), the one that "polltax series" puts first,
 * or with --two-call the two patches of the boot test's two-call variant.
 */
#define _GNU_SOURCE
#include "args.h"
#include "commands.h"
#include "series/infra.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
"usage: polltax infra [options] KERNEL_DIR -o DIR\n"
"\n"
"Write the infrastructure patch made for KERNEL_DIR to DIR, in git\n"
"format-patch form: struct file gains f_poll_head, struct file_operations\n"
"gains ->poll_mask(), vfs_poll() does the one poll_wait() itself and makes\n"
"one indirect call; the anon_inode helpers get _poll variants that take\n"
"the queue, the debugfs proxy and do_dentry_open() handle the new method\n"
"and field, and Documentation/filesystems/ says so.  Each change is placed\n"
"by its anchor in KERNEL_DIR's own sources and written in their style; the\n"
"texts are kernel-patches/infra/templates.txt.  This is the patch that\n"
"'polltax series' puts first.  KERNEL_DIR is only read: the patch is made\n"
"in a scratch repository in ~/.cache/polltax/infra/.\n"
"\n"
"options:\n"
"  -o, --output DIR   where to write the patch(es) (created)\n"
"      --two-call     the boot test's two-call variant instead (4.18's\n"
"                     ->get_poll_head() + ->poll_mask(), then f_poll_head and\n"
"                     file_get_poll_head()): two patches, never sent\n"
"      --signoff ID   \"Name <mail>\" for the author and Signed-off-by\n"
"                     (default: \"polltax <polltax@localhost>\")\n"
"      --date DATE    the patches' date, as git takes it (default: the date\n"
"                     of KERNEL_DIR's HEAD commit, or of its Makefile)\n"
"  -q, --quiet        print nothing but errors\n"
"  -h, --help         this text\n"
"\n"
"Prints the path of each patch written.  A tree whose struct file has\n"
"f_poll_head already gets no patch (said on stderr, exit status 0).\n"
"\n"
"exit status: 0 done, 2 usage, 3 bad input (not a kernel tree, or its\n"
"sources are not what polltax knows: the message names the file and the\n"
"anchor), 128 other fatal errors.\n";

int cmd_infra(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "two-call", no_argument, NULL, 't' },
		{ "signoff", required_argument, NULL, 'S' },
		{ "date", required_argument, NULL, 'D' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = NULL, *signoff = "polltax <polltax@localhost>";
	struct infra_id id = { NULL, NULL, NULL };
	struct strvec written = STRVEC_INIT;
	struct tree t;
	bool two = false, quiet = false;
	char *name, *email;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 't': two = true; break;
		case 'S': signoff = optarg; break;
		case 'D': id.date = optarg; break;
		case 'q': quiet = true; break;
		case 'h': return args_help(usage);
		default: return args_bad_option(usage);
		}
	}
	if (args_check(usage, argc, argv, optind, "KERNEL_DIR"))
		return EXIT_USAGE;
	if (!out) {
		fputs("polltax infra: missing -o DIR, the directory to write to\n", stderr);
		return args_bad_option(usage);
	}
	{
		const char *lt = strchr(signoff, '<'), *gt = lt ? strchr(lt, '>') : NULL;

		if (!lt || !gt || lt == signoff || gt[1] || gt == lt + 1)
			die_code(EXIT_USAGE, "--signoff takes \"Name <mail>\", not '%s'", signoff);
		name = xstrndup(signoff, (size_t)(lt - signoff));
		while (*name && name[strlen(name) - 1] == ' ')
			name[strlen(name) - 1] = '\0';
		email = xstrndup(lt + 1, (size_t)(gt - lt - 1));
	}
	if (!have_program("git"))
		die_code(EXIT_TOOL, "git not found (apt-get install git)");
	tree_open(&t, argv[optind]);
	id.name = name;
	id.email = email;
	if (infra_write(&t, two ? INFRA_TWO_CALL : INFRA_ONE_CALL, &id, out, &written) == 1) {
		if (!quiet)
			fprintf(stderr, "polltax: '%s' has f_poll_head already: no infrastructure patch\n", t.root);
	} else {
		for (size_t i = 0; i < written.n; i++)
			printf("%s\n", written.v[i]);
	}
	sv_clear(&written);
	tree_free(&t);
	free(name);
	free(email);
	return 0;
}
