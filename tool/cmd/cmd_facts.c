// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_facts.c - "polltax facts KERNEL_DIR FILE...": the raw facts that the
 * extractor reads off one translation unit, as JSON.  A debugging hook in
 * the spirit of smatch's: tests check these intermediate facts, and a
 * developer can see why a verdict was taken.
 *
 * With --kbuild, what the tree's Kbuild makefiles say of each file
 * instead (kbuild.h), every query the one reader answers: the flags scan
 * parses it with, whether the configuration builds it (series), its
 * Kconfig symbol and the line that builds its object (boot-test), and the
 * make target (verify).
 */
#include "args.h"
#include "commands.h"
#include "scan/extract.h"
#include "lib/kbuild.h"
#include "lib/maintainers.h"
#include "lib/tree.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

/* The answers of the Kbuild reader for REL, as one JSON object. */
static json_t *kbuild_facts(const struct flags *f, const struct tree *t, struct kbuild *conf, struct kbuild *k,
			    const char *rel)
{
	struct strvec args = STRVEC_INIT;
	json_t *o = json_object(), *a = json_array();
	char *why = NULL, *cond = NULL, *prefix = NULL, *var = NULL, *sym, *target, *dir = xstrdup(rel), *slash;
	bool compiled = flags_for(f, t, rel, &args);
	int built = conf ? kbuild_built(conf, rel, &why) : -1;

	json_object_set_new(o, "file", json_string(rel));
	for (size_t i = 0; i < args.n; i++)
		json_array_append_new(a, json_string(args.v[i]));
	json_object_set_new(o, "flags", compiled ? a : json_null());
	if (!compiled)
		json_decref(a);
	json_object_set_new(o, "built", built < 0 ? json_null() : json_boolean(built));
	json_object_set_new(o, "built_why", why ? json_string(why) : json_null());
	free(why);
	why = NULL;
	sym = kbuild_symbol(k, rel, &cond, &why);
	json_object_set_new(o, "symbol", sym ? json_string(sym) : json_null());
	json_object_set_new(o, "symbol_cond", cond ? json_string(cond) : json_null());
	json_object_set_new(o, "symbol_why", why ? json_string(why) : json_null());
	slash = strrchr(dir, '/');
	if (slash && has_suffix(rel, ".c")) {
		const struct kb_file *mk;
		const struct kb_assign *line;
		char *obj = xasprintf("%.*so", (int)strlen(slash + 1) - 1, slash + 1);

		*slash = '\0';
		mk = kbuild_file(k, dir);
		line = kbuild_find(mk, obj, &prefix, &var);
		if (line)
			json_object_set_new(o, "line", json_sprintf("%s/%s:%d: %s", dir, mk->name, line->line, line->name));
		free(obj);
	}
	if (!json_object_get(o, "line"))
		json_object_set_new(o, "line", json_null());
	target = has_suffix(rel, ".c") ? kbuild_target(k, rel) : NULL;
	json_object_set_new(o, "target", target ? json_string(target) : json_null());
	free(target);
	free(sym);
	free(cond);
	free(why);
	free(prefix);
	free(var);
	free(dir);
	sv_clear(&args);
	return o;
}

static const char usage[] =
"usage: polltax facts [--kbuild | --maintainers] [--arch LIST] KERNEL_DIR FILE...\n"
"\n"
"Print the facts the analyzer extracts from each FILE as JSON: function\n"
"summaries, ops initializers, creation sites.  For debugging a verdict;\n"
"'polltax scan' is the real job.  FILE is relative to KERNEL_DIR\n"
"(drivers/char/mem.c), or a path to a file inside it as typed.  The flags\n"
"are those 'polltax scan' gives the file (compile_commands.json,\n"
"compile_flags.txt, an in-tree build, or a build prepared in the cache).\n"
"\n"
"options:\n"
"      --kbuild  what the tree's Kbuild makefiles say of each FILE instead:\n"
"                its flags, whether the configuration builds it, its Kconfig\n"
"                symbol and the line that builds it, its make target (one\n"
"                JSON object a line)\n"
"      --maintainers  the MAINTAINERS section of each FILE, as 'polltax scan'\n"
"                records it (\"section\" in polltax.json): FILE, a tab, the\n"
"                section (empty when only THE REST claims it), a line each\n"
"      --arch LIST    other architectures, as 'polltax scan --arch': a FILE\n"
"                x86's configuration does not build is parsed with the flags\n"
"                of the first of them whose configuration does\n"
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
	static const struct option opts[] = {
		{ "kbuild", no_argument, NULL, 'k' },
		{ "maintainers", no_argument, NULL, 'm' },
		{ "arch", required_argument, NULL, 'A' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int first, rc = 0, c;
	bool kb = false, mt = false;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'k': kb = true; break;
		case 'm': mt = true; break;
		case 'A': po.arches = args_arches(optarg); break;
		case 'h': return args_help(usage);
		default: return args_bad_option(usage);
		}
	}
	first = optind;
	if (args_check(usage, argc, argv, first, "KERNEL_DIR FILE..."))
		return EXIT_USAGE;
	tree_open(&t, argv[first]);
	/* every FILE checked before the flags are prepared (that may take a minute) */
	for (int i = first + 1; i < argc; i++) {
		char *rel = tree_file(t.root, argv[i]);

		if (!rel && (kb || mt))
			rel = xstrdup(argv[i]);	/* what the makefiles say of a name: it need not exist */
		if (!rel)
			die_code(EXIT_INPUT, "'%s' does not exist in the kernel tree '%s' (FILE is relative to it)",
				 argv[i], t.root);
		sv_push(&files, rel);
		free(rel);
	}
	if (mt) {
		struct maint_db *md = maint_db_load(t.root);
		const char *sec;

		if (!md)
			die_code(EXIT_INPUT, "cannot read '%s/MAINTAINERS'", t.root);
		for (size_t i = 0; i < files.n; i++) {
			sec = maint_db_section(md, files.v[i]);
			printf("%s\t%s\n", files.v[i], sec ? sec : "");
		}
		maint_db_free(md);
		sv_clear(&files);
		tree_free(&t);
		return 0;
	}
	flags_init(&f, &t, &po);
	if (kb) {
		struct kbuild *conf = kbuild_open(t.root, f.build), *k = kbuild_new(t.root, NULL);

		for (size_t i = 0; i < files.n; i++) {
			json_t *o = kbuild_facts(&f, &t, conf, k, files.v[i]);

			json_dumpf(o, stdout, JSON_COMPACT | JSON_SORT_KEYS);
			putchar('\n');
			json_decref(o);
		}
		kbuild_close(conf);
		kbuild_close(k);
		sv_clear(&files);
		flags_free(&f);
		tree_free(&t);
		return 0;
	}
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
