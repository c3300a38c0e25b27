// SPDX-License-Identifier: GPL-2.0
/*
 * infra_anon.c - the infrastructure patch in fs/anon_inodes.c and
 * include/linux/anon_inodes.h: the _poll variants of the helpers
 * (infra_int.h).
 */
#define _GNU_SOURCE
#include "infra_int.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ---- the anon_inode helpers ------------------------------------------------------- */

struct wrapper {
	char *name;
	char *exported;		/* "EXPORT_SYMBOL_GPL" or NULL */
};

/* The @-entries of a kernel-doc comment, realigned for the longer @poll_head, and @poll_head itself. */
static char *param_docs(struct gen *g, const char *s, size_t from, size_t to)
{
	struct strvec tags = STRVEC_INIT, rests = STRVEC_INIT;
	struct strbuf sb = STRBUF_INIT;
	int w = 0;
	char *ph = tmpl(g, "anon.poll_head");
	size_t l;

	for (l = from; l < to; l = line_next(s, l)) {
		regmatch_t m[3];

		if (!line_matches(s, l, "^ \\* (@[A-Za-z_0-9]+:)[[:space:]]*(.*)$", m, 3))
			continue;
		{
			char *x = line_text(s, l);

			sv_push(&tags, "");
			free(tags.v[tags.n - 1]);
			tags.v[tags.n - 1] = xstrndup(x + m[1].rm_so, (size_t)(m[1].rm_eo - m[1].rm_so));
			if (m[2].rm_eo > m[2].rm_so) {
				if (!w)
					w = (int)(m[2].rm_so - m[1].rm_so);
				sv_push(&rests, x + m[2].rm_so);
			} else {
				/* "@context_inode:" alone, its text on the next line */
				char *y;

				l = line_next(s, l);
				y = line_text(s, l);
				sv_push(&rests, y + strspn(y, " *\t"));
				free(y);
			}
			free(x);
		}
	}
	sv_push(&tags, "@poll_head:");
	ph[strcspn(ph, "\n")] = '\0';
	sv_push(&rests, ph);
	if (w < (int)strlen("@poll_head:") + 1)
		w = (int)strlen("@poll_head:") + 1;
	for (size_t i = 0; i < tags.n; i++) {
		if ((int)strlen(tags.v[i]) + 1 <= w)
			sb_addf(&sb, " * %-*s%s\n", w, tags.v[i], rests.v[i]);
		else
			sb_addf(&sb, " * %s\n * %*s%s\n", tags.v[i], w, "", rests.v[i]);
	}
	sb.buf[sb.len - 1] = '\0';	/* @{PARAMS} stands on a line of its own */
	sv_clear(&tags);
	sv_clear(&rests);
	free(ph);
	return sb_detach(&sb);
}

/* "return __anon_inode_getfd(ARGS, LAST);" at 80 columns */
static char *getfd_call(const char *ind, const struct params *args, const char *last)
{
	struct params p = { STRVEC_INIT, NULL };
	struct strbuf sb = STRBUF_INIT;
	char *first = xasprintf("%sreturn __anon_inode_getfd(", ind);

	for (size_t i = 0; i < args->v.n; i++)
		params_add(&p, args->v.v[i], false);
	params_add(&p, last, false);
	emit_params(&sb, first, &p, ");");
	params_free(&p);
	free(first);
	return sb_detach(&sb);
}

/* Each wrapper of __anon_inode_getfd() in fs/anon_inodes.c gets a _poll twin that takes the queue. */
/* The line after the wrapper NAME ending at *END: "EXPORT_SYMBOL...(NAME);" is skipped and its macro returned (or NULL). */
static char *exported_after(const struct gen *g, const char *name, size_t *end)
{
	const char *s = g->text[F_ANON_C];
	char *exported = NULL;
	regmatch_t m[2];
	char *re = xasprintf("^(EXPORT_SYMBOL[A-Z_]*)\\(%s\\);", name);

	if (line_matches(s, *end, re, m, 2)) {
		char *l = line_text(s, *end);

		exported = xstrndup(l, (size_t)m[1].rm_eo);
		free(l);
		*end = line_next(s, *end);
	}
	free(re);
	return exported;
}

/*
 * The twin NAME_poll() of wrapper D, inserted at END: its kernel-doc, D's
 * parameters and the queue, the call of __anon_inode_getfd() with ARGS
 * (indented IND) and the queue, and EXPORTED's line if any.
 */
