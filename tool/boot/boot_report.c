// SPDX-License-Identifier: GPL-2.0
/*
 * boot_report.c - what the boots mean: every kernel must boot and finish
 * the guest without a panic, oops, WARN, lockdep report or stall; every
 * check must pass on the base kernel (or be skipped, or be a known TODO);
 * and the patched and two-call kernels must give exactly the results of the
 * base kernel.  A difference is reported by file type (the kind, with its
 * kernel source file and whether the series converted it), so that a
 * broken conversion names itself.
 *
 * boot-test.json holds the facts (per kernel, per check; the benchmark
 * rows); boot-test.md is the "Tested" section for the cover letter.
 */
#define _GNU_SOURCE
#include "boot_report_int.h"

#include <stdlib.h>
#include <string.h>

bool kind_converted(const struct boot_report *r, const struct guest_kind *k)
{
	return boot_series_converts(r->s, k->source, k->poll_fn);
}

static const struct guest_kind *kind_of_check(const struct boot_report *r, const char *check)
{
	const char *colon = strchr(check, ':');

	for (size_t i = 0; colon && i < r->nkinds; i++)
		if (strlen(r->kinds[i].name) == (size_t)(colon - check) &&
		    !strncmp(check, r->kinds[i].name, (size_t)(colon - check)))
			return &r->kinds[i];
	return NULL;
}

static const struct check_result *find_check(const struct boot_result *b, const char *name)
{
	for (size_t i = 0; i < b->nchecks; i++)
		if (!strcmp(b->checks[i].name, name))
			return &b->checks[i];
	return NULL;
}

static const struct guest_kind *kind_of_check(const struct boot_report *r, const char *check);
static const char *kind_label(const struct boot_report *r, const struct guest_kind *k, char *buf, size_t n);

/* The check of BASE's checks that B stopped at: the first B has no result for; NULL if none is missing. */
static const char *stopped_at(const struct boot_result *base, const struct boot_result *b)
{
	for (size_t i = 0; i < base->nchecks; i++)
		if (!find_check(b, base->checks[i].name))
			return base->checks[i].name;
	return NULL;
}

static void boot_failures(struct boot_report *r, const char *kernel, const char *what, const struct boot_result *b)
{
	for (size_t i = 0; i < b->problems.n; i++)
		sv_pushf(&r->failures, "%s kernel, %s boot: %s", kernel, what, b->problems.v[i]);
	if (b->timed_out || !b->finished) {
		char *tail = log_tail(b->log, 15), label[256], *during = xstrdup("");
		const char *at = strcmp(what, "test") ? NULL : stopped_at(&r->runs[K_BASE].test, b);

		/* the file type it was checking: the first check of base's run with no result here */
		if (at && b != &r->runs[K_BASE].test && kind_of_check(r, at)) {
			free(during);
			during = xasprintf(", during %s: %s", kind_label(r, kind_of_check(r, at), label, sizeof(label)),
					   strchr(at, ':') ? strchr(at, ':') + 2 : at);
		}
		sv_pushf(&r->failures, "%s kernel, %s boot: %s%s (log '%s'), its end:\n%s", kernel, what,
			 b->timed_out ? "hang: still running at the timeout, killed" : "the guest did not finish",
			 during, b->log, tail);
		free(during);
		free(tail);
	}
}

static const char *kind_label(const struct boot_report *r, const struct guest_kind *k, char *buf, size_t n)
{
	if (!k)
		return "?";
	snprintf(buf, n, "%s (%s, %s)", k->name, k->source,
		 kind_converted(r, k) ? "converted by the series" : "not converted");
	return buf;
}

/* the words of the guest's skip of a kind not run on a lockdep kernel (K_NO_DEBUG, guest/polltest.c) */
#define NOT_ON_DEBUG "not run on a lockdep kernel"

/* a skip on a debug kernel of what the others run: its driver's own lockdep report, not the series' */
static bool debug_skip(int id, const struct check_result *c)
{
	return c && kernel_debug(id) && !strcmp(c->status, "skip") && c->detail &&
	       !strncmp(c->detail, NOT_ON_DEBUG, strlen(NOT_ON_DEBUG));
}

