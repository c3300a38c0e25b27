// SPDX-License-Identifier: GPL-2.0
/*
 * swkinds.c - the kinds whose file a software backend provides, no
 * hardware behind it; kinds.c lists them in its table with the Kconfig
 * symbols of their backend (struct kind's kconfig), which boot-test
 * enables when the series converts the kind's ->poll:
 *
 *   sync_file   a fence of a sw_sync timeline (debugfs sync/sw_sync),
 *               signalled by advancing the timeline;
 *   vtpm-proxy, tpm-dev, tpmrm-dev
 *               a TPM 2.0 made through /dev/vtpmx: the proxy descriptor
 *               is readable when the kernel sends the TPM a command,
 *               /dev/tpmN and /dev/tpmrmN when the TPM's answer is there.
 *               A few lines of TPM answer what the kernel asks while it
 *               registers the chip (a TPM with one command, GetRandom,
 *               and no PCR banks);
 *   lirc        /dev/lircN of rc-loopback, which receives what it sends;
 *   pps         /dev/ppsN of pps-ktimer: an event every second;
 *   qrtr-tun    /dev/qrtr-tun: a HELLO written in is answered by the
 *               QRTR name service with a HELLO to read;
 *   userio, serio_raw
 *               a serio port made through /dev/userio, bound to serio_raw
 *               through its drvctl: what one writes the other reads;
 *   serio_raw-unplugged
 *               the same port closed under serio_raw's open file;
 *   cec, cec-unplugged
 *               /dev/cecN of pulse8-cec on a pseudo-terminal (serport),
 *               the adapter's firmware played by a helper process: an
 *               event when the physical address changes; the helper
 *               killed under the open file;
 *   hid-debug   the debugfs "events" file of a uhid-made HID device;
 *   mcelog      /dev/mcelog, readable once a corrected error injected
 *               through it (mce-inject) is logged;
 *   softsynth, softsynthu
 *               speakup's software synthesizer, chosen through
 *               /sys/accessibility/speakup/synth: readable once text was
 *               sent to it through synth_direct;
 *   orangefs    /dev/pvfs2-req, the request device of OrangeFS's client:
 *               readable when the kernel queued a request for the
 *               client.  Reading a service attribute of /sys/fs/orangefs
 *               queues one (its reader waits for the answer, in a process
 *               group of the fixture's, killed at close); reading the
 *               request from the device takes it off the queue.
 *
 * A backend the kernel lacks makes open() fail: the kind is skipped with
 * the reason, on every kernel alike.
 */
#define _GNU_SOURCE
#include "polltest.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>
#include <asm/mce.h>
#include <linux/cec.h>
#include <linux/lirc.h>
#include <linux/pps.h>
#include <linux/userio.h>
#include <linux/vtpm_proxy.h>

#define WAIT_MS 5000

static int counter;

int debugfs_mount(void)
{
	static int done;

	if (!done && mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL) && errno != EBUSY)
		return neg_errno();
	done = 1;
	return 0;
}

