// SPDX-License-Identifier: GPL-2.0
/*
 * scan.c - the scan pipeline (scan.h): prefilter, parse in worker
 * processes, cache, second opinion, classify.
 *
 * Translation units are parsed by -j forked worker processes, one file at
 * a time each, so that a crash or a hang of libclang on one file costs that
 * file only (it becomes "unknown" with the reason); the headers most files
 * share are precompiled first (pch.c).  Facts are cached under
 * $CACHE/facts keyed by FACTS_VERSION, the file's bytes and its flags;
 * an entry also lists the headers the parse read with their size and mtime
 * (those of a precompiled header as a shared set, facts/sets/), and is
 * used only while they are unchanged.  Entries are written to a
 * temporary name and renamed, so an interrupted run leaves a valid cache.
 */
#define _GNU_SOURCE
#include "scan.h"
#include "output.h"
#include "classify/classify.h"
#include "cocci.h"
#include "extract.h"
#include "pch.h"
#include "census.h"
#include "unity.h"
#include "lib/maintainers.h"

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

/*
 * The version of the facts format: change it whenever extract.c records
 * something differently, and every cache entry is parsed again.
 */
#define FACTS_VERSION "18"


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
static json_t *dep_stats(json_t *deplist)
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
static char *dep_set(const struct strvec *h)
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
static bool redo_without_pch(json_t *facts)
{
	return json_array_size(json_object_get(facts, "errors")) > 0;
}

/* What the worker processes share (they are forked from the scan). */
struct pool {
	const struct tree *t;
	struct unit *u;
	size_t n;
	const struct pch *pch;
	int timeout;
	bool parse_only;	/* the parse floor: parse, write nothing */
};

/* How a file was parsed: the worker's answer carries it (HOW_SHIFT up). */
enum how { HOW_PLAIN, HOW_PCH, HOW_AGAIN };	/* AGAIN: with the PCH, then without */
#define HOW_SHIFT 8
static const char *const how_name[] = { "plain", "pch", "again" };

/* The parse floor's unit: the same parses as parse_unit() and nothing else. */
static int parse_only_unit(const struct pool *pl, size_t i, const struct strvec *args)
{
	struct strvec pargs = STRVEC_INIT;
	bool errors = false;
	enum how how = HOW_PLAIN;
	int rc = -1;

	if (pch_args(pl->pch, i, args, &pargs)) {
		rc = parse_tu_only(pl->t->root, pl->u[i].rel, (const char *const *)pargs.v, (int)pargs.n, &errors);
		how = rc < 0 || errors ? HOW_AGAIN : HOW_PCH;
	}
	if (rc < 0 || errors)
		rc = parse_tu_only(pl->t->root, pl->u[i].rel, (const char *const *)args->v, (int)args->n, &errors);
	sv_clear(&pargs);
	return (rc < 0 ? 3 : 0) | (int)how << HOW_SHIFT;
}

/*
 * Parse file I and write its cache entry; the worker's exit-style status,
 * with how it parsed HOW_SHIFT bits up.
 */
static int parse_unit(const struct pool *pl, size_t i)
{
	const struct unit *u = &pl->u[i];
	char *err = NULL, *dump;
	json_t *facts = NULL, *entry;
	const struct strvec *args = &u->args;
	struct strvec pargs = STRVEC_INIT;
	bool with_pch;
	enum how how = HOW_PLAIN;
	int rc;

	if (pl->timeout > 0)
		alarm((unsigned)pl->timeout);
	if (pl->parse_only) {
		rc = parse_only_unit(pl, i, args);
		alarm(0);
		return rc;
	}
	with_pch = pch_args(pl->pch, i, args, &pargs);
	if (with_pch) {
		how = HOW_PCH;
		facts = extract_unit(pl->t->root, u->rel, (const char *const *)pargs.v, (int)pargs.n, u->also, &err);
		if (!facts || redo_without_pch(facts)) {
			json_decref(facts);
			facts = NULL;
			free(err);
			err = NULL;
			with_pch = false;
			how = HOW_AGAIN;
		}
	}
	if (!facts)
		facts = extract_unit(pl->t->root, u->rel, (const char *const *)args->v, (int)args->n, u->also, &err);
	/* the parse is over: the time limit must not cut the cache write short */
	alarm(0);
	if (!facts) {
		entry = json_pack("{s:o}", "failure", jstr(err ? err : "libclang failed"));
	} else {
		json_t *deps = json_object_get(facts, "deps");
		char *set = NULL;

		if (with_pch) {
			/*
			 * the headers inside the PCH are this file's too (one
			 * set shared by the files of the PCH); the PCH itself
			 * goes away
			 */
			const char *pd = pch_dir(pl->pch);
			size_t k;
			json_t *d;

			json_array_foreach(deps, k, d)
				if (!strncmp(json_string_value(d), pd, strlen(pd)))
					json_array_remove(deps, k--);
			set = dep_set(pch_headers(pl->pch, i));
			if (!set) {
				/* no set written: the entry lists the headers itself */
				const struct strvec *h = pch_headers(pl->pch, i);

				for (k = 0; h && k < h->n; k++)
					json_array_append_new(deps, json_string(h->v[k]));
			}
		}
		entry = json_pack("{s:O, s:o}", "facts", facts, "deps", dep_stats(deps));
		if (set)
			json_object_set_new(entry, "dep_set", json_string(set));
		free(set);
		json_object_del(json_object_get(entry, "facts"), "deps");
		json_decref(facts);
	}
	dump = json_dumps(entry, JSON_COMPACT | JSON_SORT_KEYS);
	rc = dump && cache_write(u->cache, dump, strlen(dump)) == 0 ? 0 : 3;
	free(dump);
	free(err);
	sv_clear(&pargs);
	json_decref(entry);
	return rc | (int)how << HOW_SHIFT;
}

