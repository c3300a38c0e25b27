// SPDX-License-Identifier: GPL-2.0
/*
 * vhostkinds.c - vhost's character devices, the polltest process as the
 * VMM: a vhost device with a device IOTLB (VIRTIO_F_ACCESS_PLATFORM) is
 * readable when it has an IOTLB message for userspace, a miss: an address
 * of a ring it could not translate.
 *
 *   vhost-vsock   /dev/vhost-vsock, running;
 *   vhost-net     /dev/vhost-net with a raw packet socket as the backend of
 *                 its TX queue.
 *
 * The fixture maps the rings (IOVA 0 onward, a page each) onto a buffer of
 * its own, starts the device, and takes the mapping away again; the
 * trigger then kicks the TX queue: the worker prefetches the ring
 * addresses, misses, and queues the miss for the file.  The drain reads
 * the messages.  aux[0] is the TX queue's kick eventfd.
 */
#define _GNU_SOURCE
#include "polltest.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/if_ether.h>
#include <linux/vhost.h>
#include <linux/virtio_config.h>

#define RING_PAGES 6	/* desc, avail, used of two queues */
#define PAGE 4096

static int counter;

static int iotlb(int fd, uint8_t type, void *buf)
{
	struct vhost_msg m;

	memset(&m, 0, sizeof(m));
	m.type = VHOST_IOTLB_MSG;
	m.iotlb.iova = 0;
	m.iotlb.size = RING_PAGES * PAGE;
	m.iotlb.uaddr = (uintptr_t)buf;
	m.iotlb.perm = VHOST_ACCESS_RW;
	m.iotlb.type = type;
	return write(fd, &m, sizeof(m)) == sizeof(m) ? 0 : neg_errno();
}

/* owner, device IOTLB, rings 0 and 1 (their kick eventfds: 1's in aux[0]) mapped onto a buffer of ours */
static int vhost_setup(struct fixture *f, const char *node, void **buf)
{
	uint64_t features = 1ULL << VIRTIO_F_ACCESS_PLATFORM;
	struct vhost_memory none = { .nregions = 0 };

	f->fd = open(node, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (f->fd < 0)
		return neg_errno();
	/* an empty memory table: the rings' checks want one, the IOTLB does the translating */
	if (ioctl(f->fd, VHOST_SET_OWNER) || ioctl(f->fd, VHOST_SET_FEATURES, &features) ||
	    ioctl(f->fd, VHOST_SET_MEM_TABLE, &none))
		return neg_errno();
	*buf = mmap(NULL, RING_PAGES * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE,
		    -1, 0);
	if (*buf == MAP_FAILED) {
		*buf = NULL;
		return neg_errno();
	}
	f->priv = *buf;
	if (iotlb(f->fd, VHOST_IOTLB_UPDATE, *buf))
		return neg_errno();
	for (unsigned q = 0; q < 2; q++) {
		struct vhost_vring_state num = { .index = q, .num = 16 }, base = { .index = q, .num = 0 };
		struct vhost_vring_addr addr = {
			.index = q,
			.desc_user_addr = (3 * q) * PAGE,
			.avail_user_addr = (3 * q + 1) * PAGE,
			.used_user_addr = (3 * q + 2) * PAGE,
		};
		struct vhost_vring_file kick = { .index = q, .fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC) };

		if (kick.fd < 0)
			return neg_errno();
		if (q == 1)
			f->aux[0] = kick.fd;
		else
			f->aux[1] = kick.fd;
		if (ioctl(f->fd, VHOST_SET_VRING_NUM, &num) || ioctl(f->fd, VHOST_SET_VRING_ADDR, &addr) ||
		    ioctl(f->fd, VHOST_SET_VRING_BASE, &base) || ioctl(f->fd, VHOST_SET_VRING_KICK, &kick))
			return neg_errno();
	}
	return 0;
}

/*
 * The mapping taken away; what the start queued read, once the worker is
 * done with it (the start queues work of its own: vsock's send worker, a
 * writable backend socket's TX)
 */
static int vhost_unmap(struct fixture *f, void *buf)
{
	int r = iotlb(f->fd, VHOST_IOTLB_INVALIDATE, buf);

	if (r || (r = drain_fd(f->fd)))
		return r;
	usleep(100000);
	return drain_fd(f->fd);
}

int vhost_vsock_open(struct fixture *f)
{
	uint64_t cid = 100 + (uint64_t)getpid() * 64 + (uint64_t)(counter++ % 64);
	int running = 1, r;
	void *buf;

	if ((r = vhost_setup(f, "/dev/vhost-vsock", &buf)))
		return r;
	if (ioctl(f->fd, VHOST_VSOCK_SET_GUEST_CID, &cid) || ioctl(f->fd, VHOST_VSOCK_SET_RUNNING, &running))
		return neg_errno();
	return vhost_unmap(f, buf);
}

int vhost_net_open(struct fixture *f)
{
	struct vhost_vring_file backend = { .index = 1 };
	int r;
	void *buf;

	if ((r = vhost_setup(f, "/dev/vhost-net", &buf)))
		return r;
	f->aux[2] = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, htons(ETH_P_ALL));
	if (f->aux[2] < 0)
		return neg_errno();	/* no AF_PACKET */
	backend.fd = f->aux[2];
	if (ioctl(f->fd, VHOST_NET_SET_BACKEND, &backend))
		return neg_errno();
	return vhost_unmap(f, buf);
}

/* a kick of the TX queue */
int vhost_trigger(struct fixture *f)
{
	uint64_t one = 1;

	return write(f->aux[0], &one, sizeof(one)) == sizeof(one) ? 0 : neg_errno();
}

void vhost_close(struct fixture *f)
{
	close_all(f);
	if (f->priv)
		munmap(f->priv, RING_PAGES * PAGE);
	f->priv = NULL;
}
