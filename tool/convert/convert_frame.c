// SPDX-License-Identifier: GPL-2.0
/*
 * convert_frame.c - one function seen through the facts of
 * cocci/poll_facts.cocci: its parameters, its locals and their
 * definitions, and an expression rewritten with each local replaced by its
 * one definition (convert_int.h).  A local defined more than once, or by a
 * nested assignment, stops the rewriting with the reason.
 */
#define _GNU_SOURCE
#include "convert_int.h"
#include "cfacts.h"
#include "headexpr.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ---- frames: one function's parameters and local definitions ---- */


static bool type_is(const char *type, const char *what)
{
	char *n = hx_norm(type);
	bool r = n && hx_contains_seq(n, what);

	free(n);
	return r;
}

int cv_frame_init(struct frame *fr, json_t *facts, const char *func, char **err)
{
	json_t *f = json_object_get(json_object_get(facts, "funcs"), func), *p;
	size_t i;

	memset(fr, 0, sizeof(*fr));
	fr->func = func;
	fr->facts = facts;
	if (!f) {
		*err = xasprintf("spatch could not parse %s()", func);
		return -1;
	}
	fr->params = json_object_get(f, "params");
	fr->line = (int)json_integer_value(json_object_get(f, "line"));
	json_array_foreach(fr->params, i, p) {
		const char *t = jstr(p, "type"), *n = jstr(p, "name");

		if (!*n)
			continue;
		if (type_is(t, "struct file *") && !fr->fparam)
			fr->fparam = n;
		else if (type_is(t, "struct inode *") && !fr->iparam)
			fr->iparam = n;
		else if ((type_is(t, "poll_table *") || type_is(t, "struct poll_table_struct *")) && !fr->ptparam)
			fr->ptparam = n;
	}
	return 0;
}

bool cv_is_param(struct frame *fr, const char *v, const char **type)
{
	json_t *p;
	size_t i;

	json_array_foreach(fr->params, i, p)
		if (!strcmp(jstr(p, "name"), v)) {
			if (type)
				*type = jstr(p, "type");
			return true;
		}
	return false;
}

/*
 * The definitions of local V in FR: declarations with an initializer and
 * assignment statements.  Returns their number; *DEF the last one;
 * *TYPE the declared type ("" when not declared here).
 */
int cv_defs_of(struct frame *fr, const char *v, json_t **def, const char **type, int *ndecls)
{
	json_t *d;
	size_t i;
	int n = 0, nd = 0;

	if (def)
		*def = NULL;
	if (type)
		*type = "";
	json_array_foreach(json_object_get(fr->facts, "decls"), i, d) {
		if (strcmp(jstr(d, "func"), fr->func) || strcmp(jstr(d, "var"), v))
			continue;
		nd++;
		if (type)
			*type = jstr(d, "type");
		if (*jstr(d, "init")) {
			n++;
			if (def)
				*def = d;
		}
	}
	json_array_foreach(json_object_get(fr->facts, "assigns"), i, d) {
		if (strcmp(jstr(d, "func"), fr->func) || strcmp(jstr(d, "lhs"), v))
			continue;
		n++;
		if (def)
			*def = d;
	}
	if (type && !nd)
		cv_is_param(fr, v, type);
	if (ndecls)
		*ndecls = nd;
	return n;
}

const char *cv_def_rhs(json_t *d)
{
	return json_object_get(d, "init") ? jstr(d, "init") : jstr(d, "rhs");
}

/* Write FR's file and inode as the roots $FILE, $PD, $INODE. */
char *cv_frame_norm(struct frame *fr, const char *e)
{
	char *r = xstrdup(e), *t;

	if (fr->fparam) {
		t = hx_subst(r, fr->fparam, "$FILE");
		free(r);
		r = t;
	}
	if (fr->iparam) {
		t = hx_subst(r, fr->iparam, "$INODE");
		free(r);
		r = t;
	}
	static const char *const maps[][2] = {
		{ "file_inode ( $FILE )", "$INODE" },
		{ "$FILE -> f_inode", "$INODE" },
		{ "$FILE -> f_path . dentry -> d_inode", "$INODE" },
		{ "$FILE -> private_data", "$PD" },
	};
	for (size_t i = 0; i < sizeof(maps) / sizeof(maps[0]); i++) {
		t = hx_replace_seq(r, maps[i][0], maps[i][1]);
		free(r);
		r = t;
	}
	return r;
}

