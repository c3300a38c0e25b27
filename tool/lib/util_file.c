// SPDX-License-Identifier: GPL-2.0
/*
 * util_file.c - files and paths: reading, writing atomically, directories,
 * paths as typed, an output path refused inside the tree (util.h).
 * Nothing here knows about poll.
 */
#define _GNU_SOURCE
#include "util_int.h"

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

int read_file(const char *path, char **out, size_t *len)
{
	return read_file_max(path, out, len, SIZE_MAX);
}

int read_file_max(const char *path, char **out, size_t *len, size_t max)
{
	struct stat st;
	size_t n = 0, alloc;
	char *buf;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	/*
	 * straight into a buffer of the file's size, with room for the NUL
	 * and for the read that sees the end (which grows it if the file did)
	 */
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		if ((uintmax_t)st.st_size > max) {
			close(fd);
			errno = EFBIG;
			return -1;
		}
		alloc = (size_t)st.st_size + 2;
	} else {
		alloc = 65536;
	}
	buf = xmalloc(alloc);
	for (;;) {
		ssize_t r;

		if (alloc - n < 2)
			buf = xrealloc(buf, alloc *= 2);
		r = read(fd, buf + n, alloc - n - 1);
		if (r == 0)
			break;
		if (r < 0) {
			int e = errno;

			if (e == EINTR)
				continue;
			close(fd);
			free(buf);
			errno = e;
			return -1;
		}
		n += (size_t)r;
		if (n > max) {	/* it grew, or is not a regular file */
			close(fd);
			free(buf);
			errno = EFBIG;
			return -1;
		}
	}
	close(fd);
	buf[n] = '\0';
	if (len)
		*len = n;
	*out = buf;
	return 0;
}

/*
 * Write to PATH.tmp.PID, fsync, rename: readers see the old or the new
 * file, never half.  -1 with errno on failure; *WHY (when not NULL) gets
 * the message, else it is printed with error().
 */
int write_atomic(const char *path, const char *data, size_t len, char **why)
{
	char *tmp = xasprintf("%s.tmp.%d", path, (int)getpid()), *msg = NULL;
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644), err;
	size_t off = 0;

	if (fd < 0) {
		err = errno;
		msg = xasprintf("cannot create '%s': %s", tmp, strerror(err));
		goto fail;
	}
	while (off < len) {
		ssize_t n = write(fd, data + off, len - off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = errno;
			msg = xasprintf("cannot write '%s': %s", tmp, strerror(err));
			close(fd);
			unlink(tmp);
			goto fail;
		}
		off += (size_t)n;
	}
	if (fsync(fd) < 0 || close(fd) < 0) {
		err = errno;
		msg = xasprintf("cannot write '%s': %s", tmp, strerror(err));
		unlink(tmp);
		goto fail;
	}
	if (rename(tmp, path) < 0) {
		err = errno;
		msg = xasprintf("cannot rename '%s' to '%s': %s", tmp, path, strerror(err));
		unlink(tmp);
		goto fail;
	}
	free(tmp);
	return 0;
fail:
	if (why)
		*why = msg;
	else
		error("%s", msg);
	if (why == NULL)
		free(msg);
	free(tmp);
	errno = err;
	return -1;
}

int write_file_atomic(const char *path, const char *data, size_t len)
{
	return write_atomic(path, data, len, NULL);
}

int mkdir_p(const char *path)
{
	char *p = xstrdup(path);

	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0755) < 0 && errno != EEXIST) {
			int e = errno;

			free(p);
			errno = e;
			return -1;
		}
		*s = '/';
	}
	if (mkdir(p, 0755) < 0 && errno != EEXIST) {
		int e = errno;

		free(p);
		errno = e;
		return -1;
	}
	free(p);
	return 0;
}

bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

bool is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

char *path_join(const char *a, const char *b)
{
	size_t la = strlen(a);

	if (b[0] == '/')
		return xstrdup(b);
	if (la && a[la - 1] == '/')
		return xasprintf("%s%s", a, b);
	return xasprintf("%s/%s", a, b);
}

char *realpath_or_die(const char *path)
{
	char *r = realpath(path, NULL);

	if (!r)
		die_code(EXIT_INPUT, "cannot resolve '%s': %s", path, strerror(errno));
	return r;
}

char *abs_path(const char *path)
{
	static char *cwd;
	struct strbuf sb = STRBUF_INIT;
	const char *p = path;

	if (!path)
		return NULL;
	if (*path != '/') {
		/* the first call's: every later one resolves against the same place */
		if (!cwd && !(cwd = getcwd(NULL, 0)))
			die("cannot find the current directory to resolve '%s' against: %s", path, strerror(errno));
		sb_adds(&sb, cwd);
	}
	while (*p) {
		size_t n;

		p += strspn(p, "/");
		n = strcspn(p, "/");
		if (!n)
			break;
		if (!(n == 1 && *p == '.')) {
			if (!(sb.len == 1 && sb.buf[0] == '/'))
				sb_addc(&sb, '/');
			sb_add(&sb, p, n);
		}
		p += n;
	}
	if (!sb.len)
		sb_addc(&sb, '/');
	return sb_detach(&sb);
}

/* PATH with its longest existing ancestor resolved by realpath(), the rest appended. */
static char *resolve_existing(const char *path)
{
	char *head = xstrdup(path), *real = NULL, *r;
	size_t cut = strlen(head);

	for (;;) {
		real = realpath(head, NULL);
		if (real || !cut)
			break;
		while (cut > 0 && head[cut] != '/')
			cut--;
		head[cut] = '\0';
		if (!cut) {
			real = xstrdup("/");
			break;
		}
	}
	if (!real)
		real = xstrdup("/");
	r = xasprintf("%s%s%s", real, path[cut] && !(real[0] == '/' && !real[1]) ? "/" : "",
		      path[cut] == '/' ? path + cut + 1 : path + cut);
	free(real);
	free(head);
	return r;
}

void refuse_inside_tree(const char *path, const char *typed, const char *opt, bool deflt, const char *root)
{
	char *real;
	size_t n = strlen(root);
	bool inside;

	if (!path)
		return;
	real = resolve_existing(path);
	inside = !strncmp(real, root, n) && (real[n] == '/' || !real[n] || (n == 1 && root[0] == '/'));
	free(real);
	if (!inside)
		return;
	if (deflt)
		die_code(EXIT_USAGE, "the default output directory '%s' is inside the kernel tree '%s', which polltax "
			 "never writes to: pass %s DIR outside the tree", typed, root, opt);
	die_code(EXIT_USAGE, "%s '%s' is inside the kernel tree '%s', which polltax never writes to: give %s a path "
		 "outside the tree", opt, typed, root, opt);
}
