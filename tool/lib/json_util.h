/* SPDX-License-Identifier: GPL-2.0 */
/*
 * json_util.h - small helpers over jansson that every stage reading
 * polltax.json or facts needs.
 */
#ifndef POLLTAX_JSON_UTIL_H
#define POLLTAX_JSON_UTIL_H

#include <jansson.h>
#include <stdbool.h>

/* The string member K of object O, or "" when O has none (or it is not a string). */
const char *jstr(json_t *o, const char *k);

/* The integer member K of object O, or 0 when O has none. */
long long jint(json_t *o, const char *k);

/* Does the array A (of strings) hold V?  (A NULL or not an array: no.) */
bool json_array_contains_str(json_t *a, const char *v);

#endif
