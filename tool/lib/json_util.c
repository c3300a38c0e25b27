// SPDX-License-Identifier: GPL-2.0
/*
 * json_util.c - small helpers over jansson (json_util.h).
 */
#include "json_util.h"

#include <string.h>

const char *jstr(json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));

	return s ? s : "";
}

long long jint(json_t *o, const char *k)
{
	return json_integer_value(json_object_get(o, k));
}

bool json_array_contains_str(json_t *a, const char *v)
{
	json_t *x;
	size_t i;

	json_array_foreach(a, i, x)
		if (json_string_value(x) && !strcmp(json_string_value(x), v))
			return true;
	return false;
}
