// SPDX-License-Identifier: GPL-2.0
/*
 * gadgetkinds.c - the kinds on a USB device the guest makes itself: a
 * gadget set up through configfs, bound to dummy_hcd's software UDC, which
 * the same kernel's host side enumerates like a device on a cable:
 *
 *   hiddev        /dev/usb/hiddevN of a HID gadget (the HID function,
 *                 f_hid) with one vendor-defined application, which
 *                 usbhid gives to hiddev: readable once the gadget sent a
 *                 report through /dev/hidgN;
 *   hiddev-unplugged
 *                 the same file, the gadget unbound from the UDC (the
 *                 device unplugged) while the file is polled: it reports
 *                 a hang-up;
 *   roccat, roccat-unplugged
 *                 /dev/savuN of hid-roccat-savu, on a HID gadget with the
 *                 USB ids of a Roccat Savu mouse: readable once the gadget
 *                 sent its "special" report; the gadget unbound while the
 *                 file is polled;
 *   functionfs    ep0 of a FunctionFS function (f_fs): readable when the
 *                 function has events to read; the trigger binds the
 *                 gadget to the UDC (BIND, ENABLE) or unbinds it (DISABLE,
 *                 UNBIND), and waits for the host side to finish;
 *   gnss          /dev/gnssN of gnss-usb, on a FunctionFS gadget with the
 *                 USB ids of a receiver it drives and a bulk pair:
 *                 readable once the gadget wrote an NMEA sentence to its
 *                 bulk IN endpoint;
 *   gnss-unplugged
 *                 the same file, the gadget unbound while it is polled.
 *
 * One gadget at a time, made by the fixture's open and taken apart by its
 * close.  A kernel without the gadget, its function or dummy_hcd makes
 * open() fail: the kind is skipped with the reason.
 */
#define _GNU_SOURCE
#include "polltest.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/usb/ch9.h>
#include <linux/usb/functionfs.h>

#define WAIT_MS 5000
#define CONFIGFS "/sys/kernel/config"
#define GADGET CONFIGFS "/usb_gadget/polltest"

static char udc[64], ffs_mount[128];
/* the gadget's vendor and product, as sysfs shows them ("1d6b", "0104") */
static const char *vendor = "1d6b", *product = "0104";

static int put(const char *rel, const char *text)
{
	char path[192];

	snprintf(path, sizeof(path), GADGET "/%s", rel);
	return write_text(path, text);
}

/* the first UDC (dummy_udc.0), into udc */
static int find_udc(void)
{
	DIR *d = opendir("/sys/class/udc");
	struct dirent *e;

	udc[0] = '\0';
	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.' && strlen(e->d_name) < sizeof(udc)) {
			memcpy(udc, e->d_name, strlen(e->d_name) + 1);
			break;
		}
	if (d)
		closedir(d);
	return udc[0] ? 0 : -ENODEV;
}

/* whether the host side sees the gadget: a USB device vendor:product */
static bool on_host(void)
{
	DIR *d = opendir("/sys/bus/usb/devices");
	struct dirent *e;
	bool found = false;

	while (d && !found && (e = readdir(d))) {
		char path[320], text[16];

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/bus/usb/devices/%s/idVendor", e->d_name);
		if (read_text(path, text, sizeof(text)) || strncmp(text, vendor, 4) || text[4] != '\n')
			continue;
		snprintf(path, sizeof(path), "/sys/bus/usb/devices/%s/idProduct", e->d_name);
		found = !read_text(path, text, sizeof(text)) && !strncmp(text, product, 4) && text[4] == '\n';
	}
	if (d)
		closedir(d);
	return found;
}

/* the host side sees the gadget (WANT) or not within WAIT_MS, and the UDC is configured */
static int host_sees(bool want)
{
	char path[128], text[64];

	snprintf(path, sizeof(path), "/sys/class/udc/%s/state", udc);
	for (int t = 0; t < WAIT_MS / 10; t++) {
		if (on_host() == want &&
		    (!want || (!read_text(path, text, sizeof(text)) && !strcmp(text, "configured\n"))))
			return 0;
		usleep(10000);
	}
	return -ETIMEDOUT;
}

static int bind_udc(void)
{
	int r = put("UDC", udc);

	return r ? r : host_sees(true);
}

static int unbind_udc(void)
{
	int r = put("UDC", "\n");

	return r ? r : host_sees(false);
}

