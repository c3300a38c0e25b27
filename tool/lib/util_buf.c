// SPDX-License-Identifier: GPL-2.0
/*
 * util_buf.c - string buffers, UTF-8 made safe, string vectors (util.h).
 * Nothing here knows about poll.
 */
#define _GNU_SOURCE
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

void sb_grow(struct strbuf *sb, size_t extra)
{
	if (sb->len + extra + 1 <= sb->alloc)
		return;
	sb->alloc = (sb->len + extra + 1) * 3 / 2 + 16;
	sb->buf = xrealloc(sb->buf, sb->alloc);
}

void sb_add(struct strbuf *sb, const char *s, size_t n)
{
	sb_grow(sb, n);
	memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void sb_adds(struct strbuf *sb, const char *s)
{
	sb_add(sb, s, strlen(s));
}

void sb_addc(struct strbuf *sb, char c)
{
	sb_add(sb, &c, 1);
}

void sb_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		BUG("vsnprintf failed");
	sb_grow(sb, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb->len += (size_t)n;
}

char *sb_detach(struct strbuf *sb)
{
	char *p = sb->buf ? sb->buf : xstrdup("");

	sb->buf = NULL;
	sb->len = sb->alloc = 0;
	return p;
}

void sb_release(struct strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->alloc = 0;
}

void sb_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

/* Length of the valid UTF-8 sequence at S (by jansson's rules), or 0. */
static size_t utf8_len(const unsigned char *s)
{
	unsigned v;
	size_t n;

	if (s[0] < 0x80)
		return 1;
	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	n = s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3 : 4;
	v = s[0] & (n == 2 ? 0x1f : n == 3 ? 0x0f : 0x07);
	for (size_t i = 1; i < n; i++) {
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
		v = (v << 6) | (s[i] & 0x3f);
	}
	if (v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff) || (n == 3 && v < 0x800) || (n == 4 && v < 0x10000))
		return 0;
	return n;
}

/*
 * S with every byte that is not part of valid UTF-8 written as \xNN, so
 * that a path or a source text with Latin-1 (or random) bytes can go into
 * JSON (jansson refuses invalid UTF-8) and still says which bytes it had.
 */
char *utf8_safe(const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	while (*p) {
		size_t n = utf8_len(p);

		if (n) {
			sb_add(&sb, (const char *)p, n);
			p += n;
		} else {
			sb_addf(&sb, "\\x%02x", *p++);
		}
	}
	return sb_detach(&sb);
}

void sv_push(struct strvec *sv, const char *s)
{
	if (sv->n + 2 > sv->alloc) {
		sv->alloc = sv->alloc * 2 + 8;
		sv->v = xrealloc(sv->v, sv->alloc * sizeof(*sv->v));
	}
	sv->v[sv->n++] = xstrdup(s);
	sv->v[sv->n] = NULL;
}

void sv_pushf(struct strvec *sv, const char *fmt, ...)
{
	va_list ap;
	char *p;

	va_start(ap, fmt);
	p = xvasprintf(fmt, ap);
	va_end(ap);
	sv_push(sv, p);
	free(p);
}

void sv_clear(struct strvec *sv)
{
	for (size_t i = 0; i < sv->n; i++)
		free(sv->v[i]);
	free(sv->v);
	sv->v = NULL;
	sv->n = sv->alloc = 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void sv_sort(struct strvec *sv)
{
	if (sv->n)
		qsort(sv->v, sv->n, sizeof(*sv->v), cmp_str);
}

bool sv_contains(const struct strvec *sv, const char *s)
{
	for (size_t i = 0; i < sv->n; i++)
		if (!strcmp(sv->v[i], s))
			return true;
	return false;
}
