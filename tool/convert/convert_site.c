// SPDX-License-Identifier: GPL-2.0
/*
 * convert_site.c - the head written where the file is created (the rules
 * of convert.c's top comment, 2 to 4), and the new ->open() for files that
 * come through a framework's open with none of the driver's own, or a
 * shared one (convert_int.h).
 */
#define _GNU_SOURCE
#include "convert_int.h"
#include "cfacts.h"
#include "headexpr.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Does FR have V as a local (declared or assigned) or parameter? */
static bool frame_has(struct frame *fr, const char *v)
{
	int nd = 0;

	return cv_defs_of(fr, v, NULL, NULL, &nd) > 0 || nd > 0 || cv_is_param(fr, v, NULL);
}

/*
 * Check that the variables of H in site frame SF mean what they meant:
 * every one is in ALLOWED or is not a name of SF.
 */
static int check_capture(struct frame *sf, const char *h, const struct strvec *allowed, char **err)
{
	struct strvec v = STRVEC_INIT;
	int rc = 0;

	hx_vars(h, &v);
	for (size_t i = 0; i < v.n && !rc; i++)
		if (v.v[i][0] != '$' && !sv_contains(allowed, v.v[i]) && frame_has(sf, v.v[i])) {
			*err = xasprintf("%s means something else in %s()", v.v[i], sf->func);
			rc = -1;
		}
	sv_clear(&v);
	return rc;
}

/* Assignments in SF whose left side is L: count before and after LINE, the one before. */
static void stores_of(struct frame *sf, const char *l, int line, int *before, int *after, json_t **last_before)
{
	json_t *d;
	size_t i;

	*before = *after = 0;
	*last_before = NULL;
	json_array_foreach(json_object_get(sf->facts, "assigns"), i, d) {
		char *lhs;

		if (strcmp(jstr(d, "func"), sf->func))
			continue;
		lhs = cv_frame_norm(sf, jstr(d, "lhs"));
		if (!strcmp(lhs, l)) {
			if (json_integer_value(json_object_get(d, "line")) < line) {
				(*before)++;
				*last_before = d;
			} else {
				(*after)++;
			}
		}
		free(lhs);
	}
}

/*
 * The fields that H reads at LINE of SF: each must be stored before LINE
 * (when MUST_STORE) and never after; a field stored from a local is
 * replaced by that local.
 */
static char *check_loads(struct frame *sf, const char *h, int line, bool must_store, struct strvec *used,
			 char **err)
{
	char *r = xstrdup(h);

	for (int iter = 0; iter < 16; iter++) {
		struct strvec loads = STRVEC_INIT;
		bool changed = false;

		hx_loads(r, &loads);
		for (size_t i = 0; i < loads.n && !changed; i++) {
			int before, after, nd;
			json_t *st;
			char *pretty;

			stores_of(sf, loads.v[i], line, &before, &after, &st);
			pretty = hx_pretty(loads.v[i]);
			if (after) {
				*err = xasprintf("%s() sets %s after the point where the head is set", sf->func, pretty);
			} else if (must_store && !before) {
				*err = xasprintf("%s() does not set %s before the head is set", sf->func, pretty);
			} else if (before == 1) {
				const char *v = jstr(st, "rhs");
				json_t *vd;

				/* E->dev = dev; ... &E->dev->wait => &dev->wait */
				if (hx_is_ident(v) && cv_defs_of(sf, v, &vd, NULL, &nd) <= 1 &&
				    (!vd || json_integer_value(json_object_get(vd, "line")) <
					    json_integer_value(json_object_get(st, "line"))) &&
				    (nd > 0 || cv_is_param(sf, v, NULL)) && strcmp(v, sf->fparam ? sf->fparam : "")) {
					char *t = hx_replace_value(r, loads.v[i], v);

					free(r);
					r = hx_simplify(t);
					free(t);
					if (!sv_contains(used, v))
						sv_push(used, v);
					changed = true;
				}
			}
			free(pretty);
			if (*err) {
				sv_clear(&loads);
				free(r);
				return NULL;
			}
		}
		sv_clear(&loads);
		if (!changed)
			break;
	}
	return r;
}

/*
 * container_of(&x->m, struct T, m) is x when x is a struct T *: the form
 * a head takes when private_data points at a member (&reader->node).
 */
static char *fold_container_of(struct frame *sf, const char *h)
{
	struct strvec t = STRVEC_INIT;
	char *r = xstrdup(h);

	hx_split(h, &t);
	for (size_t i = 0; i + 12 < t.n + 1; i++) {
		const char *ty = "";
		char *call, *want, *x;

		if (strcmp(t.v[i], "container_of") && strcmp(t.v[i], "list_entry"))
			continue;
		/* container_of ( & X -> m , struct T , m ) */
		if (i + 12 > t.n || strcmp(t.v[i + 1], "(") || strcmp(t.v[i + 2], "&") || !hx_is_ident(t.v[i + 3]) ||
		    strcmp(t.v[i + 4], "->") || strcmp(t.v[i + 6], ",") || strcmp(t.v[i + 7], "struct") ||
		    strcmp(t.v[i + 9], ",") || strcmp(t.v[i + 5], t.v[i + 10]) || strcmp(t.v[i + 11], ")"))
			continue;
		x = t.v[i + 3];
		cv_defs_of(sf, x, NULL, &ty, NULL);
		want = xasprintf("struct %s *", t.v[i + 8]);
		if (cv_same_type(ty, want)) {
			char *nr;

			call = xasprintf("%s ( & %s -> %s , struct %s , %s )", t.v[i], x, t.v[i + 5], t.v[i + 8],
					 t.v[i + 5]);
			nr = hx_replace_seq(r, call, x);
			free(r);
			r = hx_simplify(nr);
			free(nr);
			free(call);
		}
		free(want);
	}
	sv_clear(&t);
	return r;
}

