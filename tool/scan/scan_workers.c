// SPDX-License-Identifier: GPL-2.0
/*
 * scan_workers.c - the worker processes of the scan: -j forked workers
 * parse one file at a time each and write its cache entry (a crash or a
 * hang costs that file only); the order of the files, the time limit, the
 * retirement of a worker grown big; the parse floor of 'make bench'.
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
		entry = json_pack("{s:o}", "failure", scan_jstr(err ? err : "libclang failed"));
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
		fprintf(stderr, "\r\033[Kpolltax: parsed %zu file%s in %.1f s\n", todo, todo == 1 ? "" : "s", now_seconds() - t0);
	if (times && fclose(times) != 0)
		die("cannot write '%s': %s", o->times, strerror(errno));
	free(sl);
	free(pfd);
	free(ord);
}

/* Parse the units to parse, with the PCHs worth building. */
void parse_units(const struct tree *t, const struct flags *fl, struct unit *u, size_t n,
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

double scan_parse_floor(const struct tree *t, const struct scan_opts *o, const struct strvec *also,
			size_t *nparsed)
{
	struct strvec files = STRVEC_INIT, skipped = STRVEC_INIT;
	struct flags fl;
	struct unit *u;
	struct unity plan;
	json_t *incl = NULL;
	double t0;

	flags_init(&fl, t, &o->prep);
	prefilter_all(t->root, &files, &skipped, NULL, NULL, &incl);
	/* and the files the scan followed beyond them (cmd_parse_floor.c's --scan) */
	for (size_t i = 0; also && i < also->n; i++)
		if (!sv_contains(&files, also->v[i]))
			sv_push(&files, also->v[i]);
	sv_sort(&files);
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
