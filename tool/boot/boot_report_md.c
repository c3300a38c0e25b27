// SPDX-License-Identifier: GPL-2.0
/*
 * boot_report_md.c - the boot test's "Tested" section for a cover letter
 * (boot-test.md): what ran, what was built but not exercised and why, and
 * the instruction counts of the benchmark.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include "boot_report_int.h"

/* TEXT as lines of at most WIDTH columns (a mail's body), then a newline */
static void wrap(struct strbuf *sb, const char *text, size_t width)
{
	size_t col = 0;

	for (const char *p = text; *p;) {
		size_t n = strcspn(p, " ");

		if (col && col + 1 + n > width) {
			sb_addc(sb, '\n');
			col = 0;
		} else if (col) {
			sb_addc(sb, ' ');
			col++;
		}
		sb_add(sb, p, n);
		col += n;
		p += n;
		while (*p == ' ')
			p++;
	}
	sb_addc(sb, '\n');
}

static const struct guest_kind *kind_named(const struct boot_report *r, const char *name)
{
	for (size_t j = 0; j < r->nkinds; j++)
		if (!strcmp(r->kinds[j].name, name))
			return &r->kinds[j];
	return NULL;
}

enum group { G_CONVERTED, G_POLL, G_NO_POLL };

static enum group group_of(const struct boot_report *r, const struct guest_kind *k)
{
	if (kind_converted(r, k))
		return G_CONVERTED;
	return strcmp(k->poll_fn, "-") ? G_POLL : G_NO_POLL;
}

/* mean poll() cost per extra ready descriptor over the kinds of group G; false if none */
static bool mean_slope(const struct boot_report *r, const struct boot_result *b, enum group g, double *out)
{
	double sum = 0;
	int n = 0;

	for (size_t i = 0; i < r->nkinds; i++) {
		const struct bench_row *one = br_find_row(b, r->kinds[i].name, "poll", 1);
		const struct bench_row *many = br_find_row(b, r->kinds[i].name, "poll", 128);

		if (group_of(r, &r->kinds[i]) != g || !one || !many)
			continue;
		sum += (br_ins(many) - br_ins(one)) / 127;
		n++;
	}
	if (n)
		*out = sum / n;
	return n > 0;
}

