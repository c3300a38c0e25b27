// SPDX-License-Identifier: GPL-2.0
/*
 * classify_facts.c - the per-file facts of the whole tree (extract.c,
 * tool/scan/FACTS.md), loaded once into the typed records of classify_int.h
 * and indexed: function summaries by key (static: "file:name", else
 * "name") and by name, definitions and private_data stores by
 * "file:function", creation-site references by "file\tvar" and "var",
 * the ops records with the members assigned at run time grouped into
 * them, pointer members written, queues freed with wake_up_pollfree().
 *
 * Every lookup answers NULL for what no parsed file says: the callers
 * decide what "not seen" means (unknown, never false).
 */
#define _GNU_SOURCE
#include "classify_int.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- tables ------------------------------------------------------------------ */

static uint64_t hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static struct smap_ent *find(const struct smap *m, const char *key)
{
	size_t i;

	if (!m->cap)
		return NULL;
	for (i = hash(key) & (m->cap - 1); m->v[i].key; i = (i + 1) & (m->cap - 1))
		if (!strcmp(m->v[i].key, key))
			return &m->v[i];
	return &m->v[i];
}

void *smap_get(const struct smap *m, const char *key)
{
	struct smap_ent *e = find(m, key);

	return e && e->key ? e->val : NULL;
}

const char *smap_key(const struct smap *m, const char *key)
{
	struct smap_ent *e = find(m, key);

	return e ? e->key : NULL;
}

void **smap_slot(struct smap *m, const char *key, bool *added)
{
	struct smap_ent *e;

	if ((m->n + 1) * 10 >= m->cap * 7) {
		struct smap old = *m;

		m->cap = old.cap ? old.cap * 2 : 64;
		m->v = xcalloc(m->cap, sizeof(*m->v));
		for (size_t i = 0; i < old.cap; i++)
			if (old.v[i].key)
				*find(m, old.v[i].key) = old.v[i];
		free(old.v);
	}
	e = find(m, key);
	if (added)
		*added = !e->key;
	if (!e->key) {
		e->key = xstrdup(key);
		e->val = NULL;
		m->n++;
	}
	return &e->val;
}

void smap_free(struct smap *m, void (*free_val)(void *))
{
	for (size_t i = 0; i < m->cap; i++) {
		if (!m->v[i].key)
			continue;
		if (free_val)
			free_val(m->v[i].val);
		free(m->v[i].key);
	}
	free(m->v);
	memset(m, 0, sizeof(*m));
}

void pl_push(struct plist *l, void *p)
{
	if (l->n == l->alloc) {
		l->alloc = l->alloc * 2 + 8;
		l->v = xrealloc(l->v, l->alloc * sizeof(*l->v));
	}
	l->v[l->n++] = p;
}

static void pl_free(void *p)
{
	struct plist *l = p;

	if (!l)
		return;
	free(l->v);
	free(l);
}

/* The list stored under KEY in M, made when missing. */
static struct plist *list_at(struct smap *m, const char *key)
{
	void **slot = smap_slot(m, key, NULL);

	if (!*slot)
		*slot = xcalloc(1, sizeof(struct plist));
	return *slot;
}

/* The slot of "FILE:NAME" in M. */
static void **slot_file_name(struct smap *m, const char *file, const char *name)
{
	char *k = xasprintf("%s:%s", file, name);
	void **slot = smap_slot(m, k, NULL);

	free(k);
	return slot;
}

static void *owned(struct cx *c, size_t size)
{
	void *p = xcalloc(1, size);

	pl_push(&c->owned, p);
	return p;
}

/* ---- loading ----------------------------------------------------------------- */

/* The integer member K of O, DFLT when it is not there. */
static json_int_t int_or(json_t *o, const char *k, json_int_t dflt)
{
	json_t *v = json_object_get(o, k);

	return json_is_integer(v) ? json_integer_value(v) : dflt;
}

static void load_functions(struct cx *c, json_t *tu)
{
	size_t j;
	json_t *v;

	json_array_foreach(json_object_get(tu, "functions"), j, v) {
		bool st = json_is_true(json_object_get(v, "static")), added;
		char *key = st ? xasprintf("%s:%s", jstr(v, "file"), jstr(v, "name")) : xstrdup(jstr(v, "name"));
		void **slot = smap_slot(&c->fns, key, &added);

		if (added) {
			struct fn_fact *f = owned(c, sizeof(*f));

			f->key = (char *)smap_key(&c->fns, key);
			f->name = jstr(v, "name");
			f->file = jstr(v, "file");
			f->st = st;
			f->line = json_integer_value(json_object_get(v, "line"));
			f->end_line = json_integer_value(json_object_get(v, "end_line"));
			/* not said: no such parameter (a callee then is not followed: unknown) */
			f->pt = int_or(v, "pt", -1);
			f->file_param = int_or(v, "file_param", -1);
			f->j = v;
			*slot = f;
			pl_push(list_at(&c->fns_by_name, f->name), f);
		}
		free(key);
	}
}

