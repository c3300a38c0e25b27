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
#include "commands.h"
#include "extract.h"
#include "kbuild.h"
#include "tree.h"

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

int cmd_facts(int argc, char **argv)
{
	struct tree t;
	struct flags f;
	struct prepare_opts po = { .config = NULL };
	int first = 1, rc = 0;
	bool kb = argc > 1 && !strcmp(argv[1], "--kbuild");

	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		printf("usage: polltax facts [--kbuild] KERNEL_DIR FILE...\n\n"
		       "Print the facts the analyzer extracts from each FILE (relative to\n"
		       "KERNEL_DIR) as JSON: function summaries, ops initializers, creation\n"
		       "sites.  For debugging a verdict; 'polltax scan' is the real job.\n\n"
		       "  --kbuild   what the tree's Kbuild makefiles say of each FILE instead:\n"
		       "             its flags, whether the configuration builds it, its Kconfig\n"
		       "             symbol and the line that builds it, its make target\n");
		return 0;
	}
	first += kb;
	if (argc < first + 2) {
		fprintf(stderr, "usage: polltax facts [--kbuild] KERNEL_DIR FILE...\n");
		return EXIT_USAGE;
	}
	tree_open(&t, argv[first]);
	flags_init(&f, &t, &po);
	if (kb) {
		struct kbuild *conf = kbuild_open(t.root, f.build), *k = kbuild_new(t.root, NULL);

		for (int i = first + 1; i < argc; i++) {
			json_t *o = kbuild_facts(&f, &t, conf, k, argv[i]);

			json_dumpf(o, stdout, JSON_COMPACT | JSON_SORT_KEYS);
			putchar('\n');
			json_decref(o);
		}
		kbuild_close(conf);
		kbuild_close(k);
		flags_free(&f);
		tree_free(&t);
		return 0;
	}
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
