/* SPDX-License-Identifier: GPL-2.0 */
/*
 * scan.h - the scan pipeline: pick the files that can matter, parse them
 * in worker processes (cached by content and flags), run the Coccinelle
 * second opinion, join and classify, and write the outputs.
 */
#ifndef POLLTAX_SCAN_H
#define POLLTAX_SCAN_H

#include <jansson.h>
#include <stdbool.h>
#include "prefilter.h"
#include "lib/tree.h"

struct scan_opts {
	const char *outdir;
	int jobs;
	bool no_cache;
	bool no_cocci;
	bool no_pch;		/* parse every file on its own (pch.h) */
	const char *times;	/* write each file's parse seconds there */
	bool times_append;	/* ... after what an earlier parse of the same scan wrote */
	bool quiet;		/* no progress line even on a terminal */
	int timeout;		/* seconds per translation unit */
	struct prepare_opts prep;
	const char *url;	/* link template for the HTML report */
	/*
	 * report only the implementations under this directory (relative to
	 * the tree, no trailing slash), found with the whole tree's flags and
	 * helpers; NULL: all
	 */
	const char *only_dir;
};

/* Run the scan; returns the result object (polltax.json) or dies. */
json_t *scan_tree(const struct tree *t, const struct scan_opts *o);

/*
 * The parse floor of 'make bench': parse the files scan_tree() would
 * parse (none cached), with the same flags, precompiled headers and
 * worker processes, and do nothing else.  Returns the seconds it took;
 * *NPARSED the number of files.
 */
double scan_parse_floor(const struct tree *t, const struct scan_opts *o, const struct strvec *also,
			size_t *nparsed);

#endif
