/* The helper registers only when the stream is open: single-cond
 * through the helper. */
struct file;
typedef struct poll_table_struct poll_table;

struct stream {
	wait_queue_head_t wq;
	int open, ready;
};

static void stream_wait(struct file *file, struct stream *s, poll_table *wait)
{
	if (!s->open)
		return;
	poll_wait(file, &s->wq, wait);
}

static __poll_t stream_poll(struct file *file, poll_table *wait)
{
	struct stream *s = file->private_data;

	stream_wait(file, s, wait);
	return s->ready ? EPOLLIN : 0;
}

static const struct file_operations stream_fops = {
	.poll	= stream_poll,
};
