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
#include <xxhash.h>

json_t *pipeline_scan(const struct tree *t, const char *scan_dir, const char *write_dir, const char *arches,
		      bool quiet)
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
		{
			/* the same version is not the same tree: the sources the scan read must be these */
			json_t *was = json_object_get(json_object_get(r, "tree"), "sources");
			const char *wid = json_string_value(json_object_get(was, "xxh64"));

			if (!wid) {
				warning("the scan '%s' does not record its tree's sources (an older polltax): "
					"not checked against '%s'", p, t->root);
			} else {
				json_t *now = scan_sources_id(t->root, json_object_get(r, "implementations"));

				if (strcmp(wid, json_string_value(json_object_get(now, "xxh64"))))
					die_code(EXIT_INPUT, "the scan '%s' was made from another tree: the %lld files "
						 "its implementations are in are not those of '%s' (or the tree "
						 "changed since); scan this tree (polltax scan -o DIR %s) and pass "
						 "that --scan", scan_dir, json_integer_value(json_object_get(now, "files")),
						 t->root, t->root);
				json_decref(now);
			}
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
			.prep = { .jobs = online_cpus(), .quiet = quiet, .arches = arches },
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

void pipeline_record_refused(const char *scan_dir, json_t *scan, json_t *refused)
{
	json_t *rec = json_object(), *list = json_array(), *x;
	char *p;
	size_t i;

	if (!scan_dir)
		return;
	json_array_foreach(refused, i, x)
		json_array_append_new(list, json_pack("{s:O, s:O, s:O}", "file", json_object_get(x, "file"),
						      "function", json_object_get(x, "function"),
						      "reason", json_object_get(x, "reason")));
	json_object_set(rec, "sources", json_object_get(json_object_get(scan, "tree"), "sources"));
	json_object_set_new(rec, "refused", list);
	p = path_join(scan_dir, "refused.json");
	if (write_json(p, rec) < 0)
		warning("cannot record the refusals in '%s': 'polltax progress' will count them as convertible", p);
	free(p);
	json_decref(rec);
}

/* The implementations of SCAN whose "convertible" is CONV (and that have a plan, when PLANNED), in scan order. */
static json_t *select_impls(json_t *scan, const char *conv, bool planned)
{
	json_t *out = json_array(), *x;
	size_t i;

	json_array_foreach(json_object_get(scan, "implementations"), i, x)
		if (!strcmp(json_string_value(json_object_get(x, "convertible")) ?: "", conv) &&
		    (!planned || json_array_size(json_object_get(x, "plan"))))
			json_array_append(out, x);
	return out;
}

json_t *pipeline_convertible(json_t *scan)
{
	return select_impls(scan, "yes", false);
}

json_t *pipeline_reviewable(json_t *scan)
{
	return select_impls(scan, "review", true);
}
