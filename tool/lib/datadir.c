// SPDX-License-Identifier: GPL-2.0
/*
 * datadir.c - where polltax finds its own files (datadir.h).
 */
#include "datadir.h"
#include "util.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *exe_dir(void)
{
	static char *dir;
	static bool asked;

	if (!asked) {
		char exe[PATH_MAX];
		ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

		asked = true;
		if (n > 0) {
			exe[n] = '\0';
			*strrchr(exe, '/') = '\0';
			dir = xstrdup(exe);
		}
	}
	return dir;
}

const char *data_dir(void)
{
	static char *dir;

	if (dir)
		return dir;
	if (exe_dir()) {
		char *d = xstrdup(exe_dir());

		for (int up = 0; up < 3 && !dir; up++) {
			char *c = xasprintf("%s/cocci/classify.cocci", d);

			if (is_file(c))
				dir = xstrdup(d);
			free(c);
			if (strrchr(d, '/'))
				*strrchr(d, '/') = '\0';
		}
		free(d);
	}
	if (!dir)
		dir = xstrdup("/usr/share/polltax");
	return dir;
}
