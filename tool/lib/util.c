// SPDX-License-Identifier: GPL-2.0
/*
 * util.c - the helpers of util.h.  Nothing here knows about poll.
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

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;

	va_start(ap, fmt);
	if (vasprintf(&p, fmt, ap) < 0)
		die("out of memory");
	va_end(ap);
	return p;
}

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
	if (vasprintf(&p, fmt, ap) < 0)
		die("out of memory");
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
static int write_atomic(const char *path, const char *data, size_t len, char **why)
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

int rm_rf(const char *path)
{
	const char *argv[] = { "rm", "-rf", "--", path, NULL };

	return run_cmd(argv, NULL, NULL, false) == 0 ? 0 : -1;
}

/* Set once, before the scan forks its workers: shared by them, so that a run warns once. */
static int *cache_warned;
static char *cache_tmp;		/* the temporary cache of this run, if any */
static pid_t cache_tmp_owner;

static void cache_tmp_remove(void)
{
	if (cache_tmp && getpid() == cache_tmp_owner)
		rm_rf(cache_tmp);
}

/* Can the directories a scan writes under ROOT be written?  NULL, or why not. */
static char *cache_unwritable(const char *root)
{
	static const char *const dirs[] = { "facts/sets", "pch", "prefilter", "cocci", "tmp", NULL };

	for (int i = 0; dirs[i]; i++) {
		char *d = path_join(root, dirs[i]), *probe = xasprintf("%s/.probe.%d", d, (int)getpid());
		char *why = NULL;
		int fd;

		if (mkdir_p(d) < 0)
			why = xasprintf("cannot create '%s': %s", d, strerror(errno));
		else if ((fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644)) < 0)
			why = xasprintf("cannot write in '%s': %s", d, strerror(errno));
		else {
			close(fd);
			unlink(probe);
		}
		free(probe);
		free(d);
		if (why)
			return why;
	}
	return NULL;
}

char *cache_home(void)
{
	const char *x = getenv("XDG_CACHE_HOME");
	char *root;

	if (x && *x == '/') {
		root = xasprintf("%s/polltax", x);
	} else if (x && *x) {
		/* made absolute: the workers and the PCH paths (pch.c) must not depend on a cwd */
		char *cwd = getcwd(NULL, 0);

		root = xasprintf("%s/%s/polltax", cwd ? cwd : ".", x);
		free(cwd);
	} else if ((x = getenv("HOME")) && *x) {
		root = xasprintf("%s/.cache/polltax", x);
	} else {
		root = xstrdup("/tmp/polltax-cache");
	}
	return root;
}

const char *cache_root(void)
{
	static char *root;
	char *why;

	if (root)
		return root;
	root = cache_home();
	cache_warned = mmap(NULL, sizeof(*cache_warned), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (cache_warned == MAP_FAILED)
		cache_warned = NULL;
	why = cache_unwritable(root);
	if (why) {
		const char *t = getenv("TMPDIR");
		char *tmpl = xasprintf("%s/polltax-cache-XXXXXX", t && *t == '/' ? t : "/tmp");

		if (!mkdtemp(tmpl))
			die("the cache '%s' cannot be written (%s), nor a temporary one made ('%s'): %s", root, why,
			    tmpl, strerror(errno));
		warning("the cache '%s' cannot be written (%s): this run uses '%s' instead, removed at the "
			"end, and reuses nothing", root, why, tmpl);
		if (cache_warned)
			*cache_warned = 1;	/* one warning is enough */
		cache_tmp = tmpl;
		cache_tmp_owner = getpid();
		atexit(cache_tmp_remove);
		free(root);
		root = xstrdup(tmpl);
		free(why);
	}
	return root;
}

int cache_write(const char *path, const char *data, size_t len)
{
	char *dir = xstrdup(path), *why = NULL, *sl = strrchr(dir, '/');
	int rc;

	if (sl)
		*sl = '\0';
	if (sl && mkdir_p(dir) < 0) {
		why = xasprintf("cannot create '%s': %s", dir, strerror(errno));
		rc = -1;
	} else {
		rc = write_atomic(path, data, len, &why);
	}
	if (rc < 0 && (!cache_warned || !__atomic_exchange_n(cache_warned, 1, __ATOMIC_SEQ_CST)))
		warning("the cache cannot be written (%s): going on without it; files whose facts could not be "
			"stored are listed as failed", why);
	free(why);
	free(dir);
	return rc;
}

int term_columns(void)
{
	struct winsize ws;
	const char *c = getenv("COLUMNS");
	long n;

	if (ioctl(2, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	if (c && (n = strtol(c, NULL, 10)) > 0 && n < 100000)
		return (int)n;
	return 80;
}

void status_line(const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	int room = term_columns() - 1, col = 0;
	size_t cut = 0;

	va_start(ap, fmt);
	{
		char *t;

		if (vasprintf(&t, fmt, ap) < 0)
			t = NULL;
		sb_adds(&sb, t ? t : "");
		free(t);
	}
	va_end(ap);
	/* columns are characters: a UTF-8 continuation byte takes none, and a character is never cut */
	for (cut = 0; cut < sb.len; cut++) {
		unsigned char ch = (unsigned char)sb.buf[cut];

		if ((ch & 0xc0) == 0x80)
			continue;
		if (ch == '\n' || col == room)
			break;
		col++;
	}
	fprintf(stderr, "\r\033[K%.*s", (int)cut, sb.buf);
	fflush(stderr);
	sb_release(&sb);
}

int online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (int)n : 1;
}

bool have_program(const char *name)
{
	const char *path = getenv("PATH");
	char *copy, *save = NULL;
	bool found = false;

	if (strchr(name, '/'))
		return access(name, X_OK) == 0;
	copy = xstrdup(path ? path : "/usr/bin:/bin");
	for (char *d = strtok_r(copy, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
		char *p = path_join(d, name);

		found = access(p, X_OK) == 0 && is_file(p);
		free(p);
	}
	free(copy);
	return found;
}

double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int run_cmd(const char *const argv[], const char *cwd, struct strbuf *out, bool quiet_stderr)
{
	int pipefd[2] = { -1, -1 };
	int status;
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	if (out && pipe(pipefd) < 0)
		return error("pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		return error("fork: %s", strerror(errno));
	if (pid == 0) {
		if (out) {
			dup2(pipefd[1], 1);
			close(pipefd[0]);
			close(pipefd[1]);
		}
		if (quiet_stderr) {
			int fd = open("/dev/null", O_WRONLY);

			if (fd >= 0)
				dup2(fd, 2);
		}
		if (cwd && chdir(cwd) < 0) {
			fprintf(stderr, "%s: cannot chdir to '%s': %s\n", progname, cwd, strerror(errno));
			_exit(127);
		}
		execvp(argv[0], (char *const *)argv);
		fprintf(stderr, "%s: cannot run '%s': %s\n", progname, argv[0], strerror(errno));
		_exit(127);
	}
	if (out) {
		char buf[65536];
		ssize_t n;

		close(pipefd[1]);
		while ((n = read(pipefd[0], buf, sizeof(buf))) != 0) {
			if (n < 0) {
				if (errno == EINTR)
					continue;
				break;
			}
			sb_add(out, buf, (size_t)n);
		}
		close(pipefd[0]);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return error("waitpid: %s", strerror(errno));
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return -1;
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
