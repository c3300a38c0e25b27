// SPDX-License-Identifier: GPL-2.0
/*
 * history.c - DIR/history.json: an array of scan entries, oldest first.
 * Rewritten whole through a temporary file (atomic); an entry for the same
 * tree identity and the same counts as the last one is not repeated, so a
 * re-run that changes nothing does not grow the file.
 */
#define _GNU_SOURCE
#include "history.h"
#include "output.h"
#include "lib/util.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <xxhash.h>

json_t *history_load(const char *path)
{
	json_error_t je;
	json_t *h;

	if (!is_file(path))
		return json_array();
	h = json_load_file(path, 0, &je);
	if (!h || !json_is_array(h)) {
		warning("'%s' is not a history file (%s); starting a new one", path, h ? "not an array" : je.text);
		json_decref(h);
		return json_array();
	}
	return h;
}

json_t *history_refused(const char *dir, json_t *result)
{
	char *path = path_join(dir, "refused.json");
	json_t *rec, *out, *x, *y;
	size_t i, j;

	rec = is_file(path) ? json_load_file(path, 0, NULL) : NULL;
	free(path);
	if (!rec)
		return NULL;
	out = json_array();
	json_array_foreach(json_object_get(result, "implementations"), i, x) {
		if (strcmp(json_string_value(json_object_get(x, "convertible")) ?: "", "yes"))
			continue;
		json_array_foreach(json_object_get(rec, "refused"), j, y)
			if (json_equal(json_object_get(x, "file"), json_object_get(y, "file")) &&
			    json_equal(json_object_get(x, "function"), json_object_get(y, "function"))) {
				json_array_append_new(out, json_pack("{s:O, s:O, s:O}", "file", json_object_get(x, "file"),
								     "function", json_object_get(x, "function"),
								     "reason", json_object_get(y, "reason")));
				break;
			}
	}
	json_decref(rec);
	return out;
}

/*
 * When the scan ran: now, or SOURCE_DATE_EPOCH when it is set (the
 * reproducible-builds convention: 'make reports-postings' gives every scan
 * the date of its tree, so that the same inputs give the same bytes).
 */
static time_t scan_time(void)
{
	const char *s = getenv("SOURCE_DATE_EPOCH");
	char *end;
	long long v;

	if (s && *s) {
		v = strtoll(s, &end, 10);
		if (!*end && v >= 0)
			return (time_t)v;
		warning("SOURCE_DATE_EPOCH='%s' is not a number of seconds; the date is now's", s);
	}
	return time(NULL);
}

/* The last entry was of another place than WHERE_KEY: say so once, unless a label says the mix is meant. */
static void note_other_place(const char *dir, json_t *last, const char *where_key, const char *where,
			     const char *label)
{
	const char *was = json_string_value(json_object_get(last, "where"));

	if (!was || !strcmp(was, where_key) || (label && *label))
		return;
	fprintf(stderr, "polltax: note: the last scan in '%s/history.json' (linux %s, %s) was of another "
		"directory than '%s'; this scan follows it in the same history, and 'polltax progress' shows "
		"them as one line of scans.  Keep one -o per tree (or name each scan with --label).\n",
		dir, json_string_value(json_object_get(last, "version")) ?: "?",
		json_string_value(json_object_get(last, "date")) ?: "?", where);
}

int history_append(const char *dir, const char *shown, json_t *result, const char *label, const char *where)
{
	char *path = path_join(dir, "history.json");
	json_t *h = history_load(path), *tree = json_object_get(result, "tree");
	json_t *counts = json_object_get(result, "counts"), *last, *e;
	char date[32], where_key[17];
	time_t now = scan_time();
	int rc;

	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	e = json_pack("{s:O, s:O, s:O, s:O, s:O}", "version", json_object_get(tree, "version"),
		      "by_class", json_object_get(counts, "by_class"),
		      "by_convertible", json_object_get(counts, "by_convertible"),
		      "implementations", json_object_get(counts, "implementations"),
		      "file_operations_with_poll", json_object_get(counts, "file_operations_with_poll"));
	if (label && *label)
		json_object_set_new(e, "label", json_string(label));
	snprintf(where_key, sizeof(where_key), "%016llx", (unsigned long long)XXH64(where, strlen(where), 0));
	json_object_set_new(e, "where", json_string(where_key));
	if (json_object_get(tree, "git_describe"))
		json_object_set(e, "git_describe", json_object_get(tree, "git_describe"));
	if (json_object_get(tree, "git_date"))
		json_object_set(e, "git_date", json_object_get(tree, "git_date"));
	{
		/* what series refused, when it recorded that next to this scan */
		json_t *ref = history_refused(dir, result);

		if (ref)
			json_object_set_new(e, "refused", json_integer((json_int_t)json_array_size(ref)));
		json_decref(ref);
	}
	last = json_array_get(h, json_array_size(h) - 1);
	if (last)
		note_other_place(shown, last, where_key, where, label);
	if (last) {
		json_t *cmp = json_deep_copy(last);

		json_object_del(cmp, "date");
		if (json_equal(cmp, e)) {
			json_decref(cmp);
			json_decref(e);
			json_decref(h);
			free(path);
			return 0;
		}
		json_decref(cmp);
	}
	json_object_set_new(e, "date", json_string(date));
	json_array_append_new(h, e);
	rc = write_json(path, h);
	json_decref(h);
	free(path);
	return rc;
}
