// SPDX-License-Identifier: GPL-2.0
/*
 * classify.c - from facts to classes (TAXONOMY.md, all of it).
 *
 * 1. Facts: classify_facts.c loads every file's facts once into typed
 *    records (classify_int.h) and indexes them: function summaries by key
 *    (static: "file:name", else "name"), ops initializers and run-time
 *    assignments, creation-site references, private_data assignments,
 *    queues freed with wake_up_pollfree().
 * 2. reach(): what a function registers once helpers are followed: the
 *    heads (with the helper's parameters replaced by the caller's arguments,
 *    both in the text and in the derivation), the indirect calls that take
 *    the poll_table (lower layers), busy-poll evidence, other uses of the
 *    poll_table, whether a return or goto can skip the registration.
 * 3. Layers: start from file_operations.poll and follow every indirect call
 *    that an implementation passes its poll_table to (sock->ops->poll makes
 *    proto_ops.poll a layer, vdev->fops->poll v4l2_file_operations.poll,
 *    ...).  A member named poll of any other struct is not file polling.
 * 4. Class per implementation, then whether it is auto-convertible by the
 *    safety rules of DESIGN.md (creation sites that can set f_poll_head).
 */
#define _GNU_SOURCE
#include "classify_int.h"

#include <stdlib.h>
#include <string.h>

/* Where a function named by an ops member is defined: its own file, or the extern definition. */
static const char *def_file_of(struct cx *c, const struct member *m, const char *recfile)
{
	const char *f = m->file[0] ? m->file : recfile;

	if (!fact_def(c, f, m->function) && !m->st && fact_def_file(c, m->function))
		return fact_def_file(c, m->function);
	return f;
}

/* ---- reach ------------------------------------------------------------------ */

static bool ident_char(char ch)
{
	return ch == '_' || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
}

/* Replace the helper's parameter names in EXPR by the caller's argument texts. */
static char *subst(const char *expr, json_t *params, json_t *args)
{
	struct strbuf sb = STRBUF_INIT;

	for (const char *p = expr; *p;) {
		if (ident_char(*p) && !(*p >= '0' && *p <= '9')) {
			const char *e = p;
			bool member = false;
			size_t i;
			json_t *pa;

			while (ident_char(*e))
				e++;
			for (const char *b = p; b > expr;) {
				b--;
				if (*b == ' ')
					continue;
				member = *b == '.' || (*b == '>' && b > expr && b[-1] == '-');
				break;
			}
			bool done = false;

			if (!member) {
				json_array_foreach(params, i, pa) {
					const char *pn = str(pa, "name");

					if (strlen(pn) == (size_t)(e - p) && !strncmp(pn, p, (size_t)(e - p)) &&
					    i < json_array_size(args)) {
						const char *at = str(json_array_get(args, i), "text");
						bool simple = true;

						for (const char *q = at[0] == '&' ? at + 1 : at; *q; q++)
							simple = simple && (ident_char(*q) || *q == '.' ||
									    *q == '-' || *q == '>');
						if (simple && at[0] == '&' && !strncmp(e, "->", 2)) {
							/* q = &x->queue; &q->done_wq reads &x->queue.done_wq */
							sb_addf(&sb, "%s.", at + 1);
							e += 2;
						} else if (simple && at[0] != '&') {
							sb_adds(&sb, at);
						} else {
							sb_addf(&sb, "(%s)", at);
						}
						done = true;
						break;
					}
				}
			}
			if (!done)
				sb_add(&sb, p, (size_t)(e - p));
			p = e;
		} else {
			sb_addc(&sb, *p++);
		}
	}
	return sb_detach(&sb);
}

static char *norm(const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	for (; *s; s++)
		if (*s != ' ')
			sb_addc(&sb, *s);
	return sb_detach(&sb);
}

/*
 * A base made by a call whose body its file did not have ("k": "call",
 * extract.c): what the callee returns, from the "returns" fact of the file
 * that defines it.  A callee defined nowhere in the tree (a binary object,
 * another module) says nothing about the head: unknown, never a guess.
 */
static json_t *resolve_base(struct cx *c, json_t *b, int depth)
{
	const char *callee = str(b, "callee");
	json_t *r, *rr, *o;

	if (strcmp(str(b, "k"), "call"))
		return json_incref(b);
	r = fact_returns(c, callee);
	if (!r) {
		if (fact_def_file(c, callee))
			return json_pack("{s:s, s:s+}", "k", "unknown", "why", callee,
					 "() returns no pointer the analysis can follow");
		return json_pack("{s:s, s:s+}", "k", "unknown", "why", callee,
				 "() is only declared: its body was not seen");
	}
	if (depth > 8)
		return json_pack("{s:s, s:s}", "k", "unknown", "why", "calls nested too deep");
	rr = resolve_base(c, r, depth + 1);
	if (!strcmp(str(rr, "k"), "param")) {
		json_decref(rr);
		if (!json_is_true(json_object_get(b, "acc")) || json_is_true(json_object_get(b, "global_arg")))
			return json_pack("{s:s, s:s}", "k", "dynamic", "why",
					 str(b, "why")[0] ? str(b, "why") : "looked up from several objects");
		o = json_pack("{s:s, s:O, s:s}", "k", "param", "param", json_object_get(b, "param"), "first",
			      str(b, "first"));
		if (json_object_get(b, "fields"))
			json_object_set(o, "fields", json_object_get(b, "fields"));
		return o;
	}
	return rr;
}

static json_t *compose(struct cx *c, json_t *hb0, json_t *args)
{
	json_t *ab, *hb = hb0, *res;

	if (strcmp(str(hb, "k"), "param"))
		return json_incref(hb);
	ab = json_object_get(json_array_get(args, (size_t)json_integer_value(json_object_get(hb, "param"))),
			     "base");
	if (!ab)
		return json_pack("{s:s, s:s}", "k", "unknown", "why", "argument missing");
	ab = resolve_base(c, ab, 0);
	if (!strcmp(str(ab, "k"), "param")) {
		const char *first = str(ab, "first")[0] ? str(ab, "first") : str(hb, "first");

		res = json_pack("{s:s, s:O, s:s}", "k", "param", "param", json_object_get(ab, "param"),
				"first", first);
		/* the fields read through: the caller's, then the helper's */
		if (json_object_get(ab, "fields") || json_object_get(hb, "fields")) {
			json_t *f = json_array();

			if (json_object_get(ab, "fields"))
				json_array_extend(f, json_object_get(ab, "fields"));
			if (json_object_get(hb, "fields"))
				json_array_extend(f, json_object_get(hb, "fields"));
			json_object_set_new(res, "fields", f);
		}
		json_decref(ab);
		return res;
	}
	return ab;
}

static json_t *empty_reach(void)
{
	return json_pack("{s:[], s:[], s:[], s:[], s:[], s:[], s:b}", "heads", "icalls", "unresolved", "busy",
			 "pt_uses", "guards", "early", 0);
}

static json_t *reach(struct cx *c, const char *key, struct fn_fact *fn);
static void for_each_member(struct cx *c, const char *type, const char *member,
			    void (*cb)(struct cx *, struct ops_rec *rec, const struct member *m, void *), void *d);

/*
 * The heads a callee registers, seen from the call EV: its parameters
 * replaced by the caller's arguments, in the text and in the derivation.
 */
static void merge_callee(struct cx *c, json_t *r, json_t *ev, const char *cname, const char *ck,
			 struct fn_fact *callee, bool cond)
{
	json_t *args = json_object_get(ev, "args"), *sub = reach(c, ck, callee), *h;
	size_t j;

	json_array_foreach(json_object_get(sub, "heads"), j, h) {
		char *e = subst(str(h, "resolved"), json_object_get(callee->j, "params"), args);
		char *n = norm(e);
		char *via = str(h, "via")[0] ? xasprintf("%s() -> %s", cname, str(h, "via"))
					     : xasprintf("%s()", cname);

		json_array_append_new(json_object_get(r, "heads"),
				      json_pack("{s:O, s:s, s:s, s:s, s:o, s:b, s:s, s:s, s:O, s:s}",
						"site", json_object_get(ev, "line"),
						"expr", str(h, "expr"), "resolved", e, "norm", n,
						"base", compose(c, json_object_get(h, "base"), args),
						"cond", cond || json_is_true(json_object_get(h, "cond")) ||
							json_is_true(json_object_get(h, "guarded")),
						"via", via, "file", str(h, "file"),
						"line", json_object_get(h, "line"),
						"field", str(h, "field")));
		free(e);
		free(n);
		free(via);
	}
	json_array_extend(json_object_get(r, "icalls"), json_object_get(sub, "icalls"));
	json_array_extend(json_object_get(r, "unresolved"), json_object_get(sub, "unresolved"));
	json_array_extend(json_object_get(r, "busy"), json_object_get(sub, "busy"));
	json_array_extend(json_object_get(r, "pt_uses"), json_object_get(sub, "pt_uses"));
}

