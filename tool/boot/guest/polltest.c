// SPDX-License-Identifier: GPL-2.0
/*
 * polltest.c - the guest program of "polltax boot-test": for every kind of
 * file in kinds.c, run the checks of checks.c (readiness and wake-ups
 * through every interface that ends in vfs_poll()) and print TAP.
 *
 *   polltest [test] [-k KIND,...] [-x KIND,...] [-t MS]   the checks, TAP on stdout
 *   polltest bench [-k KIND,...] [-x KIND,...]            the benchmark (bench.c)
 *   polltest list                                         the kinds, one per line:
 *       name, source, .poll function, flags, backend Kconfig symbols ("-": none)
 *
 * Each check opens a fresh instance, so one failure never leaks into the
 * next check.  A kind the kernel (or a host sandbox) does not offer is
 * skipped as a whole ("# SKIP not available: ...").  The same binary runs
 * in the guest of the boot test and natively on the host ("make test").
 * Exit status: 0 when every check passed or was skipped, 1 otherwise.
 */
#define _GNU_SOURCE
#include "polltest.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/random.h>
#include <sys/select.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int tap_n, tap_failed, tap_skipped;

static void tap(const struct kind *k, const struct check *c, const struct outcome *o)
{
	char name[200];

	snprintf(name, sizeof(name), "%s: %s%s%s", k->name, c->name,
		 c->need & N_WAKE ? " " : "", c->need & N_WAKE ? who(k) : "");
	tap_n++;
	switch (o->r) {
	case RES_OK:
		printf("ok %d - %s\n", tap_n, name);
		break;
	case RES_SKIP:
		tap_skipped++;
		printf("ok %d - %s # SKIP %s\n", tap_n, name, o->msg);
		break;
	case RES_FAIL:
		if (k->known_check && !strncmp(c->name, k->known_check, strlen(k->known_check))) {
			printf("not ok %d - %s # TODO %s\n#   %s\n", tap_n, name, k->known_reason, o->msg);
			break;
		}
		tap_failed++;
		printf("not ok %d - %s\n#   %s\n", tap_n, name, o->msg);
		break;
	}
	fflush(stdout);
}

static void run_kind(const struct kind *k)
{
	struct fixture f;
	char why[160] = "";
	int r;

	if ((k->flags & K_NO_DEBUG) && access("/proc/lockdep", F_OK) == 0) {
		/* boot_report.c knows these words: such a skip is no difference between kernels */
		snprintf(why, sizeof(why), "not run on a lockdep kernel: its driver sleeps in atomic context "
			 "before the wake-up, reported on every kernel");
	} else {
		fixture_init(&f);
		r = k->open(&f);
		if (r) {
			int n = snprintf(why, sizeof(why), "not available: %s", strerror(-r));

			/* the backend's options, when the kind has one: perhaps it is off */
			for (const char *p = k->kconfig; p && *p && n > 0 && (size_t)n < sizeof(why);) {
				size_t len = strcspn(p, " ");

				n += snprintf(why + n, sizeof(why) - (size_t)n, "%sCONFIG_%.*s",
					      p == k->kconfig ? " (it needs " : ", ", (int)len, p);
				p += len + strspn(p + len, " ");
				if (!*p && (size_t)n < sizeof(why))
					n += snprintf(why + n, sizeof(why) - (size_t)n, ")");
			}
		}
		k->close(&f);
	}
	for (size_t i = 0; i < nr_checks; i++) {
		const struct check *c = &checks[i];
		struct outcome o = { RES_OK, "" };
		const char *na = not_applicable(k, c->need);

		if (why[0]) {
			skip(&o, why);
		} else if (na) {
			skip(&o, na);
		} else {
			fixture_init(&f);
			r = k->open(&f);
			if (r)
				fail(&o, "open failed: %s", strerror(-r));
			else
				c->fn(k, &f, &o);
			k->close(&f);
		}
		tap(k, c, &o);
	}
}

static int list_kinds(void)
{
	for (size_t i = 0; i < nr_kinds; i++)
		printf("%s\t%s\t%s\t%s\t%s\n", kinds[i].name, kinds[i].source, kinds[i].poll_fn,
		       kinds[i].flags & K_UNCONVERTIBLE ? "unconvertible" :
		       kinds[i].flags & K_ALWAYS_READY ? "always-ready" :
		       kinds[i].flags & K_TEARDOWN ? "teardown" : "-",
		       kinds[i].kconfig ? kinds[i].kconfig : "-");
	return 0;
}

static int usage(FILE *f)
{
	fputs("usage: polltest [test] [-k KIND,...] [-x KIND,...] [-t MS]\n"
	      "       polltest bench [-k KIND,...] [-x KIND,...]\n"
	      "       polltest list\n", f);
	return f == stdout ? 0 : 2;
}

int main(int argc, char **argv)
{
	const char *mode = "test", *only = NULL, *except = NULL;
	struct utsname u;
	int c;

	if (argc > 1 && argv[1][0] != '-') {
		mode = argv[1];
		argv++;
		argc--;
	}
	while ((c = getopt(argc, argv, "k:x:t:h")) != -1) {
		switch (c) {
		case 'k': only = optarg; break;
		case 'x': except = optarg; break;
		case 't': wake_timeout_ms = atoi(optarg); break;
		case 'h': return usage(stdout);
		default: return usage(stderr);
		}
	}
	if (optind != argc || wake_timeout_ms < 1)
		return usage(stderr);
	if (!strcmp(mode, "list"))
		return list_kinds();
	if (strcmp(mode, "test") && strcmp(mode, "bench"))
		return usage(stderr);
	select_kinds(only, except);
	guest_setup();
	uname(&u);
	if (!strcmp(mode, "bench")) {
		c = bench_main(argc, argv);
	} else {
		printf("TAP version 13\n# polltest: %s %s %s\n", u.sysname, u.release, u.machine);
		for (size_t i = 0; i < nr_kinds; i++)
			if (kind_selected(&kinds[i]))
				run_kind(&kinds[i]);
		printf("1..%d\n# %d checks: %d passed, %d failed, %d skipped\n", tap_n,
		       tap_n, tap_n - tap_failed - tap_skipped, tap_failed, tap_skipped);
		c = tap_failed ? 1 : 0;
	}
	guest_cleanup();
	return c;
}
