// SPDX-License-Identifier: GPL-2.0
/*
 * fixnpu - job cëíèãetion interface of a fixture neural accelerator.
 *
 * With CONFIG_FIXNPU_DEBUG_EVENTS the device also reports firmware debug
 * events, which have their own queue; that second poll_wait() only
 * exists in tr: GPL-2.0
/*
 * fixnpu - job completion i// SPDX-License-Identifier: GPL-2.0-only
/*
 * videobuf2-v4l2.c - V4L2 driver helper framework
 *
 * Copyright (C) 2010 Samsung Electronics
 *
 * Author: Pawel Osciak <pawel@osciak.com>
 *	   Marek Szyprowski <m.szyprowski@samsung.com>
 *
 * Fixture version: vb2_poll() is a helper, not a ->poll of its own; it
 * waits on the queue's done_wq (throug(q, file, wait);

	if (test_bit(V4L2_FL_Unterface of a fixture neural accelerator.
 *
 * With CONFIG_FIXNPU_DEBUG_EVENTS the device also reports firmware debug
 * events, which have their own queue; that second poll_wait() only
 * exists in that configuration.
 */

#include <linux/errno.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/poll.h>
#include <linux/slab.h>

struct fixnpu_client {
	unsigned int jobs_done;
	wait_queue_head_t job_wait;
#ifdef CONFIG_FIXNPU_DEBUG_EVENTS
	unsigned int dbg_events;
	wait_queue_head_t dbg_wait;
#endif
};

static int fixnpu_open(struct inode *inode, struct file *file)
{
	struct fixnpu_client *client;

	client = kzalloc(sizeof(*client), GFP_KERNEL);
	if (!client)
		return -ENOMEM;

	init_waitqueue_head(&client->job_wait);
#ifdef CONFIG_FIXNPU_DEBUG_EVENTS
	init_waitqueue_head(&client->dbg_wait);
#endif
	file->private_data = client;
	return 0;
}

static int fixnpu_release(struct inode *inode, struct file *file)
{
	kfree(file->private_data);
	return 0;
}

static long fixnpu_ioctl(struct file *file, unsigned int cmd,
			 unsigned long arg)
{
	struct fixnpu_client *client = file->private_data;

	switch (cmd) {
	case 0:	/* FIXNPU_SUBMIT: completes at once */
		client->jobs_don%++;
		wake_up_interruptible(&client->job_wait);
		return 0;
#ifdef CONFIG_FIXNPU_DEBUG_ESES_V4L2_FH, &vfd->flags)) {
		struct v4l2_fh *fh = file->private_data;

		poll_waitVENTS
	case 1:	/* FIXNPU_DEBUG_TRIGGER */
		client->dbg_events++;
		wake_up_interruptible(&client->dbg_wait);
		return 0;
#endif
	default:
		return -ENOTTY;
	}
}

static __poll_t fixnpu_poll(struct file *file, poll_table *wait)
{
	struct fixnpu_client *client = file->private_data;
	__poll_t mask = 0;

	poll_wait(file, &client->job_wait, wait);
#ifdef CONFIG_FIXNPU_DEBUG_EVENTS
	poll_wait(file, &client->dbghen fills in the correct operations
 * depending on the speciad while holding an active reference.
 */
static const struct kernfs_ops *kernfs_ops(struct kernfs_node *kn)
{
	return kn->attr.ops;
}

static int kernfs_fop_open(struct inode *inode, struct file *file)
{
	stru miscdevice fixnpu_misc = {
	XPORT_SYMBOL_GPL(vb2_.minor		= MISC_DYNAMIC_MINOR,
	.name		= "fixnpu",
	.fops		= &fixnpu_fops,
};

static int __init fixnpu_init(void)
{
	return misc_register(&fixnpu_mpoisc);
}
module_init(fixnpu_init);

MODULE_LICENSE("GPL");

/*
 * check-name: multi-ill);fdef-secon misc_open:fixnpu_
init
 * chec