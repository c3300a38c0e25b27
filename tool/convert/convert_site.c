// SPDX-License-Identifier: GPL-2.0
/*
 * convert_site.c - the head written where the file is created (the rules
 * of convert.c's top comment, 2 to 4): site_plan() for an ->open(), an
 * alloc_file_pseudo() or an anon_inode helper; the head in the site's
 * terms is convert_express.c's, the sites where private_data is set
 * elsewhere convert_helper.c's, a new ->open() convert_open.c's
 * (convert_int.h).
 */
#define _GNU_SOURCE
#include "convert_int.h"
#include "cfacts.h"
#include "headexpr.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static json_t *helper_plan(struct plan_ctx *pc, struct frame *sf, json_t *site, char **err);

/* What site_plan() builds up: the site, its frame, the head and where it goes. */
struct site_st {
	struct plan_ctx *pc;
	json_t *site, *facts, *vars;
	json_t *res;		/* a plan made by another planner (lvalue, helper) */
	const char *kind, *func;
	struct frame sf;
	struct strvec allowed;	/* the names the head may use with their meaning in the site */
	const char *anchor;
	char *h, *t, *lvar;
	int aline;
	char **err;
};

/* The assignments to private_data (a file's, for alloc_file_pseudo) in the site's function: the last in *PDSET. */
static int open_pd_sets(struct site_st *st, json_t **pdset)
{
	json_t *d;
	size_t i;
	int npd = 0;

	json_array_foreach(json_object_get(st->facts, "assigns"), i, d) {
		char *lhs;

		if (strcmp(jstr(d, "func"), st->func))
			continue;
		lhs = cv_frame_norm(&st->sf, jstr(d, "lhs"));
		if (!strcmp(jstr(d, "rhs"), "NULL")) {
			free(lhs);
			continue;	/* cleared on an error path: open() fails */
		}
		if (!strcmp(lhs, "$PD") || (!strcmp(st->kind, "alloc_file_pseudo") &&
					    hx_contains_seq(lhs, "-> private_data") &&
					    !strcmp(lhs + strlen(lhs) - 15, "-> private_data"))) {
			npd++;
			*pdset = d;
		}
		free(lhs);
	}
	return npd;
}

/* The head of globals only: at the top of open(), or where alloc_file_pseudo's private_data is set (PDSET). */
static void open_static(struct site_st *st, const char *fv, json_t *pdset)
{
	st->h = xstrdup(st->pc->head_root);
	if (!strcmp(st->kind, "open")) {
		st->anchor = "first";
		json_object_set_new(st->vars, "filevar", json_string(fv));
	} else {
		st->anchor = "pd";
		st->aline = (int)json_integer_value(json_object_get(pdset, "line"));
		json_object_set_new(st->vars, "pdvar", json_string(jstr(pdset, "rhs")));
	}
}

/* The poll function reads private_data through container_of(): E (what PDSET stores) is put there and folded. */
static int open_pd_container(struct site_st *st, json_t *pdset, const char *e)
{
	struct plan_ctx *pc = st->pc;
	const char *func = st->func;
	char *t1 = hx_replace_value(pc->head_root, "$PD", "$MARK$"), *t2;
	struct strvec et = STRVEC_INIT;

	st->aline = (int)json_integer_value(json_object_get(pdset, "line"));
	if (hx_contains_seq(t1, "$PD") || hx_contains_seq(t1, "$MARK$ ->")) {
		free(t1);
		*st->err = xasprintf("%s() sets private_data and %s() reads it without a typed local", func,
				     pc->poll.func);
		return -1;
	}
	t2 = hx_replace_seq(t1, "$MARK$", e);
	free(t1);
	st->t = fold_container_of(&st->sf, t2);
	free(t2);
	if (hx_contains_seq(st->t, "container_of") || hx_contains_seq(st->t, "list_entry")) {
		*st->err = xasprintf("%s() sets private_data and %s() reads it through container_of()", func,
				     pc->poll.func);
		return -1;
	}
	st->h = check_loads(&st->sf, st->t, st->aline, true, &st->allowed, st->err);
	if (!st->h)
		return -1;
	/* fold_container_of() only folds "& X -> m": anchor on that statement */
	hx_split(e, &et);
	if (et.n != 4 || strcmp(et.v[0], "&") || strcmp(et.v[2], "->")) {
		sv_clear(&et);
		*st->err = xasprintf("%s() sets private_data to an expression polltax cannot anchor on", func);
		return -1;
	}
	st->anchor = "pdaddr";
	json_object_set_new(st->vars, "pdbase", json_string(et.v[1]));
	json_object_set_new(st->vars, "pdmember", json_string(et.v[3]));
	sv_push(&st->allowed, et.v[1]);
	sv_clear(&et);
	return 0;
}

