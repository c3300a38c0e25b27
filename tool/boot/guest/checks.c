// SPDX-License-Identifier: GPL-2.0
/*
 * checks.c - the checks polltest runs on every kind of file: readiness
 * through poll(), select(), ppoll(), epoll (level, edge, oneshot), io_uring
 * IORING_OP_POLL_ADD and aio IOCB_CMD_POLL, and wake-ups of a poll(),
 * select(), epoll_wait(), POLL_ADD or IOCB_CMD_POLL that sleeps while
 * another process (or thread, for userfaultfd) makes the file ready.  Each
 * check gets a freshly opened instance of the kind (polltest.c).
 */
#define _GNU_SOURCE
#include "polltest.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

void fail(struct outcome *o, const char *fmt, ...)
{
	va_list ap;

	if (o->r == RES_FAIL)
		return;	/* keep the first reason */
	o->r = RES_FAIL;
	va_start(ap, fmt);
	vsnprintf(o->msg, sizeof(o->msg), fmt, ap);
	va_end(ap);
}

void skip(struct outcome *o, const char *why)
{
	o->r = RES_SKIP;
	snprintf(o->msg, sizeof(o->msg), "%s", why);
}

static const char *evname(short ev)
{
	switch (ev) {
	case POLLIN: return "POLLIN";
	case POLLPRI: return "POLLPRI";
	case POLLOUT: return "POLLOUT";
	case POLLHUP: return "POLLHUP";
	case POLLERR: return "POLLERR";
	default: return "the event";
	}
}

/* revents of one poll(), or -1 with errno */
static int poll1(int fd, short ev, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = ev };
	int n;

	do
		n = poll(&p, 1, timeout_ms);
	while (n < 0 && errno == EINTR && timeout_ms == 0);
	if (n < 0)
		return -1;
	return n ? p.revents : 0;
}

static bool ready_now(const struct kind *k, struct fixture *f)
{
	int r = poll1(f->fd, k->event, 0);

	return r > 0 && (r & k->event);
}

static int trigger(const struct kind *k, struct fixture *f, struct outcome *o)
{
	int r = k->trigger(f);

	if (r)
		fail(o, "trigger failed: %s", strerror(-r));
	return r;
}

/* ---- a helper that makes the fixture ready while we sleep ---- */

struct waker {
	const struct kind *k;
	struct fixture *f;
	pid_t sleeper;		/* thread id of the one that must be asleep first */
	pid_t child;
	pthread_t thread;
	int result;
};

static char task_state(pid_t pid, pid_t tid)
{
	char path[64], buf[512], *p;
	int fd;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", (int)pid, (int)tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return '?';
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return '?';
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : '?';
}

/* Wait until the sleeper really sleeps, so that the check tests a wake-up. */
static void await_sleeper(pid_t pid)
{
	for (int i = 0; i < 5000; i++) {
		char s = task_state(pid, pid);

		if (s == 'S' || s == 'D')
			return;
		if (s == '?') {	/* no /proc: give it time */
			usleep(100000);
			return;
		}
		usleep(1000);
	}
}

static void *waker_thread(void *arg)
{
	struct waker *w = arg;

	await_sleeper(w->sleeper);
	w->result = w->k->trigger(w->f);
	return NULL;
}

static int waker_start(struct waker *w, const struct kind *k, struct fixture *f)
{
	memset(w, 0, sizeof(*w));
	w->k = k;
	w->f = f;
	w->sleeper = getpid();
	if (k->flags & K_THREAD)
		return -pthread_create(&w->thread, NULL, waker_thread, w);
	fflush(stdout);
	w->child = fork();
	if (w->child < 0)
		return -errno;
	if (w->child == 0) {
		await_sleeper(w->sleeper);
		_exit(k->trigger(f) ? 1 : 0);
	}
	return 0;
}

