// SPDX-License-Identifier: GPL-2.0
/*
 * classify_decide.c - the class of one implementation (TAXONOMY.md, in
 * its order of precedence) and whether it is auto-convertible by the
 * safety rules of DESIGN.md (creation sites that can set f_poll_head).
 */
#define _GNU_SOURCE
#include "classify_int.h"

#include <stdlib.h>
#include <string.h>

static const char *base_name(json_t *base, struct fn_fact *fn, char *buf, size_t len)
{
	const char *k = jstr(base, "k");

	if (!strcmp(k, "param")) {
		int p = (int)json_integer_value(json_object_get(base, "param"));
		const char *first = jstr(base, "first");
		json_t *pa = json_array_get(json_object_get(fn->j, "params"), (size_t)p);

		if (p == (int)fn->file_param) {
			if (!strcmp(first, "private_data"))
				return "private_data";
			if (!strcmp(first, "f_inode") || !strcmp(first, "file_inode()") || !strcmp(first, "f_path"))
				return "inode";
			snprintf(buf, len, "file%s%s", first[0] ? ":" : "", first);
			return buf;
		}
		snprintf(buf, len, "param:%s", jstr(pa, "name"));
		return buf;
	}
	return k;
}

struct verdict {
	const char *cls;
	const char *conv;
	struct strbuf reason;
};