/* Roots back to SF's names; NULL when private_data would be dereferenced as void *. */
static char *unroot(struct frame *sf, const char *h, const char *filevar, char **err)
{
	char *r = xstrdup(h), *t;

	if (hx_contains_seq(r, "$PD ->") || hx_contains_seq(r, "$PD .")) {
		*err = xasprintf("the head reads private_data without its type in %s()", sf->func);
		free(r);
		return NULL;
	}
	if (hx_contains_seq(r, "$INODE")) {
		char *in = sf->iparam ? xstrdup(sf->iparam) : xasprintf("file_inode ( %s )", filevar);

		t = hx_replace_seq(r, "$INODE", in);
		free(r);
		free(in);
		r = t;
	}
	t = hx_replace_seq(r, "$PD", "$FILE -> private_data");
	free(r);
	r = hx_replace_seq(t, "$FILE", filevar);
	free(t);
	t = hx_simplify(r);
	free(r);
	return t;
}

/*
 * Write the rooted head H with SF's own locals (those whose definition
 * computes a part of it).  Sets *ANCHOR "first" or "local" (*LVAR).
 */
static char *express_with_locals(struct frame *sf, const char *h, bool site_sets_pd, const char **anchor,
				 char **lvar, int *anchor_line, struct strvec *used, char **err)
{
	struct strvec names = STRVEC_INIT;
	json_t *cands = json_array(), *d, *x;
	char *r = xstrdup(h);
	size_t i;
	int best_line = 0;

	json_array_foreach(json_object_get(sf->facts, "decls"), i, d)
		if (!strcmp(jstr(d, "func"), sf->func) && !sv_contains(&names, jstr(d, "var")))
			sv_push(&names, jstr(d, "var"));
	for (i = 0; i < names.n; i++) {
		char *e = NULL, *rv;
		json_t *def;

		if (cv_defs_of(sf, names.v[i], &def, NULL, NULL) != 1)
			continue;
		rv = cv_rootify(sf, names.v[i], NULL, &e);
		free(e);
		if (!rv)
			continue;
		if (rv[0] == '$' && !strchr(rv, ' ')) {
			free(rv);	/* a bare root: nothing gained */
			continue;
		}
		if (site_sets_pd && hx_contains_seq(rv, "$PD")) {
			free(rv);	/* private_data before open() set it */
			continue;
		}
		json_array_append_new(cands, json_pack("{s:s, s:s, s:I, s:b}", "var", names.v[i], "root", rv,
						       "line", json_integer_value(json_object_get(def, "line")),
						       "decl", json_object_get(def, "init") != NULL));
		free(rv);
	}
	sv_clear(&names);
	/* longest definitions first */
	for (bool again = true; again;) {
		size_t best = (size_t)-1, bl = 0;

		again = false;
		json_array_foreach(cands, i, x) {
			size_t l = strlen(jstr(x, "root"));

			char *t = hx_replace_value(r, jstr(x, "root"), "$MARK$");

			if (!sv_contains(used, jstr(x, "var")) && l > bl && strstr(t, "$MARK$")) {
				best = i;
				bl = l;
			}
			free(t);
		}
		if (best != (size_t)-1) {
			char *t;

			x = json_array_get(cands, best);
			t = hx_replace_value(r, jstr(x, "root"), jstr(x, "var"));
			free(r);
			r = hx_simplify(t);
			free(t);
			sv_push(used, jstr(x, "var"));
			if (!json_is_true(json_object_get(x, "decl"))) {
				int l = (int)json_integer_value(json_object_get(x, "line"));

				if (l > best_line) {
					best_line = l;
					free(*lvar);
					*lvar = xstrdup(jstr(x, "var"));
				}
			}
			again = true;
		}
	}
	json_decref(cands);
	*anchor = best_line ? "local" : "first";
	*anchor_line = best_line;
	(void)err;
	return r;
}

/*
 * Is normalized E a plain lvalue: a variable of FR (not its file) followed
 * by ->m, .m and [i] with i a variable or a number?  Reading it again
 * then has no side effect and, right after it was stored, gives the same
 * value.
 */
