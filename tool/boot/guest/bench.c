// SPDX-License-Identifier: GPL-2.0
/*
 * bench.c - "polltest bench": the poll tax, modelled on will-it-scale
 * poll1/poll2.  For every kind that can be made ready: poll() on 1 and on
 * 128 ready descriptors, and epoll_wait() on an epoll instance holding 128
 * ready descriptors (and on one), each in a loop.
 *
 * The boot test runs this under qemu -icount shift=0,sleep=off: one
 * nanosecond of the guest's virtual clock is then one guest instruction,
 * so CLOCK_MONOTONIC around N calls counts instructions, deterministically.
 * Each measurement is the minimum over REPS runs of N calls (a timer
 * interrupt lands in some runs and not in others).  On real hardware the
 * same numbers are nanoseconds.
 *
 * One line per measurement, a TAP comment so that it can share the stream:
 *   # bench kind=eventfd op=poll fds=128 iters=512 ns_per_call=12345.6 tsc_per_call=...
 * Descriptors: 128 distinct instances, or dup()s of one for kinds whose
 * instances are expensive or limited (K_DUP_BENCH: inotify and fanotify
 * groups are limited to 128 per user, pidfd and perf need a process each).
 */
#define _GNU_SOURCE
#include "polltest.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <unistd.h>

#define NFDS 128
#define REPS 5
#define TARGET_NS 1000000.0	/* one run of N calls lasts at least this long */

struct bench {
	const struct kind *k;
	struct fixture fx[NFDS];
	int nfx;		/* fixtures opened */
	int fds[NFDS];
	struct pollfd pfd[NFDS];
	short events;
};

static void teardown(struct bench *b)
{
	for (int i = 0; i < NFDS; i++)
		if (b->fds[i] >= 0 && (b->nfx <= i || b->fds[i] != b->fx[i].fd))
			close(b->fds[i]);
	for (int i = 0; i < b->nfx; i++)
		b->k->close(&b->fx[i]);
	b->nfx = 0;
}

static bool ready(int fd, short ev)
{
	struct pollfd p = { .fd = fd, .events = ev };

	return poll(&p, 1, 2000) == 1 && (p.revents & ev);
}

/* 0, or a reason to skip the kind */
static const char *prepare(struct bench *b, const struct kind *k)
{
	static char why[160];
	int n = k->flags & K_DUP_BENCH ? 1 : NFDS;

	memset(b, 0, sizeof(*b));
	b->k = k;
	b->events = k->flags & K_CONSUMED ? (short)(POLLIN | k->event) : k->event;
	for (int i = 0; i < NFDS; i++)
		b->fds[i] = -1;
	for (int i = 0; i < n; i++) {
		struct fixture *f = &b->fx[i];
		int r;

		fixture_init(f);
		r = k->open(f);
		b->nfx = i + 1;
		if (!r && !(k->flags & K_ALWAYS_READY))
			r = k->trigger(f);
		if (r) {
			snprintf(why, sizeof(why), "%s: %s", i ? "opening 128" : "not available", strerror(-r));
			return why;
		}
		b->fds[i] = f->fd;
	}
	for (int i = n; i < NFDS; i++) {
		b->fds[i] = dup(b->fds[0]);
		if (b->fds[i] < 0) {
			snprintf(why, sizeof(why), "dup: %s", strerror(errno));
			return why;
		}
	}
	for (int i = 0; i < NFDS; i++) {
		if (!ready(b->fds[i], b->events)) {
			snprintf(why, sizeof(why), "descriptor %d never became ready", i);
			return why;
		}
		b->pfd[i].fd = b->fds[i];
		b->pfd[i].events = b->events;
	}
	return NULL;
}

enum op { OP_POLL, OP_EPOLL, OP_SYSCALL };

/* one run of iters calls; returns the ns and the tsc ticks it took, or -1 */
static int run(struct bench *b, enum op op, int nfds, int ep, long iters, double *ns, double *tsc)
{
	struct epoll_event ev[NFDS];
	double t0 = now_ns();
	uint64_t c0 = cycles();

	for (long i = 0; i < iters; i++) {
		int n;

		if (op == OP_POLL)
			n = poll(b->pfd, (nfds_t)nfds, 0);
		else if (op == OP_EPOLL)
			n = epoll_wait(ep, ev, NFDS, 0);
		else
			n = getppid() > 0 ? nfds : -1;
		if (n != nfds)
			return -1;
	}
	*tsc = (double)(cycles() - c0);
	*ns = now_ns() - t0;
	return 0;
}

