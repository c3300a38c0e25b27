// SPDX-License-Identifier: GPL-2.0
/*
 * convert_express.c - the head in a creation site's own terms: its locals
 * and parameters, the loads it needs stored before the anchor,
 * container_of() folded, the roots written back as names (convert_int.h).
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
bool frame_has(struct frame *fr, const char *v)
{
	int nd = 0;

	return cv_defs_of(fr, v, NULL, NULL, &nd) > 0 || nd > 0 || cv_is_param(fr, v, NULL);
}

/*
 * Check that the variables of H in site frame SF mean what they meant:
 * every one is in ALLOWED or is not a name of SF.
 */
int check_capture(struct frame *sf, const char *h, const struct strvec *allowed, char **err)
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
char *check_loads(struct frame *sf, const char *h, int line, bool must_store, struct strvec *used,
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
char *fold_container_of(struct frame *sf, const char *h)
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
char *unroot(struct frame *sf, const char *h, const char *filevar, char **err)
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
char *express_with_locals(struct frame *sf, const char *h, bool site_sets_pd, const char **anchor,
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
