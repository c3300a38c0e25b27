// SPDX-License-Identifier: GPL-2.0
/*
 * devkinds.c - the kinds that are character devices of drivers with no
 * hardware behind them: a HID device made through /dev/uhid gives hidraw,
 * evdev, mousedev and joydev nodes; /dev/uinput, readable when an LED
 * is set through the evdev node of the device it made; /dev/uleds,
 * readable when the LED it made changes brightness through sysfs; the ALSA
 * timer /dev/snd/timer on the system timer; /dev/rtc0, whose periodic
 * interrupt the RTC core emulates with an hrtimer; and, always writable
 * (nothing here sends them events), /dev/rfkill and /dev/vhci; and the
 * same two made ready: /dev/vhci of a raw Bluetooth controller when a
 * command is sent to it through an HCI user channel (vhci-event), and
 * /dev/rfkill when a controller, and with it a switch, comes and goes
 * (rfkill-event).  kinds.c lists them in its table.
 *
 * The "-unplugged" kinds destroy the HID device under the open node (a
 * tear-down while polled) instead of sending it a report.
 *
 * The devices appear asynchronously (uhid adds them from a work item): the open functions wait for the node in sysfs, found by the HID
 * device's unique string, never by its number.
 */
#define _GNU_SOURCE
#include "polltest.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/input.h>
#include <linux/rtc.h>
#include <linux/uhid.h>
#include <linux/uinput.h>
#include <linux/uleds.h>
#include <sound/asound.h>

#define NODE_WAIT_MS 5000

static int counter;

int read_text(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

/* read until EAGAIN: 0, or -errno */
/* write N bytes of TEXT to PATH in one write(); 0 or -errno (-EIO when short) */
int write_bytes(const char *path, const void *text, size_t n)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t w;

	if (fd < 0)
		return neg_errno();
	w = write(fd, text, n);
	close(fd);
	return w == (ssize_t)n ? 0 : w < 0 ? neg_errno() : -EIO;
}

int write_text(const char *path, const char *text)
{
	return write_bytes(path, text, strlen(text));
}

int drain_fd(int fd)
{
	char buf[4096];

	for (int i = 0; i < 4096; i++) {
		if (read(fd, buf, sizeof(buf)) >= 0)
			continue;
		if (errno == EINTR)
			continue;
		return errno == EAGAIN ? 0 : neg_errno();
	}
	return -EIO;
}

/*
 * The entry of sysfs directory DIR named PREFIX<n> whose FILE (relative to
 * the entry) satisfies MATCH, waited for; its name in NAME.  0 or -errno.
 */
int find_entry(const char *dir, const char *prefix, const char *file,
		      bool (*match)(const char *text, const void *arg), const void *arg,
		      char *name, size_t size)
{
	char path[512], text[4096];

	for (int t = 0; t < NODE_WAIT_MS / 10; t++) {
		DIR *d = opendir(dir);
		struct dirent *e;

		while (d && (e = readdir(d))) {
			if (strncmp(e->d_name, prefix, strlen(prefix)) || strlen(e->d_name) >= size)
				continue;
			snprintf(path, sizeof(path), "%s/%s/%s", dir, e->d_name, file);
			if (read_text(path, text, sizeof(text)) == 0 && match(text, arg)) {
				memcpy(name, e->d_name, strlen(e->d_name) + 1);
				closedir(d);
				return 0;
			}
		}
		if (d)
			closedir(d);
		usleep(10000);
	}
	return -ENODEV;
}

static bool any_event(const char *text, const void *arg)
{
	(void)text;
	(void)arg;
	return true;
}

/*
 * Open a device node, waiting for it: sysfs shows a device before
 * devtmpfs has made its node.
 */
int open_node(const char *path, int flags)
{
	for (int t = 0; t < NODE_WAIT_MS / 10; t++) {
		int fd = open(path, flags | O_CLOEXEC);

		if (fd >= 0 || errno != ENOENT)
			return fd;
		usleep(10000);
	}
	return -1;
}

/* wait for PATH to exist: 0 or -ENODEV */
int await_path(const char *path)
{
	for (int t = 0; t < NODE_WAIT_MS / 10; t++) {
		if (access(path, F_OK) == 0)
			return 0;
		usleep(10000);
	}
	return -ENODEV;
}