static void measure(struct bench *b, const char *kind, enum op op, int nfds, int ep)
{
	static const char *const opname[] = { "poll", "epoll_wait", "getppid" };
	double ns = 0, tsc = 0, best_ns = 0, best_tsc = 0;
	long iters = 4;

	/* calibrate: double the calls until one run lasts TARGET_NS */
	for (;;) {
		if (run(b, op, nfds, ep, iters, &ns, &tsc)) {
			printf("# bench kind=%s op=%s fds=%d error=not-all-ready\n", kind, opname[op], nfds);
			return;
		}
		if (ns >= TARGET_NS || iters >= (1L << 24))
			break;
		iters *= 2;
	}
	for (int r = 0; r < REPS; r++) {
		run(b, op, nfds, ep, iters, &ns, &tsc);
		if (!r || ns < best_ns)
			best_ns = ns;
		if (!r || tsc < best_tsc)
			best_tsc = tsc;
	}
	printf("# bench kind=%s op=%s fds=%d iters=%ld ns_per_call=%.1f tsc_per_call=%.1f\n", kind, opname[op],
	       nfds, iters, best_ns / (double)iters, best_tsc / (double)iters);
	fflush(stdout);
}

static void bench_kind(const struct kind *k)
{
	static struct bench b;
	const char *why = prepare(&b, k);

	if (why) {
		printf("# bench kind=%s skipped=\"%s\"\n", k->name, why);
	} else {
		measure(&b, k->name, OP_POLL, 1, -1);
		measure(&b, k->name, OP_POLL, NFDS, -1);
		if (!(k->flags & K_NO_EPOLL)) {
			int ep = epoll_create1(EPOLL_CLOEXEC);
			struct epoll_event one = { .events = (unsigned)b.events };
			int i;

			/* one descriptor first, so that the cost per extra descriptor shows */
			if (ep >= 0 && !epoll_ctl(ep, EPOLL_CTL_ADD, b.fds[0], &one)) {
				measure(&b, k->name, OP_EPOLL, 1, ep);
				epoll_ctl(ep, EPOLL_CTL_DEL, b.fds[0], NULL);
			}

			for (i = 0; ep >= 0 && i < NFDS; i++) {
				struct epoll_event ev = { .events = (unsigned)b.events, .data.u32 = (unsigned)i };

				if (epoll_ctl(ep, EPOLL_CTL_ADD, b.fds[i], &ev))
					break;
			}
			if (ep >= 0 && i == NFDS)
				measure(&b, k->name, OP_EPOLL, NFDS, ep);
			else
				printf("# bench kind=%s op=epoll_wait skipped=\"epoll_ctl: %s\"\n", k->name,
				       strerror(errno));
			if (ep >= 0)
				close(ep);
		}
	}
	teardown(&b);
}

static void clocksource(void)
{
	char buf[64] = "unknown";
	FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");

	if (f) {
		if (fgets(buf, sizeof(buf), f))
			buf[strcspn(buf, "\n")] = '\0';
		fclose(f);
	}
	printf("# bench clocksource=%s\n", buf);
}

int bench_main(int argc, char **argv)
{
	static struct bench none;
	struct rlimit rl;

	(void)argc;
	(void)argv;
	/* 128 fixtures with a helper descriptor each, plus the dups */
	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < 1024) {
		rl.rlim_cur = rl.rlim_max < 1024 ? rl.rlim_max : 1024;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	clocksource();
	measure(&none, "syscall", OP_SYSCALL, 0, -1);
	/* a file whose device is gone is not what poll() costs: the tear-down kinds are not timed */
	for (size_t i = 0; i < nr_kinds; i++)
		if (kind_selected(&kinds[i]) && !(kinds[i].flags & K_TEARDOWN))
			bench_kind(&kinds[i]);
	printf("# bench done\n");
	return 0;
}
