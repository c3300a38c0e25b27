// SPDX-License-Identifier: GPL-2.0
/*
 * scan_cache.c - the facts cache of the scan (scan_int.h): an entry's key
 * (FACTS_VERSION, the file's bytes, its flags), the stamps of the headers
 * its parse read (those of a PCH as a shared set, facts/sets/), whether
 * it is current, and a unit's cached facts.
 */
#define _GNU_SOURCE
#include "scan_int.h"
#include "pipeline.h"
#include "classify/classify.h"
#include "cocci.h"
#include "extract.h"
#include "census.h"
#include "unity.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <xxhash.h>

/* A JSON string of S even when S (a path, a message) is not valid UTF-8. */
json_t *scan_jstr(const char *s)
{
	char *t = utf8_safe(s);
	json_t *j = json_string(t);

	free(t);
	return j;
}

static char *cache_path(const char *key)
{
	return xasprintf("%s/facts/%.2s/%s.json", cache_root(), key, key);
}

/* Is every dependency of a cache entry as it was?  STATS memoizes stat() by path. */
static bool deps_current(json_t *deps, json_t *stats)
{
	const char *path;
	json_t *want;

	json_object_foreach(deps, path, want) {
		json_t *have = json_object_get(stats, path);

		if (!have) {
			struct stat st;

			have = stat(path, &st) < 0 ? json_string("missing") : stat_stamp(&st);
			json_object_set_new(stats, path, have);
		}
		if (!json_equal(have, want))
			return false;
	}
	return true;
}

/*
 * The stat of each of DEPLIST's files, as its entry records them.  A
 * worker asks the kernel about a header once, however many of its files
 * read it (statmemo.c).
 */
json_t *dep_stats(json_t *deplist)
{
	json_t *o = json_object(), *v;
	size_t i;

	json_array_foreach(deplist, i, v) {
		const char *p = json_string_value(v);
		struct stat st;

		if (p && stat(p, &st) == 0)
			json_object_set_new(o, p, stat_stamp(&st));
	}
	return o;
}

/*
 * The headers of a PCH are dependencies of every file parsed with it: they
 * are stored once, as a dependency set (facts/sets/KEY.json: path ->
 * stat, KEY its hash), that the entries name.  A warm run checks each set
 * once.
 */
static char *set_path(const char *key)
{
	return xasprintf("%s/facts/sets/%s.json", cache_root(), key);
}

static json_t *sets_written;	/* this worker's: the set of headers H (by address) -> its key */

