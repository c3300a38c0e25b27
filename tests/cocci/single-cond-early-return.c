/* The device-gone early return skips poll_wait. */
struct file;
typedef struct poll_table_struct poll_table;

struct bar_dev {
	wait_queue_head_t wait;
	int present;
};

static __poll_t bar_poll(struct file *file, poll_table *wait)
{
	struct bar_dev *bar = file->private_data;

	if (!bar->present)
		return EPOLLERR | EPOLLHUP;

	poll_wait(file, &bar->wait, wait);
	return EPOLLIN;
}

static const struct file_operations bar_fops = {
	.poll = bar_poll,
};