/* The functions a callback member is given, by key, each with the member that names it. */
struct targets {
	struct smap index;	/* function key -> 1 + position in keys */
	struct plist keys;	/* char *key, in the order found */
	struct plist members;	/* const struct member *, beside each key */
};

static void target_cb(struct cx *c, struct ops_rec *rec, const struct member *m, void *d)
{
	struct targets *t = d;
	const char *f = m->file[0] ? m->file : rec->file;
	char *key = m->st ? xasprintf("%s:%s", f, m->function) : xstrdup(m->function);
	bool added;
	void **slot = smap_slot(&t->index, key, &added);

	(void)c;
	if (added) {
		*slot = (void *)(t->keys.n + 1);
		pl_push(&t->keys, key);
		pl_push(&t->members, (void *)m);
	} else {
		t->members.v[(size_t)*slot - 1] = (void *)m;	/* the last one says it, in the first place */
		free(key);
	}
}

/*
 * The poll_table handed to a callback that is not a poll method (an
 * ioctl-like command op): every function the tree puts in that member is a
 * target, followed like a helper.  No target found, or one whose body was
 * not seen: nothing can be said of the heads (unknown).
 */
static void follow_callback(struct cx *c, json_t *r, json_t *ev, struct fn_fact *fn, bool cond)
{
	struct targets t = { 0 };
	bool ok = str(ev, "type")[0] != '\0';
	size_t i;

	if (ok) {
		char *fk = xasprintf("%s.%s", str(ev, "type"), str(ev, "member"));

		*smap_slot(&c->followed, fk, NULL) = (void *)1;
		free(fk);
	}

	if (ok)
		for_each_member(c, str(ev, "type"), str(ev, "member"), target_cb, &t);
	ok = ok && t.keys.n > 0;
	for (i = 0; ok && i < t.keys.n; i++) {
		const struct member *m = t.members.v[i];
		const char *ck = NULL;
		struct fn_fact *callee = fact_fn(c, m->file, m->function, m->st, &ck);

		if (!callee || callee->pt < 0)
			ok = false;
	}
	if (!ok) {
		json_array_append_new(json_object_get(r, "unresolved"),
				      json_pack("{s:s, s:s, s:O, s:s}", "callee", str(ev, "expr"),
						"file", fn->file, "line", json_object_get(ev, "line"),
						"why", "a callback whose targets are not all known"));
	} else {
		for (i = 0; i < t.keys.n; i++) {
			const struct member *m = t.members.v[i];
			const char *ck = NULL;
			struct fn_fact *callee = fact_fn(c, m->file, m->function, m->st, &ck);

			merge_callee(c, r, ev, m->function, ck, callee, cond);
		}
	}
	for (i = 0; i < t.keys.n; i++)
		free(t.keys.v[i]);
	free(t.keys.v);
	free(t.members.v);
	smap_free(&t.index, NULL);
}

static json_t *reach(struct cx *c, const char *key, struct fn_fact *fn)
{
	json_t *r, *ev, **slot;
	size_t i;
	bool early = false, registered = false, added;

	slot = (json_t **)smap_slot(&c->reach, key, &added);
	if (!added)
		return *slot;
	*slot = empty_reach();	/* recursion guard */
	r = empty_reach();
	if (json_is_true(json_object_get(fn->j, "busy_text")))
		json_array_append_new(json_object_get(r, "busy"), json_string("POLL_BUSY_LOOP"));
	json_array_foreach(json_object_get(fn->j, "events"), i, ev) {
		const char *k = str(ev, "k");
		bool cond = json_is_true(json_object_get(ev, "cond")) || early;

		if (!strcmp(k, "wait")) {
			char *n = norm(str(ev, "head"));

			json_array_append_new(json_object_get(r, "heads"),
					      json_pack("{s:s, s:s, s:s, s:o, s:b, s:s, s:s, s:O, s:s, s:b}",
							"expr", str(ev, "head"), "resolved", str(ev, "head"), "norm", n,
							"base", resolve_base(c, json_object_get(ev, "base"), 0), "cond", cond,
							"via", "", "file", fn->file,
							"line", json_object_get(ev, "line"),
							"field", str(ev, "field"),
							"guarded", json_array_size(json_object_get(r, "guards")) > 0));
			free(n);
			registered = true;
		} else if (!strcmp(k, "call")) {
			const char *ck = NULL;
			struct fn_fact *callee = fact_fn(c, str(ev, "callee_file"), str(ev, "callee"),
							 json_is_true(json_object_get(ev, "static")), &ck);

			registered = true;
			if (json_is_false(json_object_get(ev, "pt_typed"))) {
				/*
				 * printk("%p", wait) and the like: not a registration;
				 * a parameter of another type (void *) takes it where
				 * the analysis does not follow
				 */
				bool va = json_is_true(json_object_get(ev, "variadic"));

				json_array_append_new(json_object_get(r, "pt_uses"),
						      json_pack("{s:s, s:s, s:O, s:s}", "what", va ? "other" : "escape",
								"file", fn->file, "line",
								json_object_get(ev, "line"), "into", str(ev, "callee")));
				continue;
			}
			if (!callee || callee->pt < 0) {
				json_array_append_new(json_object_get(r, "unresolved"),
						      json_pack("{s:s, s:s, s:O}", "callee", str(ev, "callee"),
								"file", fn->file, "line",
								json_object_get(ev, "line")));
				continue;
			}
			merge_callee(c, r, ev, str(ev, "callee"), ck, callee, cond);
		} else if (!strcmp(k, "icall") && json_is_false(json_object_get(ev, "poll_method"))) {
			registered = true;
			follow_callback(c, r, ev, fn, cond);
		} else if (!strcmp(k, "icall")) {
			registered = true;
			json_array_append_new(json_object_get(r, "icalls"),
					      json_pack("{s:s, s:s, s:s, s:s, s:O}", "expr", str(ev, "expr"),
							"type", str(ev, "type"), "member", str(ev, "member"),
							"file", fn->file, "line", json_object_get(ev, "line")));
		} else if (!strcmp(k, "pt_use")) {
			json_array_append_new(json_object_get(r, "pt_uses"),
					      json_pack("{s:s, s:s, s:O, s:s}", "what", str(ev, "what"),
							"file", fn->file, "line", json_object_get(ev, "line"),
							"into", str(ev, "into")));
		} else if (!strcmp(k, "busy")) {
			json_array_append_new(json_object_get(r, "busy"), json_string(str(ev, "what")));
		} else if (!strcmp(k, "return") || !strcmp(k, "goto")) {
			if (!registered && !strcmp(k, "return") && json_object_get(ev, "null_test")) {
				/* if (!dev) return ...: impossible when dev is never NULL (decide()) */
				json_array_append_new(json_object_get(r, "guards"),
						      json_pack("{s:o, s:s, s:s, s:O}", "base",
								resolve_base(c, json_object_get(ev, "null_test"), 0),
								"text", str(ev, "null_text"), "file", fn->file,
								"line", json_object_get(ev, "line")));
			} else if (!registered) {
				early = true;
			}
		}
	}
	json_object_set_new(r, "early", json_boolean(early));
	slot = (json_t **)smap_slot(&c->reach, key, NULL);	/* the table may have grown meanwhile */
	json_decref(*slot);
	*slot = r;
	return r;
}

/* ---- implementations ---------------------------------------------------------- */

struct impl {
	char *key;		/* function key */
	struct fn_fact *fn;	/* summary, or NULL when not parsed */
	char *name, *file;
	const char *layer;	/* "type.member" */
	struct plist ops;	/* struct ops_rec: the records / assignments that point at it */
	bool converted;		/* a poll_mask member */
};

struct impls {
	struct impl *v;
	size_t n, alloc;
	struct smap index;	/* key|layer -> 1 + index */
};

