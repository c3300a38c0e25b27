/* A file poll that busy-polls the socket before waiting on it. */
struct file;
typedef struct poll_table_struct poll_table;

static __poll_t tapq_poll(struct file *file, poll_table *wait)
{
	struct tapq *q = file->private_data;
	struct sock *sk = &q->sk;

	if (sk_can_busy_loop(sk))
		sk_busy_loop(sk, 1);
	poll_wait(file, &q->wq.wait, wait);
	return skb_queue_empty(&sk->sk_receive_queue) ? 0 : EPOLLIN;
}

static const struct file_operations tapq_fops = {
	.poll	= tapq_poll,
};