void sw_close(struct fixture *f)
{
	if (f->pid > 0) {
		kill(f->pid, SIGKILL);
		while (waitpid(f->pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	f->pid = 0;
	close_all(f);
}

/*
 * The fixture's helper process (f->pid), which plays the device's other
 * end or holds what the file is open on; sw_close() kills it.  As fork():
 * 0 in the helper.
 */
static pid_t helper_fork(struct fixture *f)
{
	fflush(stdout);
	f->pid = fork();
	return f->pid;
}

/* is FD ready for EV within MS milliseconds? */
static bool ready_within(int fd, short ev, int ms)
{
	struct pollfd p = { .fd = fd, .events = ev };

	return poll(&p, 1, ms) == 1 && (p.revents & ev);
}

/*
 * ---- sync_file: a sw_sync fence ----
 * aux[0] is the timeline; the fence is signalled at 1, and stays so.
 */
struct sw_sync_create_fence_data {
	__u32 value;
	char name[32];
	__s32 fence;
};
#define SW_SYNC_IOC_CREATE_FENCE _IOWR('W', 0, struct sw_sync_create_fence_data)
#define SW_SYNC_IOC_INC _IOW('W', 1, __u32)

int sync_file_open(struct fixture *f)
{
	struct sw_sync_create_fence_data d;
	int r = debugfs_mount();

	if (r)
		return r;
	f->aux[0] = open("/sys/kernel/debug/sync/sw_sync", O_RDWR | O_CLOEXEC);
	if (f->aux[0] < 0)
		return neg_errno();
	memset(&d, 0, sizeof(d));
	d.value = 1;
	snprintf(d.name, sizeof(d.name), "polltest");
	if (ioctl(f->aux[0], SW_SYNC_IOC_CREATE_FENCE, &d))
		return neg_errno();
	f->fd = d.fence;
	return 0;
}

int sync_file_trigger(struct fixture *f)
{
	__u32 one = 1;

	return ioctl(f->aux[0], SW_SYNC_IOC_INC, &one) ? neg_errno() : 0;
}

/*
 * ---- a TPM 2.0 through the vTPM proxy ----
 * The answers the kernel needs to register the chip and use it.
 */
#define TPM2_ST_NO_SESSIONS	0x8001
#define TPM2_CC_GET_CAPABILITY	0x017a
#define TPM2_CC_GET_RANDOM	0x017b
#define TPM2_CAP_COMMANDS	2
#define TPM2_CAP_PCRS		5
#define TPM2_CAP_TPM_PROPERTIES	6
/* a vendor command the kernel knows no duration of: it waits 2 minutes for it */
#define TPM2_CC_POLLTEST	0x20000001

static size_t put16(unsigned char *p, unsigned v)
{
	p[0] = (unsigned char)(v >> 8);
	p[1] = (unsigned char)v;
	return 2;
}

static size_t put32(unsigned char *p, unsigned v)
{
	put16(p, v >> 16);
	put16(p + 2, v & 0xffff);
	return 4;
}

static unsigned get32(const unsigned char *p)
{
	return (unsigned)p[0] << 24 | (unsigned)p[1] << 16 | (unsigned)p[2] << 8 | p[3];
}

/* the answer to command CMD (N bytes) in OUT; its length */
static size_t tpm_answer(const unsigned char *cmd, size_t n, unsigned char *out)
{
	unsigned cc = n >= 10 ? get32(cmd + 6) : 0;
	size_t len = 10;

	if (cc == TPM2_CC_GET_CAPABILITY && n >= 22) {
		unsigned cap = get32(cmd + 10), prop = get32(cmd + 14);

		out[len++] = 0;		/* moreData */
		len += put32(out + len, cap);
		if (cap == TPM2_CAP_TPM_PROPERTIES) {	/* TPM_PT_TOTAL_COMMANDS and the rest: 1 */
			len += put32(out + len, 1);
			len += put32(out + len, prop);
			len += put32(out + len, 1);
		} else if (cap == TPM2_CAP_COMMANDS) {	/* GetRandom, no handles */
			len += put32(out + len, 1);
			len += put32(out + len, TPM2_CC_GET_RANDOM);
		} else {				/* no PCR banks, nothing else */
			len += put32(out + len, 0);
		}
	} else if (cc == TPM2_CC_GET_RANDOM) {
		len += put16(out + len, 0);
	}
	put16(out, TPM2_ST_NO_SESSIONS);
	put32(out + 2, (unsigned)len);
	put32(out + 6, 0);	/* TPM_RC_SUCCESS */
	return len;
}

/* answer one command on the proxy PFD within MS: 1, 0 if none came, -errno */
static int tpm_serve_one(int pfd, int ms)
{
	unsigned char cmd[4096], out[64];
	ssize_t n;
	size_t len;

	if (!ready_within(pfd, POLLIN, ms))
		return 0;
	n = read(pfd, cmd, sizeof(cmd));
	if (n < 0)
		return errno == EAGAIN ? 0 : neg_errno();
	len = tpm_answer(cmd, (size_t)n, out);
	return write(pfd, out, len) == (ssize_t)len ? 1 : neg_errno();
}

/*
 * A new vTPM: the proxy in *PFD, its number in *NUM; the commands of its
 * registration answered until /dev/tpmN (and /dev/tpmrmN) can be opened
 * and no command comes for 100 ms.
 */
static int vtpm_new(int *pfd, unsigned *num)
{
	struct vtpm_proxy_new_dev nd;
	char tpm[32], tpmrm[32];
	int x, r = 0, t;

	x = open("/dev/vtpmx", O_RDWR | O_CLOEXEC);
	if (x < 0)
		return neg_errno();
	memset(&nd, 0, sizeof(nd));
	nd.flags = VTPM_PROXY_FLAG_TPM2;
	if (ioctl(x, VTPM_PROXY_IOC_NEW_DEV, &nd)) {
		r = neg_errno();
		close(x);
		return r;
	}
	close(x);
	*pfd = (int)nd.fd;
	*num = nd.tpm_num;
	if (fcntl(*pfd, F_SETFD, FD_CLOEXEC) || fcntl(*pfd, F_SETFL, O_RDWR | O_NONBLOCK))
		return neg_errno();
	snprintf(tpm, sizeof(tpm), "/dev/tpm%u", *num);
	snprintf(tpmrm, sizeof(tpmrm), "/dev/tpmrm%u", *num);
	for (t = 0; t < WAIT_MS / 10; t++) {
		r = tpm_serve_one(*pfd, 10);
		if (r < 0)
			return r;
		if (!r && access(tpm, F_OK) == 0 && access(tpmrm, F_OK) == 0)
			break;
	}
	if (t == WAIT_MS / 10)
		return -ETIMEDOUT;
	while ((r = tpm_serve_one(*pfd, 100)) > 0)
		;
	return r;
}

/* the proxy: fd; /dev/tpmN, where the trigger writes: aux[0] */
int vtpm_proxy_open(struct fixture *f)
{
	char path[32];
	unsigned num;
	int r = vtpm_new(&f->fd, &num);

	if (r)
		return r;
	snprintf(path, sizeof(path), "/dev/tpm%u", num);
	f->aux[0] = open_node(path, O_RDWR | O_NONBLOCK);
	return f->aux[0] < 0 ? neg_errno() : 0;
}

static int tpm_send(int fd, unsigned cc)
{
	unsigned char cmd[12];
	size_t n = 10;

	put16(cmd, TPM2_ST_NO_SESSIONS);
	if (cc == TPM2_CC_GET_RANDOM)
		n += put16(cmd + n, 8);
	put32(cmd + 2, (unsigned)n);
	put32(cmd + 6, cc);
	return write(fd, cmd, n) == (ssize_t)n ? 0 : neg_errno();
}

/* a command the kernel passes to the TPM, asynchronously (O_NONBLOCK) */
int vtpm_proxy_trigger(struct fixture *f)
{
	return tpm_send(f->aux[0], TPM2_CC_POLLTEST);
}

/* answer the command, then read its answer from /dev/tpmN */
int vtpm_proxy_drain(struct fixture *f)
{
	unsigned char buf[4096];
	int r;

	while ((r = tpm_serve_one(f->fd, 0)) > 0)
		;
	if (r < 0)
		return r;
	if (!ready_within(f->aux[0], POLLIN, WAIT_MS))
		return -ETIMEDOUT;
	return read(f->aux[0], buf, sizeof(buf)) > 0 ? 0 : neg_errno();
}

/*
 * /dev/tpmN or /dev/tpmrmN (fd); the proxy (aux[0]) is served by a child
 * process (pid), which answers every command at once.
 */
static int tpm_dev_open(struct fixture *f, const char *fmt)
{
	char path[32];
	unsigned num;
	int r = vtpm_new(&f->aux[0], &num);

	if (r)
		return r;
	if (helper_fork(f) < 0)
		return neg_errno();
	if (f->pid == 0) {
		while (tpm_serve_one(f->aux[0], 1000) >= 0)
			;
		_exit(0);
	}
	snprintf(path, sizeof(path), fmt, num);
	f->fd = open_node(path, O_RDWR | O_NONBLOCK);
	return f->fd < 0 ? neg_errno() : 0;
}

int tpm_open(struct fixture *f)
{
	return tpm_dev_open(f, "/dev/tpm%u");
}

int tpmrm_open(struct fixture *f)
{
	return tpm_dev_open(f, "/dev/tpmrm%u");
}

int tpm_trigger(struct fixture *f)
{
	return tpm_send(f->fd, TPM2_CC_GET_RANDOM);
}

int tpm_drain(struct fixture *f)
{
	unsigned char buf[4096];

	return read(f->fd, buf, sizeof(buf)) >= 0 ? 0 : neg_errno();
}

/*
 * The server first, then the proxy: a command still waiting fails at once
 * (closing /dev/tpmN first would wait for it).
 */
void tpm_close(struct fixture *f)
{
	int fd = f->fd;

	f->fd = -1;
	sw_close(f);
	if (fd >= 0)
		close(fd);
}

/*
 * ---- /dev/lircN of rc-loopback ----
 * A pulse sent comes back as a pulse received, then a timeout.
 */
static bool uevent_loopback(const char *text, const void *arg)
{
	(void)arg;
	return strstr(text, "DRV_NAME=rc-loopback") != NULL;
}

static bool any_text(const char *text, const void *arg)
{
	(void)text;
	(void)arg;
	return true;
}

/* /dev/<name> of the entry PREFIX<n> of sysfs directory DIR, opened */
static int open_child_node(const char *dir, const char *prefix)
{
	char name[64], path[160];
	int fd, r = find_entry(dir, prefix, "dev", any_text, NULL, name, sizeof(name));

	if (r)
		return r;
	snprintf(path, sizeof(path), "/dev/%s", name);
	fd = open_node(path, O_RDWR | O_NONBLOCK);
	return fd < 0 ? neg_errno() : fd;
}

int lirc_open(struct fixture *f)
{
	char rc[64], dir[160];
	unsigned mode = LIRC_MODE_MODE2;
	int r = find_entry("/sys/class/rc", "rc", "uevent", uevent_loopback, NULL, rc, sizeof(rc));

	if (r)
		return r;
	snprintf(dir, sizeof(dir), "/sys/class/rc/%s", rc);
	f->fd = open_child_node(dir, "lirc");
	if (f->fd < 0)
		return f->fd;
	if (ioctl(f->fd, LIRC_SET_REC_MODE, &mode))
		return neg_errno();
	return drain_fd(f->fd);
}

int lirc_trigger(struct fixture *f)
{
	unsigned pulse = 100;	/* microseconds */

	return write(f->fd, &pulse, sizeof(pulse)) == sizeof(pulse) ? 0 : neg_errno();
}

/*
 * ---- /dev/ppsN of pps-ktimer: an assert event every second ----
 * Readable while an event has not been fetched.  The trigger waits for
 * the next event (its sequence number in sysfs), so that the one after
 * is a second away; a fetch with no timeout drains.  path: the
 * device's sysfs "assert" file.
 */
static bool name_ktimer(const char *text, const void *arg)
{
	(void)arg;
	return !strcmp(text, "ktimer\n");
}

static long pps_sequence(const char *path)
{
	char buf[96], *hash;

	if (read_text(path, buf, sizeof(buf)))
		return -1;
	hash = strchr(buf, '#');
	return hash ? strtol(hash + 1, NULL, 10) : -1;
}

int pps_trigger(struct fixture *f)
{
	long s0 = pps_sequence(f->path), s;

	if (s0 < 0)
		return -EIO;
	for (int t = 0; t < 300; t++) {
		usleep(10000);
		s = pps_sequence(f->path);
		if (s < 0)
			return -EIO;
		if (s != s0)
			return 0;
	}
	return -ETIMEDOUT;
}

int pps_drain(struct fixture *f)
{
	struct pps_fdata d;

	memset(&d, 0, sizeof(d));	/* a zero timeout: no waiting */
	return ioctl(f->fd, PPS_FETCH, &d) ? neg_errno() : 0;
}

int pps_open(struct fixture *f)
{
	char name[64], path[160];
	int r = find_entry("/sys/class/pps", "pps", "name", name_ktimer, NULL, name, sizeof(name));

	if (r)
		return r;
	snprintf(f->path, sizeof(f->path), "/sys/class/pps/%s/assert", name);
	snprintf(path, sizeof(path), "/dev/%s", name);
	f->fd = open_node(path, O_RDWR | O_NONBLOCK);
	if (f->fd < 0)
		return neg_errno();
	/* just after an event, fetched: not ready for a second */
	r = pps_trigger(f);
	return r ? r : pps_drain(f);
}

/*
 * ---- /dev/qrtr-tun: a QRTR endpoint in userspace ----
 * The trigger writes a HELLO from the endpoint's node to the control
 * port; the name service answers with a HELLO, to be read.  Every
 * fixture is another node.
 */
struct qrtr_hdr_v1 {
	__u32 version, type, src_node_id, src_port_id, confirm_rx, size, dst_node_id, dst_port_id;
};
#define QRTR_TYPE_HELLO		2
#define QRTR_PORT_CTRL_ID	0xfffffffeu
#define QRTR_NODE_BCAST_ID	0xffffffffu

int qrtr_tun_open(struct fixture *f)
{
	f->fd = open("/dev/qrtr-tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (f->fd < 0)
		return neg_errno();
	f->priv = (void *)(intptr_t)(1000 + counter++ % 30000);	/* the node */
	return 0;
}

int qrtr_tun_trigger(struct fixture *f)
{
	struct {
		struct qrtr_hdr_v1 h;
		__u32 cmd, payload[4];
	} p;

	memset(&p, 0, sizeof(p));
	p.h.version = 1;	/* little-endian fields: x86 */
	p.h.type = QRTR_TYPE_HELLO;
	p.h.src_node_id = (__u32)(intptr_t)f->priv;
	p.h.src_port_id = QRTR_PORT_CTRL_ID;
	p.h.size = sizeof(p) - sizeof(p.h);
	p.h.dst_node_id = QRTR_NODE_BCAST_ID;
	p.h.dst_port_id = QRTR_PORT_CTRL_ID;
	p.cmd = QRTR_TYPE_HELLO;
	return write(f->fd, &p, sizeof(p)) == sizeof(p) ? 0 : neg_errno();
}

/*
 * ---- a serio port through /dev/userio, bound to serio_raw ----
 * The port is an 8042 in XLATE mode: atkbd tries it first (and fails,
 * nothing answers), psmouse does not.  serio_raw binds only when told
 * (drvctl).  What is written to /dev/serio_rawN the port sends: userio
 * reads it; an interrupt sent through userio: serio_raw reads it.
 */
#define SERIO_8042_XL_TYPE 0x06

static bool no_description(const char *text, const void *arg)
{
	(void)arg;
	return !strcmp(text, "\n");	/* userio's ports have no name */
}

/* *UIO: /dev/userio, *RAW: /dev/serio_rawN of its port */
static int userio_port(int *uio, int *raw)
{
	struct userio_cmd c[2] = { { USERIO_CMD_SET_PORT_TYPE, SERIO_8042_XL_TYPE }, { USERIO_CMD_REGISTER, 0 } };
	char port[64], dir[160], path[160];
	int fd, r;

	*uio = open("/dev/userio", O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (*uio < 0)
		return neg_errno();
	for (int i = 0; i < 2; i++)
		if (write(*uio, &c[i], sizeof(c[i])) != sizeof(c[i]))
			return neg_errno();
	r = find_entry("/sys/bus/serio/devices", "serio", "description", no_description, NULL, port, sizeof(port));
	if (r)
		return r;
	snprintf(path, sizeof(path), "/sys/bus/serio/devices/%s/drvctl", port);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return neg_errno();
	r = write(fd, "serio_raw", 9) == 9 ? 0 : neg_errno();
	close(fd);
	if (r)
		return r;
	snprintf(dir, sizeof(dir), "/sys/bus/serio/devices/%s/misc", port);
	*raw = open_child_node(dir, "serio_raw");
	if (*raw < 0)
		return *raw;
	/* what atkbd sent while it tried the port */
	r = drain_fd(*uio);
	return r ? r : drain_fd(*raw);
}

/* /dev/userio: fd; /dev/serio_rawN: aux[0] */
int userio_open(struct fixture *f)
{
	return userio_port(&f->fd, &f->aux[0]);
}

int userio_trigger(struct fixture *f)
{
	return write(f->aux[0], "\xf4", 1) == 1 ? 0 : neg_errno();
}

/* /dev/serio_rawN: fd; /dev/userio: aux[0] */
int serio_raw_open(struct fixture *f)
{
	return userio_port(&f->aux[0], &f->fd);
}

int serio_raw_trigger(struct fixture *f)
{
	struct userio_cmd c = { USERIO_CMD_SEND_INTERRUPT, 0xfa };

	return write(f->aux[0], &c, sizeof(c)) == sizeof(c) ? 0 : neg_errno();
}

/*
 * ---- serio_raw-unplugged: the userio port closed under serio_raw ----
 * The port's /dev/userio is held by a helper process alone: killing it
 * closes the port, serio_raw's device goes away under the open file and
 * reports a hang-up.  fd: /dev/serio_rawN; pid: the helper.
 */
int serio_raw_unplugged_open(struct fixture *f)
{
	int r = userio_port(&f->aux[0], &f->fd);

	if (r)
		return r;
	if (helper_fork(f) < 0)
		return neg_errno();
	if (f->pid == 0)
		for (;;)
			pause();
	close(f->aux[0]);
	f->aux[0] = -1;
	return 0;
}

/*
 * The trigger of the kinds whose device a helper process holds (f->pid):
 * the helper killed, and the hang-up waited for, so that the waker's
 * exit does not race the tear-down.
 */
int helper_unplug(struct fixture *f)
{
	if (kill(f->pid, SIGKILL))
		return neg_errno();
	for (int t = 0; t < WAIT_MS / 10; t++) {
		if (ready_fd(f->fd, POLLHUP))
			return 0;
		usleep(10000);
	}
	return -ETIMEDOUT;
}

/*
 * ---- cec: a Pulse-Eight USB-CEC adapter on a pseudo-terminal ----
 * pulse8-cec is a serio driver: serport (the N_MOUSE line discipline)
 * makes a serio port of a tty, SPIOCSTYPE gives it the adapter's type.
 * The adapter's end of the line is a pty whose master a thread of a
 * helper process plays the firmware on: every command (MSGSTART code
 * ... MSGEND) is accepted, the firmware version asked is 1.  The helper
 * holds the line: the kernel's end reads until the port goes away.
 * /dev/cecN has an event (POLLPRI) when the adapter's state changes: the
 * trigger sets a physical address, or takes it away.  cec-unplugged
 * kills the helper: the line hangs up, the adapter is unregistered under
 * the open file, which reports a hang-up.  fd: /dev/cecN; pid: the helper.
 */
#define P8_START		0xff
#define P8_END			0xfe
#define P8_FIRMWARE_VERSION	0x15
#define SERIO_PULSE8_CEC	0x40
#define SPIOCSTYPE		_IOW('q', 0x01, unsigned long)
#define N_MOUSE			2

static void *p8_firmware(void *arg)
{
	static const unsigned char accepted[] = { P8_START, 0x08, P8_END };
	static const unsigned char version[] = { P8_START, P8_FIRMWARE_VERSION, 0x00, 0x01, P8_END };
	int fd = (int)(intptr_t)arg, code = -1;
	unsigned char buf[256];

	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			_exit(n != 0);
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] == P8_START) {
				code = 0x100;	/* the code comes next */
				continue;
			}
			if (buf[i] == P8_END && code >= 0 && code != 0x100) {
				bool v = code == P8_FIRMWARE_VERSION;
				size_t len = v ? sizeof(version) : sizeof(accepted);

				if (write(fd, v ? version : accepted, len) != (ssize_t)len)
					_exit(1);
				code = -1;
				continue;
			}
			if (code == 0x100)
				code = buf[i];
		}
	}
}

static bool pulse8_port(const char *text, const void *arg)
{
	(void)arg;
	return !strcmp(text, "Serial port\n");
}

int cec_open(struct fixture *f)
{
	char port[64], dir[160];
	int r = pty_open(f);

	if (r)
		return r;
	if (helper_fork(f) < 0)
		return neg_errno();
	if (f->pid == 0) {
		int ldisc = N_MOUSE, line = f->fd;
		unsigned long type = SERIO_PULSE8_CEC;
		pthread_t firmware;
		char c;

		if (ioctl(line, TIOCSETD, &ldisc) || ioctl(line, SPIOCSTYPE, &type) ||
		    pthread_create(&firmware, NULL, p8_firmware, (void *)(intptr_t)f->aux[0]))
			_exit(1);
		(void)!read(line, &c, 1);
		_exit(0);
	}
	close_all(f);
	r = find_entry("/sys/bus/serio/devices", "serio", "description", pulse8_port, NULL, port, sizeof(port));
	if (r)
		return r;
	snprintf(dir, sizeof(dir), "/sys/bus/serio/devices/%s", port);
	f->fd = open_child_node(dir, "cec");
	if (f->fd < 0)
		return f->fd;
	/* the events of the adapter's registration */
	return cec_drain(f);
}

int cec_trigger(struct fixture *f)
{
	uint16_t pa;

	if (ioctl(f->fd, CEC_ADAP_G_PHYS_ADDR, &pa))
		return neg_errno();
	pa = pa == CEC_PHYS_ADDR_INVALID ? 0x1000 : CEC_PHYS_ADDR_INVALID;
	return ioctl(f->fd, CEC_ADAP_S_PHYS_ADDR, &pa) ? neg_errno() : 0;
}

int cec_drain(struct fixture *f)
{
	struct cec_event ev;

	for (int i = 0; i < 64; i++)
		if (ioctl(f->fd, CEC_DQEVENT, &ev))
			return errno == EAGAIN ? 0 : neg_errno();
	return -EIO;
}

/*
 * ---- the debugfs "events" file of a HID device ----
 * The hidraw kind's device (devkinds.c): every input report is dumped
 * to the readers of "events".  fd: events; aux[0]: uhid; aux[1]: hidraw.
 */
int hid_debug_open(struct fixture *f)
{
	char link[160], target[256], path[320];
	struct stat st;
	ssize_t n;
	int r = debugfs_mount();

	if (r)
		return r;
	r = hidraw_open(f);
	if (r)
		return r;
	f->aux[1] = f->fd;
	f->fd = -1;
	if (fstat(f->aux[1], &st))
		return neg_errno();
	snprintf(link, sizeof(link), "/sys/dev/char/%u:%u/device", major(st.st_rdev), minor(st.st_rdev));
	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0)
		return neg_errno();
	target[n] = '\0';
	snprintf(path, sizeof(path), "/sys/kernel/debug/hid/%s/events", strrchr(target, '/') ? strrchr(target, '/') + 1 : target);
	f->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	return f->fd < 0 ? neg_errno() : 0;
}

