// SPDX-License-Identifier: GPL-2.0
/*
 * util.c - the helpers of util.h: errors in one voice, allocation, the
 * remapped files of a parse, a line's preprocessor directive (the others:
 * util_buf.c, util_file.c, util_cache.c, util_proc.c).  Nothing here
 * knows about poll.
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

const char *progname = "polltax";

static void vreport(const char *prefix, const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: %s", progname, prefix);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void die_code(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("fatal: ", fmt, ap);
	va_end(ap);
	exit(code);
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("fatal: ", fmt, ap);
	va_end(ap);
	exit(EXIT_FATAL);
}

int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("error: ", fmt, ap);
	va_end(ap);
	return -1;
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("warning: ", fmt, ap);
	va_end(ap);
}

void bug_at(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: BUG: %s:%d: ", progname, file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(EXIT_INTERNAL);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die("out of memory allocating %zu bytes", n);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		die("out of memory allocating %zu bytes", n * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die("out of memory allocating %zu bytes", n);
	return p;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s ? s : "");

	if (!p)
		die("out of memory");
	return p;
}

char *xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);

	if (!p)
		die("out of memory");
	return p;
}

char *xvasprintf(const char *fmt, va_list ap)
{
	char *p;

	if (vasprintf(&p, fmt, ap) < 0)
		die("out of memory");
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;

	va_start(ap, fmt);
	p = xvasprintf(fmt, ap);
	va_end(ap);
	return p;
}

static const struct remap *remap_now;

void parse_remap_set(const struct remap *r)
{
	remap_now = r && r->text ? r : NULL;
}

const struct remap *parse_remap(void)
{
	return remap_now;
}

const char *directive(const char *l, const char *end, size_t *dlen)
{
	l = skip_blank(l, end);
	if (l >= end || *l != '#')
		return NULL;
	l = skip_blank(l + 1, end);
	*dlen = 0;
	while (l + *dlen < end && islower((unsigned char)l[*dlen]))
		(*dlen)++;
	return l;
}

bool is_dir_word(const char *d, size_t n, const char *w)
{
	return n == strlen(w) && !memcmp(d, w, n);
}

const char *skip_blank(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

bool has_suffix(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);

	return a >= b && !strcmp(s + a - b, suf);
}
