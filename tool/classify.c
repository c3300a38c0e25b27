// SPDX-License-Identifier: GPL-2.0
/*
 * classify.c - from facts to classes (TAXONOMY.md, all of it).
 *
 * 1. Index: function summaries by key (static: "file:name", else "name"),
 *    ops initializers and run-time assignments, creation-site references,
 *    private_data assignments, queues freed with wake_up_pollfree().
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
#include "classify.h"
#include "json_util.h"

#include <stdlib.h>
#include <string.h>

struct cx {
	const struct tree *t;
	json_t *fns;		/* key -> summary (+ "_file") */
	json_t *fns_by_name;	/* name -> [keys] */
	json_t *reach;		/* key -> result, or "busy" marker */
	json_t *ops;		/* array of ops records (+ "file") */
	json_t *assigns;	/* array (+ "file") */
	json_t *refs;		/* "file\tvar" and "var" -> [refs + file] */
	json_t *pd;		/* "file:function" -> [private_data sets] */
	json_t *ph;		/* "file:function" -> [f_poll_head sets] */
	json_t *defs;		/* "file:function" -> [line, end] */
	json_t *pollfree;	/* "struct.field" -> true */
	json_t *errors;		/* file -> [errors] */
	json_t *layers;		/* "type.member" -> {...} */
	json_t *open_users;	/* open function key -> {poll function key: true} */
	json_t *field_sets;	/* "struct.field" -> [{file, in}] pointer members written */
	json_t *def_file;	/* extern function name -> file that defines it */
	json_t *returns;	/* extern function name -> what its result is derived from */
	json_t *followed;	/* "type.member" callbacks followed like helpers (not layers) */
};

/* Where a function named by an ops member is defined: its own file, or the extern definition. */
static const char *def_file_of(struct cx *c, json_t *m, const char *recfile)
{
	const char *f = json_string_value(json_object_get(m, "file"));
	const char *name = json_string_value(json_object_get(m, "function"));
	char *k;
	bool known;

	if (!f || !*f)
		f = recfile;
	k = xasprintf("%s:%s", f, name ? name : "");
	known = json_object_get(c->defs, k) != NULL;
	free(k);
	if (!known && !json_is_true(json_object_get(m, "static")) && name &&
	    json_string_value(json_object_get(c->def_file, name)))
		return json_string_value(json_object_get(c->def_file, name));
	return f;
}

static json_t *push(json_t *obj, const char *key)
{
	json_t *a = json_object_get(obj, key);

	if (!a) {
		a = json_array();
		json_object_set_new(obj, key, a);
	}
	return a;
}

static void index_facts(struct cx *c, json_t *tus)
{
	size_t i, j;
	json_t *tu, *v;

	json_array_foreach(tus, i, tu) {
		const char *file = jstr(tu, "file");
		const char *k;

		json_array_foreach(json_object_get(tu, "functions"), j, v) {
			bool st = json_is_true(json_object_get(v, "static"));
			char *key = st ? xasprintf("%s:%s", jstr(v, "file"), jstr(v, "name"))
				       : xstrdup(jstr(v, "name"));

			if (!json_object_get(c->fns, key)) {
				json_object_set(c->fns, key, v);
				json_array_append_new(push(c->fns_by_name, jstr(v, "name")), json_string(key));
			}
			free(key);
		}
		json_array_foreach(json_object_get(tu, "ops"), j, v) {
			json_t *o = json_deep_copy(v);

			json_object_set_new(o, "file", json_string(file));
			json_array_append_new(c->ops, o);
		}
		json_array_foreach(json_object_get(tu, "assigns"), j, v) {
			json_t *o = json_deep_copy(v);

			json_object_set_new(o, "file", json_string(file));
			json_array_append_new(c->assigns, o);
		}
		json_array_foreach(json_object_get(tu, "refs"), j, v) {
			json_t *o = json_deep_copy(v), *uf;
			char *key = xasprintf("%s\t%s", file, jstr(v, "var"));
			size_t m;

			json_object_set_new(o, "file", json_string(file));
			json_array_append(push(c->refs, key), o);
			/* a unity build: a static of the other .c files of the unit (unity.c) */
			json_array_foreach(json_object_get(tu, "unit"), m, uf) {
				char *uk = xasprintf("%s\t%s", json_string_value(uf), jstr(v, "var"));

				if (strcmp(json_string_value(uf), file))
					json_array_append(push(c->refs, uk), o);
				free(uk);
			}
			json_array_append_new(push(c->refs, jstr(v, "var")), o);
			free(key);
		}
		json_array_foreach(json_object_get(tu, "private_data_sets"), j, v) {
			char *key = xasprintf("%s:%s", file, jstr(v, "in"));

			json_array_append(push(c->pd, key), v);
			free(key);
		}
		json_array_foreach(json_object_get(tu, "poll_head_sets"), j, v) {
			char *key = xasprintf("%s:%s", file, jstr(v, "in"));

			json_array_append(push(c->ph, key), v);
			free(key);
		}
		json_object_foreach(json_object_get(tu, "defs"), k, v) {
			char *key = xasprintf("%s:%s", file, k);

			json_object_set(c->defs, key, v);
			if (!json_object_get(c->def_file, k))
				json_object_set_new(c->def_file, k, json_string(file));
			free(key);
		}
		json_object_foreach(json_object_get(tu, "field_sets"), k, v) {
			json_t *fnm;
			size_t m;

			json_array_foreach(v, m, fnm)
				json_array_append_new(push(c->field_sets, k),
						      json_pack("{s:s, s:O}", "file", file, "in", fnm));
		}
		json_object_foreach(json_object_get(tu, "returns"), k, v)
			if (!json_object_get(c->returns, k))
				json_object_set(c->returns, k, v);
		json_array_foreach(json_object_get(tu, "pollfree"), j, v)
			json_object_set_new(c->pollfree, json_string_value(v), json_true());
		if (json_array_size(json_object_get(tu, "errors")))
			json_object_set(c->errors, file, json_object_get(tu, "errors"));
	}
}

/*
 * file_operations filled in at run time ("fops->poll = x; fops->open = y;"):
 * the members assigned through one object in one function make one ops
 * record, merged into the object's static initializer when there is one.
 */
static void group_assignments(struct cx *c)
{
	size_t i, j;
	json_t *a, *o;

	json_array_foreach(c->assigns, i, a) {
		const char *lhs = jstr(a, "lhs"), *member = jstr(a, "member");
		size_t ll = strlen(lhs), ml = strlen(member);
		char *base;
		json_t *rec = NULL;

		if (strcmp(jstr(a, "type"), "file_operations") || ll <= ml)
			continue;
		base = xstrndup(lhs, ll - ml);
		if (ll - ml >= 2 && !strcmp(base + ll - ml - 2, "->"))
			base[ll - ml - 2] = '\0';
		else if (base[ll - ml - 1] == '.')
			base[ll - ml - 1] = '\0';
		json_array_foreach(c->ops, j, o) {
			if (!strcmp(jstr(o, "file"), jstr(a, "file")) && !strcmp(jstr(o, "var"), base) &&
			    !strcmp(jstr(o, "type"), "file_operations") &&
			    (!json_object_get(o, "assigned_in") || !strcmp(jstr(o, "assigned_in"), jstr(a, "in")) ||
			     !json_object_get(o, "assigned_in"))) {
				rec = o;
				break;
			}
		}
		if (!rec) {
			rec = json_pack("{s:s, s:s, s:s, s:O, s:b, s:s, s:{}, s:{}, s:s}", "var", base,
					"type", "file_operations", "file", jstr(a, "file"), "line",
					json_object_get(a, "line"), "static", 0, "macro", "", "members",
					"pt_members", "assigned_in", jstr(a, "in"));
			json_array_append_new(c->ops, rec);
		}
		json_object_set_new(json_object_get(rec, "members"), member,
				    json_pack("{s:s, s:s, s:O}", "function", jstr(a, "function"), "file",
					      jstr(a, "function_file"), "static", json_object_get(a, "static")));
		json_object_set_new(rec, "via_assignment", json_true());
		json_object_set_new(a, "grouped", json_true());
		free(base);
	}
}

