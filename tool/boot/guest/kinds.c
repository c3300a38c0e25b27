// SPDX-License-Identifier: GPL-2.0
/*
 * kinds.c - the file types polltest exercises: how to open one, make it
 * ready and make it not ready again.  The table at the end is the one list
 * of kinds: "polltest list" prints it, and "polltax boot-test" matches its
 * source/poll_fn columns against the conversions of a series, so a kind is
 * reported as converted exactly when the series converts its ->poll.
 *
 * Unconverted kinds (pipe, pty, unix socket, regular tmpfs file, signalfd,
 * /dev/urandom without a ->poll) stay in the table: the patched kernel must
 * give them the same results as the base kernel.
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

static int counter;

void fixture_init(struct fixture *f)
{
	memset(f, 0, sizeof(*f));
	f->fd = -1;
	for (int i = 0; i < MAX_AUX; i++)
		f->aux[i] = -1;
	f->owner = getpid();
}

static int open_path(struct fixture *f, const char *path, int flags);

/* read until EAGAIN; 0 when at least the first read worked or nothing was there */
static int read_all(int fd, size_t size)
{
	char buf[4096];

	if (size > sizeof(buf))
		size = sizeof(buf);
	for (int i = 0; i < 1024; i++) {
		ssize_t n = read(fd, buf, size);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return 0;
		if (n < 0 && errno == EPIPE)	/* /dev/kmsg: records overwritten */
			continue;
		if (n <= 0)
			return n < 0 ? neg_errno() : 0;
	}
	return -EIO;
}

static int make_file(struct fixture *f, const char *what)
{
	int fd;

	snprintf(f->path, sizeof(f->path), "%s/%s-%d-%d", tmp_dir(), what, (int)getpid(), counter++);
	fd = open(f->path, O_CREAT | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0)
		return neg_errno();
	if (write(fd, "polltest\n", 9) != 9) {
		close(fd);
		return neg_errno();
	}
	close(fd);
	return 0;
}

static void remove_file(struct fixture *f)
{
	if (f->path[0])
		unlink(f->path);
	f->path[0] = '\0';
}

static void generic_close(struct fixture *f)
{
	close_all(f);
}

/* ---- eventfd ---- */
static int eventfd_open(struct fixture *f)
{
	f->fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	return f->fd < 0 ? neg_errno() : 0;
}

static int eventfd_trigger(struct fixture *f)
{
	uint64_t one = 1;

	return write(f->fd, &one, sizeof(one)) == sizeof(one) ? 0 : neg_errno();
}

static int eventfd_drain(struct fixture *f)
{
	return read_all(f->fd, sizeof(uint64_t));
}

/* ---- timerfd ---- */
static int timerfd_open(struct fixture *f)
{
	f->fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	return f->fd < 0 ? neg_errno() : 0;
}

static int timerfd_trigger(struct fixture *f)
{
	struct itimerspec its = { .it_value = { 0, 1000 } };	/* expires in 1 us */

	return timerfd_settime(f->fd, 0, &its, NULL) ? neg_errno() : 0;
}

static int timerfd_drain(struct fixture *f)
{
	return read_all(f->fd, sizeof(uint64_t));
}

/* ---- signalfd (per-task queue: not convertible) ---- */
static int signalfd_open(struct fixture *f)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	if (sigprocmask(SIG_BLOCK, &set, NULL))
		return neg_errno();
	f->fd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	return f->fd < 0 ? neg_errno() : 0;
}

static int signalfd_trigger(struct fixture *f)
{
	return kill(f->owner, SIGUSR1) ? neg_errno() : 0;
}

static int signalfd_drain(struct fixture *f)
{
	return read_all(f->fd, sizeof(struct signalfd_siginfo));
}

static void signalfd_close(struct fixture *f)
{
	sigset_t set;
	struct timespec zero = { 0, 0 };

	close_all(f);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	while (sigtimedwait(&set, NULL, &zero) == SIGUSR1)
		;
}

/* ---- epoll (an epoll file polled like any other, with an eventfd inside) ---- */
static int epoll_open(struct fixture *f)
{
	struct epoll_event ev = { .events = EPOLLIN };

	f->fd = epoll_create1(EPOLL_CLOEXEC);
	if (f->fd < 0)
		return neg_errno();
	f->aux[0] = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (f->aux[0] < 0 || epoll_ctl(f->fd, EPOLL_CTL_ADD, f->aux[0], &ev))
		return neg_errno();
	return 0;
}