/* The head depends on private_data, which open() sets (PDSET, one of NPD): written where it is set. */
static int open_pd(struct site_st *st, json_t *pdset, int npd)
{
	struct plan_ctx *pc = st->pc;
	const char *func = st->func, *e = jstr(pdset, "rhs"), *etype = "";

	if (npd != 1) {
		*st->err = xasprintf("%s() sets private_data in %d places", func, npd);
		return -1;
	}
	if (!pc->btype)
		return open_pd_container(st, pdset, e);
	if (!hx_is_ident(e)) {
		st->res = lvalue_site_plan(pc, &st->sf, st->site, pdset, st->err);
		return -1;
	}
	cv_defs_of(&st->sf, e, NULL, &etype, NULL);
	if (!cv_same_type(etype, pc->btype)) {
		*st->err = xasprintf("%s() sets private_data from %s (%s), %s() reads it as %s", func, e,
				     *etype ? etype : "type unknown", pc->poll.func, pc->btype);
		return -1;
	}
	st->aline = (int)json_integer_value(json_object_get(pdset, "line"));
	st->t = hx_subst(pc->head_pd, "$B", e);
	st->h = check_loads(&st->sf, st->t, st->aline, true, &st->allowed, st->err);
	if (!st->h)
		return -1;
	st->anchor = "pd";
	json_object_set_new(st->vars, "pdvar", json_string(e));
	sv_push(&st->allowed, e);
	return 0;
}

/* private_data (if used) was set before open(): the head in open's locals. */
static int open_locals(struct site_st *st, const char *fv, int npd)
{
	struct strvec used = STRVEC_INIT;

	st->h = express_with_locals(&st->sf, st->pc->head_root, npd > 0, &st->anchor, &st->lvar, &st->aline, &used,
				    st->err);
	for (size_t k = 0; k < used.n; k++)
		sv_push(&st->allowed, used.v[k]);
	sv_clear(&used);
	st->t = st->h;
	st->h = check_loads(&st->sf, st->t, st->aline, false, &st->allowed, st->err);
	if (!st->h)
		return -1;
	json_object_set_new(st->vars, "filevar", json_string(fv));
	if (st->lvar)
		json_object_set_new(st->vars, "lvar", json_string(st->lvar));
	return 0;
}

/* An open() (or alloc_file_pseudo()) site: the head after its file (or private_data) is set up. */
static int site_open(struct site_st *st)
{
	struct plan_ctx *pc = st->pc;
	const char *func = st->func;
	json_t *pdset = NULL;
	const char *fv = st->sf.fparam;
	int npd = open_pd_sets(st, &pdset);

	if (!strcmp(st->kind, "alloc_file_pseudo")) {
		if (npd != 1) {
			*st->err = xasprintf("%s() sets private_data in %d places", func, npd);
			return -1;
		}
		fv = NULL;	/* the pd anchor finds the file itself */
	} else if (!fv) {
		*st->err = xasprintf("%s() has no struct file parameter", func);
		return -1;
	}
	if (pc->static_head) {
		open_static(st, fv, pdset);
	} else if (pc->uses_pd && npd) {
		if (open_pd(st, pdset, npd) < 0)
			return -1;
	} else if (pc->uses_pd && json_is_true(json_object_get(st->site, "sets_private_data"))) {
		if (json_object_get(st->site, "helper_of")) {
			*st->err = xasprintf("private_data is set by a function that %s() calls, which %s() calls",
					     func, jstr(st->site, "helper_of"));
			return -1;
		}
		st->res = helper_plan(pc, &st->sf, st->site, st->err);
		return -1;
	} else if (open_locals(st, fv, npd) < 0) {
		return -1;
	}
	if (fv) {
		sv_push(&st->allowed, fv);
		free(st->t);
		st->t = unroot(&st->sf, st->h, fv, st->err);
		if (!st->t)
			return -1;
		free(st->h);
		st->h = st->t;
		st->t = NULL;
	} else if (hx_contains_seq(st->h, "$")) {
		*st->err = xasprintf("the head depends on the file itself in %s()", func);
		return -1;
	}
	return 0;
}

