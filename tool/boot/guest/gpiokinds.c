// SPDX-License-Identifier: GPL-2.0
/*
 * gpiokinds.c - the GPIO character device (drivers/gpio/gpiolib-cdev.c)
 * on the lines of gpio-mockup, which boot-test builds in and sizes on the
 * kernel command line (gpio_mockup.gpio_mockup_ranges=-1,8: one chip of 8
 * lines, labelled gpio-mockup-A).  debugfs pulls each input line up or
 * down (gpio-mockup/gpiochipN/<line>, "0" or "1"): every pull that
 * changes the level is an edge.
 *
 *   gpio-line   a line request of the v2 ABI (GPIO_V2_GET_LINE_IOCTL) on
 *               both edges: readable while an edge event is unread
 *               (linereq_poll);
 *   gpio-event  the same through the v1 ABI (GPIO_GET_LINEEVENT_IOCTL,
 *               lineevent_poll);
 *   gpio-chip   the chip itself, watching a line's info
 *               (GPIO_V2_GET_LINEINFO_WATCH_IOCTL): readable while a
 *               change of it (the line requested, then released, by
 *               another open of the chip) is unread (lineinfo_watch_poll).
 *
 * Each fixture takes the next of the 8 lines, so that fixtures open at the
 * same time do not ask for the same line.  A kernel without gpio-mockup
 * has no such chip: open() fails with -ENOENT, on every kernel alike.
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
#include <unistd.h>
#include <linux/gpio.h>

#define MOCKUP_LABEL "gpio-mockup-A"
#define MOCKUP_LINES 8

static unsigned int next_line;

/* The gpio-mockup chip: its /dev node into DEV, its name (gpiochipN) into NAME. */
static int mockup_chip(char *dev, size_t dsize, char *name, size_t nsize)
{
	DIR *d = opendir("/dev");
	struct dirent *de;
	int r = -ENOENT;

	if (!d)
		return neg_errno();
	while (r && (de = readdir(d))) {
		struct gpiochip_info info;
		int fd;

		if (strncmp(de->d_name, "gpiochip", 8) || strlen(de->d_name) + 6 > dsize || strlen(de->d_name) >= nsize)
			continue;
		snprintf(dev, dsize, "/dev/%.*s", (int)(dsize - 6), de->d_name);
		fd = open(dev, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		memset(&info, 0, sizeof(info));
		if (!ioctl(fd, GPIO_GET_CHIPINFO_IOCTL, &info) && !strcmp(info.label, MOCKUP_LABEL) &&
		    info.lines >= MOCKUP_LINES) {
			snprintf(name, nsize, "%.*s", (int)(nsize - 1), de->d_name);
			r = 0;
		}
		close(fd);
	}
	closedir(d);
	return r;
}

/*
 * The chip opened into aux[0] (fd too with WATCH), the fixture's line into
 * *LINE, and the debugfs file that pulls it into f->path (debugfs mounted).
 */
static int chip_open(struct fixture *f, unsigned int *line)
{
	char dev[64], name[32];
	int r = mockup_chip(dev, sizeof(dev), name, sizeof(name));

	if (r)
		return r;
	if ((r = debugfs_mount()))
		return r;
	*line = next_line++ % MOCKUP_LINES;
	snprintf(f->path, sizeof(f->path), "/sys/kernel/debug/gpio-mockup/%s/%u", name, *line);
	if (access(f->path, W_OK))
		return neg_errno();
	/* the line starts low */
	if ((r = write_text(f->path, "0")))
		return r;
	f->aux[0] = open(dev, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	return f->aux[0] < 0 ? neg_errno() : 0;
}

/* An edge: the pull of the fixture's line the other way. */
int gpio_edge_trigger(struct fixture *f)
{
	char v[8];
	int r = read_text(f->path, v, sizeof(v));

	return r ? r : write_text(f->path, v[0] == '1' ? "0" : "1");
}

int gpio_line_open(struct fixture *f)
{
	struct gpio_v2_line_request req;
	unsigned int line;
	int r = chip_open(f, &line);

	if (r)
		return r;
	memset(&req, 0, sizeof(req));
	req.offsets[0] = line;
	req.num_lines = 1;
	req.config.flags = GPIO_V2_LINE_FLAG_INPUT | GPIO_V2_LINE_FLAG_EDGE_RISING | GPIO_V2_LINE_FLAG_EDGE_FALLING;
	req.event_buffer_size = 64;
	snprintf(req.consumer, sizeof(req.consumer), "polltest");
	if (ioctl(f->aux[0], GPIO_V2_GET_LINE_IOCTL, &req))
		return neg_errno();
	f->fd = req.fd;
	return set_nonblock(f->fd);
}

int gpio_event_open(struct fixture *f)
{
	struct gpioevent_request req;
	unsigned int line;
	int r = chip_open(f, &line);

	if (r)
		return r;
	memset(&req, 0, sizeof(req));
	req.lineoffset = line;
	req.handleflags = GPIOHANDLE_REQUEST_INPUT;
	req.eventflags = GPIOEVENT_REQUEST_BOTH_EDGES;
	snprintf(req.consumer_label, sizeof(req.consumer_label), "polltest");
	if (ioctl(f->aux[0], GPIO_GET_LINEEVENT_IOCTL, &req))
		return neg_errno();
	f->fd = req.fd;
	return set_nonblock(f->fd);
}

int gpio_chip_open(struct fixture *f)
{
	struct gpio_v2_line_info info;
	unsigned int line;
	int r = chip_open(f, &line);

	if (r)
		return r;
	f->fd = f->aux[0];	/* the chip under test */
	f->aux[0] = -1;
	memset(&info, 0, sizeof(info));
	info.offset = line;
	return ioctl(f->fd, GPIO_V2_GET_LINEINFO_WATCH_IOCTL, &info) ? neg_errno() : 0;
}

/* A change of the watched line's info: another open of the chip requests the line and releases it. */
int gpio_chip_trigger(struct fixture *f)
{
	struct gpio_v2_line_request req;
	const char *slash = strrchr(f->path, '/'), *chip;
	char dev[64];
	int fd;

	if (!slash)
		return -EINVAL;
	/* f->path is .../gpio-mockup/gpiochipN/<line> */
	chip = slash;
	while (chip > f->path && chip[-1] != '/')
		chip--;
	snprintf(dev, sizeof(dev), "/dev/%.*s", (int)(slash - chip), chip);
	fd = open(dev, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return neg_errno();
	memset(&req, 0, sizeof(req));
	req.offsets[0] = (unsigned int)atoi(slash + 1);
	req.num_lines = 1;
	req.config.flags = GPIO_V2_LINE_FLAG_INPUT;
	snprintf(req.consumer, sizeof(req.consumer), "polltest-trigger");
	if (ioctl(fd, GPIO_V2_GET_LINE_IOCTL, &req)) {
		int r = neg_errno();

		close(fd);
		return r;
	}
	close(req.fd);
	close(fd);
	return 0;
}
