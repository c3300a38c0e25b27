// SPDX-License-Identifier: GPL-2.0
/*
 * rawio.c - io_uring (IORING_OP_POLL_ADD, NOP) and aio (IOCB_CMD_POLL) by
 * raw system calls: the guest has no liburing and no libaio, and the raw
 * calls are what reaches vfs_poll() anyway.
 *
 * The ring indices are never cached in struct uring: a forked child that
 * submits through the inherited MAP_SHARED rings (the io_uring kind's
 * trigger does) must leave the parent with a consistent view.
 */
#define _GNU_SOURCE
#include "polltest.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/aio_abi.h>
#include <linux/io_uring.h>

struct uring {
	int fd;
	void *sq_ring, *cq_ring;
	size_t sq_size, cq_size;
	struct io_uring_sqe *sqes;
	size_t sqes_size;
	unsigned *sq_tail, *sq_mask, *sq_array;
	unsigned *cq_head, *cq_tail, *cq_mask;
	struct io_uring_cqe *cqes;
};

static long sys_enter(int fd, unsigned submit, unsigned min, unsigned flags, void *arg, size_t argsz)
{
	return syscall(SYS_io_uring_enter, fd, submit, min, flags, arg, argsz);
}

struct uring *uring_open(unsigned entries, int *err)
{
	struct io_uring_params p;
	struct uring *u = calloc(1, sizeof(*u));

	if (!u) {
		*err = -ENOMEM;
		return NULL;
	}
	memset(&p, 0, sizeof(p));
	u->fd = (int)syscall(SYS_io_uring_setup, entries, &p);
	if (u->fd < 0) {
		*err = -errno;
		free(u);
		return NULL;
	}
	u->sq_size = p.sq_off.array + p.sq_entries * sizeof(unsigned);
	u->cq_size = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	if (p.features & IORING_FEAT_SINGLE_MMAP) {
		if (u->cq_size > u->sq_size)
			u->sq_size = u->cq_size;
		u->cq_size = 0;
	}
	u->sq_ring = mmap(NULL, u->sq_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
			  u->fd, IORING_OFF_SQ_RING);
	u->cq_ring = u->cq_size ? mmap(NULL, u->cq_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
				       u->fd, IORING_OFF_CQ_RING) : u->sq_ring;
	u->sqes_size = p.sq_entries * sizeof(struct io_uring_sqe);
	u->sqes = mmap(NULL, u->sqes_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
		       u->fd, IORING_OFF_SQES);
	if (u->sq_ring == MAP_FAILED || u->cq_ring == MAP_FAILED || u->sqes == MAP_FAILED) {
		*err = -errno;
		uring_close(u);
		return NULL;
	}
	u->sq_tail = (unsigned *)((char *)u->sq_ring + p.sq_off.tail);
	u->sq_mask = (unsigned *)((char *)u->sq_ring + p.sq_off.ring_mask);
	u->sq_array = (unsigned *)((char *)u->sq_ring + p.sq_off.array);
	u->cq_head = (unsigned *)((char *)u->cq_ring + p.cq_off.head);
	u->cq_tail = (unsigned *)((char *)u->cq_ring + p.cq_off.tail);
	u->cq_mask = (unsigned *)((char *)u->cq_ring + p.cq_off.ring_mask);
	u->cqes = (struct io_uring_cqe *)((char *)u->cq_ring + p.cq_off.cqes);
	return u;
}

void uring_close(struct uring *u)
{
	if (!u)
		return;
	if (u->sqes && u->sqes != MAP_FAILED)
		munmap(u->sqes, u->sqes_size);
	if (u->cq_size && u->cq_ring && u->cq_ring != MAP_FAILED)
		munmap(u->cq_ring, u->cq_size);
	if (u->sq_ring && u->sq_ring != MAP_FAILED)
		munmap(u->sq_ring, u->sq_size);
	if (u->fd >= 0)
		close(u->fd);
	free(u);
}

int uring_fd(const struct uring *u)
{
	return u->fd;
}

