// SPDX-License-Identifier: GPL-2.0
/*
 * classify_layers.c - the implementations and their layers: start from
 * file_operations.poll and follow every indirect call that an
 * implementation passes its poll_table to (sock->ops->poll makes
 * proto_ops.poll a layer, vdev->fops->poll v4l2_file_operations.poll,
 * ...).  A member named poll of any other struct is not file polling; a
 * member whose function takes a poll_table but that no file poll reaches
 * is listed all the same (unknown).
 */
#define _GNU_SOURCE
#include "classify_int.h"

#include <stdlib.h>
#include <string.h>

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

struct collect {
	struct impls *im;
	const char *layer;
	bool converted;
};

/* The key of the function member M names (of a record in RECFILE), and the file to look it up in. */
void fn_key_of(const struct member *m, const char *recfile, char **key, const char **file)
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
		/*
		 * not summarized: report it where it is used, but a converted
		 * ->poll_mask (no poll_table: no summary) where it is defined, so
		 * that one a macro's ops use (DRM_GEM_FOPS) is the function it was
		 */
		file = converted ? def_file_of(c, m, rec->file) : rec->file;
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

			if (!jstr(ic, "type")[0])
				continue;
			nk = xasprintf("%s.%s", jstr(ic, "type"), jstr(ic, "member"));
			if (layer_get(c, nk)) {
				free(nk);
				continue;
			}
			free(nk);
			via = xasprintf("%s() %s:%lld calls %s", p->name, jstr(ic, "file"),
					json_integer_value(json_object_get(ic, "line")), jstr(ic, "expr"));
			nl = layer_add(c, jstr(ic, "type"), jstr(ic, "member"), via);
			nl->busy = json_array_size(json_object_get(r, "busy")) > 0 || l->busy;
			nl->caller = xstrdup(p->name);
			free(via);
			changed = true;
		}
	}
	return changed;
}

/* Lower layers: what the implementations of LAYER pass their poll_table to. */
void discover_layers(struct cx *c, struct impls *im)
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

void collect_undiscovered(struct cx *c, struct impls *im)
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
void collect_not_poll(struct cx *c, struct impls *im)
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

/* Which poll functions each ->open of a file_operations serves (creation_sites()). */
void index_open_users(struct cx *c)
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

/*
 * The layer of an ops struct of TYPE that the Coccinelle pass names (it
 * does not say which member): TYPE.poll, or the layer whose member TYPE
 * has under another name (proc_ops.proc_poll), allocated.
 */
char *cocci_layer(struct cx *c, const char *type)
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
