// SPDX-License-Identifier: GPL-2.0
/*
 * infra_debugfs.c - the infrastructure patch in fs/debugfs/file.c: the
 * proxy polls through __vfs_poll() (infra_int.h).
 */
#define _GNU_SOURCE
#include "infra_int.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ---- fs/debugfs/file.c ------------------------------------------------------------ */

/* The full proxy polls the real fops through __vfs_poll(), and has a ->poll for a ->poll_mask file too. */
void edit_debugfs(struct gen *g, const char *comment_section)
{
	char **s = &g->text[F_DEBUGFS];
	struct cdef d;
	size_t ls;
	regmatch_t m[5];
	char *l, *ind, *c, *ci, *rep, *part[4];

	if (!find_def(*s, "full_proxy_poll", true, &d))
		anchor(g, F_DEBUGFS, "no full_proxy_poll()");
	if (find_line(*s, d.open, d.close, "^[[:space:]]*[A-Za-z_][A-Za-z_0-9]*[[:space:]]*=[[:space:]]*"
		      "[A-Za-z_][A-Za-z_0-9]*->poll\\([A-Za-z_][A-Za-z_0-9]*,[[:space:]]*[A-Za-z_][A-Za-z_0-9]*\\);", &ls) != 1)
		anchor(g, F_DEBUGFS, "full_proxy_poll() has not one 'r = real_fops->poll(filp, wait);'");
	line_matches(*s, ls, "([A-Za-z_][A-Za-z_0-9]*)[[:space:]]*=[[:space:]]*([A-Za-z_][A-Za-z_0-9]*)->poll\\("
		     "([A-Za-z_][A-Za-z_0-9]*),[[:space:]]*([A-Za-z_][A-Za-z_0-9]*)\\);", m, 5);
	l = line_text(*s, ls);
	for (int i = 0; i < 4; i++)
		part[i] = xstrndup(l + m[i + 1].rm_so, (size_t)(m[i + 1].rm_eo - m[i + 1].rm_so));
	ind = indent_of(*s, ls);
	c = tmpl(g, comment_section);
	ci = indented(c, ind);
	rep = xasprintf("%s%s%s = __vfs_poll(%s, %s, %s);\n", ci, ind, part[0], part[2], part[1], part[3]);
	text_splice(s, ls, line_next(*s, ls) - ls, rep);
	free(rep);
	free(ci);
	free(c);
	free(ind);
	free(l);
	for (int i = 0; i < 4; i++)
		free(part[i]);

	if (!find_def(*s, "__full_proxy_fops_init", true, &d))
		anchor(g, F_DEBUGFS, "no __full_proxy_fops_init()");
	if (find_line(*s, d.open, d.close, "^[[:space:]]*if \\([A-Za-z_][A-Za-z_0-9]*->poll\\)$", &ls) != 1 ||
	    !line_matches(*s, line_next(*s, ls), "->poll[[:space:]]*=[[:space:]]*full_proxy_poll;", NULL, 0))
		anchor(g, F_DEBUGFS, "__full_proxy_fops_init() has not one 'if (real_fops->poll)' setting "
		       "full_proxy_poll");
	line_matches(*s, ls, "\\(([A-Za-z_][A-Za-z_0-9]*)->poll\\)", m, 2);
	l = line_text(*s, ls);
	{
		char *fops = xstrndup(l + m[1].rm_so, (size_t)(m[1].rm_eo - m[1].rm_so));

		rep = xasprintf(" || %s->poll_mask", fops);
		text_splice(s, ls + (size_t)m[1].rm_eo + strlen("->poll"), 0, rep);
		free(fops);
		free(rep);
	}
	free(l);
}