/*
 * A worker retires, after the file it has parsed, once its resident size
 * is over this: the bound on its memory.  libclang frees each parse's
 * memory, but the allocator keeps the largest parse's worth; on 6.12 a
 * worker stays near 250 MiB whatever the number of files it parses.
 */
#define WORKER_RSS (384u << 20)
#define RETIRE_BIT 30	/* in the answer: this worker has exited */

/* This process's resident size (/proc/self/statm), 0 if unknown. */
static size_t resident_bytes(void)
{
	FILE *f = fopen("/proc/self/statm", "re");
	unsigned long size, rss = 0;

	if (f) {
		if (fscanf(f, "%lu %lu", &size, &rss) != 2)
			rss = 0;
		fclose(f);
	}
	return (size_t)rss * (size_t)sysconf(_SC_PAGESIZE);
}

/*
 * A worker process: parse the files whose numbers come on socket FD, one
 * at a time, answering each with its status; exit at end of input, or
 * when it has grown too big (WORKER_RSS; its last answer says so).  One
 * process parses many files because a fresh one pays ~50 ms for its
 * first parse (its heap is new, the PCH and the stat() memo cold); a
 * crash or a time-out still costs one file, the one the scan sent last.
 * Never returns.
 */
static void worker(const struct pool *pl, int fd)
{
	uint64_t i;

	stat_memo_enable();

	while (read(fd, &i, sizeof(i)) == (ssize_t)sizeof(i)) {
		int32_t rc = i < pl->n ? parse_unit(pl, (size_t)i) : 3;
		bool retire = resident_bytes() > WORKER_RSS;

		rc |= (int32_t)retire << RETIRE_BIT;
		if (write(fd, &rc, sizeof(rc)) != (ssize_t)sizeof(rc) || retire)
			break;
	}
	/* what is left (statmemo.c's table) is still reachable: valgrind reports no leak */
	_exit(0);
}

/* The live line, cut to the terminal's width (status_line()): a wrapped one would stay behind. */
static void progress(const struct scan_opts *o, size_t done, size_t total, double t0, const char *what)
{
	struct strbuf sb = STRBUF_INIT;
	double el, eta;

	if (o->quiet || !isatty(2))
		return;
	el = now_seconds() - t0;
	eta = done ? el / (double)done * (double)(total - done) : 0;
	sb_addf(&sb, "polltax: parsing %zu/%zu", done, total);
	if (done > 2 && done < total)
		sb_addf(&sb, " (ETA %dm%02ds)", (int)eta / 60, (int)eta % 60);
	if (what)
		sb_addf(&sb, " %s", what);
	status_line("%s", sb.buf);
	sb_release(&sb);
}

struct slot {
	pid_t pid;		/* 0: no process */
	int fd;
	size_t unit;		/* the file it is parsing */
	double since;		/* when it was sent */
	bool busy;
};

