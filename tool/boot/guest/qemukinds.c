// SPDX-License-Identifier: GPL-2.0
/*
 * qemukinds.c - the kinds on a device qemu emulates for the functional
 * boots (boot_guest.c adds the devices, and the kernel parameters that
 * say where they are; the benchmark's boots have neither):
 *
 *  - ipmi: /dev/ipmi0 of the IPMI device interface, on qemu's BMC
 *    simulator (ipmi-bmc-sim) behind an ISA KCS interface at I/O port
 *    0xca2.  The guest has no firmware table to find it by: the kernel
 *    command line names it (ipmi_si.type=kcs ipmi_si.ports=0xca2), since
 *    ipmi_si unregisters itself at boot when it finds no interface (a
 *    later hotmod would find no driver).  The file is readable once the
 *    BMC answered a request sent through it: the trigger sends Get Device
 *    ID, the drain receives the answers.
 *
 *  - ipmi-watchdog: /dev/watchdog of the IPMI watchdog on the same BMC,
 *    readable once the BMC's pre-timeout went off (the driver's "give
 *    data" pre-timeout operation and an interrupt pre-action, set through
 *    its module parameters).  The trigger enables the card, which starts
 *    the timer: a time-out of 60 s with the pre-timeout 59 s before it,
 *    so the pre-timeout comes a second later and the time-out (a reset,
 *    as the driver sends no pre-timeout without an action) never does:
 *    the drain reads the byte and stops the timer, and so does the close;
 *  - virtio-console: the port "polltest.0" of a virtio-serial device
 *    (virtio-pci) whose host end is a FIFO qemu reads and writes: a byte
 *    the guest writes to the port comes back to it, and makes the port
 *    readable;
 *  - usbfs: /dev/bus/usb/BBB/DDD of the root hub of qemu's xHCI
 *    controller.  A descriptor is writable (EPOLLOUT) once an URB
 *    submitted through it completed: the trigger asks the hub for its
 *    device descriptor, the drain reaps the URBs;
 *  - vga-arbiter: /dev/vga_arbiter, always readable;
 *  - usbfs-unplugged, virtio-console-unplugged: the same files, and the
 *    PCI device under them (the xHCI controller, the virtio-serial
 *    device) unbound from its driver while they are polled: the file
 *    reports a hang-up.  The close binds the device again;
 *  - ppdev: /dev/parport0 on the machine's parallel port (parport_pc),
 *    readable once the port interrupted: writing its control register
 *    makes qemu's port interrupt, PPCLRIRQ drains.
 *
 * kinds.c lists them in its table.
 */
#define _GNU_SOURCE
#include "polltest.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <stdio.h>
#include <limits.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/ipmi.h>
#include <linux/ppdev.h>
#include <linux/usbdevice_fs.h>
#include <linux/watchdog.h>

#define IPMI_GET_DEVICE_ID 0x01

static long msgid;

int ipmi_open(struct fixture *f)
{
	/* made at boot, or never (no ipmi_si, or no BMC answered at the port) */
	f->fd = open("/dev/ipmi0", O_RDWR | O_NONBLOCK | O_CLOEXEC);
	return f->fd < 0 ? neg_errno() : 0;
}

/* one Get Device ID to the BMC; its answer is queued on the file that sent it */
int ipmi_trigger(struct fixture *f)
{
	struct ipmi_system_interface_addr bmc = {
		.addr_type = IPMI_SYSTEM_INTERFACE_ADDR_TYPE,
		.channel = IPMI_BMC_CHANNEL,
	};
	struct ipmi_req req = {
		.addr = (unsigned char *)&bmc,
		.addr_len = sizeof(bmc),
		.msgid = ++msgid,
		.msg = { .netfn = IPMI_NETFN_APP_REQUEST, .cmd = IPMI_GET_DEVICE_ID },
	};

	return ioctl(f->fd, IPMICTL_SEND_COMMAND, &req) ? neg_errno() : 0;
}

int ipmi_drain(struct fixture *f)
{
	for (int i = 0; i < 1024; i++) {
		struct ipmi_system_interface_addr from;
		unsigned char data[IPMI_MAX_MSG_LENGTH];
		struct ipmi_recv rcv = {
			.addr = (unsigned char *)&from,
			.addr_len = sizeof(from),
			.msg = { .data = data, .data_len = sizeof(data) },
		};

		if (!ioctl(f->fd, IPMICTL_RECEIVE_MSG_TRUNC, &rcv))
			continue;
		return errno == EAGAIN ? 0 : neg_errno();
	}
	return -EIO;
}

/* ---- ipmi-watchdog ---- */

#define WDOG_PARAMS "/sys/module/ipmi_watchdog/parameters/"

static int put_param(const char *name, const char *value)
{
	char path[128];

	snprintf(path, sizeof(path), WDOG_PARAMS "%s", name);
	return write_text(path, value);
}

