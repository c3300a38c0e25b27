/* SPDX-License-Identifier: GPL-2.0 */
/*
 * progress.h - conversion progress across the entries of a history.json
 * (see history.c): the rows a person reads, and a line chart in SVG of
 * converted, convertible ("yes" and not refused by 'polltax series'),
 * refused and flagged ("no") implementations.
 * Used by 'polltax progress' and embedded by 'polltax report'.
 */
#ifndef POLLTAX_PROGRESS_H
#define POLLTAX_PROGRESS_H

#include "lib/util.h"

#include <jansson.h>

struct progress_row {
	const char *date;	/* as recorded, "" when missing */
	const char *label;	/* git describe (with the commit's date when no tag names it), else the version */
	/*
	 * yes: convertible and not refused by 'polltax series' (refused: with
	 * its reason in refused.json), so that it reaches 0 once the series
	 * is applied
	 */
	long long implementations, converted, yes, refused, needs_open, review, no;
	char buf[128];		/* the label, when made here */
};

/* One row of a history entry; the strings point into the entry. */
void progress_row(json_t *entry, struct progress_row *r);

/* The rows as an aligned text table, and as a Markdown table. */
void progress_table_text(struct strbuf *sb, json_t *history);
void progress_table_markdown(struct strbuf *sb, json_t *history);

/* The chart as a standalone SVG document (starts with "<svg", no XML
 * declaration, so it can also be placed inline in HTML).  Deterministic. */
void progress_svg(struct strbuf *sb, json_t *history);

#endif
