// SPDX-License-Identifier: GPL-2.0
/*
 * util_proc.c - processes and the terminal: run_cmd(), programs on PATH,
 * CPUs, the clock, the status line (util.h).  Nothing here knows about
 * poll.
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

/* In a forked child: go to CWD (unless NULL) and run ARGV; on failure say why and _exit(127). */
void child_exec(const char *const argv[], const char *cwd)
{
	if (cwd && chdir(cwd) < 0) {
		fprintf(stderr, "%s: cannot chdir to '%s': %s\n", progname, cwd, strerror(errno));
		_exit(127);
	}
	execvp(argv[0], (char *const *)argv);
	fprintf(stderr, "%s: cannot run '%s': %s\n", progname, argv[0], strerror(errno));
	_exit(127);
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
		child_exec(argv, cwd);
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

int rm_rf(const char *path)
{
	const char *argv[] = { "rm", "-rf", "--", path, NULL };

	return run_cmd(argv, NULL, NULL, false) == 0 ? 0 : -1;
}