static int epoll_trigger(struct fixture *f)
{
	uint64_t one = 1;

	return write(f->aux[0], &one, sizeof(one)) == sizeof(one) ? 0 : neg_errno();
}

static int epoll_drain(struct fixture *f)
{
	return read_all(f->aux[0], sizeof(uint64_t));
}

/* ---- inotify ---- */
static int inotify_open(struct fixture *f)
{
	int r = make_file(f, "inotify");

	if (r)
		return r;
	f->fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (f->fd < 0 || inotify_add_watch(f->fd, f->path, IN_ATTRIB) < 0)
		return neg_errno();
	return 0;
}

static int touch_trigger(struct fixture *f)
{
	return utimensat(AT_FDCWD, f->path, NULL, 0) ? neg_errno() : 0;
}

static int inotify_drain(struct fixture *f)
{
	return read_all(f->fd, 4096);
}

static void file_close(struct fixture *f)
{
	close_all(f);
	remove_file(f);
}

/* ---- fanotify ---- */
static int fanotify_open(struct fixture *f)
{
	int r = make_file(f, "fanotify");

	if (r)
		return r;
	f->fd = fanotify_init(FAN_CLASS_NOTIF | FAN_NONBLOCK | FAN_CLOEXEC, O_RDONLY | O_LARGEFILE);
	if (f->fd < 0)
		return neg_errno();
	if (fanotify_mark(f->fd, FAN_MARK_ADD, FAN_MODIFY, AT_FDCWD, f->path))
		return neg_errno();
	return 0;
}

static int fanotify_trigger(struct fixture *f)
{
	int fd = open(f->path, O_WRONLY | O_APPEND | O_CLOEXEC);
	int r;

	if (fd < 0)
		return neg_errno();
	r = write_byte(fd);
	close(fd);
	return r;
}

static int fanotify_drain(struct fixture *f)
{
	char buf[4096] __attribute__((aligned(8)));

	for (;;) {
		ssize_t n = read(f->fd, buf, sizeof(buf));
		struct fanotify_event_metadata *m = (void *)buf;

		if (n < 0)
			return errno == EAGAIN ? 0 : neg_errno();
		for (; FAN_EVENT_OK(m, n); m = FAN_EVENT_NEXT(m, n))
			if (m->fd >= 0)
				close(m->fd);
	}
}

/* ---- io_uring (the ring's own file: readable when completions wait) ---- */
static int iouring_open(struct fixture *f)
{
	int err = 0;
	struct uring *u = uring_open(4, &err);

	if (!u)
		return err;
	f->priv = u;
	f->fd = uring_fd(u);
	return 0;
}

static int iouring_trigger(struct fixture *f)
{
	return uring_submit_nop(f->priv, 1);
}

static int iouring_drain(struct fixture *f)
{
	uring_cq_consume(f->priv);
	return 0;
}

static void iouring_close(struct fixture *f)
{
	uring_close(f->priv);
	f->priv = NULL;
	f->fd = -1;
}

/*
 * ---- /dev/uhid: a HID device made by userspace ----
 * Readable while the kernel has events for it; each trigger creates the
 * device (UHID_START follows) or destroys it (UHID_STOP).
 */
static const unsigned char uhid_rdesc[] = {
	0x06, 0x00, 0xff,	/* Usage Page (Vendor Defined) */
	0x09, 0x01,		/* Usage (1) */
	0xa1, 0x01,		/* Collection (Application) */
	0x15, 0x00,		/*   Logical Minimum (0) */
	0x26, 0xff, 0x00,	/*   Logical Maximum (255) */
	0x75, 0x08,		/*   Report Size (8) */
	0x95, 0x01,		/*   Report Count (1) */
	0x09, 0x01,		/*   Usage (1) */
	0x81, 0x02,		/*   Input (Data, Variable, Absolute) */
	0xc0,			/* End Collection */
};

static int uhid_open(struct fixture *f)
{
	return open_path(f, "/dev/uhid", O_RDWR | O_NONBLOCK);
}

static int uhid_trigger(struct fixture *f)
{
	struct uhid_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = UHID_CREATE2;
	snprintf((char *)ev.u.create2.name, sizeof(ev.u.create2.name), "polltest");
	ev.u.create2.rd_size = sizeof(uhid_rdesc);
	ev.u.create2.bus = BUS_VIRTUAL;
	ev.u.create2.vendor = 0x1234;
	ev.u.create2.product = 0x5678;
	memcpy(ev.u.create2.rd_data, uhid_rdesc, sizeof(uhid_rdesc));
	if (write(f->fd, &ev, sizeof(ev)) == sizeof(ev))
		return 0;
	if (errno != EALREADY)	/* created by the trigger before: destroy it this time */
		return neg_errno();
	memset(&ev, 0, sizeof(ev));
	ev.type = UHID_DESTROY;
	return write(f->fd, &ev, sizeof(ev)) == sizeof(ev) ? 0 : neg_errno();
}

