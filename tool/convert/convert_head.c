// SPDX-License-Identifier: GPL-2.0
/*
 * convert_head.c - the head in the poll function's terms (rule 1 of
 * convert.c's top comment): its poll_wait() followed through the helpers
 * it is in, locals replaced by their one definition, the locals holding
 * private_data as $B (convert_int.h).
 */
#define _GNU_SOURCE
#include "convert_int.h"
#include "cfacts.h"
#include "headexpr.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/*
 * Replace the locals of FR that hold private_data (PDL) in *R by the
 * placeholder $B, and note their type: the site puts its own variable
 * there (the one it sets private_data to, or gives anon_inode_getfile()).
 */
static int set_b(struct plan_ctx *pc, struct frame *fr, const struct strvec *pdl, char **r, char **err)
{
	struct strvec v = STRVEC_INIT;

	hx_vars(*r, &v);
	for (size_t k = 0; k < v.n; k++) {
		const char *ty = "";
		char *t;

		if (!sv_contains(pdl, v.v[k]))
			continue;
		cv_defs_of(fr, v.v[k], NULL, &ty, NULL);
		if (pc->btype && !cv_same_type(pc->btype, ty)) {
			*err = xasprintf("private_data is read as %s and as %s", pc->btype, ty);
			sv_clear(&v);
			return -1;
		}
		free(pc->btype);
		pc->btype = xstrdup(ty);
		free(pc->bname);
		pc->bname = xstrdup(v.v[k]);
		t = hx_subst(*r, v.v[k], "$B");
		free(*r);
		*r = t;
	}
	sv_clear(&v);
	return 0;
}

/*
 * R, in the terms of CALLEE (a helper given the poll_table), rewritten in
 * those of CALLER, through CALLER's one call of it: parameters become the
 * arguments; the file must be the same file.
 */
static char *map_to_caller(struct frame *callee, struct frame *caller, char *r, char **err)
{
	json_t *call = NULL, *x;
	size_t i;

	json_array_foreach(json_object_get(caller->facts, "calls"), i, x)
		if (!strcmp(jstr(x, "func"), caller->func) && !strcmp(jstr(x, "callee"), callee->func)) {
			if (call) {
				*err = xasprintf("%s() calls %s() more than once", caller->func, callee->func);
				free(r);
				return NULL;
			}
			call = x;
		}
	if (!call || json_array_size(json_object_get(call, "args")) != json_array_size(callee->params)) {
		*err = xasprintf("cannot match the call of %s() in %s()", callee->func, caller->func);
		free(r);
		return NULL;
	}
	/* the callee's roots are the caller's: same file */
	if (callee->fparam) {
		const char *a = json_string_value(json_array_get(json_object_get(call, "args"), 0));
		size_t k;
		json_t *p;

		json_array_foreach(callee->params, k, p)
			if (!strcmp(jstr(p, "name"), callee->fparam))
				a = json_string_value(json_array_get(json_object_get(call, "args"), k));
		if (!caller->fparam || strcmp(a, caller->fparam)) {
			*err = xasprintf("%s() is given another file than %s()'s", callee->func, caller->func);
			free(r);
			return NULL;
		}
	}
	/* parameters -> placeholders -> the caller's arguments */
	json_array_foreach(callee->params, i, x) {
		char *ph = xasprintf("$ARG%zu", i), *t = hx_subst(r, jstr(x, "name"), ph);

		free(r);
		r = t;
		free(ph);
	}
	json_array_foreach(callee->params, i, x) {
		char *ph = xasprintf("$ARG%zu", i);
		char *t = hx_subst(r, ph, json_string_value(json_array_get(json_object_get(call, "args"), i)));

		free(r);
		r = t;
		free(ph);
	}
	if (caller->fparam) {
		static const char *const back[][2] = {
			{ "$PD", "$FILE -> private_data" }, { "$INODE", "file_inode ( $FILE )" },
		};

		for (i = 0; i < 2; i++) {
			char *t = hx_replace_seq(r, back[i][0], back[i][1]);

			free(r);
			r = t;
		}
		{
			char *t = hx_replace_seq(r, "$FILE", caller->fparam);

			free(r);
			r = t;
		}
	}
	return r;
}

/*
 * The head in the poll function's terms.  When the poll_wait() is in a
 * helper, or a chain of them ("a() -> b()"), each one's locals are
 * followed in its own frame and its parameters mapped to its caller's
 * arguments, from the innermost out.
 */
