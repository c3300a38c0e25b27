/* A poll_table parameter named poll_table (as in kernel/trace) is still
 * followed into the helper. */
struct file;
typedef struct poll_table_struct poll_table;

struct iter {
	wait_queue_head_t wait;
	int ready;
};

static __poll_t
iter_poll(struct iter *iter, struct file *filp, poll_table *poll_table)
{
	poll_wait(filp, &iter->wait, poll_table);
	return iter->ready ? EPOLLIN | EPOLLRDNORM : 0;
}

static __poll_t
buffers_poll(struct file *filp, poll_table *poll_table)
{
	struct buffer_info *info = filp->private_data;
	struct iter *iter = &info->iter;

	return iter_poll(iter, filp, poll_table);
}

static const struct file_operations buffers_fops = {
	.poll		= buffers_poll,
};
