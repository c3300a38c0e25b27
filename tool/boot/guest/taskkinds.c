// SPDX-License-Identifier: GPL-2.0
/*
 * taskkinds.c - the file types bound to a task (polltest.h): pidfd and
 * perf (a child that exits when told to), userfaultfd (a thread sleeping
 * in a fault) and the seccomp listener (a child whose system call waits
 * for an answer).
 */
#define _GNU_SOURCE
#include "polltest.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <mqueue.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/fanotify.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>
#include <linux/filter.h>
#include <linux/perf_event.h>
#include <linux/seccomp.h>
#include <linux/uhid.h>
#include <linux/userfaultfd.h>

/*
 * ---- a child process that exits when told to (pidfd, perf) ----
 * The child waits for one byte on a pipe; the trigger writes it, from
 * whichever process runs the trigger.
 */
static int waiting_child(struct fixture *f)
{
	int p[2];

	if (pipe2(p, O_CLOEXEC))
		return neg_errno();
	f->pid = fork();
	if (f->pid < 0) {
		close(p[0]);
		close(p[1]);
		return neg_errno();
	}
	if (f->pid == 0) {
		char c;

		close(p[1]);
		while (read(p[0], &c, 1) < 0 && errno == EINTR)
			;
		_exit(0);
	}
	close(p[0]);
	f->aux[0] = p[1];
	return 0;
}

int child_trigger(struct fixture *f)
{
	return write_byte(f->aux[0]);
}

void child_close(struct fixture *f)
{
	close_all(f);	/* the child reads EOF if it was not told */
	if (f->priv) {
		munmap(f->priv, 2 * (size_t)sysconf(_SC_PAGESIZE));
		f->priv = NULL;
	}
	if (f->pid > 0)
		while (waitpid(f->pid, NULL, 0) < 0 && errno == EINTR)
			;
	f->pid = 0;
}

int pidfd_open_kind(struct fixture *f)
{
	int r = waiting_child(f);

	if (r)
		return r;
	f->fd = (int)syscall(SYS_pidfd_open, f->pid, 0);
	return f->fd < 0 ? neg_errno() : 0;
}

int perf_open(struct fixture *f)
{
	struct perf_event_attr attr;
	void *rb;
	int r = waiting_child(f);

	if (r)
		return r;
	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_SOFTWARE;
	attr.size = sizeof(attr);
	attr.config = PERF_COUNT_SW_DUMMY;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	f->fd = (int)syscall(SYS_perf_event_open, &attr, f->pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (f->fd < 0)
		return neg_errno();
	/* without a ring buffer perf_poll() always says EPOLLHUP */
	rb = mmap(NULL, 2 * (size_t)sysconf(_SC_PAGESIZE), PROT_READ | PROT_WRITE, MAP_SHARED, f->fd, 0);
	if (rb == MAP_FAILED)
		return neg_errno();
	f->priv = rb;
	return 0;
}

/*
 * ---- userfaultfd ----
 * Ready while a fault waits to be resolved.  The trigger starts a thread
 * that touches the registered page (it sleeps in the fault); draining reads
 * the message, maps a zero page, joins the thread and drops the page again.
 */
struct uffd_state {
	char *page;
	size_t size;
	pthread_t thread;
	atomic_bool running;
	bool broken;		/* the page could not be made missing again */
};

static int uffd_register(int fd, struct uffd_state *s)
{
	struct uffdio_register reg;

	memset(&reg, 0, sizeof(reg));
	reg.range.start = (unsigned long)s->page;
	reg.range.len = s->size;
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	return ioctl(fd, UFFDIO_REGISTER, &reg) ? neg_errno() : 0;
}

static void *uffd_toucher(void *arg)
{
	struct uffd_state *s = arg;

	(void)*(volatile char *)s->page;
	return NULL;
}

int uffd_open(struct fixture *f)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffd_state *s;

	f->fd = (int)syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK | UFFD_USER_MODE_ONLY);
	if (f->fd < 0 && errno == EINVAL)	/* before 5.11 */
		f->fd = (int)syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (f->fd < 0)
		return neg_errno();
	if (ioctl(f->fd, UFFDIO_API, &api))
		return neg_errno();
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	f->priv = s;
	s->size = (size_t)sysconf(_SC_PAGESIZE);
	s->page = mmap(NULL, s->size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (s->page == MAP_FAILED) {
		s->page = NULL;
		return neg_errno();
	}
	return uffd_register(f->fd, s);
}

int uffd_trigger(struct fixture *f)
{
	struct uffd_state *s = f->priv;
	int r;

	if (s->broken)
		return -EIO;
	if (atomic_exchange(&s->running, true))
		return 0;	/* a fault is already pending */
	r = pthread_create(&s->thread, NULL, uffd_toucher, s);
	if (r) {
		atomic_store(&s->running, false);
		return -r;
	}
	return 0;
}

