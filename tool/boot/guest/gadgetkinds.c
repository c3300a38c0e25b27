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
 *   functionfs    ep0 of a FunctionFS function (f_fs): readable when the
 *                 function has events to read; the trigger binds the
 *                 gadget to the UDC (BIND, ENABLE) or unbinds it (DISABLE,
 *                 UNBIND), and waits for the host side to finish.
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

/* whether the host side sees the gadget: a USB device 1d6b:0104 */
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
		if (read_text(path, text, sizeof(text)) || strcmp(text, "1d6b\n"))
			continue;
		snprintf(path, sizeof(path), "/sys/bus/usb/devices/%s/idProduct", e->d_name);
		found = !read_text(path, text, sizeof(text)) && !strcmp(text, "0104\n");
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

/* the gadget and its configuration, with the function FN ("hid.polltest") in it */
static int gadget_make(const char *fn)
{
	char path[192];
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
	/* the Linux Foundation's multifunction composite gadget */
	if ((r = put("idVendor", "0x1d6b")) || (r = put("idProduct", "0x0104")))
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

int hiddev_open(struct fixture *f)
{
	char path[192];
	int r;

	if ((r = gadget_make("hid.polltest")))
		return r;
	if ((r = put("functions/hid.polltest/protocol", "0")) || (r = put("functions/hid.polltest/subclass", "0")) ||
	    (r = put("functions/hid.polltest/report_length", "1")))
		return r;
	snprintf(path, sizeof(path), GADGET "/functions/hid.polltest/report_desc");
	if ((r = write_bytes(path, vendor_report, sizeof(vendor_report))))
		return r;
	if ((r = gadget_link("hid.polltest")) || (r = bind_udc()))
		return r;
	/* the host side: usbhid's hiddev node; the gadget side: f_hid's */
	f->fd = open_class_node("usbmisc", "usb/", O_RDONLY | O_NONBLOCK);
	if (f->fd < 0)
		return f->fd;
	f->aux[0] = open_class_node("hidg", "", O_RDWR);
	return f->aux[0] < 0 ? f->aux[0] : 0;
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
	for (int i = 0; i < MAX_AUX; i++)
		f->aux[i] = -1;
	gadget_remove("hid.polltest");
}

/* ---- functionfs ---- */

struct ffs_descriptors {
	struct usb_functionfs_descs_head_v2 head;
	uint32_t fs_count, hs_count;
	struct usb_interface_descriptor fs, hs;
} __attribute__((packed));

struct ffs_strings {
	struct usb_functionfs_strings_head head;
} __attribute__((packed));

int functionfs_open(struct fixture *f)
{
	static int counter;
	char path[192];
	struct usb_interface_descriptor intf = {
		.bLength = sizeof(intf),
		.bDescriptorType = USB_DT_INTERFACE,
		.bInterfaceClass = USB_CLASS_VENDOR_SPEC,
	};
	struct ffs_descriptors d = {
		.head = { .magic = FUNCTIONFS_DESCRIPTORS_MAGIC_V2, .length = sizeof(d),
			  .flags = FUNCTIONFS_HAS_FS_DESC | FUNCTIONFS_HAS_HS_DESC },
		.fs_count = 1, .hs_count = 1, .fs = intf, .hs = intf,
	};
	struct ffs_strings s = { .head = { .magic = FUNCTIONFS_STRINGS_MAGIC, .length = sizeof(s) } };
	int r;

	if ((r = gadget_make("ffs.polltest")) || (r = gadget_link("ffs.polltest")))
		return r;
	snprintf(ffs_mount, sizeof(ffs_mount), "%s/ffs-%d", tmp_dir(), counter++);
	if (mkdir(ffs_mount, 0700) || mount("polltest", ffs_mount, "functionfs", 0, NULL))
		return neg_errno();
	snprintf(path, sizeof(path), "%s/ep0", ffs_mount);
	f->fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (f->fd < 0)
		return neg_errno();
	if (write(f->fd, &d, sizeof(d)) != sizeof(d) || write(f->fd, &s, sizeof(s)) != sizeof(s))
		return neg_errno();
	return 0;
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
	if (ffs_mount[0]) {
		umount(ffs_mount);
		rmdir(ffs_mount);
		ffs_mount[0] = '\0';
	}
	gadget_remove("ffs.polltest");
}