static int uhid_drain(struct fixture *f)
{
	struct uhid_event ev;

	while (read(f->fd, &ev, sizeof(ev)) > 0)
		;
	return errno == EAGAIN ? 0 : neg_errno();
}

/* ---- POSIX message queue ---- */
static int mqueue_open(struct fixture *f)
{
	struct mq_attr attr = { .mq_maxmsg = 4, .mq_msgsize = 16 };
	char name[64];
	mqd_t q;

	snprintf(name, sizeof(name), "/polltest-%d-%d", (int)getpid(), counter++);
	q = mq_open(name, O_CREAT | O_EXCL | O_RDWR | O_NONBLOCK | O_CLOEXEC, 0600, &attr);
	if (q == (mqd_t)-1)
		return neg_errno();
	mq_unlink(name);
	f->fd = (int)q;
	return 0;
}

static int mqueue_trigger(struct fixture *f)
{
	return mq_send((mqd_t)f->fd, "x", 1, 0) ? neg_errno() : 0;
}

static int mqueue_drain(struct fixture *f)
{
	char buf[16];

	while (mq_receive((mqd_t)f->fd, buf, sizeof(buf), NULL) >= 0)
		;
	return errno == EAGAIN ? 0 : neg_errno();
}

/* ---- character devices ---- */
static int open_path(struct fixture *f, const char *path, int flags)
{
	f->fd = open(path, flags | O_CLOEXEC);
	return f->fd < 0 ? neg_errno() : 0;
}

static int random_open(struct fixture *f)
{
	return open_path(f, "/dev/random", O_RDONLY | O_NONBLOCK);
}

static int urandom_open(struct fixture *f)
{
	return open_path(f, "/dev/urandom", O_RDONLY | O_NONBLOCK);
}

static int nothing(struct fixture *f)
{
	(void)f;
	return 0;
}

static int kmsg_open(struct fixture *f)
{
	int r = open_path(f, "/dev/kmsg", O_RDONLY | O_NONBLOCK);

	if (r)
		return r;
	/* only records written from now on make it ready */
	return lseek(f->fd, 0, SEEK_END) < 0 ? neg_errno() : 0;
}

static int kmsg_trigger(struct fixture *f)
{
	static const char msg[] = "<7>polltest: kmsg trigger\n";	/* KERN_DEBUG: not on the console */
	int fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	int r;

	(void)f;
	if (fd < 0)
		return neg_errno();
	r = write(fd, msg, sizeof(msg) - 1) == (ssize_t)sizeof(msg) - 1 ? 0 : neg_errno();
	close(fd);
	return r;
}

static int kmsg_drain(struct fixture *f)
{
	return read_all(f->fd, 4096);
}

/* ---- /proc/self/mounts: EPOLLPRI once per change of the mount table ---- */
static int mounts_cycle(const char *dir)
{
	if (mount("polltest", dir, "tmpfs", 0, "size=16k"))
		return neg_errno();
	return umount(dir) ? neg_errno() : 0;
}

static int mounts_open(struct fixture *f)
{
	int r;

	snprintf(f->path, sizeof(f->path), "%s/mnt-%d-%d", tmp_dir(), (int)getpid(), counter++);
	if (mkdir(f->path, 0700))
		return neg_errno();
	r = mounts_cycle(f->path);	/* no permission to mount: skip the kind */
	if (r)
		return r;
	return open_path(f, "/proc/self/mounts", O_RDONLY);
}

static int mounts_trigger(struct fixture *f)
{
	return mounts_cycle(f->path);
}

static void mounts_close(struct fixture *f)
{
	close_all(f);
	if (f->path[0])
		rmdir(f->path);
	f->path[0] = '\0';
}

/* ---- a sysfs attribute: kernfs_fop_poll() ---- */
static int kernfs_open(struct fixture *f)
{
	static const char *const paths[] = {
		"/sys/devices/system/clocksource/clocksource0/current_clocksource",
		"/sys/kernel/uevent_seqnum",
		"/sys/devices/system/cpu/online",
	};

	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		if (!open_path(f, paths[i], O_RDONLY))
			return 0;
	return -ENOENT;
}