/* The summary a call or an ops member names: FILE's own, else the extern one, else any. */
static json_t *lookup_fn(struct cx *c, const char *name, const char *file, bool st, const char **keyp)
{
	char *key = xasprintf("%s:%s", file, name);
	json_t *f = json_object_get(c->fns, key), *keys, *k;
	size_t i;

	if (f) {
		*keyp = json_object_iter_key(json_object_iter_at(c->fns, key));
		free(key);
		return f;
	}
	free(key);
	if ((f = json_object_get(c->fns, name))) {
		*keyp = json_object_iter_key(json_object_iter_at(c->fns, name));
		return f;
	}
	/*
	 * a header's static inline seen from another file: the same text
	 * under another key (never another .c file's static of that name)
	 */
	keys = json_object_get(c->fns_by_name, name);
	json_array_foreach(keys, i, k) {
		const char *colon = strchr(json_string_value(k), ':');

		if (st && colon && colon - json_string_value(k) > 2 && !strncmp(colon - 2, ".h", 2)) {
			*keyp = json_string_value(k);
			return json_object_get(c->fns, json_string_value(k));
		}
	}
	return NULL;
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
					const char *pn = jstr(pa, "name");

					if (strlen(pn) == (size_t)(e - p) && !strncmp(pn, p, (size_t)(e - p)) &&
					    i < json_array_size(args)) {
						const char *at = jstr(json_array_get(args, i), "text");
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
	const char *callee = jstr(b, "callee");
	json_t *r, *rr, *o;

	if (strcmp(jstr(b, "k"), "call"))
		return json_incref(b);
	r = json_object_get(c->returns, callee);
	if (!r) {
		if (json_string_value(json_object_get(c->def_file, callee)))
			return json_pack("{s:s, s:s+}", "k", "unknown", "why", callee,
					 "() returns no pointer the analysis can follow");
		return json_pack("{s:s, s:s+}", "k", "unknown", "why", callee,
				 "() is only declared: its body was not seen");
	}
	if (depth > 8)
		return json_pack("{s:s, s:s}", "k", "unknown", "why", "calls nested too deep");
	rr = resolve_base(c, r, depth + 1);
	if (!strcmp(jstr(rr, "k"), "param")) {
		json_decref(rr);
		if (!json_is_true(json_object_get(b, "acc")) || json_is_true(json_object_get(b, "global_arg")))
			return json_pack("{s:s, s:s}", "k", "dynamic", "why",
					 jstr(b, "why")[0] ? jstr(b, "why") : "looked up from several objects");
		o = json_pack("{s:s, s:O, s:s}", "k", "param", "param", json_object_get(b, "param"), "first",
			      jstr(b, "first"));
		if (json_object_get(b, "fields"))
			json_object_set(o, "fields", json_object_get(b, "fields"));
		return o;
	}
	return rr;
}

static json_t *compose(struct cx *c, json_t *hb0, json_t *args)
{
	json_t *ab, *hb = hb0, *res;

	if (strcmp(jstr(hb, "k"), "param"))
		return json_incref(hb);
	ab = json_object_get(json_array_get(args, (size_t)json_integer_value(json_object_get(hb, "param"))),
			     "base");
	if (!ab)
		return json_pack("{s:s, s:s}", "k", "unknown", "why", "argument missing");
	ab = resolve_base(c, ab, 0);
	if (!strcmp(jstr(ab, "k"), "param")) {
		const char *first = jstr(ab, "first")[0] ? jstr(ab, "first") : jstr(hb, "first");

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

static json_t *reach(struct cx *c, const char *key, json_t *fn);
static void for_each_member(struct cx *c, const char *type, const char *member,
			    void (*cb)(struct cx *, json_t *rec, json_t *m, void *), void *d);

/*
 * The heads a callee registers, seen from the call EV: its parameters
 * replaced by the caller's arguments, in the text and in the derivation.
 */
static void merge_callee(struct cx *c, json_t *r, json_t *ev, const char *cname, const char *ck,
			 json_t *callee, bool cond)
{
	json_t *args = json_object_get(ev, "args"), *sub = reach(c, ck, callee), *h;
	size_t j;

	json_array_foreach(json_object_get(sub, "heads"), j, h) {
		char *e = subst(jstr(h, "resolved"), json_object_get(callee, "params"), args);
		char *n = norm(e);
		char *via = jstr(h, "via")[0] ? xasprintf("%s() -> %s", cname, jstr(h, "via"))
					     : xasprintf("%s()", cname);

		json_array_append_new(json_object_get(r, "heads"),
				      json_pack("{s:O, s:s, s:s, s:s, s:o, s:b, s:s, s:s, s:O, s:s}",
						"site", json_object_get(ev, "line"),
						"expr", jstr(h, "expr"), "resolved", e, "norm", n,
						"base", compose(c, json_object_get(h, "base"), args),
						"cond", cond || json_is_true(json_object_get(h, "cond")) ||
							json_is_true(json_object_get(h, "guarded")),
						"via", via, "file", jstr(h, "file"),
						"line", json_object_get(h, "line"),
						"field", jstr(h, "field")));
		free(e);
		free(n);
		free(via);
	}
	json_array_extend(json_object_get(r, "icalls"), json_object_get(sub, "icalls"));
	json_array_extend(json_object_get(r, "unresolved"), json_object_get(sub, "unresolved"));
	json_array_extend(json_object_get(r, "busy"), json_object_get(sub, "busy"));
	json_array_extend(json_object_get(r, "pt_uses"), json_object_get(sub, "pt_uses"));
}

struct targets {
	json_t *keys;		/* function key -> member record */
};

static void target_cb(struct cx *c, json_t *rec, json_t *m, void *d)
{
	struct targets *t = d;
	bool st = json_is_true(json_object_get(m, "static"));
	const char *f = jstr(m, "file")[0] ? jstr(m, "file") : jstr(rec, "file");
	char *key = st ? xasprintf("%s:%s", f, jstr(m, "function")) : xstrdup(jstr(m, "function"));

	(void)c;
	json_object_set(t->keys, key, m);
	free(key);
}

/*
 * The poll_table handed to a callback that is not a poll method (an
 * ioctl-like command op): every function the tree puts in that member is a
 * target, followed like a helper.  No target found, or one whose body was
 * not seen: nothing can be said of the heads (unknown).
 */
static void follow_callback(struct cx *c, json_t *r, json_t *ev, json_t *fn, bool cond)
{
	struct targets t = { json_object() };
	const char *tk;
	json_t *m;
	bool ok = jstr(ev, "type")[0] != '\0';

	if (ok) {
		char *fk = xasprintf("%s.%s", jstr(ev, "type"), jstr(ev, "member"));

		json_object_set_new(c->followed, fk, json_true());
		free(fk);
	}

	if (ok)
		for_each_member(c, jstr(ev, "type"), jstr(ev, "member"), target_cb, &t);
	ok = ok && json_object_size(t.keys) > 0;
	json_object_foreach(t.keys, tk, m) {
		const char *ck = NULL;
		json_t *callee = lookup_fn(c, jstr(m, "function"), jstr(m, "file"),
					   json_is_true(json_object_get(m, "static")), &ck);

		if (!callee || json_integer_value(json_object_get(callee, "pt")) < 0) {
			ok = false;
			break;
		}
	}
	if (!ok) {
		json_array_append_new(json_object_get(r, "unresolved"),
				      json_pack("{s:s, s:s, s:O, s:s}", "callee", jstr(ev, "expr"),
						"file", jstr(fn, "file"), "line", json_object_get(ev, "line"),
						"why", "a callback whose targets are not all known"));
	} else {
		json_object_foreach(t.keys, tk, m) {
			const char *ck = NULL;
			json_t *callee = lookup_fn(c, jstr(m, "function"), jstr(m, "file"),
						   json_is_true(json_object_get(m, "static")), &ck);

			merge_callee(c, r, ev, jstr(m, "function"), ck, callee, cond);
		}
	}
	json_decref(t.keys);
}

static json_t *reach(struct cx *c, const char *key, json_t *fn)
{
	json_t *r = json_object_get(c->reach, key), *ev;
	size_t i;
	bool early = false, registered = false;

	if (r)
		return r;
	json_object_set_new(c->reach, key, empty_reach());	/* recursion guard */
	r = empty_reach();
	if (json_is_true(json_object_get(fn, "busy_text")))
		json_array_append_new(json_object_get(r, "busy"), json_string("POLL_BUSY_LOOP"));
	json_array_foreach(json_object_get(fn, "events"), i, ev) {
		const char *k = jstr(ev, "k");
		bool cond = json_is_true(json_object_get(ev, "cond")) || early;

		if (!strcmp(k, "wait")) {
			char *n = norm(jstr(ev, "head"));

			json_array_append_new(json_object_get(r, "heads"),
					      json_pack("{s:s, s:s, s:s, s:o, s:b, s:s, s:s, s:O, s:s, s:b}",
							"expr", jstr(ev, "head"), "resolved", jstr(ev, "head"), "norm", n,
							"base", resolve_base(c, json_object_get(ev, "base"), 0), "cond", cond,
							"via", "", "file", jstr(fn, "file"),
							"line", json_object_get(ev, "line"),
							"field", jstr(ev, "field"),
							"guarded", json_array_size(json_object_get(r, "guards")) > 0));
			free(n);
			registered = true;
		} else if (!strcmp(k, "call")) {
			const char *ck = NULL;
			json_t *callee = lookup_fn(c, jstr(ev, "callee"), jstr(ev, "callee_file"),
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
								"file", jstr(fn, "file"), "line",
								json_object_get(ev, "line"), "into", jstr(ev, "callee")));
				continue;
			}
			if (!callee || json_integer_value(json_object_get(callee, "pt")) < 0) {
				json_array_append_new(json_object_get(r, "unresolved"),
						      json_pack("{s:s, s:s, s:O}", "callee", jstr(ev, "callee"),
								"file", jstr(fn, "file"), "line",
								json_object_get(ev, "line")));
				continue;
			}
			merge_callee(c, r, ev, jstr(ev, "callee"), ck, callee, cond);
		} else if (!strcmp(k, "icall") && json_is_false(json_object_get(ev, "poll_method"))) {
			registered = true;
			follow_callback(c, r, ev, fn, cond);
		} else if (!strcmp(k, "icall")) {
			registered = true;
			json_array_append_new(json_object_get(r, "icalls"),
					      json_pack("{s:s, s:s, s:s, s:s, s:O}", "expr", jstr(ev, "expr"),
							"type", jstr(ev, "type"), "member", jstr(ev, "member"),
							"file", jstr(fn, "file"), "line", json_object_get(ev, "line")));
		} else if (!strcmp(k, "pt_use")) {
			json_array_append_new(json_object_get(r, "pt_uses"),
					      json_pack("{s:s, s:s, s:O, s:s}", "what", jstr(ev, "what"),
							"file", jstr(fn, "file"), "line", json_object_get(ev, "line"),
							"into", jstr(ev, "into")));
		} else if (!strcmp(k, "busy")) {
			json_array_append_new(json_object_get(r, "busy"), json_string(jstr(ev, "what")));
		} else if (!strcmp(k, "return") || !strcmp(k, "goto")) {
			if (!registered && !strcmp(k, "return") && json_object_get(ev, "null_test")) {
				/* if (!dev) return ...: impossible when dev is never NULL (decide()) */
				json_array_append_new(json_object_get(r, "guards"),
						      json_pack("{s:o, s:s, s:s, s:O}", "base",
								resolve_base(c, json_object_get(ev, "null_test"), 0),
								"text", jstr(ev, "null_text"), "file", jstr(fn, "file"),
								"line", json_object_get(ev, "line")));
			} else if (!registered) {
				early = true;
			}
		}
	}
	json_object_set_new(r, "early", json_boolean(early));
	json_object_set(c->reach, key, r);
	json_decref(r);
	return r;
}

/* ---- implementations ---------------------------------------------------------- */

struct impl {
	char *key;		/* function key */
	json_t *fn;		/* summary, or NULL when not parsed */
	char *name, *file;
	const char *layer;	/* "type.member" */
	json_t *ops;		/* [ops records / assigns that point at it] */
	bool converted;		/* a poll_mask member */
};

struct impls {
	struct impl *v;
	size_t n, alloc;
	json_t *index;		/* key|layer -> index */
};

static struct impl *impl_get(struct impls *im, const char *key, const char *name, const char *file,
			     const char *layer, bool converted)
{
	char *ik = xasprintf("%s|%s", key, converted ? "poll_mask" : "poll");
	json_t *hit = json_object_get(im->index, ik);
	struct impl *p;

	if (hit) {
		free(ik);
		return &im->v[json_integer_value(hit)];
	}
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
	p->ops = json_array();
	p->converted = converted;
	json_object_set_new(im->index, ik, json_integer((json_int_t)im->n));
	im->n++;
	free(ik);
	return p;
}

/* Every (ops record or assignment) that gives TYPE.MEMBER a function: call CB. */
static void for_each_member(struct cx *c, const char *type, const char *member,
			    void (*cb)(struct cx *, json_t *rec, json_t *m, void *), void *d)
{
	size_t i;
	json_t *o;

	json_array_foreach(c->ops, i, o) {
		json_t *m = json_object_get(json_object_get(o, "members"), member);

		if (m && !strcmp(jstr(o, "type"), type))
			cb(c, o, m, d);
	}
	json_array_foreach(c->assigns, i, o) {
		if (json_is_true(json_object_get(o, "grouped")))
			continue;
		if (!strcmp(jstr(o, "type"), type) && !strcmp(jstr(o, "member"), member)) {
			json_t *m = json_pack("{s:s, s:s, s:O}", "function", jstr(o, "function"), "file",
					      jstr(o, "function_file"), "static", json_object_get(o, "static"));

			cb(c, o, m, d);
			json_decref(m);
		}
	}
}

struct collect {
	struct impls *im;
	const char *layer;
	bool converted;
};

static void fn_key_of(json_t *m, const char *recfile, char **key, const char **file)
{
	bool st = json_is_true(json_object_get(m, "static"));
	const char *f = jstr(m, "file")[0] ? jstr(m, "file") : recfile;

	*file = f;
	*key = st ? xasprintf("%s:%s", f, jstr(m, "function")) : xstrdup(jstr(m, "function"));
}

static void collect_cb(struct cx *c, json_t *rec, json_t *m, void *d)
{
	struct collect *cl = d;
	const char *file, *k = NULL;
	char *key;
	struct impl *p;
	json_t *fn;

	fn_key_of(m, jstr(rec, "file"), &key, &file);
	fn = lookup_fn(c, jstr(m, "function"), file, json_is_true(json_object_get(m, "static")), &k);
	if (fn) {
		free(key);
		key = xstrdup(k);
		file = jstr(fn, "file");
	}
	/*
	 * not summarized: report it where it is used, but a converted
	 * ->poll_mask (no poll_table: no summary) where it is defined, so that
	 * one a macro's ops use (DRM_GEM_FOPS) is the function it was before
	 */
	if (!fn)
		file = cl->converted ? def_file_of(c, m, jstr(rec, "file")) : jstr(rec, "file");
	p = impl_get(cl->im, key, jstr(m, "function"), file, cl->layer, cl->converted);
	p->fn = fn;
	json_array_append(p->ops, rec);
	free(key);
}

/* Lower layers: what the implementations of LAYER pass their poll_table to. */
static void discover_layers(struct cx *c, struct impls *im)
{
	bool changed = true;

	json_object_set_new(c->layers, "file_operations.poll",
			    json_pack("{s:s, s:s, s:s, s:b}", "type", "file_operations", "member", "poll",
				      "found_via", "struct file_operations (the VFS)", "busy", 0));
	while (changed) {
		const char *lk;
		json_t *lv;
		void *tmp;

		changed = false;
		json_object_foreach_safe(c->layers, tmp, lk, lv) {
			struct collect cl = { im, NULL, false };
			size_t before = im->n;

			if (json_is_true(json_object_get(lv, "done")))
				continue;
			json_object_set_new(lv, "done", json_true());
			cl.layer = lk;
			for_each_member(c, jstr(lv, "type"), jstr(lv, "member"), collect_cb, &cl);
			for (size_t i = 0; i < im->n; i++) {
				struct impl *p = &im->v[i];
				json_t *r, *ic;
				size_t j;

				if (strcmp(p->layer, lk) || !p->fn)
					continue;
				(void)before;
				r = reach(c, p->key, p->fn);
				json_array_foreach(json_object_get(r, "icalls"), j, ic) {
					char *nk;

					if (!jstr(ic, "type")[0])
						continue;
					nk = xasprintf("%s.%s", jstr(ic, "type"), jstr(ic, "member"));
					if (!json_object_get(c->layers, nk)) {
						char *via = xasprintf("%s() %s:%lld calls %s", p->name,
								      jstr(ic, "file"),
								      json_integer_value(json_object_get(ic, "line")),
								      jstr(ic, "expr"));

						json_object_set_new(c->layers, nk,
								    json_pack("{s:s, s:s, s:s, s:b, s:s}",
									      "type", jstr(ic, "type"),
									      "member", jstr(ic, "member"),
									      "found_via", via, "busy",
									      json_array_size(json_object_get(r, "busy")) > 0 ||
									      json_is_true(json_object_get(lv, "busy")),
									      "caller", p->name));
						free(via);
						changed = true;
					}
					free(nk);
				}
			}
		}
	}
	/* converted implementations: file_operations.poll_mask */
	{
		struct collect cl = { im, "file_operations.poll_mask", true };

		for_each_member(c, "file_operations", "poll_mask", collect_cb, &cl);
	}
}

/* Not file polling: a member named poll of a struct that no file poll reaches. */
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

	/* (a poll_table's own _qproc takes one: the queueing callback, not a poll method) */
	if (!strcmp(type, "file_operations") || !strcmp(type, "poll_table_struct") ||
	    json_object_get(c->layers, lk) || json_object_get(c->followed, lk)) {
		free(lk);
		return;
	}
	json_object_set_new(c->layers, lk, json_pack("{s:s, s:s, s:s, s:b, s:b}", "type", type, "member", member,
						      "found_via", "its function takes a poll_table", "busy", 0,
						      "done", 1));
	cl.layer = json_object_iter_key(json_object_iter_at(c->layers, lk));
	for_each_member(c, type, member, collect_cb, &cl);
	free(lk);
}