static void set_verdict(struct verdict *v, const char *cls, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void set_verdict(struct verdict *v, const char *cls, const char *fmt, ...)
{
	va_list ap;
	char *s;

	v->cls = cls;
	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	sb_reset(&v->reason);
	sb_adds(&v->reason, s);
	free(s);
}

static json_t *fn_errors(struct cx *c, struct fn_fact *fn)
{
	json_t *errs = fact_errors(c, fn->file), *e;
	size_t i;

	json_array_foreach(errs, i, e) {
		json_int_t l = json_integer_value(json_object_get(e, "line"));

		if (!strcmp(jstr(e, "file"), fn->file) && l >= fn->line && l <= fn->end_line)
			return e;
	}
	return NULL;
}

/* A base that is private_data itself (or container_of it), not a field read through it. */
static bool pd_itself(json_t *b)
{
	json_t *f;
	size_t i;

	json_array_foreach(json_object_get(b, "fields"), i, f)
		if (strcmp(json_string_value(f), "file.private_data"))
			return false;
	return true;
}

/* One decision under way: what decide() knows so far. */
struct dec {
	struct cx *c;
	struct impl *p;
	struct layer *layer;	/* NULL for file_operations.poll_mask */
	struct verdict v;
	json_t *r;		/* reach(), NULL when not reached */
	json_t *heads, *sites, *reassigned;	/* the output's lists */
	json_t *unseen;		/* why a file that can make files with the ops was not seen whole */
	json_t *distinct;	/* head key -> head: the heads by object */
	json_t *plan_out;	/* where the conversion sets f_poll_head */
	json_t *review;		/* single-cond: the facts a review rests on (review_facts()) */
	bool is_root, uncond, guard_fails;
	bool proven;		/* single-cond, and review_facts() proves the conversion safe */
	const char *base;
};

/* What comes after a step: the next one, the poll_table check, or the output. */
enum step { STEP_ON, STEP_PT_CHECK, STEP_DONE };

/* The ops records of D's implementation, as the output lists them; their creation sites meanwhile. */
static json_t *ops_out(struct dec *d)
{
	json_t *opsout = json_array();

	for (size_t i = 0; i < d->p->ops.n; i++) {
		struct ops_rec *o = d->p->ops.v[i];
		const char *via = o->macro[0] ? "macro" : o->assign || o->via_assignment ? "assignment" : "initializer";
		json_t *rec = json_pack("{s:s, s:s, s:s, s:O, s:s}", "var", o->assign ? o->lhs : o->var, "type",
					o->type, "file", o->file, "line", o->line, "via", via);

		if (o->macro[0])
			json_object_set_new(rec, "macro", json_string(o->macro));
		if (!o->assign && !strcmp(o->type, "file_operations")) {
			creation_sites(d->c, o, d->p->key, d->p->file, d->sites, d->reassigned);
			unseen_parts(d->c, o, d->unseen);
		}
		json_array_append_new(opsout, rec);
	}
	return opsout;
}

/* Verdicts that need no reach(): not file polling, converted, nothing or nothing sound to read. */
static enum step before_reach(struct dec *d)
{
	struct impl *p = d->p;
	json_t *e;

	if (d->layer && d->layer->not_poll) {
		set_verdict(&d->v, "not-poll", "%s.poll is not file polling: no file poll passes its poll_table "
			    "to it", d->layer->type);
		d->v.conv = "excluded";
		return STEP_DONE;
	}
	if (p->converted) {
		set_verdict(&d->v, "converted", "already converted: .poll_mask = %s", p->name);
		d->v.conv = "converted";
		return STEP_DONE;
	}
	if (!p->fn) {
		set_verdict(&d->v, "unknown", "the definition of %s() was not parsed", p->name);
		return STEP_DONE;
	}
	if (d->layer && d->layer->found_via && !strcmp(d->layer->found_via, "its function takes a poll_table")) {
		/* whether the unseen caller busy-polls or delegates is not known */
		set_verdict(&d->v, "unknown", "%s is a poll method (its function takes a poll_table), but no "
			    "file poll the scan saw calls it", p->layer);
		return STEP_DONE;
	}
	if ((e = fn_errors(d->c, p->fn))) {
		set_verdict(&d->v, "unknown", "libclang could not parse %s() (%s:%lld: %s)", p->name,
			    jstr(e, "file"), json_integer_value(json_object_get(e, "line")), jstr(e, "msg"));
		return STEP_DONE;
	}
	return STEP_ON;
}

/* The line a head of R is registered at, as seen from the implementation. */
static json_int_t head_site(json_t *h)
{
	return json_integer_value(json_object_get(h, json_object_get(h, "site") ? "site" : "line"));
}

/* The head H of D's implementation into the output's list, or the candidates of a head chosen at run time. */
static void list_head(struct dec *d, json_t *h, bool per_site)
{
	/* a head per site is reported as written at that site */
	json_t *alts = per_site ? NULL : json_object_get(json_object_get(h, "base"), "alts"), *a;
	char bbuf[128];
	size_t ai;

	/* a head chosen at run time: report each candidate */
	json_array_foreach(alts, ai, a)
		json_array_append_new(d->heads, json_pack("{s:s, s:s, s:s, s:s, s:s, s:O, s:b, s:s}",
							  "expr", json_string_value(a), "resolved",
							  json_string_value(a), "base", "dynamic", "via",
							  jstr(h, "via"), "file", jstr(h, "file"), "line",
							  json_object_get(h, "line"), "conditional", 1,
							  "chosen_by", jstr(h, "expr")));
	if (!json_array_size(alts))
		json_array_append_new(d->heads, json_pack("{s:s, s:s, s:s, s:s, s:s, s:O, s:b}", "expr",
							  jstr(h, "expr"), "resolved", jstr(h, "resolved"), "base",
							  base_name(json_object_get(h, "base"), d->p->fn, bbuf,
								    sizeof(bbuf)),
							  "via", jstr(h, "via"), "file", jstr(h, "file"), "line",
							  json_object_get(h, "line"), "conditional",
							  json_is_true(json_object_get(h, "cond"))));
}

/*
 * Heads are counted by object, not by text: the same text at two sites
 * over a local that is assigned different objects (q = &dev->in; ...;
 * q = &dev->out) is a head per registration site, reported as written
 */
static void count_heads(struct dec *d)
{
	json_t *sites_of_text = json_object(), *h;
	size_t i;

	json_array_foreach(json_object_get(d->r, "heads"), i, h) {
		json_t *hb0 = json_object_get(h, "base"), *st = json_object_get(sites_of_text, jstr(h, "norm"));
		char *sk = xasprintf("%lld", head_site(h));

		if (!strcmp(jstr(hb0, "k"), "dynamic") && json_object_get(hb0, "alts") &&
		    strstr(jstr(hb0, "why"), "assigned different objects")) {
			if (!st) {
				st = json_object();
				json_object_set_new(sites_of_text, jstr(h, "norm"), st);
			}
			json_object_set_new(st, sk, json_true());
		}
		free(sk);
	}
	json_array_foreach(json_object_get(d->r, "heads"), i, h) {
		bool per_site = json_object_size(json_object_get(sites_of_text, jstr(h, "norm"))) >= 2;
		char *dkey = per_site ? xasprintf("%s@%lld", jstr(h, "norm"), head_site(h)) : xstrdup(jstr(h, "norm"));

		if (json_is_true(json_object_get(h, "cond")))
			d->uncond = false;
		if (!json_object_get(d->distinct, dkey)) {
			json_object_set(d->distinct, dkey, h);
			list_head(d, h, per_site);
		} else if (!json_is_true(json_object_get(h, "cond"))) {
			json_object_set_new(json_array_get(d->heads, json_array_size(d->heads) - 1), "conditional",
					    json_false());
		}
		free(dkey);
	}
	json_decref(sites_of_text);
}

/* The classes reach() alone decides, in TAXONOMY.md's order: busy-poll, delegate, unknown, none, multi. */
static enum step by_reach(struct dec *d)
{
	json_t *r = d->r, *e, *busy = json_object_get(r, "busy");
	size_t i;

	if (json_array_size(busy) || (d->layer && d->layer->busy)) {
		if (json_array_size(busy))
			set_verdict(&d->v, "busy-poll", "socket poll that busy-polls (%s)",
				    json_string_value(json_array_get(busy, 0)));
		else
			set_verdict(&d->v, "busy-poll", "%s runs under %s(), which busy-polls", d->p->layer,
				    d->layer->caller ? d->layer->caller : "");
		return STEP_DONE;
	}
	if (json_array_size(json_object_get(r, "icalls"))) {
		json_t *ic = json_array_get(json_object_get(r, "icalls"), 0);

		if (jstr(ic, "type")[0])
			set_verdict(&d->v, "delegate", "forwards to %s (%s.%s)", jstr(ic, "expr"), jstr(ic, "type"),
				    jstr(ic, "member"));
		else
			set_verdict(&d->v, "delegate", "forwards its poll_table to %s", jstr(ic, "expr"));
		return STEP_DONE;
	}
	if (json_array_size(json_object_get(r, "unresolved"))) {
		json_t *u = json_array_get(json_object_get(r, "unresolved"), 0);

		if (jstr(u, "why")[0])
			set_verdict(&d->v, "unknown", "passes its poll_table to %s, %s", jstr(u, "callee"),
				    jstr(u, "why"));
		else
			set_verdict(&d->v, "unknown", "passes its poll_table to %s(), whose body was not parsed",
				    jstr(u, "callee"));
		return STEP_DONE;
	}
	json_array_foreach(json_object_get(r, "pt_uses"), i, e) {
		/*
		 * The table went where the analysis does not follow (stored,
		 * aliased, passed as another type): the queues registered there
		 * are not seen.  Two heads seen are already multi.
		 */
		if (json_object_size(d->distinct) >= 2 ||
		    (strcmp(jstr(e, "what"), "store") && strcmp(jstr(e, "what"), "escape")))
			continue;
		set_verdict(&d->v, "unknown", "the poll_table %s %s (%s:%lld): the queues registered through it "
			    "are not followed", !strcmp(jstr(e, "what"), "store") ? "is stored in" : "is passed to",
			    jstr(e, "into"), jstr(e, "file"), json_integer_value(json_object_get(e, "line")));
		return STEP_DONE;
	}
	if (json_object_size(d->distinct) == 0) {
		set_verdict(&d->v, "none", "no poll_wait() reachable: the mask is computed from state");
		d->v.conv = "yes";
		return STEP_PT_CHECK;
	}
	if (json_object_size(d->distinct) >= 2) {
		struct strbuf l = STRBUF_INIT;
		json_t *h;

		json_array_foreach(d->heads, i, h)
			sb_addf(&l, "%s%s", i ? ", " : "", jstr(h, "expr"));
		set_verdict(&d->v, "multi", "%zu wait queues: %s", json_object_size(d->distinct), l.buf);
		sb_release(&l);
		return STEP_DONE;
	}
	return STEP_ON;
}

/*
 * "if (!dev) return EPOLLERR;" before poll_wait(): no path skips the
 * registration when dev is private_data itself, every creation site sets
 * it and no method changes it.  Does every guard of D hold so?
 */
static bool guards_hold(struct dec *d)
{
	json_t *g, *s;
	size_t gi, si;
	bool all_set = json_array_size(d->sites) > 0;
	bool open_sets = false;

	/* a framework's open path ends in the driver's ->open */
	json_array_foreach(d->sites, si, s)
		open_sets |= !strcmp(jstr(s, "kind"), "open") &&
			     (json_is_true(json_object_get(s, "sets_private_data")) ||
			      !strcmp(jstr(s, "function"), "simple_open"));
	json_array_foreach(d->sites, si, s) {
		const char *sk = jstr(s, "kind");
		bool direct = in_list(file_returning, sk) || in_list(fd_returning, sk);

		all_set = all_set && (json_is_true(json_object_get(s, "sets_private_data")) ||
				      !strcmp(sk, "misc_open") || !strcmp(jstr(s, "function"), "simple_open") ||
				      (!direct && strcmp(sk, "open") && open_sets));
	}
	json_array_foreach(json_object_get(d->r, "guards"), gi, g) {
		json_t *gb = json_object_get(g, "base");

		if (!all_set || json_array_size(d->reassigned) > 0 || strcmp(jstr(gb, "k"), "param") ||
		    json_integer_value(json_object_get(gb, "param")) != d->p->fn->file_param ||
		    strcmp(jstr(gb, "first"), "private_data") || !pd_itself(gb))
			return false;
	}
	return true;
}

/* The first pointer member FIELDS read on the way to a global head (the queue itself left out), or NULL. */
static const char *read_through(json_t *fields)
{
	for (size_t i = 0; i + 1 < json_array_size(fields); i++) {
		const char *f = json_string_value(json_array_get(fields, i));

		if (f && strcmp(f, "file.private_data"))
			return f;
	}
	return NULL;
}

/* One head H (base HB, written HEXPR): is it fixed for the file's life?  single-dynamic or unknown if not. */
static enum step head_fixed(struct dec *d, json_t *h, json_t *hb, const char *hexpr)
{
	const char *bk = jstr(hb, "k"), *fk = NULL, *setter = NULL, *mk = NULL, *gap = NULL, *um = NULL, *uf = NULL;
	const char *pointer = NULL;
	enum fact changed;
	json_t *s;
	size_t si;

	if (!strcmp(bk, "dynamic")) {
		set_verdict(&d->v, "single-dynamic", "head %s is %s", hexpr, jstr(hb, "why"));
		return STEP_DONE;
	}
	if (!strcmp(bk, "task")) {
		set_verdict(&d->v, "single-dynamic", "head %s is a per-task queue (current), not the file's", hexpr);
		return STEP_DONE;
	}
	if (jstr(h, "field")[0] && fact_pollfree(d->c, jstr(h, "field"))) {
		set_verdict(&d->v, "single-dynamic", "head %s (%s) is freed with wake_up_pollfree(): its lifetime "
			    "is not the file's", hexpr, jstr(h, "field"));
		return STEP_DONE;
	}
	if (strcmp(bk, "global") && strcmp(bk, "param")) {
		set_verdict(&d->v, "unknown", "cannot tell what head %s is derived from (%s)", hexpr, jstr(hb, "why"));
		return STEP_DONE;
	}
	/* a pointer or selector the head is read through, written by a method after open */
	changed = changed_after_open(d->c, d->p, json_object_get(hb, "fields"), true, &fk, &setter, &mk, &gap);
	if (changed == FACT_YES) {
		set_verdict(&d->v, "single-dynamic", "head %s is read through %s, which %s() (->%s) changes "
			    "after open", hexpr, fk, setter, mk);
		return STEP_DONE;
	}
	if (!strcmp(d->base, "private_data")) {
		json_array_foreach(d->sites, si, s)
			if (json_is_true(json_object_get(s, "private_data_null"))) {
				set_verdict(&d->v, "single-dynamic", "head %s hangs off private_data, which %s() "
					    "leaves NULL at open: it is set later", hexpr, jstr(s, "function"));
				return STEP_DONE;
			}
	}
	if (!strcmp(d->base, "private_data") && json_array_size(d->reassigned)) {
		json_t *ra = json_array_get(d->reassigned, 0);

		set_verdict(&d->v, "single-dynamic", "head %s hangs off private_data, which %s() (->%s) reassigns "
			    "after open", hexpr, jstr(ra, "function"), jstr(ra, "member"));
		return STEP_DONE;
	}
	/*
	 * a method whose body was not seen may change what the head hangs
	 * off: the file's object, or a pointer a global head is read through
	 * (it could write that pointer itself, with no setter the facts show)
	 */
	if (!strcmp(bk, "param") || (pointer = read_through(json_object_get(hb, "fields")))) {
		enum fact seen = methods_seen(d->c, d->p, &um, &uf);
		char *what = pointer ? xasprintf("read through %s", pointer) : xstrdup("derived from the file");

		if (seen == FACT_NO)
			set_verdict(&d->v, "unknown", "head %s is %s, but the body of ->%s %s() was not seen: it "
				    "could change the head after open", hexpr, what, um, uf);
		else if (seen == FACT_UNSEEN)
			set_verdict(&d->v, "unknown", "head %s is %s, but the calls of ->%s go deeper than the "
				    "analysis follows (at %s()): they could change the head after open", hexpr, what,
				    um, uf);
		free(what);
		if (seen != FACT_YES)
			return STEP_DONE;
	}
	/* a field the head is read through, and a method that may write it: not proven fixed */
	if (changed == FACT_UNSEEN) {
		set_verdict(&d->v, "unknown", "head %s is read through %s, which %s() writes: whether ->%s runs it "
			    "after open is not known (the analysis does not see past %s())", hexpr, fk, setter, mk, gap);
		return STEP_DONE;
	}
	return STEP_ON;
}

/*
 * A mask a poll that skips the registration may hand back for good: only
 * EPOLL and POLL constants, one of them an error, a hang-up or an invalid
 * file.  "0" or a mask computed from state is "not ready" (a later poll
 * would wait) and is not final.
 */
static bool final_mask(const char *v)
{
	static const char *const finals[] = { "EPOLLERR", "EPOLLHUP", "EPOLLNVAL", "POLLERR", "POLLHUP", "POLLNVAL",
					      NULL };
	bool final = false;
	const char *p = v;

	while (*p) {
		size_t n;

		if (strchr(" \t\n()|", *p)) {
			p++;
			continue;
		}
		n = strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_");
		if (n == 0 || (p[n] && !strchr(" \t\n()|", p[n])))
			return false;
		if (strncmp(p, "EPOLL", 5) && strncmp(p, "POLL", 4))
			return false;
		for (size_t i = 0; finals[i]; i++)
			final |= strlen(finals[i]) == n && !strncmp(p, finals[i], n);
		p += n;
	}
	return final;
}

/* A creation site whose function makes the file itself: ->open, or a call that returns the file or its fd (not a registration: misc, cdev). */
static bool makes_file(const char *kind)
{
	return !strcmp(kind, "open") || in_list(file_returning, kind) || in_list(fd_returning, kind);
}

/* Does struct S live inside struct T (held by value, at any depth) of the file's LIFE facts? */
static bool holds(json_t *structs, const char *t, const char *s, int depth)
{
	json_t *e;
	size_t i;

	if (depth > 8)
		return true;	/* too deep to tell: count it as holding */
	json_array_foreach(json_object_get(structs, t), i, e)
		if (!strcmp(json_string_value(e), s) || holds(structs, json_string_value(e), s, depth + 1))
			return true;
	return false;
}

/*
 * The lifetime half of the guard proof: the object holding the head, of
 * struct S (the head's field key), lives as long as the file.  Proven
 * when S is a struct only this file can name (defined in it: another
 * file can neither free one by its type nor hold one inside its own
 * objects), the file allocates nothing through devres (freed on unbind
 * by no call), an S (or a struct holding one) is allocated in the file,
 * only where the file is made, and every free in the file of an S, of a struct holding
 * one, or of a void * is made from ->release() of the implementation's
 * file_operations, from a function that makes the file (on its error
 * paths, before the file exists), or from a static function only those
 * call (never used as a value: a callback is called from anywhere).
 * Else false, with *WHY the fact that is missing.
 */
static bool lifetime_proven(struct dec *d, const char *field, char **why)
{
	const char *file = d->p->fn->file, *dot = strrchr(field, '.');
	json_t *life = fact_life(d->c, file), *structs = json_object_get(life, "structs");
	json_t *allowed = json_object(), *e, *addr = json_object_get(life, "addr_taken");
	char *s = dot ? xstrndup(field, (size_t)(dot - field)) : xstrdup("");
	bool grew = true, ok = false;
	const char *k;
	size_t i;

	*why = NULL;
	if (!life) {
		*why = xasprintf("the frees of %s's object (%s has no lifetime facts)", field, file);
		goto out;
	}
	if (!*s || !json_object_get(structs, s)) {
		*why = xasprintf("struct %s, which holds the queue, is not defined in %s: files that polltax does "
				 "not read can free one", *s ? s : field, file);
		goto out;
	}
	if (json_is_true(json_object_get(life, "devm"))) {
		*why = xasprintf("%s allocates through devres (devm_*): an object freed on unbind, while a file "
				 "may be open, is not excluded", file);
		goto out;
	}
	for (size_t r = 0; r < d->p->ops.n; r++) {
		struct ops_rec *o = d->p->ops.v[r];
		struct member *m = o->assign ? NULL : member_named(o, "release");

		if (m)
			json_object_set_new(allowed, m->function, json_string("->release()"));
	}
	json_array_foreach(d->sites, i, e)
		if (makes_file(jstr(e, "kind")) && !strcmp(jstr(e, "file"), file))
			json_object_set_new(allowed, jstr(e, "function"), json_string("where the file is made"));
	while (grew) {
		grew = false;
		json_object_foreach(json_object_get(life, "callers"), k, e) {
			json_t *c;
			size_t j;
			bool all = json_array_size(e) > 0 && !json_array_contains_str(addr, k);

			if (json_object_get(allowed, k))
				continue;
			json_array_foreach(e, j, c)
				all = all && json_object_get(allowed, json_string_value(c));
			if (all) {
				json_object_set_new(allowed, k, json_string("called only from those"));
				grew = true;
			}
		}
	}
	/* made where the file is made: the object is the file's, not the device's (seen, not assumed) */
	{
		bool made = false;

		json_array_foreach(json_object_get(life, "allocs"), i, e) {
			const char *t = jstr(e, "type"), *in = jstr(e, "in");

			if (strcmp(t, s) && !holds(structs, t, s, 0))
				continue;
			if (!*in || !json_object_get(allowed, in)) {
				*why = xasprintf("struct %s is allocated in %s() (%s:%lld), not where the file is made",
						 s, *in ? in : "an initializer", file,
						 json_integer_value(json_object_get(e, "line")));
				goto out;
			}
			made = true;
		}
		if (!made) {
			*why = xasprintf("no allocation of struct %s is seen in %s, where the file is made", s, file);
			goto out;
		}
	}
	json_array_foreach(json_object_get(life, "frees"), i, e) {
		const char *t = jstr(e, "type"), *in = jstr(e, "in");

		if (strcmp(t, s) && *t && !holds(structs, t, s, 0))
			continue;
		if (*in && json_object_get(allowed, in))
			continue;
		*why = xasprintf("%s is freed in %s%s (%s:%lld), which is neither ->release() nor where the file "
				 "is made", !*t ? "a void *, which may be the object," : !strcmp(t, s) ? "the object" :
				 "the struct holding it", *in ? in : "an initializer", *in ? "()" : "", file,
				 json_integer_value(json_object_get(e, "line")));
		goto out;
	}
	ok = true;
out:
	json_decref(allowed);
	free(s);
	return ok;
}

/*
 * The facts a review of a single-cond conversion rests on, into D->review
 * (polltax.json "review"): each path that returns before registering the
 * head (early_at, and the NULL tests that do not hold), whether it hands
 * back a final mask, and the facts that are not proven.  A conversion
 * registers the head on those paths too (vfs_poll() does it before
 * ->poll_mask()): that is safe only if the path's answer is final and the
 * head's object is still there (a static one, or lifetime_proven()).
 * D->proven when nothing is missing; else single-cond stays review.
 */
static void review_facts(struct dec *d, const char *hexpr)
{
	json_t *skips = json_array(), *missing = json_array(), *e;
	const char *const lists[] = { "early_at", "guards" };
	char *proof = NULL;
	bool all_final = true;
	size_t i;

	for (int l = 0; l < 2; l++) {
		if (l == 1 && !d->guard_fails)
			break;
		json_array_foreach(json_object_get(d->r, lists[l]), i, e) {
			bool f = final_mask(jstr(e, "value"));

			all_final &= f;
			json_array_append_new(skips, json_pack("{s:s, s:O, s:s, s:b}", "file", jstr(e, "file"), "line",
							       json_object_get(e, "line"), "value",
							       jstr(e, "value")[0] ? jstr(e, "value") : "(nothing)",
							       "final", f));
		}
	}
	if (!json_array_size(skips))
		json_array_append_new(missing, json_sprintf("registering %s on every call, not only under the "
							    "condition, changes no answer", hexpr));
	else if (!all_final)
		json_array_append_new(missing, json_sprintf("registering %s where the answer is not final "
							    "(neither an error nor a hang-up) changes no answer",
							    hexpr));
	/*
	 * A static object is never freed while code that polls it can run
	 * (a module's with the module, which the file's ->owner holds);
	 * another, when lifetime_proven() says so.
	 */
	{
		json_t *h0 = json_array_get(json_object_get(d->r, "heads"), 0);
		const char *field = jstr(h0, "field");
		char *why = NULL;

		if (!strcmp(jstr(json_object_get(h0, "base"), "k"), "global")) {
			proof = xstrdup("the queue is a static object, never freed while the file can be polled");
		} else if (*field && lifetime_proven(d, field, &why)) {
			proof = xasprintf("the queue is in a struct %.*s, which only %s can name and which it frees "
					  "only from ->release() or where the file is made",
					  (int)(strrchr(field, '.') - field), field, d->p->fn->file);
		} else {
			json_array_append_new(missing, json_sprintf("the object holding %s lives as long as the file "
								    "(freed only from ->release() or through a "
								    "reference the file holds)%s%s", hexpr,
								    why ? ": " : "", why ? why : ""));
		}
		free(why);
	}
	d->review = json_pack("{s:o, s:o}", "skips", skips, "missing", missing);
	if (proof && !json_array_size(missing))
		json_object_set_new(d->review, "proof", json_string(proof));
	d->proven = json_array_size(missing) == 0;
	free(proof);
}

/* One head: single-dynamic, unknown, single-cond, or single-static / single-private. */
static enum step single_head(struct dec *d)
{
	json_t *h = json_array_get(json_object_get(d->r, "heads"), 0);
	json_t *hb = json_object_get(h, "base");
	const char *hexpr = jstr(h, "expr");

	d->base = jstr(json_array_get(d->heads, 0), "base");
	if (head_fixed(d, h, hb, hexpr) == STEP_DONE)
		return STEP_DONE;
	if (d->uncond && json_array_size(json_object_get(d->r, "guards")) && !guards_hold(d)) {
		d->uncond = false;
		d->guard_fails = true;
	}
	if (!d->uncond) {
		if ((d->guard_fails || json_is_true(json_object_get(d->r, "early"))) && !jstr(h, "via")[0])
			set_verdict(&d->v, "single-cond", "one head (%s), but a path returns before registering it",
				    hexpr);
		else
			set_verdict(&d->v, "single-cond", "one head (%s), registered only under a condition", hexpr);
		d->v.conv = "review";
		if (!d->is_root)
			return STEP_DONE;
		review_facts(d, hexpr);
		if (!d->proven) {
			json_t *m;
			size_t i;

			json_array_foreach(json_object_get(d->review, "missing"), i, m)
				sb_addf(&d->v.reason, "%s%s", i ? "; " : "; not proven: ", json_string_value(m));
			return STEP_DONE;
		}
		sb_addf(&d->v.reason, "; safe to convert all the same: %s, and every path that skips it returns a "
			"final mask", jstr(d->review, "proof"));
		return STEP_ON;
	}
	if (!strcmp(jstr(hb, "k"), "global"))
		set_verdict(&d->v, "single-static", "one head, the global %s, registered unconditionally",
			    jstr(hb, "name"));
	else
		set_verdict(&d->v, "single-private", "one head, %s, derived from %s, registered unconditionally",
			    hexpr, d->base);
	return STEP_ON;
}

/*
 * No creation site of D is seen to store the object in private_data:
 * none does (NO), or an open hands the file to a function whose body was
 * not seen (UNSEEN, named: the fact that is missing).
 */
static void pd_not_seen(struct dec *d)
{
	json_t *s;
	size_t i;

	json_array_foreach(d->sites, i, s) {
		const char *gap = NULL;

		if (strcmp(jstr(s, "kind"), "open") ||
		    open_sets_private_data(d->c, jstr(s, "file"), jstr(s, "function"), &gap) != FACT_UNSEEN)
			continue;
		sb_addf(&d->v.reason, "; whether %s() sets private_data is not known: the analysis does not see "
			"past %s()", jstr(s, "function"), gap);
		return;
	}
	sb_adds(&d->v.reason, "; no creation site sets private_data");
}

/*
 * Auto-convertible? the safety rules of DESIGN.md.  Files are created
 * either directly (anon_inode_getfile() and friends: ->open is never
 * called, the returned file can be set up) or through an open path (misc,
 * cdev, chrdev, debugfs, a framework registration): those need an ->open
 * of the driver's own to set f_poll_head.
 */
static void convertible(struct dec *d)
{
	bool direct = false, open_path = false, own_open = false, pd_known = false;
	bool blocked = false;
	const char *why = NULL, *shared_open = NULL, *unproven = NULL;
	char *why_own = NULL;
	json_t *s, *plan = json_array();
	size_t i;

	json_array_foreach(d->sites, i, s) {
		const char *k = jstr(s, "kind");
		bool settable = json_is_true(json_object_get(s, "settable"));

		/*
		 * anon_inode_getfd() installs the file before it returns:
		 * anon_inode_getfd_poll() takes the head instead, which
		 * must then come from the private data it is given (or be
		 * a global), as nothing else of the file is at hand.  The
		 * same for anon_inode_create_getfd() and
		 * anon_inode_create_getfd_poll().
		 */
		if (in_list(fd_returning, k) && (!strcmp(d->base, "private_data") || !strcmp(d->base, "global"))) {
			settable = true;
			json_object_set_new(s, "settable", json_true());
		}

		if (json_object_get(s, "unproven")) {
			/* a way files are made with the ops that the analysis cannot follow (classify_sites.c) */
			if (!unproven)
				unproven = jstr(s, "unproven");
			continue;
		}
		if (!strcmp(k, "open")) {
			if (settable) {
				own_open = true;
				push_unique(plan, json_sprintf("open:%s", jstr(s, "function")));
			} else {
				shared_open = jstr(s, "function");
			}
			pd_known |= json_is_true(json_object_get(s, "sets_private_data"));
			/* simple_open() sets private_data from the inode's i_private */
			pd_known |= !strcmp(jstr(s, "function"), "simple_open");
			continue;
		}
		if (settable) {
			direct = true;
			pd_known |= json_is_true(json_object_get(s, "sets_private_data"));
			push_unique(plan, json_sprintf("%s:%s", k, jstr(s, "function")));
		} else if (!strcmp(k, "anon_inode_getfd")) {
			blocked = true;
			why = "a file is created by anon_inode_getfd(), which does not return it, and the "
			      "head is not derived from the private data it is given";
		} else if (!strcmp(k, "anon_inode_create_getfd")) {
			blocked = true;
			why = "a file is created by anon_inode_create_getfd(), which does not return it, "
			      "and the head is not derived from the private data it is given";
		} else {
			open_path = true;
			if (!strcmp(k, "misc_open"))
				pd_known = true;
		}
	}
	/*
	 * Files made through an open path reach ->open: the driver's own
	 * sets f_poll_head; a shared one (simple_open) is wrapped; a
	 * framework open with no ->open at all gets a small one added.
	 */
	if ((open_path || shared_open) && !own_open) {
		if (shared_open)
			json_array_append_new(plan, json_sprintf("wrap:%s", shared_open));
		else
			json_array_append_new(plan, json_string("new-open"));
	} else if (!direct && !own_open && !blocked) {
		blocked = true;
		why = why_own = no_site_why(d->c, d->p);
		if (!why)
			why = "no creation site found";
	}
	if (!unproven && json_array_size(d->unseen))
		unproven = json_string_value(json_array_get(d->unseen, 0));
	if (unproven) {
		blocked = true;
		why = unproven;
	}
	if (blocked) {
		d->v.conv = "needs-open";
		sb_addf(&d->v.reason, "; %s", why);
	} else if (!strcmp(d->base, "private_data") && !pd_known) {
		d->v.conv = "needs-open";
		pd_not_seen(d);
	} else {
		d->v.conv = "yes";
		d->plan_out = json_incref(plan);
	}
	free(why_own);
	json_decref(plan);
}

/* The first use of the poll_table beyond poll_wait() (poll_requested_events() aside), or NULL. */
static json_t *pt_used_beyond(struct dec *d)
{
	json_t *u;
	size_t i;

	json_array_foreach(json_object_get(d->r, "pt_uses"), i, u)
		if (strcmp(jstr(u, "what"), "poll_requested_events"))
			return u;
	return NULL;
}

/*
 * The plan of a single-cond conversion, for "polltax series --review":
 * where it would set f_poll_head, as for a yes (convertible()), without
 * making it one.  None when the open path is not known, or when the
 * poll_table is used beyond poll_wait() (the conversion would drop it).
 */
static void review_plan(struct dec *d)
{
	size_t len = d->v.reason.len;
	char *fact = NULL;

	if (pt_used_beyond(d))
		return;
	convertible(d);
	if (strcmp(d->v.conv, "yes")) {
		/* the open path's missing fact joins the review's, and the reason */
		fact = xasprintf("an open path that can set f_poll_head (%s)", d->v.reason.buf + len + 2);
		json_array_append_new(json_object_get(d->review, "missing"), json_string(fact));
		json_decref(d->plan_out);
		d->plan_out = NULL;
	}
	d->v.reason.len = len;
	d->v.reason.buf[len] = 0;
	if (fact)
		sb_addf(&d->v.reason, "; %s", fact);
	free(fact);
	d->v.conv = "review";
}

/* A poll_table used beyond poll_wait() makes a conversion a review; a lower layer converts nothing. */
static void pt_check(struct dec *d)
{
	json_t *u = pt_used_beyond(d);

	if (u && (!strcmp(d->v.conv, "yes") || !strcmp(d->v.conv, "needs-open"))) {
		d->v.conv = "review";
		sb_addf(&d->v.reason, "; the poll_table is also used (%s at %s:%lld)",
			!strcmp(jstr(u, "what"), "other") ? "beyond poll_wait" : jstr(u, "what"), jstr(u, "file"),
			json_integer_value(json_object_get(u, "line")));
	}
	if (!d->is_root) {
		/* a lower layer has no ->poll_mask to convert to */
		d->v.conv = "no";
		if (strcmp(d->v.cls, "unknown"))
			sb_addf(&d->v.reason, "; lower layer %s: converted only through the file_operations above it",
				d->p->layer);
	}
}

/* "drivers/char" of "drivers/char/mem.c", allocated. */
static char *subsystem_of(const char *f)
{
	const char *s1 = strchr(f, '/');
	const char *s2 = s1 ? strchr(s1 + 1, '/') : NULL;

	return s2 ? xstrndup(f, (size_t)(s2 - f)) : s1 ? xstrndup(f, (size_t)(s1 - f)) : xstrdup(".");
}

/* D's verdict into OUT, the implementation's record of polltax.json. */
static void write_out(struct dec *d, json_t *out, json_t *opsout, json_t *cocci_rec)
{
	struct impl *p = d->p;
	json_t *busy = json_array(), *dele = json_array(), *ptu = json_array(), *x;
	char *sub = subsystem_of(p->file);
	size_t i;

	json_array_foreach(json_object_get(d->r, "busy"), i, x)
		json_array_append(busy, x);
	json_array_foreach(json_object_get(d->r, "icalls"), i, x)
		json_array_append_new(dele, json_sprintf("%s (%s.%s)", jstr(x, "expr"), jstr(x, "type"),
							 jstr(x, "member")));
	json_array_foreach(json_object_get(d->r, "pt_uses"), i, x)
		json_array_append_new(ptu, json_sprintf("%s at %s:%lld", jstr(x, "what"), jstr(x, "file"),
							json_integer_value(json_object_get(x, "line"))));
	json_object_set_new(out, "function", json_string(p->name));
	json_object_set_new(out, "file", json_string(p->fn ? p->fn->file : p->file));
	{
		struct def_fact *def = p->fn ? NULL : fact_def(d->c, p->file, p->name);

		json_object_set_new(out, "line", json_integer(p->fn ? p->fn->line : def ? def->line : 0));
	}
	json_object_set_new(out, "layer", json_string(p->layer));
	json_object_set_new(out, "class", json_string(d->v.cls));
	json_object_set_new(out, "convertible", json_string(d->v.conv));
	json_object_set_new(out, "reason", json_string(d->v.reason.buf ? d->v.reason.buf : ""));
	json_object_set_new(out, "heads", d->heads);
	json_object_set_new(out, "base", json_string(d->base));
	json_object_set_new(out, "unconditional", json_boolean(d->uncond));
	json_object_set_new(out, "busy_poll", busy);
	json_object_set_new(out, "delegates", dele);
	json_object_set_new(out, "pt_uses", ptu);
	json_object_set_new(out, "ops", opsout);
	json_object_set_new(out, "creation_sites", d->sites);
	json_object_set_new(out, "private_data_reassigned", d->reassigned);
	json_object_set_new(out, "compiled", json_true());
	json_object_set_new(out, "subsystem", json_string(sub));
	json_object_set_new(out, "cocci", cocci_rec ? json_incref(cocci_rec) : json_null());
	json_object_set_new(out, "plan", d->plan_out ? d->plan_out : json_array());
	if (d->review)
		json_object_set_new(out, "review", d->review);
	free(sub);
}

void decide(struct cx *c, struct impl *p, json_t *out, json_t *cocci_rec)
{
	struct dec d = { .c = c, .p = p, .layer = layer_get(c, p->layer), .v = { "unknown", "no", STRBUF_INIT } };
	json_t *opsout;
	enum step next;

	d.heads = json_array();
	d.sites = json_array();
	d.reassigned = json_array();
	d.unseen = json_array();
	d.distinct = json_object();
	d.is_root = !strcmp(p->layer, "file_operations.poll") || p->converted;
	d.uncond = true;
	d.base = "";
	opsout = ops_out(&d);
	next = before_reach(&d);
	if (next == STEP_ON) {
		d.r = reach(c, p->key, p->fn);
		count_heads(&d);
		next = by_reach(&d);
	}
	if (next == STEP_ON) {
		next = single_head(&d);
		if (d.review && !d.proven)
			review_plan(&d);
	}
	if (next == STEP_ON) {
		if (d.is_root)
			convertible(&d);
		else
			d.v.conv = "no";
		next = STEP_PT_CHECK;
	}
	if (next == STEP_PT_CHECK)
		pt_check(&d);
	if (!d.is_root && !strcmp(d.v.conv, "review"))
		d.v.conv = "no";	/* a lower layer has no ->poll_mask: nothing to review there */
	write_out(&d, out, opsout, cocci_rec);
	json_decref(d.distinct);
	json_decref(d.unseen);
	sb_release(&d.v.reason);
}