/* does kernel ID's result C of a check differ from base's, BC? */
static bool differs(int id, const struct check_result *bc, const struct check_result *c)
{
	return (!c || strcmp(c->status, bc->status)) && !debug_skip(id, c);
}

char *br_debug_skipped(const struct boot_report *r)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t j = 0; j < r->nkinds; j++) {
		bool skipped = false;

		for (int id = 0; id < NR_KERNELS && !skipped; id++) {
			const struct boot_result *b = &r->runs[id].test;

			if (!r->w->k[id].wanted || !kernel_debug(id))
				continue;
			for (size_t i = 0; i < b->nchecks && !skipped; i++)
				skipped = kind_of_check(r, b->checks[i].name) == &r->kinds[j] &&
					  debug_skip(id, &b->checks[i]);
		}
		if (skipped)
			sb_addf(&sb, "%s%s", sb.len ? ", " : "", r->kinds[j].name);
	}
	return sb_detach(&sb);
}

void boot_report_compare(struct boot_report *r)
{
	const struct boot_result *base = &r->runs[K_BASE].test;

	for (int id = 0; id < NR_KERNELS; id++) {
		if (!r->w->k[id].wanted)
			continue;
		boot_failures(r, kernel_names[id], "test", &r->runs[id].test);
		if (r->bench && !kernel_debug(id))
			boot_failures(r, kernel_names[id], "benchmark", &r->runs[id].bench);
	}
	/* the base kernel itself: a failing check there is a broken test or guest */
	for (size_t i = 0; i < base->nchecks; i++)
		if (!strcmp(base->checks[i].status, "fail"))
			sv_pushf(&r->failures, "base kernel: check fails: %s: %s", base->checks[i].name,
				 base->checks[i].detail ? base->checks[i].detail : "");
	for (int id = K_PATCHED; id < NR_KERNELS; id++) {
		const struct boot_result *b = &r->runs[id].test;
		struct strvec kinds = STRVEC_INIT;

		if (!r->w->k[id].wanted || !b->finished)
			continue;
		/* group the differences by file type */
		for (size_t i = 0; i < base->nchecks; i++) {
			const struct check_result *c = find_check(b, base->checks[i].name);

			if (differs(id, &base->checks[i], c)) {
				const struct guest_kind *k = kind_of_check(r, base->checks[i].name);

				if (k && !sv_contains(&kinds, k->name))
					sv_push(&kinds, k->name);
			}
		}
		for (size_t j = 0; j < kinds.n; j++) {
			struct strbuf sb = STRBUF_INIT;
			const struct guest_kind *k = NULL;
			char label[256];
			int n = 0;

			for (size_t i = 0; i < r->nkinds; i++)
				if (!strcmp(r->kinds[i].name, kinds.v[j]))
					k = &r->kinds[i];
			for (size_t i = 0; i < base->nchecks; i++) {
				const struct check_result *c = find_check(b, base->checks[i].name);

				if (kind_of_check(r, base->checks[i].name) != k || !differs(id, &base->checks[i], c))
					continue;
				n++;
				sb_addf(&sb, "\n    %s: %s on base, %s here%s%s", strchr(base->checks[i].name, ':') + 2,
					base->checks[i].status, c ? c->status : "missing", c && c->detail ? ": " : "",
					c && c->detail ? c->detail : "");
			}
			sv_pushf(&r->failures, "%s kernel: %s: %d check%s differ%s from base:%s", kernel_names[id],
				 kind_label(r, k, label, sizeof(label)), n, n == 1 ? "" : "s", n == 1 ? "s" : "",
				 sb.buf);
			sb_release(&sb);
		}
		for (size_t i = 0; i < b->nchecks; i++)
			if (!find_check(base, b->checks[i].name))
				sv_pushf(&r->failures, "%s kernel: check %s does not exist on base", kernel_names[id],
					 b->checks[i].name);
		sv_clear(&kinds);
	}
}

/* ---- counting ---- */


struct counts br_count(const struct boot_result *b)
{
	struct counts c = { 0, 0, 0, 0, 0 };