/* ---- unconverted kinds ---- */
static int pipe_open(struct fixture *f)
{
	int p[2];

	if (pipe2(p, O_NONBLOCK | O_CLOEXEC))
		return neg_errno();
	f->fd = p[0];
	f->aux[0] = p[1];
	return 0;
}

static int aux_write_trigger(struct fixture *f)
{
	return write_byte(f->aux[0]);
}

static int fd_drain(struct fixture *f)
{
	return read_all(f->fd, 4096);
}

int pty_open(struct fixture *f)
{
	struct termios t;
	char *name;

	f->aux[0] = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (f->aux[0] < 0)
		return neg_errno();
	if (grantpt(f->aux[0]) || unlockpt(f->aux[0]) || !(name = ptsname(f->aux[0])))
		return neg_errno();
	f->fd = open(name, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (f->fd < 0 || tcgetattr(f->fd, &t))
		return neg_errno();
	cfmakeraw(&t);
	return tcsetattr(f->fd, TCSANOW, &t) ? neg_errno() : 0;
}

static int unix_open(struct fixture *f)
{
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, sv))
		return neg_errno();
	f->fd = sv[0];
	f->aux[0] = sv[1];
	return 0;
}

static int tmpfs_open(struct fixture *f)
{
	int r = make_file(f, "regular");

	return r ? r : open_path(f, f->path, O_RDWR);
}

#define KIND(n, src, fn, ev, fl, o, t, d, c, ...) \
	{ .name = n, .source = src, .poll_fn = fn, .event = ev, .flags = fl, \
	  .open = o, .trigger = t, .drain = d, .close = c, __VA_ARGS__ }

