// SPDX-License-Identifier: GPL-2.0
/*
 * boot_run.c - running the long programs of the boot test (make, qemu, git)
 * with their output in a log file and a hard timeout, and reading the end
 * of a log for an error message.
 */
#define _GNU_SOURCE
#include "boot.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int run_logged(const char *const argv[], const char *cwd, const char *log, int timeout, bool *timed_out)
{
	double deadline = timeout > 0 ? now_seconds() + timeout : 0;
	int status, fd;
	pid_t pid;

	if (timed_out)
		*timed_out = false;
	fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0)
		return error("cannot open '%s': %s", log, strerror(errno));
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		close(fd);
		return error("fork: %s", strerror(errno));
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);

		if (null >= 0)
			dup2(null, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		/* own process group: a timeout kills the program and its children */
		setpgid(0, 0);
		child_exec(argv, cwd);
	}
	close(fd);
	setpgid(pid, pid);
	for (;;) {
		pid_t r = waitpid(pid, &status, deadline ? WNOHANG : 0);

		if (r == pid)
			break;
		if (r < 0 && errno != EINTR)
			return error("waitpid: %s", strerror(errno));
		if (deadline && now_seconds() > deadline) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
				;
			if (timed_out)
				*timed_out = true;
			return -1;
		}
		if (deadline) {
			struct timespec ts = { 0, 100 * 1000 * 1000 };

			nanosleep(&ts, NULL);
		}
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return -1;
}

char *log_tail(const char *path, int n)
{
	struct strbuf sb = STRBUF_INIT;
	char *text;
	size_t len, start;
	int lines = 0;

	if (read_file(path, &text, &len) < 0)
		return xasprintf("    (no log: '%s')\n", path);
	start = len;
	while (start > 0 && lines <= n) {
		start--;
		if (text[start] == '\n' && start + 1 < len)
			lines++;
	}
	if (lines > n)
		start++;
	for (char *p = text + start; *p;) {
		char *e = strchr(p, '\n');
		size_t l = e ? (size_t)(e - p) : strlen(p);

		sb_adds(&sb, "    ");
		sb_add(&sb, p, l);
		sb_addc(&sb, '\n');
		p = e ? e + 1 : p + l;
	}
	free(text);
	return sb_detach(&sb);
}

int git(const char *dir, bool allow_fail, struct strbuf *out, ...)
{
	struct strvec argv = STRVEC_INIT;
	const char *a;
	va_list ap;
	int r;

	sv_push(&argv, "git");
	if (dir) {
		sv_push(&argv, "-C");
		sv_push(&argv, dir);
	}
	/* no auto-gc in the middle of a run, no identity needed for am/commit */
	sv_push(&argv, "-c");
	sv_push(&argv, "gc.auto=0");
	sv_push(&argv, "-c");
	sv_push(&argv, "user.name=polltax boot-test");
	sv_push(&argv, "-c");
	sv_push(&argv, "user.email=polltax@localhost");
	va_start(ap, out);
	while ((a = va_arg(ap, const char *)))
		sv_push(&argv, a);
	va_end(ap);
	r = run_cmd((const char *const *)argv.v, NULL, out, allow_fail);
	if (r && !allow_fail) {
		struct strbuf cmd = STRBUF_INIT;

		for (size_t i = 0; i < argv.n; i++)
			sb_addf(&cmd, "%s%s", i ? " " : "", argv.v[i]);
		die("'%s' failed", cmd.buf);
	}
	sv_clear(&argv);
	if (out && out->len && out->buf[out->len - 1] == '\n')
		out->buf[--out->len] = '\0';
	return r;
}
