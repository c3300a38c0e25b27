/* One head reached through file->private_data, unconditional;
 * poll_requested_events() uses the table without registering. */
struct file;
typedef struct poll_table_struct poll_table;

struct foo_dev {
	wait_queue_head_t wait;
	int count;
};

static __poll_t foo_poll(struct file *file, poll_table *wait)
{
	struct foo_dev *dev = file->private_data;
	__poll_t events = poll_requested_events(wait);

	poll_wait(file, &dev->wait, wait);
	if (dev->count && (events & EPOLLIN))
		return EPOLLIN | EPOLLRDNORM;
	return 0;
}

static const struct file_operations foo_fops = {
	.owner		= THIS_MODULE,
	.poll		= foo_poll,
	.llseek		= noop_llseek,
};
