// SPDX-License-Identifier: GPL-2.0
/*
 * infra_msg.c - the infrastructure patch's commit messages: the names they
 * quote and the Signed-off-by (infra_int.h).
 */
#define _GNU_SOURCE
#include "infra_int.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ---- the variants ----------------------------------------------------------------- */

void names_of(const struct gen *g, struct names *n, struct var *v)
{
	n->fd = join_names(&g->fd, "", " and ");
	n->fd_or = join_names(&g->fd, "", " or ");
	n->fd_poll = join_names(&g->fd, "_poll", " and ");
	n->fd_poll_or = join_names(&g->fd, "_poll", " or ");
	v[0] = (struct var){ "TREE", g->tree, false };
	v[1] = (struct var){ "FD", n->fd, false };
	v[2] = (struct var){ "FD_OR", n->fd_or, false };
	v[3] = (struct var){ "FD_POLL", n->fd_poll, false };
	v[4] = (struct var){ "FD_POLL_OR", n->fd_poll_or, false };
}

void names_free(struct names *n)
{
	free(n->fd);
	free(n->fd_or);
	free(n->fd_poll);
	free(n->fd_poll_or);
}

char *message(const struct gen *g, const char *section, const struct var *v, size_t nv,
		     const struct infra_id *id)
{
	char *t = tmpl(g, section), *r = render(g, section, t, v, nv, MSG_COLS);
	const char *last = r;
	char *m;

	/* the Signed-off-by joins the trailers (Link:) that end the message, if any */
	for (const char *l = r; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l))
		if (*l != '\n')
			last = l;
	m = xasprintf("%s%sSigned-off-by: %s <%s>\n", r, strncmp(last, "Link: ", 6) ? "\n" : "", id->name, id->email);

	free(t);
	free(r);
	return m;
}
