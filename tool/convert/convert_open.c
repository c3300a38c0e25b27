// SPDX-License-Identifier: GPL-2.0
/*
 * convert_open.c - the new ->open() for files that come through a
 * framework's open with none of the driver's own (new-open), or a shared
 * one (wrap) (convert_int.h).
 */
#define _GNU_SOURCE
#include "convert_int.h"
#include "cfacts.h"
#include "headexpr.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* "struct foo *" and "dev" -> "struct foo *dev" */
static char *declarator(const char *type, const char *name)
{
	char *t = hx_pretty(type);
	char *r = t[0] && t[strlen(t) - 1] == '*' ? xasprintf("%s%s", t, name) : xasprintf("%s %s", t, name);

	free(t);
	return r;
}

/* A name for the new ->open() of FN (BASE_open, else FN_open) that no file of the tree uses; NULL if none. */
static char *free_open_name(struct plan_ctx *pc, const char *fn, const char *base)
{
	char *name = NULL;
	size_t i;

	for (int attempt = 0; attempt < 2 && !name; attempt++) {
		char *cand = attempt ? xasprintf("%s_open", fn) : xasprintf("%s_open", base);
		json_t *r;
		bool taken = false;

		json_array_foreach(cv_refs_of(pc->c, cand), i, r) {
			char *tx = cv_read_rel(pc->c, json_string_value(r));

			taken = taken || (tx && cfacts_count_ident(tx, 0, strlen(tx), cand, true));
			free(tx);
		}
		if (!taken)
			name = cand;
		else
			free(cand);
	}
	return name;
}

/* The ops the new ->open() goes in, pushed to OPS: plain initializers of FILE after the poll function. */
static int new_open_ops(struct plan_ctx *pc, const char *file, const char *fn, json_t *ops, char **err)
{
	json_t *o;
	size_t i;

	json_array_foreach(json_object_get(pc->impl, "ops"), i, o) {
		if (strcmp(jstr(o, "file"), file) || strcmp(jstr(o, "via"), "initializer")) {
			*err = xasprintf("a new ->open() would go in %s, which is not a plain initializer of %s",
					 jstr(o, "var"), file);
			return -1;
		}
		if (json_integer_value(json_object_get(o, "line")) < pc->poll.line) {
			*err = xasprintf("%s comes before %s(): a new ->open() written there would not be declared",
					 jstr(o, "var"), fn);
			return -1;
		}
		json_array_append_new(ops, json_string(jstr(o, "var")));
	}
	return 0;
}

/*
 * The head in roots (*H), with the local of the poll function that
 * computes the longest part of it, declared the same way: its declaration
 * (*DECL), name (*DNAME) and initializer (*DINIT, in file FV's terms).
 */
static void new_open_local(struct plan_ctx *pc, const char *fn, const char *fv, char **h, char **decl,
			   char **dname, char **dinit)
{
	json_t *d, *best = NULL;
	char *broot = NULL;
	size_t i, bl = 0;

	*h = xstrdup(pc->head_root);
	json_array_foreach(json_object_get(pc->poll.facts, "decls"), i, d) {
		char *e2 = NULL, *rv, *mark;
		const char *ty = "";

		/* a local with one definition, in its declaration or by an assignment */
		if (strcmp(jstr(d, "func"), fn) || cv_defs_of(&pc->poll, jstr(d, "var"), NULL, &ty, NULL) != 1 || !*ty)
			continue;
		rv = cv_rootify(&pc->poll, jstr(d, "var"), NULL, &e2);
		free(e2);
		if (!rv || (rv[0] == '$' && !strchr(rv, ' '))) {
			free(rv);
			continue;
		}
		mark = hx_replace_value(*h, rv, "$MARK$");
		if (strstr(mark, "$MARK$") && strlen(rv) > bl) {
			best = d;
			free(broot);
			broot = xstrdup(rv);
			bl = strlen(rv);
		}
		free(mark);
		free(rv);
	}
	if (best) {
		char *t1 = hx_replace_value(*h, broot, jstr(best, "var")), *ini, *cast;

		free(*h);
		*h = t1;
		/* a cast to the local's own type is what the declaration does */
		cast = xasprintf("( %s ) ", jstr(best, "type"));
		ini = !strncmp(broot, cast, strlen(cast)) ? xstrdup(broot + strlen(cast)) : xstrdup(broot);
		free(cast);
		t1 = hx_replace_seq(ini, "$INODE", "inode");
		free(ini);
		ini = hx_replace_seq(t1, "$PD", "$FILE -> private_data");
		free(t1);
		t1 = hx_replace_seq(ini, "$FILE", fv);
		free(ini);
		*dinit = hx_pretty(t1);
		free(t1);
		*decl = declarator(jstr(best, "type"), jstr(best, "var"));
		*dname = xstrdup(jstr(best, "var"));
	}
	free(broot);
}