static void load_members(struct cx *c, struct ops_rec *o, json_t *v)
{
	const char *k;
	json_t *m;

	json_object_foreach(json_object_get(v, "members"), k, m) {
		struct member *mb = owned(c, sizeof(*mb));

		mb->name = (char *)k;
		mb->function = jstr(m, "function");
		mb->file = jstr(m, "file");
		mb->st = json_is_true(json_object_get(m, "static"));
		pl_push(&o->members, mb);
	}
	json_object_foreach(json_object_get(v, "pt_members"), k, m)
		pl_push(&o->pt_members, (void *)k);
}

static void load_ops(struct cx *c, json_t *tu, const char *file)
{
	size_t j;
	json_t *v;

	json_array_foreach(json_object_get(tu, "ops"), j, v) {
		struct ops_rec *o = owned(c, sizeof(*o));

		o->type = jstr(v, "type");
		o->var = jstr(v, "var");
		o->file = file;
		o->macro = jstr(v, "macro");
		o->line = json_object_get(v, "line");
		o->st = json_is_true(json_object_get(v, "static"));
		load_members(c, o, v);
		pl_push(&c->ops, o);
	}
	json_array_foreach(json_object_get(tu, "assigns"), j, v) {
		struct ops_rec *o = owned(c, sizeof(*o));

		o->assign = true;
		o->type = jstr(v, "type");
		o->file = file;
		o->macro = "";
		o->var = "";
		o->line = json_object_get(v, "line");
		o->st = json_is_true(json_object_get(v, "static"));
		o->pt = json_is_true(json_object_get(v, "pt"));
		o->lhs = jstr(v, "lhs");
		o->member = jstr(v, "member");
		o->function = jstr(v, "function");
		o->function_file = jstr(v, "function_file");
		o->in = jstr(v, "in");
		o->as_member = (struct member){ (char *)o->member, o->function, o->function_file, o->st };
		pl_push(&c->assigns, o);
	}
}

static void load_refs(struct cx *c, json_t *tu, const char *file)
{
	size_t j, m;
	json_t *v, *uf;

	json_array_foreach(json_object_get(tu, "refs"), j, v) {
		struct ref_fact *r = owned(c, sizeof(*r));
		char *key = xasprintf("%s\t%s", file, jstr(v, "var"));

		r->var = jstr(v, "var");
		r->ctx = jstr(v, "ctx");
		r->in = jstr(v, "in");
		r->file = file;
		r->line = json_object_get(v, "line");
		pl_push(list_at(&c->refs, key), r);
		/* a unity build: a static of the other .c files of the unit (unity.c) */
		json_array_foreach(json_object_get(tu, "unit"), m, uf) {
			const char *u = json_string_value(uf);
			char *uk = xasprintf("%s\t%s", u ? u : "", r->var);

			if (u && strcmp(u, file))
				pl_push(list_at(&c->refs, uk), r);
			free(uk);
		}
		pl_push(list_at(&c->refs, r->var), r);
		if (!strncmp(r->ctx, "init:", 5) || !strncmp(r->ctx, "assign:", 7))
			pl_push(list_at(&c->member_refs, strchr(r->ctx, ':') + 1), r);
		free(key);
	}
}