const struct kind kinds[] = {
	KIND("eventfd", "fs/eventfd.c", "eventfd_poll", POLLIN, 0,
	     eventfd_open, eventfd_trigger, eventfd_drain, generic_close),
	KIND("timerfd", "fs/timerfd.c", "timerfd_poll", POLLIN, 0,
	     timerfd_open, timerfd_trigger, timerfd_drain, generic_close),
	KIND("epoll", "fs/eventpoll.c", "ep_eventpoll_poll", POLLIN, 0,
	     epoll_open, epoll_trigger, epoll_drain, generic_close),
	KIND("inotify", "fs/notify/inotify/inotify_user.c", "inotify_poll", POLLIN, K_DUP_BENCH,
	     inotify_open, touch_trigger, inotify_drain, file_close),
	KIND("fanotify", "fs/notify/fanotify/fanotify_user.c", "fanotify_poll", POLLIN, K_DUP_BENCH,
	     fanotify_open, fanotify_trigger, fanotify_drain, file_close),
	KIND("io_uring", "io_uring/io_uring.c", "io_uring_poll", POLLIN, K_DUP_BENCH,
	     iouring_open, iouring_trigger, iouring_drain, iouring_close),
	KIND("pidfd", "fs/pidfs.c", "pidfd_poll", POLLIN, K_NO_DRAIN | K_DUP_BENCH,
	     pidfd_open_kind, child_trigger, NULL, child_close),
	KIND("userfaultfd", "fs/userfaultfd.c", "userfaultfd_poll", POLLIN, K_THREAD | K_DUP_BENCH,
	     uffd_open, uffd_trigger, uffd_drain, uffd_close),
	KIND("hidraw", "drivers/hid/hidraw.c", "hidraw_poll", POLLIN, K_DUP_BENCH,
	     hidraw_open, hidraw_trigger, dev_drain, dev_close),
	KIND("evdev", "drivers/input/evdev.c", "evdev_poll", POLLIN, K_DUP_BENCH,
	     evdev_open, mouse_trigger, dev_drain, dev_close),
	KIND("mousedev", "drivers/input/mousedev.c", "mousedev_poll", POLLIN, K_DUP_BENCH,
	     mousedev_open, mouse_trigger, dev_drain, dev_close),
	KIND("joydev", "drivers/input/joydev.c", "joydev_poll", POLLIN, K_DUP_BENCH,
	     joydev_open, joystick_trigger, dev_drain, dev_close),
	KIND("hid-sensor", "drivers/hid/hid-sensor-custom.c", "hid_sensor_custom_poll", POLLIN, K_DUP_BENCH,
	     hid_sensor_open, hidraw_trigger, dev_drain, dev_close, .kconfig = "UHID"),
	KIND("hidraw-unplugged", "drivers/hid/hidraw.c", "hidraw_poll", POLLHUP,
	     K_NO_DRAIN | K_TEARDOWN | K_DUP_BENCH, hidraw_open, uhid_unplug, NULL, dev_close),
	KIND("evdev-unplugged", "drivers/input/evdev.c", "evdev_poll", POLLHUP,
	     K_NO_DRAIN | K_TEARDOWN | K_DUP_BENCH, evdev_open, uhid_unplug, NULL, dev_close),
	KIND("mousedev-unplugged", "drivers/input/mousedev.c", "mousedev_poll", POLLHUP,
	     K_NO_DRAIN | K_TEARDOWN | K_DUP_BENCH, mousedev_open, uhid_unplug, NULL, dev_close),
	KIND("joydev-unplugged", "drivers/input/joydev.c", "joydev_poll", POLLHUP,
	     K_NO_DRAIN | K_TEARDOWN | K_DUP_BENCH, joydev_open, uhid_unplug, NULL, dev_close),
	KIND("uinput", "drivers/input/misc/uinput.c", "uinput_poll", POLLIN, K_DUP_BENCH,
	     uinput_open, uinput_trigger, dev_drain, dev_close),
	KIND("uleds", "drivers/leds/uleds.c", "uleds_poll", POLLIN, K_DUP_BENCH,
	     uleds_open, uleds_trigger, dev_drain, dev_close),
	KIND("snd-timer", "sound/core/timer.c", "snd_timer_user_poll", POLLIN, K_DUP_BENCH,
	     snd_timer_open, snd_timer_trigger, dev_drain, dev_close),
	KIND("vhci", "drivers/bluetooth/hci_vhci.c", "vhci_poll", POLLOUT, K_ALWAYS_READY | K_DUP_BENCH,
	     vhci_open, nothing, NULL, dev_close),
	KIND("rfkill", "net/rfkill/core.c", "rfkill_fop_poll", POLLOUT, K_ALWAYS_READY | K_DUP_BENCH,
	     rfkill_open, nothing, NULL, dev_close),
	KIND("vhci-event", "drivers/bluetooth/hci_vhci.c", "vhci_poll", POLLIN, K_DUP_BENCH,
	     vhci_event_open, vhci_event_trigger, dev_drain, dev_close),
	KIND("rfkill-event", "net/rfkill/core.c", "rfkill_fop_poll", POLLIN, K_DUP_BENCH,
	     rfkill_event_open, rfkill_event_trigger, dev_drain, dev_close, .kconfig = "BT_HCIVHCI"),
	KIND("rtc", "drivers/rtc/dev.c", "rtc_dev_poll", POLLIN, K_DUP_BENCH,
	     rtc_open, rtc_trigger, rtc_drain, dev_close),
	KIND("mqueue", "ipc/mqueue.c", "mqueue_poll_file", POLLIN, K_DUP_BENCH,
	     mqueue_open, mqueue_trigger, mqueue_drain, generic_close),
	KIND("random", "drivers/char/random.c", "random_poll", POLLIN, K_ALWAYS_READY,
	     random_open, nothing, NULL, generic_close),
	KIND("urandom", "drivers/char/random.c", "-", POLLIN, K_ALWAYS_READY | K_NO_EPOLL,
	     urandom_open, nothing, NULL, generic_close),
	KIND("kmsg", "kernel/printk/printk.c", "devkmsg_poll", POLLIN, K_DUP_BENCH,
	     kmsg_open, kmsg_trigger, kmsg_drain, generic_close),
	KIND("perf", "kernel/events/core.c", "perf_poll", POLLHUP, K_NO_DRAIN | K_DUP_BENCH,
	     perf_open, child_trigger, NULL, child_close),
	KIND("seccomp", "kernel/seccomp.c", "seccomp_notify_poll", POLLIN, K_DUP_BENCH,
	     seccomp_open, child_trigger, seccomp_drain, seccomp_close),
	KIND("uhid", "drivers/hid/uhid.c", "uhid_char_poll", POLLIN, K_DUP_BENCH,
	     uhid_open, uhid_trigger, uhid_drain, generic_close),
	KIND("sync_file", "drivers/dma-buf/sync_file.c", "sync_file_poll", POLLIN, K_NO_DRAIN | K_DUP_BENCH,
	     sync_file_open, sync_file_trigger, NULL, sw_close, .kconfig = "SW_SYNC"),
	KIND("vtpm-proxy", "drivers/char/tpm/tpm_vtpm_proxy.c", "vtpm_proxy_fops_poll", POLLIN, K_DUP_BENCH,
	     vtpm_proxy_open, vtpm_proxy_trigger, vtpm_proxy_drain, sw_close),
	KIND("tpm-dev", "drivers/char/tpm/tpm-dev.c", "tpm_common_poll", POLLIN, K_DUP_BENCH,
	     tpm_open, tpm_trigger, tpm_drain, tpm_close, .kconfig = "TCG_VTPM_PROXY"),
	KIND("tpmrm-dev", "drivers/char/tpm/tpmrm-dev.c", "tpm_common_poll", POLLIN, K_DUP_BENCH,
	     tpmrm_open, tpm_trigger, tpm_drain, tpm_close, .kconfig = "TCG_VTPM_PROXY"),
	KIND("lirc", "drivers/media/rc/lirc_dev.c", "lirc_poll", POLLIN, K_DUP_BENCH,
	     lirc_open, lirc_trigger, dev_drain, sw_close, .kconfig = "RC_LOOPBACK"),
	KIND("pps", "drivers/pps/pps.c", "pps_cdev_poll", POLLIN, K_DUP_BENCH,
	     pps_open, pps_trigger, pps_drain, sw_close, .kconfig = "PPS_CLIENT_KTIMER"),
	KIND("qrtr-tun", "net/qrtr/tun.c", "qrtr_tun_poll", POLLIN, K_DUP_BENCH,
	     qrtr_tun_open, qrtr_tun_trigger, dev_drain, sw_close),
	KIND("userio", "drivers/input/serio/userio.c", "userio_char_poll", POLLIN, K_DUP_BENCH,
	     userio_open, userio_trigger, dev_drain, sw_close, .kconfig = "SERIO_RAW"),
	KIND("serio_raw", "drivers/input/serio/serio_raw.c", "serio_raw_poll", POLLIN, K_DUP_BENCH,
	     serio_raw_open, serio_raw_trigger, dev_drain, sw_close, .kconfig = "USERIO"),
	KIND("serio_raw-unplugged", "drivers/input/serio/serio_raw.c", "serio_raw_poll", POLLHUP,
	     K_NO_DRAIN | K_TEARDOWN | K_DUP_BENCH, serio_raw_unplugged_open, helper_unplug, NULL, sw_close,
	     .kconfig = "USERIO"),
	KIND("cec", "drivers/media/cec/core/cec-api.c", "cec_poll", POLLPRI, K_DUP_BENCH,
	     cec_open, cec_trigger, cec_drain, sw_close, .kconfig = "SERIO_SERPORT USB_PULSE8_CEC"),
	KIND("cec-unplugged", "drivers/media/cec/core/cec-api.c", "cec_poll", POLLHUP,
	     K_NO_DRAIN | K_TEARDOWN | K_DUP_BENCH, cec_open, helper_unplug, NULL, sw_close,
	     .kconfig = "SERIO_SERPORT USB_PULSE8_CEC"),
	KIND("hid-debug", "drivers/hid/hid-debug.c", "hid_debug_events_poll", POLLIN, K_DUP_BENCH,
	     hid_debug_open, hidraw_trigger, dev_drain, dev_close, .kconfig = "UHID"),
	KIND("mcelog", "arch/x86/kernel/cpu/mce/dev-mcelog.c", "mce_chrdev_poll", POLLIN, K_DUP_BENCH,
	     mcelog_open, mcelog_trigger, mcelog_drain, sw_close, .kconfig = "X86_MCE_INJECT"),
	KIND("softsynth", "drivers/accessibility/speakup/speakup_soft.c", "softsynth_poll", POLLIN, K_DUP_BENCH,
	     softsynth_open, softsynth_trigger, dev_drain, sw_close),
	KIND("softsynthu", "drivers/accessibility/speakup/speakup_soft.c", "softsynth_poll", POLLIN, K_DUP_BENCH,
	     softsynthu_open, softsynth_trigger, dev_drain, sw_close),
	KIND("drm-card", "drivers/gpu/drm/drm_file.c", "drm_poll", POLLIN, K_DUP_BENCH,
	     drm_card_open, drm_card_trigger, dev_drain, sw_close, .kconfig = "DRM_VKMS"),
	KIND("gpio-line", "drivers/gpio/gpiolib-cdev.c", "linereq_poll", POLLIN, K_DUP_BENCH | K_NO_AIO,
	     gpio_line_open, gpio_edge_trigger, dev_drain, sw_close, .kconfig = "GPIO_MOCKUP DEBUG_FS"),
	KIND("gpio-event", "drivers/gpio/gpiolib-cdev.c", "lineevent_poll", POLLIN, K_DUP_BENCH | K_NO_AIO,
	     gpio_event_open, gpio_edge_trigger, dev_drain, sw_close, .kconfig = "GPIO_MOCKUP GPIO_CDEV_V1 DEBUG_FS"),
	KIND("gpio-chip", "drivers/gpio/gpiolib-cdev.c", "lineinfo_watch_poll", POLLIN, K_DUP_BENCH | K_NO_AIO,
	     gpio_chip_open, gpio_chip_trigger, dev_drain, sw_close, .kconfig = "GPIO_MOCKUP DEBUG_FS"),
	KIND("drm-crc", "drivers/gpu/drm/drm_debugfs_crc.c", "crtc_crc_poll", POLLIN, K_DUP_BENCH,
	     drm_crc_open, drm_crc_trigger, dev_drain, sw_close, .kconfig = "DRM_VKMS"),
	KIND("orangefs", "fs/orangefs/devorangefs-req.c", "orangefs_devreq_poll", POLLIN, K_DUP_BENCH,
	     orangefs_open, orangefs_trigger, orangefs_drain, orangefs_close),
	KIND("tty-hung-up", "drivers/tty/tty_io.c", "hung_up_tty_poll", POLLIN,
	     K_NO_DRAIN | K_THREAD | K_MULTI_HEAD | K_TEARDOWN | K_DUP_BENCH,
	     pty_open, tty_hung_up_trigger, NULL, generic_close),
	KIND("snd-disconnected", "sound/core/init.c", "snd_disconnect_poll", POLLERR,
	     K_NO_DRAIN | K_THREAD | K_TEARDOWN | K_DUP_BENCH,
	     snd_disconnected_open, snd_disconnected_trigger, NULL, snd_disconnected_close, .kconfig = "SND_DUMMY"),
	KIND("dm-control", "drivers/md/dm-ioctl.c", "dm_poll", POLLIN, K_DUP_BENCH,
	     dm_control_open, dm_control_trigger, dm_control_drain, generic_close),
	KIND("ipmi", "drivers/char/ipmi/ipmi_devintf.c", "ipmi_poll", POLLIN, K_DUP_BENCH,
	     ipmi_open, ipmi_trigger, ipmi_drain, generic_close, .kconfig = "IPMI_SI"),
	KIND("ipmi-watchdog", "drivers/char/ipmi/ipmi_watchdog.c", "ipmi_poll", POLLIN, K_DUP_BENCH,
	     ipmi_watchdog_open, ipmi_watchdog_trigger, ipmi_watchdog_drain, ipmi_watchdog_close,
	     .kconfig = "IPMI_SI"),
	KIND("virtio-console", "drivers/char/virtio_console.c", "port_fops_poll", POLLIN, K_DUP_BENCH,
	     virtio_console_open, virtio_console_trigger, virtio_console_drain, generic_close,
	     .kconfig = "VIRTIO_PCI"),
	KIND("usbfs", "drivers/usb/core/devio.c", "usbdev_poll", POLLOUT, K_DUP_BENCH,
	     usbfs_open, usbfs_trigger, usbfs_drain, generic_close, .kconfig = "USB_XHCI_HCD"),
	KIND("virtio-console-unplugged", "drivers/char/virtio_console.c", "port_fops_poll", POLLHUP,
	     K_NO_DRAIN | K_TEARDOWN | K_DUP_BENCH, virtio_console_unplugged_open, pci_unbind_trigger, NULL,
	     pci_rebind_close, .kconfig = "VIRTIO_PCI"),
	KIND("usbfs-unplugged", "drivers/usb/core/devio.c", "usbdev_poll", POLLHUP,
	     K_NO_DRAIN | K_TEARDOWN | K_DUP_BENCH, usbfs_unplugged_open, pci_unbind_trigger, NULL,
	     pci_rebind_close, .kconfig = "USB_XHCI_HCD"),
	KIND("hiddev", "drivers/hid/usbhid/hiddev.c", "hiddev_poll", POLLIN, K_DUP_BENCH,
	     hiddev_open, hiddev_trigger, dev_drain, hiddev_close, .kconfig = "USB_DUMMY_HCD USB_CONFIGFS_F_HID"),
	KIND("hiddev-unplugged", "drivers/hid/usbhid/hiddev.c", "hiddev_poll", POLLHUP,
	     K_NO_DRAIN | K_TEARDOWN | K_DUP_BENCH, hiddev_open, hiddev_unplug, NULL, hiddev_close,
	     .kconfig = "USB_DUMMY_HCD USB_CONFIGFS_F_HID"),
	KIND("roccat", "drivers/hid/hid-roccat.c", "roccat_poll", POLLIN, K_DUP_BENCH | K_NO_DEBUG,
	     roccat_open, roccat_trigger, dev_drain, hiddev_close,
	     .kconfig = "HID_ROCCAT USB_HID USB_DUMMY_HCD USB_CONFIGFS_F_HID"),
	KIND("roccat-unplugged", "drivers/hid/hid-roccat.c", "roccat_poll", POLLHUP,
	     K_NO_DRAIN | K_TEARDOWN | K_DUP_BENCH, roccat_open, hiddev_unplug, NULL, hiddev_close,
	     .kconfig = "HID_ROCCAT USB_HID USB_DUMMY_HCD USB_CONFIGFS_F_HID"),
	KIND("functionfs", "drivers/usb/gadget/function/f_fs.c", "ffs_ep0_poll", POLLIN, K_DUP_BENCH,
	     functionfs_open, functionfs_trigger, functionfs_drain, functionfs_close,
	     .kconfig = "USB_DUMMY_HCD USB_CONFIGFS_F_FS"),
	KIND("gnss", "drivers/gnss/core.c", "gnss_poll", POLLIN, K_DUP_BENCH,
	     gnss_open, gnss_trigger, dev_drain, gnss_close, .kconfig = "GNSS_USB USB_DUMMY_HCD USB_CONFIGFS_F_FS"),
	KIND("gnss-unplugged", "drivers/gnss/core.c", "gnss_poll", POLLHUP, K_NO_DRAIN | K_TEARDOWN | K_DUP_BENCH,
	     gnss_open, gnss_unplug, NULL, gnss_close, .kconfig = "GNSS_USB USB_DUMMY_HCD USB_CONFIGFS_F_FS"),
	KIND("vhost-vsock", "drivers/vhost/vsock.c", "vhost_vsock_chr_poll", POLLIN, K_DUP_BENCH,
	     vhost_vsock_open, vhost_trigger, dev_drain, vhost_close),
	KIND("vhost-net", "drivers/vhost/net.c", "vhost_net_chr_poll", POLLIN, K_DUP_BENCH,
	     vhost_net_open, vhost_trigger, dev_drain, vhost_close, .kconfig = "PACKET"),
	KIND("vga-arbiter", "drivers/pci/vgaarb.c", "vga_arb_fpoll", POLLIN, K_ALWAYS_READY | K_DUP_BENCH,
	     vga_arbiter_open, nothing, NULL, generic_close),
	KIND("ppdev", "drivers/char/ppdev.c", "pp_poll", POLLIN, K_DUP_BENCH,
	     ppdev_open, ppdev_trigger, ppdev_drain, generic_close, .kconfig = "PARPORT_PC"),
	KIND("proc-mounts", "fs/proc_namespace.c", "mounts_poll", POLLPRI, K_CONSUMED | K_DUP_BENCH,
	     mounts_open, mounts_trigger, NULL, mounts_close),
	KIND("sysfs", "fs/kernfs/file.c", "kernfs_fop_poll", POLLIN, K_ALWAYS_READY | K_DUP_BENCH,
	     kernfs_open, nothing, NULL, generic_close),
	KIND("signalfd", "fs/signalfd.c", "signalfd_poll", POLLIN, K_UNCONVERTIBLE | K_DUP_BENCH,
	     signalfd_open, signalfd_trigger, signalfd_drain, signalfd_close,
	     .known_check = "aio IOCB_CMD_POLL woken by",
	     .known_reason = "signalfd polls current's signals, and aio re-polls from a kworker"),
	KIND("pipe", "fs/pipe.c", "pipe_poll", POLLIN, K_UNCONVERTIBLE,
	     pipe_open, aux_write_trigger, fd_drain, generic_close),
	KIND("pty", "drivers/tty/tty_io.c", "tty_poll", POLLIN, K_UNCONVERTIBLE | K_MULTI_HEAD | K_DUP_BENCH,
	     pty_open, aux_write_trigger, fd_drain, generic_close),
	KIND("unix", "net/socket.c", "sock_poll", POLLIN, K_UNCONVERTIBLE,
	     unix_open, aux_write_trigger, fd_drain, generic_close),
	KIND("tmpfs", "mm/shmem.c", "-", POLLIN, K_ALWAYS_READY | K_NO_EPOLL,
	     tmpfs_open, nothing, NULL, file_close),
};

const size_t nr_kinds = sizeof(kinds) / sizeof(kinds[0]);
