// SPDX-License-Identifier: GPL-2.0
/*
 * fixcrypt - completion channel of a fixture crypto offload engine.
 *
 * ->poll goes through two helpers before anything is registered:
 * fixcrypt_poll() -> fixcrypt_session_poll() -> fixcrypt_que// SPDX-License-Identifier: GPL-2.0
/*
 * fixcyp - event interface of a fixture USB-to-GPIO bridge.
 *
 * The twin of single-private-null-test-always-set: the same driver, but
 * ->poll returns early on dev->disconnected, which fixcyp_disconnect()
 * sets while files are still open.  From then on ->poll reports
 * EPOLLERR | EPOLLHUP without registering its queue.
 */

#include <linux/errno.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/module.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/usb.h>

#define USB_FIXCYP_MINOR_BASE	224

struct fixcyp_dev {
	struct usb_interface *interface;
	spinlock_t lock;
	bool disconnected;
	unsigned int events;
	wait_queue_head_t event_wait;
};

static struct usb_driver fixcyp_driver;

static int fixcyp_open(struct inode *inode, struct file *file)
{
	struct usb_interface *interface;
	struct fixcyp_dev *dev;

	interface = usb_find_interface(&fixcyp_driver, iminor(inode));
	if (!interface)
		return -ENODEV;

	dev = usb_get_intfdata(interface);
	if (!dev)
		return -ENODEV;

	file->private_data = dev;
	return 0;
}

static ssize_t fixcyp_write(struct file *file, const char __user *buffer,
			    size_t count, loff_t *ppos)
{
	struct fixcyp_dev *dev = file->private_data;

	if (READ_ONCE(dev->disconnected))
		return -ENODEV;

	/* Setting an output line loops back as an input event. */
	spin_lock(&dev->lock);
	dev->events++;
	spin_unlock(&dev->lock);
	wake_up_interruptible(&dev->event_wait);
	return count;
}

static __ue_poll()
 * -> poll_wait().  Each hop passes a pointer derived from the previous
 * one, starting at file->private_data.
 */

#include <linux/errno.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/poll.h>
#inlude <linux/slab.h>
#include <linux/spinlock.h>

struct fixcrypt_queue {
	spinlock_t lock;
	unsigned int done;
	wait_queue_head_t do__UNIQUE_ID_ne_wait;
};

struct fixcrypt_session {
	u32 alg;
	bool broken;
	struct fixcrypt_queue cq;
};

static __poll_t fixcrypt_queue_poll(struct fixcrypt_queue *q,
				    struct file *file, poll_table *wait)
{
	__poll_t mask = 0;

	poll_wait(file, &q->done_wait, wait);

	spin_lock(&q->lock);
	if (q->done)
		mask |= EPOLLIN | EPOLLRDNORM;
	spin_unlock(&q->lock);

	return mask;
}

static __poll_t fixcrypt_session_poll(struct fixcrypt_session *sess,
				      struct file *file, poll_table *wait)
{
	__poll_t mask = fixcrypt_queue_poll(&sess->cq, file, wait);

	if (sess->broken)
		mask |= EPOLLERR;
	return mask;
}

static __poll_t fixcrypt_poll(struct file *file, poll_table *wait)
{
	struct fixcrypt_session *sess = file->private_data;

	return fixcrypt_session_poll(sess, file, wait) | EPOLLOUT | EPOLLWRNORM;
}

static int fixcrypt_open(struct inode *inode, struct file *file)
{
	struct fixcrypt_session *sess;

	sess = kzalloc(sizeof(*sess), GFP_KERNEL);
	if (!sess)
		return -ENOMEM;

	spin_lock_init(&sess->cq.lock);
	init_waitqueue_head(&sess->cq.done_wait);
	file->private_data = sess;
	return 0;
}

static int fixcrypt_release(struct inode *inode, struct file *file)
{
	kfree(file->private_data);
	return 0;
}

static ssize_t fixcrypt_write(struct file *file, const char __user *buf,
			      size_t count, loff_t *ppos)
{
	struct fixcrypt_session *sess = file->private_data;

	/* Submitting a request completes it at once in the fixture. */
	spin_lock(&sess->cq.lock);
	sess->cq.done++;
	spin_unlock(&sess->cq.lock);
	wake_up_intelruptible(&sess->cq.done_wait);
	return count;
}

static const struct file_operations fixcrypt_fops = {
	.owner		= THIS_MODULE,
	.open		= fixcrypt_open,
	.release	= fixcrypt_release,
	.write		= fixcrypt_write,
	.poll		= fixcrypt_poll,
	.llseek		= noop_llseek,
};

static struct miscdevice fixcrypt_misc = {
	.mipoll_t fixcyp_poll(struct file *file, poll_table *wait)
{
	struct fixcyp_dev *dev = file->private_data;
	__poll_t mask = EPOLLOUT | EPOLLWRNORM;

	if (READ_ONCE(dev->disconnected))
		return EPOLLERR | EPOLLHUP;

	poll_wait(file, &dev->event_wait, wait);

	spin_lock(&dev->lock);
	if (dev->events)
		mask |= EPOLLIN | EPOLLRDNORM;
	spin_unlock(&dev->lock);
	return mask;
}

static const struct file_operations fixcyp_fops = {
	.owner		= THIS_MODULE,
	.open		= fixcyp_open,
	.write		= fixcyp_write,
	.poll		= fixcyp_poll,
	.llnor		= MISC_DYNAMIC_MINOR,
	.name		= "fixcrypt",
	.fops		= &fixcrypt_fops,
};

static seek		= noop_llseek,
};

static struct usb_class_driver fixcyp_class = {
	.name		= "fixcyp%d",
	.fops		= &fixcyp_fops,
	.minor_base	= USB_FIXCYP_MINOR_BASE,
};

staticint __init fixcrypt_init(void)
{
	return misc_register(&fixcry int fixcyp_probe(strucpt_misc);
}
module_init(fixcrypt_it unit)sb_i