/* The key of the dependency set of headers H, written if new; NULL if it cannot be. */
char *dep_set(const struct strvec *h)
{
	json_t *list, *st, *known;
	char *dump, *key = NULL, *path, *addr = xasprintf("%p", (const void *)h);

	if (!sets_written)
		sets_written = json_object();
	known = json_object_get(sets_written, addr);
	if (known) {
		free(addr);
		return xstrdup(json_string_value(known));
	}
	list = json_array();
	for (size_t k = 0; h && k < h->n; k++)
		json_array_append_new(list, json_string(h->v[k]));
	st = dep_stats(list);
	json_decref(list);
	dump = json_dumps(st, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(st);
	if (dump) {
		key = xasprintf("%016llx", (unsigned long long)XXH64(dump, strlen(dump), 0));
		path = set_path(key);
		if (is_file(path) || cache_write(path, dump, strlen(dump)) == 0) {
			json_object_set_new(sets_written, addr, json_string(key));
		} else {
			free(key);
			key = NULL;
		}
		free(path);
		free(dump);
	}
	free(addr);
	return key;
}

/* Is dependency set KEY as it was?  SETS memoizes the answer by key. */
static bool set_current(const char *key, json_t *sets, json_t *stats)
{
	json_t *known = json_object_get(sets, key), *set;
	char *path, *buf;
	size_t len;
	bool ok = false;

	if (known)
		return json_is_true(known);
	path = set_path(key);
	if (read_file(path, &buf, &len) == 0) {
		set = json_loadb(buf, len, 0, NULL);
		ok = json_is_object(set) && deps_current(set, stats);
		json_decref(set);
		free(buf);
	}
	free(path);
	json_object_set_new(sets, key, json_boolean(ok));
	return ok;
}

/*
 * A parse with a precompiled header that reports any error is done again
 * without it: the PCH holds headers the file may not include, and one of
 * them can clash with the file's own names (a static before() in a
 * driver's header and in include/net/tcp.h).  The PCH itself has no error
 * (pch.c), so this costs only the files that have errors anyway.
 */
bool redo_without_pch(json_t *facts)
{
	return json_array_size(json_object_get(facts, "errors")) > 0;
}

static void load_entry(struct unit *u, json_t *stats, json_t *sets, bool check_deps)
{
	json_t *e, *set;
	char *buf;
	size_t len;

	if (read_file(u->cache, &buf, &len) < 0)
		return;
	e = json_loadb(buf, len, 0, NULL);
	free(buf);
	if (!e)
		return;
	set = json_object_get(e, "dep_set");
	if (json_object_get(e, "failure")) {
		if (!u->failure)
			u->failure = xstrdup(json_string_value(json_object_get(e, "failure")));
		u->cached = true;
	} else if (!check_deps ||
		   (deps_current(json_object_get(e, "deps"), stats) &&
		    (!set || (json_is_string(set) && set_current(json_string_value(set), sets, stats))))) {
		u->facts = json_incref(json_object_get(e, "facts"));
		u->cached = true;
	}
	json_decref(e);
}

/*
 * Unit U for file REL (and ALSO, the .c files it #includes that it records
 * too, or NULL): its flags, its cache key, and its cached facts when they
 * are current.
 */
void unit_init(struct unit *u, const struct tree *t, struct flags *fl, const char *self, const char *fp,
		      const char *rel, const struct strvec *also, const struct scan_opts *o, json_t *stats,
		      json_t *sets)
{
	const struct strvec *args = &u->args;
	char *abs = path_join(t->root, rel), *buf;
	size_t len;
	XXH64_state_t *h = XXH64_createState();

	u->rel = xstrdup(rel);
	u->compiled = flags_for(fl, t, rel, &u->args);
	XXH64_reset(h, 0);
	XXH64_update(h, self, strlen(self));
	XXH64_update(h, fp, strlen(fp));
	for (size_t k = 0; k < args->n; k++)
		XXH64_update(h, args->v[k], strlen(args->v[k]) + 1);
	XXH64_update(h, rel, strlen(rel) + 1);
	if (read_file(abs, &buf, &len) == 0) {
		XXH64_update(h, buf, len);
		free(buf);
	}
	u->also = also && also->n ? also : NULL;
	for (size_t k = 0; u->also && k < also->n; k++) {
		XXH64_update(h, "also", 5);	/* (their bytes are dependencies of the entry) */
		XXH64_update(h, also->v[k], strlen(also->v[k]) + 1);
	}
	u->key = xasprintf("%016llx", (unsigned long long)XXH64_digest(h));
	u->cache = cache_path(u->key);
	XXH64_freeState(h);
	if (u->compiled && !o->no_cache)
		load_entry(u, stats, sets, true);
	free(abs);
}

void unit_free(struct unit *u)
{
	free(u->rel);
	sv_clear(&u->args);
	free(u->key);
	free(u->cache);
	free(u->failure);
	json_decref(u->facts);
	json_decref(u->included);
}

/* After the parses: U's facts, and apart from them those it recorded for the files it #includes. */
void unit_settle(struct unit *u, json_t *stats, json_t *sets)
{
	/* a worker that died wrote nothing: an entry there is an older, stale one */
	if (u->compiled && !u->cached && !u->failure)
		load_entry(u, stats, sets, false);
	if (u->facts && json_object_get(u->facts, "included")) {
		u->included = json_incref(json_object_get(u->facts, "included"));
		json_object_del(u->facts, "included");
	}
}

