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
	c->refs_path = NULL;
	c->refs_looked = c->refs_new = false;
	c->review = false;
}

void convert_release(struct convert *c)
{
	cv_refs_detach(c);
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

/* poll_requested_events() in a helper that will be given NULL would see every event: 0, or -1 with *ERR. */
static int check_pt_uses(json_t *impl, const char *text, size_t bs, size_t be, char **err)
{
	const char *file = jstr(impl, "file");
	int l0 = cfacts_line_of(text, bs), l1 = cfacts_line_of(text, be);
	json_t *u;
	size_t i;

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
		*err = xasprintf("the poll_table is used by a helper (%.*s at %s:%d), which would be given NULL",
				 (int)(at ? (size_t)(at - what) : strlen(what)), what, uf ? uf : "?", ul);
		free(uf);
		return -1;
	}
	return 0;
}

/* Is the name MASK free: in no file of the tree (in no other file, when the function is static)? */
static int check_mask_free(struct convert *c, const char *file, const char *mask, bool is_static, char **err)
{
	json_t *o;
	size_t i;

	json_array_foreach(cv_refs_of(c, mask), i, o) {
		char *t2 = cv_read_rel(c, json_string_value(o));
		bool clash = t2 && cfacts_count_ident(t2, 0, strlen(t2), mask, false) &&
			     (!is_static || !strcmp(json_string_value(o), file));

		free(t2);
		if (clash) {
			*err = xasprintf("the name %s() is taken (%s)", mask, json_string_value(o));
			return -1;
		}
	}
	return 0;
}