static void add_twin(struct gen *g, const struct cdef *d, const char *name, const char *ind,
		     const struct params *args, size_t end, const char *exported)
{
	char **s = &g->text[F_ANON_C];
	struct strbuf nf = STRBUF_INIT;
	char *k = tmpl(g, "anon.kerneldoc"), *pd, *twin = xasprintf("%s_poll", name), *kd;
	struct params hp;
	char *first;
	size_t from, to;

	pd = doc_before(*s, d->hdr, &from, &to) ? param_docs(g, *s, from, to) : param_docs(g, "", 0, 0);
	{
		struct var v[] = { { "NAME", twin, false }, { "ORIG", name, false }, { "PARAMS", pd, true } };

		kd = render(g, "anon.kerneldoc", k, v, 3, MAX_COLS);
	}
	sb_addc(&nf, '\n');
	sb_adds(&nf, kd);
	params_parse(*s, d->lparen + 1, d->rparen, &hp);
	params_add(&hp, "struct wait_queue_head *poll_head", true);
	first = xasprintf("%.*s%s(", (int)(d->name - d->hdr), *s + d->hdr, twin);
	emit_params(&nf, first, &hp, ")");
	sb_adds(&nf, "{\n");
	{
		char *c = getfd_call(ind, args, "poll_head");

		sb_adds(&nf, c);
		free(c);
	}
	sb_adds(&nf, "}\n");
	if (exported)
		sb_addf(&nf, "%s(%s);\n", exported, twin);
	text_splice(s, end, 0, nf.buf);
	params_free(&hp);
	free(first);
	free(kd);
	free(pd);
	free(k);
	free(twin);
	sb_release(&nf);
}

/*
 * Definition D of fs/anon_inodes.c, if it is a wrapper of
 * __anon_inode_getfd(): checked, pushed to G->fd, given its twin, and made
 * to pass no queue.
 */
static void edit_wrapper(struct gen *g, const struct cdef *d)
{
	char **s = &g->text[F_ANON_C];
	struct params args;
	char *name, *body, *ind, *exported;
	const char *call;
	size_t end, call_l, call_end;

	if (!d->func)
		return;
	call = strstr(*s + d->open, "__anon_inode_getfd(");
	if (!call || (size_t)(call - *s) > d->close)
		return;
	name = xstrndup(*s + d->name, d->nlen);
	if (!strcmp(name, "__anon_inode_getfd")) {
		free(name);
		return;
	}
	if (!strncmp(*s + d->hdr, "static", 6))
		anchor(g, F_ANON_C, "%s() calls __anon_inode_getfd() but is static: polltax knows only the "
		       "exported helpers", name);
	body = squash(*s + d->open, d->close + 1 - d->open);
	if (strncmp(body, "{return __anon_inode_getfd(", 27) || strcmp(body + strlen(body) - 3, ");}") ||
	    strchr(body + 27, ';') != body + strlen(body) - 2)
		anchor(g, F_ANON_C, "%s() does more than 'return __anon_inode_getfd(...);'", name);
	free(body);
	sv_push(&g->fd, name);
	call_l = line_start(*s, (size_t)(call - *s));
	ind = indent_of(*s, call_l);
	{
		const char *lp = call + strlen("__anon_inode_getfd");
		const char *rp = strstr(lp, ");");

		params_parse(*s, (size_t)(lp + 1 - *s), (size_t)(rp - *s), &args);
		call_end = line_next(*s, (size_t)(rp - *s));
	}
	/* the twin, after the wrapper and its EXPORT_SYMBOL */
	end = line_next(*s, d->close);
	exported = exported_after(g, name, &end);
	add_twin(g, d, name, ind, &args, end, exported);
	/* the wrapper itself passes no queue */
	{
		char *c = getfd_call(ind, &args, "NULL");

		text_splice(s, call_l, call_end - call_l, c);
		free(c);
	}
	params_free(&args);
	free(exported);
	free(ind);
}

/* __anon_inode_getfd() takes the queue and sets it before fd_install() */
static void edit_inner_getfd(struct gen *g)
{
	char **s = &g->text[F_ANON_C];
	struct cdef inner;

	if (!find_def(*s, "__anon_inode_getfd", true, &inner))
		anchor(g, F_ANON_C, "no __anon_inode_getfd()");
	{
		size_t ls;
		regmatch_t m[2];
		char *l, *file, *ind, *set;

		if (find_line(*s, inner.open, inner.close, "^[[:space:]]*fd_install\\([A-Za-z_][A-Za-z_0-9]*,[[:space:]]*"
			      "[A-Za-z_][A-Za-z_0-9]*\\);", &ls) != 1)
			anchor(g, F_ANON_C, "__anon_inode_getfd() has not one 'fd_install(fd, file);'");
		line_matches(*s, ls, ",[[:space:]]*([A-Za-z_][A-Za-z_0-9]*)\\);", m, 2);
		l = line_text(*s, ls);
		file = xstrndup(l + m[1].rm_so, (size_t)(m[1].rm_eo - m[1].rm_so));
		ind = indent_of(*s, ls);
		set = xasprintf("%s%s->f_poll_head = poll_head;\n", ind, file);
		text_splice(s, ls, 0, set);
		free(set);
		free(ind);
		free(file);
		free(l);
	}
	if (!find_def(*s, "__anon_inode_getfd", true, &inner))
		anchor(g, F_ANON_C, "no __anon_inode_getfd()");
	{
		size_t pl = line_start(*s, inner.rparen);
		char *ind, *add;

		if (pl > inner.lparen) {
			ind = indent_of(*s, pl);
		} else {
			size_t ls = line_start(*s, inner.lparen);

			ind = align_to(cols(*s + ls, inner.lparen + 1 - ls, 0));
		}
		add = xasprintf(",\n%sstruct wait_queue_head *poll_head", ind);
		text_splice(s, inner.rparen, 0, add);
		free(add);
		free(ind);
	}
}

