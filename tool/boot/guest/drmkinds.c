// SPDX-License-Identifier: GPL-2.0
/*
 * drmkinds.c - the DRM kinds, on vkms (virtual KMS, no hardware):
 *
 *   drm-crc   the debugfs file dri/N/crtc-0/crc/data of vkms's CRTC: a
 *             line of CRCs per frame the CRTC scans out.  The file can
 *             only be opened while the CRTC is on, so the fixture turns
 *             it on with a dumb framebuffer, opens the file, and turns
 *             it off again; the trigger turns it on until the first CRC
 *             is there, and off; the drain reads what came.
 *
 *   drm-card  the card itself, /dev/dri/cardN (drm_poll): readable while
 *             a DRM event is unread.  The fixture turns the CRTC on; the
 *             trigger asks for an event at the next vblank
 *             (DRM_IOCTL_WAIT_VBLANK with _DRM_VBLANK_EVENT); the drain
 *             reads the events.
 *
 * The CRTC is set through the legacy mode-setting ioctls of the card the
 * fixture holds (aux[0], DRM master as its first opener; a trigger run by
 * a child uses the same open file).  The structures are those of the
 * kernel's uapi (include/uapi/drm/drm_mode.h), declared here as the guest
 * is built without libdrm's headers.
 */
#define _GNU_SOURCE
#include "polltest.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define WAIT_MS 5000

struct drm_version_ {
	int version_major, version_minor, version_patchlevel;
	size_t name_len;
	char *name;
	size_t date_len;
	char *date;
	size_t desc_len;
	char *desc;
};

struct drm_mode_modeinfo_ {
	uint32_t clock;
	uint16_t hdisplay, hsync_start, hsync_end, htotal, hskew;
	uint16_t vdisplay, vsync_start, vsync_end, vtotal, vscan;
	uint32_t vrefresh, flags, type;
	char name[32];
};

struct drm_mode_card_res_ {
	uint64_t fb_id_ptr, crtc_id_ptr, connector_id_ptr, encoder_id_ptr;
	uint32_t count_fbs, count_crtcs, count_connectors, count_encoders;
	uint32_t min_width, max_width, min_height, max_height;
};

struct drm_mode_get_connector_ {
	uint64_t encoders_ptr, modes_ptr, props_ptr, prop_values_ptr;
	uint32_t count_modes, count_props, count_encoders, encoder_id, connector_id;
	uint32_t connector_type, connector_type_id, connection, mm_width, mm_height, subpixel, pad;
};

struct drm_mode_crtc_ {
	uint64_t set_connectors_ptr;
	uint32_t count_connectors, crtc_id, fb_id, x, y, gamma_size, mode_valid;
	struct drm_mode_modeinfo_ mode;
};

struct drm_mode_create_dumb_ {
	uint32_t height, width, bpp, flags, handle, pitch;
	uint64_t size;
};

struct drm_mode_fb_cmd_ {
	uint32_t fb_id, width, height, pitch, bpp, depth, handle;
};

struct drm_wait_vblank_request_ {
	uint32_t type, sequence;
	unsigned long signal;
};

union drm_wait_vblank_ {
	struct drm_wait_vblank_request_ request;
	struct {
		uint32_t type, sequence;
		long tval_sec, tval_usec;
	} reply;
};

#define DRM_VBLANK_RELATIVE_	0x00000001
#define DRM_VBLANK_EVENT_	0x04000000

#define DRM_IOCTL_VERSION_		_IOWR('d', 0x00, struct drm_version_)
#define DRM_IOCTL_WAIT_VBLANK_		_IOWR('d', 0x3a, union drm_wait_vblank_)
#define DRM_IOCTL_MODE_GETRESOURCES_	_IOWR('d', 0xA0, struct drm_mode_card_res_)
#define DRM_IOCTL_MODE_SETCRTC_		_IOWR('d', 0xA2, struct drm_mode_crtc_)
#define DRM_IOCTL_MODE_GETCONNECTOR_	_IOWR('d', 0xA7, struct drm_mode_get_connector_)
#define DRM_IOCTL_MODE_ADDFB_		_IOWR('d', 0xAE, struct drm_mode_fb_cmd_)
#define DRM_IOCTL_MODE_CREATE_DUMB_	_IOWR('d', 0xB2, struct drm_mode_create_dumb_)

/* what the CRTC is set to; the same in every process of the fixture */
static struct {
	uint32_t crtc, connector, fb;
	struct drm_mode_modeinfo_ mode;
} kms;

static int ioctl_retry(int fd, unsigned long req, void *arg)
{
	int r;

	do
		r = ioctl(fd, req, arg);
	while (r < 0 && (errno == EINTR || errno == EAGAIN));
	return r ? neg_errno() : 0;
}