static struct impl *impl_get(struct impls *im, const char *key, const char *name, const char *file,
			     const char *layer, bool converted)
{
	char *ik = xasprintf("%s|%s", key, converted ? "poll_mask" : "poll");
	bool added;
	void **slot = smap_slot(&im->index, ik, &added);
	struct impl *p;

	free(ik);
	if (!added)
		return &im->v[(size_t)*slot - 1];
	if (im->n == im->alloc) {
		im->alloc = im->alloc * 2 + 64;
		im->v = xrealloc(im->v, im->alloc * sizeof(*im->v));
	}
	p = &im->v[im->n];
	memset(p, 0, sizeof(*p));
	p->key = xstrdup(key);
	p->name = xstrdup(name);
	p->file = xstrdup(file);
	p->layer = layer;
	p->converted = converted;
	*slot = (void *)(im->n + 1);
	im->n++;
	return p;
}

/* Every (ops record or assignment) that gives TYPE.MEMBER a function: call CB. */
static void for_each_member(struct cx *c, const char *type, const char *member,
			    void (*cb)(struct cx *, struct ops_rec *rec, const struct member *m, void *), void *d)
{
	size_t i, j;

	for (i = 0; i < c->ops.n; i++) {
		struct ops_rec *o = c->ops.v[i];

		if (strcmp(o->type, type))
			continue;
		for (j = 0; j < o->members.n; j++) {
			const struct member *m = o->members.v[j];

			if (!strcmp(m->name, member)) {
				cb(c, o, m, d);
				break;
			}
		}
	}
	for (i = 0; i < c->assigns.n; i++) {
		struct ops_rec *o = c->assigns.v[i];

		if (!o->grouped && !strcmp(o->type, type) && !strcmp(o->member, member))
			cb(c, o, &o->as_member, d);
	}
}

struct collect {
	struct impls *im;
	const char *layer;
	bool converted;
};

/* The key of the function member M names (of a record in RECFILE), and the file to look it up in. */
static void fn_key_of(const struct member *m, const char *recfile, char **key, const char **file)
{
	const char *f = m->file[0] ? m->file : recfile;

	*file = f;
	*key = m->st ? xasprintf("%s:%s", f, m->function) : xstrdup(m->function);
}

/* The implementation of LAYER that member M of REC names; KEEP_KEY: keyed as named, not as found. */
static struct impl *impl_of_member(struct cx *c, struct impls *im, struct ops_rec *rec, const struct member *m,
				   const char *layer, bool converted, bool keep_key)
{
	const char *file, *k = NULL;
	char *key;
	struct impl *p;
	struct fn_fact *fn;

	fn_key_of(m, rec->file, &key, &file);
	fn = fact_fn(c, file, m->function, m->st, &k);
	if (fn && !keep_key) {
		free(key);
		key = xstrdup(k);
	}
	if (fn)
		file = fn->file;
	else if (!keep_key)
		file = rec->file;	/* not defined anywhere we parsed: report it where it is used */
	p = impl_get(im, key, m->function, file, layer, converted);
	p->fn = fn;
	pl_push(&p->ops, rec);
	free(key);
	return p;
}

static void collect_cb(struct cx *c, struct ops_rec *rec, const struct member *m, void *d)
{
	struct collect *cl = d;

	impl_of_member(c, cl->im, rec, m, cl->layer, cl->converted, false);
}

/* The layers below the implementations of L: what they pass their poll_table to.  Any new? */
static bool layers_below(struct cx *c, struct impls *im, struct layer *l)
{
	struct collect cl = { im, l->key, false };
	bool changed = false;

	l->done = true;
	for_each_member(c, l->type, l->member, collect_cb, &cl);
	for (size_t i = 0; i < im->n; i++) {
		struct impl *p = &im->v[i];
		json_t *r, *ic;
		size_t j;

		if (strcmp(p->layer, l->key) || !p->fn)
			continue;
		r = reach(c, p->key, p->fn);
		json_array_foreach(json_object_get(r, "icalls"), j, ic) {
			char *nk, *via;
			struct layer *nl;

			if (!str(ic, "type")[0])
				continue;
			nk = xasprintf("%s.%s", str(ic, "type"), str(ic, "member"));
			if (layer_get(c, nk)) {
				free(nk);
				continue;
			}
			free(nk);
			via = xasprintf("%s() %s:%lld calls %s", p->name, str(ic, "file"),
					json_integer_value(json_object_get(ic, "line")), str(ic, "expr"));
			nl = layer_add(c, str(ic, "type"), str(ic, "member"), via);
			nl->busy = json_array_size(json_object_get(r, "busy")) > 0 || l->busy;
			nl->caller = xstrdup(p->name);
			free(via);
			changed = true;
		}
	}
	return changed;
}

/* Lower layers: what the implementations of LAYER pass their poll_table to. */
static void discover_layers(struct cx *c, struct impls *im)
{
	bool changed = true;

	layer_add(c, "file_operations", "poll", "struct file_operations (the VFS)");
	while (changed) {
		changed = false;
		/* a layer found while the last one is visited waits for the next round */
		for (size_t i = 0; i < c->layers.n;) {
			size_t n = c->layers.n;
			struct layer *l = c->layers.v[i];

			if (!l->done && layers_below(c, im, l))
				changed = true;
			if (i + 1 >= n)
				break;
			i++;
		}
	}
	/* converted implementations: file_operations.poll_mask */
	{
		struct collect cl = { im, "file_operations.poll_mask", true };

		for_each_member(c, "file_operations", "poll_mask", collect_cb, &cl);
	}
}

/*
 * A member whose function takes a poll_table, of a struct no file poll the
 * scan saw reaches (the caller's body hidden, in a binary, not parsed): a
 * poll method all the same, listed and unknown (decide()), never dropped.
 * Callbacks followed like helpers are not layers.
 */
static void undiscovered(struct cx *c, struct impls *im, const char *type, const char *member)
{
	char *lk = xasprintf("%s.%s", type, member);
	struct collect cl = { im, NULL, false };
	struct layer *l;

	/* (a poll_table's own _qproc takes one: the queueing callback, not a poll method) */
	if (!strcmp(type, "file_operations") || !strcmp(type, "poll_table_struct") || layer_get(c, lk) ||
	    smap_get(&c->followed, lk)) {
		free(lk);
		return;
	}
	l = layer_add(c, type, member, "its function takes a poll_table");
	l->done = true;
	cl.layer = l->key;
	for_each_member(c, type, member, collect_cb, &cl);
	free(lk);
}

static void collect_undiscovered(struct cx *c, struct impls *im)
{
	size_t i, j;

	for (i = 0; i < c->ops.n; i++) {
		struct ops_rec *o = c->ops.v[i];

		for (j = 0; j < o->pt_members.n; j++)
			undiscovered(c, im, o->type, o->pt_members.v[j]);
	}
	for (i = 0; i < c->assigns.n; i++) {
		struct ops_rec *o = c->assigns.v[i];

		if (o->pt && !o->grouped)
			undiscovered(c, im, o->type, o->member);
	}
}

/* The member NAME of record O, or NULL. */
static const struct member *member_named(struct ops_rec *o, const char *name)
{
	for (size_t i = 0; i < o->members.n; i++)
		if (!strcmp(((struct member *)o->members.v[i])->name, name))
			return o->members.v[i];
	return NULL;
}

/* TYPE.poll, not file polling: a layer marked so (added when missing). */
static struct layer *not_poll_layer(struct cx *c, const char *type)
{
	char *lk = xasprintf("%s.poll", type);
	struct layer *l = layer_get(c, lk);

	free(lk);
	if (!l) {
		l = layer_add(c, type, "poll", NULL);
		l->not_poll = true;
		l->done = true;
	}
	return l;
}

/* Not file polling: a member named poll of a struct that no file poll reaches. */
static void collect_not_poll(struct cx *c, struct impls *im)
{
	size_t i;

	for (i = 0; i < c->ops.n; i++) {
		struct ops_rec *o = c->ops.v[i];

		if (member_named(o, "poll"))
			not_poll_layer(c, o->type);
	}
	for (i = 0; i < c->ops.n; i++) {
		struct ops_rec *o = c->ops.v[i];
		const struct member *m = member_named(o, "poll");
		char *lk;
		struct layer *l;

		if (!m)
			continue;
		lk = xasprintf("%s.poll", o->type);
		l = layer_get(c, lk);
		free(lk);
		if (l->not_poll)
			impl_of_member(c, im, o, m, l->key, false, true);
	}
	/* ... and a function given to such a member at run time (psmouse->poll = alps_poll) */
	for (i = 0; i < c->assigns.n; i++) {
		struct ops_rec *o = c->assigns.v[i];
		char *lk;
		struct layer *l;

		if (strcmp(o->member, "poll") || o->grouped)
			continue;
		lk = xasprintf("%s.poll", o->type);
		l = layer_get(c, lk);
		free(lk);
		if (l && !l->not_poll)
			continue;	/* a layer: discover_layers() has it */
		l = not_poll_layer(c, o->type);
		impl_of_member(c, im, o, &o->as_member, l->key, false, true);
	}
}

