/* SPDX-License-Identifier: GPL-2.0 */
/*
 * polltest.h - the guest program of "polltax boot-test" (tests/boot/).
 *
 * A "kind" is one type of file whose readiness the kernel reports through
 * ->poll (or, after the series, ->poll_mask): eventfd, timerfd, a pipe...
 * Each kind knows how to open a fresh instance (a fixture), how to make it
 * ready (trigger, possibly from another process), and how to make it not
 * ready again (drain).  polltest.c runs the same checks on every kind;
 * bench.c times poll() and epoll_wait() on ready instances.
 */
#ifndef POLLTEST_H
#define POLLTEST_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define MAX_AUX 4

struct fixture {
	int fd;			/* the descriptor under test */
	int aux[MAX_AUX];	/* kind-specific descriptors, -1 when unused */
	pid_t pid;		/* kind-specific process (pidfd, perf), 0 if none */
	pid_t owner;		/* the process that opened the fixture */
	void *priv;		/* kind-specific state */
	char path[96];		/* kind-specific file (inotify, fanotify, mqueue) */
};

enum kind_flags {
	K_ALWAYS_READY	= 1 << 0,	/* no way to make it not ready (/dev/random, regular files) */
	K_NO_DRAIN	= 1 << 1,	/* once ready it stays ready (pidfd, perf after exit) */
	K_CONSUMED	= 1 << 2,	/* ->poll itself consumes the event (/proc/self/mounts) */
	K_THREAD	= 1 << 3,	/* the trigger must run in this mm: another thread, not a process */
	K_NO_EPOLL	= 1 << 4,	/* epoll_ctl refuses it (regular files) */
	K_DUP_BENCH	= 1 << 5,	/* the benchmark polls dup()s of one instance, not distinct ones */
	K_UNCONVERTIBLE	= 1 << 6,	/* documentation: its ->poll must stay (several heads, per-task queue) */
	K_MULTI_HEAD	= 1 << 7,	/* ->poll waits on two queues: aio poll refuses it (EINVAL) */
	K_TEARDOWN	= 1 << 8,	/* the trigger takes away what the file is open on (hang-up, unbind) */
	/*
	 * aio poll not run: the driver takes its queue's lock with
	 * spin_lock() (gpiolib-cdev's kfifo under lr->wait.lock), and aio's
	 * poll takes it under its SOFTIRQ-safe ctx_lock: lockdep reports
	 * that on the unpatched kernel as much as on the patched one
	 */
	K_NO_AIO	= 1 << 9,
	/*
	 * not run on a kernel with lockdep (the boot test's KASAN and lockdep
	 * kernels): its driver sleeps in atomic context on the way to the
	 * wake-up (hid-roccat takes a mutex in the URB's completion), which
	 * such a kernel reports whether or not the series is applied
	 */
	K_NO_DEBUG	= 1 << 10,
};

struct kind {
	const char *name;	/* the file type, as the reports name it */
	const char *source;	/* kernel file with its poll implementation */
	const char *poll_fn;	/* the file_operations .poll function (6.12) */
	short event;		/* the event "ready" means */
	unsigned flags;
	/* 0, or -errno; the kind is skipped when the kernel or the sandbox lacks it */
	int (*open)(struct fixture *f);
	/* make it ready; runs in a child process (or thread with K_THREAD); 0 or -errno */
	int (*trigger)(struct fixture *f);
	/* make it not ready again; NULL with K_ALWAYS_READY or K_NO_DRAIN */
	int (*drain)(struct fixture *f);
	void (*close)(struct fixture *f);
	/* a check (name prefix) that fails on every kernel for a known reason: TAP TODO */
	const char *known_check, *known_reason;
	/*
	 * The Kconfig symbols (without CONFIG_, space-separated) of what
	 * makes the file or makes it ready, beyond the option that builds
	 * the kind's source: the software backend (CONFIG_SW_SYNC for
	 * sync_file, CONFIG_RC_LOOPBACK for lirc).  boot-test enables them
	 * when the series converts the kind's ->poll; NULL: none.
	 */
	const char *kconfig;
};

extern const struct kind kinds[];
extern const size_t nr_kinds;

/* kinds.c */
void fixture_init(struct fixture *f);
int pty_open(struct fixture *f);	/* the slave in fd, the master in aux[0] */
/* common.c */
const char *tmp_dir(void);
int neg_errno(void);		/* -errno, or -EIO when errno is 0 */
void close_all(struct fixture *f);	/* the fixture's fd and aux fds closed, and marked so (-1) */
int set_nonblock(int fd);		/* O_NONBLOCK added to FD's flags; 0 or -errno */
bool ready_fd(int fd, short ev);	/* poll(fd, ev) with no wait */
int write_byte(int fd);		/* 0 or -errno */

