/* A proto_ops poll that registers with sock_poll_wait(). */
struct file;
struct socket;
typedef struct poll_table_struct poll_table;

static __poll_t pkt_poll(struct file *file, struct socket *sock,
			 poll_table *wait)
{
	struct sock *sk = sock->sk;
	__poll_t mask = 0;

	sock_poll_wait(file, sock, wait);
	if (!skb_queue_empty_lockless(&sk->sk_receive_queue))
		mask |= EPOLLIN | EPOLLRDNORM;
	return mask;
}

static const struct proto_ops pkt_ops = {
	.family	= PF_PACKET,
	.poll	= pkt_poll,
};