static bool simple_lvalue(struct frame *fr, const char *e)
{
	struct strvec t = STRVEC_INIT;
	bool ok;
	size_t i = 1;

	hx_split(e, &t);
	ok = t.n > 1 && hx_is_ident(t.v[0]) && frame_has(fr, t.v[0]) && strcmp(t.v[0], fr->fparam ? fr->fparam : "");
	while (ok && i < t.n) {
		if ((!strcmp(t.v[i], "->") || !strcmp(t.v[i], ".")) && i + 1 < t.n && hx_is_ident(t.v[i + 1])) {
			i += 2;
		} else if (!strcmp(t.v[i], "[") && i + 2 < t.n && !strcmp(t.v[i + 2], "]") &&
			   ((hx_is_ident(t.v[i + 1]) && frame_has(fr, t.v[i + 1])) ||
			    strspn(t.v[i + 1], "0123456789") == strlen(t.v[i + 1]))) {
			i += 3;
		} else {
			ok = false;
		}
	}
	sv_clear(&t);
	return ok;
}

/*
 * An ->open() that sets private_data to a plain lvalue of its own
 * ("fp->private_data = hw->ccb_alloc[slot];"): the head is written with
 * that lvalue, right after the store.  Its type must be the one the poll
 * function reads private_data as; the lvalue has no declaration, so the
 * open must store a variable of that type in it.
 */
static json_t *lvalue_site_plan(struct plan_ctx *pc, struct frame *sf, json_t *site, json_t *pdset, char **err)
{
	const char *e = jstr(pdset, "rhs"), *func = sf->func;
	char *p = hx_pretty(e), *t = NULL, *h = NULL, *pretty, *bad = NULL;
	struct strvec allowed = STRVEC_INIT, used = STRVEC_INIT;
	json_t *d, *res = NULL;
	bool typed = false;
	size_t i;
	int aline = (int)json_integer_value(json_object_get(pdset, "line"));

	if (!pc->btype || !simple_lvalue(sf, e)) {
		*err = xasprintf("%s() sets private_data to %s, not to a variable", func, p);
		goto out;
	}
	json_array_foreach(json_object_get(sf->facts, "assigns"), i, d) {
		const char *rhs = jstr(d, "rhs"), *rtype = "";

		if (strcmp(jstr(d, "func"), func) || strcmp(jstr(d, "lhs"), e) || !hx_is_ident(rhs))
			continue;
		cv_defs_of(sf, rhs, NULL, &rtype, NULL);
		typed = typed || cv_same_type(rtype, pc->btype);
	}
	if (!typed) {
		*err = xasprintf("%s() sets private_data to %s, whose type polltax cannot tell", func, p);
		goto out;
	}
	/* the lvalue stands for the value just stored: no field of it is a load to check */
	t = hx_subst(pc->head_pd, "$B", "$LV");
	h = check_loads(sf, t, aline, true, &used, err);
	if (!h)
		goto out;
	free(t);
	t = hx_subst(h, "$LV", e);
	free(h);
	h = t;
	t = NULL;
	if (hx_contains_seq(h, "$") || !hx_only_pure_calls(h, &bad)) {
		free(bad);
		*err = xasprintf("%s() sets private_data to %s and the head cannot be written with it", func, p);
		goto out;
	}
	hx_vars(e, &allowed);
	for (i = 0; i < used.n; i++)
		sv_push(&allowed, used.v[i]);
	if (check_capture(sf, h, &allowed, err) < 0)
		goto out;
	pretty = hx_pretty(h);
	res = json_pack("{s:s, s:s, s:s, s:s, s:{}, s:s, s:i}", "file", jstr(site, "file"), "function", func,
			"kind", jstr(site, "kind"), "anchor", "pdlvalue", "vars", "head", pretty, "line", aline);
	free(pretty);
out:
	sv_clear(&allowed);
	sv_clear(&used);
	free(p);
	free(t);
	free(h);
	return res;
}

/* Index of parameter NAME of FR, or -1. */
static int param_index(struct frame *fr, const char *name)
{
	json_t *p;
	size_t i;

	json_array_foreach(fr->params, i, p)
		if (!strcmp(jstr(p, "name"), name))
			return (int)i;
	return -1;
}

/* Does FR assign file->private_data (not NULL, which only an error path does)? */
static int pd_stores(struct frame *fr)
{
	json_t *d;
	size_t i;
	int n = 0;

	json_array_foreach(json_object_get(fr->facts, "assigns"), i, d) {
		char *lhs;

		if (strcmp(jstr(d, "func"), fr->func) || !strcmp(jstr(d, "rhs"), "NULL"))
			continue;
		lhs = cv_frame_norm(fr, jstr(d, "lhs"));
		n += !strcmp(lhs, "$PD");
		free(lhs);
	}
	return n;
}

/* Is FUNC in REL one of the ->open()s the scan found for the implementation? */
static bool is_scanned_open(struct plan_ctx *pc, const char *rel, const char *func)
{
	json_t *cs;
	size_t i;

	/* line 0: the scan saw the ops (in a header macro), not where the open is defined */
	json_array_foreach(json_object_get(pc->impl, "creation_sites"), i, cs)
		if (!strcmp(jstr(cs, "kind"), "open") && !strcmp(jstr(cs, "function"), func) &&
		    (!strcmp(jstr(cs, "file"), rel) || !json_integer_value(json_object_get(cs, "line"))))
			return true;
	return false;
}

