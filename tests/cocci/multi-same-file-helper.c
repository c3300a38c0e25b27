/* The second head is registered by a helper of the same file that
 * gets the poll_table. */
struct file;
typedef struct poll_table_struct poll_table;

struct cl {
	wait_queue_head_t rx_wait;
	wait_queue_head_t ev_wait;
	int rx, ev;
};

static __poll_t cl_events_poll(struct file *file, struct cl *cl,
			       poll_table *wait)
{
	poll_wait(file, &cl->ev_wait, wait);
	return cl->ev ? EPOLLPRI : 0;
}

static __poll_t cl_poll(struct file *file, poll_table *wait)
{
	struct cl *cl = file->private_data;
	__poll_t mask;

	poll_wait(file, &cl->rx_wait, wait);
	mask = cl_events_poll(file, cl, wait);
	if (cl->rx)
		mask |= EPOLLIN;
	return mask;
}

static const struct file_operations cl_fops = {
	.poll	= cl_poll,
};