	for (size_t i = 0; i < b->nchecks; i++) {
		const char *s = b->checks[i].status;

		c.total++;
		if (!strcmp(s, "ok"))
			c.ok++;
		else if (!strcmp(s, "skip"))
			c.skip++;
		else if (!strcmp(s, "todo"))
			c.todo++;
		else
			c.fail++;
	}
	return c;
}

/* checks of kind K that passed on the kernel, not counting skips */
int br_kind_ok(const struct boot_report *r, const struct boot_result *b, const struct guest_kind *k)
{
	int n = 0;

	for (size_t i = 0; i < b->nchecks; i++)
		if (kind_of_check(r, b->checks[i].name) == k && !strcmp(b->checks[i].status, "ok"))
			n++;
	return n;
}

/* did the guest run kind K at all (polltest -k and -x choose)? */
static bool kind_ran(const struct boot_report *r, const struct boot_result *b, const struct guest_kind *k)
{
	for (size_t i = 0; i < b->nchecks; i++)
		if (kind_of_check(r, b->checks[i].name) == k)
			return true;
	return false;
}

static const char *kind_skip_reason(const struct boot_report *r, const struct boot_result *b, const struct guest_kind *k)
{
	for (size_t i = 0; i < b->nchecks; i++)
		if (kind_of_check(r, b->checks[i].name) == k && !strcmp(b->checks[i].status, "skip") &&
		    b->checks[i].detail && !strncmp(b->checks[i].detail, "not available", 13))
			return b->checks[i].detail;
	return NULL;
}

const char NO_GUEST_TEST[] = "built, but the guest has no test for its file type (hardware, or not written yet)";

/* why converted file I of the configuration did not run in the guest, or NULL if it did */
const char *br_not_exercised(const struct boot_report *r, size_t i)
{
	const struct symbol_result *y = &r->w->syms[i];
	const struct boot_result *b = &r->runs[r->w->k[K_PATCHED].wanted ? K_PATCHED : K_BASE].test;

	/* an ops macro's header: built with its users, run when a file type of its poll ran (br_reach()) */
	if (has_suffix(y->file, ".h"))
		for (size_t c = 0; c < r->s->nconv; c++)
			if (!strcmp(r->s->conv[c].file, y->file)) {
				struct reach x;

				br_reach(r, &r->s->conv[c], &x);
				return x.opened ? NULL : x.why;
			}
	if (!y->on)
		return y->reason ? y->reason : "not built";
	for (size_t j = 0; j < r->nkinds; j++) {
		const struct guest_kind *k = &r->kinds[j];

		if (strcmp(k->source, y->file) || !kind_converted(r, k))
			continue;
		if (br_kind_ok(r, b, k))
			return NULL;
		if (kind_skip_reason(r, b, k))
			return kind_skip_reason(r, b, k);
		return kind_ran(r, b, k) ? "no check of its file type passed" :
		       "its file type did not run in this boot (left out by the guest's -k or -x)";
	}
	return NO_GUEST_TEST;
}

/* some check of kind K whose name has TEXT passed on the kernel */
static bool kind_passed(const struct boot_report *r, const struct boot_result *b, const struct guest_kind *k,
			const char *text)
{
	for (size_t i = 0; i < b->nchecks; i++)
		if (kind_of_check(r, b->checks[i].name) == k && !strcmp(b->checks[i].status, "ok") &&
		    strstr(b->checks[i].name, text))
			return true;
	return false;
}

/*
 * Does file type K exercise conversion C?  Its source and poll are C's; for
 * a conversion in a header (MACRO: an ops macro's, DRM_GEM_FOPS), a
 * converted file type of the same poll function (vkms's card) runs it.
 */
static bool kind_serves(const struct boot_report *r, const struct guest_kind *k, const struct conversion *c,
			bool macro)
{
	if (strcmp(k->poll_fn, c->poll_fn))
		return false;
	return macro ? kind_converted(r, k) : !strcmp(k->source, c->file);
}