static bool udc_bound(void)
{
	char text[64];

	return !read_text(GADGET "/UDC", text, sizeof(text)) && text[0] && text[0] != '\n';
}

/* the gadget VID:PID and its configuration, with the function FN ("hid.polltest") in it */
static int gadget_make(const char *vid, const char *pid, const char *fn)
{
	char path[192], id[16];
	int r;

	if (access(CONFIGFS "/usb_gadget", F_OK) &&
	    mount("configfs", CONFIGFS, "configfs", 0, NULL) && errno != EBUSY)
		return neg_errno();
	if (access(CONFIGFS "/usb_gadget", F_OK))
		return -ENODEV;	/* no USB gadget configfs */
	if ((r = find_udc()))
		return r;	/* no dummy_hcd */
	if (mkdir(GADGET, 0755) && errno != EEXIST)
		return neg_errno();
	vendor = vid;
	product = pid;
	snprintf(id, sizeof(id), "0x%s", vid);
	if ((r = put("idVendor", id)))
		return r;
	snprintf(id, sizeof(id), "0x%s", pid);
	if ((r = put("idProduct", id)))
		return r;
	if (mkdir(GADGET "/configs/c.1", 0755) && errno != EEXIST)
		return neg_errno();
	snprintf(path, sizeof(path), GADGET "/functions/%s", fn);
	if (mkdir(path, 0755) && errno != EEXIST)
		return neg_errno();	/* ENOENT: the kernel lacks this function */
	return 0;
}

static int gadget_link(const char *fn)
{
	char from[192], to[192];

	snprintf(from, sizeof(from), GADGET "/functions/%s", fn);
	snprintf(to, sizeof(to), GADGET "/configs/c.1/%s", fn);
	return symlink(from, to) && errno != EEXIST ? neg_errno() : 0;
}

static void gadget_remove(const char *fn)
{
	char path[192];

	if (udc_bound())
		unbind_udc();
	snprintf(path, sizeof(path), GADGET "/configs/c.1/%s", fn);
	unlink(path);
	rmdir(GADGET "/configs/c.1");
	snprintf(path, sizeof(path), GADGET "/functions/%s", fn);
	rmdir(path);
	rmdir(GADGET);
}

/* the entry of /sys/class/CLASS (the first one), its node under /dev/PREFIX opened */
static int open_class_node(const char *class, const char *prefix, int flags)
{
	char dir[64], path[192];

	snprintf(dir, sizeof(dir), "/sys/class/%s", class);
	for (int t = 0; t < WAIT_MS / 10; t++) {
		DIR *d = opendir(dir);
		struct dirent *e;
		int fd = -ENODEV;

		while (d && (e = readdir(d))) {
			if (e->d_name[0] == '.' || strlen(e->d_name) > 64)
				continue;
			snprintf(path, sizeof(path), "/dev/%s%s", prefix, e->d_name);
			fd = open_node(path, flags);
			break;
		}
		if (d)
			closedir(d);
		if (fd >= 0)
			return fd;
		usleep(10000);
	}
	return -ENODEV;
}

/* ---- hiddev ---- */

/* a vendor-defined application (not an input device: usbhid gives it to hiddev), one byte in */
static const unsigned char vendor_report[] = {
	0x06, 0x00, 0xff, 0x09, 0x01, 0xa1, 0x01, 0x15, 0x00, 0x26, 0xff, 0x00,
	0x75, 0x08, 0x95, 0x01, 0x09, 0x01, 0x81, 0x02, 0xc0,
};

/*
 * The HID function of the gadget made (gadget_make), with the interface's
 * PROTOCOL and SUBCLASS, reports of REPORT_LENGTH bytes described by RD,
 * bound: fd is the host side's node (its class CLASS, /dev/PREFIX<name>),
 * aux[0] the gadget side's /dev/hidgN, through which the device reports.
 */
static int hid_gadget_open(struct fixture *f, const char *protocol, const char *subclass, const char *report_length,
			   const unsigned char *rd, size_t rd_size, const char *class, const char *prefix)
{
	char path[192];
	int r;

	if ((r = put("functions/hid.polltest/protocol", protocol)) ||
	    (r = put("functions/hid.polltest/subclass", subclass)) ||
	    (r = put("functions/hid.polltest/report_length", report_length)))
		return r;
	snprintf(path, sizeof(path), GADGET "/functions/hid.polltest/report_desc");
	if ((r = write_bytes(path, rd, rd_size)))
		return r;
	if ((r = gadget_link("hid.polltest")) || (r = bind_udc()))
		return r;
	f->fd = open_class_node(class, prefix, O_RDONLY | O_NONBLOCK);
	if (f->fd < 0)
		return f->fd;
	f->aux[0] = open_class_node("hidg", "", O_RDWR);
	return f->aux[0] < 0 ? f->aux[0] : 0;
}

