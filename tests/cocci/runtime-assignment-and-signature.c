/* An ops struct filled at run time, and an exported poll that no ops
 * struct of this file names. */
struct file;
typedef struct poll_table_struct poll_table;

static DECLARE_WAIT_QUEUE_HEAD(dyn_wait);

static __poll_t dyn_poll(struct file *file, poll_table *wait)
{
	poll_wait(file, &dyn_wait, wait);
	return 0;
}

__poll_t lib_poll(struct file *file, poll_table *wait)
{
	struct lib *lib = file->private_data;

	poll_wait(file, &lib->wait, wait);
	return lib->ready ? EPOLLIN : 0;
}

static struct file_operations dyn_fops;

static void dyn_setup(void)
{
	dyn_fops.poll = dyn_poll;
	dyn_fops.open = dyn_open;
}