/*
 * The .c file that defines FN, with its facts: SF's own file, else one
 * file of SFILE's directory (a driver's helpers live beside its opens;
 * looking further for every function an open hands its file to would
 * grep the whole tree each time).  NULL when not exactly one.  The name
 * is kept in NAMES.
 */
static const char *definition_of(struct plan_ctx *pc, struct frame *sf, const char *sfile, const char *fn,
				 json_t **facts, struct strvec *names)
{
	char *dir = xstrdup(sfile), *slash = strrchr(dir, '/'), *abs, *e = NULL;
	const char *found = NULL;
	struct dirent *de;
	DIR *d;
	int n = 0;

	if (json_object_get(json_object_get(sf->facts, "funcs"), fn)) {
		*facts = sf->facts;
		free(dir);
		return sfile;
	}
	if (slash)
		*slash = '\0';
	abs = slash ? path_join(pc->c->root, dir) : xstrdup(pc->c->root);
	d = opendir(abs);
	while (d && (de = readdir(d))) {
		size_t l = strlen(de->d_name), bs, be;
		char *rel, *text;

		if (l < 3 || strcmp(de->d_name + l - 2, ".c"))
			continue;
		rel = slash ? xasprintf("%s/%s", dir, de->d_name) : xstrdup(de->d_name);
		text = cv_read_rel(pc->c, rel);
		if (text && cfacts_func_body(text, fn, &bs, &be)) {
			sv_push(names, rel);
			found = names->v[names->n - 1];
			n++;
		}
		free(text);
		free(rel);
	}
	if (d)
		closedir(d);
	free(abs);
	free(dir);
	if (n != 1)
		return NULL;
	*facts = cv_facts_of(pc->c, found, &e);
	free(e);
	return *facts && json_object_get(json_object_get(*facts, "funcs"), fn) ? found : NULL;
}

/*
 * Every use of helper FN in the tree is a call from one of the scan's
 * ->open()s that hands it its own file at parameter IDX: then the helper
 * runs exactly when one of these files is opened, on that file.
 * CALLERS gets those opens.
 */
static int only_called_from_opens(struct plan_ctx *pc, const char *fn, int idx, struct strvec *callers, char **err)
{
	json_t *r, *cl;
	size_t i, k;

	json_array_foreach(cv_refs_of(pc->c, fn), i, r) {
		const char *rel = json_string_value(r);
		char *text = cv_read_rel(pc->c, rel), *e = NULL;
		int lines[64], uses = text ? cfacts_code_uses(text, fn, lines, 64) : -1, calls = 0, last = 0;
		json_t *f;

		free(text);
		if (!uses)
			continue;
		f = uses > 0 && uses <= 64 && strcmp(rel + strlen(rel) - 2, ".h") ? cv_facts_of(pc->c, rel, &e) : NULL;
		free(e);
		if (!f) {
			*err = xasprintf("private_data is set by %s(), which is also used at %s:%d", fn, rel,
					 uses > 0 ? lines[0] : 0);
			return -1;
		}
		json_array_foreach(json_object_get(f, "fcalls"), k, cl) {
			struct frame of;
			const char *arg;
			int l = (int)json_integer_value(json_object_get(cl, "line"));

			if (strcmp(jstr(cl, "callee"), fn) || l == last)
				continue;
			last = l;
			if (!is_scanned_open(pc, rel, jstr(cl, "func"))) {
				*err = xasprintf("private_data is set by %s(), which %s() also calls (%s:%d)", fn,
						 jstr(cl, "func"), rel, l);
				return -1;
			}
			e = NULL;
			arg = json_string_value(json_array_get(json_object_get(cl, "args"), (size_t)idx));
			if (cv_frame_init(&of, f, jstr(cl, "func"), &e) < 0 || !of.fparam || !arg ||
			    strcmp(arg, of.fparam)) {
				free(e);
				*err = xasprintf("%s() does not hand %s() the file it opens (%s:%d)", jstr(cl, "func"),
						 fn, rel, l);
				return -1;
			}
			if (!sv_contains(callers, of.func))
				sv_push(callers, of.func);
			for (int u = 0; u < uses; u++)
				if (lines[u] == l)
					lines[u] = 0;	/* accounted for */
			calls++;
		}
		if (calls != uses) {
			int other = 0;

			for (int u = 0; u < uses && !other; u++)
				other = lines[u];
			*err = other ? xasprintf("private_data is set by %s(), which is also used at %s:%d", fn, rel, other)
				     : xasprintf("private_data is set by %s(), which is used in %s other than by the "
						 "->open()s", fn, rel);
			return -1;
		}
	}
	return 0;
}

/*
 * The ->open() SF hands its file to a helper that sets private_data
 * (tpm_open() -> tpm_common_open(file, ...)): the head is set in the
 * helper, right after that store, when the helper is only ever called by
 * the ->open()s of these files, on the file being opened.
 */
