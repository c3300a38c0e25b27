/* A second head that only some configs register: all configs count. */
struct file;
typedef struct poll_table_struct poll_table;

static DECLARE_WAIT_QUEUE_HEAD(evt_wait);

struct evt {
	wait_queue_head_t dbg_wait;
	int pending;
};

static __poll_t evt_poll(struct file *file, poll_table *wait)
{
	struct evt *evt = file->private_data;

	poll_wait(file, &evt_wait, wait);
#ifdef CONFIG_EVT_DEBUG
	poll_wait(file, &evt->dbg_wait, wait);
#endif
	return evt->pending ? EPOLLIN : 0;
}

static const struct file_operations evt_fops = {
	.poll	= evt_poll,
};
