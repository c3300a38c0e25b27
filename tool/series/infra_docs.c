// SPDX-License-Identifier: GPL-2.0
/*
 * infra_docs.c - the infrastructure patch in Documentation/filesystems/
 * (locking.rst, vfs.rst, porting.rst) (infra_int.h).
 */
#define _GNU_SOURCE
#include "infra_int.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ---- Documentation/filesystems ---------------------------------------------------- */

#define POLL_PROTO "^[[:space:]]*__poll_t \\(\\*poll\\) \\(struct file \\*, struct poll_table_struct \\*\\);"

static void add_rst_prototype(struct gen *g, int f, const char *section)
{
	char **s = &g->text[f];
	size_t ls;
	char *text;

	if (find_line(*s, 0, strlen(*s), POLL_PROTO, &ls) != 1)
		anchor(g, f, "not one line '__poll_t (*poll) (struct file *, struct poll_table_struct *);' in the "
		       "prototypes of struct file_operations");
	text = tmpl(g, section);
	insert_after_line(s, ls, text);
	free(text);
}

static void insert_before_line(struct gen *g, int f, const char *re, const char *what, const char *section)
{
	char **s = &g->text[f];
	size_t ls;
	char *text, *t;

	if (!find_line(*s, 0, strlen(*s), re, &ls))
		anchor(g, f, "%s", what);
	text = tmpl(g, section);
	t = xasprintf("%s\n", text);
	text_splice(s, ls, 0, t);
	free(t);
	free(text);
}

void edit_docs(struct gen *g, const char *v, const struct var *vars, size_t nv)
{
	char *sec = xasprintf("%s.rst.prototype", v);

	add_rst_prototype(g, F_LOCKING, sec);
	add_rst_prototype(g, F_VFS, sec);
	free(sec);
	sec = xasprintf("%s.locking.text", v);
	insert_before_line(g, F_LOCKING, "^->fasync\\(\\) is responsible",
			   "no paragraph '->fasync() is responsible ...', before which the one on ->poll_mask() goes", sec);
	free(sec);
	{
		char **s = &g->text[F_VFS];
		size_t ls, l;
		char *text, *t;

		if (find_line(*s, 0, strlen(*s), "^``poll``$", &ls) != 1)
			anchor(g, F_VFS, "no entry ``poll`` in the methods of struct file_operations");
		for (l = line_next(*s, ls); (*s)[l] && strncmp(*s + l, "``", 2); l = line_next(*s, l))
			;
		if (!(*s)[l])
			anchor(g, F_VFS, "no entry after ``poll`` in the methods of struct file_operations");
		sec = xasprintf("%s.vfs.text", v);
		text = tmpl(g, sec);
		t = xasprintf("%s\n", text);
		text_splice(s, l, 0, t);
		free(t);
		free(text);
		free(sec);
	}
	{
		char **s = &g->text[F_PORTING];
		size_t n = strlen(*s);
		char *text, *r, *t;

		while (n && (*s)[n - 1] == '\n')
			n--;
		sec = xasprintf("%s.porting.text", v);
		text = tmpl(g, sec);
		r = render(g, sec, text, vars, nv, MAX_COLS);
		t = xasprintf("\n\n%s", r);
		text_splice(s, n, strlen(*s) - n, t);
		free(t);
		free(r);
		free(text);
		free(sec);
	}
}