/* ---- creation sites ------------------------------------------------------------ */

/* Creation APIs that return the new struct file (f_poll_head can be set on it). */
static const char *const file_returning[] = {
	"anon_inode_getfile", "anon_inode_getfile_fmode", "anon_inode_create_getfile",
	"alloc_file_pseudo", "alloc_file_pseudo_noaccount", "alloc_file", NULL,
};
/* ... and those that install it into the fd table and return an int. */
static const char *const fd_returning[] = { "anon_inode_getfd", "anon_inode_create_getfd", NULL };
/* Registrations whose framework opens the file and then calls ->open. */
static const char *const framework_calls[] = {
	"cdev_init", "register_chrdev", "__register_chrdev", "debugfs_create_file",
	"debugfs_create_file_unsafe", "debugfs_create_file_size", "securityfs_create_file",
	"tracefs_create_file", "proc_create", "sysfs_create_bin_file", NULL,
};

static bool in(const char *const *l, const char *s)
{
	for (; *l; l++)
		if (!strcmp(*l, s))
			return true;
	return false;
}

/* Where CN, called from a function of FILE, is defined: FILE's own, else the extern one, else NULL. */
static const char *callee_file(struct cx *c, const char *file, const char *cn)
{
	return fact_def(c, file, cn) ? file : fact_def_file(c, cn);
}

static bool sets_private_data(struct cx *c, const char *file, const char *fn, int depth);
static bool all_sets_null(const struct plist *pd);

/* The site of O's own ->open (OPEN, of a file_operations in OFILE) for the poll POLL_KEY of POLL_FILE. */
static json_t *open_site(struct cx *c, const struct member *open, const char *ofile, const char *poll_key,
			 const char *poll_file)
{
	const char *of = def_file_of(c, open, ofile);
	char *dk = xasprintf("%s:%s", of, open->function);
	struct def_fact *def = fact_def(c, of, open->function);
	const struct plist *pd = fact_pd(c, of, open->function);
	/*
	 * An open can set f_poll_head for this poll only when every
	 * file_operations that opens with it polls with the same function
	 * (drm_open for drm_poll: yes; simple_open: no).
	 */
	struct smap *users = smap_get(&c->open_users, dk);
	/*
	 * and only an open defined next to the ops or the poll: a library
	 * open (fs/libfs.c's simple_open) is never the driver's, even in a
	 * tree where one file_operations happens to use it.
	 */
	bool near = !strcmp(of, ofile) || !strcmp(of, poll_file);
	bool own = near && users && users->n == 1 && smap_get(users, poll_key);
	json_t *site;

	free(dk);
	site = json_pack("{s:s, s:s, s:s, s:I, s:b, s:b}", "kind", "open", "function", open->function, "file", of,
			 "line", def ? def->line : 0, "sets_private_data",
			 sets_private_data(c, of, open->function, 0), "settable", own && def != NULL);
	/* open leaves private_data NULL (fuse: the mount sets it later) */
	if (all_sets_null(pd))
		json_object_set_new(site, "private_data_null", json_true());
	return site;
}

/* The fops handed to a framework object (REF's ctx "init:T.f" or "assign:T.f"): who registers that object? */
static char *registered_kind(struct cx *c, const struct ref_fact *ref, const char **fn, bool *pd)
{
	const char *tf = strchr(ref->ctx, ':') + 1;
	char *type = xstrndup(tf, strcspn(tf, ".")), *kind;

	if (!strcmp(tf, "file.f_op")) {
		kind = xstrdup("f_op switch");
	} else if (!strcmp(tf, "cdev.ops")) {
		kind = xstrdup("cdev");
	} else {
		kind = !strcmp(type, "miscdevice") ? xstrdup("misc_open")
		       : strstr(tf, "(anonymous") || strstr(tf, "(unnamed")
		       ? xasprintf("registered as %s", strrchr(tf, '.') ? strrchr(tf, '.') + 1 : tf)
		       : xasprintf("registered as %s", tf);
		*pd = !strcmp(type, "miscdevice");
		if (!strncmp(ref->ctx, "init:", 5)) {
			const struct plist *vrefs = fact_refs(c, ref->file, *fn);

			for (size_t m = 0; vrefs && m < vrefs->n; m++) {
				const struct ref_fact *vr = vrefs->v[m];

				if (!strncmp(vr->ctx, "call:", 5) && vr->in[0]) {
					*fn = vr->in;
					break;
				}
			}
		}
	}
	free(type);
	return kind;
}

/* The creation site REF makes, or NULL when it only looks at the fops. */
static json_t *ref_site(struct cx *c, const struct ref_fact *ref)
{
	const char *ctx = ref->ctx, *fn = ref->in;
	char *kind = NULL;
	bool settable = false, pd = false;
	json_t *site;

	if (!strncmp(ctx, "call:", 5)) {
		char *name = xstrdup(ctx + 5);

		*strrchr(name, ':') = '\0';
		if (in(file_returning, name)) {
			settable = true;
			pd = !strncmp(name, "anon_inode", 10) || (fact_pd(c, ref->file, fn) && fact_pd(c, ref->file, fn)->n);
		} else if (in(fd_returning, name)) {
			pd = true;
		} else if (!strcmp(name, "cdev_init")) {
			free(name);
			name = xstrdup("cdev");
		} else if (!in(framework_calls, name)) {
			free(name);
			return NULL;	/* a call that only looks at the fops */
		}
		kind = name;
	} else if (!strncmp(ctx, "init:", 5) || !strncmp(ctx, "assign:", 7)) {
		kind = registered_kind(c, ref, &fn, &pd);
	} else {
		return NULL;
	}
	site = json_pack("{s:s, s:s, s:s, s:O, s:b, s:b}", "kind", kind, "function", fn, "file", ref->file, "line",
			 ref->line, "sets_private_data", pd, "settable", settable);
	free(kind);
	return site;
}

/*
 * Creation sites of ops record O (file_operations): its own ->open, calls
 * that create a file with it, framework registrations.  Also notes whether
 * each site can set f_poll_head (the file is at hand and the code is the
 * driver's own).
 */
static void creation_sites(struct cx *c, struct ops_rec *o, const char *poll_key, const char *poll_file,
			   json_t *sites, json_t *reassigned)
{
	const struct member *open = member_named(o, "open");
	const struct plist *refs = fact_refs(c, o->file, o->var);
	size_t i, j;

	if (!refs && !o->st)
		refs = fact_refs(c, NULL, o->var);
	if (open)
		json_array_append_new(sites, open_site(c, open, o->file, poll_key, poll_file));
	for (i = 0; refs && i < refs->n; i++) {
		json_t *site = ref_site(c, refs->v[i]);

		if (site)
			json_array_append_new(sites, site);
	}
	/* private_data written by the ops' other methods: not fixed at creation */
	for (i = 0; i < o->members.n; i++) {
		const struct member *mv = o->members.v[i];
		const char *mf = mv->file[0] ? mv->file : o->file;
		const struct plist *pd;

		if (!strcmp(mv->name, "open") || !strcmp(mv->name, "release"))
			continue;
		pd = fact_pd(c, mf, mv->function);
		for (j = 0; pd && j < pd->n; j++)
			json_array_append_new(reassigned,
					      json_pack("{s:s, s:s, s:O, s:s}", "function", mv->function, "file", mf,
							"line", ((struct pd_fact *)pd->v[j])->line, "member", mv->name));
	}
}

/*
 * Are the private_data stores PD of one function all constants (NULL)?
 * Then the file is created with no object there (fuse's /dev/fuse: the
 * mount stores it later).  A NULL store on an error path beside a real
 * one (drm_open_helper()) leaves the object set.
 */
