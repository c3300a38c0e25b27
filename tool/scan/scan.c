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
#include "scan_int.h"
#include "output.h"
#include "classify/classify.h"
#include "cocci.h"
#include "extract.h"
#include "pch.h"
#include "census.h"
#include "unity.h"
#include "lib/arch.h"
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
#define FACTS_VERSION "29"

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

/* Every "k": "call" base below J (D_CALL in extract_int.h): its callee into NAMES. */
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
	/*
	 * the functions handed a fops (refs "call:F:I"), and those that hand
	 * one on (fop_flow "pass"): what they do with it decides the open path
	 */
	json_array_foreach(tus, i, tu) {
		json_t *r;
		size_t j;

		json_array_foreach(json_object_get(tu, "refs"), j, r) {
			const char *ctx = json_string_value(json_object_get(r, "ctx"));

			if (ctx && !strncmp(ctx, "call:", 5)) {
				char *n = xstrndup(ctx + 5, strcspn(ctx + 5, ":"));

				json_object_set_new(want, n, json_true());
				free(n);
			}
		}
		json_array_foreach(json_object_get(tu, "fop_flow"), j, r)
			if (json_is_string(json_object_get(r, "callee")))
				json_object_set_new(want, json_string_value(json_object_get(r, "callee")), json_true());
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

/*
 * The facts of each candidate file (through its unit) into TUS; each one
 * not compiled, failed or parsed through its includer into its list.
 * Returns how many were parsed on their own.
 */
static size_t candidate_facts(const struct strvec *files, struct unit *u, const struct unity *plan, json_t *tus,
			      json_t *failed, json_t *notcomp, json_t *through)
{
	size_t nparsed = 0;

	for (size_t i = 0; i < files->n; i++) {
		struct unit *x = &u[plan->unit_of[i]];
		bool alone = !strcmp(x->rel, files->v[i]);
		const char *kind = NULL;
		char *why = NULL;
		json_t *f;

		if (!x->compiled) {
			json_array_append_new(notcomp, scan_jstr(files->v[i]));
			continue;
		}
		f = unit_facts(x, files->v[i], &why, &kind);
		if (f) {
			/* (what a unit with errors yields is still the classifier's: census.c says why) */
			json_array_append(tus, f);
			why = facts_failure(f, alone ? NULL : x->rel, &kind);
		}
		if (why)
			json_array_append_new(failed, json_pack("{s:o, s:o, s:s}", "file", scan_jstr(files->v[i]),
								"reason", scan_jstr(why), "kind", kind));
		else if (alone)
			nparsed++;
		else
			json_array_append_new(through, json_pack("{s:o, s:o}", "file", scan_jstr(files->v[i]),
								 "includer", scan_jstr(x->rel)));
		free(why);
	}
	return nparsed;
}

/* The files not read: sorted, the first ten warned of, all of them into SKIP. */
static void skipped_files(struct strvec *skipped, json_t *skip)
{
	sv_sort(skipped);	/* directory order is the file system's, not ours */
	for (size_t i = 0; i < skipped->n && i < 10; i++)
		warning("not read: %s", skipped->v[i]);
	if (skipped->n > 10)
		warning("%zu more files not read (polltax.json \"files\".\"skipped\" lists them)", skipped->n - 10);
	for (size_t i = 0; i < skipped->n; i++)
		json_array_append_new(skip, scan_jstr(skipped->v[i]));
}

/* The second opinion (cocci.h) on the candidate FILES: it matters only where implementations are reported. */
static json_t *cocci_of(const struct tree *t, const struct strvec *files, const struct scan_opts *o)
{
	struct strvec cf = STRVEC_INIT;
	json_t *cocci;

	for (size_t i = 0; i < files->n; i++)
		if (under_dir(files->v[i], o->only_dir))
			sv_push(&cf, files->v[i]);
	cocci = cocci_run(t->root, &cf, o->jobs > 0 ? o->jobs : online_cpus(), o->no_cache, o->quiet);
	sv_clear(&cf);
	return cocci;
}

/* classify(): the Coccinelle pass classifies what has no facts; a file with errors has its own (census.c). */
static json_t *classify_all(const struct tree *t, json_t *tus, json_t *cocci, json_t *failed, json_t *notcomp)
{
	json_t *nofacts = json_array(), *f, *result;
	size_t i;

	json_array_foreach(failed, i, f)
		if (strcmp(json_string_value(json_object_get(f, "kind")), "errors") &&
		    strcmp(json_string_value(json_object_get(f, "kind")), "no-function"))
			json_array_append(nofacts, f);
	result = classify(t, tus, cocci, nofacts, notcomp);
	json_decref(nofacts);
	return result;
}

/* The commit's date into "tree"."git_date": the progress of a tree without tags is dated by it. */
static void git_date(const struct tree *t, json_t *result)
{
	const char *gargv[] = { "git", "-C", t->root, "log", "-1", "--format=%cs", "HEAD", NULL };
	struct strbuf d = STRBUF_INIT;

	if (run_cmd(gargv, NULL, &d, true) == 0 && d.len > 1) {
		d.buf[strcspn(d.buf, "\n")] = '\0';
		json_object_set_new(json_object_get(result, "tree"), "git_date", json_string(d.buf));
	}
	sb_release(&d);
}

/* The ops records of TUS with a poll member that are not static (OUT: their names, sorted, once each). */
static void extern_poll_ops(json_t *tus, struct strvec *out)
{
	json_t *tu, *o;
	size_t i, j;

	json_array_foreach(tus, i, tu)
		json_array_foreach(json_object_get(tu, "ops"), j, o) {
			const char *var = json_string_value(json_object_get(o, "var"));

			if (!var || json_is_true(json_object_get(o, "static")) || strchr(var, '[') ||
			    !json_object_get(json_object_get(o, "members"), "poll") || sv_contains(out, var))
				continue;
			sv_push(out, var);
		}
	sv_sort(out);
}

/*
 * The members ("STRUCT.FIELD") of TUS's refs that hand a fops to a
 * framework (init: and assign: contexts), less those whose open path
 * polltax knows (a miscdevice's, a cdev's, a file's or an inode's).
 */
static void framework_members(json_t *tus, struct strvec *out)
{
	static const char *const known[] = { "miscdevice.fops", "cdev.ops", "file.f_op", "inode.i_fop" };
	json_t *tu, *r;
	size_t i, j;

	json_array_foreach(tus, i, tu)
		json_array_foreach(json_object_get(tu, "refs"), j, r) {
			const char *ctx = json_string_value(json_object_get(r, "ctx")), *tf;
			bool skip = false;

			if (!ctx || (strncmp(ctx, "init:", 5) && strncmp(ctx, "assign:", 7)))
				continue;
			tf = strchr(ctx, ':') + 1;
			for (size_t k = 0; k < sizeof(known) / sizeof(*known); k++)
				skip |= !strcmp(tf, known[k]);
			if (!skip && strchr(tf, '.') && !strchr(tf, ' ') && !sv_contains(out, tf))
				sv_push(out, tf);
		}
	/* and where functions keep fops pointers: a member ("snd_minor.f_ops"), a global table ("var:usb_minors") */
	json_array_foreach(tus, i, tu)
		json_array_foreach(json_object_get(tu, "fop_flow"), j, r) {
			const char *k = json_string_value(json_object_get(r, "k"));
			const char *f = json_string_value(json_object_get(r, "field"));

			if (!k || !f || strcmp(k, "store") || !strcmp(f, "file.f_op") || !strcmp(f, "inode.i_fop"))
				continue;
			if (!strncmp(f, "var:", 4))
				f += 4;	/* the files naming the table */
			if (!sv_contains(out, f))
				sv_push(out, f);
		}
	sv_sort(out);
}

/*
 * Which of the non-static ops NAMES each file of NAMING names (its text):
 * its facts get "names_ops"; a file with no facts (it did not parse, or
 * the configuration does not compile it) goes to "ops_named_unparsed" of
 * the file that defines the ops.  classify_sites.c then asks of each such
 * file whether the parse saw all of it.
 */
static void note_naming(const char *root, json_t *tus, const struct strvec *names, const struct strvec *naming)
{
	struct strvec *per = xcalloc(naming->n ? naming->n : 1, sizeof(*per));
	json_t *tu, *o;
	size_t i, j;

	names_in_files(root, naming, names, per);
	for (size_t f = 0; f < naming->n; f++) {
		json_t *owner = NULL, *l = json_array();

		for (size_t k = 0; k < per[f].n; k++)
			json_array_append_new(l, json_string(per[f].v[k]));
		json_array_foreach(tus, i, tu)
			if (!strcmp(json_string_value(json_object_get(tu, "file")) ?: "", naming->v[f]))
				owner = tu;
		if (owner) {
			json_object_set(owner, "names_ops", l);
		} else {
			/* no facts of that file: say so where the ops are */
			for (size_t k = 0; k < per[f].n; k++)
				json_array_foreach(tus, i, tu)
					json_array_foreach(json_object_get(tu, "ops"), j, o) {
						const char *var = json_string_value(json_object_get(o, "var"));
						json_t *u;

						if (!var || strcmp(var, per[f].v[k]) || json_is_true(json_object_get(o, "static")))
							continue;
						if (!(u = json_object_get(tu, "ops_named_unparsed"))) {
							u = json_object();
							json_object_set_new(tu, "ops_named_unparsed", u);
						}
						if (!json_object_get(u, var))
							json_object_set_new(u, var, json_array());
						json_array_append_new(json_object_get(u, var), json_string(naming->v[f]));
					}
		}
		json_decref(l);
		sv_clear(&per[f]);
	}
	free(per);
}

/*
 * Parse EXTRA (files no candidate list named: definers, referrers) and add
 * their facts to TUS; FOLLOWED lists them, DONE (sorted again) has them.
 */
static void parse_extra(const struct tree *t, struct flags *fl, const char *self, const char *fp,
			const struct scan_opts *o, json_t *stats, json_t *sets, json_t *incl,
			const struct strvec *extra, json_t *tus, json_t *followed, struct strvec *done)
{
	struct unity xplan;
	struct unit *x;
	struct scan_opts xo = *o;

	unity_plan(&xplan, t, fl, extra, incl);
	x = xcalloc(xplan.rels.n ? xplan.rels.n : 1, sizeof(*x));
	for (size_t k = 0; k < xplan.rels.n; k++) {
		unit_init(&x[k], t, fl, self, fp, xplan.rels.v[k], &xplan.also[k], o, stats, sets);
		if (!sv_contains(done, xplan.rels.v[k]))
			sv_push(done, xplan.rels.v[k]);
	}
	/* their parse times follow the candidates' in --times */
	xo.times_append = true;
	parse_units(t, fl, x, xplan.rels.n, &xo, false);
	for (size_t k = 0; k < xplan.rels.n; k++)
		unit_settle(&x[k], stats, sets);
	for (size_t i = 0; i < extra->n; i++) {
		struct unit *xu = &x[xplan.unit_of[i]];
		const char *kind = NULL;
		char *why = NULL;
		json_t *f = xu->compiled ? unit_facts(xu, extra->v[i], &why, &kind) : NULL;

		if (f) {
			json_array_append(tus, f);
			json_array_append_new(followed, scan_jstr(extra->v[i]));
		}
		if (!sv_contains(done, extra->v[i]))
			sv_push(done, extra->v[i]);
		free(why);
	}
	for (size_t k = 0; k < xplan.rels.n; k++)
		unit_free(&x[k]);
	free(x);
	unity_free(&xplan);
	sv_sort(done);
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
		fprintf(stderr, "polltax: %s: %zu file%s can hold a poll implementation (flags: %s)\n",
			t->version, files.n, files.n == 1 ? "" : "s", fl.source);
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
	nparsed = candidate_facts(&files, u, &plan, tus, failed, notcomp, through);
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
	 * The files beyond the candidates whose facts a verdict needs, found
	 * by their text and parsed together, round by round (one PCH and all
	 * workers for each batch; five rounds at most):
	 *  - the files that name a non-static ops record with a poll member:
	 *    they may create files with it (anon_inode_getfile() with no
	 *    ->open), so that their creation sites are facts (classify_sites.c);
	 *  - the framework code that reads the members and tables fops are
	 *    handed through and kept in;
	 *  - the files that define a function a head is derived from, whose
	 *    body no parsed file holds (an accessor in a core file with no poll
	 *    code): what is still not found stays unknown (classify.c's
	 *    resolve_base()).
	 */
	{
		struct strvec names = STRVEC_INIT, naming = STRVEC_INIT, none = STRVEC_INIT;
		struct strvec extra = STRVEC_INIT, more = STRVEC_INIT;

		extern_poll_ops(tus, &names);
		if (names.n)
			find_referrers(t->root, &all, wstats, &names, &none, &naming);
		for (size_t i = 0; i < naming.n; i++)
			if (!sv_contains(&done, naming.v[i]))
				sv_push(&extra, naming.v[i]);
		for (int round = 0; round < 5; round++) {
			struct strvec members = STRVEC_INIT, callees = STRVEC_INIT;

			framework_members(tus, &members);
			if (members.n)
				find_member_readers(t->root, &all, wstats, &members, &done, &more);
			unresolved_callees(tus, &callees);
			if (callees.n)
				find_definers(t->root, &all, wstats, &callees, &done, &more);
			for (size_t i = 0; i < more.n; i++)
				if (!sv_contains(&extra, more.v[i]))
					sv_push(&extra, more.v[i]);
			sv_clear(&members);
			sv_clear(&callees);
			sv_clear(&more);
			if (extra.n)
				parse_extra(t, &fl, self, fp, o, stats, sets, incl, &extra, tus, followed, &done);
			if (round == 0)
				note_naming(t->root, tus, &names, &naming);	/* every naming file parsed now */
			if (!extra.n)
				break;
			sv_clear(&extra);
		}
		sv_clear(&extra);
		sv_clear(&names);
		sv_clear(&naming);
	}
	skipped_files(&skipped, skip);
	if (!o->no_cocci)
		cocci = cocci_of(t, &files, o);
	result = classify_all(t, tus, cocci, failed, notcomp);
	json_object_set_new(result, "files", json_pack("{s:I, s:I, s:o, s:o, s:o, s:o, s:o}",
						       "candidates", (json_int_t)files.n,
						       "parsed", (json_int_t)nparsed,
						       "failed", failed, "not_compiled", notcomp,
						       "skipped", skip, "definers", followed,
						       "through_includer", through));
	json_object_set_new(json_object_get(result, "tree"), "flags", json_string(fl.source));
	if (fl.nalt) {
		/* --arch: which ones, and the implementations parsed with one of theirs */
		json_t *as = json_array(), *x;
		size_t i;

		for (size_t a = 0; a < fl.nalt; a++)
			json_array_append_new(as, json_string(fl.alt[a].arch->name));
		json_object_set_new(json_object_get(result, "tree"), "arches", as);
		json_array_foreach(json_object_get(result, "implementations"), i, x) {
			const struct flags *af = flags_arch_of(&fl, json_string_value(json_object_get(x, "file")) ?: "");

			if (af != &fl)
				json_object_set_new(x, "arch", json_string(af->arch->name));
		}
	}
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
	if (t->head)
		git_date(t, result);
	if (!o->quiet)
		fprintf(stderr, "polltax: %zu file%s (%zu from cache) classified in %.1f s\n", files.n,
			files.n == 1 ? "" : "s", ncached,
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