/* 0 when the trigger worked */
static int waker_finish(struct waker *w)
{
	int status = 0;

	if (w->k->flags & K_THREAD) {
		pthread_join(w->thread, NULL);
		return w->result;
	}
	while (waitpid(w->child, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -EIO;
}

/*
 * poll() and select() look at every descriptor once more when their timeout
 * expires, so a lost wake-up shows as "ready" after the whole timeout, not
 * as a timeout: a wake-up must come well before it.
 */
static bool woken_late(double t0)
{
	return now_ns() - t0 > wake_timeout_ms * 1e6 / 2;
}

const char *who(const struct kind *k)
{
	return k->flags & K_THREAD ? "another thread" : "another process";
}

/* ---- the checks ---- */

static void check_fresh(const struct kind *k, struct fixture *f, struct outcome *o)
{
	int r = poll1(f->fd, k->event, 0);

	if (r < 0)
		fail(o, "poll: %s", strerror(errno));
	else if (r & k->event)
		fail(o, "poll() reports %s (revents %#x) before anything happened", evname(k->event), r);
}

static void check_poll(const struct kind *k, struct fixture *f, struct outcome *o)
{
	int r;

	if (trigger(k, f, o))
		return;
	r = poll1(f->fd, k->event, 2000);
	if (r < 0)
		fail(o, "poll: %s", strerror(errno));
	else if (!(r & k->event))
		fail(o, "poll() does not report %s after the trigger (revents %#x)", evname(k->event), r);
}

static void check_level(const struct kind *k, struct fixture *f, struct outcome *o)
{
	check_poll(k, f, o);
	for (int i = 0; i < 2 && o->r != RES_FAIL; i++)
		if (!ready_now(k, f))
			fail(o, "poll() number %d no longer reports %s", i + 2, evname(k->event));
}

static void check_drain(const struct kind *k, struct fixture *f, struct outcome *o)
{
	int r;

	check_poll(k, f, o);
	if (o->r == RES_FAIL)
		return;
	r = k->drain(f);
	if (r)
		fail(o, "drain failed: %s", strerror(-r));
	else if (ready_now(k, f))
		fail(o, "poll() still reports %s after draining", evname(k->event));
}

static void fill_sets(const struct kind *k, int fd, fd_set *rd, fd_set *wr, fd_set *ex)
{
	FD_ZERO(rd);
	FD_ZERO(wr);
	FD_ZERO(ex);
	if (k->event & (POLLIN | POLLHUP | POLLERR))	/* select() counts HUP and ERR as readable */
		FD_SET(fd, rd);
	if (k->event & POLLOUT)
		FD_SET(fd, wr);
	if (k->event & POLLPRI)
		FD_SET(fd, ex);
}

static bool in_sets(int fd, fd_set *rd, fd_set *wr, fd_set *ex)
{
	return FD_ISSET(fd, rd) || FD_ISSET(fd, wr) || FD_ISSET(fd, ex);
}

static void check_select(const struct kind *k, struct fixture *f, struct outcome *o)
{
	fd_set rd, wr, ex;
	struct timeval tv = { 2, 0 };
	int n;

	if (f->fd >= FD_SETSIZE)
		return skip(o, "descriptor above FD_SETSIZE");
	if (!(k->flags & K_ALWAYS_READY) && trigger(k, f, o))
		return;
	fill_sets(k, f->fd, &rd, &wr, &ex);
	n = select(f->fd + 1, &rd, &wr, &ex, &tv);
	if (n < 0)
		fail(o, "select: %s", strerror(errno));
	else if (n == 0 || !in_sets(f->fd, &rd, &wr, &ex))
		fail(o, "select() does not report the descriptor after the trigger");
}

static void check_ppoll(const struct kind *k, struct fixture *f, struct outcome *o)
{
	struct pollfd p = { .fd = f->fd, .events = k->event };
	struct timespec ts = { 2, 0 };
	sigset_t none;
	int n;

	if (!(k->flags & K_ALWAYS_READY) && trigger(k, f, o))
		return;
	sigemptyset(&none);
	n = ppoll(&p, 1, &ts, &none);
	if (n < 0)
		fail(o, "ppoll: %s", strerror(errno));
	else if (n == 0 || !(p.revents & k->event))
		fail(o, "ppoll() does not report %s (revents %#x)", evname(k->event), p.revents);
}

static int epoll_for(const struct kind *k, struct fixture *f, unsigned extra, struct outcome *o)
{
	struct epoll_event ev = { .events = (unsigned)k->event | extra, .data.fd = f->fd };
	int ep = epoll_create1(EPOLL_CLOEXEC);

	if (ep < 0) {
		fail(o, "epoll_create1: %s", strerror(errno));
		return -1;
	}
	if (epoll_ctl(ep, EPOLL_CTL_ADD, f->fd, &ev)) {
		fail(o, "epoll_ctl(ADD): %s", strerror(errno));
		close(ep);
		return -1;
	}
	return ep;
}

/* 1 when the descriptor was reported with the event, 0 when nothing was, -1 otherwise */
static int epoll_once(const struct kind *k, int ep, int timeout_ms, struct outcome *o)
{
	struct epoll_event ev;
	double end = now_ns() + timeout_ms * 1e6;
	int n;

	/* epoll_wait() returns EINTR for task work too (io_uring's): wait on */
	while ((n = epoll_wait(ep, &ev, 1, timeout_ms)) < 0 && errno == EINTR && now_ns() < end)
		timeout_ms = (int)((end - now_ns()) / 1e6);

	if (n < 0) {
		fail(o, "epoll_wait: %s", strerror(errno));
		return -1;
	}
	if (n == 0)
		return 0;
	if (!(ev.events & (unsigned)k->event)) {
		fail(o, "epoll_wait() reports events %#x without %s", ev.events, evname(k->event));
		return -1;
	}
	return 1;
}

/*
 * The epoll checks register the descriptor before the trigger: that is how
 * epoll is used, and for K_CONSUMED kinds a ->poll call between the trigger
 * and epoll_wait() (epoll_ctl's own) would eat the event.
 */
static void check_epoll_lt(const struct kind *k, struct fixture *f, struct outcome *o)
{
	int ep = epoll_for(k, f, 0, o);

	if (ep < 0)
		return;
	if (!(k->flags & K_ALWAYS_READY) && trigger(k, f, o)) {
		close(ep);
		return;
	}
	for (int i = 0; i < 3 && o->r != RES_FAIL; i++) {
		int r = epoll_once(k, ep, i ? 0 : 2000, o);

		if (r == 0)
			fail(o, "epoll_wait() number %d reports nothing while ready", i + 1);
	}
	close(ep);
}

static void check_epoll_et(const struct kind *k, struct fixture *f, struct outcome *o)
{
	int r, ep = epoll_for(k, f, EPOLLET, o);

	if (ep < 0)
		return;
	if (!(k->flags & K_ALWAYS_READY) && trigger(k, f, o)) {
		close(ep);
		return;
	}
	r = epoll_once(k, ep, 2000, o);
	if (r == 0)
		fail(o, "the first epoll_wait() reports nothing");
	else if (r > 0 && epoll_once(k, ep, 0, o) != 0)
		fail(o, "edge-triggered: reported again without a new event");
	else if (r > 0 && !(k->flags & (K_ALWAYS_READY | K_NO_DRAIN))) {
		if (k->drain && (r = k->drain(f)))
			fail(o, "drain failed: %s", strerror(-r));
		else if (!trigger(k, f, o) && epoll_once(k, ep, 2000, o) == 0)
			fail(o, "edge-triggered: a new event is not reported");
	}
	close(ep);
}

static void check_epoll_oneshot(const struct kind *k, struct fixture *f, struct outcome *o)
{
	struct epoll_event ev = { .events = (unsigned)k->event | EPOLLONESHOT, .data.fd = f->fd };
	int r, ep = epoll_for(k, f, EPOLLONESHOT, o);

	if (ep < 0)
		return;
	if (!(k->flags & K_ALWAYS_READY) && trigger(k, f, o))
		goto out;
	r = epoll_once(k, ep, 2000, o);
	if (r == 0)
		fail(o, "the first epoll_wait() reports nothing");
	else if (r > 0 && epoll_once(k, ep, 0, o) != 0)
		fail(o, "oneshot: reported again before EPOLL_CTL_MOD");
	else if (r > 0) {
		/* re-armed while still ready it must be reported; a K_CONSUMED kind needs a new event */
		if (epoll_ctl(ep, EPOLL_CTL_MOD, f->fd, &ev))
			fail(o, "epoll_ctl(MOD): %s", strerror(errno));
		else if ((k->flags & K_CONSUMED) && trigger(k, f, o))
			;
		else if (epoll_once(k, ep, 2000, o) == 0)
			fail(o, "oneshot: not reported after EPOLL_CTL_MOD re-armed it");
	}
out:
	close(ep);
}

static void check_wake_poll(const struct kind *k, struct fixture *f, struct outcome *o)
{
	struct waker w;
	double t0;
	bool late;
	int r, n;
	struct pollfd p = { .fd = f->fd, .events = k->event };

	if (ready_now(k, f))
		return fail(o, "ready before the trigger");
	if ((r = waker_start(&w, k, f)))
		return fail(o, "cannot start the waker: %s", strerror(-r));
	t0 = now_ns();
	n = poll(&p, 1, wake_timeout_ms);
	late = woken_late(t0);
	r = waker_finish(&w);
	if (r)
		fail(o, "the trigger failed in %s", who(k));
	else if (n < 0)
		fail(o, "poll: %s", strerror(errno));
	else if (n == 0 || late)
		fail(o, "no wake-up: poll() returned %d at its timeout of %d ms", n, wake_timeout_ms);
	else if (!(p.revents & k->event))
		fail(o, "woken, but revents %#x lacks %s", p.revents, evname(k->event));
}

static void check_wake_select(const struct kind *k, struct fixture *f, struct outcome *o)
{
	struct waker w;
	fd_set rd, wr, ex;
	struct timeval tv = { wake_timeout_ms / 1000, (wake_timeout_ms % 1000) * 1000 };
	double t0;
	bool late;
	int r, n;

	if (f->fd >= FD_SETSIZE)
		return skip(o, "descriptor above FD_SETSIZE");
	if (ready_now(k, f))
		return fail(o, "ready before the trigger");
	if ((r = waker_start(&w, k, f)))
		return fail(o, "cannot start the waker: %s", strerror(-r));
	fill_sets(k, f->fd, &rd, &wr, &ex);
	t0 = now_ns();
	n = select(f->fd + 1, &rd, &wr, &ex, &tv);
	late = woken_late(t0);
	r = waker_finish(&w);
	if (r)
		fail(o, "the trigger failed in %s", who(k));
	else if (n < 0)
		fail(o, "select: %s", strerror(errno));
	else if (n == 0 || late)
		fail(o, "no wake-up: select() returned %d at its timeout of %d ms", n, wake_timeout_ms);
	else if (!in_sets(f->fd, &rd, &wr, &ex))
		fail(o, "woken, but the descriptor is not in the sets");
}

static void check_wake_epoll(const struct kind *k, struct fixture *f, struct outcome *o)
{
	struct waker w;
	double t0;
	bool late;
	int ep, r, n;

	if (ready_now(k, f))
		return fail(o, "ready before the trigger");
	ep = epoll_for(k, f, 0, o);
	if (ep < 0)
		return;
	if (epoll_once(k, ep, 0, o) != 0) {
		fail(o, "epoll_wait() reports it before the trigger");
		close(ep);
		return;
	}
	if ((r = waker_start(&w, k, f))) {
		fail(o, "cannot start the waker: %s", strerror(-r));
		close(ep);
		return;
	}
	t0 = now_ns();
	n = epoll_once(k, ep, wake_timeout_ms, o);
	late = woken_late(t0);
	r = waker_finish(&w);
	if (r)
		fail(o, "the trigger failed in %s", who(k));
	else if (n == 0 || late)
		fail(o, "no wake-up: epoll_wait() returned %d at its timeout of %d ms", n, wake_timeout_ms);
	close(ep);
}

static struct uring *ring_for(struct outcome *o)
{
	int err = 0;
	struct uring *u = uring_open(8, &err);

	if (!u) {
		if (err == -ENOSYS || err == -EPERM)
			skip(o, "io_uring not available");
		else
			fail(o, "io_uring_setup: %s", strerror(-err));
	}
	return u;
}

static void check_uring(const struct kind *k, struct fixture *f, struct outcome *o)
{
	struct uring *u;
	int32_t res = 0;
	uint64_t tag;
	int r;

	if (!(k->flags & K_ALWAYS_READY) && trigger(k, f, o))
		return;
	if (!(u = ring_for(o)))
		return;
	r = uring_submit_poll(u, f->fd, (unsigned)k->event, 7);
	if (r)
		fail(o, "submitting IORING_OP_POLL_ADD: %s", strerror(-r));
	else if ((r = uring_wait_cqe(u, 2000, &res, &tag)) < 0)
		fail(o, "io_uring_enter: %s", strerror(-r));
	else if (r == 0)
		fail(o, "no completion of IORING_OP_POLL_ADD on a ready descriptor");
	else if (res < 0)
		fail(o, "IORING_OP_POLL_ADD failed: %s", strerror(-res));
	else if (!(res & k->event))
		fail(o, "IORING_OP_POLL_ADD completed with %#x, without %s", (unsigned)res, evname(k->event));
	uring_close(u);
}

static void check_uring_wake(const struct kind *k, struct fixture *f, struct outcome *o)
{
	struct waker w;
	struct uring *u;
	int32_t res = 0;
	uint64_t tag;
	bool late;
	int r, n;

	if (ready_now(k, f))
		return fail(o, "ready before the trigger");
	if (!(u = ring_for(o)))
		return;
	r = uring_submit_poll(u, f->fd, (unsigned)k->event, 9);
	if (r) {
		fail(o, "submitting IORING_OP_POLL_ADD: %s", strerror(-r));
	} else if (uring_cq_ready(u)) {
		fail(o, "IORING_OP_POLL_ADD completed before the trigger");
	} else if ((r = waker_start(&w, k, f))) {
		fail(o, "cannot start the waker: %s", strerror(-r));
	} else {
		double t0 = now_ns();

		n = uring_wait_cqe(u, wake_timeout_ms, &res, &tag);
		late = woken_late(t0);
		r = waker_finish(&w);
		if (r)
			fail(o, "the trigger failed in %s", who(k));
		else if (n < 0)
			fail(o, "io_uring_enter: %s", strerror(-n));
		else if (n == 0 || late)
			fail(o, "no wake-up: no completion before the timeout of %d ms", wake_timeout_ms);
		else if (res < 0 || !(res & k->event))
			fail(o, "IORING_OP_POLL_ADD completed with %d", res);
	}
	uring_close(u);
}

static bool aio_for(unsigned long *ctx, struct outcome *o)
{
	int r = aio_ctx_open(ctx);

	if (r == -ENOSYS)
		skip(o, "aio not available");
	else if (r)
		fail(o, "io_setup: %s", strerror(-r));
	return r == 0;
}

static void check_aio(const struct kind *k, struct fixture *f, struct outcome *o)
{
	unsigned long ctx;
	int64_t res = 0;
	int r;

	if (!(k->flags & K_ALWAYS_READY) && trigger(k, f, o))
		return;
	if (!aio_for(&ctx, o))
		return;
	r = aio_submit_poll(ctx, f->fd, (unsigned)k->event, 5);
	if (r)
		fail(o, "io_submit(IOCB_CMD_POLL): %s", strerror(-r));
	else if ((r = aio_wait(ctx, 2000, &res)) < 0)
		fail(o, "io_getevents: %s", strerror(-r));
	else if (r == 0)
		fail(o, "no completion of IOCB_CMD_POLL on a ready descriptor");
	else if (res < 0 || !(res & k->event))
		fail(o, "IOCB_CMD_POLL completed with %lld", (long long)res);
	aio_ctx_close(ctx);
}

static void check_aio_wake(const struct kind *k, struct fixture *f, struct outcome *o)
{
	struct waker w;
	unsigned long ctx;
	int64_t res = 0;
	bool late;
	int r, n;

	if (ready_now(k, f))
		return fail(o, "ready before the trigger");
	if (!aio_for(&ctx, o))
		return;
	r = aio_submit_poll(ctx, f->fd, (unsigned)k->event, 6);
	if (r == -EINVAL && (k->flags & K_MULTI_HEAD)) {
		;	/* aio_poll_queue_proc(): one wait queue per file only, by design */
	} else if (r) {
		fail(o, "io_submit(IOCB_CMD_POLL): %s", strerror(-r));
	} else if (aio_wait(ctx, 0, &res) != 0) {
		fail(o, "IOCB_CMD_POLL completed before the trigger");
	} else if ((r = waker_start(&w, k, f))) {
		fail(o, "cannot start the waker: %s", strerror(-r));
	} else {
		double t0 = now_ns();

		n = aio_wait(ctx, wake_timeout_ms, &res);
		late = woken_late(t0);
		r = waker_finish(&w);
		if (r)
			fail(o, "the trigger failed in %s", who(k));
		else if (n < 0)
			fail(o, "io_getevents: %s", strerror(-n));
		else if (n == 0 || late)
			fail(o, "no wake-up: no completion before the timeout of %d ms", wake_timeout_ms);
		else if (res < 0 || !(res & k->event))
			fail(o, "IOCB_CMD_POLL completed with %lld", (long long)res);
	}
	aio_ctx_close(ctx);
}

const struct check checks[] = {
	{ "not ready when fresh", N_NOT_READY, check_fresh },
	{ "poll() reports ready after the trigger", N_NOT_READY, check_poll },
	{ "poll() keeps reporting while ready (level)", N_NOT_READY | N_LEVEL, check_level },
	{ "not ready again after draining", N_NOT_READY | N_DRAIN, check_drain },
	{ "select() reports ready", 0, check_select },
	{ "ppoll() reports ready", 0, check_ppoll },
	{ "epoll level-triggered: reported on every epoll_wait()", N_EPOLL | N_LEVEL, check_epoll_lt },
	{ "epoll edge-triggered: reported once per event", N_EPOLL, check_epoll_et },
	{ "epoll oneshot: reported once until re-armed", N_EPOLL, check_epoll_oneshot },
	{ "blocking poll() woken by", N_NOT_READY | N_WAKE, check_wake_poll },
	{ "blocking select() woken by", N_NOT_READY | N_WAKE, check_wake_select },
	{ "blocking epoll_wait() woken by", N_NOT_READY | N_EPOLL | N_WAKE, check_wake_epoll },
	{ "io_uring IORING_OP_POLL_ADD reports ready", 0, check_uring },
	{ "io_uring IORING_OP_POLL_ADD woken by", N_NOT_READY | N_WAKE, check_uring_wake },
	{ "aio IOCB_CMD_POLL reports ready", N_EPOLL | N_AIO, check_aio },
	{ "aio IOCB_CMD_POLL woken by", N_NOT_READY | N_WAKE | N_AIO, check_aio_wake },
};

const size_t nr_checks = sizeof(checks) / sizeof(checks[0]);

const char *not_applicable(const struct kind *k, unsigned need)
{
	if ((need & N_NOT_READY) && (k->flags & K_ALWAYS_READY))
		return "always ready";
	if ((need & N_DRAIN) && !k->drain)
		return "cannot be made not ready again";
	if ((need & N_LEVEL) && (k->flags & K_CONSUMED))
		return "->poll consumes the event";
	if ((need & N_EPOLL) && (k->flags & K_NO_EPOLL))
		return "no ->poll: epoll_ctl and aio refuse it";
	if ((need & N_AIO) && (k->flags & K_NO_AIO))
		return "aio poll takes its queue's lock under a SOFTIRQ-safe lock, and the driver takes it with "
		       "spin_lock(): lockdep reports it on the unpatched kernel too";
	return NULL;
}