static void slot_start(struct slot *sl, struct pollfd *pfd, size_t *ord, int jobs, int s, const struct pool *pl)
{
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		die("socketpair: %s", strerror(errno));
	fflush(stdout);
	fflush(stderr);
	sl[s].pid = fork();
	if (sl[s].pid < 0)
		die("fork: %s", strerror(errno));
	if (sl[s].pid == 0) {
		/* the other workers' ends: held here, they would hide their end of input */
		for (int k = 0; k < jobs; k++)
			if (k != s && sl[k].pid)
				close(sl[k].fd);
		close(sv[0]);
		/* the scan's, not the worker's (valgrind checks each worker) */
		free(sl);
		free(pfd);
		free(ord);
		worker(pl, sv[1]);
	}
	close(sv[1]);
	sl[s].fd = sv[0];
	sl[s].busy = false;
}

/* Stop the worker of slot S; its status when it had to be waited for. */
static int slot_stop(struct slot *sl, int s)
{
	int status = 0;

	close(sl[s].fd);
	while (waitpid(sl[s].pid, &status, 0) < 0 && errno == EINTR)
		;
	sl[s].pid = 0;
	sl[s].busy = false;
	return status;
}

/*
 * The order of the parses: the longest first, so that no long one is left
 * for the end with the other workers idle.  A file's size is the guess; a
 * file parsed without a PCH costs about eight times as much.
 */
struct cost {
	size_t unit;
	double guess;
};

static int by_cost(const void *a, const void *b)
{
	const struct cost *x = a, *y = b;

	if (x->guess != y->guess)
		return x->guess > y->guess ? -1 : 1;
	return x->unit < y->unit ? -1 : x->unit > y->unit;
}

static size_t *parse_order(const struct pool *pl)
{
	struct cost *c = xcalloc(pl->n ? pl->n : 1, sizeof(*c));
	size_t *ord = xcalloc(pl->n ? pl->n : 1, sizeof(*ord));

	for (size_t i = 0; i < pl->n; i++) {
		char *abs = path_join(pl->t->root, pl->u[i].rel);
		struct stat st;

		c[i].unit = i;
		c[i].guess = stat(abs, &st) == 0 ? (double)st.st_size : 0;
		if (pl->pch && !pch_headers(pl->pch, i))
			c[i].guess *= 8;
		free(abs);
	}
	qsort(c, pl->n, sizeof(*c), by_cost);
	for (size_t i = 0; i < pl->n; i++)
		ord[i] = c[i].unit;
	free(c);
	return ord;
}