/*
 * ---- /dev/mcelog: a corrected error injected through it ----
 * mce-inject takes what is written to /dev/mcelog, puts it into the
 * fake MCE registers of the CPU named and polls the banks there: the
 * error is logged, and /dev/mcelog readable until read.
 */
#define MCJ_CTX_PROCESS_FLAG	0x1
#define MCI_STATUS_VAL_BIT	(1ULL << 63)
#define MCI_STATUS_EN_BIT	(1ULL << 60)

static bool cpu_has_mca(void)
{
	char buf[8192], *flags;

	if (read_text("/proc/cpuinfo", buf, sizeof(buf)))
		return false;
	flags = strstr(buf, "\nflags");
	return flags && strstr(flags, " mce ") && strstr(flags, " mca ");
}

int mcelog_open(struct fixture *f)
{
	int r = debugfs_mount();

	if (r)
		return r;
	if (access("/sys/kernel/debug/mce-inject", F_OK))
		return -ENOENT;		/* no injector: CONFIG_X86_MCE_INJECT */
	if (!cpu_has_mca())
		return -ENODEV;		/* the CPU has no machine check architecture */
	f->fd = open("/dev/mcelog", O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (f->fd < 0)
		return neg_errno();
	return mcelog_drain(f);
}

int mcelog_trigger(struct fixture *f)
{
	struct mce m;
	int cpu = sched_getcpu();
	cpu_set_t set;

	if (cpu < 0)
		return neg_errno();
	/* the injection polls the banks of the writer's CPU: stay there */
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	memset(&m, 0, sizeof(m));
	m.status = MCI_STATUS_VAL_BIT | MCI_STATUS_EN_BIT | 0x1;	/* corrected */
	m.bank = 1;
	m.extcpu = (__u32)cpu;
	m.cpu = (__u8)cpu;
	m.inject_flags = MCJ_CTX_PROCESS_FLAG;
	return write(f->fd, &m, sizeof(m)) == sizeof(m) ? 0 : neg_errno();
}

/* a read takes the whole log, and needs room for all of it */
int mcelog_drain(struct fixture *f)
{
	int len = 0, rec = 0;
	char *buf;
	ssize_t n;

	if (ioctl(f->fd, MCE_GET_LOG_LEN, &len) || ioctl(f->fd, MCE_GET_RECORD_LEN, &rec))
		return neg_errno();
	buf = malloc((size_t)len * (size_t)rec);
	if (!buf)
		return -ENOMEM;
	n = read(f->fd, buf, (size_t)len * (size_t)rec);
	free(buf);
	return n < 0 ? neg_errno() : 0;
}

/* ---- softsynth, softsynthu ---- */

#define SPEAKUP "/sys/accessibility/speakup"

static int softsynth_node(struct fixture *f, const char *node)
{
	char synth[32];
	int r;

	if (read_text(SPEAKUP "/synth", synth, sizeof(synth)))
		return -ENODEV;	/* no speakup */
	/* the first fixture chooses the soft synthesizer: that makes its nodes */
	if (strcmp(synth, "soft\n") && (r = write_text(SPEAKUP "/synth", "soft\n")))
		return r;
	f->fd = open_node(node, O_RDWR | O_NONBLOCK);
	if (f->fd < 0)
		return neg_errno();
	/* what speakup said when it started, and the synthesizer's init string */
	return drain_fd(f->fd);
}

int softsynth_open(struct fixture *f)
{
	return softsynth_node(f, "/dev/softsynth");
}

int softsynthu_open(struct fixture *f)
{
	return softsynth_node(f, "/dev/softsynthu");
}

int softsynth_trigger(struct fixture *f)
{
	(void)f;
	return write_text(SPEAKUP "/synth_direct", "polltest\n");
}

/* ---- orangefs ---- */

/* the client-core's request for the size of a request (fs/orangefs/protocol.h) */
#define ORANGEFS_DEV_GET_MAX_UPSIZE _IOW('k', 2, int32_t)

static int proc_devices_major(const char *name)
{
	char text[8192], *p;
	size_t n = strlen(name);

	if (read_text("/proc/devices", text, sizeof(text)))
		return -1;
	for (p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		char *sp = strchr(p, ' ');

		if (sp && !strncmp(sp + 1, name, n) && sp[1 + n] == '\n')
			return atoi(p);
		if (!strncmp(p, "Block devices:", 14))
			break;
	}
	return -1;
}

int orangefs_open(struct fixture *f)
{
	int major = proc_devices_major("pvfs2-req");

	if (major < 0)
		return -ENODEV;	/* no OrangeFS */
	snprintf(f->path, sizeof(f->path), "%s/pvfs2-req-%d", tmp_dir(), counter++);
	if (mknod(f->path, S_IFCHR | 0600, makedev((unsigned)major, 0)))
		return neg_errno();
	/* the client must open it non-blocking, and only one may */
	f->fd = open(f->path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (f->fd < 0)
		return neg_errno();
	/* the leader of the requesters' process group */
	f->pid = fork();
	if (f->pid < 0)
		return neg_errno();
	if (f->pid == 0) {
		close_range(3, ~0U, 0);	/* the device is released when the owner closes it */
		setpgid(0, 0);
		for (;;)
			pause();
	}
	setpgid(f->pid, f->pid);
	return 0;
}

int orangefs_trigger(struct fixture *f)
{
	pid_t pid = fork();

	if (pid < 0)
		return neg_errno();
	if (pid == 0) {
		char buf[64];
		int fd;

		close_range(3, ~0U, 0);
		if (setpgid(0, f->pid))
			_exit(1);
		fd = open("/sys/fs/orangefs/perf_history_size", O_RDONLY | O_CLOEXEC);
		/* blocks until the answer that never comes: killed at close */
		if (fd >= 0 && read(fd, buf, sizeof(buf)) < 0)
			_exit(1);
		_exit(0);
	}
	return ready_within(f->fd, POLLIN, WAIT_MS) ? 0 : -ETIMEDOUT;
}

int orangefs_drain(struct fixture *f)
{
	int32_t size = 0;
	char *buf;
	int r = 0;

	if (ioctl(f->fd, ORANGEFS_DEV_GET_MAX_UPSIZE, &size))
		return neg_errno();
	if (size <= 0 || size > 1 << 20)
		return -EPROTO;
	buf = malloc((size_t)size);
	if (!buf)
		return -ENOMEM;
	for (int i = 0; i < 1024 && !r; i++) {
		if (read(f->fd, buf, (size_t)size) >= 0)
			continue;
		r = errno == EAGAIN ? 1 : neg_errno();
	}
	free(buf);
	return r == 1 ? 0 : r ? r : -EIO;
}

void orangefs_close(struct fixture *f)
{
	if (f->pid > 0) {
		/* the requesters die, and take their requests off the queue */
		kill(-f->pid, SIGKILL);
		while (waitpid(-f->pid, NULL, 0) > 0 || errno == EINTR)
			;
		for (int t = 0; t < WAIT_MS / 10 && f->fd >= 0 && ready_fd(f->fd, POLLIN); t++)
			usleep(10000);
	}
	f->pid = 0;
	sw_close(f);
	if (f->path[0])
		unlink(f->path);
	f->path[0] = '\0';
}
