// SPDX-License-Identifier: GPL-2.0
/*
 * classify_reach.c - what a function registers once helpers are followed
 * (reach()): the heads (with the helper's parameters replaced by the
 * caller's arguments, both in the text and in the derivation), the
 * indirect calls that take the poll_table (lower layers), busy-poll
 * evidence, other uses of the poll_table, whether a return or goto can
 * skip the registration.  A base made by a call is resolved from the
 * callee's "returns" fact; a callee no parsed file defines is unknown.
 */
#define _GNU_SOURCE
#include "classify_int.h"

#include <stdlib.h>
#include <string.h>

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
	return json_pack("{s:[], s:[], s:[], s:[], s:[], s:[], s:b, s:[]}", "heads", "icalls", "unresolved", "busy",
			 "pt_uses", "guards", "early", 0, "early_at");
}

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
		char *e = subst(jstr(h, "resolved"), json_object_get(callee->j, "params"), args);
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
	bool ok = jstr(ev, "type")[0] != '\0';
	size_t i;

	if (ok) {
		char *fk = xasprintf("%s.%s", jstr(ev, "type"), jstr(ev, "member"));

		*smap_slot(&c->followed, fk, NULL) = (void *)1;
		free(fk);
	}

	if (ok)
		for_each_member(c, jstr(ev, "type"), jstr(ev, "member"), target_cb, &t);
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
				      json_pack("{s:s, s:s, s:O, s:s}", "callee", jstr(ev, "expr"),
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

json_t *reach(struct cx *c, const char *key, struct fn_fact *fn)
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
		const char *k = jstr(ev, "k");
		bool cond = json_is_true(json_object_get(ev, "cond")) || early;

		if (!strcmp(k, "wait")) {
			char *n = norm(jstr(ev, "head"));

			json_array_append_new(json_object_get(r, "heads"),
					      json_pack("{s:s, s:s, s:s, s:o, s:b, s:s, s:s, s:O, s:s, s:b}",
							"expr", jstr(ev, "head"), "resolved", jstr(ev, "head"), "norm", n,
							"base", resolve_base(c, json_object_get(ev, "base"), 0), "cond", cond,
							"via", "", "file", fn->file,
							"line", json_object_get(ev, "line"),
							"field", jstr(ev, "field"),
							"guarded", json_array_size(json_object_get(r, "guards")) > 0));
			free(n);
			registered = true;
		} else if (!strcmp(k, "call")) {
			const char *ck = NULL;
			struct fn_fact *callee = fact_fn(c, jstr(ev, "callee_file"), jstr(ev, "callee"),
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
								json_object_get(ev, "line"), "into", jstr(ev, "callee")));
				continue;
			}
			if (!callee || callee->pt < 0) {
				json_array_append_new(json_object_get(r, "unresolved"),
						      json_pack("{s:s, s:s, s:O}", "callee", jstr(ev, "callee"),
								"file", fn->file, "line",
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
							"file", fn->file, "line", json_object_get(ev, "line")));
		} else if (!strcmp(k, "pt_use")) {
			json_array_append_new(json_object_get(r, "pt_uses"),
					      json_pack("{s:s, s:s, s:O, s:s}", "what", jstr(ev, "what"),
							"file", fn->file, "line", json_object_get(ev, "line"),
							"into", jstr(ev, "into")));
		} else if (!strcmp(k, "busy")) {
			json_array_append_new(json_object_get(r, "busy"), json_string(jstr(ev, "what")));
		} else if (!strcmp(k, "return") || !strcmp(k, "goto")) {
			if (!registered && !strcmp(k, "return") && json_object_get(ev, "null_test")) {
				/* if (!dev) return ...: impossible when dev is never NULL (decide()) */
				json_array_append_new(json_object_get(r, "guards"),
						      json_pack("{s:o, s:s, s:s, s:O, s:s}", "base",
								resolve_base(c, json_object_get(ev, "null_test"), 0),
								"text", jstr(ev, "null_text"), "file", fn->file,
								"line", json_object_get(ev, "line"), "value",
								jstr(ev, "value")));
			} else if (!registered) {
				/* what the path that skips the registration hands back: the review's facts */
				early = true;
				json_array_append_new(json_object_get(r, "early_at"),
						      json_pack("{s:s, s:O, s:s}", "file", fn->file, "line",
								json_object_get(ev, "line"), "value",
								!strcmp(k, "goto") ? "(goto)" : jstr(ev, "value")));
			}
		}
	}
	json_object_set_new(r, "early", json_boolean(early));
	slot = (json_t **)smap_slot(&c->reach, key, NULL);	/* the table may have grown meanwhile */
	json_decref(*slot);
	*slot = r;
	return r;
}