/* Where the poll side is rewritten: the file, those of its ops, its callers' (not static), sorted into FILES. */
static int poll_side_files(struct convert *c, json_t *impl, bool is_static, json_t *files, char **err)
{
	const char *fn = jstr(impl, "function"), *file = jstr(impl, "file");
	struct strvec seen = STRVEC_INIT;
	json_t *o;
	size_t i;

	sv_push(&seen, file);
	json_array_foreach(json_object_get(impl, "ops"), i, o) {
		if (is_static && strcmp(jstr(o, "file"), file)) {
			*err = xasprintf("%s() is static but %s in %s uses it", fn, jstr(o, "var"), jstr(o, "file"));
			sv_clear(&seen);
			return -1;
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
	sv_clear(&seen);
	return 0;
}

/* The site of plan entry E (open:FN, wrap:FN, new-open, anon_inode_getfile:FN, ...); NULL with *ERR. */
static json_t *plan_entry_site(struct plan_ctx *pc, const char *e, char **err)
{
	const char *colon = strchr(e, ':');
	char *kind = colon ? xstrndup(e, (size_t)(colon - e)) : xstrdup(e);
	const char *where = colon ? colon + 1 : "";
	json_t *sp = NULL, *cs, *found = NULL;
	size_t k;

	if (!strcmp(kind, "new-open") || !strcmp(kind, "wrap")) {
		sp = new_open_plan(pc, kind, *where ? where : NULL, err);
	} else {
		json_array_foreach(json_object_get(pc->impl, "creation_sites"), k, cs)
			if (!found && !strcmp(jstr(cs, "kind"), kind) && !strcmp(jstr(cs, "function"), where))
				found = cs;
		if (!found)
			*err = xasprintf("the scan's plan %s names no creation site", e);
		else
			sp = site_plan(pc, found, err);
	}
	free(kind);
	return sp;
}

/* Every ->open() the scan found sets the head, itself or through its helper (one of SITES). */
static int check_opens_covered(struct plan_ctx *pc, json_t *sites, char **err)
{
	json_t *s;
	size_t i;

	json_array_foreach(json_object_get(pc->impl, "creation_sites"), i, s) {
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
			*err = xasprintf("files opened by %s() would get no f_poll_head", of);
			return -1;
		}
	}
	return 0;
}

/* The sites of the scan's plan, into SITES (the same site once). */
static int sites_of_scan_plan(struct plan_ctx *pc, json_t *sites, char **err)
{
	struct strvec seen = STRVEC_INIT;
	json_t *pe;
	size_t i;
	int rc = 0;

	json_array_foreach(json_object_get(pc->impl, "plan"), i, pe) {
		const char *e = json_string_value(pe) ? json_string_value(pe) : "";
		json_t *sp;

		if (sv_contains(&seen, e))
			continue;
		sv_push(&seen, e);
		sp = plan_entry_site(pc, e, err);
		if (!sp) {
			rc = -1;
			break;
		}
		switch (same_site(sites, sp, err)) {
		case 0:
			json_array_append_new(sites, sp);
			break;
		case 1:
			json_decref(sp);
			break;
		default:
			json_decref(sp);
			rc = -1;
		}
		if (rc)
			break;
	}
	sv_clear(&seen);
	return rc ? rc : check_opens_covered(pc, sites, err);
}

/* Without a plan from the scan: each settable creation site, into SITES. */
static int sites_of_creation(struct plan_ctx *pc, json_t *sites, char **err)
{
	struct strvec seen = STRVEC_INIT;
	json_t *s;
	size_t i;
	int rc = 0;

	json_array_foreach(json_object_get(pc->impl, "creation_sites"), i, s) {
		char *key = xasprintf("%s:%s", jstr(s, "file"), jstr(s, "function"));
		json_t *sp;

		if (!json_is_true(json_object_get(s, "settable"))) {
			free(key);
			if (open_path_kind(jstr(s, "kind")))
				continue;	/* the file is created through an ->open() */
			*err = xasprintf("a file is created by %s in %s() where f_poll_head cannot be set",
					 jstr(s, "kind"), jstr(s, "function"));
			rc = -1;
			break;
		}
		if (sv_contains(&seen, key)) {
			free(key);
			continue;
		}
		sv_push(&seen, key);
		free(key);
		sp = site_plan(pc, s, err);
		if (!sp) {
			rc = -1;
			break;
		}
		json_array_append_new(sites, sp);
	}
	sv_clear(&seen);
	return rc;
}

/* Where each creation site sets the head, into SITES: at least one. */
static int plan_sites(struct plan_ctx *pc, json_t *sites, char **err)
{
	json_t *impl = pc->impl;
	int rc = json_array_size(json_object_get(impl, "plan")) ? sites_of_scan_plan(pc, sites, err)
								 : sites_of_creation(pc, sites, err);

	if (rc < 0)
		return -1;
	if (!json_array_size(sites)) {
		json_t *s0 = json_array_get(json_object_get(impl, "creation_sites"), 0);

		*err = s0 ? xasprintf("no ->open() of its own to set f_poll_head in (files come from %s in %s())",
				      jstr(s0, "kind"), jstr(s0, "function"))
			  : xstrdup("no creation site found");
		return -1;
	}
	return 0;
}

/* The functions the poll function FN hands its poll_table to (they will be given NULL), into HELPERS. */
static void null_helpers(struct plan_ctx *pc, const char *fn, json_t *helpers)
{
	json_t *cl;
	size_t i;

	json_array_foreach(json_object_get(pc->poll.facts, "calls"), i, cl) {
		json_t *a;
		size_t k;
		bool gets_pt = false;

		if (strcmp(jstr(cl, "func"), fn))
			continue;
		json_array_foreach(json_object_get(cl, "args"), k, a)
			gets_pt = gets_pt || !strcmp(json_string_value(a), pc->poll.ptparam);
		if (gets_pt && !json_array_contains_str(helpers, jstr(cl, "callee")))
			json_array_append_new(helpers, json_string(jstr(cl, "callee")));
	}
}

/* The functions of FILES that call FN directly (poll_mask.cocci -D nohead rewrites those calls), in PLAN. */
static void direct_callers(struct plan_ctx *pc, json_t *files, const char *fn, json_t *plan)
{
	json_t *callers = json_array(), *x, *cl;
	size_t fi, k;

	json_array_foreach(files, fi, x) {
		char *e = NULL;
		json_t *ff = cv_facts_of(pc->c, json_string_value(x), &e);

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

json_t *convert_plan(struct convert *c, json_t *impl)
{
	struct plan_ctx pc = { c, impl, { 0 }, NULL, NULL, NULL, NULL, false, false };
	const char *fn = jstr(impl, "function"), *file = jstr(impl, "file"), *cls = jstr(impl, "class");
	char *err = NULL, *mask = NULL, *text = NULL, *h = NULL, *ev = NULL;
	json_t *facts, *plan = NULL, *files = json_array(), *sites = json_array();
	json_t *helpers = json_array();
	bool is_static;
	size_t bs, be;

	if (strcmp(jstr(impl, "convertible"), "yes") &&
	    !(c->review && !strcmp(jstr(impl, "convertible"), "review") && json_array_size(json_object_get(impl, "plan")))) {
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
	if (check_pt_uses(impl, text, bs, be, &err) < 0)
		goto refused;
	ev = xstrdup(cfacts_count_ident(text, bs, be, "events", false) ? "req_events" : "events");
	if (cfacts_count_ident(text, bs, be, ev, false)) {
		err = xasprintf("%s() already uses the names events and req_events", fn);
		goto refused;
	}
	mask = mask_name(fn);
	is_static = is_static_def(text, fn);
	if (check_mask_free(c, file, mask, is_static, &err) < 0 || poll_side_files(c, impl, is_static, files, &err) < 0)
		goto refused;

	/* the head and where each creation site sets it */
	if (strcmp(cls, "none") && (plan_head(&pc, text, bs, be, &h, &err) < 0 || plan_sites(&pc, sites, &err) < 0))
		goto refused;
	null_helpers(&pc, fn, helpers);
	{
		char *hp = h ? hx_pretty(h) : xstrdup("");

		plan = json_pack("{s:b, s:s, s:s, s:I, s:s, s:s, s:s, s:b, s:O, s:O, s:s, s:O, s:s}", "ok", 1,
				 "function", fn, "file", file, "line", json_integer_value(json_object_get(impl, "line")),
				 "mask_fn", mask, "events", ev, "pt", pc.poll.ptparam, "static", is_static, "files",
				 files, "sites", sites, "head", hp, "null_helpers", helpers, "class", cls);
		free(hp);
		if (!strcmp(cls, "none"))
			direct_callers(&pc, files, fn, plan);
	}
	goto out;
refused:
	plan = refuse(impl, err);
out:
	json_decref(files);
	json_decref(sites);
	json_decref(helpers);
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
		cv_refs_prefetch(c, &names, jobs);
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
