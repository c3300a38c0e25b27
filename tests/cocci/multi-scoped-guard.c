/* scoped_guard() blocks parse with cocci/classify-macros.h. */
struct file;
typedef struct poll_table_struct poll_table;

static __poll_t pcm_poll(struct file *file, poll_table *wait)
{
	struct pcm_file *pf = file->private_data;
	struct runtime *prt = pf->playback, *crt = pf->capture;
	__poll_t mask = 0;

	if (prt) {
		poll_wait(file, &prt->sleep, wait);
		scoped_guard(pcm_stream_lock_irq, pf->psub) {
			if (prt->state != STATE_DRAINING)
				mask |= EPOLLOUT | EPOLLWRNORM;
		}
	}
	if (crt) {
		poll_wait(file, &crt->sleep, wait);
		scoped_guard(pcm_stream_lock_irq, pf->csub) {
			if (crt->state == STATE_RUNNING)
				mask |= EPOLLIN | EPOLLRDNORM;
		}
	}
	return mask;
}

static const struct file_operations pcm_fops = {
	.poll		= pcm_poll,
};
