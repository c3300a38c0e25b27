// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_list.c - "polltax list OUT_DIR": the implementations of a scan as
 * tab-separated lines (file, line, function, layer, class, convertible,
 * heads, creation sites, reason), for grep, awk and the test runner; with
 * --json, the columns of polltax.csv as a JSON array, for jq.
 */
#include "args.h"
#include "commands.h"
#include "lib/json_util.h"

#include <getopt.h>
#include <jansson.h>
#include <string.h>

/* One implementation as the columns of polltax.csv (output.c, tool/SCHEMA.md), in their order. */
static json_t *as_row(json_t *x)
{
	json_t *o = json_object(), *heads = json_array(), *sites = json_array(), *v, *cr = json_object_get(x, "cocci");
	size_t j;

	json_array_foreach(json_object_get(x, "heads"), j, v)
		json_array_append_new(heads, json_string(jstr(v, "expr")));
	json_array_foreach(json_object_get(x, "creation_sites"), j, v)
		json_array_append_new(sites, json_sprintf("%s:%s", jstr(v, "kind"), jstr(v, "function")));
	json_object_set_new(o, "file", json_string(jstr(x, "file")));
	json_object_set_new(o, "line", json_integer(json_integer_value(json_object_get(x, "line"))));
	json_object_set_new(o, "function", json_string(jstr(x, "function")));
	json_object_set_new(o, "layer", json_string(jstr(x, "layer")));
	json_object_set_new(o, "class", json_string(jstr(x, "class")));
	json_object_set_new(o, "convertible", json_string(jstr(x, "convertible")));
	json_object_set_new(o, "heads", heads);
	json_object_set_new(o, "base", json_string(jstr(x, "base")));
	json_object_set_new(o, "creation_sites", sites);
	json_object_set_new(o, "subsystem", json_string(jstr(x, "subsystem")));
	json_object_set_new(o, "compiled", json_boolean(json_is_true(json_object_get(x, "compiled"))));
	json_object_set_new(o, "cocci_class", json_string(json_is_object(cr) ? jstr(cr, "class") : ""));
	json_object_set_new(o, "reason", json_string(jstr(x, "reason")));
	return o;
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
"      --json    print a JSON array instead, one object per implementation with\n"
"                the columns of polltax.csv as keys, in its order (heads and\n"
"                creation_sites as arrays, line a number, compiled a boolean)\n"
"  -h, --help    this text\n"
"\n"
"exit status: 0 done, 2 usage, 3 OUT_DIR holds no scan (no readable\n"
"polltax.json).\n";

int cmd_list(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'J' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool as_json = false;
	char *p;
	json_error_t je;
	json_t *r, *x, *h, *s;
	size_t i, j;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'J': as_json = true; break;
		case 'h': return args_help(usage);
		default: return args_bad_option(usage);
		}
	}
	if (args_check(usage, argc, argv, optind, "OUT_DIR"))
		return EXIT_USAGE;
	p = path_join(argv[optind], "polltax.json");
	r = json_load_file(p, 0, &je);
	if (!r)
		die_code(EXIT_INPUT, "'%s' holds no scan: cannot read '%s': %s", argv[optind], p, je.text);
	if (as_json) {
		json_t *out = json_array();

		json_array_foreach(json_object_get(r, "implementations"), i, x)
			json_array_append_new(out, as_row(x));
		json_dumpf(out, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		putchar('\n');
		json_decref(out);
		json_decref(r);
		free(p);
		return 0;
	}
	json_array_foreach(json_object_get(r, "implementations"), i, x) {
		printf("%s\t%lld\t%s\t%s\t%s\t%s\t", jstr(x, "file"), json_integer_value(json_object_get(x, "line")),
		       jstr(x, "function"), jstr(x, "layer"), jstr(x, "class"), jstr(x, "convertible"));
		json_array_foreach(json_object_get(x, "heads"), j, h)
			printf("%s%s", j ? " ;; " : "", jstr(h, "expr"));
		putchar('\t');
		json_array_foreach(json_object_get(x, "creation_sites"), j, s)
			printf("%s%s:%s", j ? " ; " : "", jstr(s, "kind"), jstr(s, "function"));
		printf("\t%s\n", jstr(x, "reason"));
	}
	json_decref(r);
	free(p);
	return 0;
}
