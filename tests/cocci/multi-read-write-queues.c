/* Separate read and write queues: two heads. */
struct file;
typedef struct poll_table_struct poll_table;

struct lp {
	wait_queue_head_t rwait;
	wait_queue_head_t wwait;
	int rcomplete, wcomplete;
};

static __poll_t lp_poll(struct file *file, poll_table *wait)
{
	struct lp *lp = file->private_data;
	__poll_t mask = 0;

	poll_wait(file, &lp->rwait, wait);
	poll_wait(file, &lp->wwait, wait);
	if (lp->rcomplete)
		mask |= EPOLLIN | EPOLLRDNORM;
	if (lp->wcomplete)
		mask |= EPOLLOUT | EPOLLWRNORM;
	return mask;
}

static const struct file_operations lp_fops = {
	.owner	= THIS_MODULE,
	.poll	= lp_poll,
};