/* What is said of each function by "file:function": its definition, its private_data stores. */
static void load_defs(struct cx *c, json_t *tu, const char *file)
{
	const char *k;
	json_t *v, *x;
	size_t i;

	json_object_foreach(json_object_get(tu, "defs"), k, v) {
		struct def_fact *d = owned(c, sizeof(*d));
		void **df;

		d->file = file;
		d->name = k;
		d->line = json_integer_value(json_array_get(v, 0));
		d->end = json_integer_value(json_array_get(v, 1));
		json_array_foreach(json_array_get(v, 2), i, x)
			pl_push(&d->callees, (void *)(json_string_value(x) ? json_string_value(x) : ""));
		pl_push(&c->owned, d->callees.v);
		*slot_file_name(&c->defs, file, k) = d;	/* the last file that says it */
		df = smap_slot(&c->def_file, k, NULL);
		if (!*df)
			*df = (void *)file;
	}
	json_array_foreach(json_object_get(tu, "private_data_sets"), i, v) {
		struct pd_fact *s = owned(c, sizeof(*s));
		void **list = slot_file_name(&c->pd, file, jstr(v, "in"));

		s->in = jstr(v, "in");
		s->is_const = !strcmp(jstr(json_object_get(v, "base"), "k"), "const");
		s->line = json_object_get(v, "line");
		if (!*list)
			*list = xcalloc(1, sizeof(struct plist));
		pl_push(*list, s);
	}
}

static void load_sets(struct cx *c, json_t *tu, const char *file)
{
	const char *k;
	json_t *v, *fnm;
	size_t j;

	json_object_foreach(json_object_get(tu, "field_sets"), k, v) {
		json_array_foreach(v, j, fnm) {
			struct field_set *s = owned(c, sizeof(*s));

			s->file = file;
			s->in = json_string_value(fnm) ? json_string_value(fnm) : "";
			pl_push(list_at(&c->field_sets, k), s);
		}
	}
	json_object_foreach(json_object_get(tu, "returns"), k, v) {
		void **slot = smap_slot(&c->returns, k, NULL);

		if (!*slot)
			*slot = v;
	}
	json_array_foreach(json_object_get(tu, "pollfree"), j, v)
		if (json_string_value(v))
			*smap_slot(&c->pollfree, json_string_value(v), NULL) = (void *)1;
	if (json_array_size(json_object_get(tu, "errors")))
		*smap_slot(&c->errors, file, NULL) = json_object_get(tu, "errors");
	if (json_object_get(tu, "life"))
		*smap_slot(&c->life, file, NULL) = json_object_get(tu, "life");
}

/* The member NAME of record O, or NULL. */
struct member *member_named(struct ops_rec *o, const char *name)
{
	for (size_t i = 0; i < o->members.n; i++)
		if (!strcmp(((struct member *)o->members.v[i])->name, name))
			return o->members.v[i];
	return NULL;
}

/* The file_operations record an assignment A ("fops->poll = x") fills in, made when missing. */
static struct ops_rec *assigned_record(struct cx *c, struct ops_rec *a)
{
	size_t ll = strlen(a->lhs), ml = strlen(a->member);
	char *base = xstrndup(a->lhs, ll - ml);
	struct ops_rec *rec;

	if (ll - ml >= 2 && !strcmp(base + ll - ml - 2, "->"))
		base[ll - ml - 2] = '\0';
	else if (base[ll - ml - 1] == '.')
		base[ll - ml - 1] = '\0';
	for (size_t j = 0; j < c->ops.n; j++) {
		rec = c->ops.v[j];
		if (!strcmp(rec->file, a->file) && !strcmp(rec->var, base) && !strcmp(rec->type, "file_operations") &&
		    (!rec->assigned_in || !strcmp(rec->assigned_in, a->in))) {
			free(base);
			return rec;
		}
	}
	rec = owned(c, sizeof(*rec));
	rec->owned_var = base;
	rec->var = base;
	rec->type = "file_operations";
	rec->file = a->file;
	rec->line = a->line;
	rec->macro = "";
	rec->assigned_in = a->in;
	pl_push(&c->ops, rec);
	return rec;
}

/*
 * file_operations filled in at run time ("fops->poll = x; fops->open = y;"):
 * the members assigned through one object in one function make one ops
 * record, merged into the object's static initializer when there is one.
 */
static void group_assignments(struct cx *c)
{
	for (size_t i = 0; i < c->assigns.n; i++) {
		struct ops_rec *a = c->assigns.v[i], *rec;
		struct member *m;

		if (strcmp(a->type, "file_operations") || strlen(a->lhs) <= strlen(a->member))
			continue;
		rec = assigned_record(c, a);
		m = member_named(rec, a->member);
		if (!m) {
			m = owned(c, sizeof(*m));
			m->name = (char *)a->member;
			pl_push(&rec->members, m);
		}
		m->function = a->function;
		m->file = a->function_file;
		m->st = a->st;
		rec->via_assignment = true;
		a->grouped = true;
	}
}

static void flow_fn_free(void *p)
{
	struct flow_fn *f = p;

	free(f->passes.v);
	free(f->stores.v);
	free(f);
}