void br_reach(const struct boot_report *r, const struct conversion *c, struct reach *out)
{
	const struct boot_result *b = &r->runs[r->w->k[K_PATCHED].wanted ? K_PATCHED : K_BASE].test;
	const char *skip = NULL;
	bool any = false, always = false;

	/* a conversion in a header is built with the drivers that use its macro: when a file type it serves ran */
	bool macro = has_suffix(c->file, ".h");

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < r->w->nsyms && !macro; i++)
		if (!strcmp(r->w->syms[i].file, c->file)) {
			out->built = r->w->syms[i].on;
			if (!out->built)
				out->why = r->w->syms[i].reason ? r->w->syms[i].reason : "not built";
		}
	for (size_t j = 0; j < r->nkinds && macro; j++)
		if (kind_serves(r, &r->kinds[j], c, true) && kind_ran(r, b, &r->kinds[j]) &&
		    !kind_skip_reason(r, b, &r->kinds[j]))
			out->built = true;
	if (!out->built) {
		if (!out->why)
			out->why = macro ? "an ops macro of a header: no converted file type of its poll function ran"
					 : "not in the configuration";
		return;
	}
	for (size_t j = 0; j < r->nkinds; j++) {
		const struct guest_kind *k = &r->kinds[j];

		if (!kind_serves(r, k, c, macro))
			continue;
		any = true;
		always |= k->always_ready;
		if (!skip)
			skip = kind_skip_reason(r, b, k);
		if (br_kind_ok(r, b, k))
			out->opened = true;
		if (kind_passed(r, b, k, " woken by ")) {
			out->woken = true;
			out->torn_down |= k->teardown;
		}
	}
	if (!any)
		out->why = NO_GUEST_TEST;
	else if (!out->opened)
		out->why = skip ? skip : "no check of its file type passed";
	else if (!out->woken)
		out->why = always ? "always ready: there is no wake-up to wait for" : "no wake-up check passed";
	else if (!out->torn_down)
		out->why = "no test tears down what the file is open on while it is polled";
}

/*
 * Guest instructions per call: the TSC, which under -icount shift=0 is the
 * virtual clock itself (one tick per instruction); CLOCK_MONOTONIC (ns)
 * says the same when the guest's clocksource is the TSC, and is the
 * fallback for a guest without one.
 */
double br_ins(const struct bench_row *b)
{
	return b->tsc > 0 ? b->tsc : b->per_call;
}

/* the largest relative difference between CLOCK_MONOTONIC and the TSC */
static double clock_disagreement(const struct boot_result *b)
{
	double worst = 0;

	for (size_t i = 0; i < b->nbench; i++) {
		double t = b->bench[i].tsc, n = b->bench[i].per_call, d;

		if (t <= 0)
			continue;
		d = (n > t ? n - t : t - n) / t;
		if (d > worst)
			worst = d;
	}
	return worst;
}

const struct bench_row *br_find_row(const struct boot_result *b, const char *kind, const char *op, int fds)
{
	for (size_t i = 0; i < b->nbench; i++)
		if (!strcmp(b->bench[i].kind, kind) && !strcmp(b->bench[i].op, op) && b->bench[i].fds == fds)
			return &b->bench[i];
	return NULL;
}

/* fixed decimals, so that the same numbers always print the same */
static double rounded(double v, double scale)
{
	return (double)(long long)(v * scale + (v < 0 ? -0.5 : 0.5)) / scale;
}

static json_t *num(double v)
{
	return json_real(rounded(v, 10));
}

/* the kernels that were built, in order */
int br_kernels(const struct boot_report *r, int ids[NR_KERNELS])
{
	int n = 0;

	for (int id = 0; id < NR_KERNELS; id++)
		if (r->w->k[id].wanted)
			ids[n++] = id;
	return n;
}

/* the kernels the benchmark booted (not the -kasan ones), in order */
int br_bench_kernels(const struct boot_report *r, int ids[NR_KERNELS])
{
	int n = 0;

	for (int id = 0; id < NR_KERNELS; id++)
		if (r->w->k[id].wanted && !kernel_debug(id))
			ids[n++] = id;
	return n;
}

