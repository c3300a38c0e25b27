// SPDX-License-Identifier: GPL-2.0
/*
 * convert.c - plan and apply the conversion of one auto-convertible
 * implementation (TAXONOMY.md: none, single-static, single-private with
 * "convertible": "yes").  See convert.h.
 *
 * The head.  The scan gives the head as written in the poll_wait() call
 * (in a helper when "via" says so).  To set it where the file is
 * created, it is rewritten in that function's terms from the facts of
 * cocci/poll_facts.cocci:
 *   1. in the poll function (and its helper), locals are replaced by
 *      their one definition until the head is written in terms of the
 *      file: $PD (file->private_data), $INODE (file_inode(file)),
 *      globals, and the local b that holds private_data;
 *   2. at an ->open() that sets "file->private_data = E;", b becomes E
 *      (same type), and the head is set right after that statement; a
 *      field the head reads (E->dev in &E->dev->wait) must be stored
 *      before it and not after, and when it is stored from a local the
 *      local is used (&dev->wait);
 *      E may also be a plain lvalue (hw->slot[i]) into which open()
 *      stores a variable of b's type: the head is written with it;
 *   2a. at an ->open() that hands its file to a helper that sets
 *      private_data, the same in the helper, when every use of the
 *      helper in the tree is a call from one of the ->open()s the scan
 *      found, on the file being opened (the opens that share it give
 *      one site);
 *   3. at an ->open() that does not set private_data (misc devices,
 *      cdevs: it was set before open, or the head comes from the inode
 *      or a global), the head is written with open's own locals that
 *      compute the same values, and set before open's first statement
 *      (or after the statement that defines the local it needs);
 *   4. on the file returned by anon_inode_getfile(..., &fops, P, ...),
 *      b becomes P, and the head is set after the IS_ERR() check; when
 *      the call is returned directly, the file is kept in a new local
 *      first.
 *   5. anon_inode_getfd(..., &fops, P, flags) installs the file before it
 *      returns: b becomes P (a cast to void * dropped), and the call
 *      becomes anon_inode_getfd_poll(..., &fops, P, flags, head); the
 *      same for anon_inode_create_getfd(..., &fops, P, flags, inode),
 *      which becomes anon_inode_create_getfd_poll(..., inode, head).
 * Anything else is refused with the reason.  "Never a guess": a field
 * read that open() stores after the anchor, a local assigned twice, a
 * helper setting private_data that anything but these ->open()s uses,
 * a type that differs, a call that is not container_of(): all refuse.
 */
#define _GNU_SOURCE
#include "convert_int.h"
#include "cfacts.h"
#include "headexpr.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

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

/* ---- the new names ---- */

char *mask_name(const char *fn)
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

static bool json_array_contains_str(json_t *a, const char *v)
{
	json_t *x;
	size_t i;

	json_array_foreach(a, i, x)
		if (!strcmp(json_string_value(x), v))
			return true;
	return false;
}

