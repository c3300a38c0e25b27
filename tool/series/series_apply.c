// SPDX-License-Identifier: GPL-2.0
/*
 * series_apply.c - series_apply() (series.h): every planned conversion
 * applied to the scratch tree before the commits, in parallel where the
 * work is independent.
 *
 * Two conversions are independent when they share no file (a plan's
 * files: those its poll side is rewritten in and those of its creation
 * sites, convert_plan_files()).  The plans are put in clusters of plans
 * that share files, transitively; a cluster is applied by one worker
 * process, in the order of the series, so that a file sees the same
 * sequence of edits as when everything ran in one process, and the tree
 * ends byte for byte the same.  The workers write what each application
 * said (refused and why, an export renamed, the ops macros rewritten)
 * into a JSON file that the parent reads back into the plans; the commits
 * are then made one group at a time, as before.
 */
#define _GNU_SOURCE
#include "convert/convert.h"
#include "series.h"
#include "lib/json_util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

struct job {
	json_t *plan;		/* in a group's plans */
	int cluster;
};

static int find(int *parent, int i)
{
	while (parent[i] != i)
		i = parent[i] = parent[parent[i]];
	return i;
}

/* Worker W: apply the plans of the clusters given to it (OWNER), in order; their outcomes into OUT. */
static int worker(struct convert *cv, struct job *jobs, size_t n, const int *owner, int w, const char *out)
{
	json_t *res = json_object();
	int rc = 0;

	for (size_t i = 0; i < n; i++) {
		char *reason = NULL, key[32];
		json_t *o;

		if (owner[jobs[i].cluster] != w)
			continue;
		snprintf(key, sizeof(key), "%zu", i);
		if (convert_apply(cv, jobs[i].plan, &reason) < 0) {
			o = json_pack("{s:b, s:s}", "ok", 0, "reason", reason ? reason : "refused");
		} else {
			o = json_pack("{s:b}", "ok", 1);
			if (json_object_get(jobs[i].plan, "export"))
				json_object_set(o, "export", json_object_get(jobs[i].plan, "export"));
			if (json_object_get(jobs[i].plan, "fops_macros"))
				json_object_set(o, "fops_macros", json_object_get(jobs[i].plan, "fops_macros"));
		}
		free(reason);
		json_object_set_new(res, key, o);
	}
	if (json_dump_file(res, out, JSON_COMPACT) != 0)
		rc = 1;
	json_decref(res);
	return rc;
}

void series_apply(struct series_run *r, struct convert *cv)
{
	struct job *jobs = NULL;
	size_t n = 0, cap = 0;
	int *parent, *owner, *size, nclusters = 0, nw;
	json_t *files = json_object();	/* file -> the first job that has it */
	pid_t *pids;
	char **outs;

	for (size_t k = 0; k < r->ngroups; k++) {
		json_t *x;
		size_t i;

		json_array_foreach(r->groups[k].plans, i, x) {
			if (n == cap)
				jobs = xrealloc(jobs, (cap = cap ? 2 * cap : 64) * sizeof(*jobs));
			jobs[n++] = (struct job){ x, -1 };
		}
	}
	if (!n) {
		json_decref(files);
		free(jobs);
		return;
	}
	/* clusters: plans that share a file, transitively */
	parent = xcalloc(n, sizeof(*parent));
	for (size_t i = 0; i < n; i++) {
		struct strvec fs = STRVEC_INIT;

		parent[i] = (int)i;
		convert_plan_files(jobs[i].plan, &fs);
		for (size_t f = 0; f < fs.n; f++) {
			json_t *first = json_object_get(files, fs.v[f]);

			if (first)
				parent[find(parent, (int)i)] = find(parent, (int)json_integer_value(first));
			else
				json_object_set_new(files, fs.v[f], json_integer((json_int_t)i));
		}
		sv_clear(&fs);
	}
	size = xcalloc(n, sizeof(*size));
	for (size_t i = 0; i < n; i++) {
		jobs[i].cluster = find(parent, (int)i);
		if (size[jobs[i].cluster]++ == 0)
			nclusters++;
	}
	/* each cluster to the least loaded worker, in the order of the series (deterministic) */
	nw = online_cpus();
	if (nw > nclusters)
		nw = nclusters;
	if (nw < 1)
		nw = 1;
	owner = xcalloc(n, sizeof(*owner));
	{
		int *load = xcalloc((size_t)nw, sizeof(*load));

		for (size_t i = 0; i < n; i++) {
			int c = jobs[i].cluster, best = 0;

			if ((int)i != c)
				continue;
			for (int w = 1; w < nw; w++)
				if (load[w] < load[best])
					best = w;
			owner[c] = best;
			load[best] += size[c];
		}
		free(load);
	}
	series_progress(r->o, "converting %zu implementations (%d independent sets of files, %d worker%s)", n,
			nclusters, nw, nw == 1 ? "" : "s");
	pids = xcalloc((size_t)nw, sizeof(*pids));
	outs = xcalloc((size_t)nw, sizeof(*outs));
	fflush(stdout);
	fflush(stderr);
	for (int w = 0; w < nw; w++) {
		outs[w] = xasprintf("%s/.apply-%d-%d.json", r->s.dir, (int)getpid(), w);
		pids[w] = fork();
		if (pids[w] < 0)
			die("cannot fork: %s", strerror(errno));
		if (pids[w] == 0)
			_exit(worker(cv, jobs, n, owner, w, outs[w]));
	}
	for (int w = 0; w < nw; w++) {
		int st;
		json_t *res;

		while (waitpid(pids[w], &st, 0) < 0)
			if (errno != EINTR)
				die("waitpid: %s", strerror(errno));
		res = json_load_file(outs[w], 0, NULL);
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0 || !res)
			die("a conversion worker failed (%s)", WIFEXITED(st) ? "no result" : "killed by a signal");
		for (size_t i = 0; i < n; i++) {
			char key[32];
			json_t *o;

			snprintf(key, sizeof(key), "%zu", i);
			o = json_object_get(res, key);
			if (!o)
				continue;
			json_object_set(jobs[i].plan, "applied", json_object_get(o, "ok"));
			if (json_is_false(json_object_get(o, "ok")))
				json_object_set(jobs[i].plan, "apply_reason", json_object_get(o, "reason"));
			if (json_object_get(o, "export"))
				json_object_set(jobs[i].plan, "export", json_object_get(o, "export"));
			if (json_object_get(o, "fops_macros"))
				json_object_set(jobs[i].plan, "fops_macros", json_object_get(o, "fops_macros"));
		}
		json_decref(res);
		unlink(outs[w]);
		free(outs[w]);
	}
	free(outs);
	free(pids);
	free(owner);
	free(size);
	free(parent);
	free(jobs);
	json_decref(files);
}
