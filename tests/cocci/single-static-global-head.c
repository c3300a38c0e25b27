/* One poll_wait on a global queue, on every path. */
struct file;
typedef struct poll_table_struct poll_table;

static DECLARE_WAIT_QUEUE_HEAD(log_wait);
static int log_ready;

static __poll_t log_poll(struct file *file, poll_table *wait)
{
	__poll_t mask = 0;

	poll_wait(file, &log_wait, wait);
	if (log_ready)
		mask |= EPOLLIN | EPOLLRDNORM;
	return mask;
}

static const struct file_operations log_fops = {
	.owner	= THIS_MODULE,
	.poll	= log_poll,
};
