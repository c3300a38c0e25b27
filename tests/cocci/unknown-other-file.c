/* The poll_table goes to a function of another file, and the second
 * ops names a function this file does not define. */
struct file;
typedef struct poll_table_struct poll_table;

static __poll_t cam_poll(struct file *file, poll_table *wait)
{
	struct cam *cam = video_drvdata(file);

	return vb2_poll(&cam->queue, file, wait);
}

static const struct v4l2_file_operations cam_fops = {
	.owner	= THIS_MODULE,
	.poll	= cam_poll,
};

static const struct v4l2_file_operations cam_meta_fops = {
	.owner	= THIS_MODULE,
	.poll	= vb2_fop_poll,
};