/* How many of the poll's ops, written "& VAR", are FOPS (a call's)? */
static int ops_matches(struct plan_ctx *pc, const char *fops)
{
	json_t *o;
	size_t k;
	int n = 0;

	json_array_foreach(json_object_get(pc->impl, "ops"), k, o) {
		char *f = xasprintf("& %s", jstr(o, "var"));

		if (!strcmp(fops, f))
			n++;
		free(f);
	}
	return n;
}

/* An anon_inode_getfile() (or _create_) site: the head once the file is there, from the private data. */
static int site_anon_file(struct site_st *st)
{
	const char *func = st->func, *kind = st->kind;
	json_t *an = NULL, *d;
	bool returned = false;
	size_t i;
	int n = 0;

	/* a framework's site: the fops are what a driver handed it (classify_sites.c), the one call of FUNC */
	bool fw = json_object_get(st->site, "framework") != NULL;

	json_array_foreach(json_object_get(st->facts, "anons"), i, d) {
		int m;

		if (strcmp(jstr(d, "func"), func))
			continue;
		if ((m = fw ? 1 : ops_matches(st->pc, jstr(d, "fops")))) {
			an = d;
			n += m;
		}
	}
	if (!n && !fw) {
		/*
		 * "return anon_inode_getfile(...);": the file goes in a
		 * new local "file", set up when it is not an error
		 */
		json_array_foreach(json_object_get(st->facts, "anonrets"), i, d) {
			int m = ops_matches(st->pc, jstr(d, "fops"));

			if (!strcmp(jstr(d, "func"), func) && m) {
				an = d;
				n += m;
				returned = true;
			}
		}
		if (returned && frame_has(&st->sf, "file")) {
			*st->err = xasprintf("%s() returns what %s() returns, and the name file is taken there", func,
					     kind);
			return -1;
		}
	}
	if (n != 1) {
		*st->err = n ? xasprintf("%s() creates %d files with these ops", func, n)
			     : xasprintf("cannot find the %s() call in %s()", kind, func);
		return -1;
	}
	if (!returned && !hx_is_ident(jstr(an, "lhs")) && !hx_is_postfix(jstr(an, "lhs"))) {
		*st->err = xasprintf("the file %s() returns is not kept in a variable", kind);
		return -1;
	}
	st->aline = (int)json_integer_value(json_object_get(an, "line"));
	st->h = head_from_priv(st->pc, &st->sf, kind, func, jstr(an, "priv"), st->aline, &st->allowed, st->err);
	if (!st->h)
		return -1;
	/* after the IS_ERR() check when it leaves the function, else guarded */
	st->anchor = returned ? "anonret" : fw ? "anonfwguard" : "anonguard";
	json_array_foreach(json_object_get(st->facts, "anonexits"), i, d)
		if (!strcmp(jstr(d, "func"), func) && json_integer_value(json_object_get(d, "line")) == st->aline &&
		    json_is_true(json_object_get(d, "leaves")))
			st->anchor = fw ? "anonfw" : "anon";
	if (!fw)
		json_object_set_new(st->vars, "fops", json_string(jstr(an, "fops") + 2));
	return 0;
}

/*
 * An anon_inode_getfd() (or _create_) site.  The file is installed before
 * anon_inode_getfd() returns: the call becomes anon_inode_getfd_poll(),
 * which takes the head, written with the private data P it is given (and
 * anon_inode_create_getfd() becomes anon_inode_create_getfd_poll()).
 */
