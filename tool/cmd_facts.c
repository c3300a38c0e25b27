// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_facts.c - "polltax facts KERNEL_DIR FILE...": the raw facts that the
 * extractor reads off one translation unit, as JSON.  A debugging hook in
 * the spirit of smatch's: tests check these intermediate facts, and a
 * developer can see why a verdict was taken.
 */
#include "commands.h"
#include "extract.h"
#include "tree.h"

#include <stdlib.h>
#include <string.h>

int cmd_facts(int argc, char **argv)
{
	struct tree t;
	struct flags f;
	struct prepare_opts po = { .config = NULL };
	int first = 1, rc = 0;

	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		printf("usage: polltax facts KERNEL_DIR FILE...\n\n"
		       "Print the facts the analyzer extracts from each FILE (relative to\n"
		       "KERNEL_DIR) as JSON: function summaries, ops initializers, creation\n"
		       "sites.  For debugging a verdict; 'polltax scan' is the real job.\n");
		return 0;
	}
	if (argc < 3) {
		fprintf(stderr, "usage: polltax facts KERNEL_DIR FILE...\n");
		return EXIT_USAGE;
	}
	tree_open(&t, argv[first]);
	flags_init(&f, &t, &po);
	for (int i = first + 1; i < argc; i++) {
		struct strvec args = STRVEC_INIT;
		char *err = NULL;
		json_t *facts;

		if (!flags_for(&f, &t, argv[i], &args)) {
			rc = error("'%s' is not compiled by this configuration", argv[i]);
			continue;
		}
		facts = extract_tu(t.root, argv[i], (const char *const *)args.v, (int)args.n, &err);
		if (!facts) {
			rc = error("cannot parse '%s': %s", argv[i], err);
			free(err);
		} else {
			json_object_del(facts, "deps");
			json_dumpf(facts, stdout, JSON_INDENT(1) | JSON_SORT_KEYS);
			putchar('\n');
			json_decref(facts);
		}
		sv_clear(&args);
	}
	flags_free(&f);
	tree_free(&t);
	return rc ? EXIT_FINDINGS : 0;
}