static bool all_sets_null(const struct plist *pd)
{
	for (size_t i = 0; pd && i < pd->n; i++)
		if (!((struct pd_fact *)pd->v[i])->is_const)
			return false;
	return pd && pd->n > 0;
}

/* Does FN (or a function it hands the file to) store an object, not NULL, in private_data? */
static bool sets_private_data(struct cx *c, const char *file, const char *fn, int depth)
{
	const struct plist *pd = fact_pd(c, file, fn);
	struct def_fact *def;

	if (pd && pd->n)
		return !all_sets_null(pd);
	if (depth > 3)
		return false;
	def = fact_def(c, file, fn);
	for (size_t i = 0; def && i < def->callees.n; i++) {
		const char *cn = def->callees.v[i], *cf = callee_file(c, file, cn);

		if (cf && sets_private_data(c, cf, cn, depth + 1))
			return true;
	}
	return false;
}

/* ---- the verdict ------------------------------------------------------------ */

const char *class_family(const char *cls)
{
	if (!strncmp(cls, "single", 6))
		return "single";
	return cls;
}

static const char *base_name(json_t *base, struct fn_fact *fn, char *buf, size_t len)
{
	const char *k = str(base, "k");

	if (!strcmp(k, "param")) {
		int p = (int)json_integer_value(json_object_get(base, "param"));
		const char *first = str(base, "first");
		json_t *pa = json_array_get(json_object_get(fn->j, "params"), (size_t)p);

		if (p == (int)fn->file_param) {
			if (!strcmp(first, "private_data"))
				return "private_data";
			if (!strcmp(first, "f_inode") || !strcmp(first, "file_inode()") || !strcmp(first, "f_path"))
				return "inode";
			snprintf(buf, len, "file%s%s", first[0] ? ":" : "", first);
			return buf;
		}
		snprintf(buf, len, "param:%s", str(pa, "name"));
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
	if (vasprintf(&s, fmt, ap) < 0)
		die("out of memory");
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

		if (!strcmp(str(e, "file"), fn->file) && l >= fn->line && l <= fn->end_line)
			return e;
	}
	return NULL;
}

/* Does FN (defined in FILE) run from method MK, itself or through the functions it hands the file to? */
static bool runs_from(struct cx *c, const char *file, const char *from, const char *fn, int depth)
{
	struct def_fact *d;
	bool hit = false;

	if (!strcmp(from, fn))
		return true;
	if (depth > 4)
		return false;
	d = fact_def(c, file, from);
	for (size_t i = 0; d && i < d->callees.n; i++)
		if (!hit && strcmp(d->callees.v[i], from))
			hit = runs_from(c, file, d->callees.v[i], fn, depth + 1);
	return hit;
}

/*
 * A field of FIELDS (the "struct.field" members a head or a tested value is
 * read through; the last one left out when SKIP_LAST: the queue itself)
 * that a method of P's ops other than ->open and ->release writes, itself or
 * through the functions it hands the file to: the value can change while
 * the file is open.  *FK, *SETTER, *MK: which field, which function, which
 * method.
 */
static bool changed_after_open(struct cx *c, struct impl *p, json_t *fields, bool skip_last, const char **fk,
			       const char **setter, const char **mk)
{
	json_t *f;
	size_t fi, si, oi, mi;

	json_array_foreach(fields, fi, f) {
		const struct plist *sets;

		*fk = json_string_value(f);
		if ((skip_last && fi + 1 == json_array_size(fields)) || !strcmp(*fk, "file.private_data"))
			continue;
		sets = fact_field_sets(c, *fk);
		for (si = 0; sets && si < sets->n; si++) {
			const struct field_set *st = sets->v[si];

			for (oi = 0; oi < p->ops.n; oi++) {
				struct ops_rec *o = p->ops.v[oi];

				for (mi = 0; mi < o->members.n; mi++) {
					const struct member *mv = o->members.v[mi];
					const char *mf = def_file_of(c, mv, o->file);

					if (!strcmp(mv->name, "open") || !strcmp(mv->name, "release") ||
					    strcmp(st->file, mf) || !runs_from(c, mf, mv->function, st->in, 0))
						continue;
					*setter = st->in;
					*mk = mv->name;
					return true;
				}
			}
		}
	}
	return false;
}

/* FN (defined in FILE, if anywhere) or a function it hands the file to, whose body was not seen. */
static const char *unseen_from(struct cx *c, const char *file, const char *fn, int depth)
{
	struct def_fact *d = fact_def(c, file, fn);
	const char *r = NULL;

	if (!d)
		return fn;
	if (depth > 4)
		return NULL;
	for (size_t i = 0; i < d->callees.n; i++) {
		const char *cn = d->callees.v[i], *cf = callee_file(c, file, cn);

		if (strcmp(cn, fn) && (r = unseen_from(c, cf ? cf : file, cn, depth + 1)))
			break;
	}
	return r;
}

/*
 * A method of P's ops (a function member), or a function it hands the file
 * to, whose body no parsed file holds: *MK the member, *FN the function.
 */
