/* SPDX-License-Identifier: GPL-2.0 */
/*
 * history.h - conversion progress across runs: every scan appends one entry
 * (tree identity, date, counts per class and per convertibility) to
 * DIR/history.json; 'polltax progress' reads it back.
 */
#ifndef POLLTAX_HISTORY_H
#define POLLTAX_HISTORY_H

#include <jansson.h>

int history_append(const char *dir, json_t *result);
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
