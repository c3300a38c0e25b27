/* SPDX-License-Identifier: GPL-2.0 */
/*
 * json_util.h - small helpers over jansson that every stage reading
 * polltax.json or facts needs.
 */
#ifndef POLLTAX_JSON_UTIL_H
#define POLLTAX_JSON_UTIL_H

#include <jansson.h>

/* The string member K of object O, or "" when O has none (or it is not a string). */
const char *jstr(json_t *o, const char *k);

/* The integer member K of object O, or 0 when O has none. */
long long jint(json_t *o, const char *k);

#endif
