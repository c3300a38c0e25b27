// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_list.c - "polltax list OUT_DIR": the implementations of a scan as
 * tab-separated lines (file, line, function, layer, class, convertible,
 * heads, creation sites, reason), for grep, awk and the test runner.
 */
#include "args.h"
#include "commands.h"

#include <getopt.h>
#include <jansson.h>
#include <string.h>

static const char *str(json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));

	return s ? s : "";
}

static const char usage[] =
"usage: polltax list [options] OUT_DIR\n"
"\n"
"Print the implementations found by 'polltax scan -o OUT_DIR', one per\n"
"line, tab-separated: file, line, function, layer, class, convertible,\n"
"heads (separated by ' ;; '), creation sites (kind:function, separated by\n"
"' ; '), reason.  For grep and awk; OUT_DIR/polltax.csv has the same rows\n"
"with a header (columns: tool/SCHEMA.md).\n"
"\n"
"options:\n"
"  -h, --help    this text\n"
"\n"
"exit status: 0 done, 2 usage, 3 OUT_DIR holds no scan (no readable\n"
"polltax.json).\n";

int cmd_list(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *p;
	json_error_t je;
	json_t *r, *x, *h, *s;
	size_t i, j;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'h': fputs(usage, stdout); return 0;
		default: return args_bad_option(usage);
		}
	}
	if (args_check(usage, argc, argv, optind, "OUT_DIR"))
		return EXIT_USAGE;
	p = path_join(argv[optind], "polltax.json");
	r = json_load_file(p, 0, &je);
	if (!r)
		die_code(EXIT_INPUT, "'%s' holds no scan: cannot read '%s': %s", argv[optind], p, je.text);
	json_array_foreach(json_object_get(r, "implementations"), i, x) {
		printf("%s\t%lld\t%s\t%s\t%s\t%s\t", str(x, "file"), json_integer_value(json_object_get(x, "line")),
		       str(x, "function"), str(x, "layer"), str(x, "class"), str(x, "convertible"));
		json_array_foreach(json_object_get(x, "heads"), j, h)
			printf("%s%s", j ? " ;; " : "", str(h, "expr"));
		putchar('\t');
		json_array_foreach(json_object_get(x, "creation_sites"), j, s)
			printf("%s%s:%s", j ? " ; " : "", str(s, "kind"), str(s, "function"));
		printf("\t%s\n", str(x, "reason"));
	}
	json_decref(r);
	free(p);
	return 0;
}