/* taskkinds.c: files bound to a task (pidfd, perf, userfaultfd, seccomp) */
void child_close(struct fixture *f);
int child_trigger(struct fixture *f);
int perf_open(struct fixture *f);
int pidfd_open_kind(struct fixture *f);
void seccomp_close(struct fixture *f);
int seccomp_drain(struct fixture *f);
int seccomp_open(struct fixture *f);
void uffd_close(struct fixture *f);
int uffd_drain(struct fixture *f);
int uffd_open(struct fixture *f);
int uffd_trigger(struct fixture *f);

/* gpiokinds.c: the GPIO character device on gpio-mockup's lines */
int gpio_line_open(struct fixture *f);
int gpio_event_open(struct fixture *f);
int gpio_edge_trigger(struct fixture *f);
int gpio_chip_open(struct fixture *f);
int gpio_chip_trigger(struct fixture *f);

/* devkinds.c: devices with no hardware behind them */
void dev_close(struct fixture *f);
int dev_drain(struct fixture *f);
int uhid_unplug(struct fixture *f);
int hidraw_open(struct fixture *f);
int hidraw_trigger(struct fixture *f);
int hid_sensor_open(struct fixture *f);
int evdev_open(struct fixture *f);
int mousedev_open(struct fixture *f);
int mouse_trigger(struct fixture *f);
int joydev_open(struct fixture *f);
int joystick_trigger(struct fixture *f);
int rfkill_open(struct fixture *f);
int vhci_open(struct fixture *f);
int vhci_event_open(struct fixture *f);
int vhci_event_trigger(struct fixture *f);
int rfkill_event_open(struct fixture *f);
int rfkill_event_trigger(struct fixture *f);
int uinput_open(struct fixture *f);
int uinput_trigger(struct fixture *f);
int uleds_open(struct fixture *f);
int uleds_trigger(struct fixture *f);
int snd_timer_open(struct fixture *f);
int snd_timer_trigger(struct fixture *f);
int rtc_open(struct fixture *f);
int rtc_trigger(struct fixture *f);
int rtc_drain(struct fixture *f);
/* helpers for the device kinds: 0 or -1 / -errno as in devkinds.c */
int read_text(const char *path, char *buf, size_t size);
int write_bytes(const char *path, const void *text, size_t n);
int write_text(const char *path, const char *text);
int drain_fd(int fd);
int find_entry(const char *dir, const char *prefix, const char *file,
	       bool (*match)(const char *text, const void *arg), const void *arg,
	       char *name, size_t size);
int open_node(const char *path, int flags);
int await_path(const char *path);

/* swkinds.c: devices made by a software backend (sw_sync, vtpm proxy, ...) */
int debugfs_mount(void);	/* mounted once; 0 or -errno */
void sw_close(struct fixture *f);
int sync_file_open(struct fixture *f);
int sync_file_trigger(struct fixture *f);
int vtpm_proxy_open(struct fixture *f);
int vtpm_proxy_trigger(struct fixture *f);
int vtpm_proxy_drain(struct fixture *f);
int tpm_open(struct fixture *f);
int tpmrm_open(struct fixture *f);
int tpm_trigger(struct fixture *f);
int tpm_drain(struct fixture *f);
void tpm_close(struct fixture *f);
int lirc_open(struct fixture *f);
int lirc_trigger(struct fixture *f);
int pps_open(struct fixture *f);
int pps_trigger(struct fixture *f);
int pps_drain(struct fixture *f);
int qrtr_tun_open(struct fixture *f);
int qrtr_tun_trigger(struct fixture *f);
int userio_open(struct fixture *f);
int userio_trigger(struct fixture *f);
int serio_raw_open(struct fixture *f);
int serio_raw_trigger(struct fixture *f);
int serio_raw_unplugged_open(struct fixture *f);
int helper_unplug(struct fixture *f);
int cec_open(struct fixture *f);
int cec_trigger(struct fixture *f);
int cec_drain(struct fixture *f);
int hid_debug_open(struct fixture *f);
int mcelog_open(struct fixture *f);
int mcelog_trigger(struct fixture *f);
int mcelog_drain(struct fixture *f);
int softsynth_open(struct fixture *f);
int softsynthu_open(struct fixture *f);
int softsynth_trigger(struct fixture *f);
int orangefs_open(struct fixture *f);
int orangefs_trigger(struct fixture *f);
int orangefs_drain(struct fixture *f);
void orangefs_close(struct fixture *f);

/* statekinds.c: files whose ->poll changes with what they are open on; dm's control node */
int tty_hung_up_trigger(struct fixture *f);
int snd_disconnected_open(struct fixture *f);
int snd_disconnected_trigger(struct fixture *f);
void snd_disconnected_close(struct fixture *f);
int dm_control_open(struct fixture *f);
int dm_control_trigger(struct fixture *f);
int dm_control_drain(struct fixture *f);

