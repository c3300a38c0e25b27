// SPDX-License-Identifier: GPL-2.0
/*
 * infra_poll.c - the infrastructure patch in include/linux/poll.h
 * (vfs_poll() and its prototypes) and fs/select.c (infra_int.h).
 */
#define _GNU_SOURCE
#include "infra_int.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ---- include/linux/poll.h --------------------------------------------------------- */

static void replace_body(char **s, const struct cdef *d, const char *stmt)
{
	size_t first = line_next(*s, d->open);
	char *ind = indent_of(*s, first), *body = xasprintf("\n%s%s\n", *ind ? ind : "\t", stmt);

	text_splice(s, d->open + 1, d->close - d->open - 1, body);
	free(ind);
	free(body);
}

static void find_poll_functions(struct gen *g, struct cdef *can, struct cdef *vfs)
{
	const char *s = g->text[F_POLL_H];

	if (!find_def(s, "file_can_poll", true, can))
		anchor(g, F_POLL_H, "no file_can_poll()");
	if (!find_def(s, "vfs_poll", true, vfs))
		anchor(g, F_POLL_H, "no vfs_poll()");
}

/* vfs_poll() calls the section's __vfs_poll(), file_can_poll() accepts ->poll_mask. */
void edit_vfs_poll(struct gen *g, const char *vfs_section, const char *proto_section)
{
	char **s = &g->text[F_POLL_H];
	struct cdef can, vfs;
	char *text;

	find_poll_functions(g, &can, &vfs);
	if (!same_code(*s + can.hdr, can.close + 1 - can.hdr,
		       "static inline bool file_can_poll(struct file *file) { return file->f_op->poll; }"))
		anchor(g, F_POLL_H, "file_can_poll() is not the one polltax knows (static inline bool "
		       "file_can_poll(struct file *file) { return file->f_op->poll; })");
	if (!same_code(*s + vfs.hdr, vfs.close + 1 - vfs.hdr,
		       "static inline __poll_t vfs_poll(struct file *file, struct poll_table_struct *pt) {"
		       " if (unlikely(!file->f_op->poll)) return DEFAULT_POLLMASK;"
		       " return file->f_op->poll(file, pt); }"))
		anchor(g, F_POLL_H, "vfs_poll() is not the one polltax knows (static inline __poll_t vfs_poll(struct "
		       "file *file, struct poll_table_struct *pt) { if (unlikely(!file->f_op->poll)) return "
		       "DEFAULT_POLLMASK; return file->f_op->poll(file, pt); })");

	replace_body(s, &vfs, "return __vfs_poll(file, file->f_op, pt);");
	text = tmpl(g, vfs_section);
	{
		char *t = xasprintf("%s\n", text);

		text_splice(s, def_start(*s, &vfs), 0, t);
		free(t);
	}
	free(text);
	find_poll_functions(g, &can, &vfs);
	replace_body(s, &can, "return file->f_op->poll || file->f_op->poll_mask;");
	find_poll_functions(g, &can, &vfs);
	text = tmpl(g, proto_section);
	{
		size_t a = def_start(*s, &can), b = def_start(*s, &vfs);
		char *t = xasprintf("%s\n", text);

		text_splice(s, a < b ? a : b, 0, t);
		free(t);
	}
	free(text);
}

/* ---- fs/select.c ------------------------------------------------------------------ */

/* The section before the first line after the #include lines at the top. */
void add_after_includes(struct gen *g, const char *section)
{
	char **s = &g->text[F_SELECT];
	size_t l, last = 0, at;
	bool comment = false, found = false;
	char *text, *t;

	if (!find_line(*s, 0, strlen(*s), "^#include[[:space:]]+<linux/poll\\.h>", NULL))
		anchor(g, F_SELECT, "no '#include <linux/poll.h>'");
	for (l = 0; (*s)[l]; l = line_next(*s, l)) {
		char *x = line_text(*s, l), *tl = x + strspn(x, " \t");
		bool stop = false;

		if (comment) {
			comment = !strstr(tl, "*/");
		} else if (!strncmp(tl, "/*", 2)) {
			comment = !strstr(tl + 2, "*/");
		} else if (*tl == '#') {
			if (!strncmp(tl, "#include", 8)) {
				last = l;
				found = true;
			}
		} else if (*tl && strncmp(tl, "//", 2)) {
			stop = true;
		}
		free(x);
		if (stop)
			break;
	}
	if (!found)
		anchor(g, F_SELECT, "no #include lines at the top");
	for (at = line_next(*s, last); (*s)[at] == '\n'; at++)
		;
	text = tmpl(g, section);
	t = xasprintf("%s\n", text);
	text_splice(s, at, 0, t);
	free(t);
	free(text);
}

/* The section after the block that ends with EXPORT_SYMBOL(vfs_poll_mask_wait) (made by the patch before). */
void add_after_mask_wait(struct gen *g, const char *section)
{
	char **s = &g->text[F_SELECT];
	size_t ls, at;
	char *text, *t;

	if (find_line(*s, 0, strlen(*s), "^EXPORT_SYMBOL\\(vfs_poll_mask_wait\\);", &ls) != 1)
		anchor(g, F_SELECT, "no 'EXPORT_SYMBOL(vfs_poll_mask_wait);'");
	for (at = line_next(*s, ls); (*s)[at] == '\n'; at++)
		;
	text = tmpl(g, section);
	t = xasprintf("%s\n", text);
	text_splice(s, at, 0, t);
	free(t);
	free(text);
}
