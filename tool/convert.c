// SPDX-License-Identifier: GPL-2.0
/*
 * convert.c - plan and apply the conversion of one auto-convertible
 * implementation (TAXONOMY.md: none, single-static, single-private with
 * "convertible": "yes").  See convert.h.
 *
 * The head.  The scan gives the head as written in the poll_wait() call
 * (in a helper when "via" says so).  To set it where the file is
 * created, it is rewritten in that function's terms from the facts of
 * cocci/f_poll_head.cocci:
 *   1. in the poll function (and its helper), locals are replaced by
 *      their one definition until the head is written in terms of the
 *      file: $PD (file->private_data), $INODE (file_inode(file)),
 *      globals, and the local b that holds private_data;
 *   2. at an ->open() that sets "file->private_data = E;", b becomes E
 *      (same type), and the head is set right after that statement; a
 *      field the head reads (E->dev in &E->dev->wait) must be stored
 *      before it and not after, and when it is stored from a local the
 *      local is used (&dev->wait);
 *   3. at an ->open() that does not set private_data (misc devices,
 *      cdevs: it was set before open, or the head comes from the inode
 *      or a global), the head is written with open's own locals that
 *      compute the same values, and set before open's first statement
 *      (or after the statement that defines the local it needs);
 *   4. on the file returned by anon_inode_getfile(..., &fops, P, ...),
 *      b becomes P, and the head is set after the IS_ERR() check.
 * Anything else is refused with the reason.  "Never a guess": a field
 * read that open() stores after the anchor, a local assigned twice, a
 * private_data set in a helper, a type that differs, a call that is not
 * container_of(): all refuse.
 */
#define _GNU_SOURCE
#include "convert.h"
#include "cfacts.h"
#include "headexpr.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char *str(json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));

	return s ? s : "";
}

void convert_init(struct convert *c, const char *root, const char *cocci_dir)
{
	c->root = root;
	c->cocci_dir = cocci_dir;
	c->facts = json_object();
	c->refs = json_object();
}

void convert_release(struct convert *c)
{
	json_decref(c->facts);
	json_decref(c->refs);
	c->facts = c->refs = NULL;
}

/* ---- frames: one function's parameters and local definitions ---- */

struct frame {
	const char *func;
	json_t *facts;
	const char *fparam;	/* the struct file * parameter */
	const char *iparam;	/* the struct inode * parameter, or NULL */
	const char *ptparam;	/* the poll_table parameter, or NULL */
	json_t *params;
	int line;
};

static bool type_is(const char *type, const char *what)
{
	char *n = hx_norm(type);
	bool r = n && hx_contains_seq(n, what);

	free(n);
	return r;
}

static int frame_init(struct frame *fr, json_t *facts, const char *func, char **err)
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
		const char *t = str(p, "type"), *n = str(p, "name");

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

static bool is_param(struct frame *fr, const char *v, const char **type)
{
	json_t *p;
	size_t i;

	json_array_foreach(fr->params, i, p)
		if (!strcmp(str(p, "name"), v)) {
			if (type)
				*type = str(p, "type");
			return true;
		}
	return false;
}

/*
 * The definitions of local V in FR: declarations with an initializer and
 * assignment statements.  Returns their number; *DEF the last one;
 * *TYPE the declared type ("" when not declared here).
 */
static int defs_of(struct frame *fr, const char *v, json_t **def, const char **type, int *ndecls)
{
	json_t *d;
	size_t i;
	int n = 0, nd = 0;

	if (def)
		*def = NULL;
	if (type)
		*type = "";
	json_array_foreach(json_object_get(fr->facts, "decls"), i, d) {
		if (strcmp(str(d, "func"), fr->func) || strcmp(str(d, "var"), v))
			continue;
		nd++;
		if (type)
			*type = str(d, "type");
		if (*str(d, "init")) {
			n++;
			if (def)
				*def = d;
		}
	}
	json_array_foreach(json_object_get(fr->facts, "assigns"), i, d) {
		if (strcmp(str(d, "func"), fr->func) || strcmp(str(d, "lhs"), v))
			continue;
		n++;
		if (def)
			*def = d;
	}
	if (type && !nd)
		is_param(fr, v, type);
	if (ndecls)
		*ndecls = nd;
	return n;
}

static const char *def_rhs(json_t *d)
{
	return json_object_get(d, "init") ? str(d, "init") : str(d, "rhs");
}

/* Write FR's file and inode as the roots $FILE, $PD, $INODE. */
static char *frame_norm(struct frame *fr, const char *e)
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

/*
 * Replace FR's locals in E by their one definition until only roots,
 * globals, parameters and the names in STOP are left.
 */
