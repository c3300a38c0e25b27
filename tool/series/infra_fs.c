// SPDX-License-Identifier: GPL-2.0
/*
 * infra_fs.c - the infrastructure patch in include/linux/fs.h (struct
 * file's f_poll_head, ->poll_mask() in struct file_operations) and
 * fs/open.c (do_dentry_open()) (infra_int.h).
 */
#define _GNU_SOURCE
#include "infra_int.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ---- include/linux/fs.h ----------------------------------------------------------- */

/* struct file gets f_poll_head after f_ep, documented in its kernel-doc or by a comment. */
void add_f_poll_head(struct gen *g, const char *doc_section, const char *comment_section)
{
	char **s = &g->text[F_FS_H];
	struct cdef d;
	size_t ls, at, from, to;
	regmatch_t m[2];
	char *ind, *pad, *member;
	int namecol;

	if (!find_def(*s, "struct file", false, &d))
		anchor(g, F_FS_H, "no definition of struct file");
	if (find_line(*s, d.open, d.close, "^[[:space:]]*struct[[:space:]]+hlist_head[[:space:]]*\\*[[:space:]]*f_ep;",
		      &ls) != 1)
		anchor(g, F_FS_H, "struct file has no 'struct hlist_head *f_ep;' member, after which f_poll_head goes");
	line_matches(*s, ls, "(\\*[[:space:]]*f_ep;)", m, 2);
	namecol = cols(*s + ls, (size_t)m[1].rm_so, 0);
	at = line_next(*s, ls);
	if (line_matches(*s, at, "^[[:space:]]*#[[:space:]]*endif", NULL, 0))
		at = line_next(*s, at);	/* after the #ifdef CONFIG_EPOLL that holds f_ep */
	ind = indent_of(*s, ls);
	{
		int c = width_of(ind) + (int)strlen("struct wait_queue_head");

		if (c >= namecol) {
			pad = xstrdup("\t");
		} else {
			struct strbuf sb = STRBUF_INIT;

			while ((c / 8 + 1) * 8 <= namecol) {
				sb_addc(&sb, '\t');
				c = (c / 8 + 1) * 8;
			}
			while (c++ < namecol)
				sb_addc(&sb, ' ');
			pad = sb.buf ? sb_detach(&sb) : xstrdup(" ");
		}
	}
	member = xasprintf("%sstruct wait_queue_head%s*f_poll_head;\n", ind, pad);
	if (doc_before(*s, d.hdr, &from, &to) && find_line(*s, from, to, "^ \\* @[A-Za-z_0-9]+:", NULL)) {
		/* the kernel-doc of struct file: after @f_ep, or else after its last member */
		char *doc = tmpl(g, doc_section);
		size_t l, after = 0;

		text_splice(s, at, 0, member);
		for (l = from; l < to; l = line_next(*s, l))
			if (line_matches(*s, l, "^ \\* @[A-Za-z_0-9]+:", NULL, 0) && (!after || !line_matches(*s, after,
			    "^ \\* @f_ep:", NULL, 0))) {
				after = l;
			}
		/* and the lines that continue that entry */
		for (l = line_next(*s, after); l < to && line_matches(*s, l, "^ \\*(\t|  )", NULL, 0) &&
		     !line_matches(*s, l, "^ \\* @", NULL, 0); l = line_next(*s, l))
			;
		text_splice(s, l, 0, doc);
		free(doc);
	} else {
		char *c = tmpl(g, comment_section), *ci = indented(c, ind), *both = xasprintf("%s%s", ci, member);

		text_splice(s, at, 0, both);
		free(c);
		free(ci);
		free(both);
	}
	free(member);
	free(pad);
	free(ind);
}

/* struct file_operations gets the section's members after ->poll. */
void add_fops_members(struct gen *g, const char *section)
{
	char **s = &g->text[F_FS_H];
	struct cdef d;
	size_t ls;
	char *text;

	if (!find_def(*s, "struct file_operations", false, &d))
		anchor(g, F_FS_H, "no definition of struct file_operations");
	if (find_line(*s, d.open, d.close, "poll_mask", NULL))
		anchor(g, F_FS_H, "struct file_operations has ->poll_mask already, but struct file has no f_poll_head "
		       "(a part of the infrastructure, or another one?)");
	if (find_line(*s, d.open, d.close, "^[[:space:]]*__poll_t[[:space:]]*\\([[:space:]]*\\*[[:space:]]*poll[[:space:]]*\\)"
		      "[[:space:]]*\\(", &ls) != 1)
		anchor(g, F_FS_H, "struct file_operations has no '__poll_t (*poll) (...)' member, after which "
		       "->poll_mask goes");
	text = tmpl(g, section);
	insert_after_line(s, ls, text);
	free(text);
}

/*
 * The section after struct file_operations, a blank line before it: what
 * every file with file_operations sees (fs.h), as a .get_poll_head
 * initializer needs.
 */
void add_after_fops(struct gen *g, const char *section)
{
	char **s = &g->text[F_FS_H];
	struct cdef d;
	size_t ls;
	char *text, *blank;

	if (!find_def(*s, "struct file_operations", false, &d))
		anchor(g, F_FS_H, "no definition of struct file_operations");
	for (ls = d.close; ls > 0 && (*s)[ls - 1] != '\n'; ls--)
		;
	text = tmpl(g, section);
	blank = xasprintf("\n%s", text);
	insert_after_line(s, ls, blank);
	free(blank);
	free(text);
}

/* ---- fs/open.c -------------------------------------------------------------------- */

/* do_dentry_open() clears f_poll_head where it puts the fops of a failed ->open(). */
void edit_do_dentry_open(struct gen *g)
{
	char **s = &g->text[F_OPEN];
	struct cdef d;
	size_t ls;
	regmatch_t m[2];
	char *f, *text, *r;
	const char *open_call;

	if (!find_def(*s, "do_dentry_open", true, &d))
		anchor(g, F_OPEN, "no do_dentry_open()");
	if (find_line(*s, d.open, d.close, "^[[:space:]]*fops_put\\([A-Za-z_][A-Za-z_0-9]*->f_op\\);", &ls) != 1)
		anchor(g, F_OPEN, "do_dentry_open() has not one 'fops_put(f->f_op);', where the fops of a failed "
		       "->open() are put and f_poll_head is cleared");
	open_call = strstr(*s + d.open, "->open(");
	if (!open_call || (size_t)(open_call - *s) > ls)
		anchor(g, F_OPEN, "do_dentry_open() calls no ->open() before its 'fops_put(f->f_op);'");
	line_matches(*s, ls, "fops_put\\(([A-Za-z_][A-Za-z_0-9]*)->f_op\\)", m, 2);
	{
		char *l = line_text(*s, ls);

		f = xstrndup(l + m[1].rm_so, (size_t)(m[1].rm_eo - m[1].rm_so));
		free(l);
	}
	text = tmpl(g, "open.c");
	{
		struct var v[] = { { "F", f, true } };

		r = render(g, "open.c", text, v, 1, 0);
	}
	insert_after_line(s, ls, r);
	free(r);
	free(text);
	free(f);
}
