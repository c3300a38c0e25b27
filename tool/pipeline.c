// SPDX-License-Identifier: GPL-2.0
/*
 * pipeline.c - the scan's facts for the later stages (pipeline.h).
 */
#define _GNU_SOURCE
#include "pipeline.h"
#include "cocci.h"
#include "history.h"
#include "output.h"
#include "scan.h"

#include <stdlib.h>
#include <string.h>

json_t *pipeline_scan(const struct tree *t, const char *scan_dir, const char *write_dir, bool quiet)
{
	json_t *r;

	if (scan_dir) {
		char *p = path_join(scan_dir, "polltax.json");
		json_error_t je;
		const char *v;

		r = json_load_file(p, 0, &je);
		if (!r)
			die_code(EXIT_INPUT, "cannot read the scan '%s': %s", p, je.text);
		v = json_string_value(json_object_get(json_object_get(r, "tree"), "version"));
		if (!v || strcmp(v, t->version))
			die_code(EXIT_INPUT, "the scan '%s' is of %s, the tree '%s' is %s", p, v ? v : "an unknown version",
				 t->root, t->version);
		if (t->head) {
			const char *h = json_string_value(json_object_get(json_object_get(r, "tree"), "git_head"));

			if (h && strcmp(h, t->head))
				warning("the scan '%s' is of commit %.12s, the tree is at %.12s", p, h, t->head);
		}
		free(p);
		return r;
	}
	{
		struct scan_opts o = {
			.outdir = write_dir ? write_dir : "",
			.jobs = online_cpus(),
			.quiet = quiet,
			.timeout = 300,
			.prep = { .jobs = online_cpus(), .quiet = quiet },
		};

		if (!quiet)
			fprintf(stderr, "polltax: no --scan given: scanning '%s' first\n", t->root);
		r = scan_tree(t, &o);
		if (write_dir) {
			if (mkdir_p(write_dir) < 0 || write_outputs(write_dir, r) < 0)
				die("cannot write the scan to '%s'", write_dir);
		}
	}
	return r;
}

json_t *pipeline_convertible(json_t *scan)
{
	json_t *out = json_array(), *x;
	size_t i;

	json_array_foreach(json_object_get(scan, "implementations"), i, x)
		if (!strcmp(json_string_value(json_object_get(x, "convertible")) ?: "", "yes"))
			json_array_append(out, x);
	return out;
}