static char *rootify(struct frame *fr, const char *e, const struct strvec *stop, char **err)
{
	char *r = frame_norm(fr, e);

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
			n = defs_of(fr, v, &d, NULL, NULL);
			if (n == 0)
				continue;
			if (n > 1) {
				*err = xasprintf("%s is assigned more than once in %s()", v, fr->func);
				sv_clear(&vars);
				free(r);
				return NULL;
			}
			rhs = frame_norm(fr, def_rhs(d));
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
static void pd_locals(struct frame *fr, struct strvec *out)
{
	json_t *d;
	size_t i;
	const char *lists[] = { "decls", "assigns" };

	for (int l = 0; l < 2; l++)
		json_array_foreach(json_object_get(fr->facts, lists[l]), i, d) {
			const char *v = l ? str(d, "lhs") : str(d, "var");
			char *r;
			size_t n;

			if (strcmp(str(d, "func"), fr->func) || !hx_is_ident(v) || !*def_rhs(d))
				continue;
			r = frame_norm(fr, def_rhs(d));
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

static bool same_type(const char *a, const char *b)
{
	char *x = type_norm(a), *y = type_norm(b);
	bool r = *x && !strcmp(x, y);

	free(x);
	free(y);
	return r;
}

/* ---- the new names ---- */

static char *mask_name(const char *fn)
{
	size_t n = strlen(fn);
	const char *p;

	if (n >= 4 && !strcmp(fn + n - 4, "poll"))
		return xasprintf("%s_mask", fn);
	p = strstr(fn, "_poll_");
	if (p) {
		const char *q;

		while ((q = strstr(p + 1, "_poll_")))
			p = q;
		return xasprintf("%.*s_poll_mask%s", (int)(p - fn), fn, p + 5);
	}
	return xasprintf("%s_poll_mask", fn);
}

/* .c and .h files of the tree that mention NAME (as a word), cached. */
static json_t *refs_of(struct convert *c, const char *name)
{
	json_t *r = json_object_get(c->refs, name);
	struct strbuf out = STRBUF_INIT;
	char *gitdir = path_join(c->root, ".git");
	int rc;

	if (r)
		return r;
	if (is_dir(gitdir) || is_file(gitdir)) {
		const char *argv[] = { "git", "grep", "-l", "-w", "-F", "-e", name, "--", "*.c", "*.h", NULL };

		rc = run_cmd(argv, c->root, &out, true);
	} else {
		const char *argv[] = { "grep", "-r", "-l", "-w", "-F", "--include=*.c", "--include=*.h", "-e", name,
				       ".", NULL };

		rc = run_cmd(argv, c->root, &out, true);
	}
	free(gitdir);
	r = json_array();
	if (rc == 0 || rc == 1) {
		struct strvec files = STRVEC_INIT;

		for (const char *l = out.buf; l && *l;) {
			const char *e = strchr(l, '\n');
			char *f = xstrndup(l, e ? (size_t)(e - l) : strlen(l));

			sv_push(&files, !strncmp(f, "./", 2) ? f + 2 : f);
			free(f);
			l = e ? e + 1 : NULL;
		}
		sv_sort(&files);
		for (size_t i = 0; i < files.n; i++)
			json_array_append_new(r, json_string(files.v[i]));
		sv_clear(&files);
	}
	sb_release(&out);
	json_object_set_new(c->refs, name, r);
	return r;
}

static char *read_rel(struct convert *c, const char *rel)
{
	char *p = path_join(c->root, rel), *text = NULL;

	if (read_file(p, &text, NULL) < 0)
		text = NULL;
	free(p);
	return text;
}

/* Is the definition of FN in TEXT static? */
static bool is_static_def(const char *text, const char *fn)
{
	size_t s, e;
	const char *p, *q;

	if (!cfacts_func_body(text, fn, &s, &e))
		return false;
	/* back from the body to the end of the previous declaration */
	p = text + s;
	while (p > text && p[-1] != ';' && p[-1] != '}' && !(p[-1] == '/' && p - 1 > text && p[-2] == '*'))
		p--;
	for (q = p; q < text + s; q++)
		if (!strncmp(q, "static", 6) && (q == text || !(q[-1] == '_' || (q[-1] >= 'a' && q[-1] <= 'z'))) &&
		    (q[6] == ' ' || q[6] == '\t' || q[6] == '\n'))
			return true;
	return false;
}

/* ---- planning ---- */

struct plan_ctx {
	struct convert *c;
	json_t *impl;
	struct frame poll;
	char *head_pd;		/* the head with the private_data local(s) kept */
	char *head_root;	/* the head in roots only */
	char *b;		/* the local holding private_data, or NULL */
	const char *btype;
	bool uses_pd;		/* the head depends on private_data */
	bool static_head;	/* only globals */
};

static json_t *facts_of(struct convert *c, const char *rel, char **err)
{
	return cfacts_get(c->facts, c->root, rel, c->cocci_dir, err);
}

/* The poll function's head (or its helper's) in the poll function's terms. */
static char *poll_head(struct plan_ctx *pc, char **err)
{
	json_t *h = json_array_get(json_object_get(pc->impl, "heads"), 0);
	const char *via = str(h, "via"), *expr = str(h, "expr");
	char *n = hx_norm(expr), *helper, *r;
	struct frame hf;
	json_t *hfacts, *call = NULL, *x;
	size_t i;

	if (!n) {
		*err = xasprintf("cannot read the head '%s'", expr);
		return NULL;
	}
	if (!*via)
		return n;
	if (strstr(via, "->") || strncmp(via + strlen(via) - 2, "()", 2)) {
		*err = xasprintf("the head is registered through a chain of helpers (%s)", via);
		free(n);
		return NULL;
	}
	helper = xstrndup(via, strlen(via) - 2);
	hfacts = facts_of(pc->c, str(h, "file"), err);
	if (!hfacts || frame_init(&hf, hfacts, helper, err) < 0) {
		free(helper);
		free(n);
		return NULL;
	}
	r = rootify(&hf, n, NULL, err);
	free(n);
	if (!r) {
		free(helper);
		return NULL;
	}
	json_array_foreach(json_object_get(pc->poll.facts, "calls"), i, x)
		if (!strcmp(str(x, "func"), pc->poll.func) && !strcmp(str(x, "callee"), helper)) {
			if (call) {
				*err = xasprintf("%s() calls %s() more than once", pc->poll.func, helper);
				goto fail;
			}
			call = x;
		}
	if (!call || json_array_size(json_object_get(call, "args")) != json_array_size(hf.params)) {
		*err = xasprintf("cannot match the call of %s() in %s()", helper, pc->poll.func);
		goto fail;
	}
	/* helper parameters -> placeholders -> the caller's arguments */
	json_array_foreach(hf.params, i, x) {
		char *ph = xasprintf("$ARG%zu", i), *t;
		const char *pn = str(x, "name");

		if (hf.fparam && !strcmp(pn, hf.fparam)) {
			const char *a = json_string_value(json_array_get(json_object_get(call, "args"), i));

			if (!pc->poll.fparam || strcmp(a, pc->poll.fparam)) {
				*err = xasprintf("%s() is given another file than %s()'s", helper, pc->poll.func);
				free(ph);
				goto fail;
			}
		}
		t = hx_subst(r, pn, ph);
		free(r);
		r = t;
		free(ph);
	}
	json_array_foreach(hf.params, i, x) {
		char *ph = xasprintf("$ARG%zu", i), *t;

		t = hx_subst(r, ph, json_string_value(json_array_get(json_object_get(call, "args"), i)));
		free(r);
		r = t;
		free(ph);
	}
	/* the helper's roots are the poll function's: same file */
	if (pc->poll.fparam) {
		char *t = hx_replace_seq(r, "$FILE", pc->poll.fparam);

		free(r);
		r = t;
		t = hx_replace_seq(r, "$PD", "$FILE -> private_data");
		free(r);
		r = hx_replace_seq(t, "$FILE", pc->poll.fparam);
		free(t);
		t = hx_replace_seq(r, "$INODE", "file_inode ( $FILE )");
		free(r);
		r = hx_replace_seq(t, "$FILE", pc->poll.fparam);
		free(t);
	}
	free(helper);
	return r;
fail:
	free(helper);
	free(r);
	return NULL;
}

/* Is every variable of E a global (not a local or parameter of FR)? */
static bool only_globals(struct frame *fr, const char *e)
{
	struct strvec v = STRVEC_INIT;
	bool ok = true;

	hx_vars(e, &v);
	for (size_t i = 0; i < v.n && ok; i++)
		if (v.v[i][0] == '$' || defs_of(fr, v.v[i], NULL, NULL, NULL) > 0 || is_param(fr, v.v[i], NULL))
			ok = false;
	sv_clear(&v);
	return ok;
}

/* Does FR have V as a local (declared or assigned) or parameter? */
static bool frame_has(struct frame *fr, const char *v)
{
	int nd = 0;

	return defs_of(fr, v, NULL, NULL, &nd) > 0 || nd > 0 || is_param(fr, v, NULL);
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

		if (strcmp(str(d, "func"), sf->func))
			continue;
		lhs = frame_norm(sf, str(d, "lhs"));
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
				const char *v = str(st, "rhs");
				json_t *vd;

				/* E->dev = dev; ... &E->dev->wait => &dev->wait */
				if (hx_is_ident(v) && defs_of(sf, v, &vd, NULL, &nd) <= 1 &&
				    (!vd || json_integer_value(json_object_get(vd, "line")) <
					    json_integer_value(json_object_get(st, "line"))) &&
				    (nd > 0 || is_param(sf, v, NULL)) && strcmp(v, sf->fparam ? sf->fparam : "")) {
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
		defs_of(sf, x, NULL, &ty, NULL);
		want = xasprintf("struct %s *", t.v[i + 8]);
		if (same_type(ty, want)) {
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
		if (!strcmp(str(d, "func"), sf->func) && !sv_contains(&names, str(d, "var")))
			sv_push(&names, str(d, "var"));
	for (i = 0; i < names.n; i++) {
		char *e = NULL, *rv;
		json_t *def;

		if (defs_of(sf, names.v[i], &def, NULL, NULL) != 1)
			continue;
		rv = rootify(sf, names.v[i], NULL, &e);
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
			size_t l = strlen(str(x, "root"));

			char *t = hx_replace_value(r, str(x, "root"), "$MARK$");

			if (!sv_contains(used, str(x, "var")) && l > bl && strstr(t, "$MARK$")) {
				best = i;
				bl = l;
			}
			free(t);
		}
		if (best != (size_t)-1) {
			char *t;

			x = json_array_get(cands, best);
			t = hx_replace_value(r, str(x, "root"), str(x, "var"));
			free(r);
			r = hx_simplify(t);
			free(t);
			sv_push(used, str(x, "var"));
			if (!json_is_true(json_object_get(x, "decl"))) {
				int l = (int)json_integer_value(json_object_get(x, "line"));

				if (l > best_line) {
					best_line = l;
					free(*lvar);
					*lvar = xstrdup(str(x, "var"));
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

static json_t *site_plan(struct plan_ctx *pc, json_t *site, char **err)
{
	const char *kind = str(site, "kind"), *file = str(site, "file"), *func = str(site, "function");
	json_t *facts = facts_of(pc->c, file, err), *vars = json_object(), *d, *res = NULL;
	struct frame sf;
	struct strvec allowed = STRVEC_INIT;
	const char *anchor = NULL;
	char *h = NULL, *t = NULL, *lvar = NULL, *pretty;
	int aline = 0;
	size_t i;

	if (!facts || frame_init(&sf, facts, func, err) < 0)
		goto out;
	if (!strcmp(kind, "open") || !strcmp(kind, "alloc_file_pseudo")) {
		json_t *pdset = NULL;
		int npd = 0;
		const char *fv = sf.fparam;

		json_array_foreach(json_object_get(facts, "assigns"), i, d) {
			char *lhs;

			if (strcmp(str(d, "func"), func))
				continue;
			lhs = frame_norm(&sf, str(d, "lhs"));
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
				json_object_set_new(vars, "pdvar", json_string(str(pdset, "rhs")));
			}
		} else if (pc->uses_pd && npd) {
			const char *e = str(pdset, "rhs"), *etype = "";

			if (npd != 1) {
				*err = xasprintf("%s() sets private_data in %d places", func, npd);
				goto out;
			}
			if (!pc->b) {
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
				anchor = "pdexpr";
				{
					struct strvec ev = STRVEC_INIT;

					hx_vars(e, &ev);
					for (size_t k = 0; k < ev.n; k++)
						sv_push(&allowed, ev.v[k]);
					sv_clear(&ev);
				}
				{
					char *pp = hx_pretty(e);

					json_object_set_new(vars, "pdexpr", json_string(pp));
					free(pp);
				}
				goto pd_done;
			}
			if (!hx_is_ident(e)) {
				char *p = hx_pretty(e);

				*err = xasprintf("%s() sets private_data to %s, not to a variable", func, p);
				free(p);
				goto out;
			}
			defs_of(&sf, e, NULL, &etype, NULL);
			if (!same_type(etype, pc->btype)) {
				*err = xasprintf("%s() sets private_data from %s (%s), %s() reads it as %s", func, e,
						 *etype ? etype : "type unknown", pc->poll.func, pc->btype);
				goto out;
			}
			aline = (int)json_integer_value(json_object_get(pdset, "line"));
			t = hx_subst(pc->head_pd, pc->b, e);
			h = check_loads(&sf, t, aline, true, &allowed, err);
			if (!h)
				goto out;
			anchor = "pd";
			json_object_set_new(vars, "pdvar", json_string(e));
			sv_push(&allowed, e);
pd_done:;
		} else if (pc->uses_pd && json_is_true(json_object_get(site, "sets_private_data"))) {
			*err = xasprintf("private_data is set by a function that %s() calls", func);
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
		size_t k;
		int n = 0;

		json_array_foreach(json_object_get(facts, "anons"), i, d) {
			if (strcmp(str(d, "func"), func))
				continue;
			json_array_foreach(json_object_get(pc->impl, "ops"), k, o) {
				char *f = xasprintf("& %s", str(o, "var"));

				if (!strcmp(str(d, "fops"), f)) {
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
		if (!hx_is_ident(str(an, "lhs")) && !hx_is_postfix(str(an, "lhs"))) {
			*err = xasprintf("the file %s() returns is not kept in a variable", kind);
			goto out;
		}
		aline = (int)json_integer_value(json_object_get(an, "line"));
		if (pc->static_head) {
			h = xstrdup(pc->head_root);
		} else if (pc->uses_pd && pc->b) {
			const char *p = str(an, "priv"), *ptype = "";

			if (!hx_is_ident(p)) {
				*err = xasprintf("the private data given to %s() is not a variable", kind);
				goto out;
			}
			defs_of(&sf, p, NULL, &ptype, NULL);
			if (!same_type(ptype, pc->btype)) {
				*err = xasprintf("%s() gives %s (%s) as private data, %s() reads it as %s", func, p,
						 *ptype ? ptype : "type unknown", pc->poll.func, pc->btype);
				goto out;
			}
			t = hx_subst(pc->head_pd, pc->b, p);
			h = check_loads(&sf, t, aline, true, &allowed, err);
			if (!h)
				goto out;
			sv_push(&allowed, p);
		} else {
			*err = xasprintf("the head of a file made by %s() must come from its private data", kind);
			goto out;
		}
		if (hx_contains_seq(h, "$")) {
			*err = xasprintf("the head depends on the file itself in %s()", func);
			goto out;
		}
		anchor = "anon";
		{
			const char *f = str(an, "fops");

			json_object_set_new(vars, "fops", json_string(f + 2));
		}
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

static json_t *refuse(json_t *impl, char *reason)
{
	json_t *r = json_pack("{s:b, s:s, s:s, s:I, s:s}", "ok", 0, "function", str(impl, "function"), "file",
			      str(impl, "file"), "line", json_integer_value(json_object_get(impl, "line")), "reason",
			      reason ? reason : "unknown");

	free(reason);
	return r;
}

static const char *const open_path_kinds[] = {
	"misc_open", "cdev", "cdev_init", "register_chrdev", "__register_chrdev", "debugfs_create_file",
	"debugfs_create_file_unsafe", NULL
};

static bool open_path_kind(const char *k)
{
	for (int i = 0; open_path_kinds[i]; i++)
		if (!strcmp(k, open_path_kinds[i]))
			return true;
	return !strncmp(k, "registered as ", 14);
}

json_t *convert_plan(struct convert *c, json_t *impl)
{
	struct plan_ctx pc = { c, impl, { 0 }, NULL, NULL, NULL, NULL, false, false };
	const char *fn = str(impl, "function"), *file = str(impl, "file"), *cls = str(impl, "class");
	char *err = NULL, *mask = NULL, *text = NULL, *h = NULL, *ev = NULL;
	json_t *facts, *plan = NULL, *files = json_array(), *sites = json_array(), *s, *o, *refs;
	struct strvec seen = STRVEC_INIT, stop = STRVEC_INIT;
	bool is_static;
	size_t i, bs, be;

	if (strcmp(str(impl, "convertible"), "yes")) {
		err = xasprintf("not auto-convertible (%s)", str(impl, "convertible"));
		goto refused;
	}
	if (!json_is_true(json_object_get(impl, "compiled"))) {
		err = xstrdup("not compiled by the scan's configuration, so not build-tested here");
		goto refused;
	}
	text = read_rel(c, file);
	if (!text) {
		err = xasprintf("cannot read '%s'", file);
		goto refused;
	}
	if (!cfacts_func_body(text, fn, &bs, &be)) {
		err = xasprintf("cannot find the body of %s()", fn);
		goto refused;
	}
	facts = facts_of(c, file, &err);
	if (!facts || frame_init(&pc.poll, facts, fn, &err) < 0)
		goto refused;
	if (!pc.poll.fparam || !pc.poll.ptparam) {
		err = xasprintf("%s() is not (struct file *, poll_table *)", fn);
		goto refused;
	}
	/* poll_requested_events() in a helper that will be given NULL would see every event */
	{
		int l0 = cfacts_line_of(text, bs), l1 = cfacts_line_of(text, be);
		json_t *u;

		json_array_foreach(json_object_get(impl, "pt_uses"), i, u) {
			/* "poll_requested_events at FILE:LINE", or {what, file, line} */
			char *uf = NULL;
			const char *what = json_is_string(u) ? json_string_value(u) : str(u, "what");
			const char *at = strstr(what, " at ");
			int ul = 0;

			if (!json_is_string(u)) {
				uf = xstrdup(str(u, "file"));
				ul = (int)json_integer_value(json_object_get(u, "line"));
			} else if (at && strrchr(at, ':')) {
				uf = xstrndup(at + 4, (size_t)(strrchr(at, ':') - at - 4));
				ul = atoi(strrchr(at, ':') + 1);
			}
			if (uf && !strcmp(uf, file) && ul >= l0 && ul <= l1) {
				free(uf);
				continue;	/* in the function itself: becomes the events parameter */
			}
			err = xasprintf("the poll_table is used by a helper (%.*s at %s:%d), which would be given NULL",
					(int)(at ? (size_t)(at - what) : strlen(what)), what, uf ? uf : "?", ul);
			free(uf);
			goto refused;
		}
	}
	ev = xstrdup(cfacts_count_ident(text, bs, be, "events", false) ? "req_events" : "events");
	if (cfacts_count_ident(text, bs, be, ev, false)) {
		err = xasprintf("%s() already uses the names events and req_events", fn);
		goto refused;
	}
	mask = mask_name(fn);
	is_static = is_static_def(text, fn);
	refs = refs_of(c, mask);
	json_array_foreach(refs, i, o) {
		char *t2 = read_rel(c, json_string_value(o));
		bool clash = t2 && cfacts_count_ident(t2, 0, strlen(t2), mask, false) &&
			     (!is_static || !strcmp(json_string_value(o), file));

		free(t2);
		if (clash) {
			err = xasprintf("the name %s() is taken (%s)", mask, json_string_value(o));
			goto refused;
		}
	}

	/* where the poll side is rewritten */
	sv_push(&seen, file);
	json_array_foreach(json_object_get(impl, "ops"), i, o) {
		if (is_static && strcmp(str(o, "file"), file)) {
			err = xasprintf("%s() is static but %s in %s uses it", fn, str(o, "var"), str(o, "file"));
			goto refused;
		}
		if (!sv_contains(&seen, str(o, "file")))
			sv_push(&seen, str(o, "file"));
	}
	if (!is_static)
		json_array_foreach(refs_of(c, fn), i, o)
			if (!sv_contains(&seen, json_string_value(o)))
				sv_push(&seen, json_string_value(o));
	sv_sort(&seen);
	for (i = 0; i < seen.n; i++)
		json_array_append_new(files, json_string(seen.v[i]));

	/* the head and where each creation site sets it */
	if (strcmp(cls, "none")) {
		json_t *hd = json_array_get(json_object_get(impl, "heads"), 0);

		if (json_array_size(json_object_get(impl, "heads")) != 1) {
			err = xasprintf("%zu heads", json_array_size(json_object_get(impl, "heads")));
			goto refused;
		}
		if (!*str(hd, "via") && !cfacts_count_ident(text, bs, be, "poll_wait", false)) {
			err = xasprintf("no poll_wait() in the body of %s()", fn);
			goto refused;
		}
		h = poll_head(&pc, &err);
		if (!h)
			goto refused;
		pd_locals(&pc.poll, &stop);
		pc.head_pd = rootify(&pc.poll, h, &stop, &err);
		if (!pc.head_pd)
			goto refused;
		pc.head_root = rootify(&pc.poll, h, NULL, &err);
		if (!pc.head_root)
			goto refused;
		{
			struct strvec v = STRVEC_INIT;

			hx_vars(pc.head_pd, &v);
			for (size_t k = 0; k < v.n; k++)
				if (sv_contains(&stop, v.v[k])) {
					if (pc.b) {
						err = xasprintf("the head uses two copies of private_data (%s, %s)",
								pc.b, v.v[k]);
						sv_clear(&v);
						goto refused;
					}
					pc.b = xstrdup(v.v[k]);
				}
			sv_clear(&v);
		}
		if (pc.b)
			defs_of(&pc.poll, pc.b, NULL, &pc.btype, NULL);
		pc.uses_pd = hx_contains_seq(pc.head_root, "$PD");
		pc.static_head = only_globals(&pc.poll, pc.head_root) && !hx_contains_seq(pc.head_root, "$");
		if (hx_contains_seq(pc.head_root, "$FILE")) {
			err = xasprintf("the head depends on the file itself");
			goto refused;
		}
		{
			struct strvec v = STRVEC_INIT;

			hx_vars(pc.head_root, &v);
			for (size_t k = 0; k < v.n; k++)
				if (v.v[k][0] != '$' && is_param(&pc.poll, v.v[k], NULL)) {
					err = xasprintf("the head depends on the parameter %s", v.v[k]);
					sv_clear(&v);
					goto refused;
				}
			sv_clear(&v);
		}
		sv_clear(&seen);
		json_array_foreach(json_object_get(impl, "creation_sites"), i, s) {
			char *key = xasprintf("%s:%s", str(s, "file"), str(s, "function"));
			json_t *sp;

			if (!json_is_true(json_object_get(s, "settable"))) {
				free(key);
				if (open_path_kind(str(s, "kind")))
					continue;	/* the file is created through an ->open() */
				err = xasprintf("a file is created by %s in %s() where f_poll_head cannot be set",
						str(s, "kind"), str(s, "function"));
				goto refused;
			}
			if (sv_contains(&seen, key)) {
				free(key);
				continue;
			}
			sv_push(&seen, key);
			free(key);
			sp = site_plan(&pc, s, &err);
			if (!sp)
				goto refused;
			json_array_append_new(sites, sp);
		}
		if (!json_array_size(sites)) {
			err = xstrdup("no creation site where f_poll_head can be set");
			goto refused;
		}
	}
	{
		char *hp = h ? hx_pretty(h) : xstrdup("");

		plan = json_pack("{s:b, s:s, s:s, s:I, s:s, s:s, s:s, s:b, s:O, s:O, s:s}", "ok", 1, "function", fn,
				 "file", file, "line", json_integer_value(json_object_get(impl, "line")), "mask_fn",
				 mask, "events", ev, "pt", pc.poll.ptparam, "static", is_static, "files", files,
				 "sites", sites, "head", hp);
		free(hp);
	}
	goto out;
refused:
	plan = refuse(impl, err);
out:
	json_decref(files);
	json_decref(sites);
	sv_clear(&seen);
	sv_clear(&stop);
	free(text);
	free(mask);
	free(ev);
	free(h);
	free(pc.head_pd);
	free(pc.head_root);
	free(pc.b);
	return plan;
}

void convert_plan_files(json_t *plan, struct strvec *out)
{
	json_t *x;
	size_t i;

	json_array_foreach(json_object_get(plan, "files"), i, x)
		if (!sv_contains(out, json_string_value(x)))
			sv_push(out, json_string_value(x));
	json_array_foreach(json_object_get(plan, "sites"), i, x)
		if (!sv_contains(out, str(x, "file")))
			sv_push(out, str(x, "file"));
	sv_sort(out);
}

char *convert_describe(json_t *plan)
{
	struct strbuf sb = STRBUF_INIT;
	json_t *s;
	size_t i;

	sb_addf(&sb, "%s()", str(plan, "function"));
	if (!json_array_size(json_object_get(plan, "sites"))) {
		sb_adds(&sb, ": no wait queue (f_poll_head stays NULL)");
		return sb_detach(&sb);
	}
	json_array_foreach(json_object_get(plan, "sites"), i, s) {
		const char *k = str(s, "kind");

		sb_addf(&sb, "%s %s, set in %s()", i ? ";" : ":", str(s, "head"), str(s, "function"));
		if (strcmp(k, "open"))
			sb_addf(&sb, " (%s)", k);
	}
	return sb_detach(&sb);
}

/* ---- applying ---- */

struct saved {
	struct strvec names;
	struct strvec texts;
};

static void save_files(struct convert *c, const struct strvec *files, struct saved *sv)
{
	for (size_t i = 0; i < files->n; i++) {
		char *t = read_rel(c, files->v[i]);

		sv_push(&sv->names, files->v[i]);
		sv_push(&sv->texts, t ? t : "");
		free(t);
	}
}

static void restore_files(struct convert *c, struct saved *sv)
{
	for (size_t i = 0; i < sv->names.n; i++) {
		char *p = path_join(c->root, sv->names.v[i]);

		if (write_file_atomic(p, sv->texts.v[i], strlen(sv->texts.v[i])) < 0)
			die("cannot restore '%s'", p);
		free(p);
	}
}

static const char *saved_text(struct saved *sv, const char *rel)
{
	for (size_t i = 0; i < sv->names.n; i++)
		if (!strcmp(sv->names.v[i], rel))
			return sv->texts.v[i];
	return NULL;
}

static int spatch(struct convert *c, struct strvec *argv, char **reason)
{
	struct strbuf out = STRBUF_INIT;
	int rc;

	rc = run_cmd((const char *const *)argv->v, c->root, &out, true);
	sb_release(&out);
	if (rc != 0) {
		*reason = xasprintf("spatch failed (exit %d)", rc);
		return -1;
	}
	return 0;
}

static void spatch_common(struct strvec *a, const char *sp)
{
	sv_push(a, "spatch");
	sv_push(a, "--sp-file");
	sv_push(a, sp);
	sv_push(a, "--very-quiet");
	sv_push(a, "--no-includes");
	sv_push(a, "--keep-comments");
	sv_push(a, "--timeout");
	sv_push(a, "300");
	sv_push(a, "--in-place");
}

/* Text of lines: a NULL-terminated array into a copy of TEXT. */
static char **split_lines(const char *text, size_t *n)
{
	size_t cap = 16;
	char **v = xcalloc(cap, sizeof(*v));
	const char *p = text;

	*n = 0;
	while (*p) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);

		if (*n + 1 >= cap) {
			cap *= 2;
			v = xrealloc(v, cap * sizeof(*v));
		}
		v[(*n)++] = xstrndup(p, len);
		p += len + (e ? 1 : 0);
	}
	v[*n] = NULL;
	return v;
}

static char *join_lines(char **v, size_t n, bool final_newline)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < n; i++) {
		if (!v[i])
			continue;
		sb_adds(&sb, v[i]);
		if (i + 1 < n || final_newline)
			sb_addc(&sb, '\n');
	}
	return sb_detach(&sb);
}

static void free_lines(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static int col_of(const char *s, size_t upto)
{
	int col = 0;

	for (size_t i = 0; i < upto && s[i]; i++)
		col = s[i] == '\t' ? (col / 8 + 1) * 8 : col + 1;
	return col;
}

/* Column of '=' in an initializer line "\t.name<ws>= ...", -1 otherwise; *TABS when aligned with tabs. */
static int init_eq_col(const char *l, bool *tabs)
{
	const char *p = l;

	while (*p == ' ' || *p == '\t')
		p++;
	if (*p != '.')
		return -1;
	p++;
	while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_')
		p++;
	if (*p != ' ' && *p != '\t')
		return -1;
	if (tabs)
		*tabs = false;
	while (*p == ' ' || *p == '\t') {
		if (*p == '\t' && tabs)
			*tabs = true;
		p++;
	}
	if (*p != '=' || p[1] == '=')
		return -1;
	return col_of(l, (size_t)(p - l));
}

/* Re-align ".poll_mask<ws>= NAME" with the neighbouring members. */
static char *realign(const char *text, const char *mask_fn)
{
	size_t n;
	char **v = split_lines(text, &n);
	char *r;
	bool nl = text[0] && text[strlen(text) - 1] == '\n';

	for (size_t i = 0; i < n; i++) {
		const char *l = v[i], *p = l;
		int target = -1;
		bool tabs = false;
		struct strbuf sb = STRBUF_INIT;
		const char *rest;

		while (*p == ' ' || *p == '\t')
			p++;
		if (strncmp(p, ".poll_mask", 10) || !strstr(p, mask_fn) || init_eq_col(l, NULL) < 0)
			continue;
		for (size_t k = i; k-- > 0 && target < 0 && i - k <= 3;)
			target = init_eq_col(v[k], &tabs);
		for (size_t k = i + 1; k < n && target < 0 && k - i <= 3; k++)
			target = init_eq_col(v[k], &tabs);
		rest = strchr(p, '=');
		sb_add(&sb, l, (size_t)(p - l));
		sb_adds(&sb, ".poll_mask");
		{
			int col = col_of(sb.buf, sb.len);

			if (target <= col) {
				sb_addc(&sb, ' ');
			} else if (tabs) {
				while (col < target) {
					sb_addc(&sb, '\t');
					col = (col / 8 + 1) * 8;
				}
				if (col > target) {	/* cannot land there with tabs */
					sb.len = 0;
					sb_add(&sb, l, (size_t)(p - l));
					sb_adds(&sb, ".poll_mask ");
				}
			} else {
				while (col++ < target)
					sb_addc(&sb, ' ');
			}
		}
		sb_adds(&sb, rest);
		free(v[i]);
		v[i] = sb_detach(&sb);
	}
	r = join_lines(v, n, nl);
	free_lines(v, n);
	return r;
}

static bool blank(const char *l)
{
	return l && l[strspn(l, " \t")] == '\0';
}

/* Blank lines the removal of poll_wait() left: after "{", before "}", doubled. */
static char *tidy_body(const char *text, const char *old_text, const char *old_fn, const char *fn)
{
	size_t s, e, os, oe, n;
	char **v;
	int first, last;
	bool had_double = false, had_lead = false;
	char *r;

	if (!cfacts_func_body(text, fn, &s, &e))
		return xstrdup(text);
	if (old_text && cfacts_func_body(old_text, old_fn, &os, &oe)) {
		char *ob = xstrndup(old_text + os, oe - os);

		had_double = strstr(ob, "\n\n\n") != NULL;
		had_lead = !strncmp(ob, "{\n\n", 3);
		free(ob);
	}
	v = split_lines(text, &n);
	first = cfacts_line_of(text, s) - 1;
	last = cfacts_line_of(text, e - 1) - 1;
	for (int i = first + 1; i < last; i++) {
		if (!blank(v[i]))
			continue;
		if (i == first + 1 && !had_lead && !strcmp(v[first] + strlen(v[first]) - 1, "{")) {
			free(v[i]);
			v[i] = NULL;
		} else if (!had_double && i + 1 < last && blank(v[i + 1])) {
			free(v[i]);
			v[i] = NULL;
		} else if (i + 1 == last) {
			free(v[i]);
			v[i] = NULL;
		}
	}
	r = join_lines(v, n, text[0] && text[strlen(text) - 1] == '\n');
	free_lines(v, n);
	return r;
}

/* A kernel-doc block right above the definition: the new name and the new parameter. */
static char *tidy_kerneldoc(const char *text, const char *old_fn, const char *fn, const char *pt, const char *ev)
{
	size_t s, e, n;
	char **v;
	int def, i;
	char *r;

	if (!cfacts_func_body(text, fn, &s, &e))
		return xstrdup(text);
	v = split_lines(text, &n);
	def = cfacts_line_of(text, s) - 1;
	while (def > 0 && !strstr(v[def], fn))
		def--;
	i = def - 1;
	if (i >= 0 && strstr(v[i], "*/")) {
		int top = i;

		while (top > 0 && !strstr(v[top], "/**") && !strstr(v[top], "/*"))
			top--;
		if (strstr(v[top], "/**")) {
			for (int k = top; k <= i; k++) {
				char *at = xasprintf("@%s:", pt);
				char *p;
				size_t ol = strlen(old_fn);

				if ((p = strstr(v[k], at))) {
					char *nl = xasprintf("%.*s@%s: the events the caller is interested in",
							     (int)(p - v[k]), v[k], ev);

					free(v[k]);
					v[k] = nl;
				} else if ((p = strstr(v[k], old_fn)) && (p == v[k] || !((p[-1] >= 'a' && p[-1] <= 'z') ||
									 p[-1] == '_')) &&
					   !((p[ol] >= 'a' && p[ol] <= 'z') || p[ol] == '_' || (p[ol] >= '0' && p[ol] <= '9'))) {
					char *nl = xasprintf("%.*s%s%s", (int)(p - v[k]), v[k], fn, p + ol);

					free(v[k]);
					v[k] = nl;
				}
				free(at);
			}
		}
	}
	r = join_lines(v, n, text[0] && text[strlen(text) - 1] == '\n');
	free_lines(v, n);
	return r;
}

/* .poll = fn in #define bodies (ops built by macros): the same rewrite, as text. */
static char *fix_macros(const char *text, const char *fn, const char *mask_fn, bool *changed)
{
	size_t n;
	char **v = split_lines(text, &n);
	bool in_define = false;
	char *r;

	*changed = false;
	for (size_t i = 0; i < n; i++) {
		const char *p = v[i] + strspn(v[i], " \t");
		size_t len = strlen(v[i]);

		if (!strncmp(p, "#define", 7) || !strncmp(p, "# define", 8))
			in_define = true;
		if (in_define) {
			char *q = strstr(v[i], ".poll");

			while (q) {
				const char *a = q + 5, *b;

				b = a + strspn(a, " \t");
				if (*b == '=' && !strncmp(b + 1 + strspn(b + 1, " \t"), fn, strlen(fn))) {
					const char *c = b + 1 + strspn(b + 1, " \t");
					const char *after = c + strlen(fn);

					if (!((*after >= 'a' && *after <= 'z') || *after == '_' || (*after >= '0' && *after <= '9'))) {
						char *nl = xasprintf("%.*s.poll_mask%.*s%s%s", (int)(q - v[i]), v[i],
								     (int)(c - a), a, mask_fn, after);

						free(v[i]);
						v[i] = nl;
						*changed = true;
						break;
					}
				}
				q = strstr(q + 1, ".poll");
			}
		}
		len = strlen(v[i]);
		if (!(len && v[i][len - 1] == '\\'))
			in_define = false;
	}
	r = join_lines(v, n, text[0] && text[strlen(text) - 1] == '\n');
	free_lines(v, n);
	return r;
}

static int write_rel(struct convert *c, const char *rel, const char *text)
{
	char *p = path_join(c->root, rel);
	int rc = write_file_atomic(p, text, strlen(text));

	free(p);
	return rc;
}

static int count_in_func(const char *text, const char *func, const char *ident)
{
	size_t s, e;

	if (!text || !cfacts_func_body(text, func, &s, &e))
		return -1;
	return cfacts_count_ident(text, s, e, ident, true);
}

int convert_apply(struct convert *c, json_t *plan, char **reason)
{
	const char *fn = str(plan, "function"), *mask = str(plan, "mask_fn"), *file = str(plan, "file");
	char *sp_poll = path_join(c->cocci_dir, "poll_mask.cocci");
	char *sp_head = path_join(c->cocci_dir, "f_poll_head.cocci");
	struct strvec files = STRVEC_INIT, argv = STRVEC_INIT;
	struct saved sv = { STRVEC_INIT, STRVEC_INIT };
	json_t *x, *s;
	size_t i;
	char *text = NULL;
	int rc = -1;

	*reason = NULL;
	convert_plan_files(plan, &files);
	save_files(c, &files, &sv);

	/* the poll side: the function, its ops, prototypes, exports */
	spatch_common(&argv, sp_poll);
	sv_pushf(&argv, "-D");
	sv_push(&argv, "patch");
	sv_pushf(&argv, "-D");
	sv_pushf(&argv, "fn=%s", fn);
	sv_pushf(&argv, "-D");
	sv_pushf(&argv, "mask_fn=%s", mask);
	sv_pushf(&argv, "-D");
	sv_pushf(&argv, "ev=%s", str(plan, "events"));
	json_array_foreach(json_object_get(plan, "files"), i, x)
		sv_push(&argv, json_string_value(x));
	if (spatch(c, &argv, reason) < 0)
		goto fail;
	sv_clear(&argv);

	/* each creation site */
	json_array_foreach(json_object_get(plan, "sites"), i, s) {
		const char *k;
		json_t *val;

		spatch_common(&argv, sp_head);
		sv_push(&argv, "-D");
		sv_pushf(&argv, "anchor_%s", str(s, "anchor"));
		sv_push(&argv, "-D");
		sv_pushf(&argv, "site=%s", str(s, "function"));
		sv_push(&argv, "-D");
		sv_pushf(&argv, "head=%s", str(s, "head"));
		json_object_foreach(json_object_get(s, "vars"), k, val) {
			sv_push(&argv, "-D");
			sv_pushf(&argv, "%s=%s", k, json_string_value(val));
		}
		sv_push(&argv, str(s, "file"));
		if (spatch(c, &argv, reason) < 0)
			goto fail;
		sv_clear(&argv);
	}

	/* ops built by macros, then: is anything left of the old name? */
	json_array_foreach(json_object_get(plan, "files"), i, x) {
		const char *rel = json_string_value(x);
		char *t = read_rel(c, rel), *nt;
		bool changed;

		if (!t)
			continue;
		nt = fix_macros(t, fn, mask, &changed);
		if (changed && write_rel(c, rel, nt) < 0) {
			free(t);
			free(nt);
			*reason = xasprintf("cannot write '%s'", rel);
			goto fail;
		}
		if (cfacts_count_ident(nt, 0, strlen(nt), fn, false)) {
			long off = cfacts_find_ident(nt, fn);
			int line = off >= 0 ? cfacts_line_of(nt, (size_t)off) : 0;
			const char *ls = off >= 0 ? nt + off : nt, *le;
			char *what;

			while (ls > nt && ls[-1] != '\n')
				ls--;
			le = strchr(ls, '\n');
			what = xstrndup(ls, le ? (size_t)(le - ls) : strlen(ls));
			*reason = xasprintf("%s is still referenced at %s:%d (\"%s\")", fn, rel, line,
					    what + strspn(what, " \t"));
			free(what);
			free(t);
			free(nt);
			goto fail;
		}
		free(t);
		free(nt);
	}
	text = read_rel(c, file);
	if (!text || count_in_func(text, mask, mask) < 0) {
		*reason = xasprintf("spatch did not rewrite %s()", fn);
		goto fail;
	}
	if (count_in_func(text, mask, str(plan, "pt")) != 0) {
		*reason = xasprintf("%s() still uses its poll_table %s after the conversion", fn, str(plan, "pt"));
		goto fail;
	}
	if (count_in_func(text, mask, "poll_wait") != 0) {
		*reason = xasprintf("%s() still calls poll_wait() after the conversion", fn);
		goto fail;
	}
	json_array_foreach(json_object_get(plan, "sites"), i, s) {
		char *nt = read_rel(c, str(s, "file"));
		int before = count_in_func(saved_text(&sv, str(s, "file")), str(s, "function"), "f_poll_head");
		int after = count_in_func(nt, str(s, "function"), "f_poll_head");

		free(nt);
		if (before < 0 || after - before != 1) {
			*reason = after - before > 1 ?
				xasprintf("%s() would set f_poll_head %d times", str(s, "function"), after - before) :
				xasprintf("spatch could not set f_poll_head in %s() (%s anchor)", str(s, "function"),
					  str(s, "anchor"));
			goto fail;
		}
	}

	/* tidy: alignment, blank lines, kernel-doc */
	for (i = 0; i < files.n; i++) {
		char *t = read_rel(c, files.v[i]), *t2;

		if (!t)
			continue;
		t2 = realign(t, mask);
		if (!strcmp(files.v[i], file)) {
			char *t3 = tidy_body(t2, saved_text(&sv, file), fn, mask);
			char *t4 = tidy_kerneldoc(t3, fn, mask, str(plan, "pt"), str(plan, "events"));

			free(t2);
			free(t3);
			t2 = t4;
		}
		if (strcmp(t, t2) && write_rel(c, files.v[i], t2) < 0) {
			free(t);
			free(t2);
			*reason = xasprintf("cannot write '%s'", files.v[i]);
			goto fail;
		}
		free(t);
		free(t2);
	}
	rc = 0;
	goto out;
fail:
	restore_files(c, &sv);
out:
	free(text);
	sv_clear(&files);
	sv_clear(&argv);
	sv_clear(&sv.names);
	sv_clear(&sv.texts);
	free(sp_poll);
	free(sp_head);
	return rc;
}
