// SPDX-License-Identifier: GPL-2.0
/*
 * scan.c - the scan pipeline (scan.h): prefilter, parse in worker
 * processes, cache, second opinion, classify.
 *
 * Each translation unit is parsed in its own forked process, at most -j at
 * a time, so that a crash or a hang of libclang on one file costs that file
 * only (it becomes "unknown" with the reason).  Facts are cached under
 * $CACHE/facts keyed by FACTS_VERSION, the file's bytes and its flags;
 * an entry also lists the headers the parse read with their size and mtime,
 * and is used only while they are unchanged.  Entries are written to a
 * temporary name and renamed, so an interrupted run leaves a valid cache.
 */
#define _GNU_SOURCE
#include "scan.h"
#include "classify.h"
#include "cocci.h"
#include "extract.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <xxhash.h>

/*
 * The version of the facts format: change it whenever extract.c records
 * something differently, and every cache entry is parsed again.
 */
#define FACTS_VERSION "6"


struct unit {
	char *rel;
	char *key;		/* cache key, hex */
	char *cache;		/* cache entry path */
	bool compiled;		/* the configuration can compile it */
	bool cached;
	json_t *facts;
	char *failure;
};

/* A JSON string of S even when S (a path, a message) is not valid UTF-8. */
static json_t *jstr(const char *s)
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

			if (stat(path, &st) < 0)
				have = json_string("missing");
			else
				have = json_sprintf("%lld.%ld.%lld", (long long)st.st_mtim.tv_sec,
						    st.st_mtim.tv_nsec, (long long)st.st_size);
			json_object_set_new(stats, path, have);
		}
		if (!json_equal(have, want))
			return false;
	}
	return true;
}

static json_t *dep_stats(json_t *deplist)
{
	json_t *o = json_object(), *v;
	size_t i;

	json_array_foreach(deplist, i, v) {
		struct stat st;
		const char *p = json_string_value(v);

		if (!p || stat(p, &st) < 0)
			continue;
		json_object_set_new(o, p, json_sprintf("%lld.%ld.%lld", (long long)st.st_mtim.tv_sec,
						       st.st_mtim.tv_nsec, (long long)st.st_size));
	}
	return o;
}

/* The worker: parse, write the cache entry, exit.  Never returns. */
static void worker(const struct tree *t, struct unit *u, struct strvec *args, int timeout)
{
	char *err = NULL, *dump, *dir;
	json_t *facts, *entry;
	int rc;

	if (timeout > 0)
		alarm((unsigned)timeout);
	facts = extract_tu(t->root, u->rel, (const char *const *)args->v, (int)args->n, &err);
	/* the parse is over: the time limit must not cut the cache write short */
	alarm(0);
	if (!facts) {
		entry = json_pack("{s:o}", "failure", jstr(err ? err : "libclang failed"));
	} else {
		json_t *deps = json_object_get(facts, "deps");

		entry = json_pack("{s:O, s:o}", "facts", facts, "deps", dep_stats(deps));
		json_object_del(json_object_get(entry, "facts"), "deps");
		json_decref(facts);
	}
	dir = xstrdup(u->cache);
	*strrchr(dir, '/') = '\0';
	mkdir_p(dir);
	dump = json_dumps(entry, JSON_COMPACT | JSON_SORT_KEYS);
	rc = dump && write_file_atomic(u->cache, dump, strlen(dump)) == 0 ? 0 : 3;
	/* freed so that valgrind, which checks each worker, sees no leak of ours */
	free(dump);
	free(dir);
	free(err);
	json_decref(entry);
	_exit(rc);
}

static void progress(const struct scan_opts *o, size_t done, size_t total, double t0, const char *what)
{
	double el, eta;

	if (o->quiet || !isatty(2))
		return;
	el = now_seconds() - t0;
	eta = done ? el / (double)done * (double)(total - done) : 0;
	fprintf(stderr, "\r\033[Kpolltax: parsing %zu/%zu", done, total);
	if (done > 2 && done < total)
		fprintf(stderr, " (ETA %dm%02ds)", (int)eta / 60, (int)eta % 60);
	if (what)
		fprintf(stderr, " %s", what);
	fflush(stderr);
}