/* Does E read a void * (so that a local it initializes gives it a type)? */
static bool untyped_source(const char *e)
{
	static const char *const fields[] = { "private_data", "i_private", "private", "driver_data", "priv",
					      "platform_data", NULL };
	const char *last = strrchr(e, ' ');

	last = last ? last + 1 : e;
	if (!strcmp(e, "$PD"))
		return true;
	if (e[0] == '(')
		return false;	/* already a cast */
	for (int i = 0; fields[i]; i++)
		if (!strcmp(last, fields[i]) && strchr(e, ' '))
			return true;
	return false;
}

/*
 * Replace FR's locals in E by their one definition until only roots,
 * globals, parameters and the names in STOP are left.
 */
char *cv_rootify(struct frame *fr, const char *e, const struct strvec *stop, char **err)
{
	char *r = cv_frame_norm(fr, e);

	for (int iter = 0; iter < 32; iter++) {
		struct strvec vars = STRVEC_INIT;
		bool changed = false;

		hx_vars(r, &vars);
		for (size_t i = 0; i < vars.n && !changed; i++) {
			const char *v = vars.v[i];
			json_t *d;
			int n;
			char *rhs, *t;

			if (v[0] == '$' || (stop && sv_contains(stop, v)))
				continue;
			n = cv_defs_of(fr, v, &d, NULL, NULL);
			if (n == 0)
				continue;
			if (n > 1) {
				*err = xasprintf("%s is assigned more than once in %s()", v, fr->func);
				sv_clear(&vars);
				free(r);
				return NULL;
			}
			rhs = cv_frame_norm(fr, cv_def_rhs(d));
			{
				/* keep the type of a local set from a void * (private_data, i_private) */
				const char *ty = NULL;
				char *cast;

				cv_defs_of(fr, v, NULL, &ty, NULL);
				if (ty && *ty && untyped_source(rhs) && ty[strlen(ty) - 1] == '*') {
					cast = xasprintf("( %s ) %s", ty, rhs);
					free(rhs);
					rhs = cast;
				}
			}
			if (hx_contains_seq(rhs, "=")) {
				*err = xasprintf("%s is set by a nested assignment in %s()", v, fr->func);
				free(rhs);
				sv_clear(&vars);
				free(r);
				return NULL;
			}
			t = hx_subst(r, v, rhs);
			free(rhs);
			free(r);
			r = t;
			changed = true;
		}
		sv_clear(&vars);
		if (!changed)
			return r;
	}
	*err = xasprintf("the head's definitions loop in %s()", fr->func);
	free(r);
	return NULL;
}

/* Locals of FR defined as file->private_data (maybe cast). */
void cv_pd_locals(struct frame *fr, struct strvec *out)
{
	json_t *d;
	size_t i;
	const char *lists[] = { "decls", "assigns" };

	for (int l = 0; l < 2; l++)
		json_array_foreach(json_object_get(fr->facts, lists[l]), i, d) {
			const char *v = l ? jstr(d, "lhs") : jstr(d, "var");
			char *r;
			size_t n;

			if (strcmp(jstr(d, "func"), fr->func) || !hx_is_ident(v) || !*cv_def_rhs(d))
				continue;
			r = cv_frame_norm(fr, cv_def_rhs(d));
			n = strlen(r);
			if (!strcmp(r, "$PD") || (r[0] == '(' && n > 4 && !strcmp(r + n - 4, " $PD")))
				if (!sv_contains(out, v))
					sv_push(out, v);
			free(r);
		}
}

static char *type_norm(const char *t)
{
	struct strvec tok = STRVEC_INIT;
	struct strbuf sb = STRBUF_INIT;

	hx_split(t, &tok);
	for (size_t i = 0; i < tok.n; i++) {
		if (!strcmp(tok.v[i], "const") || !strcmp(tok.v[i], "volatile"))
			continue;
		if (sb.len)
			sb_addc(&sb, ' ');
		sb_adds(&sb, tok.v[i]);
	}
	sv_clear(&tok);
	return sb_detach(&sb);
}

bool cv_same_type(const char *a, const char *b)
{
	char *x = type_norm(a), *y = type_norm(b);
	bool r = *x && !strcmp(x, y);

	free(x);
	free(y);
	return r;
}

/* Is every variable of E a global (not a local or parameter of FR)? */
bool cv_only_globals(struct frame *fr, const char *e)
{
	struct strvec v = STRVEC_INIT;
	bool ok = true;

	hx_vars(e, &v);
	for (size_t i = 0; i < v.n && ok; i++)
		if (v.v[i][0] == '$' || cv_defs_of(fr, v.v[i], NULL, NULL, NULL) > 0 || cv_is_param(fr, v.v[i], NULL))
			ok = false;
	sv_clear(&v);
	return ok;
}
