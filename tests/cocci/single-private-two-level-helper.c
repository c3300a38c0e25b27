/* The only poll_wait is two calls down, in functions of this file. */
struct file;
typedef struct poll_table_struct poll_table;

struct ring {
	wait_queue_head_t waitq;
	int head, tail;
};

static void ring_wait(struct file *file, struct ring *r, poll_table *pt)
{
	poll_wait(file, &r->waitq, pt);
}

static __poll_t ring_poll_common(struct file *file, struct ring *r,
				 poll_table *pt)
{
	ring_wait(file, r, pt);
	return r->head != r->tail ? EPOLLIN | EPOLLRDNORM : 0;
}

static __poll_t ring_poll(struct file *file, poll_table *pt)
{
	return ring_poll_common(file, file->private_data, pt);
}

static const struct file_operations ring_fops = {
	.poll	= ring_poll,
};