/* the vkms card, opened; its minor in *MINOR */
static int vkms_card(int *minor)
{
	for (int i = 0; i < 8; i++) {
		char path[32], name[16] = "";
		struct drm_version_ v = { .name_len = sizeof(name) - 1, .name = name };
		int fd;

		snprintf(path, sizeof(path), "/dev/dri/card%d", i);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (!ioctl(fd, DRM_IOCTL_VERSION_, &v) && !strcmp(name, "vkms")) {
			*minor = i;
			return fd;
		}
		close(fd);
	}
	return -ENODEV;
}

/* the first CRTC and connector, the connector's first mode, a dumb framebuffer of its size */
static int kms_setup(int card)
{
	struct drm_mode_card_res_ res = { 0 };
	struct drm_mode_get_connector_ conn = { 0 };
	struct drm_mode_modeinfo_ modes[64];
	struct drm_mode_create_dumb_ dumb = { 0 };
	struct drm_mode_fb_cmd_ fb = { 0 };
	uint32_t crtcs[8], conns[8];
	int r;

	if ((r = ioctl_retry(card, DRM_IOCTL_MODE_GETRESOURCES_, &res)))
		return r;
	if (!res.count_crtcs || !res.count_connectors || res.count_crtcs > 8 || res.count_connectors > 8)
		return -ENODEV;
	res.count_fbs = res.count_encoders = 0;
	res.crtc_id_ptr = (uintptr_t)crtcs;
	res.connector_id_ptr = (uintptr_t)conns;
	if ((r = ioctl_retry(card, DRM_IOCTL_MODE_GETRESOURCES_, &res)))
		return r;
	conn.connector_id = conns[0];
	if ((r = ioctl_retry(card, DRM_IOCTL_MODE_GETCONNECTOR_, &conn)))
		return r;
	if (!conn.count_modes)
		return -ENODEV;
	if (conn.count_modes > 64)
		conn.count_modes = 64;
	conn.count_props = conn.count_encoders = 0;
	conn.modes_ptr = (uintptr_t)modes;
	if ((r = ioctl_retry(card, DRM_IOCTL_MODE_GETCONNECTOR_, &conn)))
		return r;
	dumb.width = modes[0].hdisplay;
	dumb.height = modes[0].vdisplay;
	dumb.bpp = 32;
	if ((r = ioctl_retry(card, DRM_IOCTL_MODE_CREATE_DUMB_, &dumb)))
		return r;
	fb.width = dumb.width;
	fb.height = dumb.height;
	fb.pitch = dumb.pitch;
	fb.bpp = 32;
	fb.depth = 24;
	fb.handle = dumb.handle;
	if ((r = ioctl_retry(card, DRM_IOCTL_MODE_ADDFB_, &fb)))
		return r;
	kms.crtc = crtcs[0];
	kms.connector = conns[0];
	kms.fb = fb.fb_id;
	kms.mode = modes[0];
	return 0;
}

static int crtc_set(int card, bool on)
{
	struct drm_mode_crtc_ c = { .crtc_id = kms.crtc };

	if (on) {
		c.set_connectors_ptr = (uintptr_t)&kms.connector;
		c.count_connectors = 1;
		c.fb_id = kms.fb;
		c.mode_valid = 1;
		c.mode = kms.mode;
	}
	return ioctl_retry(card, DRM_IOCTL_MODE_SETCRTC_, &c);
}

int drm_crc_open(struct fixture *f)
{
	char path[96];
	int minor = 0, r;

	if ((r = debugfs_mount()))
		return r;
	f->aux[0] = vkms_card(&minor);
	if (f->aux[0] < 0)
		return f->aux[0];	/* no vkms */
	if ((r = kms_setup(f->aux[0])) || (r = crtc_set(f->aux[0], true)))
		return r;
	snprintf(path, sizeof(path), "/sys/kernel/debug/dri/%d/crtc-0/crc/data", minor);
	f->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (f->fd < 0)
		return neg_errno();
	if ((r = crtc_set(f->aux[0], false)))
		return r;
	return drain_fd(f->fd);
}

/* the CRTC on until its first CRC is there */
int drm_crc_trigger(struct fixture *f)
{
	struct pollfd p = { .fd = f->fd, .events = POLLIN };
	int r = crtc_set(f->aux[0], true), n;

	if (r)
		return r;
	n = poll(&p, 1, WAIT_MS);
	r = crtc_set(f->aux[0], false);
	return n == 1 ? r : n < 0 ? neg_errno() : -ETIMEDOUT;
}

int drm_card_open(struct fixture *f)
{
	int minor = 0, r;

	f->fd = vkms_card(&minor);
	if (f->fd < 0)
		return f->fd;	/* no vkms */
	if ((r = kms_setup(f->fd)) || (r = crtc_set(f->fd, true)) || (r = set_nonblock(f->fd)))
		return r;
	return drain_fd(f->fd);
}

/* an event at the next vblank of the CRTC, which is on */
int drm_card_trigger(struct fixture *f)
{
	union drm_wait_vblank_ v = { .request = { DRM_VBLANK_RELATIVE_ | DRM_VBLANK_EVENT_, 1, 0 } };

	return ioctl_retry(f->fd, DRM_IOCTL_WAIT_VBLANK_, &v);
}