static json_t *helper_site_plan(struct plan_ctx *pc, struct frame *sf, json_t *site, char **err)
{
	const char *file = jstr(site, "file"), *hfile = NULL, *hname = NULL;
	struct strvec seen = STRVEC_INIT, callers = STRVEC_INIT, names = STRVEC_INIT;
	json_t *cl, *syn, *res = NULL;
	size_t i;
	int idx = -1, nset = 0;

	json_array_foreach(json_object_get(sf->facts, "fcalls"), i, cl) {
		const char *callee = jstr(cl, "callee"), *rel;
		json_t *a, *f = NULL;
		struct frame hf;
		size_t k;
		int at = -1;
		char *e = NULL;

		if (strcmp(jstr(cl, "func"), sf->func) || sv_contains(&seen, callee))
			continue;
		json_array_foreach(json_object_get(cl, "args"), k, a)
			if (at < 0 && !strcmp(json_string_value(a), sf->fparam))
				at = (int)k;
		if (at < 0)
			continue;
		sv_push(&seen, callee);
		rel = definition_of(pc, sf, file, callee, &f, &names);
		if (!rel || cv_frame_init(&hf, f, callee, &e) < 0 || !hf.fparam || param_index(&hf, hf.fparam) != at) {
			free(e);
			continue;	/* not a function of the tree's that takes the file there */
		}
		if (pd_stores(&hf)) {
			nset++;
			hfile = rel;
			hname = callee;
			idx = at;
		}
	}
	if (nset != 1) {
		*err = nset ? xasprintf("%s() hands its file to %d functions that set private_data", sf->func, nset)
			    : xasprintf("private_data is set by a function that %s() calls, not by one it hands "
					"the file to", sf->func);
		goto out;
	}
	if (only_called_from_opens(pc, hname, idx, &callers, err) < 0)
		goto out;
	syn = json_pack("{s:s, s:s, s:s, s:b, s:s}", "kind", "open", "file", hfile, "function", hname,
			"sets_private_data", 1, "helper_of", sf->func);
	res = site_plan(pc, syn, err);
	json_decref(syn);
	if (res) {
		json_t *cj = json_array();

		for (i = 0; i < callers.n; i++)
			json_array_append_new(cj, json_string(callers.v[i]));
		json_object_set_new(res, "callers", cj);
	}
out:
	sv_clear(&seen);
	sv_clear(&callers);
	sv_clear(&names);
	return res;
}

/*
 * The head of a file that KIND() creates in FUNC() at LINE with private
 * data P: the global head, or the poll function's head written with P
 * (which must be a variable of the type the poll function reads).  P is
 * added to ALLOWED.
 */
static char *head_from_priv(struct plan_ctx *pc, struct frame *sf, const char *kind, const char *func,
			    const char *p, int line, struct strvec *allowed, char **err)
{
	const char *ptype = "";
	char *t, *h;

	if (pc->static_head) {
		h = xstrdup(pc->head_root);
	} else if (pc->uses_pd && pc->btype && !hx_contains_seq(pc->head_pd, "$PD")) {
		if (!hx_is_ident(p)) {
			*err = xasprintf("the private data given to %s() is not a variable", kind);
			return NULL;
		}
		cv_defs_of(sf, p, NULL, &ptype, NULL);
		if (!cv_same_type(ptype, pc->btype)) {
			*err = xasprintf("%s() gives %s (%s) as private data, %s() reads it as %s", func, p,
					 *ptype ? ptype : "type unknown", pc->poll.func, pc->btype);
			return NULL;
		}
		t = hx_subst(pc->head_pd, "$B", p);
		h = check_loads(sf, t, line, true, allowed, err);
		free(t);
		if (!h)
			return NULL;
		sv_push(allowed, p);
	} else {
		*err = xasprintf("the head of a file made by %s() must come from its private data", kind);
		return NULL;
	}
	if (hx_contains_seq(h, "$")) {
		*err = xasprintf("the head depends on the file itself in %s()", func);
		free(h);
		return NULL;
	}
	return h;
}