void edit_anon_c(struct gen *g)
{
	char **s = &g->text[F_ANON_C];
	struct cdef *defs, inner;
	size_t n = c_defs(*s, &defs), calls = 0;

	if (!find_def(*s, "__anon_inode_getfd", true, &inner))
		anchor(g, F_ANON_C, "no __anon_inode_getfd()");
	for (const char *p = *s; (p = strstr(p, "__anon_inode_getfd(")); p++)
		calls++;
	/* the wrappers, from the last one up, so that the offsets before stay valid */
	for (size_t i = n; i-- > 0;)
		edit_wrapper(g, &defs[i]);
	free(defs);
	if (!g->fd.n)
		anchor(g, F_ANON_C, "no exported helper calls __anon_inode_getfd()");
	if (calls != g->fd.n + 1)
		anchor(g, F_ANON_C, "__anon_inode_getfd() is called %zu times, by %zu helpers polltax knows",
		       calls - 1, g->fd.n);
	/* the order of the file, for the documentation */
	for (size_t i = 0; i < g->fd.n / 2; i++) {
		char *x = g->fd.v[i];

		g->fd.v[i] = g->fd.v[g->fd.n - 1 - i];
		g->fd.v[g->fd.n - 1 - i] = x;
	}
	edit_inner_getfd(g);
}

/* include/linux/anon_inodes.h declares the twins, each after its wrapper. */
void edit_anon_h(struct gen *g)
{
	char **s = &g->text[F_ANON_H];
	size_t first_proto = strlen(*s);

	for (size_t i = 0; i < g->fd.n; i++) {
		char *re = xasprintf("^[A-Za-z_][A-Za-z_0-9 \t*]*[[:space:]*]%s\\(", g->fd.v[i]);
		size_t ls, lp, rp, end;
		int depth = 0;
		struct params p;
		struct strbuf sb = STRBUF_INIT;
		char *first;

		if (find_line(*s, 0, strlen(*s), re, &ls) != 1)
			anchor(g, F_ANON_H, "no declaration of %s()", g->fd.v[i]);
		free(re);
		if (ls < first_proto)
			first_proto = ls;
		lp = (size_t)(strstr(*s + ls, g->fd.v[i]) - *s) + strlen(g->fd.v[i]);
		for (rp = lp; (*s)[rp]; rp++) {
			depth += (*s)[rp] == '(' ? 1 : (*s)[rp] == ')' ? -1 : 0;
			if (!depth)
				break;
		}
		if ((*s)[rp] != ')' || (*s)[rp + 1] != ';')
			anchor(g, F_ANON_H, "the declaration of %s() is not 'int %s(...);'", g->fd.v[i], g->fd.v[i]);
		end = line_next(*s, rp);
		params_parse(*s, lp + 1, rp, &p);
		params_add(&p, "struct wait_queue_head *poll_head", true);
		first = xasprintf("%.*s%s_poll(", (int)(lp - strlen(g->fd.v[i]) - ls), *s + ls, g->fd.v[i]);
		emit_params(&sb, first, &p, ");");
		text_splice(s, end, 0, sb.buf);
		free(first);
		sb_release(&sb);
		params_free(&p);
	}
	/* struct wait_queue_head is declared with the other structs, unless the header has it */
	if (!find_line(*s, 0, strlen(*s), "^struct wait_queue_head;|^#include <linux/wait\\.h>", NULL)) {
		size_t l, last = (size_t)-1;

		for (l = 0; l < first_proto && (*s)[l]; l = line_next(*s, l))
			if (line_matches(*s, l, "^struct [A-Za-z_0-9]+;$", NULL, 0))
				last = l;
		if (last != (size_t)-1)
			text_splice(s, line_next(*s, last), 0, "struct wait_queue_head;\n");
		else
			text_splice(s, first_proto, 0, "struct wait_queue_head;\n\n");
	}
}