/* Parse every unit that is compiled and not cached, -j at a time. */
static void run_workers(const struct pool *pl, const struct scan_opts *o)
{
	int jobs = o->jobs > 0 ? o->jobs : online_cpus();
	struct slot *sl = xcalloc((size_t)jobs, sizeof(*sl));
	struct pollfd *pfd = xcalloc((size_t)jobs, sizeof(*pfd));
	struct unit *u = pl->u;
	size_t *ord = parse_order(pl);
	size_t next = 0, done = 0, todo = 0, running = 0;
	double t0 = now_seconds();
	FILE *times = o->times ? fopen(o->times, o->times_append ? "a" : "w") : NULL;

	if (o->times && !times)
		die("cannot write '%s': %s", o->times, strerror(errno));
	for (size_t i = 0; i < pl->n; i++)
		todo += u[i].compiled && !u[i].cached;
	for (;;) {
		for (int s = 0; s < jobs; s++) {
			uint64_t i;

			if (sl[s].busy)
				continue;
			while (next < pl->n && (!u[ord[next]].compiled || u[ord[next]].cached))
				next++;
			if (next == pl->n)
				break;
			if (!sl[s].pid)
				slot_start(sl, pfd, ord, jobs, s, pl);
			i = ord[next];
			if (send(sl[s].fd, &i, sizeof(i), MSG_NOSIGNAL) != (ssize_t)sizeof(i)) {
				/* died between two files: a new one takes the file */
				slot_stop(sl, s);
				s--;
				continue;
			}
			sl[s].unit = ord[next++];
			sl[s].since = now_seconds();
			sl[s].busy = true;
			running++;
		}
		if (!running)
			break;
		for (int s = 0; s < jobs; s++) {
			pfd[s].fd = sl[s].busy ? sl[s].fd : -1;
			pfd[s].events = POLLIN;
			pfd[s].revents = 0;
		}
		if (poll(pfd, (nfds_t)jobs, -1) < 0) {
			if (errno == EINTR)
				continue;
			die("poll: %s", strerror(errno));
		}
		for (int s = 0; s < jobs; s++) {
			struct unit *x = &u[sl[s].unit];
			int32_t rc;
			enum how how = HOW_PLAIN;

			if (!sl[s].busy || !pfd[s].revents)
				continue;
			if (read(sl[s].fd, &rc, sizeof(rc)) == (ssize_t)sizeof(rc)) {
				bool retired = rc >> RETIRE_BIT & 1;

				sl[s].busy = false;
				how = (enum how)(rc >> HOW_SHIFT & 3);
				rc &= (1 << HOW_SHIFT) - 1;
				if (rc == 3 && !pl->parse_only)	/* parse_unit(): the entry the parent reads */
					x->failure = xstrdup("its facts could not be written to the cache");
				else if (rc != 0)
					x->failure = xasprintf("worker failed (exit %d)", (int)rc);
				if (retired)
					slot_stop(sl, s);
			} else {
				/* the worker died on this file */
				pid_t pid = sl[s].pid;
				int status = slot_stop(sl, s);

				if (WIFSIGNALED(status)) {
					/* a worker killed while writing leaves its temporary file */
					if (x->cache) {	/* (the parse floor writes none) */
						char *tmp = xasprintf("%s.tmp.%d", x->cache, (int)pid);

						unlink(tmp);
						free(tmp);
					}
					x->failure = WTERMSIG(status) == SIGALRM
						? xasprintf("libclang did not finish within %d s", o->timeout)
						: xasprintf("libclang crashed (%s)", strsignal(WTERMSIG(status)));
				} else {
					x->failure = xasprintf("worker failed (exit %d)", WEXITSTATUS(status));
				}
			}
			if (times) {
				const char *why = how == HOW_AGAIN ? "an error with the PCH" : pch_why(pl->pch, sl[s].unit);

				fprintf(times, "%.3f\t%s\t%s\t%s\n", now_seconds() - sl[s].since, how_name[how], x->rel,
					why ? why : "");
			}
			running--;
			done++;
			progress(o, done, todo, t0, x->rel);
		}
	}
	for (int s = 0; s < jobs; s++)
		if (sl[s].pid)
			slot_stop(sl, s);
	if (todo && !o->quiet && isatty(2))
		fprintf(stderr, "\r\033[Kpolltax: parsed %zu files in %.1f s\n", todo, now_seconds() - t0);
	if (times && fclose(times) != 0)
		die("cannot write '%s': %s", o->times, strerror(errno));
	free(sl);
	free(pfd);
	free(ord);
}

/* Parse the units to parse, with the PCHs worth building. */
static void parse_units(const struct tree *t, const struct flags *fl, struct unit *u, size_t n,
			const struct scan_opts *o, bool parse_only)
{
	bool *want = xcalloc(n ? n : 1, sizeof(bool));
	char **rels = xcalloc(n ? n : 1, sizeof(char *));
	const struct strvec **args = xcalloc(n ? n : 1, sizeof(*args));
	struct pool pl = { t, u, n, NULL, o->timeout, parse_only };
	struct pch *pch;

	for (size_t i = 0; i < n; i++) {
		want[i] = u[i].compiled && !u[i].cached;
		rels[i] = u[i].rel;
		args[i] = &u[i].args;
	}
	pch = o->no_pch ? NULL : pch_build(t, fl, rels, args, want, n, o->jobs > 0 ? o->jobs : online_cpus(),
					   o->quiet);
	pl.pch = pch;
	run_workers(&pl, o);
	pch_free(pch);
	free(args);
	free(rels);
	free(want);
}

