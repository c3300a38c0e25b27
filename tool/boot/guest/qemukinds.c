// SPDX-License-Identifier: GPL-2.0
/*
 * qemukinds.c - the kinds on a device qemu emulates for the functional
 * boots (boot_guest.c adds the devices, and the kernel parameters that
 * say where they are; the benchmark's boots have neither):
 *
 *  - ipmi: /dev/ipmi0 of the IPMI device interface, on qemu's BMC
 *    simulator (ipmi-bmc-sim) behind an ISA KCS interface at I/O port
 *    0xca2.  The guest has no firmware table to find it by: the kernel
 *    command line names it (ipmi_si.type=kcs ipmi_si.ports=0xca2), since
 *    ipmi_si unregisters itself at boot when it finds no interface (a
 *    later hotmod would find no driver).  The file is readable once the
 *    BMC answered a request sent through it: the trigger sends Get Device
 *    ID, the drain receives the answers.
 *
 * kinds.c lists them in its table.
 */
#define _GNU_SOURCE
#include "polltest.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/ipmi.h>

#define IPMI_GET_DEVICE_ID 0x01

static long msgid;

int ipmi_open(struct fixture *f)
{
	/* made at boot, or never (no ipmi_si, or no BMC answered at the port) */
	f->fd = open("/dev/ipmi0", O_RDWR | O_NONBLOCK | O_CLOEXEC);
	return f->fd < 0 ? neg_errno() : 0;
}

/* one Get Device ID to the BMC; its answer is queued on the file that sent it */
int ipmi_trigger(struct fixture *f)
{
	struct ipmi_system_interface_addr bmc = {
		.addr_type = IPMI_SYSTEM_INTERFACE_ADDR_TYPE,
		.channel = IPMI_BMC_CHANNEL,
	};
	struct ipmi_req req = {
		.addr = (unsigned char *)&bmc,
		.addr_len = sizeof(bmc),
		.msgid = ++msgid,
		.msg = { .netfn = IPMI_NETFN_APP_REQUEST, .cmd = IPMI_GET_DEVICE_ID },
	};

	return ioctl(f->fd, IPMICTL_SEND_COMMAND, &req) ? neg_errno() : 0;
}

int ipmi_drain(struct fixture *f)
{
	for (int i = 0; i < 1024; i++) {
		struct ipmi_system_interface_addr from;
		unsigned char data[IPMI_MAX_MSG_LENGTH];
		struct ipmi_recv rcv = {
			.addr = (unsigned char *)&from,
			.addr_len = sizeof(from),
			.msg = { .data = data, .data_len = sizeof(data) },
		};

		if (!ioctl(f->fd, IPMICTL_RECEIVE_MSG_TRUNC, &rcv))
			continue;
		return errno == EAGAIN ? 0 : neg_errno();
	}
	return -EIO;
}