static void md_bench(struct strbuf *sb, const struct boot_report *r)
{
	static const char *const group_names[] = { "converted file types", "unconverted ->poll file types",
						    "files without ->poll (tmpfs, /dev/urandom)" };
	const struct boot_result *base = &r->runs[K_BASE].bench;
	int ids[NR_KERNELS], nk = br_bench_kernels(r, ids);
	struct strbuf t = STRBUF_INIT;

	wrap(sb, "Poll tax, in guest instructions: qemu TCG with -icount shift=0, where one nanosecond of guest "
		 "time is one instruction, so the numbers are deterministic; they count the path length, not "
		 "cycles, so branch prediction and retpolines (off in this configuration) do not show.", 72);
	sb_addc(sb, '\n');
	sb_adds(&t, "poll() cost per extra ready descriptor, (128 fds - 1 fd) / 127, averaged:");
	for (int g = G_CONVERTED; g <= G_NO_POLL; g++) {
		double v0;

		if (!mean_slope(r, base, (enum group)g, &v0))
			continue;
		sb_addf(&t, " %s: base %.1f", group_names[g], v0);
		for (int j = 1; j < nk; j++) {
			double v;

			if (mean_slope(r, &r->runs[ids[j]].bench, (enum group)g, &v))
				sb_addf(&t, ", %s %.1f (%+.1f)", kernel_names[ids[j]], v, v - v0);
		}
		sb_adds(&t, g == G_NO_POLL ? "." : ";");
	}
	wrap(sb, t.buf, 72);
	sb_release(&t);
	sb_adds(sb, "\n| file type | call |");
	for (int j = 0; j < nk; j++)
		sb_addf(sb, " %s |", kernel_names[ids[j]]);
	sb_adds(sb, "\n|---|---|");
	for (int j = 0; j < nk; j++)
		sb_adds(sb, "---:|");
	sb_addc(sb, '\n');
	for (size_t i = 0; i < base->nbench; i++) {
		const struct bench_row *b = &base->bench[i];
		const struct guest_kind *k = kind_named(r, b->kind);
		bool conv = k && kind_converted(r, k);

		/* the converted types, and pipe and tmpfs for scale; every type is in the JSON */
		if (k && !conv && strcmp(b->kind, "pipe") && strcmp(b->kind, "tmpfs"))
			continue;
		if (!k)
			sb_addf(sb, "| (%s(), for scale) | syscall |", b->op);
		else
			sb_addf(sb, "| %s%s | %s, %d fd%s |", b->kind, conv ? " (converted)" : "", b->op, b->fds,
				b->fds == 1 ? "" : "s");
		for (int j = 0; j < nk; j++) {
			const struct bench_row *x = br_find_row(&r->runs[ids[j]].bench, b->kind, b->op, b->fds);

			if (!x)
				sb_adds(sb, " - |");
			else if (ids[j] == K_BASE)
				sb_addf(sb, " %.0f |", br_ins(x));
			else
				sb_addf(sb, " %.0f (%.3f) |", br_ins(x), br_ins(b) > 0 ? br_ins(x) / br_ins(b) : 0);
		}
		sb_addc(sb, '\n');
		if (b->fds > 1 && br_find_row(base, b->kind, b->op, 1)) {
			sb_addf(sb, "| %s | %s, per extra fd |", b->kind, b->op);
			for (int j = 0; j < nk; j++) {
				const struct bench_row *x = br_find_row(&r->runs[ids[j]].bench, b->kind, b->op, b->fds);
				const struct bench_row *one = br_find_row(&r->runs[ids[j]].bench, b->kind, b->op, 1);

				if (x && one)
					sb_addf(sb, " %.1f |", (br_ins(x) - br_ins(one)) / (b->fds - 1));
				else
					sb_adds(sb, " - |");
			}
			sb_addc(sb, '\n');
		}
	}
	sb_adds(sb, "\nIn parentheses: the ratio to base. Every file type's rows are in\nboot-test.json.\n\n");
}

/* TEXT as a list item: wrapped, continuation lines indented */
static void list_item(struct strbuf *sb, const char *text)
{
	struct strbuf w = STRBUF_INIT;

	wrap(&w, text, 70);
	sb_adds(sb, "- ");
	for (char *p = w.buf; *p; p++) {
		sb_addc(sb, *p);
		if (*p == '\n' && p[1])
			sb_adds(sb, "  ");
	}
	sb_release(&w);
}

static void list_line(struct strbuf *sb, const char *head, const struct strvec *v, const char *sep)
{
	struct strbuf t = STRBUF_INIT;

	sb_adds(&t, head);
	for (size_t i = 0; i < v->n; i++)
		sb_addf(&t, "%s%s", i ? sep : " ", v->v[i]);
	sb_adds(&t, v->n ? "." : " none.");
	list_item(sb, t.buf);
	sb_release(&t);
}