double scan_parse_floor(const struct tree *t, const struct scan_opts *o, size_t *nparsed)
{
	struct strvec files = STRVEC_INIT, skipped = STRVEC_INIT;
	struct flags fl;
	struct unit *u;
	struct unity plan;
	json_t *incl = NULL;
	double t0;

	flags_init(&fl, t, &o->prep);
	prefilter_all(t->root, &files, &skipped, NULL, NULL, &incl);
	unity_plan(&plan, t, &fl, &files, incl);
	u = xcalloc(plan.rels.n ? plan.rels.n : 1, sizeof(*u));
	*nparsed = 0;
	for (size_t i = 0; i < plan.rels.n; i++) {
		u[i].rel = plan.rels.v[i];
		u[i].also = &plan.also[i];
		u[i].compiled = flags_for(&fl, t, plan.rels.v[i], &u[i].args);
		*nparsed += u[i].compiled;
	}
	t0 = now_seconds();
	parse_units(t, &fl, u, plan.rels.n, o, true);
	t0 = now_seconds() - t0;
	for (size_t i = 0; i < plan.rels.n; i++) {
		free(u[i].failure);
		sv_clear(&u[i].args);
	}
	free(u);
	unity_free(&plan);
	json_decref(incl);
	sv_clear(&files);
	sv_clear(&skipped);
	flags_free(&fl);
	return t0;
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
static void unit_init(struct unit *u, const struct tree *t, struct flags *fl, const char *self, const char *fp,
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

static void unit_free(struct unit *u)
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
static void unit_settle(struct unit *u, json_t *stats, json_t *sets)
{
	/* a worker that died wrote nothing: an entry there is an older, stale one */
	if (u->compiled && !u->cached && !u->failure)
		load_entry(u, stats, sets, false);
	if (u->facts && json_object_get(u->facts, "included")) {
		u->included = json_incref(json_object_get(u->facts, "included"));
		json_object_del(u->facts, "included");
	}
}

/*
 * The facts of file REL that unit U recorded (borrowed), or NULL with *WHY
 * (allocated) and *KIND saying why there are none.
 */
static json_t *unit_facts(const struct unit *u, const char *rel, char **why, const char **kind)
{
	char *safe;
	json_t *f, *hit = NULL;
	size_t i;

	if (!strcmp(u->rel, rel)) {
		if (!u->facts) {
			*kind = "libclang";
			*why = xstrdup(u->failure ? u->failure : "no facts");
		}
		return u->facts;
	}
	safe = utf8_safe(rel);
	json_array_foreach(u->included, i, f)
		if (!strcmp(json_string_value(json_object_get(f, "file")) ?: "", safe))
			hit = f;
	free(safe);
	if (!hit && !u->facts) {
		*kind = "libclang";
		*why = xasprintf("parsed through its includer %s: %s", u->rel, u->failure ? u->failure : "no facts");
	} else if (!hit) {
		*kind = "not-read";
		*why = xasprintf("its includer %s does not read it in this configuration", u->rel);
	}
	return hit;
}

/*
 * Why facts F do not count as a parse (allocated; *KIND its kind), or
 * NULL: a unit that libclang parsed with errors, or that yields no function,
 * is never "parsed" (what it yields is partial).  THROUGH: the includer
 * whose parse recorded F, or NULL.
 */
static char *facts_failure(json_t *f, const char *through, const char **kind)
{
	json_t *errs = json_object_get(f, "errors"), *e = json_array_get(errs, 0);
	char *why, *r;

	if (e) {
		size_t n = json_array_size(errs);

		*kind = "errors";
		if (n > 1)
			why = xasprintf("%s:%lld: %s (the first of %s%zu errors)",
					json_string_value(json_object_get(e, "file")) ?: "?",
					json_integer_value(json_object_get(e, "line")),
					json_string_value(json_object_get(e, "msg")) ?: "", n >= 50 ? "at least " : "", n);
		else
			why = xasprintf("%s:%lld: %s", json_string_value(json_object_get(e, "file")) ?: "?",
					json_integer_value(json_object_get(e, "line")),
					json_string_value(json_object_get(e, "msg")) ?: "");
	} else if (!json_object_size(json_object_get(f, "defs"))) {
		*kind = "no-function";
		why = xstrdup("libclang found no function definition in it");
	} else {
		return NULL;
	}
	if (!through)
		return why;
	r = xasprintf("parsed through its includer %s: %s", through, why);
	free(why);
	return r;
}

/* Every "k": "call" base below J (extract.c's D_CALL): its callee into NAMES. */
static void call_bases(json_t *j, json_t *names)
{
	size_t i;
	const char *k;
	json_t *v;

	if (json_is_object(j)) {
		if (!strcmp(json_string_value(json_object_get(j, "k")) ?: "", "call") &&
		    json_is_string(json_object_get(j, "callee")))
			json_object_set_new(names, json_string_value(json_object_get(j, "callee")), json_true());
		json_object_foreach(j, k, v)
			call_bases(v, names);
	} else if (json_is_array(j)) {
		json_array_foreach(j, i, v)
			call_bases(v, names);
	}
}

/*
 * The callees a head is derived from that no file of TUS defines, sorted:
 * those the poll functions' facts name, and, through the "returns" fact of
 * each one that is defined, those its result comes from.
 */
static void unresolved_callees(json_t *tus, struct strvec *out)
{
	json_t *want = json_object(), *returns = json_object(), *defined = json_object(), *calls = json_object();
	json_t *tu, *v;
	const char *k;
	size_t i;
	bool grew = true;

	json_array_foreach(tus, i, tu) {
		json_t *o, *m;
		size_t j;

		call_bases(json_object_get(tu, "functions"), want);
		/* the methods of the ops that poll: one could change what a head hangs off */
		json_array_foreach(json_object_get(tu, "ops"), j, o) {
			if (!json_object_get(json_object_get(o, "members"), "poll"))
				continue;
			json_object_foreach(json_object_get(o, "members"), k, m)
				if (json_is_string(json_object_get(m, "function")))
					json_object_set_new(want, json_string_value(json_object_get(m, "function")),
							    json_true());
		}
		json_object_update_missing(returns, json_object_get(tu, "returns"));
		json_object_foreach(json_object_get(tu, "defs"), k, v) {
			json_object_set_new(defined, k, json_true());
			if (!json_object_get(calls, k))	/* the functions it hands the file to */
				json_object_set(calls, k, json_array_get(v, 2));
		}
	}
	while (grew) {
		size_t before = json_object_size(want);
		json_t *more = json_object();

		json_object_foreach(want, k, v) {
			json_t *f;
			size_t j;

			call_bases(json_object_get(returns, k), more);
			json_array_foreach(json_object_get(calls, k), j, f)
				json_object_set_new(more, json_string_value(f), json_true());
		}
		json_object_update(want, more);
		json_decref(more);
		grew = json_object_size(want) > before;
	}
	json_object_foreach(want, k, v)
		if (!json_object_get(defined, k))
			sv_push(out, k);
	sv_sort(out);
	json_decref(want);
	json_decref(returns);
	json_decref(defined);
	json_decref(calls);
}

/* Is the file REL under DIR (NULL: the whole tree)? */
static bool under_dir(const char *rel, const char *dir)
{
	size_t n = dir ? strlen(dir) : 0;

	return !dir || (!strncmp(rel, dir, n) && rel[n] == '/');
}

/*
 * Only the implementations (and disagreements) under DIR, counted again;
 * "tree"."only_dir" says so.  The facts of the whole tree decided them.
 */
static void keep_under_dir(json_t *result, const char *dir)
{
	static const char *const lists[] = { "implementations", "disagreements" };
	json_t *counts = json_object_get(result, "counts"), *by_class = json_object(), *by_conv = json_object();
	json_t *fops = json_object(), *x, *y;
	json_int_t total = 0;
	size_t i, j;

	for (size_t l = 0; l < 2; l++) {
		json_t *keep = json_array();

		json_array_foreach(json_object_get(result, lists[l]), i, x)
			if (under_dir(json_string_value(json_object_get(x, "file")) ?: "", dir))
				json_array_append(keep, x);
		json_object_set_new(result, lists[l], keep);
	}
	json_array_foreach(json_object_get(result, "implementations"), i, x) {
		const char *cls = json_string_value(json_object_get(x, "class")) ?: "";
		const char *cv = json_string_value(json_object_get(x, "convertible")) ?: "";

		json_object_set_new(by_class, cls, json_integer(json_integer_value(json_object_get(by_class, cls)) + 1));
		json_object_set_new(by_conv, cv, json_integer(json_integer_value(json_object_get(by_conv, cv)) + 1));
		total += strcmp(cls, "not-poll") != 0;
		if (!strcmp(cls, "not-poll"))
			continue;
		json_array_foreach(json_object_get(x, "ops"), j, y)
			if (!strcmp(json_string_value(json_object_get(y, "type")) ?: "", "file_operations")) {
				char *k = xasprintf("%s:%s", json_string_value(json_object_get(y, "file")) ?: "",
						    json_string_value(json_object_get(y, "var")) ?: "");

				json_object_set_new(fops, k, json_true());
				free(k);
			}
	}
	json_object_set_new(counts, "by_class", by_class);
	json_object_set_new(counts, "by_convertible", by_conv);
	json_object_set_new(counts, "implementations", json_integer(total));
	json_object_set_new(counts, "file_operations_with_poll", json_integer((json_int_t)json_object_size(fops)));
	json_object_set_new(counts, "disagreements",
			    json_integer((json_int_t)json_array_size(json_object_get(result, "disagreements"))));
	json_object_set_new(json_object_get(result, "tree"), "only_dir", json_string(dir));
	json_decref(fops);
}

json_t *scan_tree(const struct tree *t, const struct scan_opts *o)
{
	struct strvec files = STRVEC_INIT, skipped = STRVEC_INIT;
	struct flags fl;
	struct unit *u;
	struct unity plan;
	char *self = xstrdup(FACTS_VERSION), *fp;
	json_t *stats = json_object(), *sets = json_object(), *tus = json_array(), *result, *cocci = NULL;
	json_t *failed = json_array(), *notcomp = json_array(), *skip = json_array(), *followed = json_array();
	json_t *through = json_array(), *wstats = NULL, *incl = NULL;
	struct strvec all = STRVEC_INIT, done = STRVEC_INIT;
	size_t nparsed = 0, ncached = 0;
	double t0 = now_seconds();

	flags_init(&fl, t, &o->prep);
	fp = flags_fingerprint(&fl);
	prefilter_all(t->root, &files, &skipped, &all, &wstats, &incl);
	if (!o->quiet)
		fprintf(stderr, "polltax: %s: %zu files can hold a poll implementation (flags: %s)\n",
			t->version, files.n, fl.source);
	/* a file compiled only by being #included into another .c is parsed through it */
	unity_plan(&plan, t, &fl, &files, incl);
	u = xcalloc(plan.rels.n ? plan.rels.n : 1, sizeof(*u));
	for (size_t k = 0; k < plan.rels.n; k++) {
		unit_init(&u[k], t, &fl, self, fp, plan.rels.v[k], &plan.also[k], o, stats, sets);
		ncached += u[k].cached;
	}
	parse_units(t, &fl, u, plan.rels.n, o, false);
	for (size_t k = 0; k < plan.rels.n; k++)
		unit_settle(&u[k], stats, sets);
	for (size_t i = 0; i < files.n; i++) {
		struct unit *x = &u[plan.unit_of[i]];
		bool alone = !strcmp(x->rel, files.v[i]);
		const char *kind = NULL;
		char *why = NULL;
		json_t *f;

		if (!x->compiled) {
			json_array_append_new(notcomp, jstr(files.v[i]));
			continue;
		}
		f = unit_facts(x, files.v[i], &why, &kind);
		if (f) {
			/* (what a unit with errors yields is still the classifier's: census.c says why) */
			json_array_append(tus, f);
			why = facts_failure(f, alone ? NULL : x->rel, &kind);
		}
		if (why)
			json_array_append_new(failed, json_pack("{s:o, s:o, s:s}", "file", jstr(files.v[i]), "reason",
								jstr(why), "kind", kind));
		else if (alone)
			nparsed++;
		else
			json_array_append_new(through, json_pack("{s:o, s:o}", "file", jstr(files.v[i]),
								 "includer", jstr(x->rel)));
		free(why);
	}
	for (size_t i = 0; i < files.n; i++)
		sv_push(&done, files.v[i]);
	/* the includers that are no candidate: their own facts too */
	for (size_t k = 0; k < plan.rels.n; k++) {
		if (sv_contains(&done, plan.rels.v[k]))
			continue;
		if (u[k].facts)
			json_array_append(tus, u[k].facts);
		sv_push(&done, plan.rels.v[k]);
	}
	sv_sort(&done);
	/*
	 * A head derived from a function whose body no parsed file holds:
	 * parse the files that define it (an accessor in a core file with no
	 * poll code), then theirs, three rounds at most.  What is still not
	 * found stays unknown (classify.c's resolve_base()).
	 */
	for (int round = 0; round < 3; round++) {
		struct strvec names = STRVEC_INIT, extra = STRVEC_INIT;
		struct unity xplan;
		struct unit *x;

		unresolved_callees(tus, &names);
		if (names.n)
			find_definers(t->root, &all, wstats, &names, &done, &extra);
		sv_clear(&names);
		if (!extra.n)
			break;
		unity_plan(&xplan, t, &fl, &extra, incl);
		x = xcalloc(xplan.rels.n, sizeof(*x));
		for (size_t k = 0; k < xplan.rels.n; k++) {
			unit_init(&x[k], t, &fl, self, fp, xplan.rels.v[k], &xplan.also[k], o, stats, sets);
			if (!sv_contains(&done, xplan.rels.v[k]))
				sv_push(&done, xplan.rels.v[k]);
		}
		{
			/* the definers' parse times follow the candidates' in --times */
			struct scan_opts xo = *o;

			xo.times_append = true;
			parse_units(t, &fl, x, xplan.rels.n, &xo, false);
		}
		for (size_t k = 0; k < xplan.rels.n; k++)
			unit_settle(&x[k], stats, sets);
		for (size_t i = 0; i < extra.n; i++) {
			struct unit *xu = &x[xplan.unit_of[i]];
			const char *kind = NULL;
			char *why = NULL;
			json_t *f = xu->compiled ? unit_facts(xu, extra.v[i], &why, &kind) : NULL;

			if (f) {
				json_array_append(tus, f);
				json_array_append_new(followed, jstr(extra.v[i]));
			}
			if (!sv_contains(&done, extra.v[i]))
				sv_push(&done, extra.v[i]);
			free(why);
		}
		for (size_t k = 0; k < xplan.rels.n; k++)
			unit_free(&x[k]);
		free(x);
		unity_free(&xplan);
		sv_clear(&extra);
		sv_sort(&done);
	}
	sv_sort(&skipped);	/* directory order is the file system's, not ours */
	for (size_t i = 0; i < skipped.n && i < 10; i++)
		warning("not read: %s", skipped.v[i]);
	if (skipped.n > 10)
		warning("%zu more files not read (polltax.json \"files\".\"skipped\" lists them)", skipped.n - 10);
	for (size_t i = 0; i < skipped.n; i++)
		json_array_append_new(skip, jstr(skipped.v[i]));
	if (!o->no_cocci) {
		/* its second opinion matters only where implementations are reported */
		struct strvec cf = STRVEC_INIT;

		for (size_t i = 0; i < files.n; i++)
			if (under_dir(files.v[i], o->only_dir))
				sv_push(&cf, files.v[i]);
		cocci = cocci_run(t->root, &cf, o->jobs > 0 ? o->jobs : online_cpus(), o->no_cache, o->quiet);
		sv_clear(&cf);
	}
	{
		/* the Coccinelle pass classifies what has no facts; a file with errors has its own (census.c) */
		json_t *nofacts = json_array(), *f;
		size_t i;

		json_array_foreach(failed, i, f)
			if (strcmp(json_string_value(json_object_get(f, "kind")), "errors") &&
			    strcmp(json_string_value(json_object_get(f, "kind")), "no-function"))
				json_array_append(nofacts, f);
		result = classify(t, tus, cocci, nofacts, notcomp);
		json_decref(nofacts);
	}
	json_object_set_new(result, "files", json_pack("{s:I, s:I, s:o, s:o, s:o, s:o, s:o}",
						       "candidates", (json_int_t)files.n,
						       "parsed", (json_int_t)nparsed,
						       "failed", failed, "not_compiled", notcomp,
						       "skipped", skip, "definers", followed,
						       "through_includer", through));
	json_object_set_new(json_object_get(result, "tree"), "flags", json_string(fl.source));
	/* every poll member of the text is in the output, classified or unknown with the reason */
	census(result, t->root, &files, tus);
	if (o->only_dir)
		keep_under_dir(result, o->only_dir);
	{
		/* the MAINTAINERS section of each implementation's file, read from the tree's MAINTAINERS */
		struct maint_db *md = maint_db_load(t->root);
		json_t *x;
		size_t i;

		json_array_foreach(json_object_get(result, "implementations"), i, x) {
			const char *sec = maint_db_section(md, json_string_value(json_object_get(x, "file")) ?: "");

			json_object_set_new(x, "section", json_string(sec ? sec : ""));
		}
		maint_db_free(md);
	}
	json_object_set_new(json_object_get(result, "tree"), "sources",
			    scan_sources_id(t->root, json_object_get(result, "implementations")));
	if (t->head) {
		/* the commit's date: the progress of a tree without tags is dated by it */
		const char *gargv[] = { "git", "-C", t->root, "log", "-1", "--format=%cs", "HEAD", NULL };
		struct strbuf d = STRBUF_INIT;

		if (run_cmd(gargv, NULL, &d, true) == 0 && d.len > 1) {
			d.buf[strcspn(d.buf, "\n")] = '\0';
			json_object_set_new(json_object_get(result, "tree"), "git_date", json_string(d.buf));
		}
		sb_release(&d);
	}
	if (!o->quiet)
		fprintf(stderr, "polltax: %zu files (%zu from cache) classified in %.1f s\n", files.n, ncached,
			now_seconds() - t0);
	for (size_t k = 0; k < plan.rels.n; k++)
		unit_free(&u[k]);
	free(u);
	unity_free(&plan);
	json_decref(incl);
	json_decref(tus);
	json_decref(wstats);
	sv_clear(&all);
	sv_clear(&done);
	json_decref(stats);
	json_decref(sets);
	json_decref(cocci);
	sv_clear(&files);
	sv_clear(&skipped);
	flags_free(&fl);
	free(fp);
	free(self);
	return result;
}