static void uffd_resolve(struct fixture *f)
{
	struct uffd_state *s = f->priv;
	struct uffdio_zeropage zp;

	if (!s || !atomic_load(&s->running))
		return;
	memset(&zp, 0, sizeof(zp));
	zp.range.start = (unsigned long)s->page;
	zp.range.len = s->size;
	if (ioctl(f->fd, UFFDIO_ZEROPAGE, &zp) && errno != EEXIST) {
		struct uffdio_range r = zp.range;

		ioctl(f->fd, UFFDIO_WAKE, &r);
	}
	pthread_join(s->thread, NULL);
	atomic_store(&s->running, false);
	/*
	 * Make the page missing again for the next fault: a fresh mapping in
	 * its place, registered again (tinyconfig has no madvise()).
	 */
	if (mmap(s->page, s->size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) !=
	    s->page || uffd_register(f->fd, s))
		s->broken = true;
}

int uffd_drain(struct fixture *f)
{
	struct uffd_msg msg;

	while (read(f->fd, &msg, sizeof(msg)) == sizeof(msg))
		;
	uffd_resolve(f);
	return 0;
}

void uffd_close(struct fixture *f)
{
	struct uffd_state *s = f->priv;

	if (s) {
		uffd_resolve(f);
		if (s->page)
			munmap(s->page, s->size);
		free(s);
		f->priv = NULL;
	}
	close_all(f);
}

/*
 * ---- seccomp user notification ----
 * A helper child installs a filter that hands getppid() to a listener and
 * passes the listener to us (SCM_RIGHTS); each byte on its pipe makes it
 * call getppid(), which waits for our answer: the listener is readable
 * while a notification is pending.
 */
static int send_fd(int sock, int fd)
{
	char c = 0;
	struct iovec iov = { &c, 1 };
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} u;
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf,
			    .msg_controllen = sizeof(u.buf) };
	struct cmsghdr *cm = CMSG_FIRSTHDR(&m);

	memset(u.buf, 0, sizeof(u.buf));
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	return sendmsg(sock, &m, 0) == 1 ? 0 : -1;
}

static int recv_fd(int sock)
{
	char c;
	struct iovec iov = { &c, 1 };
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} u;
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf,
			    .msg_controllen = sizeof(u.buf) };
	struct cmsghdr *cm;
	int fd;

	if (recvmsg(sock, &m, MSG_CMSG_CLOEXEC) != 1)
		return -1;
	cm = CMSG_FIRSTHDR(&m);
	if (!cm || cm->cmsg_type != SCM_RIGHTS)
		return -1;
	memcpy(&fd, CMSG_DATA(cm), sizeof(int));
	return fd;
}

static void seccomp_helper(int sock, int in)
{
	struct sock_filter prog[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getppid, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog fprog = { sizeof(prog) / sizeof(prog[0]), prog };
	int fd;
	char c;

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		_exit(1);
	fd = (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &fprog);
	if (fd < 0 || send_fd(sock, fd))
		_exit(1);
	close(fd);
	while (read(in, &c, 1) == 1)
		syscall(SYS_getppid);
	_exit(0);
}

int seccomp_open(struct fixture *f)
{
	int sv[2], p[2];

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return neg_errno();
	if (pipe2(p, O_CLOEXEC)) {
		close(sv[0]);
		close(sv[1]);
		return neg_errno();
	}
	f->pid = fork();
	if (f->pid == 0) {
		close(sv[0]);
		close(p[1]);
		seccomp_helper(sv[1], p[0]);
	}
	close(sv[1]);
	close(p[0]);
	f->aux[0] = p[1];
	if (f->pid < 0) {
		close(sv[0]);
		return neg_errno();
	}
	f->fd = recv_fd(sv[0]);	/* EOF: the helper could not install the filter */
	close(sv[0]);
	return f->fd < 0 ? -ENOSYS : 0;
}

int seccomp_drain(struct fixture *f)
{
	struct seccomp_notif req;
	struct seccomp_notif_resp resp;

	memset(&req, 0, sizeof(req));
	if (ioctl(f->fd, SECCOMP_IOCTL_NOTIF_RECV, &req))
		return neg_errno();
	memset(&resp, 0, sizeof(resp));
	resp.id = req.id;
	resp.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
	return ioctl(f->fd, SECCOMP_IOCTL_NOTIF_SEND, &resp) ? neg_errno() : 0;
}

void seccomp_close(struct fixture *f)
{
	/* answer a pending call, then the helper reads EOF and exits */
	if (f->fd >= 0 && ready_fd(f->fd, POLLIN))
		seccomp_drain(f);
	child_close(f);
}