static json_t *bench_json(const struct boot_report *r)
{
	const struct boot_result *base = &r->runs[K_BASE].bench;
	json_t *rows = json_array();
	int ids[NR_KERNELS], nk = br_bench_kernels(r, ids);

	for (size_t i = 0; i < base->nbench; i++) {
		const struct bench_row *b = &base->bench[i];
		json_t *row = json_object(), *per = json_object(), *ratio = json_object(), *perfd = json_object();
		const struct guest_kind *k = NULL;

		for (size_t j = 0; j < r->nkinds; j++)
			if (!strcmp(r->kinds[j].name, b->kind))
				k = &r->kinds[j];
		json_object_set_new(row, "kind", json_string(b->kind));
		json_object_set_new(row, "op", json_string(b->op));
		json_object_set_new(row, "fds", json_integer(b->fds));
		json_object_set_new(row, "converted", json_boolean(k && kind_converted(r, k)));
		for (int j = 0; j < nk; j++) {
			const struct bench_row *x = br_find_row(&r->runs[ids[j]].bench, b->kind, b->op, b->fds);
			const struct bench_row *one = br_find_row(&r->runs[ids[j]].bench, b->kind, b->op, 1);

			if (!x)
				continue;
			json_object_set_new(per, kernel_names[ids[j]], num(br_ins(x)));
			if (br_ins(b) > 0)
				json_object_set_new(ratio, kernel_names[ids[j]],
						    json_real(rounded(br_ins(x) / br_ins(b), 10000)));
			if (b->fds > 1 && one)
				json_object_set_new(perfd, kernel_names[ids[j]],
						    num((br_ins(x) - br_ins(one)) / (b->fds - 1)));
		}
		json_object_set_new(row, "instructions_per_call", per);
		json_object_set_new(row, "ratio_to_base", ratio);
		if (json_object_size(perfd))
			json_object_set_new(row, "instructions_per_extra_fd", perfd);
		else
			json_decref(perfd);
		json_array_append_new(rows, row);
	}
	return rows;
}

static json_t *boot_json(const struct boot_result *b, bool with_checks)
{
	json_t *o = json_object(), *probs = json_array();
	struct counts c = br_count(b);

	json_object_set_new(o, "accel", json_string(b->accel ? b->accel : ""));
	json_object_set_new(o, "seconds", num(b->seconds));
	json_object_set_new(o, "finished", json_boolean(b->finished));
	json_object_set_new(o, "timed_out", json_boolean(b->timed_out));
	json_object_set_new(o, "guest_exit", json_integer(b->guest_exit));
	if (b->kvm_note)
		json_object_set_new(o, "kvm", json_string(b->kvm_note));
	if (b->clocksource)
		json_object_set_new(o, "clocksource", json_string(b->clocksource));
	if (b->nbench)
		json_object_set_new(o, "clock_monotonic_vs_tsc", json_real(rounded(clock_disagreement(b), 10000)));
	for (size_t i = 0; i < b->problems.n; i++)
		json_array_append_new(probs, json_string(b->problems.v[i]));
	json_object_set_new(o, "problems", probs);
	if (with_checks) {
		json_t *checks = json_object(), *cnt = json_object();

		for (size_t i = 0; i < b->nchecks; i++) {
			json_t *x = json_object();

			json_object_set_new(x, "status", json_string(b->checks[i].status));
			if (b->checks[i].detail)
				json_object_set_new(x, "detail", json_string(b->checks[i].detail));
			json_object_set_new(checks, b->checks[i].name, x);
		}
		json_object_set_new(cnt, "total", json_integer(c.total));
		json_object_set_new(cnt, "passed", json_integer(c.ok));
		json_object_set_new(cnt, "skipped", json_integer(c.skip));
		json_object_set_new(cnt, "todo", json_integer(c.todo));
		json_object_set_new(cnt, "failed", json_integer(c.fail));
		json_object_set_new(o, "checks", checks);
		json_object_set_new(o, "counts", cnt);
	}
	return o;
}

