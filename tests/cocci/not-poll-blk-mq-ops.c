/* .poll members that are not file polling: reported with their ops
 * type so that the caller can exclude them. */
struct blk_mq_hw_ctx;
struct io_comp_batch;
struct rfkill;

static int nullb_poll(struct blk_mq_hw_ctx *hctx, struct io_comp_batch *iob)
{
	return nullb_complete(hctx->driver_data, iob);
}

static const struct blk_mq_ops nullb_mq_ops = {
	.queue_rq	= nullb_queue_rq,
	.poll		= nullb_poll,
};

static void radio_rfkill_poll(struct rfkill *rfkill, void *data)
{
	rfkill_set_hw_state(rfkill, radio_blocked(data));
}

static const struct rfkill_ops radio_rfkill_ops = {
	.poll		= radio_rfkill_poll,
	.set_block	= radio_set_block,
};