int hiddev_open(struct fixture *f)
{
	int r;

	/* the Linux Foundation's multifunction composite gadget */
	if ((r = gadget_make("1d6b", "0104", "hid.polltest")))
		return r;
	/* the host side: usbhid's hiddev node */
	return hid_gadget_open(f, "0", "0", "1", vendor_report, sizeof(vendor_report), "usbmisc", "usb/");
}

/* one report from the device */
int hiddev_trigger(struct fixture *f)
{
	static unsigned char value;

	value++;
	return write(f->aux[0], &value, 1) == 1 ? 0 : neg_errno();
}

int hiddev_unplug(struct fixture *f)
{
	(void)f;
	return unbind_udc();
}

void hiddev_close(struct fixture *f)
{
	close_all(f);
	gadget_remove("hid.polltest");
}

/*
 * ---- roccat: the event node of a Roccat mouse ----
 * A HID gadget with Roccat's vendor and Savu's product IDs, a boot mouse
 * interface (hid-roccat-savu takes only that) whose one report (ID 3,
 * four vendor bytes) is Savu's "special" report: hid-roccat-savu passes
 * it to the readers of /dev/savuN.  roccat-unplugged unbinds the gadget
 * under the open node.
 */
static const unsigned char savu_report[] = {
	0x05, 0x01, 0x09, 0x02, 0xa1, 0x01, 0x85, 0x03, 0x06, 0x00, 0xff, 0x09, 0x01,
	0x15, 0x00, 0x26, 0xff, 0x00, 0x75, 0x08, 0x95, 0x04, 0x81, 0x02, 0xc0,
};

int roccat_open(struct fixture *f)
{
	int r;

	if ((r = gadget_make("1e7d", "2d5a", "hid.polltest")))
		return r;
	/* a boot interface (subclass 1) of a mouse (protocol 2) */
	return hid_gadget_open(f, "2", "1", "5", savu_report, sizeof(savu_report), "savu", "");
}

/* the special report: report ID 3, an event of type 0x20 */
int roccat_trigger(struct fixture *f)
{
	static const unsigned char special[5] = { 0x03, 0x00, 0x20, 0x01, 0x00 };

	return write(f->aux[0], special, sizeof(special)) == sizeof(special) ? 0 : neg_errno();
}

/* ---- functionfs ---- */

/* the descriptors of one interface, at full and high speed: no endpoint, or a bulk pair */
struct ffs_descriptors {
	struct usb_functionfs_descs_head_v2 head;
	uint32_t fs_count, hs_count;
	struct usb_interface_descriptor fs;
	struct usb_endpoint_descriptor_no_audio fs_in, fs_out;
	struct usb_interface_descriptor hs;
	struct usb_endpoint_descriptor_no_audio hs_in, hs_out;
} __attribute__((packed));

struct ffs_strings {
	struct usb_functionfs_strings_head head;
} __attribute__((packed));

/*
 * A FunctionFS function in the gadget VID:PID, mounted, its ep0 open in
 * *EP0 with the descriptors written: one vendor-specific interface, with
 * a bulk IN (ep1) and a bulk OUT (ep2) endpoint when BULK.
 */