static void collect_undiscovered(struct cx *c, struct impls *im)
{
	size_t i;
	json_t *o, *v;
	const char *k;

	json_array_foreach(c->ops, i, o)
		json_object_foreach(json_object_get(o, "pt_members"), k, v)
			undiscovered(c, im, jstr(o, "type"), k);
	json_array_foreach(c->assigns, i, o)
		if (json_is_true(json_object_get(o, "pt")) && !json_is_true(json_object_get(o, "grouped")))
			undiscovered(c, im, jstr(o, "type"), jstr(o, "member"));
}

static void collect_not_poll(struct cx *c, struct impls *im)
{
	size_t i;
	json_t *o;

	json_array_foreach(c->ops, i, o) {
		char *lk;
		json_t *m = json_object_get(json_object_get(o, "members"), "poll");

		if (!m)
			continue;
		lk = xasprintf("%s.poll", jstr(o, "type"));
		if (json_object_get(c->layers, lk)) {
			free(lk);
			continue;
		}
		json_object_set_new(c->layers, lk, json_pack("{s:s, s:s, s:b, s:b}", "type", jstr(o, "type"),
							      "member", "poll", "not_poll", 1, "done", 1));
		free(lk);
	}
	json_array_foreach(c->ops, i, o) {
		const char *lk2;
		json_t *lv;

		json_object_foreach(c->layers, lk2, lv) {
			const char *file, *k = NULL;
			char *key;
			json_t *m, *fn;
			struct impl *p;

			if (!json_is_true(json_object_get(lv, "not_poll")) || strcmp(jstr(lv, "type"), jstr(o, "type")))
				continue;
			m = json_object_get(json_object_get(o, "members"), "poll");
			if (!m)
				continue;
			fn_key_of(m, jstr(o, "file"), &key, &file);
			fn = lookup_fn(c, jstr(m, "function"), file, json_is_true(json_object_get(m, "static")), &k);
			p = impl_get(im, key, jstr(m, "function"), fn ? jstr(fn, "file") : file, lk2, false);
			p->fn = fn;
			json_array_append(p->ops, o);
			free(key);
		}
	}
	/* ... and a function given to such a member at run time (psmouse->poll = alps_poll) */
	json_array_foreach(c->assigns, i, o) {
		char *lk, *key;
		const char *file, *lkey, *k = NULL;
		json_t *lv, *m, *fn;
		struct impl *p;

		if (strcmp(jstr(o, "member"), "poll") || json_is_true(json_object_get(o, "grouped")))
			continue;
		lk = xasprintf("%s.poll", jstr(o, "type"));
		lv = json_object_get(c->layers, lk);
		if (lv && !json_is_true(json_object_get(lv, "not_poll"))) {
			free(lk);	/* a layer: discover_layers() has it */
			continue;
		}
		if (!lv)
			json_object_set_new(c->layers, lk, json_pack("{s:s, s:s, s:b, s:b}", "type", jstr(o, "type"),
								      "member", "poll", "not_poll", 1, "done", 1));
		lkey = json_object_iter_key(json_object_iter_at(c->layers, lk));
		m = json_pack("{s:s, s:s, s:O}", "function", jstr(o, "function"), "file", jstr(o, "function_file"),
			      "static", json_object_get(o, "static"));
		fn_key_of(m, jstr(o, "file"), &key, &file);
		fn = lookup_fn(c, jstr(m, "function"), file, json_is_true(json_object_get(m, "static")), &k);
		p = impl_get(im, key, jstr(m, "function"), fn ? jstr(fn, "file") : file, lkey, false);
		p->fn = fn;
		json_array_append(p->ops, o);
		json_decref(m);
		free(key);
		free(lk);
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

static json_t *pd_sets_of(struct cx *c, const char *file, const char *fn)
{
	char *k = xasprintf("%s:%s", file, fn);
	json_t *r = json_object_get(c->pd, k);

	free(k);
	return r;
}

static bool sets_private_data(struct cx *c, const char *file, const char *fn, int depth);

/* Where CN, called from a function of FILE, is defined: FILE's own, else the extern one, else NULL. */
static const char *callee_file(struct cx *c, const char *file, const char *cn)
{
	char *ck = xasprintf("%s:%s", file, cn);
	bool own = json_object_get(c->defs, ck) != NULL;

	free(ck);
	return own ? file : json_string_value(json_object_get(c->def_file, cn));
}
static bool all_sets_null(json_t *pd);

/*
 * Creation sites of ops record O (file_operations): its own ->open, calls
 * that create a file with it, framework registrations.  Also notes whether
 * each site can set f_poll_head (the file is at hand and the code is the
 * driver's own).
 */
static void creation_sites(struct cx *c, json_t *o, const char *poll_key, const char *poll_file, json_t *sites,
			   json_t *reassigned)
{
	json_t *members = json_object_get(o, "members"), *open = json_object_get(members, "open");
	const char *ofile = jstr(o, "file"), *mk;
	char *rk = xasprintf("%s\t%s", ofile, jstr(o, "var"));
	json_t *refs = json_object_get(c->refs, rk), *ref, *mv;
	size_t i;

	free(rk);
	if (!refs && !json_is_true(json_object_get(o, "static")))
		refs = json_object_get(c->refs, jstr(o, "var"));
	if (open) {
		const char *of = def_file_of(c, open, ofile);
		char *dk = xasprintf("%s:%s", of, jstr(open, "function"));
		json_t *def = json_object_get(c->defs, dk), *pd = pd_sets_of(c, of, jstr(open, "function"));
		/*
		 * An open can set f_poll_head for this poll only when every
		 * file_operations that opens with it polls with the same function
		 * (drm_open for drm_poll: yes; simple_open: no).
		 */
		json_t *users = json_object_get(c->open_users, dk);
		/*
		 * and only an open defined next to the ops or the poll: a library
		 * open (fs/libfs.c's simple_open) is never the driver's, even in a
		 * tree where one file_operations happens to use it.
		 */
		bool near = !strcmp(of, ofile) || !strcmp(of, poll_file);
		bool own = near && json_object_size(users) == 1 && json_object_get(users, poll_key);

		free(dk);
		json_t *site = json_pack("{s:s, s:s, s:s, s:I, s:b, s:b}", "kind", "open",
					 "function", jstr(open, "function"), "file", of,
					 "line", def ? json_integer_value(json_array_get(def, 0)) : 0,
					 "sets_private_data", sets_private_data(c, of, jstr(open, "function"), 0),
					 "settable", own && def != NULL);

		/* open leaves private_data NULL (fuse: the mount sets it later) */
		if (all_sets_null(pd))
			json_object_set_new(site, "private_data_null", json_true());
		json_array_append_new(sites, site);
	}
	json_array_foreach(refs, i, ref) {
		const char *ctx = jstr(ref, "ctx"), *fn = jstr(ref, "in");
		char *kind = NULL;
		bool settable = false, pd = false;

		if (!strncmp(ctx, "call:", 5)) {
			char *name = xstrdup(ctx + 5);

			*strrchr(name, ':') = '\0';
			if (in(file_returning, name)) {
				settable = true;
				pd = !strncmp(name, "anon_inode", 10) ||
				     json_array_size(pd_sets_of(c, jstr(ref, "file"), fn)) > 0;
			} else if (in(fd_returning, name)) {
				pd = true;
			} else if (!strcmp(name, "cdev_init")) {
				free(name);
				name = xstrdup("cdev");
			} else if (!in(framework_calls, name)) {
				free(name);
				continue;	/* a call that only looks at the fops */
			}
			kind = name;
		} else if (!strncmp(ctx, "init:", 5) || !strncmp(ctx, "assign:", 7)) {
			/* the fops handed to a framework object: who registers that object? */
			const char *tf = strchr(ctx, ':') + 1;
			char *type = xstrndup(tf, strcspn(tf, "."));

			if (!strcmp(tf, "file.f_op")) {
				kind = xstrdup("f_op switch");
			} else if (!strcmp(tf, "cdev.ops")) {
				kind = xstrdup("cdev");
			} else {
				kind = !strcmp(type, "miscdevice") ? xstrdup("misc_open")
				       : strstr(tf, "(anonymous") || strstr(tf, "(unnamed")
				       ? xasprintf("registered as %s", strrchr(tf, '.') ? strrchr(tf, '.') + 1 : tf)
				       : xasprintf("registered as %s", tf);
				pd = !strcmp(type, "miscdevice");
				if (!strncmp(ctx, "init:", 5)) {
					char *vk = xasprintf("%s\t%s", jstr(ref, "file"), fn);
					json_t *vrefs = json_object_get(c->refs, vk), *vr;
					size_t m;

					json_array_foreach(vrefs, m, vr)
						if (!strncmp(jstr(vr, "ctx"), "call:", 5) && jstr(vr, "in")[0]) {
							fn = jstr(vr, "in");
							break;
						}
					free(vk);
				}
			}
			free(type);
		} else {
			continue;
		}
		json_array_append_new(sites, json_pack("{s:s, s:s, s:s, s:O, s:b, s:b}", "kind", kind,
						       "function", fn, "file", jstr(ref, "file"),
						       "line", json_object_get(ref, "line"),
						       "sets_private_data", pd, "settable", settable));
		free(kind);
	}
	/* private_data written by the ops' other methods: not fixed at creation */
	json_object_foreach(members, mk, mv) {
		json_t *pd, *s;
		size_t j;

		if (!strcmp(mk, "open") || !strcmp(mk, "release"))
			continue;
		pd = pd_sets_of(c, jstr(mv, "file")[0] ? jstr(mv, "file") : ofile, jstr(mv, "function"));
		json_array_foreach(pd, j, s)
			json_array_append_new(reassigned, json_pack("{s:s, s:s, s:O, s:s}", "function",
								    jstr(mv, "function"), "file",
								    jstr(mv, "file")[0] ? jstr(mv, "file") : ofile,
								    "line", json_object_get(s, "line"),
								    "member", mk));
	}
}

/* Does FN (in FILE), or a function it hands the file to, set file->private_data? */
/*
 * Are the private_data stores PD of one function all constants (NULL)?
 * Then the file is created with no object there (fuse's /dev/fuse: the
 * mount stores it later).  A NULL store on an error path beside a real
 * one (drm_open_helper()) leaves the object set.
 */
static bool all_sets_null(json_t *pd)
{
	json_t *e;
	size_t i;

	json_array_foreach(pd, i, e)
		if (strcmp(jstr(json_object_get(e, "base"), "k"), "const"))
			return false;
	return json_array_size(pd) > 0;
}

/* Does FN (or a function it hands the file to) store an object, not NULL, in private_data? */
static bool sets_private_data(struct cx *c, const char *file, const char *fn, int depth)
{
	char *k;
	json_t *def, *callee, *pd = pd_sets_of(c, file, fn);
	size_t i;
	bool r = false;

	if (json_array_size(pd))
		return !all_sets_null(pd);
	if (depth > 3)
		return false;
	k = xasprintf("%s:%s", file, fn);
	def = json_object_get(c->defs, k);
	free(k);
	json_array_foreach(json_array_get(def, 2), i, callee) {
		const char *cn = json_string_value(callee), *cf = callee_file(c, file, cn);

		if (cf && sets_private_data(c, cf, cn, depth + 1)) {
			r = true;
			break;
		}
	}
	return r;
}

/* ---- the verdict ------------------------------------------------------------ */

const char *class_family(const char *cls)
{
	if (!strncmp(cls, "single", 6))
		return "single";
	return cls;
}

static const char *base_name(json_t *base, json_t *fn, char *buf, size_t len)
{
	const char *k = jstr(base, "k");

	if (!strcmp(k, "param")) {
		int p = (int)json_integer_value(json_object_get(base, "param"));
		const char *first = jstr(base, "first");
		json_t *pa = json_array_get(json_object_get(fn, "params"), (size_t)p);

		if (p == (int)json_integer_value(json_object_get(fn, "file_param"))) {
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
	if (vasprintf(&s, fmt, ap) < 0)
		die("out of memory");
	va_end(ap);
	sb_reset(&v->reason);
	sb_adds(&v->reason, s);
	free(s);
}

static json_t *fn_errors(struct cx *c, json_t *fn)
{
	json_t *errs = json_object_get(c->errors, jstr(fn, "file")), *e;
	json_int_t a = json_integer_value(json_object_get(fn, "line"));
	json_int_t b = json_integer_value(json_object_get(fn, "end_line"));
	size_t i;

	json_array_foreach(errs, i, e) {
		json_int_t l = json_integer_value(json_object_get(e, "line"));

		if (!strcmp(jstr(e, "file"), jstr(fn, "file")) && l >= a && l <= b)
			return e;
	}
	return NULL;
}

/* Does FN (defined in FILE) run from method MK, itself or through the functions it hands the file to? */
static bool runs_from(struct cx *c, const char *file, const char *from, const char *fn, int depth)
{
	char *k;
	json_t *d, *x;
	size_t i;
	bool hit = false;

	if (!strcmp(from, fn))
		return true;
	if (depth > 4)
		return false;
	k = xasprintf("%s:%s", file, from);
	d = json_object_get(c->defs, k);
	free(k);
	json_array_foreach(json_array_get(d, 2), i, x)
		if (!hit && strcmp(json_string_value(x), from))
			hit = runs_from(c, file, json_string_value(x), fn, depth + 1);
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
	json_t *f, *st, *o, *mv;
	size_t fi, si, oi;
	const char *k;

	json_array_foreach(fields, fi, f) {
		*fk = json_string_value(f);
		if ((skip_last && fi + 1 == json_array_size(fields)) || !strcmp(*fk, "file.private_data"))
			continue;
		json_array_foreach(json_object_get(c->field_sets, *fk), si, st) {
			json_array_foreach(p->ops, oi, o) {
				json_object_foreach(json_object_get(o, "members"), k, mv) {
					const char *mf = def_file_of(c, mv, jstr(o, "file"));

					if (!strcmp(k, "open") || !strcmp(k, "release") || strcmp(jstr(st, "file"), mf) ||
					    !runs_from(c, mf, jstr(mv, "function"), jstr(st, "in"), 0))
						continue;
					*setter = jstr(st, "in");
					*mk = k;
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
	char *dk = xasprintf("%s:%s", file, fn);
	json_t *d = json_object_get(c->defs, dk), *x;
	const char *r = NULL;
	size_t i;

	free(dk);
	if (!d)
		return fn;
	if (depth > 4)
		return NULL;
	json_array_foreach(json_array_get(d, 2), i, x) {
		const char *cn = json_string_value(x), *cf = callee_file(c, file, cn);

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
	json_t *o, *mv;
	size_t i;
	const char *k;

	json_array_foreach(p->ops, i, o) {
		json_object_foreach(json_object_get(o, "members"), k, mv) {
			const char *u = unseen_from(c, def_file_of(c, mv, jstr(o, "file")), jstr(mv, "function"), 0);

			if (u) {
				*mk = k;
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
	json_t *layer = json_object_get(c->layers, p->layer), *r = NULL, *heads = json_array();
	json_t *sites = json_array(), *reassigned = json_array(), *opsout = json_array();
	json_t *distinct = json_object(), *sites_of_text = json_object(), *o, *h, *e;
	bool is_root = !strcmp(p->layer, "file_operations.poll") || p->converted;
	json_t *plan_out = NULL;	/* where the conversion sets f_poll_head */
	bool uncond = true, guard_fails = false;
	const char *base = "";
	char bbuf[128];
	size_t i;

	json_array_foreach(p->ops, i, o) {
		const char *via = jstr(o, "macro")[0] ? "macro" :
				  json_object_get(o, "member") || json_object_get(o, "via_assignment") ? "assignment"
												     : "initializer";
		json_t *rec = json_pack("{s:s, s:s, s:s, s:O, s:s}", "var",
					json_object_get(o, "member") ? jstr(o, "lhs") : jstr(o, "var"),
					"type", jstr(o, "type"), "file", jstr(o, "file"), "line",
					json_object_get(o, "line"), "via", via);

		if (jstr(o, "macro")[0])
			json_object_set_new(rec, "macro", json_string(jstr(o, "macro")));
		if (!json_object_get(o, "member") && !strcmp(jstr(o, "type"), "file_operations"))
			creation_sites(c, o, p->key, p->file, sites, reassigned);
		json_array_append_new(opsout, rec);
	}

	if (json_is_true(json_object_get(layer, "not_poll"))) {
		set_verdict(&v, "not-poll", "%s.poll is not file polling: no file poll passes its poll_table to it",
			    jstr(layer, "type"));
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
	if (!strcmp(jstr(layer, "found_via"), "its function takes a poll_table")) {
		/* whether the unseen caller busy-polls or delegates is not known */
		set_verdict(&v, "unknown", "%s is a poll method (its function takes a poll_table), but no file "
			    "poll the scan saw calls it", p->layer);
		goto done;
	}
	if ((e = fn_errors(c, p->fn))) {
		set_verdict(&v, "unknown", "libclang could not parse %s() (%s:%lld: %s)", p->name, jstr(e, "file"),
			    json_integer_value(json_object_get(e, "line")), jstr(e, "msg"));
		goto done;
	}
	r = reach(c, p->key, p->fn);
	/*
	 * Heads are counted by object, not by text: the same text at two sites
	 * over a local that is assigned different objects (q = &dev->in; ...;
	 * q = &dev->out) is a head per registration site, reported as written
	 */
	json_array_foreach(json_object_get(r, "heads"), i, h) {
		json_t *hb0 = json_object_get(h, "base"), *st = json_object_get(sites_of_text, jstr(h, "norm"));
		char *sk = xasprintf("%lld", json_integer_value(json_object_get(h, json_object_get(h, "site") ? "site" : "line")));

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
	json_array_foreach(json_object_get(r, "heads"), i, h) {
		bool per_site = json_object_size(json_object_get(sites_of_text, jstr(h, "norm"))) >= 2;
		char *dkey = per_site
				     ? xasprintf("%s@%lld", jstr(h, "norm"),
						 json_integer_value(json_object_get(h, json_object_get(h, "site") ? "site" : "line")))
				     : xstrdup(jstr(h, "norm"));
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
								       "base", "dynamic", "via", jstr(h, "via"),
								       "file", jstr(h, "file"),
								       "line", json_object_get(h, "line"),
								       "conditional", 1, "chosen_by", jstr(h, "expr")));
			if (!json_array_size(alts))
				json_array_append_new(heads, json_pack("{s:s, s:s, s:s, s:s, s:s, s:O, s:b}", "expr",
								       jstr(h, "expr"), "resolved", jstr(h, "resolved"),
								       "base",
								       base_name(json_object_get(h, "base"), p->fn, bbuf,
										 sizeof(bbuf)),
								       "via", jstr(h, "via"), "file", jstr(h, "file"),
								       "line", json_object_get(h, "line"), "conditional",
								       json_is_true(json_object_get(h, "cond"))));
		} else if (!json_is_true(json_object_get(h, "cond"))) {
			json_object_set_new(json_array_get(heads, json_array_size(heads) - 1), "conditional",
					    json_false());
		}
		free(dkey);
	}
	if (json_array_size(json_object_get(r, "busy")) || json_is_true(json_object_get(layer, "busy"))) {
		if (json_array_size(json_object_get(r, "busy")))
			set_verdict(&v, "busy-poll", "socket poll that busy-polls (%s)",
				    json_string_value(json_array_get(json_object_get(r, "busy"), 0)));
		else
			set_verdict(&v, "busy-poll", "%s runs under %s(), which busy-polls", p->layer,
				    jstr(layer, "caller"));
		goto done;
	}
	if (json_array_size(json_object_get(r, "icalls"))) {
		json_t *ic = json_array_get(json_object_get(r, "icalls"), 0);

		if (jstr(ic, "type")[0])
			set_verdict(&v, "delegate", "forwards to %s (%s.%s)", jstr(ic, "expr"), jstr(ic, "type"),
				    jstr(ic, "member"));
		else
			set_verdict(&v, "delegate", "forwards its poll_table to %s", jstr(ic, "expr"));
		goto done;
	}
	if (json_array_size(json_object_get(r, "unresolved"))) {
		json_t *u = json_array_get(json_object_get(r, "unresolved"), 0);

		if (jstr(u, "why")[0])
			set_verdict(&v, "unknown", "passes its poll_table to %s, %s", jstr(u, "callee"),
				    jstr(u, "why"));
		else
			set_verdict(&v, "unknown", "passes its poll_table to %s(), whose body was not parsed",
				    jstr(u, "callee"));
		goto done;
	}
	json_array_foreach(json_object_get(r, "pt_uses"), i, e) {
		/*
		 * The table went where the analysis does not follow (stored,
		 * aliased, passed as another type): the queues registered there
		 * are not seen.  Two heads seen are already multi.
		 */
		if (json_object_size(distinct) >= 2 ||
		    (strcmp(jstr(e, "what"), "store") && strcmp(jstr(e, "what"), "escape")))
			continue;
		set_verdict(&v, "unknown", "the poll_table %s %s (%s:%lld): the queues registered through it "
			    "are not followed", !strcmp(jstr(e, "what"), "store") ? "is stored in" : "is passed to",
			    jstr(e, "into"), jstr(e, "file"), json_integer_value(json_object_get(e, "line")));
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
			sb_addf(&l, "%s%s", i ? ", " : "", jstr(h, "expr"));
		set_verdict(&v, "multi", "%zu wait queues: %s", json_object_size(distinct), l.buf);
		sb_release(&l);
		goto done;
	}
	h = json_array_get(json_object_get(r, "heads"), 0);
	{
		json_t *hb = json_object_get(h, "base");
		const char *bk = jstr(hb, "k");
		const char *hexpr = jstr(h, "expr");

		base = jstr(json_array_get(heads, 0), "base");
		if (!strcmp(bk, "dynamic")) {
			set_verdict(&v, "single-dynamic", "head %s is %s", hexpr, jstr(hb, "why"));
			goto done;
		}
		if (!strcmp(bk, "task")) {
			set_verdict(&v, "single-dynamic", "head %s is a per-task queue (current), not the file's",
				    hexpr);
			goto done;
		}
		if (jstr(h, "field")[0] && json_object_get(c->pollfree, jstr(h, "field"))) {
			set_verdict(&v, "single-dynamic", "head %s (%s) is freed with wake_up_pollfree(): "
				    "its lifetime is not the file's", hexpr, jstr(h, "field"));
			goto done;
		}
		if (strcmp(bk, "global") && strcmp(bk, "param")) {
			set_verdict(&v, "unknown", "cannot tell what head %s is derived from (%s)", hexpr,
				    jstr(hb, "why"));
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
						    "leaves NULL at open: it is set later", hexpr, jstr(s, "function"));
					goto done;
				}
		}
		if (!strcmp(base, "private_data") && json_array_size(reassigned)) {
			json_t *ra = json_array_get(reassigned, 0);

			set_verdict(&v, "single-dynamic", "head %s hangs off private_data, which %s() (->%s) "
				    "reassigns after open", hexpr, jstr(ra, "function"), jstr(ra, "member"));
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
				open_sets |= !strcmp(jstr(s, "kind"), "open") &&
					     (json_is_true(json_object_get(s, "sets_private_data")) ||
					      !strcmp(jstr(s, "function"), "simple_open"));
			json_array_foreach(sites, si, s) {
				const char *sk = jstr(s, "kind");
				bool direct = in(file_returning, sk) || in(fd_returning, sk);

				all_set = all_set && (json_is_true(json_object_get(s, "sets_private_data")) ||
						      !strcmp(sk, "misc_open") || !strcmp(jstr(s, "function"), "simple_open") ||
						      (!direct && strcmp(sk, "open") && open_sets));
			}
			json_array_foreach(json_object_get(r, "guards"), gi, g) {
				json_t *gb = json_object_get(g, "base");

				if (!all_set || json_array_size(reassigned) > 0 || strcmp(jstr(gb, "k"), "param") ||
				    json_integer_value(json_object_get(gb, "param")) !=
					    json_integer_value(json_object_get(p->fn, "file_param")) ||
				    strcmp(jstr(gb, "first"), "private_data") || !pd_itself(gb)) {
					uncond = false;
					guard_fails = true;
					break;
				}
			}
		}
		if (!uncond) {
			if ((guard_fails || json_is_true(json_object_get(r, "early"))) && !jstr(h, "via")[0])
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
				    jstr(hb, "name"));
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
			if (in(fd_returning, k) &&
			    (!strcmp(base, "private_data") || !strcmp(base, "global"))) {
				settable = true;
				json_object_set_new(s, "settable", json_true());
			}

			if (!strcmp(k, "open")) {
				if (settable) {
					own_open = true;
					json_array_append_new(plan, json_sprintf("open:%s", jstr(s, "function")));
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
				json_array_append_new(plan, json_sprintf("%s:%s", k, jstr(s, "function")));
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
			if (!strcmp(jstr(u, "what"), "poll_requested_events"))
				continue;
			if (!strcmp(v.conv, "yes") || !strcmp(v.conv, "needs-open")) {
				v.conv = "review";
				sb_addf(&v.reason, "; the poll_table is also used (%s at %s:%lld)",
					!strcmp(jstr(u, "what"), "other") ? "beyond poll_wait" : jstr(u, "what"),
					jstr(u, "file"), json_integer_value(json_object_get(u, "line")));
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
				json_array_append_new(dele, json_sprintf("%s (%s.%s)", jstr(x, "expr"),
									 jstr(x, "type"), jstr(x, "member")));
			json_array_foreach(json_object_get(r, "pt_uses"), i, x)
				json_array_append_new(ptu, json_sprintf("%s at %s:%lld", jstr(x, "what"),
									jstr(x, "file"),
									json_integer_value(json_object_get(x, "line"))));
		}
		{
			const char *f = p->file;
			const char *s1 = strchr(f, '/');
			const char *s2 = s1 ? strchr(s1 + 1, '/') : NULL;

			sub = s2 ? xstrndup(f, (size_t)(s2 - f)) : s1 ? xstrndup(f, (size_t)(s1 - f)) : xstrdup(".");
		}
		json_object_set_new(out, "function", json_string(p->name));
		json_object_set_new(out, "file", json_string(p->fn ? jstr(p->fn, "file") : p->file));
		{
			char *dk = xasprintf("%s:%s", p->file, p->name);
			json_t *def = json_object_get(c->defs, dk);

			json_object_set_new(out, "line", json_integer(p->fn ? json_integer_value(json_object_get(p->fn, "line"))
									 : def ? json_integer_value(json_array_get(def, 0)) : 0));
			free(dk);
		}
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
	const char *k, *best = NULL;
	json_t *lv;

	if (json_object_get(c->layers, lk))
		return lk;
	json_object_foreach(c->layers, k, lv)
		if (!strcmp(jstr(lv, "type"), type) && (!best || strcmp(k, best) < 0))
			best = k;
	if (best) {
		free(lk);
		lk = xstrdup(best);
	}
	return lk;
}

static int cmp_impl(const void *a, const void *b)
{
	json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
	int r = strcmp(jstr(x, "file"), jstr(y, "file"));

	if (r)
		return r;
	if (json_integer_value(json_object_get(x, "line")) != json_integer_value(json_object_get(y, "line")))
		return json_integer_value(json_object_get(x, "line")) < json_integer_value(json_object_get(y, "line")) ? -1 : 1;
	r = strcmp(jstr(x, "function"), jstr(y, "function"));
	return r ? r : strcmp(jstr(x, "layer"), jstr(y, "layer"));
}

static void count(json_t *obj, const char *k)
{
	json_object_set_new(obj, k, json_integer(json_integer_value(json_object_get(obj, k)) + 1));
}

json_t *classify(const struct tree *t, json_t *tus, json_t *cocci, json_t *failed, json_t *not_compiled)
{
	struct cx c = { t, json_object(), json_object(), json_object(), json_array(), json_array(),
			json_object(), json_object(), json_object(), json_object(), json_object(),
			json_object(), json_object(), NULL, json_object(), json_object(), json_object(),
			json_object() };
	struct impls im = { NULL, 0, 0, json_object() };
	json_t *list = json_array(), *by_class = json_object(), *by_conv = json_object(), *dis = json_array();
	json_t *layers_out = json_array(), *used_cocci = json_object(), *res, *x;
	json_t **sorted;
	size_t i, n_ops = 0;
	const char *k;

	index_facts(&c, tus);
	group_assignments(&c);
	c.open_users = json_object();
	json_array_foreach(c.ops, i, x) {
		json_t *m = json_object_get(x, "members"), *open = json_object_get(m, "open");
		json_t *poll = json_object_get(m, "poll");
		const char *pf, *pk = NULL;
		char *ok, *pkey;
		json_t *users;

		if (!open || !poll || strcmp(jstr(x, "type"), "file_operations"))
			continue;
		ok = xasprintf("%s:%s", def_file_of(&c, open, jstr(x, "file")), jstr(open, "function"));
		fn_key_of(poll, jstr(x, "file"), &pkey, &pf);
		if (lookup_fn(&c, jstr(poll, "function"), pf, json_is_true(json_object_get(poll, "static")), &pk)) {
			free(pkey);
			pkey = xstrdup(pk);
		}
		users = json_object_get(c.open_users, ok);
		if (!users) {
			users = json_object();
			json_object_set_new(c.open_users, ok, users);
		}
		json_object_set_new(users, pkey, json_true());
		free(ok);
		free(pkey);
	}
	discover_layers(&c, &im);
	collect_undiscovered(&c, &im);
	collect_not_poll(&c, &im);
	for (i = 0; i < im.n; i++) {
		struct impl *p = &im.v[i];
		json_t *out = json_object();
		char *ck = xasprintf("%s:%s", p->fn ? jstr(p->fn, "file") : p->file, p->name);
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
			json_t *lay;

			if (json_object_get(used_cocci, k))
				continue;
			json_array_foreach(not_compiled, j, f)
				nc |= !strcmp(json_string_value(f), jstr(x, "file"));
			json_array_foreach(failed, j, f)
				nc |= !strcmp(jstr(f, "file"), jstr(x, "file"));
			if (!nc)
				continue;
			lk = cocci_layer(&c, jstr(x, "ops_type"));
			lay = json_object_get(c.layers, lk);
			if (!lay && strcmp(jstr(x, "ops_type"), "file_operations")) {
				free(lk);
				continue;
			}
			{
				bool np = lay && json_is_true(json_object_get(lay, "not_poll"));
				const char *cls = np ? "not-poll" : jstr(x, "class");
				json_t *out = json_pack("{s:s, s:s, s:O, s:s, s:s, s:s, s:s, s:[], s:s, s:b, s:[], s:[],"
							" s:[], s:[], s:[], s:[], s:b, s:s, s:O}",
							"function", jstr(x, "function"), "file", jstr(x, "file"),
							"line", json_object_get(x, "line"), "layer", lk,
							"class", cls, "convertible", np ? "excluded" : "no",
							"reason", "", "heads", "base", "",
							"unconditional", 0, "busy_poll", "delegates", "pt_uses",
							"ops", "creation_sites", "private_data_reassigned",
							"compiled", 0, "subsystem", "", "cocci", x);
				char *reason = xasprintf("not compiled by this configuration; classified by the "
							 "Coccinelle pass: %s", jstr(x, "reason"));
				const char *f = jstr(x, "file"), *s1 = strchr(f, '/');
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
		count(by_class, jstr(x, "class"));
		count(by_conv, jstr(x, "convertible"));
		cr = json_object_get(x, "cocci");
		if (json_is_object(cr) && json_is_true(json_object_get(x, "compiled")) &&
		    strcmp(jstr(x, "class"), "not-poll") && strcmp(jstr(x, "class"), "converted") &&
		    strcmp(class_family(jstr(x, "class")), class_family(jstr(cr, "class"))))
			json_array_append_new(dis, json_pack("{s:s, s:s, s:O, s:s, s:s, s:I, s:s, s:s}",
							     "function", jstr(x, "function"), "file", jstr(x, "file"),
							     "line", json_object_get(x, "line"),
							     "polltax", jstr(x, "class"), "cocci", jstr(cr, "class"),
							     "polltax_heads",
							     (json_int_t)json_array_size(json_object_get(x, "heads")),
							     "cocci_heads", jstr(cr, "heads"), "cocci_reason",
							     jstr(cr, "reason")));
	}
	free(sorted);
	json_array_foreach(c.ops, i, x)
		if (!strcmp(jstr(x, "type"), "file_operations") &&
		    (json_object_get(json_object_get(x, "members"), "poll") ||
		     json_object_get(json_object_get(x, "members"), "poll_mask")))
			n_ops++;
	{
		json_t *lv;

		json_object_foreach(c.layers, k, lv)
			if (!json_is_true(json_object_get(lv, "not_poll")))
				json_array_append_new(layers_out, json_pack("{s:s, s:s, s:b}", "layer", k,
									    "found_via", jstr(lv, "found_via"),
									    "busy_poll", json_is_true(json_object_get(lv, "busy"))));
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
		json_decref(im.v[i].ops);
	}
	free(im.v);
	json_decref(im.index);
	json_decref(list);
	json_decref(used_cocci);
	json_decref(c.fns);
	json_decref(c.fns_by_name);
	json_decref(c.reach);
	json_decref(c.ops);
	json_decref(c.assigns);
	json_decref(c.refs);
	json_decref(c.pd);
	json_decref(c.ph);
	json_decref(c.defs);
	json_decref(c.pollfree);
	json_decref(c.errors);
	json_decref(c.layers);
	json_decref(c.open_users);
	json_decref(c.field_sets);
	json_decref(c.def_file);
	json_decref(c.returns);
	json_decref(c.followed);
	return x;
}