/* The fop_flow records of TU (FILE): per function, and per fops member read. */
static void load_flow(struct cx *c, json_t *tu, const char *file)
{
	json_t *v;
	size_t j;

	json_array_foreach(json_object_get(tu, "fop_flow"), j, v) {
		char *key = xasprintf("%s:%s", file, jstr(v, "in"));
		bool added;
		void **slot = smap_slot(&c->flow_fns, key, &added);
		struct flow_fn *f;
		const char *k = jstr(v, "k");

		free(key);
		if (added) {
			f = *slot = xcalloc(1, sizeof(*f));
			f->file = file;
			f->in = jstr(v, "in");
			f->line = json_integer_value(json_object_get(v, "line"));
		}
		f = *slot;
		if (!strcmp(k, "store")) {
			const char *fk = jstr(v, "field");

			f->store_fop |= !strcmp(fk, "file.f_op");
			f->store_ifop |= !strcmp(fk, "inode.i_fop");
			if (strcmp(fk, "file.f_op") && strcmp(fk, "inode.i_fop")) {
				bool fresh;

				pl_push(&f->stores, (void *)fk);
				*smap_slot(&c->member_stores, fk, &fresh) = (void *)fk;
			}
		} else if (!strcmp(k, "open_call")) {
			f->open_call = true;
		} else if (!strcmp(k, "pass")) {
			pl_push(&f->passes, (void *)jstr(v, "callee"));
		} else if (!strcmp(k, "read")) {
			struct plist *l = list_at(&c->flow_readers, jstr(v, "field"));
			bool have = false;

			for (size_t i = 0; i < l->n; i++)
				have |= l->v[i] == f;
			if (!have)
				pl_push(l, f);
		}
	}
}

/* What the scan says of the file's own view: static bodies not seen, the non-static ops it names. */
static void load_naming(struct cx *c, json_t *tu, const char *file)
{
	json_t *v, *u = json_object_get(tu, "unseen_bodies");
	const char *k;
	bool added;
	size_t i;

	if (json_array_size(u))
		*smap_slot(&c->unseen, file, &added) = u;
	json_array_foreach(json_object_get(tu, "names_ops"), i, v)
		if (json_is_string(v))
			pl_push(list_at(&c->named_by, json_string_value(v)), (void *)file);
	json_object_foreach(json_object_get(tu, "ops_named_unparsed"), k, v) {
		char *key = xasprintf("%s\t%s", file, k);

		*smap_slot(&c->named_unparsed, key, &added) = v;
		free(key);
	}
}

void facts_load(struct cx *c, json_t *tus)
{
	size_t i;
	json_t *tu;

	json_array_foreach(tus, i, tu) {
		const char *file = jstr(tu, "file");

		load_functions(c, tu);
		load_ops(c, tu, file);
		load_refs(c, tu, file);
		load_defs(c, tu, file);
		load_sets(c, tu, file);
		load_flow(c, tu, file);
		load_naming(c, tu, file);
	}
	group_assignments(c);
}

/* ---- lookups ----------------------------------------------------------------- */

struct fn_fact *fact_fn(struct cx *c, const char *file, const char *name, bool st, const char **keyp)
{
	char *key = xasprintf("%s:%s", file, name);
	struct fn_fact *f = smap_get(&c->fns, key);
	struct plist *same;

	free(key);
	if (f || (f = smap_get(&c->fns, name))) {
		*keyp = f->key;
		return f;
	}
	/*
	 * a header's static inline seen from another file: the same text
	 * under another key (never another .c file's static of that name)
	 */
	same = smap_get(&c->fns_by_name, name);
	for (size_t i = 0; st && same && i < same->n; i++) {
		struct fn_fact *g = same->v[i];
		const char *colon = strchr(g->key, ':');

		if (colon && colon - g->key > 2 && !strncmp(colon - 2, ".h", 2)) {
			*keyp = g->key;
			return g;
		}
	}
	return NULL;
}

/* "FILE:NAME" looked up in M. */
static void *by_file_name(struct smap *m, const char *file, const char *name)
{
	char *k = xasprintf("%s:%s", file, name);
	void *r = smap_get(m, k);

	free(k);
	return r;
}

struct def_fact *fact_def(struct cx *c, const char *file, const char *name)
{
	return by_file_name(&c->defs, file, name);
}

const char *fact_def_file(struct cx *c, const char *name)
{
	return smap_get(&c->def_file, name);
}

