// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_facts.c - "polltax facts KERNEL_DIR FILE...": the raw facts that the
 * extractor reads off one translation unit, as JSON.  A debugging hook in
 * the spirit of smatch's: tests check these intermediate facts, and a
 * developer can see why a verdict was taken.
 */
#include "args.h"
#include "commands.h"
#include "extract.h"
#include "tree.h"

#include <stdlib.h>
#include <string.h>

static const char usage[] =
"usage: polltax facts [options] KERNEL_DIR FILE...\n"
"\n"
"Print the facts the analyzer extracts from each FILE as JSON: function\n"
"summaries, ops initializers, creation sites.  For debugging a verdict;\n"
"'polltax scan' is the real job.  FILE is relative to KERNEL_DIR\n"
"(drivers/char/mem.c), or a path to a file inside it as typed.  The flags\n"
"are those 'polltax scan' gives the file (compile_commands.json,\n"
"compile_flags.txt, an in-tree build, or a build prepared in the cache).\n"
"\n"
"options:\n"
"  -h, --help    this text\n"
"\n"
"exit status: 0 done, 2 usage, 1 a FILE the configuration does not compile\n"
"or that does not parse (the others are printed), 3 bad input: not a kernel\n"
"tree, or a FILE that does not exist in it (nothing is parsed then),\n"
"4 a required tool is missing, 128 other fatal errors.\n";

/* FILE as the tree names it (relative to ROOT), or NULL when it is no file of the tree. */
static char *tree_file(const char *root, const char *file)
{
	char *p = path_join(root, file), *real, *rel = NULL;
	size_t n = strlen(root);

	if (*file != '/' && is_file(p))
		rel = xstrdup(file);
	free(p);
	if (rel)
		return rel;
	/* a path as typed (TREE/drivers/x.c), inside the tree */
	real = realpath(file, NULL);
	if (real && is_file(real) && !strncmp(real, root, n) && real[n] == '/')
		rel = xstrdup(real + n + 1);
	free(real);
	return rel;
}

int cmd_facts(int argc, char **argv)
{
	struct tree t;
	struct flags f;
	struct prepare_opts po = { .config = NULL };
	struct strvec files = STRVEC_INIT;
	int first = 1, rc = 0;

	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		fputs(usage, stdout);
		return 0;
	}
	if (argc > 1 && argv[1][0] == '-') {
		fprintf(stderr, "polltax facts: unknown option '%s'\n", argv[1]);
		return args_bad_option(usage);
	}
	if (args_check(usage, argc, argv, first, "KERNEL_DIR FILE..."))
		return EXIT_USAGE;
	tree_open(&t, argv[first]);
	/* every FILE checked before the flags are prepared (that may take a minute) */
	for (int i = first + 1; i < argc; i++) {
		char *rel = tree_file(t.root, argv[i]);

		if (!rel)
			die_code(EXIT_INPUT, "'%s' does not exist in the kernel tree '%s' (FILE is relative to it)",
				 argv[i], t.root);
		sv_push(&files, rel);
		free(rel);
	}
	flags_init(&f, &t, &po);
	for (size_t i = 0; i < files.n; i++) {
		struct strvec args = STRVEC_INIT;
		char *err = NULL;
		json_t *facts;

		if (!flags_for(&f, &t, files.v[i], &args)) {
			rc = error("'%s' is not compiled by this configuration", files.v[i]);
			continue;
		}
		facts = extract_tu(t.root, files.v[i], (const char *const *)args.v, (int)args.n, &err);
		if (!facts) {
			rc = error("cannot parse '%s': %s", files.v[i], err);
			free(err);
		} else {
			json_object_del(facts, "deps");
			json_dumpf(facts, stdout, JSON_INDENT(1) | JSON_SORT_KEYS);
			putchar('\n');
			json_decref(facts);
		}
		sv_clear(&args);
	}
	sv_clear(&files);
	flags_free(&f);
	tree_free(&t);
	return rc ? EXIT_FINDINGS : 0;
}