static bool unseen_method(struct cx *c, struct impl *p, const char **mk, const char **fn)
{
	for (size_t i = 0; i < p->ops.n; i++) {
		struct ops_rec *o = p->ops.v[i];

		for (size_t j = 0; j < o->members.n; j++) {
			const struct member *mv = o->members.v[j];
			const char *u = unseen_from(c, def_file_of(c, mv, o->file), mv->function, 0);

			if (u) {
				*mk = mv->name;
				*fn = u;
				return true;
			}
		}
	}
	return false;
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

static void decide(struct cx *c, struct impl *p, json_t *out, json_t *cocci_rec)
{
	struct verdict v = { "unknown", "no", STRBUF_INIT };
	struct layer *layer = layer_get(c, p->layer);
	json_t *r = NULL, *heads = json_array();
	json_t *sites = json_array(), *reassigned = json_array(), *opsout = json_array();
	json_t *distinct = json_object(), *sites_of_text = json_object(), *h, *e;
	bool is_root = !strcmp(p->layer, "file_operations.poll") || p->converted;
	json_t *plan_out = NULL;	/* where the conversion sets f_poll_head */
	bool uncond = true, guard_fails = false;
	const char *base = "";
	char bbuf[128];
	size_t i;

	for (i = 0; i < p->ops.n; i++) {
		struct ops_rec *o = p->ops.v[i];
		const char *via = o->macro[0] ? "macro" : o->assign || o->via_assignment ? "assignment" : "initializer";
		json_t *rec = json_pack("{s:s, s:s, s:s, s:O, s:s}", "var", o->assign ? o->lhs : o->var, "type",
					o->type, "file", o->file, "line", o->line, "via", via);

		if (o->macro[0])
			json_object_set_new(rec, "macro", json_string(o->macro));
		if (!o->assign && !strcmp(o->type, "file_operations"))
			creation_sites(c, o, p->key, p->file, sites, reassigned);
		json_array_append_new(opsout, rec);
	}

	if (layer && layer->not_poll) {
		set_verdict(&v, "not-poll", "%s.poll is not file polling: no file poll passes its poll_table to it",
			    layer->type);
		v.conv = "excluded";
		goto done;
	}
	if (p->converted) {
		set_verdict(&v, "converted", "already converted: .poll_mask = %s", p->name);
		v.conv = "converted";
		goto done;
	}
	if (!p->fn) {
		set_verdict(&v, "unknown", "the definition of %s() was not parsed", p->name);
		goto done;
	}
	if (layer && layer->found_via && !strcmp(layer->found_via, "its function takes a poll_table")) {
		/* whether the unseen caller busy-polls or delegates is not known */
		set_verdict(&v, "unknown", "%s is a poll method (its function takes a poll_table), but no file "
			    "poll the scan saw calls it", p->layer);
		goto done;
	}
	if ((e = fn_errors(c, p->fn))) {
		set_verdict(&v, "unknown", "libclang could not parse %s() (%s:%lld: %s)", p->name, str(e, "file"),
			    json_integer_value(json_object_get(e, "line")), str(e, "msg"));
		goto done;
	}
	r = reach(c, p->key, p->fn);
	/*
	 * Heads are counted by object, not by text: the same text at two sites
	 * over a local that is assigned different objects (q = &dev->in; ...;
	 * q = &dev->out) is a head per registration site, reported as written
	 */
	json_array_foreach(json_object_get(r, "heads"), i, h) {
		json_t *hb0 = json_object_get(h, "base"), *st = json_object_get(sites_of_text, str(h, "norm"));
		char *sk = xasprintf("%lld", json_integer_value(json_object_get(h, json_object_get(h, "site") ? "site" : "line")));

		if (!strcmp(str(hb0, "k"), "dynamic") && json_object_get(hb0, "alts") &&
		    strstr(str(hb0, "why"), "assigned different objects")) {
			if (!st) {
				st = json_object();
				json_object_set_new(sites_of_text, str(h, "norm"), st);
			}
			json_object_set_new(st, sk, json_true());
		}
		free(sk);
	}
	json_array_foreach(json_object_get(r, "heads"), i, h) {
		bool per_site = json_object_size(json_object_get(sites_of_text, str(h, "norm"))) >= 2;
		char *dkey = per_site
				     ? xasprintf("%s@%lld", str(h, "norm"),
						 json_integer_value(json_object_get(h, json_object_get(h, "site") ? "site" : "line")))
				     : xstrdup(str(h, "norm"));
		json_t *d = json_object_get(distinct, dkey);

		if (json_is_true(json_object_get(h, "cond")))
			uncond = false;
		if (!d) {
			/* a head per site is reported as written at that site */
			json_t *alts = per_site ? NULL : json_object_get(json_object_get(h, "base"), "alts"), *a;
			size_t ai;

			json_object_set(distinct, dkey, h);
			/* a head chosen at run time: report each candidate */
			json_array_foreach(alts, ai, a)
				json_array_append_new(heads, json_pack("{s:s, s:s, s:s, s:s, s:s, s:O, s:b, s:s}",
								       "expr", json_string_value(a),
								       "resolved", json_string_value(a),
								       "base", "dynamic", "via", str(h, "via"),
								       "file", str(h, "file"),
								       "line", json_object_get(h, "line"),
								       "conditional", 1, "chosen_by", str(h, "expr")));
			if (!json_array_size(alts))
				json_array_append_new(heads, json_pack("{s:s, s:s, s:s, s:s, s:s, s:O, s:b}", "expr",
								       str(h, "expr"), "resolved", str(h, "resolved"),
								       "base",
								       base_name(json_object_get(h, "base"), p->fn, bbuf,
										 sizeof(bbuf)),
								       "via", str(h, "via"), "file", str(h, "file"),
								       "line", json_object_get(h, "line"), "conditional",
								       json_is_true(json_object_get(h, "cond"))));
		} else if (!json_is_true(json_object_get(h, "cond"))) {
			json_object_set_new(json_array_get(heads, json_array_size(heads) - 1), "conditional",
					    json_false());
		}
		free(dkey);
	}
	if (json_array_size(json_object_get(r, "busy")) || (layer && layer->busy)) {
		if (json_array_size(json_object_get(r, "busy")))
			set_verdict(&v, "busy-poll", "socket poll that busy-polls (%s)",
				    json_string_value(json_array_get(json_object_get(r, "busy"), 0)));
		else
			set_verdict(&v, "busy-poll", "%s runs under %s(), which busy-polls", p->layer,
				    layer->caller ? layer->caller : "");
		goto done;
	}
	if (json_array_size(json_object_get(r, "icalls"))) {
		json_t *ic = json_array_get(json_object_get(r, "icalls"), 0);

		if (str(ic, "type")[0])
			set_verdict(&v, "delegate", "forwards to %s (%s.%s)", str(ic, "expr"), str(ic, "type"),
				    str(ic, "member"));
		else
			set_verdict(&v, "delegate", "forwards its poll_table to %s", str(ic, "expr"));
		goto done;
	}
	if (json_array_size(json_object_get(r, "unresolved"))) {
		json_t *u = json_array_get(json_object_get(r, "unresolved"), 0);

		if (str(u, "why")[0])
			set_verdict(&v, "unknown", "passes its poll_table to %s, %s", str(u, "callee"),
				    str(u, "why"));
		else
			set_verdict(&v, "unknown", "passes its poll_table to %s(), whose body was not parsed",
				    str(u, "callee"));
		goto done;
	}
	json_array_foreach(json_object_get(r, "pt_uses"), i, e) {
		/*
		 * The table went where the analysis does not follow (stored,
		 * aliased, passed as another type): the queues registered there
		 * are not seen.  Two heads seen are already multi.
		 */
		if (json_object_size(distinct) >= 2 ||
		    (strcmp(str(e, "what"), "store") && strcmp(str(e, "what"), "escape")))
			continue;
		set_verdict(&v, "unknown", "the poll_table %s %s (%s:%lld): the queues registered through it "
			    "are not followed", !strcmp(str(e, "what"), "store") ? "is stored in" : "is passed to",
			    str(e, "into"), str(e, "file"), json_integer_value(json_object_get(e, "line")));
		goto done;
	}
	if (json_object_size(distinct) == 0) {
		set_verdict(&v, "none", "no poll_wait() reachable: the mask is computed from state");
		v.conv = "yes";
		goto pt_check;
	}
	if (json_object_size(distinct) >= 2) {
		struct strbuf l = STRBUF_INIT;

		json_array_foreach(heads, i, h)
			sb_addf(&l, "%s%s", i ? ", " : "", str(h, "expr"));
		set_verdict(&v, "multi", "%zu wait queues: %s", json_object_size(distinct), l.buf);
		sb_release(&l);
		goto done;
	}
	h = json_array_get(json_object_get(r, "heads"), 0);
	{
		json_t *hb = json_object_get(h, "base");
		const char *bk = str(hb, "k");
		const char *hexpr = str(h, "expr");

		base = str(json_array_get(heads, 0), "base");
		if (!strcmp(bk, "dynamic")) {
			set_verdict(&v, "single-dynamic", "head %s is %s", hexpr, str(hb, "why"));
			goto done;
		}
		if (!strcmp(bk, "task")) {
			set_verdict(&v, "single-dynamic", "head %s is a per-task queue (current), not the file's",
				    hexpr);
			goto done;
		}
		if (str(h, "field")[0] && fact_pollfree(c, str(h, "field"))) {
			set_verdict(&v, "single-dynamic", "head %s (%s) is freed with wake_up_pollfree(): "
				    "its lifetime is not the file's", hexpr, str(h, "field"));
			goto done;
		}
		if (strcmp(bk, "global") && strcmp(bk, "param")) {
			set_verdict(&v, "unknown", "cannot tell what head %s is derived from (%s)", hexpr,
				    str(hb, "why"));
			goto done;
		}
		{
			/* a pointer or selector the head is read through, written by a method after open */
			const char *fk, *setter, *mk;

			if (changed_after_open(c, p, json_object_get(hb, "fields"), true, &fk, &setter, &mk)) {
				set_verdict(&v, "single-dynamic", "head %s is read through %s, which %s() (->%s) "
					    "changes after open", hexpr, fk, setter, mk);
				goto done;
			}
		}
		if (!strcmp(base, "private_data")) {
			json_t *s;
			size_t si;

			json_array_foreach(sites, si, s)
				if (json_is_true(json_object_get(s, "private_data_null"))) {
					set_verdict(&v, "single-dynamic", "head %s hangs off private_data, which %s() "
						    "leaves NULL at open: it is set later", hexpr, str(s, "function"));
					goto done;
				}
		}
		if (!strcmp(base, "private_data") && json_array_size(reassigned)) {
			json_t *ra = json_array_get(reassigned, 0);

			set_verdict(&v, "single-dynamic", "head %s hangs off private_data, which %s() (->%s) "
				    "reassigns after open", hexpr, str(ra, "function"), str(ra, "member"));
			goto done;
		}
		if (!strcmp(bk, "param")) {
			/* a method whose body was not seen may change what the head hangs off */
			const char *um, *uf;

			if (unseen_method(c, p, &um, &uf)) {
				set_verdict(&v, "unknown", "head %s is derived from the file, but the body of ->%s %s() "
					    "was not seen: it could change the head after open", hexpr, um, uf);
				goto done;
			}
		}
		if (uncond && json_array_size(json_object_get(r, "guards"))) {
			/*
			 * "if (!dev) return EPOLLERR;" before poll_wait(): no path
			 * skips the registration when dev is private_data itself,
			 * every creation site sets it and no method changes it
			 */
			json_t *g, *s;
			size_t gi, si;
			bool all_set = json_array_size(sites) > 0;
			bool open_sets = false;

			/* a framework's open path ends in the driver's ->open */
			json_array_foreach(sites, si, s)
				open_sets |= !strcmp(str(s, "kind"), "open") &&
					     (json_is_true(json_object_get(s, "sets_private_data")) ||
					      !strcmp(str(s, "function"), "simple_open"));
			json_array_foreach(sites, si, s) {
				const char *sk = str(s, "kind");
				bool direct = in(file_returning, sk) || in(fd_returning, sk);

				all_set = all_set && (json_is_true(json_object_get(s, "sets_private_data")) ||
						      !strcmp(sk, "misc_open") || !strcmp(str(s, "function"), "simple_open") ||
						      (!direct && strcmp(sk, "open") && open_sets));
			}
			json_array_foreach(json_object_get(r, "guards"), gi, g) {
				json_t *gb = json_object_get(g, "base");

				if (!all_set || json_array_size(reassigned) > 0 || strcmp(str(gb, "k"), "param") ||
				    json_integer_value(json_object_get(gb, "param")) !=
					    p->fn->file_param ||
				    strcmp(str(gb, "first"), "private_data") || !pd_itself(gb)) {
					uncond = false;
					guard_fails = true;
					break;
				}
			}
		}
		if (!uncond) {
			if ((guard_fails || json_is_true(json_object_get(r, "early"))) && !str(h, "via")[0])
				set_verdict(&v, "single-cond", "one head (%s), but a path returns before "
					    "registering it", hexpr);
			else
				set_verdict(&v, "single-cond", "one head (%s), registered only under a condition",
					    hexpr);
			v.conv = "review";
			goto done;
		}
		if (!strcmp(bk, "global")) {
			set_verdict(&v, "single-static", "one head, the global %s, registered unconditionally",
				    str(hb, "name"));
		} else {
			set_verdict(&v, "single-private", "one head, %s, derived from %s, registered "
				    "unconditionally", hexpr, base);
		}
	}
	/* auto-convertible? the safety rules of DESIGN.md */
	if (!is_root) {
		v.conv = "no";
		goto pt_check;
	}
	{
		/*
		 * Files are created either directly (anon_inode_getfile() and
		 * friends: ->open is never called, the returned file can be set
		 * up) or through an open path (misc, cdev, chrdev, debugfs, a
		 * framework registration): those need an ->open of the driver's
		 * own to set f_poll_head.
		 */
		bool direct = false, open_path = false, own_open = false, pd_known = false;
		bool blocked = false;
		const char *why = NULL, *shared_open = NULL;
		json_t *s, *plan = json_array();

		json_array_foreach(sites, i, s) {
			const char *k = str(s, "kind");
			bool settable = json_is_true(json_object_get(s, "settable"));

			/*
			 * anon_inode_getfd() installs the file before it returns:
			 * anon_inode_getfd_poll() takes the head instead, which
			 * must then come from the private data it is given (or be
			 * a global), as nothing else of the file is at hand.  The
			 * same for anon_inode_create_getfd() and
			 * anon_inode_create_getfd_poll().
			 */
			if (in(fd_returning, k) &&
			    (!strcmp(base, "private_data") || !strcmp(base, "global"))) {
				settable = true;
				json_object_set_new(s, "settable", json_true());
			}

			if (!strcmp(k, "open")) {
				if (settable) {
					own_open = true;
					json_array_append_new(plan, json_sprintf("open:%s", str(s, "function")));
				} else {
					shared_open = str(s, "function");
				}
				pd_known |= json_is_true(json_object_get(s, "sets_private_data"));
				/* simple_open() sets private_data from the inode's i_private */
				pd_known |= !strcmp(str(s, "function"), "simple_open");
				continue;
			}
			if (settable) {
				direct = true;
				pd_known |= json_is_true(json_object_get(s, "sets_private_data"));
				json_array_append_new(plan, json_sprintf("%s:%s", k, str(s, "function")));
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
			why = "no creation site found";
		}
		if (blocked) {
			v.conv = "needs-open";
			sb_addf(&v.reason, "; %s", why);
		} else if (!strcmp(base, "private_data") && !pd_known) {
			v.conv = "needs-open";
			sb_adds(&v.reason, "; no creation site sets private_data");
		} else {
			v.conv = "yes";
			plan_out = json_incref(plan);
		}
		json_decref(plan);
	}
pt_check:
	if (r) {
		json_t *u;

		json_array_foreach(json_object_get(r, "pt_uses"), i, u) {
			if (!strcmp(str(u, "what"), "poll_requested_events"))
				continue;
			if (!strcmp(v.conv, "yes") || !strcmp(v.conv, "needs-open")) {
				v.conv = "review";
				sb_addf(&v.reason, "; the poll_table is also used (%s at %s:%lld)",
					!strcmp(str(u, "what"), "other") ? "beyond poll_wait" : str(u, "what"),
					str(u, "file"), json_integer_value(json_object_get(u, "line")));
			}
			break;
		}
	}
	if (!is_root) {
		/* a lower layer has no ->poll_mask to convert to */
		v.conv = "no";
		if (strcmp(v.cls, "unknown"))
			sb_addf(&v.reason, "; lower layer %s: converted only through the file_operations above it",
				p->layer);
	}
done:
	if (!is_root && !strcmp(v.conv, "review"))
		v.conv = "no";	/* a lower layer has no ->poll_mask: nothing to review there */
	{
		json_t *busy = json_array(), *dele = json_array(), *ptu = json_array();
		char *sub;

		if (r) {
			json_t *x;

			json_array_foreach(json_object_get(r, "busy"), i, x)
				json_array_append(busy, x);
			json_array_foreach(json_object_get(r, "icalls"), i, x)
				json_array_append_new(dele, json_sprintf("%s (%s.%s)", str(x, "expr"),
									 str(x, "type"), str(x, "member")));
			json_array_foreach(json_object_get(r, "pt_uses"), i, x)
				json_array_append_new(ptu, json_sprintf("%s at %s:%lld", str(x, "what"),
									str(x, "file"),
									json_integer_value(json_object_get(x, "line"))));
		}
		{
			const char *f = p->file;
			const char *s1 = strchr(f, '/');
			const char *s2 = s1 ? strchr(s1 + 1, '/') : NULL;

			sub = s2 ? xstrndup(f, (size_t)(s2 - f)) : s1 ? xstrndup(f, (size_t)(s1 - f)) : xstrdup(".");
		}
		json_object_set_new(out, "function", json_string(p->name));
		json_object_set_new(out, "file", json_string(p->fn ? p->fn->file : p->file));
		json_object_set_new(out, "line", json_integer(p->fn ? p->fn->line : 0));
		json_object_set_new(out, "layer", json_string(p->layer));
		json_object_set_new(out, "class", json_string(v.cls));
		json_object_set_new(out, "convertible", json_string(v.conv));
		json_object_set_new(out, "reason", json_string(v.reason.buf ? v.reason.buf : ""));
		json_object_set_new(out, "heads", heads);
		json_object_set_new(out, "base", json_string(base));
		json_object_set_new(out, "unconditional", json_boolean(uncond));
		json_object_set_new(out, "busy_poll", busy);
		json_object_set_new(out, "delegates", dele);
		json_object_set_new(out, "pt_uses", ptu);
		json_object_set_new(out, "ops", opsout);
		json_object_set_new(out, "creation_sites", sites);
		json_object_set_new(out, "private_data_reassigned", reassigned);
		json_object_set_new(out, "compiled", json_true());
		json_object_set_new(out, "subsystem", json_string(sub));
		json_object_set_new(out, "cocci", cocci_rec ? json_incref(cocci_rec) : json_null());
		json_object_set_new(out, "plan", plan_out ? plan_out : json_array());
		free(sub);
	}
	json_decref(distinct);
	json_decref(sites_of_text);
	sb_release(&v.reason);
}

/*
 * The layer of an ops struct of TYPE that the Coccinelle pass names (it
 * does not say which member): TYPE.poll, or the layer whose member TYPE
 * has under another name (proc_ops.proc_poll), allocated.
 */
static char *cocci_layer(struct cx *c, const char *type)
{
	char *lk = xasprintf("%s.poll", type);
	const char *best = NULL;

	if (layer_get(c, lk))
		return lk;
	for (size_t i = 0; i < c->layers.n; i++) {
		struct layer *l = c->layers.v[i];

		if (!strcmp(l->type, type) && (!best || strcmp(l->key, best) < 0))
			best = l->key;
	}
	if (best) {
		free(lk);
		lk = xstrdup(best);
	}
	return lk;
}

/* Which poll functions each ->open of a file_operations serves (creation_sites()). */
static void index_open_users(struct cx *c)
{
	for (size_t i = 0; i < c->ops.n; i++) {
		struct ops_rec *x = c->ops.v[i];
		const struct member *open = member_named(x, "open"), *poll = member_named(x, "poll");
		const char *pf, *pk = NULL;
		char *ok, *pkey;
		void **users;

		if (!open || !poll || strcmp(x->type, "file_operations"))
			continue;
		ok = xasprintf("%s:%s", def_file_of(c, open, x->file), open->function);
		fn_key_of(poll, x->file, &pkey, &pf);
		if (fact_fn(c, pf, poll->function, poll->st, &pk)) {
			free(pkey);
			pkey = xstrdup(pk);
		}
		users = smap_slot(&c->open_users, ok, NULL);
		if (!*users)
			*users = xcalloc(1, sizeof(struct smap));
		*smap_slot(*users, pkey, NULL) = (void *)1;
		free(ok);
		free(pkey);
	}
}

static int cmp_impl(const void *a, const void *b)
{
	json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
	int r = strcmp(str(x, "file"), str(y, "file"));

	if (r)
		return r;
	if (json_integer_value(json_object_get(x, "line")) != json_integer_value(json_object_get(y, "line")))
		return json_integer_value(json_object_get(x, "line")) < json_integer_value(json_object_get(y, "line")) ? -1 : 1;
	r = strcmp(str(x, "function"), str(y, "function"));
	return r ? r : strcmp(str(x, "layer"), str(y, "layer"));
}

static void count(json_t *obj, const char *k)
{
	json_object_set_new(obj, k, json_integer(json_integer_value(json_object_get(obj, k)) + 1));
}

json_t *classify(const struct tree *t, json_t *tus, json_t *cocci, json_t *failed, json_t *not_compiled)
{
	struct cx c = { .t = t };
	struct impls im = { 0 };
	json_t *list = json_array(), *by_class = json_object(), *by_conv = json_object(), *dis = json_array();
	json_t *layers_out = json_array(), *used_cocci = json_object(), *res, *x;
	json_t **sorted;
	size_t i, n_ops = 0;
	const char *k;

	facts_load(&c, tus);
	index_open_users(&c);
	discover_layers(&c, &im);
	collect_undiscovered(&c, &im);
	collect_not_poll(&c, &im);
	for (i = 0; i < im.n; i++) {
		struct impl *p = &im.v[i];
		json_t *out = json_object();
		char *ck = xasprintf("%s:%s", p->fn ? p->fn->file : p->file, p->name);
		json_t *cr = cocci ? json_object_get(cocci, ck) : NULL;

		if (cr)
			json_object_set_new(used_cocci, ck, json_true());
		decide(&c, p, out, cr);
		json_array_append_new(list, out);
		free(ck);
	}
	/* files the configuration cannot compile: the Coccinelle pass classifies them */
	if (cocci) {
		json_object_foreach(cocci, k, x) {
			bool nc = false;
			size_t j;
			json_t *f;
			char *lk;
			struct layer *lay;

			if (json_object_get(used_cocci, k))
				continue;
			json_array_foreach(not_compiled, j, f)
				nc |= !strcmp(json_string_value(f), str(x, "file"));
			json_array_foreach(failed, j, f)
				nc |= !strcmp(str(f, "file"), str(x, "file"));
			if (!nc)
				continue;
			lk = cocci_layer(&c, str(x, "ops_type"));
			lay = layer_get(&c, lk);
			if (!lay && strcmp(str(x, "ops_type"), "file_operations")) {
				free(lk);
				continue;
			}
			{
				bool np = lay && lay->not_poll;
				const char *cls = np ? "not-poll" : str(x, "class");
				json_t *out = json_pack("{s:s, s:s, s:O, s:s, s:s, s:s, s:s, s:[], s:s, s:b, s:[], s:[],"
							" s:[], s:[], s:[], s:[], s:b, s:s, s:O}",
							"function", str(x, "function"), "file", str(x, "file"),
							"line", json_object_get(x, "line"), "layer", lk,
							"class", cls, "convertible", np ? "excluded" : "no",
							"reason", "", "heads", "base", "",
							"unconditional", 0, "busy_poll", "delegates", "pt_uses",
							"ops", "creation_sites", "private_data_reassigned",
							"compiled", 0, "subsystem", "", "cocci", x);
				char *reason = xasprintf("not compiled by this configuration; classified by the "
							 "Coccinelle pass: %s", str(x, "reason"));
				const char *f = str(x, "file"), *s1 = strchr(f, '/');
				const char *s2 = s1 ? strchr(s1 + 1, '/') : NULL;
				char *sub = s2 ? xstrndup(f, (size_t)(s2 - f)) : xstrdup(".");

				json_object_set_new(out, "reason", json_string(reason));
				json_object_set_new(out, "subsystem", json_string(sub));
				json_array_append_new(list, out);
				free(reason);
				free(sub);
			}
			free(lk);
		}
	}
	sorted = xcalloc(json_array_size(list) + 1, sizeof(*sorted));
	json_array_foreach(list, i, x)
		sorted[i] = x;
	qsort(sorted, json_array_size(list), sizeof(*sorted), cmp_impl);
	res = json_array();
	for (i = 0; i < json_array_size(list); i++) {
		json_t *cr;

		x = sorted[i];
		json_array_append(res, x);
		count(by_class, str(x, "class"));
		count(by_conv, str(x, "convertible"));
		cr = json_object_get(x, "cocci");
		if (json_is_object(cr) && json_is_true(json_object_get(x, "compiled")) &&
		    strcmp(str(x, "class"), "not-poll") && strcmp(str(x, "class"), "converted") &&
		    strcmp(class_family(str(x, "class")), class_family(str(cr, "class"))))
			json_array_append_new(dis, json_pack("{s:s, s:s, s:O, s:s, s:s, s:I, s:s, s:s}",
							     "function", str(x, "function"), "file", str(x, "file"),
							     "line", json_object_get(x, "line"),
							     "polltax", str(x, "class"), "cocci", str(cr, "class"),
							     "polltax_heads",
							     (json_int_t)json_array_size(json_object_get(x, "heads")),
							     "cocci_heads", str(cr, "heads"), "cocci_reason",
							     str(cr, "reason")));
	}
	free(sorted);
	for (i = 0; i < c.ops.n; i++) {
		struct ops_rec *o = c.ops.v[i];

		if (!strcmp(o->type, "file_operations") && (member_named(o, "poll") || member_named(o, "poll_mask")))
			n_ops++;
	}
	for (i = 0; i < c.layers.n; i++) {
		struct layer *l = c.layers.v[i];

		if (!l->not_poll)
			json_array_append_new(layers_out, json_pack("{s:s, s:s, s:b}", "layer", l->key, "found_via",
								    l->found_via ? l->found_via : "", "busy_poll",
								    l->busy));
	}
	{
		json_t *tree = json_pack("{s:s}", "version", t->version);
		json_t *counts;
		json_int_t total = 0;
		json_t *v2;

		if (t->describe)
			json_object_set_new(tree, "git_describe", json_string(t->describe));
		if (t->head)
			json_object_set_new(tree, "git_head", json_string(t->head));
		json_object_foreach(by_class, k, v2)
			if (strcmp(k, "not-poll"))
				total += json_integer_value(v2);
		counts = json_pack("{s:o, s:o, s:I, s:I, s:I}", "by_class", by_class, "by_convertible", by_conv,
				   "implementations", total, "file_operations_with_poll", (json_int_t)n_ops,
				   "disagreements", (json_int_t)json_array_size(dis));
		x = json_pack("{s:i, s:s, s:o, s:o, s:o, s:o, s:o}", "schema", 1, "tool", "polltax 0.1",
			      "tree", tree, "counts", counts, "layers", layers_out, "implementations", res,
			      "disagreements", dis);
	}
	for (i = 0; i < im.n; i++) {
		free(im.v[i].key);
		free(im.v[i].name);
		free(im.v[i].file);
		free(im.v[i].ops.v);
	}
	free(im.v);
	smap_free(&im.index, NULL);
	json_decref(list);
	json_decref(used_cocci);
	facts_free(&c);
	return x;
}