/* qemukinds.c: devices qemu emulates for the functional boots */
int ipmi_open(struct fixture *f);
int ipmi_trigger(struct fixture *f);
int ipmi_drain(struct fixture *f);
int ipmi_watchdog_open(struct fixture *f);
int ipmi_watchdog_trigger(struct fixture *f);
int ipmi_watchdog_drain(struct fixture *f);
void ipmi_watchdog_close(struct fixture *f);
int virtio_console_open(struct fixture *f);
int virtio_console_trigger(struct fixture *f);
int virtio_console_drain(struct fixture *f);
int usbfs_open(struct fixture *f);
int usbfs_trigger(struct fixture *f);
int usbfs_drain(struct fixture *f);
int vga_arbiter_open(struct fixture *f);
int usbfs_unplugged_open(struct fixture *f);
int virtio_console_unplugged_open(struct fixture *f);
int pci_unbind_trigger(struct fixture *f);
void pci_rebind_close(struct fixture *f);
int ppdev_open(struct fixture *f);
int ppdev_trigger(struct fixture *f);
int ppdev_drain(struct fixture *f);

/* gadgetkinds.c: a USB gadget on dummy_hcd */
int hiddev_open(struct fixture *f);
int hiddev_trigger(struct fixture *f);
int hiddev_unplug(struct fixture *f);
void hiddev_close(struct fixture *f);
int roccat_open(struct fixture *f);
int roccat_trigger(struct fixture *f);
int functionfs_open(struct fixture *f);
int functionfs_trigger(struct fixture *f);
int functionfs_drain(struct fixture *f);
void functionfs_close(struct fixture *f);
int gnss_open(struct fixture *f);
int gnss_trigger(struct fixture *f);
int gnss_unplug(struct fixture *f);
void gnss_close(struct fixture *f);

/* vhostkinds.c: vhost's devices with a device IOTLB */
int vhost_vsock_open(struct fixture *f);
int vhost_net_open(struct fixture *f);
int vhost_trigger(struct fixture *f);
void vhost_close(struct fixture *f);

/* drmkinds.c: vkms */
int drm_crc_open(struct fixture *f);
int drm_crc_trigger(struct fixture *f);
int drm_card_open(struct fixture *f);
int drm_card_trigger(struct fixture *f);

/* rawio.c: io_uring and aio by raw system calls, no liburing */
struct uring;
struct uring *uring_open(unsigned entries, int *err);
void uring_close(struct uring *u);
int uring_fd(const struct uring *u);
/* queue one SQE and submit it; 0 or -errno */
int uring_submit_poll(struct uring *u, int fd, unsigned events, uint64_t tag);
int uring_submit_nop(struct uring *u, uint64_t tag);
/* wait up to timeout_ms for one CQE; 1 with *res and *tag, 0 on timeout, -errno */
int uring_wait_cqe(struct uring *u, int timeout_ms, int32_t *res, uint64_t *tag);
/* CQEs posted and not yet consumed */
unsigned uring_cq_ready(const struct uring *u);
void uring_cq_consume(struct uring *u);

int aio_ctx_open(unsigned long *ctx);
void aio_ctx_close(unsigned long ctx);
int aio_submit_poll(unsigned long ctx, int fd, unsigned events, uint64_t tag);
/* 1 with *res, 0 on timeout, -errno */
int aio_wait(unsigned long ctx, int timeout_ms, int64_t *res);

/* polltest.c and checks.c */
enum result { RES_OK, RES_FAIL, RES_SKIP };

struct outcome {
	enum result r;
	char msg[240];
};

enum need {
	N_NOT_READY = 1 << 0,	/* the kind must have a not-ready state */
	N_DRAIN = 1 << 1,
	N_LEVEL = 1 << 2,	/* ->poll must not consume the event */
	N_EPOLL = 1 << 3,
	N_WAKE = 1 << 4,	/* names end in "woken by another process/thread" */
	N_AIO = 1 << 5,		/* aio IOCB_CMD_POLL */
};

struct check {
	const char *name;	/* N_WAKE: "... woken by" + who() */
	unsigned need;
	void (*fn)(const struct kind *, struct fixture *, struct outcome *);
};

extern const struct check checks[];
extern const size_t nr_checks;
extern int wake_timeout_ms;
__attribute__((format(printf, 2, 3)))
void fail(struct outcome *o, const char *fmt, ...);
void skip(struct outcome *o, const char *why);
/* why check needs NEED do not apply to the kind, or NULL */
const char *not_applicable(const struct kind *k, unsigned need);
const char *who(const struct kind *k);

/* bench.c */
int bench_main(int argc, char **argv);

/* polltest.c */
int kind_selected(const struct kind *k);
/* common.c: -k and -x (comma-separated kind names, or NULL) */
void select_kinds(const char *only, const char *except);
/* common.c: the scratch directory, SIGALRM without restart, SIGPIPE ignored, the crng ready */
void guest_setup(void);
/* common.c: the scratch directory removed */
void guest_cleanup(void);
double now_ns(void);
uint64_t cycles(void);

#endif