/* ---- a HID device through /dev/uhid ---- */

/* a mouse: three buttons, relative X and Y; reports [buttons, dx, dy] */
static const unsigned char mouse_rdesc[] = {
	0x05, 0x01, 0x09, 0x02, 0xa1, 0x01, 0x09, 0x01, 0xa1, 0x00,
	0x05, 0x09, 0x19, 0x01, 0x29, 0x03, 0x15, 0x00, 0x25, 0x01,
	0x95, 0x03, 0x75, 0x01, 0x81, 0x02, 0x95, 0x01, 0x75, 0x05,
	0x81, 0x01, 0x05, 0x01, 0x09, 0x30, 0x09, 0x31, 0x15, 0x81,
	0x25, 0x7f, 0x75, 0x08, 0x95, 0x02, 0x81, 0x06, 0xc0, 0xc0,
};

/* a joystick: two buttons and an absolute X axis; reports [buttons, x] */
static const unsigned char joystick_rdesc[] = {
	0x05, 0x01, 0x09, 0x04, 0xa1, 0x01, 0x05, 0x09, 0x19, 0x01,
	0x29, 0x02, 0x15, 0x00, 0x25, 0x01, 0x75, 0x01, 0x95, 0x02,
	0x81, 0x02, 0x75, 0x06, 0x95, 0x01, 0x81, 0x01, 0x05, 0x01,
	0x09, 0x30, 0x15, 0x00, 0x26, 0xff, 0x00, 0x75, 0x08, 0x95,
	0x01, 0x81, 0x02, 0xc0,
};

/* one vendor-defined byte: only hidraw takes it */
static const unsigned char vendor_rdesc[] = {
	0x06, 0x00, 0xff, 0x09, 0x01, 0xa1, 0x01, 0x15, 0x00, 0x26,
	0xff, 0x00, 0x75, 0x08, 0x95, 0x01, 0x09, 0x01, 0x81, 0x02,
	0xc0,
};

/*
 * a custom sensor (HID sensor usage page, usage 0xe1) with one input
 * byte, custom value 1: hid-sensor-hub makes it a HID-SENSOR-2000e1
 * platform device, hid-sensor-custom a misc node of its samples
 */
static const unsigned char sensor_rdesc[] = {
	0x05, 0x20, 0x09, 0xe1, 0xa1, 0x01, 0x0a, 0x44, 0x05, 0x15,
	0x00, 0x26, 0xff, 0x00, 0x75, 0x08, 0x95, 0x01, 0x81, 0x02,
	0xc0,
};

/* shared with the trigger's child process: the events it sent */
struct hid_state {
	unsigned sent;
};

