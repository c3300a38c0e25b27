/* poll_wait only when the file was opened for reading. */
struct file;
typedef struct poll_table_struct poll_table;

struct mon_reader {
	wait_queue_head_t b_wait;
	int empty;
};

static __poll_t mon_poll(struct file *file, struct poll_table_struct *wait)
{
	struct mon_reader *rp = file->private_data;
	__poll_t mask = 0;

	if (file->f_mode & FMODE_READ)
		poll_wait(file, &rp->b_wait, wait);
	if (!rp->empty)
		mask |= EPOLLIN | EPOLLRDNORM;
	return mask;
}

static const struct file_operations mon_fops = {
	.poll = mon_poll,
};
