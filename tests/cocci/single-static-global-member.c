/* The head is a member of a global object; the same head twice counts
 * once. */
struct file;
typedef struct poll_table_struct poll_table;

static struct {
	wait_queue_head_t wait;
	int ready;
} sonar;

static __poll_t sonar_poll(struct file *file, poll_table *wait)
{
	poll_wait(file, &sonar.wait, wait);
	if (!sonar.ready) {
		poll_wait(file, &sonar.wait, wait);
		return 0;
	}
	return EPOLLIN;
}

static const struct file_operations sonar_fops = {
	.poll	= sonar_poll,
};
