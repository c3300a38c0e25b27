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

#endif