static void run_workers(const struct tree *t, const struct flags *fl, struct unit *u, size_t n,
			const struct scan_opts *o)
{
	int jobs = o->jobs > 0 ? o->jobs : online_cpus();
	pid_t *pids = xcalloc((size_t)jobs, sizeof(pid_t));
	size_t *slot_unit = xcalloc((size_t)jobs, sizeof(size_t));
	size_t next = 0, done = 0, todo = 0, running = 0;
	double t0 = now_seconds();

	for (size_t i = 0; i < n; i++)
		todo += u[i].compiled && !u[i].cached;
	while (next < n || running) {
		while (running < (size_t)jobs && next < n) {
			struct unit *x = &u[next];
			int s;

			if (!x->compiled || x->cached) {
				next++;
				continue;
			}
			for (s = 0; s < jobs && pids[s]; s++)
				;
			struct strvec args = STRVEC_INIT;

			flags_for(fl, t, x->rel, &args);
			fflush(stdout);
			fflush(stderr);
			pids[s] = fork();
			if (pids[s] < 0)
				die("fork: %s", strerror(errno));
			if (pids[s] == 0)
				worker(t, x, &args, o->timeout);
			sv_clear(&args);
			slot_unit[s] = next++;
			running++;
		}
		if (!running)
			break;
		int status;
		pid_t pid = waitpid(-1, &status, 0);

		if (pid < 0) {
			if (errno == EINTR)
				continue;
			die("waitpid: %s", strerror(errno));
		}
		for (int s = 0; s < jobs; s++) {
			if (pids[s] != pid)
				continue;
			struct unit *x = &u[slot_unit[s]];

			pids[s] = 0;
			running--;
			done++;
			if (WIFSIGNALED(status)) {
				/* a worker killed while writing leaves its temporary file */
				char *tmp = xasprintf("%s.tmp.%d", x->cache, (int)pid);

				unlink(tmp);
				free(tmp);
			}
			if (WIFSIGNALED(status))
				x->failure = WTERMSIG(status) == SIGALRM
					? xasprintf("libclang did not finish within %d s", o->timeout)
					: xasprintf("libclang crashed (%s)", strsignal(WTERMSIG(status)));
			else if (WEXITSTATUS(status) != 0)
				x->failure = xasprintf("worker failed (exit %d)", WEXITSTATUS(status));
			progress(o, done, todo, t0, x->rel);
		}
	}
	if (todo && !o->quiet && isatty(2))
		fprintf(stderr, "\r\033[Kpolltax: parsed %zu files in %.1f s\n", todo, now_seconds() - t0);
	free(pids);
	free(slot_unit);
}

static void load_entry(struct unit *u, json_t *stats, bool check_deps)
{
	json_error_t je;
	json_t *e = json_load_file(u->cache, 0, &je);

	if (!e)
		return;
	if (json_object_get(e, "failure")) {
		if (!u->failure)
			u->failure = xstrdup(json_string_value(json_object_get(e, "failure")));
		u->cached = true;
	} else if (!check_deps || deps_current(json_object_get(e, "deps"), stats)) {
		u->facts = json_incref(json_object_get(e, "facts"));
		u->cached = true;
	}
	json_decref(e);
}