static char *poll_head(struct plan_ctx *pc, char **err)
{
	json_t *h = json_array_get(json_object_get(pc->impl, "heads"), 0);
	const char *via = jstr(h, "via"), *expr = jstr(h, "expr");
	char *n = hx_norm(expr), *r = NULL;
	struct strvec chain = STRVEC_INIT;
	struct frame *fr;
	size_t nf;

	if (!n) {
		*err = xasprintf("cannot read the head '%s'", expr);
		return NULL;
	}
	if (!*via)
		return n;
	/* "a() -> b()" */
	for (const char *p = via; *p;) {
		size_t l = strcspn(p, " ");

		if (l > 2 && !strncmp(p + l - 2, "()", 2)) {
			char *name = xstrndup(p, l - 2);

			sv_push(&chain, name);
			free(name);
		} else if (strncmp(p, "->", l)) {
			*err = xasprintf("cannot read the helper chain '%s'", via);
			sv_clear(&chain);
			free(n);
			return NULL;
		}
		p += l;
		p += strspn(p, " ");
	}
	nf = chain.n;
	fr = xcalloc(nf, sizeof(*fr));
	for (size_t i = 0; i < nf; i++) {
		/* the innermost is in the head's file; the others in the poll's file, or the head's */
		json_t *f1 = cv_facts_of(pc->c, jstr(h, "file"), err), *f2 = cv_facts_of(pc->c, jstr(pc->impl, "file"), err);
		json_t *use = i + 1 == nf ? f1 : (f2 && json_object_get(json_object_get(f2, "funcs"), chain.v[i]) ? f2 : f1);

		if (!use || cv_frame_init(&fr[i], use, chain.v[i], err) < 0)
			goto out;
	}
	r = n;
	n = NULL;
	for (size_t i = nf; i-- > 0;) {
		struct strvec hpd = STRVEC_INIT;
		char *t;

		/* locals followed in the helper's own frame; its private_data locals become $B */
		cv_pd_locals(&fr[i], &hpd);
		t = cv_rootify(&fr[i], r, &hpd, err);
		free(r);
		r = t;
		if (r && set_b(pc, &fr[i], &hpd, &r, err) < 0) {
			free(r);
			r = NULL;
		}
		sv_clear(&hpd);
		if (!r)
			goto out;
		r = map_to_caller(&fr[i], i ? &fr[i - 1] : &pc->poll, r, err);
		if (!r)
			goto out;
	}
out:
	free(fr);
	sv_clear(&chain);
	free(n);
	return r;
}

int plan_head(struct plan_ctx *pc, const char *text, size_t bs, size_t be, char **h, char **err)
{
	json_t *impl = pc->impl, *hd = json_array_get(json_object_get(impl, "heads"), 0);
	struct strvec stop = STRVEC_INIT, v = STRVEC_INIT;
	int rc = -1;

	if (json_array_size(json_object_get(impl, "heads")) != 1) {
		*err = xasprintf("%zu heads", json_array_size(json_object_get(impl, "heads")));
		return -1;
	}
	if (!*jstr(hd, "via") && !cfacts_count_ident(text, bs, be, "poll_wait", false)) {
		*err = xasprintf("no poll_wait() in the body of %s()", jstr(impl, "function"));
		return -1;
	}
	*h = poll_head(pc, err);
	if (!*h)
		return -1;
	cv_pd_locals(&pc->poll, &stop);
	pc->head_pd = cv_rootify(&pc->poll, *h, &stop, err);
	if (!pc->head_pd || set_b(pc, &pc->poll, &stop, &pc->head_pd, err) < 0)
		goto out;
	pc->head_root = cv_rootify(&pc->poll, *h, NULL, err);
	if (!pc->head_root)
		goto out;
	if (hx_contains_seq(pc->head_root, "$B")) {
		/* from a helper: $B is private_data with the helper's type */
		char *cast = xasprintf("( %s ) $PD", pc->btype), *t2 = hx_subst(pc->head_root, "$B", cast);

		free(cast);
		free(pc->head_root);
		pc->head_root = t2;
	}
	pc->uses_pd = hx_contains_seq(pc->head_root, "$PD");
	pc->static_head = cv_only_globals(&pc->poll, pc->head_root) && !hx_contains_seq(pc->head_root, "$");
	hx_vars(pc->head_root, &v);
	for (size_t k = 0; k < v.n; k++)
		if (v.v[k][0] != '$' && cv_is_param(&pc->poll, v.v[k], NULL)) {
			*err = xasprintf("the head depends on the parameter %s", v.v[k]);
			goto out;
		}
	rc = 0;
out:
	sv_clear(&v);
	sv_clear(&stop);
	return rc;
}
