/* No poll_wait at all: the mask is computed from state. */
struct file;
typedef struct poll_table_struct poll_table;

static __poll_t null_poll(struct file *file, poll_table *wait)
{
	return EPOLLIN | EPOLLRDNORM | EPOLLOUT | EPOLLWRNORM;
}

static const struct file_operations null_fops = {
	.owner	= THIS_MODULE,
	.poll	= null_poll,
};