static int shared_state(struct fixture *f)
{
	f->priv = mmap(NULL, sizeof(struct hid_state), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (f->priv != MAP_FAILED)
		return 0;
	f->priv = NULL;
	return neg_errno();
}

static bool uevent_has(const char *text, const void *arg)
{
	const char *uniq = arg;

	for (const char *p = strstr(text, uniq); p; p = strstr(p + 1, uniq)) {
		char after = p[strlen(uniq)];

		if (after == '"' || after == '\n' || after == '\0')
			return true;
	}
	return false;
}

/* a HID device with descriptor RD through /dev/uhid (aux[0]), named after PREFIX; its HID_UNIQ into UNIQ */
static int hid_create(struct fixture *f, const unsigned char *rd, size_t rd_size, const char *prefix,
		      char *uniq, size_t size)
{
	struct uhid_event ev;
	int r;

	r = shared_state(f);
	if (r)
		return r;
	f->aux[0] = open("/dev/uhid", O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (f->aux[0] < 0)
		return neg_errno();
	snprintf(uniq, size, "polltest-%d-%d", (int)getpid(), counter++);
	memset(&ev, 0, sizeof(ev));
	ev.type = UHID_CREATE2;
	snprintf((char *)ev.u.create2.name, sizeof(ev.u.create2.name), "polltest %s", prefix);
	snprintf((char *)ev.u.create2.uniq, sizeof(ev.u.create2.uniq), "%s", uniq);
	ev.u.create2.rd_size = (__u16)rd_size;
	ev.u.create2.bus = BUS_VIRTUAL;
	ev.u.create2.vendor = 0x1234;
	ev.u.create2.product = 0x5679;
	memcpy(ev.u.create2.rd_data, rd, rd_size);
	return write(f->aux[0], &ev, sizeof(ev)) == sizeof(ev) ? 0 : neg_errno();
}

/*
 * The node PATH of the HID device open in fd.  The nodes appear while the
 * HID driver probes, and until the probe is over the device drops input
 * reports (its driver link comes before the probe too): send WARM_UP
 * until one gets through.  What a new reader gets first (joydev: an event
 * per axis and button) goes before.
 */
static int hid_warm(struct fixture *f, const char *path, int (*warm_up)(struct fixture *f))
{
	int r;

	f->fd = open_node(path, O_RDWR | O_NONBLOCK);
	if (f->fd < 0)
		return neg_errno();
	r = drain_fd(f->fd);
	for (int t = 0; !r; t++) {
		struct pollfd p = { .fd = f->fd, .events = POLLIN };

		if (t == NODE_WAIT_MS / 20)
			return -ETIMEDOUT;
		r = warm_up(f);
		if (r)
			return r;
		if (poll(&p, 1, 20) == 1)
			r = drain_fd(f->fd) ? -EIO : 1;
	}
	if (r < 0)
		return r;
	/* UHID_START, UHID_OPEN: not the subject here */
	return drain_fd(f->aux[0]);
}

/*
 * Create a HID device with descriptor RD and open its node of CLASS
 * (PREFIX<n>, under /dev/DEVDIR); HID is where the HID device is from the
 * node's sysfs directory; WARM_UP sends it an input report.  The uhid
 * descriptor is aux[0].
 */
static int hid_open(struct fixture *f, const unsigned char *rd, size_t rd_size,
		    const char *class, const char *prefix, const char *devdir, const char *hid,
		    int (*warm_up)(struct fixture *f))
{
	char uniq[64], name[64], path[160], dir[64];
	int r;

	if ((r = hid_create(f, rd, rd_size, prefix, uniq, sizeof(uniq))))
		return r;
	snprintf(dir, sizeof(dir), "/sys/class/%s", class);
	r = find_entry(dir, prefix, "device/uevent", uevent_has, uniq, name, sizeof(name));
	if (r)
		return r;
	snprintf(path, sizeof(path), "%s/%s/%s/driver", dir, name, hid);
	r = await_path(path);
	if (r)
		return r;
	snprintf(path, sizeof(path), "/dev/%s%s", devdir, name);
	return hid_warm(f, path, warm_up);
}

static int hid_send(struct fixture *f, const unsigned char *report, size_t size)
{
	struct uhid_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = UHID_INPUT2;
	ev.u.input2.size = (__u16)size;
	memcpy(ev.u.input2.data, report, size);
	return write(f->aux[0], &ev, sizeof(ev)) == sizeof(ev) ? 0 : neg_errno();
}

/*
 * The HID device goes away under the open node: hidraw, evdev, mousedev and
 * joydev mark it dead, wake its readers and report POLLHUP from then on.
 * Through the uhid descriptor the fixture shares with the waker process.
 */
int uhid_unplug(struct fixture *f)
{
	struct uhid_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = UHID_DESTROY;
	return write(f->aux[0], &ev, sizeof(ev)) == sizeof(ev) ? 0 : neg_errno();
}

void dev_close(struct fixture *f)
{
	close_all(f);	/* uhid's aux[0]: destroys the device */
	if (f->priv)
		munmap(f->priv, sizeof(struct hid_state));
	f->priv = NULL;
}

int dev_drain(struct fixture *f)
{
	return drain_fd(f->fd);
}

int hidraw_open(struct fixture *f)
{
	return hid_open(f, vendor_rdesc, sizeof(vendor_rdesc), "hidraw", "hidraw", "", "device", hidraw_trigger);
}

int hidraw_trigger(struct fixture *f)
{
	struct hid_state *s = f->priv;
	unsigned char report[1] = { (unsigned char)++s->sent };

	return hid_send(f, report, sizeof(report));
}

/*
 * The misc node of hid-sensor-custom, named after its platform device
 * (HID-SENSOR-2000e1.N.auto), a child of the HID device: the misc device
 * itself has no parent to find the HID device by.
 */
int hid_sensor_open(struct fixture *f)
{
	char uniq[64], hid[64], dir[128], name[64], path[192];
	int r;

	if ((r = hid_create(f, sensor_rdesc, sizeof(sensor_rdesc), "HID-SENSOR-2000e1", uniq, sizeof(uniq))) ||
	    (r = find_entry("/sys/bus/hid/devices", "", "uevent", uevent_has, uniq, hid, sizeof(hid))))
		return r;
	snprintf(dir, sizeof(dir), "/sys/bus/hid/devices/%s", hid);
	if ((r = find_entry(dir, "HID-SENSOR-2000e1.", "modalias", any_event, NULL, name, sizeof(name))))
		return r;
	snprintf(path, sizeof(path), "/dev/%s", name);
	return hid_warm(f, path, hidraw_trigger);
}

int evdev_open(struct fixture *f)
{
	return hid_open(f, mouse_rdesc, sizeof(mouse_rdesc), "input", "event", "input/", "device/device", mouse_trigger);
}

int mousedev_open(struct fixture *f)
{
	return hid_open(f, mouse_rdesc, sizeof(mouse_rdesc), "input", "mouse", "input/", "device/device", mouse_trigger);
}

/* relative motion: never filtered as "no change" */
int mouse_trigger(struct fixture *f)
{
	static const unsigned char report[3] = { 0, 1, 0 };

	return hid_send(f, report, sizeof(report));
}

int joydev_open(struct fixture *f)
{
	return hid_open(f, joystick_rdesc, sizeof(joystick_rdesc), "input", "js", "input/", "device/device",
			joystick_trigger);
}

/* an absolute axis reports changes only: alternate between two positions */
int joystick_trigger(struct fixture *f)
{
	struct hid_state *s = f->priv;
	unsigned char report[2] = { 0, ++s->sent % 2 ? 200 : 20 };

	return hid_send(f, report, sizeof(report));
}

/* ---- always writable: /dev/rfkill, /dev/vhci ---- */
static int open_rw(struct fixture *f, const char *path)
{
	f->fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	return f->fd < 0 ? neg_errno() : 0;
}

int rfkill_open(struct fixture *f)
{
	return open_rw(f, "/dev/rfkill");
}

int vhci_open(struct fixture *f)
{
	return open_rw(f, "/dev/vhci");
}

/*
 * ---- a Bluetooth controller made through /dev/vhci ----
 * The first write to /dev/vhci (HCI_VENDOR_PKT and the controller's
 * flags) registers a controller, and with it its rfkill switch; closing
 * the descriptor unregisters both.  A raw controller (flag 0x80) is not
 * set up by the kernel: bound to an HCI user channel, what is written to
 * the socket goes to the controller, that is, is read from /dev/vhci.
 */
#define HCI_VENDOR_PKT	0xff
#define VHCI_RAW	0x80
#define HCI_MAX_INDEX	256

struct sockaddr_hci {
	unsigned short hci_family;
	unsigned short hci_dev;
	unsigned short hci_channel;
};
#define BTPROTO_HCI		1
#define HCI_CHANNEL_USER	1

/* IN[i]: /sys/class/bluetooth has hci<i> */
static void hci_indices(bool in[HCI_MAX_INDEX])
{
	DIR *d = opendir("/sys/class/bluetooth");
	struct dirent *e;

	memset(in, 0, HCI_MAX_INDEX * sizeof(in[0]));
	if (!d)
		return;
	while ((e = readdir(d))) {
		char *end;
		long i;

		if (strncmp(e->d_name, "hci", 3))
			continue;
		i = strtol(e->d_name + 3, &end, 10);
		if (i >= 0 && i < HCI_MAX_INDEX && !*end)
			in[i] = true;
	}
	closedir(d);
}

/* a raw controller, its /dev/vhci in *FD: its index, or -errno */
static int vhci_controller(int *fd)
{
	const unsigned char create[2] = { HCI_VENDOR_PKT, VHCI_RAW };
	bool before[HCI_MAX_INDEX], after[HCI_MAX_INDEX];

	hci_indices(before);
	*fd = open("/dev/vhci", O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (*fd < 0 || write(*fd, create, sizeof(create)) != sizeof(create))
		return neg_errno();
	hci_indices(after);
	for (int i = 0; i < HCI_MAX_INDEX; i++)
		if (after[i] && !before[i])
			return i;
	return -ENODEV;
}

/*
 * vhci-event: /dev/vhci of a raw controller (fd) bound to an HCI user
 * channel (aux[0]); readable when a command is sent to the controller.
 * The channel cannot be bound while the kernel still opens the
 * controller (EBUSY): retried.
 */
int vhci_event_open(struct fixture *f)
{
	struct sockaddr_hci a = { .hci_family = AF_BLUETOOTH, .hci_channel = HCI_CHANNEL_USER };
	int i = vhci_controller(&f->fd), tries = 0;

	if (i < 0)
		return i;
	a.hci_dev = (unsigned short)i;
	f->aux[0] = socket(AF_BLUETOOTH, SOCK_RAW | SOCK_CLOEXEC, BTPROTO_HCI);
	if (f->aux[0] < 0)
		return neg_errno();
	while (bind(f->aux[0], (struct sockaddr *)&a, sizeof(a)))
		if (errno != EBUSY || ++tries > 500)
			return neg_errno();
		else
			usleep(10000);
	/* the answer to the controller's creation */
	return drain_fd(f->fd);
}

/* an HCI_Reset command (HCI_COMMAND_PKT, opcode 0x0c03, no parameters) */
int vhci_event_trigger(struct fixture *f)
{
	static const unsigned char reset[4] = { 0x01, 0x03, 0x0c, 0x00 };

	return write(f->aux[0], reset, sizeof(reset)) == sizeof(reset) ? 0 : neg_errno();
}

/* rfkill-event: /dev/rfkill, read up to date: readable on the next event */
int rfkill_event_open(struct fixture *f)
{
	int r = open_rw(f, "/dev/rfkill");

	return r ? r : drain_fd(f->fd);
}

/* a controller made and closed: its rfkill switch added and removed */
int rfkill_event_trigger(struct fixture *f)
{
	int fd, r = vhci_controller(&fd);

	(void)f;
	if (fd >= 0)
		close(fd);
	return r < 0 ? r : 0;
}

/*
 * ---- /dev/uinput: readable when the kernel sends the device an event ----
 * The device has one LED; the trigger sets it through the device's evdev
 * node (aux[0]), alternating on and off, since only a change is passed on.
 */
int uinput_open(struct fixture *f)
{
	struct uinput_setup setup;
	char sys[64], dir[160], ev[64], path[160];
	int r = shared_state(f);

	if (r)
		return r;
	f->fd = open("/dev/uinput", O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (f->fd < 0)
		return neg_errno();
	memset(&setup, 0, sizeof(setup));
	setup.id.bustype = BUS_VIRTUAL;
	setup.id.vendor = 0x1234;
	setup.id.product = 0x567a;
	snprintf(setup.name, sizeof(setup.name), "polltest uinput");
	if (ioctl(f->fd, UI_SET_EVBIT, EV_LED) || ioctl(f->fd, UI_SET_LEDBIT, LED_CAPSL) ||
	    ioctl(f->fd, UI_DEV_SETUP, &setup) || ioctl(f->fd, UI_DEV_CREATE) ||
	    ioctl(f->fd, UI_GET_SYSNAME(sizeof(sys)), sys) < 0)
		return neg_errno();
	snprintf(dir, sizeof(dir), "/sys/class/input/%s", sys);
	r = find_entry(dir, "event", "dev", any_event, NULL, ev, sizeof(ev));
	if (r)
		return r;
	snprintf(path, sizeof(path), "/dev/input/%s", ev);
	f->aux[0] = open_node(path, O_RDWR | O_NONBLOCK);
	return f->aux[0] < 0 ? neg_errno() : 0;
}

int uinput_trigger(struct fixture *f)
{
	struct hid_state *s = f->priv;
	struct input_event ev[2];

	memset(ev, 0, sizeof(ev));
	ev[0].type = EV_LED;
	ev[0].code = LED_CAPSL;
	ev[0].value = ++s->sent % 2;
	ev[1].type = EV_SYN;
	ev[1].code = SYN_REPORT;
	return write(f->aux[0], ev, sizeof(ev)) == sizeof(ev) ? 0 : neg_errno();
}

/*
 * ---- /dev/uleds: readable when the LED it made changes brightness ----
 * aux[0] is the LED's brightness file in sysfs.
 */
int uleds_open(struct fixture *f)
{
	struct uleds_user_dev dev;
	char path[160];
	int r = shared_state(f);

	if (r)
		return r;
	f->fd = open("/dev/uleds", O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (f->fd < 0)
		return neg_errno();
	memset(&dev, 0, sizeof(dev));
	snprintf(dev.name, sizeof(dev.name), "polltest-%d-%d", (int)getpid(), counter++);
	dev.max_brightness = 255;
	if (write(f->fd, &dev, sizeof(dev)) != sizeof(dev))
		return neg_errno();
	snprintf(path, sizeof(path), "/sys/class/leds/%s/brightness", dev.name);
	f->aux[0] = open(path, O_WRONLY | O_CLOEXEC);
	if (f->aux[0] < 0)
		return neg_errno();
	return drain_fd(f->fd);
}

int uleds_trigger(struct fixture *f)
{
	struct hid_state *s = f->priv;
	char value[8];
	int n = snprintf(value, sizeof(value), "%d\n", ++s->sent % 2 ? 200 : 100);

	return write(f->aux[0], value, (size_t)n) == n ? 0 : neg_errno();
}

/*
 * ---- /dev/snd/timer: the ALSA system timer, one tick, not restarted ----
 * Readable once the tick has come; a trigger starts it again.
 */
int snd_timer_open(struct fixture *f)
{
	struct snd_timer_select sel;
	struct snd_timer_params par;

	f->fd = open("/dev/snd/timer", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (f->fd < 0)
		return neg_errno();
	memset(&sel, 0, sizeof(sel));
	sel.id.dev_class = SNDRV_TIMER_CLASS_GLOBAL;
	sel.id.dev_sclass = SNDRV_TIMER_SCLASS_NONE;
	sel.id.card = -1;
	sel.id.device = SNDRV_TIMER_GLOBAL_SYSTEM;
	memset(&par, 0, sizeof(par));
	par.ticks = 1;
	par.queue_size = 64;
	if (ioctl(f->fd, SNDRV_TIMER_IOCTL_SELECT, &sel) || ioctl(f->fd, SNDRV_TIMER_IOCTL_PARAMS, &par))
		return neg_errno();
	return 0;
}

int snd_timer_trigger(struct fixture *f)
{
	/* EBUSY: still running from the trigger before, its tick is to come */
	if (ioctl(f->fd, SNDRV_TIMER_IOCTL_START) && errno != EBUSY)
		return neg_errno();
	return 0;
}

/*
 * ---- /dev/rtc0: the periodic interrupt ----
 * The RTC core emulates it with an hrtimer for every driver.  A trigger
 * runs it at 64 Hz for 50 ms: a few interrupts, then none, so that an
 * edge-triggered epoll sees one burst per trigger.
 */
int rtc_open(struct fixture *f)
{
	f->fd = open("/dev/rtc0", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (f->fd < 0)
		return neg_errno();
	return ioctl(f->fd, RTC_IRQP_SET, 64UL) ? neg_errno() : 0;
}

int rtc_trigger(struct fixture *f)
{
	if (ioctl(f->fd, RTC_PIE_ON, 0))
		return neg_errno();
	usleep(50000);
	return ioctl(f->fd, RTC_PIE_OFF, 0) ? neg_errno() : 0;
}

int rtc_drain(struct fixture *f)
{
	if (ioctl(f->fd, RTC_PIE_OFF, 0))
		return neg_errno();
	usleep(20000);	/* a timer callback already running when it was turned off */
	return drain_fd(f->fd);
}