char *boot_report_markdown(const struct boot_report *r)
{
	struct strbuf sb = STRBUF_INIT, t = STRBUF_INIT;
	const struct boot_work *w = r->w;
	const struct boot_result *base = &r->runs[K_BASE].test;
	const struct boot_result *b = &r->runs[w->k[K_PATCHED].wanted ? K_PATCHED : K_BASE].test;
	struct counts c = br_count(base);
	int ids[NR_KERNELS], nk = br_kernels(r, ids), nsym = 0;
	struct strvec exercised = STRVEC_INIT, unconverted = STRVEC_INIT, missing = STRVEC_INIT;
	struct strvec untested = STRVEC_INIT, skipped = STRVEC_INIT;

	sb_adds(&sb, "## Tested\n\n");
	sb_addf(&t, "Booted in qemu (x86_64, %s) on Linux %s: ",
		base->accel && !strcmp(base->accel, "kvm") ? "KVM" : "TCG", w->version);
	for (int j = 0; j < nk; j++)
		sb_addf(&t, "%s%s", j ? (j == nk - 1 ? " and " : ", ") : "",
			ids[j] == K_BASE ? "the base kernel" : ids[j] == K_PATCHED ? "the kernel with this series" :
			ids[j] == K_TWO_CALL ?
			"the two-call variant (4.18's ->get_poll_head() + ->poll_mask(), for comparison)" :
			ids[j] == K_BASE_KASAN ? "the base kernel with KASAN and lockdep" :
			"the kernel with this series with KASAN and lockdep (for the checks)");
	sb_adds(&t, w->k[K_BASE_KASAN].wanted || w->k[K_PATCHED_KASAN].wanted ?
		", all from one tinyconfig-based configuration (with a KASAN and lockdep fragment on top for "
		"those that have them)" : ", all from one tinyconfig-based configuration");
	{
		struct strvec syms = STRVEC_INIT;

		for (size_t i = 0; i < w->nsyms; i++) {
			char *all, *and;

			if (!w->syms[i].on || !w->syms[i].symbol || !strcmp(w->syms[i].symbol, "y"))
				continue;
			all = xstrdup(w->syms[i].symbol);
			for (char *p = all; p; p = and ? and + 4 : NULL) {
				and = strstr(p, " && ");
				if (and)
					*and = '\0';
				if (!sv_contains(&syms, p))
					sv_push(&syms, p);
			}
			free(all);
		}
		struct strvec deps = STRVEC_INIT;

		int nbe = 0;

		for (size_t i = 0; i < syms.n; i++)
			sb_addf(&t, "%sCONFIG_%s", nsym++ ? ", " : " that also enables the converted files' ", syms.v[i]);
		for (size_t i = 0; i < w->nbackends; i++) {
			if (!w->backends[i].on || sv_contains(&syms, w->backends[i].symbol))
				continue;
			sb_addf(&t, "%sCONFIG_%s (%s)", nbe++ ? ", " : nsym ? ", the backends the guest makes their files with, " :
				" that also enables the backends the guest makes the converted files with, ",
				w->backends[i].symbol, w->backends[i].file);
			sv_push(&syms, w->backends[i].symbol);
		}
		for (size_t i = 0; i < w->nsyms; i++)
			for (size_t j = 0; j < w->syms[i].needs.n; j++)
				if (!sv_contains(&syms, w->syms[i].needs.v[j]) && !sv_contains(&deps, w->syms[i].needs.v[j]))
					sv_push(&deps, w->syms[i].needs.v[j]);
		for (size_t i = 0; i < w->nbackends; i++)
			for (size_t j = 0; j < w->backends[i].needs.n; j++)
				if (w->backends[i].on && !sv_contains(&syms, w->backends[i].needs.v[j]) &&
				    !sv_contains(&deps, w->backends[i].needs.v[j]))
					sv_push(&deps, w->backends[i].needs.v[j]);
		for (size_t i = 0; i < deps.n; i++)
			sb_addf(&t, "%sCONFIG_%s", i ? ", " : ", and the software options they depend on, ", deps.v[i]);
		sv_clear(&syms);
		sv_clear(&deps);
	}
	sb_adds(&t, ".");
	wrap(&sb, t.buf, 72);
	sb_addc(&sb, '\n');
	sb_reset(&t);

	for (size_t i = 0; i < r->nkinds; i++) {
		const struct guest_kind *k = &r->kinds[i];

		if (kind_converted(r, k) && br_kind_ok(r, b, k))
			sv_push(&exercised, k->name);
		else if (!kind_converted(r, k))
			sv_push(&unconverted, k->name);
	}
	for (size_t i = 0; i < w->nsyms; i++) {
		const char *why = br_not_exercised(r, i);

		if (!why)
			continue;
		if (w->syms[i].on && why != NO_GUEST_TEST)
			sv_pushf(&skipped, "%s (%s)", w->syms[i].file, why);
		else if (w->syms[i].on)
			sv_push(&untested, w->syms[i].file);
		else
			sv_push(&missing, w->syms[i].file);
	}
	sb_addf(&t, "A static test program in the initramfs checked readiness and wake-ups of %zu file types "
		    "through poll(), select(), ppoll(), epoll (level-triggered, edge-triggered, oneshot), "
		    "poll(), select() and epoll_wait() blocked and woken by another process, io_uring "
		    "IORING_OP_POLL_ADD and aio IOCB_CMD_POLL: %d checks per kernel, %d passed, %d skipped "
		    "(not applicable to the file type), %d known failure%s (TODO, the same on every kernel), "
		    "%d failed on the base kernel.",
		r->nkinds, c.total, c.ok, c.skip, c.todo, c.todo == 1 ? "" : "s", c.fail);
	wrap(&sb, t.buf, 72);
	sb_addc(&sb, '\n');
	sb_release(&t);
	{
		/* how far the guest got with each conversion (boot-test.json "reach" says why not, per file) */
		size_t nb = 0, no = 0, nw = 0, nt = 0;

		for (size_t i = 0; i < r->s->nconv; i++) {
			struct reach x;

			br_reach(r, &r->s->conv[i], &x);
			nb += x.built;
			no += x.opened;
			nw += x.woken;
			nt += x.torn_down;
		}
		sb_addf(&t, "Of the %zu conversions of the series, %zu were built, %zu opened and polled in the "
			    "guest, %zu woken by another process or thread, %zu torn down while polled (what the "
			    "file was open on taken away under a waiter).", r->s->nconv, nb, no, nw, nt);
		list_item(&sb, t.buf);
		sb_release(&t);
	}
	list_line(&sb, "Converted file types exercised:", &exercised, ", ");
	if (untested.n) {
		char *h = xasprintf("Converted files built but not exercised (no guest test for their file type, "
				    "most need a device):");

		list_line(&sb, h, &untested, ", ");
		free(h);
	}
	if (skipped.n)
		list_line(&sb, "Converted files built, whose guest test did not run:", &skipped, "; ");
	if (missing.n) {
		char *h = xasprintf("Converted files not built (%zu; their options need hardware or subsystems "
				    "this configuration lacks, boot-test.json has each reason):", missing.n);

		list_line(&sb, h, &missing, ", ");
		free(h);
	}
	{
		char *nd = br_debug_skipped(r);

		if (*nd) {
			char *n = xasprintf("Not run on the KASAN and lockdep kernels (their driver sleeps in "
					    "atomic context before the wake-up, which lockdep reports on the "
					    "unpatched kernel as much): %s.", nd);

			list_item(&sb, n);
			free(n);
		}
		free(nd);
	}
	list_line(&sb, "Unchanged file types checked alongside:", &unconverted, ", ");
	if (!r->failures.n)
		sb_adds(&sb, "- The same results on every kernel; no panic, oops, WARN, lockdep report\n"
			     "  or stall in any console log.\n\n");
	else
		sb_addf(&sb, "- **%zu failure%s** (see boot-test.json).\n\n", r->failures.n,
			r->failures.n == 1 ? "" : "s");
	if (r->bench)
		md_bench(&sb, r);
	if (w->k[K_TWO_CALL].wanted && w->k[K_TWO_CALL].note) {
		char *n = xasprintf("The two-call kernel: %s.", w->k[K_TWO_CALL].note);

		wrap(&sb, n, 72);
		sb_addc(&sb, '\n');
		free(n);
	}
	sb_addf(&sb, "Reproduce (polltax, Debian 12):\n\n    %s\n", r->reproduce);
	sv_clear(&exercised);
	sv_clear(&unconverted);
	sv_clear(&missing);
	sv_clear(&untested);
	sv_clear(&skipped);
	return sb_detach(&sb);
}