static int site_anon_fd(struct site_st *st)
{
	const char *func = st->func, *kind = st->kind, *p;
	json_t *an = NULL, *d;
	size_t i;
	int n = 0;

	json_array_foreach(json_object_get(st->facts, "anonfds"), i, d) {
		int m;

		if (strcmp(jstr(d, "func"), func) || strcmp(jstr(d, "callee"), kind))
			continue;
		if ((m = ops_matches(st->pc, jstr(d, "fops")))) {
			an = d;
			n += m;
		}
	}
	if (n != 1) {
		*st->err = n ? xasprintf("%s() creates %d files with these ops", func, n)
			     : xasprintf("cannot find the %s() call in %s()", kind, func);
		return -1;
	}
	st->aline = (int)json_integer_value(json_object_get(an, "line"));
	p = jstr(an, "priv");
	/* (void *)client: the cast only drops the type */
	if (!strncmp(p, "( void * ) ", 11))
		p += 11;
	st->h = head_from_priv(st->pc, &st->sf, kind, func, p, st->aline, &st->allowed, st->err);
	if (!st->h)
		return -1;
	st->anchor = "anonfd";
	json_object_set_new(st->vars, "fops", json_string(jstr(an, "fops") + 2));
	return 0;
}

json_t *site_plan(struct plan_ctx *pc, json_t *site, char **err)
{
	struct site_st st = {
		.pc = pc, .site = site, .vars = json_object(), .kind = jstr(site, "kind"),
		.func = jstr(site, "function"), .allowed = STRVEC_INIT, .err = err,
	};
	const char *file = jstr(site, "file"), *kind = st.kind;
	char *pretty;
	int rc;

	st.facts = cv_facts_of(pc->c, file, err);
	if (st.facts && !json_object_get(json_object_get(st.facts, "funcs"), st.func) &&
	    !strncmp(st.func, "__do_sys_", 9))
		st.func = st.func + 9;	/* SYSCALL_DEFINEn(name, ...): spatch calls it name */
	if (!st.facts || cv_frame_init(&st.sf, st.facts, st.func, err) < 0)
		goto out;
	if (!strcmp(kind, "open") || !strcmp(kind, "alloc_file_pseudo")) {
		rc = site_open(&st);
	} else if (!strcmp(kind, "anon_inode_getfile") || !strcmp(kind, "anon_inode_create_getfile")) {
		rc = site_anon_file(&st);
	} else if (!strcmp(kind, "anon_inode_getfd") || !strcmp(kind, "anon_inode_create_getfd")) {
		rc = site_anon_fd(&st);
	} else {
		*err = xasprintf("cannot set f_poll_head at a %s site (%s())", kind, st.func);
		rc = -1;
	}
	if (rc < 0)
		goto out;
	if (!hx_only_pure_calls(st.h, &st.t)) {
		char *e = xasprintf("the head is computed by %s() in %s()", st.t, st.func);

		free(st.t);
		st.t = NULL;
		*err = e;
		goto out;
	}
	if (check_capture(&st.sf, st.h, &st.allowed, err) < 0)
		goto out;
	pretty = hx_pretty(st.h);
	st.res = json_pack("{s:s, s:s, s:s, s:s, s:o, s:s, s:i}", "file", file, "function", st.func, "kind", kind,
			   "anchor", st.anchor, "vars", json_incref(st.vars), "head", pretty, "line", st.aline);
	free(pretty);
out:
	json_decref(st.vars);
	sv_clear(&st.allowed);
	free(st.h);
	free(st.t);
	free(st.lvar);
	return st.res;
}

/*
 * The ->open() SF hands its file to a helper that sets private_data: the
 * site is that helper (helper_site()), planned like any ->open(), with
 * the ->open()s that call it.
 */
static json_t *helper_plan(struct plan_ctx *pc, struct frame *sf, json_t *site, char **err)
{
	struct strvec callers = STRVEC_INIT;
	json_t *syn = helper_site(pc, sf, site, &callers, err), *res = NULL;

	if (syn)
		res = site_plan(pc, syn, err);
	json_decref(syn);
	if (res) {
		json_t *cj = json_array();

		for (size_t i = 0; i < callers.n; i++)
			json_array_append_new(cj, json_string(callers.v[i]));
		json_object_set_new(res, "callers", cj);
	}
	sv_clear(&callers);
	return res;
}