const struct plist *fact_pd(struct cx *c, const char *file, const char *fn)
{
	return by_file_name(&c->pd, file, fn);
}

const struct plist *fact_refs(struct cx *c, const char *file, const char *var)
{
	char *k;
	const struct plist *r;

	if (!file)
		return smap_get(&c->refs, var);
	k = xasprintf("%s\t%s", file, var);
	r = smap_get(&c->refs, k);
	free(k);
	return r;
}

struct flow_fn *fact_flow(struct cx *c, const char *file, const char *fn)
{
	char *k = xasprintf("%s:%s", file, fn);
	struct flow_fn *f = smap_get(&c->flow_fns, k);

	free(k);
	return f;
}

json_t *fact_unseen(struct cx *c, const char *file)
{
	return smap_get(&c->unseen, file);
}

const struct plist *fact_named_by(struct cx *c, const char *var)
{
	return smap_get(&c->named_by, var);
}

json_t *fact_named_unparsed(struct cx *c, const char *file, const char *var)
{
	char *k = xasprintf("%s\t%s", file, var);
	json_t *r = smap_get(&c->named_unparsed, k);

	free(k);
	return r;
}

const struct plist *fact_flow_readers(struct cx *c, const char *field)
{
	return smap_get(&c->flow_readers, field);
}

const struct plist *fact_field_sets(struct cx *c, const char *field)
{
	return smap_get(&c->field_sets, field);
}

json_t *fact_returns(struct cx *c, const char *name)
{
	return smap_get(&c->returns, name);
}

bool fact_pollfree(struct cx *c, const char *field)
{
	return smap_get(&c->pollfree, field) != NULL;
}

json_t *fact_life(struct cx *c, const char *file)
{
	return smap_get(&c->life, file);
}

json_t *fact_errors(struct cx *c, const char *file)
{
	return smap_get(&c->errors, file);
}

struct layer *layer_get(struct cx *c, const char *key)
{
	return smap_get(&c->layer_index, key);
}

struct layer *layer_add(struct cx *c, const char *type, const char *member, const char *found_via)
{
	struct layer *l = xcalloc(1, sizeof(*l));

	l->key = xasprintf("%s.%s", type, member);
	l->type = xstrdup(type);
	l->member = xstrdup(member);
	l->found_via = found_via ? xstrdup(found_via) : NULL;
	*smap_slot(&c->layer_index, l->key, NULL) = l;
	pl_push(&c->layers, l);
	return l;
}

static void reach_free(void *p)
{
	json_decref(p);
}

static void users_free(void *p)
{
	smap_free(p, NULL);
	free(p);
}

void facts_free(struct cx *c)
{
	for (size_t i = 0; i < c->ops.n; i++) {
		struct ops_rec *o = c->ops.v[i];

		free(o->members.v);
		free(o->pt_members.v);
		free(o->owned_var);
	}
	for (size_t i = 0; i < c->layers.n; i++) {
		struct layer *l = c->layers.v[i];

		free(l->key);
		free(l->type);
		free(l->member);
		free(l->found_via);
		free(l->caller);
		free(l);
	}
	free(c->layers.v);
	free(c->ops.v);
	free(c->assigns.v);
	smap_free(&c->fns, NULL);
	smap_free(&c->fns_by_name, pl_free);
	smap_free(&c->reach, reach_free);
	smap_free(&c->refs, pl_free);
	smap_free(&c->pd, pl_free);
	smap_free(&c->defs, NULL);
	smap_free(&c->def_file, NULL);
	smap_free(&c->pollfree, NULL);
	smap_free(&c->errors, NULL);
	smap_free(&c->life, NULL);
	smap_free(&c->field_sets, pl_free);
	smap_free(&c->returns, NULL);
	smap_free(&c->followed, NULL);
	smap_free(&c->layer_index, NULL);
	smap_free(&c->open_users, users_free);
	smap_free(&c->flow_readers, pl_free);
	smap_free(&c->member_refs, pl_free);
	smap_free(&c->member_stores, NULL);
	smap_free(&c->unseen, NULL);
	smap_free(&c->named_by, pl_free);
	smap_free(&c->named_unparsed, NULL);
	smap_free(&c->flow_fns, flow_fn_free);
	for (size_t i = 0; i < c->owned.n; i++)
		free(c->owned.v[i]);
	free(c->owned.v);
}

/* Every (ops record or assignment) that gives TYPE.MEMBER a function: call CB. */
void for_each_member(struct cx *c, const char *type, const char *member,
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
