/* A proxy that polls another file, and one that calls a function
 * pointer parameter. */
struct file;
typedef struct poll_table_struct poll_table;

static __poll_t proxy_poll(struct file *file, poll_table *wait)
{
	struct file *real = file->private_data;

	return vfs_poll(real, wait);
}

static __poll_t cb_poll(struct file *file, poll_table *wait)
{
	__poll_t (*fn)(struct file *, poll_table *) = file->private_data;

	return fn(file, wait);
}

static const struct proc_ops proxy_proc_ops = {
	.proc_poll	= proxy_poll,
};

static const struct file_operations cb_fops = {
	.poll	= cb_poll,
};