json_t *site_plan(struct plan_ctx *pc, json_t *site, char **err)
{
	const char *kind = jstr(site, "kind"), *file = jstr(site, "file"), *func = jstr(site, "function");
	json_t *facts = cv_facts_of(pc->c, file, err), *vars = json_object(), *d, *res = NULL;
	struct frame sf;
	struct strvec allowed = STRVEC_INIT;
	const char *anchor = NULL;
	char *h = NULL, *t = NULL, *lvar = NULL, *pretty;
	int aline = 0;
	size_t i;

	if (facts && !json_object_get(json_object_get(facts, "funcs"), func) && !strncmp(func, "__do_sys_", 9))
		func = func + 9;	/* SYSCALL_DEFINEn(name, ...): spatch calls it name */
	if (!facts || cv_frame_init(&sf, facts, func, err) < 0)
		goto out;
	if (!strcmp(kind, "open") || !strcmp(kind, "alloc_file_pseudo")) {
		json_t *pdset = NULL;
		int npd = 0;
		const char *fv = sf.fparam;

		json_array_foreach(json_object_get(facts, "assigns"), i, d) {
			char *lhs;

			if (strcmp(jstr(d, "func"), func))
				continue;
			lhs = cv_frame_norm(&sf, jstr(d, "lhs"));
			if (!strcmp(jstr(d, "rhs"), "NULL")) {
				free(lhs);
				continue;	/* cleared on an error path: open() fails */
			}
			if (!strcmp(lhs, "$PD") || (!strcmp(kind, "alloc_file_pseudo") &&
						    hx_contains_seq(lhs, "-> private_data") &&
						    !strcmp(lhs + strlen(lhs) - 15, "-> private_data"))) {
				npd++;
				pdset = d;
			}
			free(lhs);
		}
		if (!strcmp(kind, "alloc_file_pseudo")) {
			if (npd != 1) {
				*err = xasprintf("%s() sets private_data in %d places", func, npd);
				goto out;
			}
			fv = NULL;	/* the pd anchor finds the file itself */
		} else if (!fv) {
			*err = xasprintf("%s() has no struct file parameter", func);
			goto out;
		}
		if (pc->static_head) {
			h = xstrdup(pc->head_root);
			if (!strcmp(kind, "open")) {
				anchor = "first";
				json_object_set_new(vars, "filevar", json_string(fv));
			} else {
				anchor = "pd";
				aline = (int)json_integer_value(json_object_get(pdset, "line"));
				json_object_set_new(vars, "pdvar", json_string(jstr(pdset, "rhs")));
			}
		} else if (pc->uses_pd && npd) {
			const char *e = jstr(pdset, "rhs"), *etype = "";

			if (npd != 1) {
				*err = xasprintf("%s() sets private_data in %d places", func, npd);
				goto out;
			}
			if (!pc->btype) {
				/* poll reads private_data through container_of(): put E there and fold */
				char *t1 = hx_replace_value(pc->head_root, "$PD", "$MARK$"), *t2;

				aline = (int)json_integer_value(json_object_get(pdset, "line"));
				if (hx_contains_seq(t1, "$PD") || hx_contains_seq(t1, "$MARK$ ->")) {
					free(t1);
					*err = xasprintf("%s() sets private_data and %s() reads it without a typed local",
							 func, pc->poll.func);
					goto out;
				}
				t2 = hx_replace_seq(t1, "$MARK$", e);
				free(t1);
				t = fold_container_of(&sf, t2);
				free(t2);
				if (hx_contains_seq(t, "container_of") || hx_contains_seq(t, "list_entry")) {
					*err = xasprintf("%s() sets private_data and %s() reads it through container_of()",
							 func, pc->poll.func);
					goto out;
				}
				h = check_loads(&sf, t, aline, true, &allowed, err);
				if (!h)
					goto out;
				/* fold_container_of() only folds "& X -> m": anchor on that statement */
				{
					struct strvec et = STRVEC_INIT;

					hx_split(e, &et);
					if (et.n != 4 || strcmp(et.v[0], "&") || strcmp(et.v[2], "->")) {
						sv_clear(&et);
						*err = xasprintf("%s() sets private_data to an expression polltax cannot anchor on",
								 func);
						goto out;
					}
					anchor = "pdaddr";
					json_object_set_new(vars, "pdbase", json_string(et.v[1]));
					json_object_set_new(vars, "pdmember", json_string(et.v[3]));
					sv_push(&allowed, et.v[1]);
					sv_clear(&et);
				}
				goto pd_done;
			}
			if (!hx_is_ident(e)) {
				res = lvalue_site_plan(pc, &sf, site, pdset, err);
				goto out;
			}
			cv_defs_of(&sf, e, NULL, &etype, NULL);
			if (!cv_same_type(etype, pc->btype)) {
				*err = xasprintf("%s() sets private_data from %s (%s), %s() reads it as %s", func, e,
						 *etype ? etype : "type unknown", pc->poll.func, pc->btype);
				goto out;
			}
			aline = (int)json_integer_value(json_object_get(pdset, "line"));
			t = hx_subst(pc->head_pd, "$B", e);
			h = check_loads(&sf, t, aline, true, &allowed, err);
			if (!h)
				goto out;
			anchor = "pd";
			json_object_set_new(vars, "pdvar", json_string(e));
			sv_push(&allowed, e);
pd_done:;
		} else if (pc->uses_pd && json_is_true(json_object_get(site, "sets_private_data"))) {
			if (json_object_get(site, "helper_of")) {
				*err = xasprintf("private_data is set by a function that %s() calls, which %s() calls",
						 func, jstr(site, "helper_of"));
				goto out;
			}
			res = helper_site_plan(pc, &sf, site, err);
			goto out;
		} else {
			/* private_data (if used) was set before open(): express with open's locals */
			struct strvec used = STRVEC_INIT;

			h = express_with_locals(&sf, pc->head_root, npd > 0, &anchor, &lvar, &aline, &used, err);
			for (size_t k = 0; k < used.n; k++)
				sv_push(&allowed, used.v[k]);
			sv_clear(&used);
			t = h;
			h = check_loads(&sf, t, aline, false, &allowed, err);
			if (!h)
				goto out;
			json_object_set_new(vars, "filevar", json_string(fv));
			if (lvar)
				json_object_set_new(vars, "lvar", json_string(lvar));
		}
		if (fv) {
			sv_push(&allowed, fv);
			free(t);
			t = unroot(&sf, h, fv, err);
			if (!t)
				goto out;
			free(h);
			h = t;
			t = NULL;
		} else if (hx_contains_seq(h, "$")) {
			*err = xasprintf("the head depends on the file itself in %s()", func);
			goto out;
		}
	} else if (!strcmp(kind, "anon_inode_getfile") || !strcmp(kind, "anon_inode_create_getfile")) {
		json_t *an = NULL, *o;
		bool returned = false;
		size_t k;
		int n = 0;

		json_array_foreach(json_object_get(facts, "anons"), i, d) {
			if (strcmp(jstr(d, "func"), func))
				continue;
			json_array_foreach(json_object_get(pc->impl, "ops"), k, o) {
				char *f = xasprintf("& %s", jstr(o, "var"));

				if (!strcmp(jstr(d, "fops"), f)) {
					an = d;
					n++;
				}
				free(f);
			}
		}
		if (!n) {
			/*
			 * "return anon_inode_getfile(...);": the file goes in a
			 * new local "file", set up when it is not an error
			 */
			json_array_foreach(json_object_get(facts, "anonrets"), i, d) {
				json_array_foreach(json_object_get(pc->impl, "ops"), k, o) {
					char *f = xasprintf("& %s", jstr(o, "var"));

					if (!strcmp(jstr(d, "func"), func) && !strcmp(jstr(d, "fops"), f)) {
						an = d;
						n++;
						returned = true;
					}
					free(f);
				}
			}
			if (returned && frame_has(&sf, "file")) {
				*err = xasprintf("%s() returns what %s() returns, and the name file is taken there",
						 func, kind);
				goto out;
			}
		}
		if (n != 1) {
			*err = n ? xasprintf("%s() creates %d files with these ops", func, n)
				 : xasprintf("cannot find the %s() call in %s()", kind, func);
			goto out;
		}
		if (!returned && !hx_is_ident(jstr(an, "lhs")) && !hx_is_postfix(jstr(an, "lhs"))) {
			*err = xasprintf("the file %s() returns is not kept in a variable", kind);
			goto out;
		}
		aline = (int)json_integer_value(json_object_get(an, "line"));
		h = head_from_priv(pc, &sf, kind, func, jstr(an, "priv"), aline, &allowed, err);
		if (!h)
			goto out;
		/* after the IS_ERR() check when it leaves the function, else guarded */
		anchor = returned ? "anonret" : "anonguard";
		{
			json_t *ax;
			size_t k2;

			json_array_foreach(json_object_get(facts, "anonexits"), k2, ax)
				if (!strcmp(jstr(ax, "func"), func) && json_integer_value(json_object_get(ax, "line")) == aline &&
				    json_is_true(json_object_get(ax, "leaves")))
					anchor = "anon";
		}
		{
			const char *f = jstr(an, "fops");

			json_object_set_new(vars, "fops", json_string(f + 2));
		}
	} else if (!strcmp(kind, "anon_inode_getfd") || !strcmp(kind, "anon_inode_create_getfd")) {
		/*
		 * The file is installed before anon_inode_getfd() returns:
		 * the call becomes anon_inode_getfd_poll(), which takes the
		 * head, written with the private data P it is given (and
		 * anon_inode_create_getfd() becomes
		 * anon_inode_create_getfd_poll()).
		 */
		json_t *an = NULL, *o;
		const char *p;
		size_t k;
		int n = 0;

		json_array_foreach(json_object_get(facts, "anonfds"), i, d) {
			if (strcmp(jstr(d, "func"), func) || strcmp(jstr(d, "callee"), kind))
				continue;
			json_array_foreach(json_object_get(pc->impl, "ops"), k, o) {
				char *f = xasprintf("& %s", jstr(o, "var"));

				if (!strcmp(jstr(d, "fops"), f)) {
					an = d;
					n++;
				}
				free(f);
			}
		}
		if (n != 1) {
			*err = n ? xasprintf("%s() creates %d files with these ops", func, n)
				 : xasprintf("cannot find the %s() call in %s()", kind, func);
			goto out;
		}
		aline = (int)json_integer_value(json_object_get(an, "line"));
		p = jstr(an, "priv");
		/* (void *)client: the cast only drops the type */
		if (!strncmp(p, "( void * ) ", 11))
			p += 11;
		h = head_from_priv(pc, &sf, kind, func, p, aline, &allowed, err);
		if (!h)
			goto out;
		anchor = "anonfd";
		json_object_set_new(vars, "fops", json_string(jstr(an, "fops") + 2));
	} else {
		*err = xasprintf("cannot set f_poll_head at a %s site (%s())", kind, func);
		goto out;
	}
	if (!hx_only_pure_calls(h, &t)) {
		char *e = xasprintf("the head is computed by %s() in %s()", t, func);

		free(t);
		t = NULL;
		*err = e;
		goto out;
	}
	if (check_capture(&sf, h, &allowed, err) < 0)
		goto out;
	pretty = hx_pretty(h);
	res = json_pack("{s:s, s:s, s:s, s:s, s:o, s:s, s:i}", "file", file, "function", func, "kind", kind,
			"anchor", anchor, "vars", json_incref(vars), "head", pretty, "line", aline);
	free(pretty);
out:
	json_decref(vars);
	sv_clear(&allowed);
	free(h);
	free(t);
	free(lvar);
	return res;
}

