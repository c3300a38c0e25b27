/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report.h - report.html: one self-contained page (inline CSS and JS, no
 * network) with the headline figures, counts per class and per subsystem,
 * every implementation (sortable, filterable), the disagreements of the
 * two classifiers, the layers, the progress chart when the output
 * directory has a history.json, the movement since an older scan, and a
 * "Tested" section when it has a boot-test.json.  Built only from the
 * facts in polltax.json; byte-identical for the same inputs.
 */
#ifndef POLLTAX_REPORT_H
#define POLLTAX_REPORT_H

#include "lib/util.h"

#include <jansson.h>

struct report_opts {
	const char *url;	/* link template: %f file, %l line, %v the tree's version;
				   NULL: file://TREE/%f#L%l with tree, else plain relative paths */
	const char *since;	/* an older scan's output directory, or NULL */
	const char *out;	/* where to write; NULL: DIR/report.html */
	const char *tree;	/* the scanned tree's absolute path, or NULL */
};

/* Write the report of the scan in DIR; on failure says why and returns -1. */
int report_write(const char *dir, const struct report_opts *o);

/* The page itself, from the loaded inputs (history, since, boot may be NULL). */
char *report_html(json_t *result, json_t *history, json_t *since, json_t *boot, const char *boot_error,
		  const char *url);

/* The page's style and script (tool/report/report.css, tool/report/report.js), inlined at build time. */
extern const char report_css[];
extern const char report_js[];

#endif
