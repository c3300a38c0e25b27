/* The line discipline does the waiting: the poll_table goes through an
 * indirect call. */
struct file;
typedef struct poll_table_struct poll_table;

static __poll_t tty_poll(struct file *filp, poll_table *wait)
{
	struct tty_struct *tty = file_tty(filp);
	struct tty_ldisc *ld;
	__poll_t ret = 0;

	ld = tty_ldisc_ref_wait(tty);
	if (!ld)
		return hung_up_tty_poll(filp, wait);
	if (ld->ops->poll)
		ret = ld->ops->poll(tty, filp, wait);
	tty_ldisc_deref(ld);
	return ret;
}

static __poll_t hung_up_tty_poll(struct file *filp, poll_table *wait)
{
	return EPOLLIN | EPOLLOUT | EPOLLERR | EPOLLHUP | EPOLLRDNORM | EPOLLWRNORM;
}

static const struct file_operations tty_fops = {
	.poll		= tty_poll,
};

static const struct file_operations hung_up_tty_fops = {
	.poll		= hung_up_tty_poll,
};