/* "struct foo *" and "dev" -> "struct foo *dev" */
static char *declarator(const char *type, const char *name)
{
	char *t = hx_pretty(type);
	char *r = t[0] && t[strlen(t) - 1] == '*' ? xasprintf("%s%s", t, name) : xasprintf("%s %s", t, name);

	free(t);
	return r;
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
	char *base = xstrdup(fn), *name = NULL, *h = NULL, *t, *pretty, *decl = NULL, *dname = NULL, *dinit = NULL;
	struct strbuf text = STRBUF_INIT;
	json_t *o, *ops = json_array(), *res = NULL, *vars = json_object();
	size_t i, n = strlen(base);

	if (n > 5 && !strcmp(base + n - 5, "_poll"))
		base[n - 5] = '\0';
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
	if (!name) {
		*err = xasprintf("no free name for a new ->open() of %s()", fn);
		goto out;
	}
	json_array_foreach(json_object_get(pc->impl, "ops"), i, o) {
		if (strcmp(jstr(o, "file"), file) || strcmp(jstr(o, "via"), "initializer")) {
			*err = xasprintf("a new ->open() would go in %s, which is not a plain initializer of %s",
					 jstr(o, "var"), file);
			goto out;
		}
		if (json_integer_value(json_object_get(o, "line")) < pc->poll.line) {
			*err = xasprintf("%s comes before %s(): a new ->open() written there would not be declared",
					 jstr(o, "var"), fn);
			goto out;
		}
		json_array_append_new(ops, json_string(jstr(o, "var")));
	}
	/* the head, in the new function's terms: its parameters are inode and the poll's file name */
	if (pc->btype && !hx_contains_seq(pc->head_pd, "$PD")) {
		h = hx_subst(pc->head_pd, "$B", pc->bname);
		decl = declarator(pc->btype, pc->bname);
		dname = xstrdup(pc->bname);
		dinit = xasprintf("%s->private_data", fv);
	} else {
		/* a local of the poll function that computes part of the head is declared the same way */
		json_t *d, *best = NULL;
		char *broot = NULL;
		size_t bl = 0;

		h = xstrdup(pc->head_root);
		json_array_foreach(json_object_get(pc->poll.facts, "decls"), i, d) {
			char *e2 = NULL, *rv, *mark;
			const char *ty = "";

			/* a local with one definition, in its declaration or by an assignment */
			if (strcmp(jstr(d, "func"), fn) || cv_defs_of(&pc->poll, jstr(d, "var"), NULL, &ty, NULL) != 1 ||
			    !*ty)
				continue;
			rv = cv_rootify(&pc->poll, jstr(d, "var"), NULL, &e2);
			free(e2);
			if (!rv || (rv[0] == '$' && !strchr(rv, ' '))) {
				free(rv);
				continue;
			}
			mark = hx_replace_value(h, rv, "$MARK$");
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
			char *t1 = hx_replace_value(h, broot, jstr(best, "var")), *ini, *cast;

			free(h);
			h = t1;
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
			dinit = hx_pretty(t1);
			free(t1);
			decl = declarator(jstr(best, "type"), jstr(best, "var"));
			dname = xstrdup(jstr(best, "var"));
		}
		free(broot);
	}
	t = hx_replace_seq(h, "$INODE", "inode");
	free(h);
	h = hx_replace_seq(t, "$PD", "$FILE -> private_data");
	free(t);
	t = hx_replace_seq(h, "$FILE", fv);
	free(h);
	h = hx_simplify(t);
	free(t);
	{
		struct strvec v = STRVEC_INIT;

		hx_vars(h, &v);
		for (i = 0; i < v.n; i++)
			if (!strcmp(v.v[i], "ret") || (!strcmp(v.v[i], "inode") && hx_contains_seq(pc->head_root, "inode"))) {
				*err = xasprintf("the head uses the global %s, a name the new ->open() needs", v.v[i]);
				sv_clear(&v);
				goto out;
			}
		sv_clear(&v);
	}
	pretty = hx_pretty(h);
	sb_addf(&text, "/* ->poll_mask() waits on f_poll_head: set it when the file is opened */\n");
	sb_addf(&text, "static int %s(struct inode *inode, struct file *%s)\n{\n", name, fv);
	if (!strcmp(kind, "new-open")) {
		if (decl)
			sb_addf(&text, "\t%s = %s;\n\n", decl, dinit);
		sb_addf(&text, "\t%s->f_poll_head = %s;\n\treturn 0;\n}\n\n", fv, pretty);
	} else {
		/* the shared open runs first: it may be what sets what the head comes from */
		if (decl)
			sb_addf(&text, "\t%s;\n", decl);
		sb_addf(&text, "\tint ret;\n\n\tret = %s(inode, %s);\n\tif (ret)\n\t\treturn ret;\n", oldopen, fv);
		if (decl)
			sb_addf(&text, "\t%s = %s;\n", dname, dinit);
		sb_addf(&text, "\t%s->f_poll_head = %s;\n\treturn 0;\n}\n\n", fv, pretty);
	}
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
