// SPDX-License-Identifier: GPL-2.0
/*
 * convert_helper.c - creation sites where the driver's open() is not where
 * private_data is set: stored through an lvalue, set by a helper that only
 * ->open()s call, or handed to an anon_inode helper (convert_int.h).
 */
#define _GNU_SOURCE
#include "convert_int.h"
#include "cfacts.h"
#include "headexpr.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

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
json_t *lvalue_site_plan(struct plan_ctx *pc, struct frame *sf, json_t *site, json_t *pdset, char **err)
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
json_t *helper_site(struct plan_ctx *pc, struct frame *sf, json_t *site, struct strvec *callers, char **err)
{
	const char *file = jstr(site, "file"), *hfile = NULL, *hname = NULL;
	struct strvec seen = STRVEC_INIT, names = STRVEC_INIT;
	json_t *cl, *syn = NULL;
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
	if (only_called_from_opens(pc, hname, idx, callers, err) < 0)
		goto out;
	syn = json_pack("{s:s, s:s, s:s, s:b, s:s}", "kind", "open", "file", hfile, "function", hname,
			"sets_private_data", 1, "helper_of", sf->func);
out:
	sv_clear(&seen);
	sv_clear(&names);
	return syn;
}

/*
 * The head of a file that KIND() creates in FUNC() at LINE with private
 * data P: the global head, or the poll function's head written with P
 * (which must be a variable of the type the poll function reads).  P is
 * added to ALLOWED.
 */
char *head_from_priv(struct plan_ctx *pc, struct frame *sf, const char *kind, const char *func,
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
