// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_list.c - "polltax list OUT_DIR": the implementations of a scan as
 * tab-separated lines (file, line, function, layer, class, convertible,
 * heads, creation sites, reason), for grep, awk and the test runner.
 */
#include "commands.h"
#include "json_util.h"

#include <jansson.h>
#include <string.h>

int cmd_list(int argc, char **argv)
{
	char *p;
	json_error_t je;
	json_t *r, *x, *h, *s;
	size_t i, j;

	if (argc != 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fputs("usage: polltax list OUT_DIR\n\nPrint the implementations found by 'polltax scan -o OUT_DIR'\n"
		      "one per line: file, line, function, layer, class, convertible, heads (;;),\n"
		      "creation sites (kind:function ;), reason; tab-separated.\n", argc == 2 ? stdout : stderr);
		return argc == 2 ? 0 : EXIT_USAGE;
	}
	p = path_join(argv[1], "polltax.json");
	r = json_load_file(p, 0, &je);
	if (!r)
		die_code(EXIT_INPUT, "cannot read '%s': %s", p, je.text);
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