/* H (in roots; taken) in the terms of the new ->open(inode, FV); NULL with *ERR when it would need their names. */
static char *new_open_head(struct plan_ctx *pc, char *h, const char *fv, char **err)
{
	struct strvec v = STRVEC_INIT;
	char *t = hx_replace_seq(h, "$INODE", "inode");

	free(h);
	h = hx_replace_seq(t, "$PD", "$FILE -> private_data");
	free(t);
	t = hx_replace_seq(h, "$FILE", fv);
	free(h);
	h = hx_simplify(t);
	free(t);
	hx_vars(h, &v);
	for (size_t i = 0; i < v.n; i++)
		if (!strcmp(v.v[i], "ret") || (!strcmp(v.v[i], "inode") && hx_contains_seq(pc->head_root, "inode"))) {
			*err = xasprintf("the head uses the global %s, a name the new ->open() needs", v.v[i]);
			sv_clear(&v);
			free(h);
			return NULL;
		}
	sv_clear(&v);
	return h;
}

/* The text of the new ->open() NAME of KIND (around OLDOPEN for a wrap) that sets the head PRETTY. */
static void new_open_text(struct strbuf *text, const char *kind, const char *name, const char *fv,
			  const char *oldopen, const char *pretty, const char *decl, const char *dname, const char *dinit)
{
	sb_addf(text, "/* ->poll_mask() waits on f_poll_head: set it when the file is opened */\n");
	sb_addf(text, "static int %s(struct inode *inode, struct file *%s)\n{\n", name, fv);
	if (!strcmp(kind, "new-open")) {
		if (decl)
			sb_addf(text, "\t%s = %s;\n\n", decl, dinit);
		sb_addf(text, "\t%s->f_poll_head = %s;\n\treturn 0;\n}\n\n", fv, pretty);
	} else {
		/* the shared open runs first: it may be what sets what the head comes from */
		if (decl)
			sb_addf(text, "\t%s;\n", decl);
		sb_addf(text, "\tint ret;\n\n\tret = %s(inode, %s);\n\tif (ret)\n\t\treturn ret;\n", oldopen, fv);
		if (decl)
			sb_addf(text, "\t%s = %s;\n", dname, dinit);
		sb_addf(text, "\t%s->f_poll_head = %s;\n\treturn 0;\n}\n\n", fv, pretty);
	}
}

/*
 * A new ->open() that sets the head: for ops with no ->open() whose files
 * come through a framework's open (new-open: private_data is what the
 * framework set), or with a shared one (wrap: call it first, then the
 * head is what it set up).  The function is written before the
 * ->poll_mask function, which must come before the ops.
 */
json_t *new_open_plan(struct plan_ctx *pc, const char *kind, const char *oldopen, char **err)
{
	const char *fn = jstr(pc->impl, "function"), *file = jstr(pc->impl, "file");
	const char *fv = pc->poll.fparam;
	char *base = xstrdup(fn), *name = NULL, *h = NULL, *pretty, *decl = NULL, *dname = NULL, *dinit = NULL;
	struct strbuf text = STRBUF_INIT;
	json_t *ops = json_array(), *res = NULL, *vars = json_object();
	size_t n = strlen(base);

	if (n > 5 && !strcmp(base + n - 5, "_poll"))
		base[n - 5] = '\0';
	name = free_open_name(pc, fn, base);
	if (!name) {
		*err = xasprintf("no free name for a new ->open() of %s()", fn);
		goto out;
	}
	if (new_open_ops(pc, file, fn, ops, err) < 0)
		goto out;
	/* the head, in the new function's terms: its parameters are inode and the poll's file name */
	if (pc->btype && !hx_contains_seq(pc->head_pd, "$PD")) {
		h = hx_subst(pc->head_pd, "$B", pc->bname);
		decl = declarator(pc->btype, pc->bname);
		dname = xstrdup(pc->bname);
		dinit = xasprintf("%s->private_data", fv);
	} else {
		/* a local of the poll function that computes part of the head is declared the same way */
		new_open_local(pc, fn, fv, &h, &decl, &dname, &dinit);
	}
	h = new_open_head(pc, h, fv, err);
	if (!h)
		goto out;
	pretty = hx_pretty(h);
	new_open_text(&text, kind, name, fv, oldopen, pretty, decl, dname, dinit);
	json_object_set_new(vars, "newopen", json_string(name));
	json_object_set_new(vars, "mask_fn", json_string(""));
	if (oldopen)
		json_object_set_new(vars, "oldopen", json_string(oldopen));
	res = json_pack("{s:s, s:s, s:s, s:s, s:O, s:s, s:i, s:O, s:s}", "file", file, "function", name, "kind",
			kind, "anchor", strcmp(kind, "new-open") ? "wrapopen" : "addopen", "vars", vars, "head", pretty,
			"line", 0, "ops", ops, "text", text.buf);
	free(pretty);
out:
	free(base);
	free(name);
	free(h);
	free(decl);
	free(dname);
	free(dinit);
	json_decref(ops);
	json_decref(vars);
	sb_release(&text);
	return res;
}