static int submit(struct uring *u, const struct io_uring_sqe *src)
{
	unsigned tail = __atomic_load_n(u->sq_tail, __ATOMIC_ACQUIRE);
	unsigned idx = tail & *u->sq_mask;
	long r;

	u->sqes[idx] = *src;
	u->sq_array[idx] = idx;
	__atomic_store_n(u->sq_tail, tail + 1, __ATOMIC_RELEASE);
	do
		r = sys_enter(u->fd, 1, 0, 0, NULL, 0);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		return -errno;
	return r == 1 ? 0 : -EAGAIN;
}

int uring_submit_poll(struct uring *u, int fd, unsigned events, uint64_t tag)
{
	struct io_uring_sqe sqe;

	memset(&sqe, 0, sizeof(sqe));
	sqe.opcode = IORING_OP_POLL_ADD;
	sqe.fd = fd;
	sqe.poll32_events = events;
	sqe.user_data = tag;
	return submit(u, &sqe);
}

int uring_submit_nop(struct uring *u, uint64_t tag)
{
	struct io_uring_sqe sqe;

	memset(&sqe, 0, sizeof(sqe));
	sqe.opcode = IORING_OP_NOP;
	sqe.user_data = tag;
	return submit(u, &sqe);
}

unsigned uring_cq_ready(const struct uring *u)
{
	return __atomic_load_n(u->cq_tail, __ATOMIC_ACQUIRE) - *u->cq_head;
}

void uring_cq_consume(struct uring *u)
{
	__atomic_store_n(u->cq_head, __atomic_load_n(u->cq_tail, __ATOMIC_ACQUIRE), __ATOMIC_RELEASE);
}

int uring_wait_cqe(struct uring *u, int timeout_ms, int32_t *res, uint64_t *tag)
{
	for (;;) {
		unsigned head = *u->cq_head;
		struct __kernel_timespec ts = { timeout_ms / 1000, (timeout_ms % 1000) * 1000000L };
		struct io_uring_getevents_arg arg = { .ts = (uint64_t)(uintptr_t)&ts };
		long r;

		if (head != __atomic_load_n(u->cq_tail, __ATOMIC_ACQUIRE)) {
			const struct io_uring_cqe *c = &u->cqes[head & *u->cq_mask];

			*res = c->res;
			*tag = c->user_data;
			__atomic_store_n(u->cq_head, head + 1, __ATOMIC_RELEASE);
			return 1;
		}
		if (timeout_ms <= 0)
			return 0;
		r = sys_enter(u->fd, 0, 1, IORING_ENTER_GETEVENTS | IORING_ENTER_EXT_ARG, &arg, sizeof(arg));
		if (r < 0 && errno == ETIME)
			timeout_ms = 0;	/* look once more, then report the timeout */
		else if (r < 0 && errno != EINTR)
			return -errno;
	}
}

int aio_ctx_open(unsigned long *ctx)
{
	aio_context_t c = 0;

	if (syscall(SYS_io_setup, 8, &c))
		return -errno;
	*ctx = c;
	return 0;
}

void aio_ctx_close(unsigned long ctx)
{
	syscall(SYS_io_destroy, (aio_context_t)ctx);
}

int aio_submit_poll(unsigned long ctx, int fd, unsigned events, uint64_t tag)
{
	struct iocb cb;
	struct iocb *list[1] = { &cb };
	long r;

	memset(&cb, 0, sizeof(cb));
	cb.aio_fildes = (uint32_t)fd;
	cb.aio_lio_opcode = IOCB_CMD_POLL;
	cb.aio_buf = events;
	cb.aio_data = tag;
	r = syscall(SYS_io_submit, (aio_context_t)ctx, 1L, list);
	if (r < 0)
		return -errno;
	return r == 1 ? 0 : -EAGAIN;
}

int aio_wait(unsigned long ctx, int timeout_ms, int64_t *res)
{
	struct io_event ev;
	struct timespec ts = { timeout_ms / 1000, (timeout_ms % 1000) * 1000000L };
	long r;
	int tries = 0;

	/* a spurious EINTR (task work, SIGCHLD): wait again, a few times */
	do
		r = syscall(SYS_io_getevents, (aio_context_t)ctx, 1L, 1L, &ev, &ts);
	while (r < 0 && errno == EINTR && ++tries < 10);

	if (r < 0)
		return -errno;
	if (r == 0)
		return 0;
	*res = ev.res;
	return 1;
}
