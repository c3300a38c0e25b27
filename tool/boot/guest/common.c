// SPDX-License-Identifier: GPL-2.0
/*
 * common.c - what every part of the guest program shares (polltest.h):
 * the run's scratch directory, its signal set-up, the clocks, and which
 * kinds -k/-x selected.  polltest.c (the checks' TAP), checks.c, the kinds
 * and bench.c use it; it uses none of them.
 */
#define _GNU_SOURCE
#include "polltest.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

int wake_timeout_ms = 5000;
static const char *only, *except;
static char tmpdir[256];

void select_kinds(const char *only_list, const char *except_list)
{
	only = only_list;
	except = except_list;
}

const char *tmp_dir(void)
{
	return tmpdir;
}

double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

uint64_t cycles(void)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
#else
	return (uint64_t)now_ns();
#endif
}

static bool in_list(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; p && *p;) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);

		if (len == n && !strncmp(p, name, n))
			return true;
		p = e ? e + 1 : NULL;
	}
	return false;
}

int kind_selected(const struct kind *k)
{
	if (only && !in_list(only, k->name))
		return 0;
	return !(except && in_list(except, k->name));
}

static void on_alarm(int sig)
{
	(void)sig;
}

void guest_setup(void)
{
	struct sigaction sa;
	const char *t = getenv("TMPDIR");
	unsigned char b;

	setvbuf(stdout, NULL, _IOLBF, 0);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;	/* no SA_RESTART: a stuck wait returns EINTR */
	sigaction(SIGALRM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	snprintf(tmpdir, sizeof(tmpdir), "%s/polltest.XXXXXX", t && *t ? t : "/tmp");
	if (!mkdtemp(tmpdir)) {
		fprintf(stderr, "polltest: cannot create a directory in '%s': %s\n", t && *t ? t : "/tmp",
			strerror(errno));
		exit(2);
	}
	/* /dev/random is only ready once the crng is: wait for that first */
	while (getrandom(&b, 1, 0) < 0 && errno == EINTR)
		;
}

void guest_cleanup(void)
{
	rmdir(tmpdir);
}

/* helpers of the kinds */
int neg_errno(void)
{
	return errno ? -errno : -EIO;
}

int set_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	return fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) ? neg_errno() : 0;
}

void close_all(struct fixture *f)
{
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
	for (int i = 0; i < MAX_AUX; i++) {
		if (f->aux[i] >= 0)
			close(f->aux[i]);
		f->aux[i] = -1;
	}
}

bool ready_fd(int fd, short ev)
{
	struct pollfd p = { .fd = fd, .events = ev };

	return poll(&p, 1, 0) == 1 && (p.revents & ev);
}

int write_byte(int fd)
{
	return write(fd, "x", 1) == 1 ? 0 : neg_errno();
}