json_t *scan_tree(const struct tree *t, const struct scan_opts *o)
{
	struct strvec files = STRVEC_INIT, skipped = STRVEC_INIT;
	struct flags fl;
	struct unit *u;
	char *self = xstrdup(FACTS_VERSION), *fp;
	json_t *stats = json_object(), *tus = json_array(), *result, *cocci = NULL;
	json_t *failed = json_array(), *notcomp = json_array(), *skip = json_array();
	size_t nparsed = 0, ncached = 0;
	double t0 = now_seconds();

	flags_init(&fl, t, &o->prep);
	fp = flags_fingerprint(&fl);
	prefilter(t->root, &files, &skipped);
	if (!o->quiet)
		fprintf(stderr, "polltax: %s: %zu files can hold a poll implementation (flags: %s)\n",
			t->version, files.n, fl.source);
	u = xcalloc(files.n, sizeof(*u));
	for (size_t i = 0; i < files.n; i++) {
		struct strvec args = STRVEC_INIT;
		char *abs = path_join(t->root, files.v[i]), *buf;
		size_t len;
		XXH64_state_t *h = XXH64_createState();

		u[i].rel = xstrdup(files.v[i]);
		u[i].compiled = flags_for(&fl, t, files.v[i], &args);
		XXH64_reset(h, 0);
		XXH64_update(h, self, strlen(self));
		XXH64_update(h, fp, strlen(fp));
		for (size_t k = 0; k < args.n; k++)
			XXH64_update(h, args.v[k], strlen(args.v[k]) + 1);
		XXH64_update(h, files.v[i], strlen(files.v[i]) + 1);
		if (read_file(abs, &buf, &len) == 0) {
			XXH64_update(h, buf, len);
			free(buf);
		}
		u[i].key = xasprintf("%016llx", (unsigned long long)XXH64_digest(h));
		u[i].cache = cache_path(u[i].key);
		XXH64_freeState(h);
		if (u[i].compiled && !o->no_cache)
			load_entry(&u[i], stats, true);
		ncached += u[i].cached;
		sv_clear(&args);
		free(abs);
	}
	run_workers(t, &fl, u, files.n, o);
	for (size_t i = 0; i < files.n; i++) {
		if (!u[i].compiled) {
			json_array_append_new(notcomp, jstr(u[i].rel));
			continue;
		}
		/* a worker that died wrote nothing: an entry there is an older, stale one */
		if (!u[i].cached && !u[i].failure)
			load_entry(&u[i], stats, false);
		if (u[i].facts) {
			json_array_append(tus, u[i].facts);
			nparsed++;
		} else {
			json_array_append_new(failed, json_pack("{s:o, s:o}", "file", jstr(u[i].rel), "reason",
								jstr(u[i].failure ? u[i].failure : "no facts")));
		}
	}
	sv_sort(&skipped);	/* directory order is the file system's, not ours */
	for (size_t i = 0; i < skipped.n && i < 10; i++)
		warning("not read: %s", skipped.v[i]);
	if (skipped.n > 10)
		warning("%zu more files not read (polltax.json \"files\".\"skipped\" lists them)", skipped.n - 10);
	for (size_t i = 0; i < skipped.n; i++)
		json_array_append_new(skip, jstr(skipped.v[i]));
	if (!o->no_cocci)
		cocci = cocci_run(t->root, &files, o->jobs > 0 ? o->jobs : online_cpus(), o->quiet);
	result = classify(t, tus, cocci, failed, notcomp);
	json_object_set_new(result, "files", json_pack("{s:I, s:I, s:o, s:o, s:o}",
						       "candidates", (json_int_t)files.n,
						       "parsed", (json_int_t)nparsed,
						       "failed", failed, "not_compiled", notcomp,
						       "skipped", skip));
	json_object_set_new(json_object_get(result, "tree"), "flags", json_string(fl.source));
	if (!o->quiet)
		fprintf(stderr, "polltax: %zu files (%zu from cache) classified in %.1f s\n", files.n, ncached,
			now_seconds() - t0);
	for (size_t i = 0; i < files.n; i++) {
		free(u[i].rel);
		free(u[i].key);
		free(u[i].cache);
		free(u[i].failure);
		json_decref(u[i].facts);
	}
	free(u);
	json_decref(tus);
	json_decref(stats);
	json_decref(cocci);
	sv_clear(&files);
	sv_clear(&skipped);
	flags_free(&fl);
	free(fp);
	free(self);
	return result;
}