int ipmi_watchdog_open(struct fixture *f)
{
	int off = WDIOS_DISABLECARD, r;
	char b;

	if (access(WDOG_PARAMS "action", F_OK))
		return -ENODEV;	/* no ipmi_watchdog */
	if ((r = put_param("action", "reset")) || (r = put_param("preaction", "pre_int")) ||
	    (r = put_param("preop", "preop_give_data")) || (r = put_param("timeout", "60")) ||
	    (r = put_param("pretimeout", "59")))
		return r;
	f->fd = open("/dev/watchdog", O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (f->fd < 0)
		return neg_errno();
	/* a pre-timeout left from the fixture before */
	if (ioctl(f->fd, WDIOC_SETOPTIONS, &off))
		return neg_errno();
	return read(f->fd, &b, 1) >= 0 || errno == EAGAIN ? 0 : neg_errno();
}

int ipmi_watchdog_trigger(struct fixture *f)
{
	int on = WDIOS_ENABLECARD;

	return ioctl(f->fd, WDIOC_SETOPTIONS, &on) ? neg_errno() : 0;
}

int ipmi_watchdog_drain(struct fixture *f)
{
	int off = WDIOS_DISABLECARD;
	char b;

	if (ioctl(f->fd, WDIOC_SETOPTIONS, &off))
		return neg_errno();
	return read(f->fd, &b, 1) >= 0 || errno == EAGAIN ? 0 : neg_errno();
}

/* the magic close stops the timer; the read takes what came meanwhile */
void ipmi_watchdog_close(struct fixture *f)
{
	if (f->fd >= 0) {
		int off = WDIOS_DISABLECARD;

		ioctl(f->fd, WDIOC_SETOPTIONS, &off);
		if (write(f->fd, "V", 1) == 1)
			ioctl(f->fd, WDIOC_SETOPTIONS, &off);
	}
	close_all(f);
}

/* ---- virtio-console ---- */

/* a sysfs attribute's text is WANT, and a newline */
static bool text_is(const char *text, const void *want)
{
	size_t n = strlen(want);

	return !strncmp(text, want, n) && (!text[n] || !strcmp(text + n, "\n"));
}

int virtio_console_open(struct fixture *f)
{
	char port[64], path[96];
	int r = find_entry("/sys/class/virtio-ports", "vport", "name", text_is, "polltest.0", port, sizeof(port));

	if (r)
		return r;	/* no virtio-serial device, or no port "polltest.0" on it */
	snprintf(path, sizeof(path), "/dev/%s", port);
	f->fd = open_node(path, O_RDWR | O_NONBLOCK);
	if (f->fd < 0)
		return neg_errno();
	/* what an earlier fixture wrote may still be on its way back */
	usleep(100000);
	return drain_fd(f->fd);
}

int virtio_console_trigger(struct fixture *f)
{
	return write_byte(f->fd);
}

int virtio_console_drain(struct fixture *f)
{
	return drain_fd(f->fd);
}

/* ---- usbfs ---- */

int usbfs_open(struct fixture *f)
{
	char bus[64], path[256], text[32];
	/* usbN, devnum 1: the root hub of bus N */
	int r = find_entry("/sys/bus/usb/devices", "usb", "devnum", text_is, "1", bus, sizeof(bus));

	if (r)
		return r;	/* no USB host controller */
	snprintf(path, sizeof(path), "/sys/bus/usb/devices/%s/busnum", bus);
	if (read_text(path, text, sizeof(text)))
		return -ENODEV;
	snprintf(path, sizeof(path), "/dev/bus/usb/%03d/001", atoi(text));
	f->fd = open_node(path, O_RDWR | O_NONBLOCK);
	return f->fd < 0 ? neg_errno() : 0;
}

/*
 * The URB and its buffer are static: the kernel writes the answer at
 * their addresses in the process that reaps them, and a child made by
 * fork() submits at the same addresses as its parent.
 */
static struct {
	unsigned char setup[8];
	unsigned char data[18];
} usb_buf;
static struct usbdevfs_urb usb_urb;

int usbfs_trigger(struct fixture *f)
{
	static const unsigned char get_device_descriptor[8] = { 0x80, 6, 0, 1, 0, 0, 18, 0 };

	memcpy(usb_buf.setup, get_device_descriptor, sizeof(get_device_descriptor));
	memset(&usb_urb, 0, sizeof(usb_urb));
	usb_urb.type = USBDEVFS_URB_TYPE_CONTROL;
	usb_urb.endpoint = 0;
	usb_urb.buffer = &usb_buf;
	usb_urb.buffer_length = sizeof(usb_buf);
	return ioctl(f->fd, USBDEVFS_SUBMITURB, &usb_urb) ? neg_errno() : 0;
}

int usbfs_drain(struct fixture *f)
{
	for (int i = 0; i < 1024; i++) {
		void *done;

		if (!ioctl(f->fd, USBDEVFS_REAPURBNDELAY, &done))
			continue;
		return errno == EAGAIN ? 0 : neg_errno();
	}
	return -EIO;
}

/* ---- vga-arbiter ---- */

int vga_arbiter_open(struct fixture *f)
{
	f->fd = open("/dev/vga_arbiter", O_RDWR | O_NONBLOCK | O_CLOEXEC);
	return f->fd < 0 ? neg_errno() : 0;
}

/* ---- usbfs-unplugged, virtio-console-unplugged ---- */

/* the PCI device of the fixture's file, "0000:00:04.0" (one such fixture at a time) */
static char pci_device[32];

/* the last PCI device on the way from the root to the sysfs entry DIR */
static int pci_device_of(const char *dir)
{
	char real[PATH_MAX], *save = NULL;
	unsigned dom, bus, dev, fn;

	if (!realpath(dir, real))
		return neg_errno();
	pci_device[0] = '\0';
	for (char *c = strtok_r(real, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
		char tail;

		if (sscanf(c, "%4x:%2x:%2x.%1x%c", &dom, &bus, &dev, &fn, &tail) == 4 &&
		    strlen(c) < sizeof(pci_device))
			memcpy(pci_device, c, strlen(c) + 1);
	}
	return pci_device[0] ? 0 : -ENODEV;
}

int pci_unbind_trigger(struct fixture *f)
{
	char path[96];

	(void)f;
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/driver/unbind", pci_device);
	return write_text(path, pci_device);
}

/* the device bound again, if a trigger unbound it */
void pci_rebind_close(struct fixture *f)
{
	char path[96];

	close_all(f);
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/driver", pci_device);
	if (pci_device[0] && access(path, F_OK))
		write_text("/sys/bus/pci/drivers_probe", pci_device);
}

int usbfs_unplugged_open(struct fixture *f)
{
	char path[320], text[32];
	DIR *d = opendir("/sys/bus/usb/devices");
	struct dirent *e;
	int bus = -1;

	/* a root hub on PCI (qemu-xhci's; dummy_hcd's is a platform device) */
	while (d && bus < 0 && (e = readdir(d))) {
		if (strncmp(e->d_name, "usb", 3))
			continue;
		snprintf(path, sizeof(path), "/sys/bus/usb/devices/%s", e->d_name);
		if (pci_device_of(path))
			continue;
		snprintf(path, sizeof(path), "/sys/bus/usb/devices/%s/busnum", e->d_name);
		if (!read_text(path, text, sizeof(text)))
			bus = atoi(text);
	}
	if (d)
		closedir(d);
	if (bus < 0)
		return -ENODEV;
	snprintf(path, sizeof(path), "/dev/bus/usb/%03d/001", bus);
	f->fd = open_node(path, O_RDWR | O_NONBLOCK);
	return f->fd < 0 ? neg_errno() : 0;
}

int virtio_console_unplugged_open(struct fixture *f)
{
	char port[64], dir[128];
	int r = find_entry("/sys/class/virtio-ports", "vport", "name", text_is, "polltest.0", port, sizeof(port));

	if (r)
		return r;
	snprintf(dir, sizeof(dir), "/sys/class/virtio-ports/%s", port);
	if ((r = pci_device_of(dir)))
		return r;
	return virtio_console_open(f);
}

/*
 * ---- ppdev: /dev/parport0 on the machine's parallel port ----
 * Readable once the port interrupted: the functional boots give
 * parport_pc the port's interrupt line (parport=0x378,7), ppdev enables
 * it when the port is claimed.  qemu's port raises it when the control
 * register is written with INIT and SELECT set, STROBE clear and the
 * interrupt enabled; PPCLRIRQ takes the count of interrupts, and with
 * it the readiness, away.  Without an interrupt line (the benchmark's
 * boots) nothing would ever wake the file: ENXIO.
 */
#define PARPORT_CONTROL_INIT	0x04
#define PARPORT_CONTROL_SELECT	0x08

int ppdev_open(struct fixture *f)
{
	char irq[16];
	int count;

	if (!read_text("/proc/sys/dev/parport/parport0/irq", irq, sizeof(irq)) && strtol(irq, NULL, 10) < 0)
		return -ENXIO;
	f->fd = open("/dev/parport0", O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (f->fd < 0 || ioctl(f->fd, PPCLAIM) || ioctl(f->fd, PPCLRIRQ, &count))
		return neg_errno();
	return 0;
}

int ppdev_trigger(struct fixture *f)
{
	unsigned char was, ctl = PARPORT_CONTROL_INIT | PARPORT_CONTROL_SELECT;

	/* the control register read first: the port is the fixture's */
	if (ioctl(f->fd, PPRCONTROL, &was) || ioctl(f->fd, PPWCONTROL, &ctl))
		return neg_errno();
	return 0;
}

int ppdev_drain(struct fixture *f)
{
	int count;

	return ioctl(f->fd, PPCLRIRQ, &count) ? neg_errno() : 0;
}
