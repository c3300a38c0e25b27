/* SPDX-License-Identifier: GPL-2.0 */
/*
 * scan_int.h - the scan's own header (not for other stages): a unit to
 * parse (struct unit), what the workers share (struct pool), and the
 * helpers the files of scan.h share:
 *   scan_cache.c    the facts cache: keys, entries, the stamps of headers
 *   scan_workers.c  the worker processes that parse; the parse floor
 *   scan.c          scan_tree(): the pipeline and its outputs
 */
#ifndef POLLTAX_SCAN_INT_H
#define POLLTAX_SCAN_INT_H

#include "scan.h"
#include "pch.h"
#include "lib/util.h"

#include <jansson.h>
#include <stdbool.h>
struct unit {
	char *rel;
	struct strvec args;	/* its flags (flags_for()): the key, the PCH group, the parse */
	const struct strvec *also;	/* a unity build: the .c files it #includes that it records too */
	char *key;		/* cache key, hex */
	char *cache;		/* cache entry path */
	bool compiled;		/* the configuration can compile it */
	bool cached;
	json_t *facts;
	json_t *included;	/* the facts its parse recorded for ALSO's files */
	char *failure;
};

/* What the worker processes share (they are forked from the scan). */
struct pool {
	const struct tree *t;
	struct unit *u;
	size_t n;
	const struct pch *pch;
	int timeout;
	bool parse_only;	/* the parse floor: parse, write nothing */
};


/* scan_cache.c */
json_t *scan_jstr(const char *s);
json_t *dep_stats(json_t *deplist);
char *dep_set(const struct strvec *h);
bool redo_without_pch(json_t *facts);
void unit_init(struct unit *u, const struct tree *t, struct flags *fl, const char *self, const char *fp,
		      const char *rel, const struct strvec *also, const struct scan_opts *o, json_t *stats,
		      json_t *sets);
void unit_free(struct unit *u);
void unit_settle(struct unit *u, json_t *stats, json_t *sets);

/* scan_workers.c */
void parse_units(const struct tree *t, const struct flags *fl, struct unit *u, size_t n,
			const struct scan_opts *o, bool parse_only);

#endif