static int ffs_function(const char *vid, const char *pid, bool bulk, int *ep0)
{
	static int counter;
	struct usb_interface_descriptor intf = {
		.bLength = sizeof(intf),
		.bDescriptorType = USB_DT_INTERFACE,
		.bNumEndpoints = bulk ? 2 : 0,
		.bInterfaceClass = USB_CLASS_VENDOR_SPEC,
	};
	struct usb_endpoint_descriptor_no_audio in = {
		.bLength = sizeof(in),
		.bDescriptorType = USB_DT_ENDPOINT,
		.bEndpointAddress = 1 | USB_DIR_IN,
		.bmAttributes = USB_ENDPOINT_XFER_BULK,
		.wMaxPacketSize = 64,
	}, out = in;
	struct ffs_descriptors d = {
		.head = { .magic = FUNCTIONFS_DESCRIPTORS_MAGIC_V2,
			  .flags = FUNCTIONFS_HAS_FS_DESC | FUNCTIONFS_HAS_HS_DESC },
		.fs = intf, .hs = intf,
	};
	struct ffs_strings s = { .head = { .magic = FUNCTIONFS_STRINGS_MAGIC, .length = sizeof(s) } };
	char path[192];
	int r;

	out.bEndpointAddress = 2 | USB_DIR_OUT;
	d.fs_in = d.hs_in = in;
	d.fs_out = d.hs_out = out;
	d.hs_in.wMaxPacketSize = d.hs_out.wMaxPacketSize = 512;
	if ((r = gadget_make(vid, pid, "ffs.polltest")) || (r = gadget_link("ffs.polltest")))
		return r;
	snprintf(ffs_mount, sizeof(ffs_mount), "%s/ffs-%d", tmp_dir(), counter++);
	if (mkdir(ffs_mount, 0700) || mount("polltest", ffs_mount, "functionfs", 0, NULL))
		return neg_errno();
	snprintf(path, sizeof(path), "%s/ep0", ffs_mount);
	*ep0 = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (*ep0 < 0)
		return neg_errno();
	if (bulk) {
		d.fs_count = d.hs_count = 3;
		d.head.length = sizeof(d);
		if (write(*ep0, &d, sizeof(d)) != sizeof(d))
			return neg_errno();
	} else {
		/* the interface alone: the same layout without the endpoints */
		unsigned char buf[sizeof(d)];
		size_t n = 0;

		d.fs_count = d.hs_count = 1;
		d.head.length = sizeof(d.head) + 2 * sizeof(uint32_t) + 2 * sizeof(intf);
		memcpy(buf, &d, offsetof(struct ffs_descriptors, fs_in));
		n = offsetof(struct ffs_descriptors, fs_in);
		memcpy(buf + n, &d.hs, sizeof(d.hs));
		n += sizeof(d.hs);
		if (write(*ep0, buf, n) != (ssize_t)n)
			return neg_errno();
	}
	return write(*ep0, &s, sizeof(s)) == sizeof(s) ? 0 : neg_errno();
}

static void ffs_remove(void)
{
	if (ffs_mount[0]) {
		umount(ffs_mount);
		rmdir(ffs_mount);
		ffs_mount[0] = '\0';
	}
	gadget_remove("ffs.polltest");
}

int functionfs_open(struct fixture *f)
{
	return ffs_function("1d6b", "0104", false, &f->fd);
}

/* bind the gadget, or unbind it: events either way */
int functionfs_trigger(struct fixture *f)
{
	(void)f;
	return udc_bound() ? unbind_udc() : bind_udc();
}

int functionfs_drain(struct fixture *f)
{
	struct usb_functionfs_event ev[8];

	for (int i = 0; i < 1024; i++) {
		if (read(f->fd, ev, sizeof(ev)) > 0)
			continue;
		return errno == EAGAIN ? 0 : neg_errno();
	}
	return -EIO;
}

void functionfs_close(struct fixture *f)
{
	if (udc_bound())
		unbind_udc();
	close_all(f);
	ffs_remove();
}

/* ---- gnss ---- */

/*
 * A receiver gnss-usb drives (the Sierra Wireless XM1210's USB ids), made
 * of a FunctionFS function with a bulk pair; aux[0] its ep0, aux[1] its
 * bulk IN endpoint, through which the gadget sends NMEA sentences.
 */
int gnss_open(struct fixture *f)
{
	char path[192];
	int r;

	if ((r = ffs_function("1199", "b000", true, &f->aux[0])) || (r = bind_udc()))
		return r;
	snprintf(path, sizeof(path), "%s/ep1", ffs_mount);
	f->aux[1] = open(path, O_WRONLY | O_CLOEXEC);
	if (f->aux[1] < 0)
		return neg_errno();
	/* opening it starts gnss-usb's reads from the device */
	f->fd = open_class_node("gnss", "", O_RDONLY | O_NONBLOCK);
	return f->fd < 0 ? f->fd : 0;
}

int gnss_trigger(struct fixture *f)
{
	static const char nmea[] = "$GPTXT,01,01,02,polltest*00\r\n";

	return write(f->aux[1], nmea, sizeof(nmea) - 1) == sizeof(nmea) - 1 ? 0 : neg_errno();
}

int gnss_unplug(struct fixture *f)
{
	(void)f;
	return unbind_udc();
}

void gnss_close(struct fixture *f)
{
	close_all(f);
	if (udc_bound())
		unbind_udc();
	ffs_remove();
}
