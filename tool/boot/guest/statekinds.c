// SPDX-License-Identifier: GPL-2.0
/*
 * statekinds.c - the kinds whose open file gets another ->poll when what it
 * is open on goes away, and device-mapper's control node:
 *
 *  - tty-hung-up: a pty's slave (opened as the pty kind's), whose master
 *    the trigger closes (in a thread: the last reference must go).  The
 *    tty core then points every
 *    open file of the tty at hung_up_tty_fops, whose poll is always ready,
 *    and wakes the tty's queues: a waiter that went to sleep in tty_poll()
 *    (two queues: aio refuses it before the hang-up) is woken into it.
 *  - snd-disconnected: the control node of snd-dummy's card, subscribed to
 *    events.  The trigger unbinds the card's platform device: then
 *    snd_card_disconnect() points the open files at the shutdown fops
 *    (snd_disconnect_poll(): POLLERR) and wakes whoever sleeps on the
 *    control file's queue, so a waiter that went to sleep in the old
 *    ->poll is woken into the new one.  The unbinding process (which
 *    keeps none of our descriptors) stays blocked until the last file of
 *    the card is closed; the fixture's close waits for it, and the next
 *    open binds the card again.
 *  - dm-control: /dev/mapper/control, readable once a device-mapper event
 *    happened after the file last armed it (DM_DEV_ARM_POLL, the drain);
 *    the trigger creates and removes a device.
 *
 * kinds.c lists them in its table.
 */
#define _GNU_SOURCE
#include "polltest.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/dm-ioctl.h>
#include <sound/asound.h>

#define WAIT_MS 5000

static int counter;
static pid_t unbinder;	/* the last unbinding process, until it is reaped */

/* ---- a pty slave whose master goes away: hung_up_tty_fops ---- */

/* pty_close() of the master hangs the slave up (tty_vhangup()) and wakes its queues */
int tty_hung_up_trigger(struct fixture *f)
{
	if (f->aux[0] >= 0 && close(f->aux[0]))
		return neg_errno();
	f->aux[0] = -1;
	return 0;
}

/* ---- snd-dummy's control node, disconnected under its waiters ---- */

#define SND_DRIVER "/sys/bus/platform/drivers/snd_dummy"
#define SND_DEVICE "snd_dummy.0"

/* The number of snd-dummy's card, bound again if need be (waited for); -errno when there is none. */
static int snd_dummy_card(void)
{
	if (access(SND_DRIVER, F_OK))
		return -ENOENT;	/* no snd-dummy in this kernel */
	/* an unbind still waiting for a file of the card: a bind now would wait with it, for ever */
	if (unbinder > 0 && waitpid(unbinder, NULL, WNOHANG) == 0)
		return -EBUSY;
	unbinder = 0;
	for (int t = 0; t < WAIT_MS / 10; t++) {
		glob_t g;
		int card = -1;

		if (glob("/sys/bus/platform/devices/" SND_DEVICE "/sound/card*", 0, NULL, &g) == 0) {
			card = atoi(strrchr(g.gl_pathv[0], 'd') + 1);
			globfree(&g);
		}
		if (card >= 0) {
			char node[64];

			snprintf(node, sizeof(node), "/dev/snd/controlC%d", card);
			if (!access(node, F_OK))
				return card;
		} else if (access(SND_DRIVER "/" SND_DEVICE, F_OK)) {
			/* unbound: bind it (EBUSY or ENODEV while the last unbind finishes) */
			write_text(SND_DRIVER "/bind", SND_DEVICE);
		}
		usleep(10000);
	}
	return -ETIMEDOUT;
}

int snd_disconnected_open(struct fixture *f)
{
	char node[64];
	int card = snd_dummy_card(), one = 1;

	if (card < 0)
		return card;
	snprintf(node, sizeof(node), "/dev/snd/controlC%d", card);
	f->fd = open(node, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (f->fd < 0)
		return neg_errno();
	/* an unsubscribed control file registers no queue at all (snd_ctl_poll()) */
	return ioctl(f->fd, SNDRV_CTL_IOCTL_SUBSCRIBE_EVENTS, &one) ? neg_errno() : 0;
}

/*
 * Unbind the card in a process of ours, which stays in the write until the
 * last file of the card is closed (snd_card_free() waits for it); once.
 */
int snd_disconnected_trigger(struct fixture *f)
{
	pid_t pid;

	if (f->pid)
		return 0;
	pid = fork();
	if (pid < 0)
		return neg_errno();
	if (pid == 0) {
		/*
		 * Not with our descriptors: a copy of the control file here
		 * would keep the card open, and the unbind waits for the
		 * last one to close.
		 */
		close_range(3, ~0U, 0);
		_exit(write_text(SND_DRIVER "/unbind", SND_DEVICE) ? 1 : 0);
	}
	f->pid = unbinder = pid;
	return 0;
}

void snd_disconnected_close(struct fixture *f)
{
	close_all(f);
	if (f->pid > 0) {
		/* the files are closed: the unbind returns, the card is gone (bounded: a hang shows at the next open) */
		for (int t = 0; t < WAIT_MS / 10 && unbinder > 0; t++) {
			if (waitpid(f->pid, NULL, WNOHANG) != 0)
				unbinder = 0;
			else
				usleep(10000);
		}
		f->pid = 0;
	}
}

/* ---- /dev/mapper/control: a device-mapper event since the file armed it ---- */

static int dm_cmd(int fd, unsigned long cmd, const char *name)
{
	struct dm_ioctl io;

	memset(&io, 0, sizeof(io));
	io.version[0] = DM_VERSION_MAJOR;
	io.data_size = sizeof(io);
	io.data_start = sizeof(io);
	if (name)
		snprintf(io.name, sizeof(io.name), "%s", name);
	return ioctl(fd, cmd, &io) ? neg_errno() : 0;
}

int dm_control_open(struct fixture *f)
{
	f->fd = open("/dev/mapper/control", O_RDWR | O_CLOEXEC);
	if (f->fd < 0)
		return neg_errno();
	return dm_control_drain(f);
}

/* a device made and removed: two global events */
int dm_control_trigger(struct fixture *f)
{
	char name[64];
	int r;

	snprintf(name, sizeof(name), "polltest-%d-%d", (int)getpid(), counter++);
	r = dm_cmd(f->fd, DM_DEV_CREATE, name);
	if (!r)
		r = dm_cmd(f->fd, DM_DEV_REMOVE, name);
	return r;
}

int dm_control_drain(struct fixture *f)
{
	return dm_cmd(f->fd, DM_DEV_ARM_POLL, NULL);
}
