/* SPDX-License-Identifier: GPL-2.0 */
/*
 * history.h - conversion progress across runs: every scan appends one entry
 * (tree identity, date, counts per class and per convertibility) to
 * DIR/history.json; 'polltax progress' reads it back.
 */
#ifndef POLLTAX_HISTORY_H
#define POLLTAX_HISTORY_H

#include <jansson.h>

/*
 * Append RESULT's entry to DIR/history.json (not when it repeats the last
 * one); LABEL (NULL: none) names the scan in 'polltax progress' instead of
 * the tree's version.  The date is SOURCE_DATE_EPOCH's when that is set.
 * WHERE is what was scanned (the tree's absolute path, with "//DIR" for a
 * scan of one directory of it): the entry keeps its hash ("where", not the
 * path itself), and when the last entry was of another place and no LABEL
 * says the mix is meant, a note says that the two now share one history
 * (naming the directory SHOWN, DIR as the user typed it).
 */
int history_append(const char *dir, const char *shown, json_t *result, const char *label, const char *where);
json_t *history_load(const char *path);	/* array; empty when missing */
/*
 * The implementations of RESULT (a scan) that 'polltax series' refused:
 * series records its refusals in DIR/refused.json, DIR the scan it used
 * (pipeline_record_refused()); those still auto-convertible ("yes") in
 * RESULT, matched by file and function, each {file, function, reason}.
 * NULL when DIR has no refused.json.
 */
json_t *history_refused(const char *dir, json_t *result);

#endif