json_t *boot_report_json(const struct boot_report *r)
{
	json_t *root = json_object(), *series = json_object(), *conv = json_array(), *pl = json_array();
	json_t *cfg = json_object(), *syms = json_array(), *ks = json_object(), *kinds = json_array();
	json_t *fails = json_array(), *missing = json_array(), *on = json_array();
	const struct boot_work *w = r->w;

	json_object_set_new(root, "tool", json_string("polltax boot-test"));
	json_object_set_new(root, "kernel_tree", json_string(w->tree));
	json_object_set_new(root, "kernel_version", json_string(w->version));
	json_object_set_new(root, "work_dir", json_string(w->root));
	for (size_t i = 0; i < r->s->patches.n; i++) {
		json_t *p = json_object();

		json_object_set_new(p, "file", json_string(strrchr(r->s->patches.v[i], '/') + 1));
		json_object_set_new(p, "subject", json_string(r->s->subjects.v[i]));
		json_array_append_new(pl, p);
	}
	json_object_set_new(series, "dir", json_string(r->s->dir));
	json_object_set_new(series, "patches", pl);
	json_object_set_new(series, "cover_letter", r->s->cover ? json_string(strrchr(r->s->cover, '/') + 1) : json_null());
	for (size_t i = 0; i < r->s->nconv; i++) {
		json_t *c = json_object();

		json_object_set_new(c, "file", json_string(r->s->conv[i].file));
		json_object_set_new(c, "poll", json_string(r->s->conv[i].poll_fn));
		json_object_set_new(c, "poll_mask", json_string(r->s->conv[i].poll_mask_fn));
		json_object_set_new(c, "patch", json_integer(r->s->conv[i].patch + 1));
		json_array_append_new(conv, c);
	}
	json_object_set_new(series, "conversions", conv);
	json_object_set_new(series, "f_poll_head_sites", json_integer((json_int_t)r->s->nsites));
	json_object_set_new(root, "series", series);
	if (r->mutation) {
		json_t *m = json_object();

		json_object_set_new(m, "file", json_string(r->mutation->file));
		json_object_set_new(m, "kind", json_string(r->lifetime ? "lifetime" : "missing-head"));
		if (r->lifetime) {
			char *to = boot_lifetime_line(r->mutation);

			json_object_set_new(m, "replaced", json_string(r->mutation->text));
			json_object_set_new(m, "by", json_string(to ? to : ""));
			free(to);
		} else {
			json_object_set_new(m, "removed", json_string(r->mutation->text));
		}
		json_object_set_new(m, "patch", json_integer(r->mutation->patch + 1));
		json_object_set_new(root, "mutation", m);
	}

	for (size_t i = 0; i < w->base_syms.n; i++)
		json_array_append_new(on, json_string(w->base_syms.v[i]));
	for (size_t i = 0; i < w->base_missing.n; i++)
		json_array_append_new(missing, json_string(w->base_missing.v[i]));
	for (size_t i = 0; i < w->nsyms; i++) {
		json_t *x = json_object();

		json_object_set_new(x, "file", json_string(w->syms[i].file));
		json_object_set_new(x, "symbol", w->syms[i].symbol ? json_string(w->syms[i].symbol) : json_null());
		json_object_set_new(x, "enabled", json_boolean(w->syms[i].on));
		if (w->syms[i].needs.n) {
			json_t *deps = json_array();

			for (size_t j = 0; j < w->syms[i].needs.n; j++)
				json_array_append_new(deps, json_string(w->syms[i].needs.v[j]));
			json_object_set_new(x, "dependencies", deps);
		}
		if (w->syms[i].reason)
			json_object_set_new(x, "reason", json_string(w->syms[i].reason));
		json_array_append_new(syms, x);
	}
	json_object_set_new(cfg, "base", json_string("tinyconfig"));
	json_object_set_new(cfg, "enabled", on);
	json_object_set_new(cfg, "could_not_enable", missing);
	json_object_set_new(cfg, "converted_files", syms);
	{
		/* what makes the converted files' kinds in the guest: CONFIG_SW_SYNC for sync_file */
		json_t *be = json_array();

		for (size_t i = 0; i < w->nbackends; i++) {
			const struct symbol_result *y = &w->backends[i];
			json_t *x = json_pack("{s:s,s:s,s:b}", "symbol", y->symbol, "kinds", y->file, "enabled", y->on);

			if (y->needs.n) {
				json_t *deps = json_array();

				for (size_t j = 0; j < y->needs.n; j++)
					json_array_append_new(deps, json_string(y->needs.v[j]));
				json_object_set_new(x, "dependencies", deps);
			}
			if (y->reason)
				json_object_set_new(x, "reason", json_string(y->reason));
			json_array_append_new(be, x);
		}
		json_object_set_new(cfg, "backends", be);
	}
	json_object_set_new(root, "config", cfg);

	for (int id = 0; id < NR_KERNELS; id++) {
		json_t *k = json_object();

		if (!w->k[id].wanted) {
			if (w->k[id].note)
				json_object_set_new(ks, kernel_names[id], json_pack("{s:s}", "note", w->k[id].note));
			continue;
		}
		json_object_set_new(k, "commit", json_string(w->k[id].commit ? w->k[id].commit : ""));
		json_object_set_new(k, "build_seconds", num(w->k[id].seconds));
		json_object_set_new(k, "rebuilt", json_boolean(w->k[id].rebuilt));
		if (w->k[id].note)
			json_object_set_new(k, "note", json_string(w->k[id].note));
		json_object_set_new(k, "test", boot_json(&r->runs[id].test, true));
		if (r->bench && !kernel_debug(id))
			json_object_set_new(k, "bench", boot_json(&r->runs[id].bench, false));
		json_object_set_new(ks, kernel_names[id], k);
	}
	json_object_set_new(root, "kernels", ks);

	for (size_t i = 0; i < r->nkinds; i++) {
		const struct guest_kind *k = &r->kinds[i];
		const struct boot_result *b = &r->runs[w->k[K_PATCHED].wanted ? K_PATCHED : K_BASE].test;
		json_t *x = json_object();
		const char *why = kind_skip_reason(r, b, k);

		json_object_set_new(x, "name", json_string(k->name));
		json_object_set_new(x, "source", json_string(k->source));
		json_object_set_new(x, "poll", json_string(k->poll_fn));
		json_object_set_new(x, "converted", json_boolean(kind_converted(r, k)));
		json_object_set_new(x, "unconvertible", json_boolean(k->unconvertible));
		json_object_set_new(x, "checks_passed", json_integer(br_kind_ok(r, b, k)));
		if (why)
			json_object_set_new(x, "skipped", json_string(why));
		json_array_append_new(kinds, x);
	}
	json_object_set_new(root, "file_types", kinds);
	{
		json_t *ne = json_array();

		for (size_t i = 0; i < w->nsyms; i++)
			if (br_not_exercised(r, i))
				json_array_append_new(ne, json_pack("{s:s,s:s}", "file", w->syms[i].file, "reason",
								    br_not_exercised(r, i)));
		json_object_set_new(root, "not_exercised", ne);
	}
	{
		/* per conversion of the series: how far the guest got with it */
		json_t *cov = json_array();

		for (size_t i = 0; i < r->s->nconv; i++) {
			struct reach x;
			json_t *e;

			br_reach(r, &r->s->conv[i], &x);
			e = json_pack("{s:s,s:s,s:b,s:b,s:b,s:b}", "file", r->s->conv[i].file,
				      "poll", r->s->conv[i].poll_fn, "built", x.built, "opened", x.opened,
				      "woken", x.woken, "torn_down", x.torn_down);
			if (x.why)
				json_object_set_new(e, "why_not", json_string(x.why));
			json_array_append_new(cov, e);
		}
		json_object_set_new(root, "reach", cov);
	}
	if (r->bench)
		json_object_set_new(root, "benchmark", json_pack("{s:s,s:o}", "unit",
			"guest instructions per call (qemu -icount shift=0: 1 ns of guest time = 1 instruction)",
			"rows", bench_json(r)));
	for (size_t i = 0; i < r->failures.n; i++)
		json_array_append_new(fails, json_string(r->failures.v[i]));
	json_object_set_new(root, "failures", fails);
	json_object_set_new(root, "result", json_string(r->failures.n ? "fail" : "pass"));
	json_object_set_new(root, "reproduce", json_string(r->reproduce));
	return root;
}

/* ---- the cover letter's section ---- */
