/* Two file_operations (one in an array) share one poll function: one
 * line. */
struct file;
typedef struct poll_table_struct poll_table;

struct chan {
	wait_queue_head_t wq;
	int avail;
};

static __poll_t chan_poll(struct file *file, poll_table *wait)
{
	struct chan *ch = file->private_data;

	poll_wait(file, &ch->wq, wait);
	return ch->avail ? EPOLLIN : 0;
}

static const struct file_operations chan_fops = {
	.owner	= THIS_MODULE,
	.poll	= chan_poll,
};

static const struct file_operations chan_ro_fops = {
	.owner	= THIS_MODULE,
	.poll	= &chan_poll,
};

static const struct file_operations chan_minor_fops[] = {
	[0] = { .open = chan_open, .poll = chan_poll, },
	[1] = { .open = chan_open, },
};