static json_t *refuse(json_t *impl, char *reason)
{
	json_t *r = json_pack("{s:b, s:s, s:s, s:I, s:s, s:s}", "ok", 0, "function", jstr(impl, "function"), "file",
			      jstr(impl, "file"), "line", json_integer_value(json_object_get(impl, "line")), "reason",
			      reason ? reason : "unknown", "class", jstr(impl, "class"));

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

/*
 * Two ->open()s that call the same helper setting private_data give the
 * same site: keep one (SP is dropped, 1), unless they disagree (-1).
 */
static int same_site(json_t *sites, json_t *sp, char **err)
{
	json_t *x, *cs;
	size_t i, k;

	json_array_foreach(sites, i, x) {
		if (strcmp(jstr(x, "file"), jstr(sp, "file")) || strcmp(jstr(x, "function"), jstr(sp, "function")))
			continue;
		if (strcmp(jstr(x, "head"), jstr(sp, "head")) || strcmp(jstr(x, "anchor"), jstr(sp, "anchor")) ||
		    !json_equal(json_object_get(x, "vars"), json_object_get(sp, "vars"))) {
			*err = xasprintf("%s() would set f_poll_head to %s and to %s", jstr(sp, "function"),
					 jstr(x, "head"), jstr(sp, "head"));
			return -1;
		}
		json_array_foreach(json_object_get(sp, "callers"), k, cs)
			if (!json_array_contains_str(json_object_get(x, "callers"), json_string_value(cs)))
				json_array_append(json_object_get(x, "callers"), cs);
		return 1;
	}
	return 0;
}

json_t *convert_plan(struct convert *c, json_t *impl)
{
	struct plan_ctx pc = { c, impl, { 0 }, NULL, NULL, NULL, NULL, false, false };
	const char *fn = jstr(impl, "function"), *file = jstr(impl, "file"), *cls = jstr(impl, "class");
	char *err = NULL, *mask = NULL, *text = NULL, *h = NULL, *ev = NULL;
	json_t *facts, *plan = NULL, *files = json_array(), *sites = json_array(), *s, *o, *refs;
	json_t *helpers = json_array();
	struct strvec seen = STRVEC_INIT, stop = STRVEC_INIT;
	bool is_static;
	size_t i, bs, be;

	if (strcmp(jstr(impl, "convertible"), "yes")) {
		err = xasprintf("not auto-convertible (%s)", jstr(impl, "convertible"));
		goto refused;
	}
	if (!json_is_true(json_object_get(impl, "compiled"))) {
		err = xstrdup("not compiled by the scan's configuration, so not build-tested here");
		goto refused;
	}
	text = cv_read_rel(c, file);
	if (!text) {
		err = xasprintf("cannot read '%s'", file);
		goto refused;
	}
	if (!cfacts_func_body(text, fn, &bs, &be)) {
		err = xasprintf("cannot find the body of %s()", fn);
		goto refused;
	}
	facts = cv_facts_of(c, file, &err);
	if (!facts || cv_frame_init(&pc.poll, facts, fn, &err) < 0)
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
			const char *what = json_is_string(u) ? json_string_value(u) : jstr(u, "what");
			const char *at = strstr(what, " at ");
			int ul = 0;

			if (!json_is_string(u)) {
				uf = xstrdup(jstr(u, "file"));
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
	refs = cv_refs_of(c, mask);
	json_array_foreach(refs, i, o) {
		char *t2 = cv_read_rel(c, json_string_value(o));
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
		if (is_static && strcmp(jstr(o, "file"), file)) {
			err = xasprintf("%s() is static but %s in %s uses it", fn, jstr(o, "var"), jstr(o, "file"));
			goto refused;
		}
		if (!sv_contains(&seen, jstr(o, "file")))
			sv_push(&seen, jstr(o, "file"));
	}
	if (!is_static)
		json_array_foreach(cv_refs_of(c, fn), i, o)
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
		if (!*jstr(hd, "via") && !cfacts_count_ident(text, bs, be, "poll_wait", false)) {
			err = xasprintf("no poll_wait() in the body of %s()", fn);
			goto refused;
		}
		h = poll_head(&pc, &err);
		if (!h)
			goto refused;
		cv_pd_locals(&pc.poll, &stop);
		pc.head_pd = cv_rootify(&pc.poll, h, &stop, &err);
		if (!pc.head_pd || set_b(&pc, &pc.poll, &stop, &pc.head_pd, &err) < 0)
			goto refused;
		pc.head_root = cv_rootify(&pc.poll, h, NULL, &err);
		if (!pc.head_root)
			goto refused;
		if (hx_contains_seq(pc.head_root, "$B")) {
			/* from a helper: $B is private_data with the helper's type */
			char *cast = xasprintf("( %s ) $PD", pc.btype), *t2 = hx_subst(pc.head_root, "$B", cast);

			free(cast);
			free(pc.head_root);
			pc.head_root = t2;
		}
		pc.uses_pd = hx_contains_seq(pc.head_root, "$PD");
		pc.static_head = cv_only_globals(&pc.poll, pc.head_root) && !hx_contains_seq(pc.head_root, "$");
		{
			struct strvec v = STRVEC_INIT;

			hx_vars(pc.head_root, &v);
			for (size_t k = 0; k < v.n; k++)
				if (v.v[k][0] != '$' && cv_is_param(&pc.poll, v.v[k], NULL)) {
					err = xasprintf("the head depends on the parameter %s", v.v[k]);
					sv_clear(&v);
					goto refused;
				}
			sv_clear(&v);
		}
		sv_clear(&seen);
		if (json_array_size(json_object_get(impl, "plan"))) {
			/* the scan says where: open:FN, wrap:FN, new-open, anon_inode_getfile:FN, ... */
			json_t *pe;

			json_array_foreach(json_object_get(impl, "plan"), i, pe) {
				const char *e = json_string_value(pe) ? json_string_value(pe) : "";
				const char *colon = strchr(e, ':');
				char *kind = colon ? xstrndup(e, (size_t)(colon - e)) : xstrdup(e);
				const char *where = colon ? colon + 1 : "";
				json_t *sp = NULL, *cs, *found = NULL;
				size_t k;

				if (sv_contains(&seen, e)) {
					free(kind);
					continue;
				}
				sv_push(&seen, e);
				if (!strcmp(kind, "new-open") || !strcmp(kind, "wrap")) {
					sp = new_open_plan(&pc, kind, *where ? where : NULL, &err);
				} else {
					json_array_foreach(json_object_get(impl, "creation_sites"), k, cs)
						if (!found && !strcmp(jstr(cs, "kind"), kind) && !strcmp(jstr(cs, "function"), where))
							found = cs;
					if (!found)
						err = xasprintf("the scan's plan %s names no creation site", e);
					else
						sp = site_plan(&pc, found, &err);
				}
				free(kind);
				if (!sp)
					goto refused;
				switch (same_site(sites, sp, &err)) {
				case 0:
					json_array_append_new(sites, sp);
					break;
				case 1:
					json_decref(sp);
					break;
				default:
					json_decref(sp);
					goto refused;
				}
			}
			/* every ->open() the scan found sets the head, itself or through its helper */
			json_array_foreach(json_object_get(impl, "creation_sites"), i, s) {
				const char *of = jstr(s, "function");
				json_t *x;
				size_t k;
				bool covered = false;

				if (strcmp(jstr(s, "kind"), "open"))
					continue;
				json_array_foreach(sites, k, x)
					covered = covered || !strcmp(jstr(x, "function"), of) ||
						  json_array_contains_str(json_object_get(x, "callers"), of) ||
						  !strcmp(jstr(json_object_get(x, "vars"), "oldopen"), of);
				if (!covered) {
					err = xasprintf("files opened by %s() would get no f_poll_head", of);
					goto refused;
				}
			}
		} else json_array_foreach(json_object_get(impl, "creation_sites"), i, s) {
			char *key = xasprintf("%s:%s", jstr(s, "file"), jstr(s, "function"));
			json_t *sp;

			if (!json_is_true(json_object_get(s, "settable"))) {
				free(key);
				if (open_path_kind(jstr(s, "kind")))
					continue;	/* the file is created through an ->open() */
				err = xasprintf("a file is created by %s in %s() where f_poll_head cannot be set",
						jstr(s, "kind"), jstr(s, "function"));
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
			json_t *s0 = json_array_get(json_object_get(impl, "creation_sites"), 0);

			err = s0 ? xasprintf("no ->open() of its own to set f_poll_head in (files come from %s in %s())",
					     jstr(s0, "kind"), jstr(s0, "function"))
				 : xstrdup("no creation site found");
			goto refused;
		}
	}
	{
		json_t *cl;

		json_array_foreach(json_object_get(pc.poll.facts, "calls"), i, cl) {
			json_t *a;
			size_t k;
			bool gets_pt = false;

			if (strcmp(jstr(cl, "func"), fn))
				continue;
			json_array_foreach(json_object_get(cl, "args"), k, a)
				gets_pt = gets_pt || !strcmp(json_string_value(a), pc.poll.ptparam);
			if (gets_pt && !json_array_contains_str(helpers, jstr(cl, "callee")))
				json_array_append_new(helpers, json_string(jstr(cl, "callee")));
		}
	}
	{
		char *hp = h ? hx_pretty(h) : xstrdup("");

		plan = json_pack("{s:b, s:s, s:s, s:I, s:s, s:s, s:s, s:b, s:O, s:O, s:s, s:O, s:s}", "ok", 1,
				 "function", fn, "file", file, "line", json_integer_value(json_object_get(impl, "line")),
				 "mask_fn", mask, "events", ev, "pt", pc.poll.ptparam, "static", is_static, "files",
				 files, "sites", sites, "head", hp, "null_helpers", helpers, "class", cls);
		free(hp);
		if (!strcmp(cls, "none")) {
			/* the functions that call it directly: poll_mask.cocci -D nohead rewrites those calls */
			json_t *callers = json_array(), *x, *cl;
			size_t fi, k;

			json_array_foreach(files, fi, x) {
				char *e = NULL;
				json_t *ff = cv_facts_of(pc.c, json_string_value(x), &e);

				free(e);
				json_array_foreach(ff ? json_object_get(ff, "fcalls") : NULL, k, cl)
					if (!strcmp(jstr(cl, "callee"), fn) && strcmp(jstr(cl, "func"), fn) &&
					    !json_array_contains_str(callers, jstr(cl, "func")))
						json_array_append_new(callers, json_string(jstr(cl, "func")));
			}
			if (json_array_size(callers))
				json_object_set(plan, "direct_callers", callers);
			json_decref(callers);
		}
	}
	goto out;
refused:
	plan = refuse(impl, err);
out:
	json_decref(files);
	json_decref(sites);
	json_decref(helpers);
	sv_clear(&seen);
	sv_clear(&stop);
	free(text);
	free(mask);
	free(ev);
	free(h);
	free(pc.head_pd);
	free(pc.head_root);
	free(pc.btype);
	free(pc.bname);
	return plan;
}

void convert_prefetch(struct convert *c, json_t *impls, int jobs)
{
	struct strvec files = STRVEC_INIT, names = STRVEC_INIT;
	json_t *x, *y;
	size_t i, k;

	/* the names a plan looks up: the function, its new name, new ->open() names */
	json_array_foreach(impls, i, x) {
		const char *fn = jstr(x, "function");
		char *m = mask_name(fn), *base = xstrdup(fn), *o1, *o2;
		size_t n = strlen(base);

		if (n > 5 && !strcmp(base + n - 5, "_poll"))
			base[n - 5] = '\0';
		o1 = xasprintf("%s_open", base);
		o2 = xasprintf("%s_open", fn);
		sv_push(&names, fn);
		sv_push(&names, m);
		sv_push(&names, o1);
		sv_push(&names, o2);
		free(m);
		free(base);
		free(o1);
		free(o2);
	}
	if (names.n)
		cv_refs_prefetch(c, &names);
	sv_clear(&names);

	json_array_foreach(impls, i, x) {
		if (!sv_contains(&files, jstr(x, "file")))
			sv_push(&files, jstr(x, "file"));
		json_array_foreach(json_object_get(x, "heads"), k, y)
			if (*jstr(y, "file") && !sv_contains(&files, jstr(y, "file")))
				sv_push(&files, jstr(y, "file"));
		json_array_foreach(json_object_get(x, "creation_sites"), k, y)
			if (json_is_true(json_object_get(y, "settable")) && *jstr(y, "file") &&
			    !sv_contains(&files, jstr(y, "file")))
				sv_push(&files, jstr(y, "file"));
	}
	sv_sort(&files);
	if (cfacts_prefetch(c->facts, c->root, &files, c->cocci_dir, jobs) < 0)
		warning("spatch failed reading the facts of %zu files; trying one by one", files.n);
	sv_clear(&files);
}

void convert_plan_files(json_t *plan, struct strvec *out)
{
	json_t *x;
	size_t i;

	json_array_foreach(json_object_get(plan, "files"), i, x)
		if (!sv_contains(out, json_string_value(x)))
			sv_push(out, json_string_value(x));
	json_array_foreach(json_object_get(plan, "sites"), i, x)
		if (!sv_contains(out, jstr(x, "file")))
			sv_push(out, jstr(x, "file"));
	sv_sort(out);
}

/* ", which foo_open() calls" / ", which foo_open() and bar_open() call": a helper of the ->open()s */
void convert_add_callers(struct strbuf *sb, json_t *callers)
{
	size_t n = json_array_size(callers), i;

	for (i = 0; i < n; i++)
		sb_addf(sb, "%s%s()", !i ? ", which " : i + 1 == n ? " and " : ", ",
			json_string_value(json_array_get(callers, i)));
	if (n)
		sb_adds(sb, n == 1 ? " calls" : " call");
}

char *convert_describe(json_t *plan)
{
	struct strbuf sb = STRBUF_INIT;
	json_t *s;
	size_t i;

	sb_addf(&sb, "%s()", jstr(plan, "function"));
	if (!json_array_size(json_object_get(plan, "sites"))) {
		sb_adds(&sb, ": no wait queue (f_poll_head stays NULL)");
		return sb_detach(&sb);
	}
	json_array_foreach(json_object_get(plan, "sites"), i, s) {
		const char *k = jstr(s, "kind");

		sb_addf(&sb, "%s %s, set in %s()", i ? ";" : ":", jstr(s, "head"), jstr(s, "function"));
		convert_add_callers(&sb, json_object_get(s, "callers"));
		if (!strcmp(k, "new-open") || !strcmp(k, "wrap"))
			sb_adds(&sb, " (a new ->open())");
		else if (strcmp(k, "open"))
			sb_addf(&sb, " (%s)", k);
	}
	return sb_detach(&sb);
}
