// SPDX-License-Identifier: GPL-2.0
/*
 * classify_sites.c - where the files of an ops record are created (its
 * own ->open, calls that create a file with it, framework registrations),
 * whether each site can set f_poll_head and sets private_data, and what
 * the ops' other methods do after open (change a field a head is read
 * through, reassign private_data, or run code whose body was not seen).
 */
#define _GNU_SOURCE
#include "classify_int.h"

#include <stdlib.h>
#include <string.h>

/* Where a function named by an ops member is defined: its own file, or the extern definition. */
const char *def_file_of(struct cx *c, const struct member *m, const char *recfile)
{
	const char *f = m->file[0] ? m->file : recfile;

	if (!fact_def(c, f, m->function) && !m->st && fact_def_file(c, m->function))
		return fact_def_file(c, m->function);
	return f;
}

/* Creation APIs that return the new struct file (f_poll_head can be set on it). */
const char *const file_returning[] = {
	"anon_inode_getfile", "anon_inode_getfile_fmode", "anon_inode_create_getfile",
	"alloc_file_pseudo", "alloc_file_pseudo_noaccount", "alloc_file", NULL,
};
/* ... and those that install it into the fd table and return an int. */
const char *const fd_returning[] = { "anon_inode_getfd", "anon_inode_create_getfd", NULL };
/* Registrations whose framework opens the file and then calls ->open. */
static const char *const framework_calls[] = {
	"cdev_init", "register_chrdev", "__register_chrdev", "debugfs_create_file",
	"debugfs_create_file_unsafe", "debugfs_create_file_size", "securityfs_create_file",
	"tracefs_create_file", "proc_create", "sysfs_create_bin_file", NULL,
};

bool in_list(const char *const *l, const char *s)
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

static bool all_sets_null(const struct plist *pd);
static enum fact sets_private_data(struct cx *c, const char *file, const char *fn, int depth, const char **gap);

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
	const char *gap;
	json_t *site;

	free(dk);
	/* "sets_private_data" says a store was seen: not established is not false (decide() asks again) */
	site = json_pack("{s:s, s:s, s:s, s:I, s:b, s:b}", "kind", "open", "function", open->function, "file", of,
			 "line", def ? def->line : 0, "sets_private_data",
			 sets_private_data(c, of, open->function, 0, &gap) == FACT_YES, "settable",
			 own && def != NULL);
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

/*
 * Append E (owned) to ARR unless an equal one is there already: a site,
 * or a step of a plan, that two ops records sharing an open both give.
 */
void push_unique(json_t *arr, json_t *e)
{
	json_t *x;
	size_t i;

	json_array_foreach(arr, i, x)
		if (json_equal(x, e)) {
			json_decref(e);
			return;
		}
	json_array_append_new(arr, e);
}

/* Following a fops into the code that makes files with it (fops_flow_opens()). */
struct fw_walk {
	struct cx *c;
	json_t *sites;		/* the files made directly (anon_inode_getfile()) go here */
	const char *poll_key;	/* the poll whose conversion asks */
	const char *what;	/* the ops followed: a variable, or "the fops handed through T.F" */
};

/*
 * Does every ops record handed through member FIELD (refs "init:FIELD",
 * "assign:FIELD") poll with W's poll, or not at all?  Then a framework's
 * file made with that member's fops can get this poll's head.  Not when
 * a function stores a fops that is no global's address there: which
 * ops those are is not seen.
 */
static bool member_polls_alike(struct fw_walk *w, const char *field)
{
	const struct plist *refs = smap_get(&w->c->member_refs, field);

	if (smap_get(&w->c->member_stores, field))
		return false;
	for (size_t i = 0; refs && i < refs->n; i++) {
		const struct ref_fact *r = refs->v[i];
		bool found = false;

		for (size_t j = 0; j < w->c->ops.n; j++) {
			struct ops_rec *o = w->c->ops.v[j];
			const struct member *m;
			const char *mf;
			char *key;
			bool same;

			if (o->assign || strcmp(o->var, r->var) || (o->st && strcmp(o->file, r->file)))
				continue;
			m = member_named(o, "poll");
			found = true;
			/* no ->poll: vfs_poll() never looks at f_poll_head (the infrastructure patch) */
			if (!m)
				continue;
			fn_key_of(m, o->file, &key, &mf);
			same = !strcmp(key, w->poll_key);
			free(key);
			if (!same)
				return false;
		}
		if (!found)
			return false;
	}
	return refs != NULL;
}

static char *framework_opens_at(struct fw_walk *w, const char *field, int depth);

/*
 * What function FN (FILE) does with the fops pointer it reads from member
 * FIELD or is handed as a parameter (PARAM), followed into the functions
 * it hands it to and the members it keeps it in (DEPTH: how far): it
 * installs it in an inode (the VFS opens through ->open), or in the file
 * and calls its ->open (a framework's open: drm_stub_open()), or creates a
 * file with it (anon_inode_getfile(): a site of its own, which polltax can
 * set when the fops come from a member whose ops all poll alike, not from
 * a parameter).  False, with *WHY, when none of these is seen.
 */
static bool fops_flow_opens(struct fw_walk *w, const char *file, const char *fn, const char *field, bool param,
			    int depth, char **why)
{
	struct flow_fn *f = fact_flow(w->c, file, fn);
	bool any = false;

	if (!f) {
		*why = xasprintf("%s() (%s) is handed %s and polltax does not see what it does with it", fn, file,
				 w->what);
		return false;
	}
	if (f->store_ifop || (f->store_fop && f->open_call))
		any = true;
	else if (f->store_fop)
		*why = xasprintf("%s() (%s:%lld) installs %s in a file without calling its ->open", fn, file,
				 (long long)f->line, w->what);
	/* kept in a framework's member: what the readers of that member do */
	for (size_t i = 0; i < f->stores.n && !*why; i++) {
		if (field && !strcmp(f->stores.v[i], field))
			continue;
		*why = depth >= 3 ? xasprintf("%s() keeps %s in %s, deeper than polltax follows", fn, w->what,
					      (const char *)f->stores.v[i])
				  : framework_opens_at(w, f->stores.v[i], depth + 1);
		any |= !*why;
	}
	for (size_t i = 0; i < f->passes.n && !*why; i++) {
		const char *cn = f->passes.v[i], *cf;

		if (in_list(file_returning, cn) || in_list(fd_returning, cn)) {
			/* a file created with it, ->open never called: a site of its own */
			if (param || !field) {
				*why = xasprintf("%s() (%s:%lld) makes files with %s by %s(), as a parameter it is "
						 "handed: polltax does not set f_poll_head in a function that other "
						 "callers may hand other ops", fn, file, (long long)f->line, w->what, cn);
				break;
			}
			if (!member_polls_alike(w, field)) {
				*why = xasprintf("%s() (%s:%lld) makes files by %s() with every fops handed through "
						 "%s, and they do not all poll with this function: polltax does not "
						 "set f_poll_head there", fn, file, (long long)f->line, cn, field);
				break;
			}
			push_unique(w->sites, json_pack("{s:s, s:s, s:s, s:I, s:b, s:b, s:s}", "kind", cn,
								  "function", fn, "file", file, "line", f->line,
								  "sets_private_data", !strncmp(cn, "anon_inode", 10),
								  "settable", in_list(file_returning, cn) != 0,
								  "framework", field));
			any = true;
			continue;
		}
		if (!strcmp(cn, fn))
			continue;
		cf = fact_def(w->c, file, cn) ? file : fact_def_file(w->c, cn);
		if (!cf || depth >= 3)
			*why = cf ? xasprintf("%s() hands %s on deeper than polltax follows (%s())", fn, w->what, cn)
				  : xasprintf("%s() (%s:%lld) hands %s to %s(), whose body polltax did not read", fn,
					      file, (long long)f->line, w->what, cn);
		else
			any |= fops_flow_opens(w, cf, cn, NULL, true, depth + 1, why);
	}
	if (*why)
		return false;
	if (!any)
		*why = xasprintf("%s() (%s:%lld) takes %s and polltax does not see where it goes", fn, file,
				 (long long)f->line, w->what);
	return any;
}

/*
 * A fops handed to a framework through member FIELD ("drm_driver.fops"):
 * is every file the framework makes with it opened through ->open?  Proven
 * when every function of the parsed code that reads FIELD opens through
 * it (fops_flow_opens()); the files it creates directly go to W's sites.
 * NULL: proven; else what is missing.
 */
static char *framework_opens_at(struct fw_walk *w, const char *field, int depth)
{
	const struct plist *rd = fact_flow_readers(w->c, field);
	const char *saved = w->what;
	char *why = NULL;

	/* the VFS itself opens an inode's files through ->open */
	if (!strcmp(field, "inode.i_fop"))
		return NULL;
	if (!rd)
		return xasprintf("no function polltax read takes the fops from %s: whether the files made with "
				 "it are opened through ->open is not seen", field);
	w->what = field;
	for (size_t i = 0; i < rd->n && !why; i++) {
		const struct flow_fn *f = rd->v[i];

		fops_flow_opens(w, f->file, f->in, field, false, depth, &why);
	}
	w->what = saved;
	return why;
}

/* The site REF makes, or NULL when it only looks at the fops; W's sites get a framework's own. */
static json_t *ref_site(struct fw_walk *w, const struct ref_fact *ref)
{
	struct cx *c = w->c;
	const char *ctx = ref->ctx, *fn = ref->in;
	char *kind = NULL, *why = NULL;
	bool settable = false, pd = false;
	json_t *site;

	w->what = ref->var;
	if (!strncmp(ctx, "call:", 5)) {
		char *name = xstrdup(ctx + 5);

		*strrchr(name, ':') = '\0';
		if (in_list(file_returning, name)) {
			settable = true;
			pd = !strncmp(name, "anon_inode", 10) || (fact_pd(c, ref->file, fn) && fact_pd(c, ref->file, fn)->n);
		} else if (in_list(fd_returning, name)) {
			pd = true;
		} else if (!strcmp(name, "cdev_init")) {
			free(name);
			name = xstrdup("cdev");
		} else if (!in_list(framework_calls, name)) {
			/* a function of its own: what it does with the fops (fops_flow_opens()) */
			const char *cf = fact_def_file(c, name);

			if (!cf)
				why = xasprintf("%s is handed to %s() (%s:%lld, in %s()), whose body polltax did not "
						"read: whether it makes files with it is not seen", ref->var, name,
						ref->file, (long long)json_integer_value(ref->line), fn);
			else
				fops_flow_opens(w, cf, name, NULL, true, 0, &why);
			kind = xasprintf("handed to %s()", name);
			free(name);
			name = NULL;
		}
		if (!kind)
			kind = name;
	} else if (!strncmp(ctx, "init:", 5) || !strncmp(ctx, "assign:", 7)) {
		const char *tf = strchr(ctx, ':') + 1;

		kind = registered_kind(c, ref, &fn, &pd);
		/* a framework's member: its open path must be seen (framework_opens_at()) */
		if (!strcmp(tf, "file.f_op")) {
			struct flow_fn *f = fact_flow(c, ref->file, fn);

			if (!f || !f->open_call)
				why = xasprintf("%s() installs %s in a file's f_op without calling its ->open", fn,
						ref->var);
		} else if (strcmp(tf, "miscdevice.fops") && strcmp(tf, "cdev.ops")) {
			why = framework_opens_at(w, tf, 0);
		}
	} else if (!strcmp(ctx, "use")) {
		/* named as a value (a local takes it): where it goes is not followed */
		kind = xstrdup("use");
		why = xasprintf("%s is taken as a value in %s() (%s:%lld), where polltax does not follow it: a "
				"file may be created with it there", ref->var, fn, ref->file,
				(long long)json_integer_value(ref->line));
	} else {
		return NULL;
	}
	site = json_pack("{s:s, s:s, s:s, s:O, s:b, s:b}", "kind", kind, "function", fn, "file", ref->file, "line",
			 ref->line, "sets_private_data", pd, "settable", settable);
	if (why)
		json_object_set_new(site, "unproven", json_string(why));
	free(why);
	free(kind);
	return site;
}

char *no_site_why(struct cx *c, const struct impl *p)
{
	char *why = NULL;

	for (size_t i = 0; i < p->ops.n && !why; i++) {
		const struct ops_rec *o = p->ops.v[i];
		const struct plist *refs;

		/* a variable's initializer only: a record of assignments has no name files refer to */
		if (o->assign || o->grouped || o->via_assignment || strcmp(o->type, "file_operations"))
			continue;
		refs = fact_refs(c, o->file, o->var);
		if (!refs && !o->st)
			refs = fact_refs(c, NULL, o->var);
		for (size_t k = 0; refs && k < refs->n && !why; k++) {
			const struct ref_fact *r = refs->v[k];

			if (!strncmp(r->ctx, "call:", 5)) {
				const char *name = r->ctx + 5;

				why = xasprintf("%s is only handed to %.*s() (%s:%lld, in %s()), which polltax does not "
						"know to create a file: the open path is not seen", o->var,
						(int)(strrchr(name, ':') - name), name, r->file,
						(long long)json_integer_value(r->line), r->in);
			}
		}
		if (!why && !refs && !o->st) {
			const struct plist *by = fact_named_by(c, o->var);
			const char *other = NULL;

			for (size_t k = 0; by && k < by->n && !other; k++)
				if (strcmp(by->v[k], o->file))
					other = by->v[k];
			why = other ? xasprintf("%s is not static, and %s names it where polltax sees no use it follows "
						"(an initializer or a macro it does not read into): the files made "
						"with it are not seen", o->var, other)
				    : xasprintf("%s is not static, and no file polltax read refers to it: the files "
						"that create files with it were not read", o->var);
		}
	}
	return why;
}

static bool static_ops_in(struct cx *c, const char *file, const char *var);

/* UNSEEN gets why FILE was not seen whole, for ops record O (unseen_parts()). */
static void unseen_in(struct cx *c, const struct ops_rec *o, const char *file, json_t *unseen)
{
	json_t *u = fact_unseen(c, file);

	if (u)
		push_unique(unseen, json_sprintf("%s() of %s has no body the parse saw, and %s %s: it may make "
						 "files with them", json_string_value(json_array_get(u, 0)), file,
						 file, strcmp(file, o->file) ? "names these ops" : "defines these ops"));
}

/*
 * Every file that can make files with ops record O must have been seen
 * whole: its own file, and for ops that are not static each file that
 * names them.  A static function with no body there (its definition #if'd
 * out, not parsed) may create files with them; a file with no facts at
 * all may too.  UNSEEN gets a reason for each (strings): not a creation
 * site, a fact missing (decide()'s convertible()).
 */
void unseen_parts(struct cx *c, const struct ops_rec *o, json_t *unseen)
{
	const struct plist *by;
	json_t *un, *f;
	size_t i;

	if (o->assign || o->grouped || o->via_assignment || !o->file || !o->var)
		return;
	unseen_in(c, o, o->file, unseen);
	if (o->st)
		return;
	by = fact_named_by(c, o->var);
	for (i = 0; by && i < by->n; i++)
		if (strcmp(by->v[i], o->file) && !static_ops_in(c, by->v[i], o->var))
			unseen_in(c, o, by->v[i], unseen);
	un = fact_named_unparsed(c, o->file, o->var);
	json_array_foreach(un, i, f)
		push_unique(unseen, json_sprintf("%s names %s, and polltax has no facts of it (it did not parse, "
						 "or the configuration does not compile it): it may make files "
						 "with them", json_string_value(f), o->var));
}

/* Does FILE define a static ops record named VAR (its refs are to that one)? */
static bool static_ops_in(struct cx *c, const char *file, const char *var)
{
	for (size_t i = 0; i < c->ops.n; i++) {
		const struct ops_rec *o = c->ops.v[i];

		if (o->st && !o->assign && !strcmp(o->file, file) && !strcmp(o->var, var))
			return true;
	}
	return false;
}

/*
 * Creation sites of ops record O (file_operations): its own ->open, calls
 * that create a file with it, framework registrations.  Also notes whether
 * each site can set f_poll_head (the file is at hand and the code is the
 * driver's own).
 */
void creation_sites(struct cx *c, struct ops_rec *o, const char *poll_key, const char *poll_file,
			   json_t *sites, json_t *reassigned)
{
	const struct member *open = member_named(o, "open");
	const struct plist *refs = fact_refs(c, o->file, o->var);
	struct fw_walk w = { c, sites, poll_key, NULL };
	size_t i, j;

	if (!refs && !o->st)
		refs = fact_refs(c, NULL, o->var);
	if (open)
		push_unique(sites, open_site(c, open, o->file, poll_key, poll_file));
	for (i = 0; refs && i < refs->n; i++) {
		json_t *site = ref_site(&w, refs->v[i]);

		if (site)
			push_unique(sites, site);
	}
	/* not static: the files that name it elsewhere too (scan.c reads them) */
	if (!o->st && refs && refs == fact_refs(c, o->file, o->var)) {
		const struct plist *all = fact_refs(c, NULL, o->var);

		for (i = 0; all && i < all->n; i++) {
			const struct ref_fact *r = all->v[i];
			json_t *site;

			if (!strcmp(r->file, o->file) || static_ops_in(c, r->file, o->var))
				continue;
			if ((site = ref_site(&w, r)))
				push_unique(sites, site);
		}
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

/*
 * Does FN (defined in FILE) store an object, not NULL, in private_data,
 * itself or through the functions it hands the file to?  UNSEEN: a body
 * on the way was not seen (*GAP names it) or the calls go deeper than
 * followed.  A creation site says it sets private_data on YES only.
 */
static enum fact sets_private_data(struct cx *c, const char *file, const char *fn, int depth, const char **gap)
{
	const struct plist *pd = fact_pd(c, file, fn);
	struct def_fact *def;
	enum fact r = FACT_NO;

	if (pd && pd->n)
		return all_sets_null(pd) ? FACT_NO : FACT_YES;
	def = fact_def(c, file, fn);
	if (!def || depth > 3) {
		*gap = fn;	/* its body was not seen, or the calls go deeper than followed */
		return FACT_UNSEEN;
	}
	for (size_t i = 0; i < def->callees.n && r != FACT_YES; i++) {
		const char *cn = def->callees.v[i], *cf = callee_file(c, file, cn), *g = cn;
		enum fact sub = cf ? sets_private_data(c, cf, cn, depth + 1, &g) : FACT_UNSEEN;

		if (sub == FACT_UNSEEN && r == FACT_NO)
			*gap = g;
		r = fact_or(r, sub);
	}
	return r;
}

enum fact open_sets_private_data(struct cx *c, const char *file, const char *fn, const char **gap)
{
	return sets_private_data(c, file, fn, 0, gap);
}

/*
 * Does SET_FN (defined in SET_FILE) run from FROM (defined in FILE), itself
 * or through the functions it hands the file to, however deep (SEEN:
 * those already looked at)?  UNSEEN: a body on the way was not seen, or
 * the chain is too long to follow; *GAP: where.
 */
static enum fact runs_from(struct cx *c, const char *file, const char *from, const char *set_file,
			   const char *set_fn, int depth, struct smap *seen, const char **gap)
{
	struct def_fact *d;
	enum fact r = FACT_NO;
	char *k;
	bool added;

	if (!strcmp(from, set_fn) && !strcmp(file, set_file))
		return FACT_YES;
	d = fact_def(c, file, from);
	if (!d || depth > 64) {
		*gap = from;
		return FACT_UNSEEN;
	}
	k = xasprintf("%s:%s", file, from);
	smap_slot(seen, k, &added);
	free(k);
	if (!added)
		return FACT_NO;	/* its answer is the first visit's */
	for (size_t i = 0; i < d->callees.n && r != FACT_YES; i++) {
		const char *cn = d->callees.v[i], *cf = callee_file(c, file, cn);
		const char *g = NULL;
		enum fact sub;

		if (!strcmp(cn, from))
			continue;
		sub = cf ? runs_from(c, cf, cn, set_file, set_fn, depth + 1, seen, &g) : FACT_UNSEEN;
		if (sub == FACT_UNSEEN && r == FACT_NO)
			*gap = cf ? g : cn;
		r = fact_or(r, sub);
	}
	return r;
}

/* Does a method of P's ops other than ->open and ->release run SET (a function writing a field)? */
static enum fact set_by_method(struct cx *c, struct impl *p, const struct field_set *set, const char **gap,
			       const char **mk)
{
	enum fact r = FACT_NO;

	for (size_t oi = 0; oi < p->ops.n; oi++) {
		struct ops_rec *o = p->ops.v[oi];

		for (size_t mi = 0; mi < o->members.n; mi++) {
			const struct member *mv = o->members.v[mi];
			const char *g = NULL;
			struct smap seen = { 0 };
			enum fact f;

			if (!strcmp(mv->name, "open") || !strcmp(mv->name, "release"))
				continue;
			f = runs_from(c, def_file_of(c, mv, o->file), mv->function, set->file, set->in, 0, &seen, &g);
			smap_free(&seen, NULL);
			if (f == FACT_YES || (f == FACT_UNSEEN && r == FACT_NO)) {
				*gap = g;
				*mk = mv->name;
			}
			if ((r = fact_or(r, f)) == FACT_YES)
				return r;
		}
	}
	return r;
}

/*
 * A field of FIELDS (the "struct.field" members a head or a tested value is
 * read through; the last one left out when SKIP_LAST: the queue itself)
 * that a method of P's ops other than ->open and ->release writes, itself or
 * through the functions it hands the file to: the value can change while
 * the file is open.
 */
enum fact changed_after_open(struct cx *c, struct impl *p, json_t *fields, bool skip_last, const char **fk,
			     const char **setter, const char **mk, const char **gap)
{
	enum fact r = FACT_NO;
	json_t *f;
	size_t fi;

	json_array_foreach(fields, fi, f) {
		const char *field = json_string_value(f);
		const struct plist *sets;

		if ((skip_last && fi + 1 == json_array_size(fields)) || !strcmp(field, "file.private_data"))
			continue;
		sets = fact_field_sets(c, field);
		for (size_t si = 0; sets && si < sets->n; si++) {
			const char *g = NULL, *m = NULL;
			enum fact s = set_by_method(c, p, sets->v[si], &g, &m);

			if (s == FACT_YES || (s == FACT_UNSEEN && r == FACT_NO)) {
				*fk = field;
				*setter = ((const struct field_set *)sets->v[si])->in;
				*mk = m;
				*gap = g;
			}
			if ((r = fact_or(r, s)) == FACT_YES)
				return r;
		}
	}
	return r;
}

/*
 * FN (defined in FILE, if anywhere) and every function it hands the file
 * to, however deep (SEEN: those already looked at): all seen (YES), or a
 * body not seen (NO, *GAP: which).  UNSEEN only when the chain is too
 * long to follow (DEPTH).
 */
static enum fact bodies_seen(struct cx *c, const char *file, const char *fn, int depth, struct smap *seen,
			     const char **gap)
{
	struct def_fact *d = fact_def(c, file, fn);
	char *k = xasprintf("%s:%s", file, fn);
	bool added;
	enum fact res = FACT_YES;

	*gap = fn;
	if (!d) {
		free(k);
		return FACT_NO;
	}
	smap_slot(seen, k, &added);
	free(k);
	if (!added)
		return FACT_YES;	/* looked at already, or being looked at */
	if (depth > 64)
		return FACT_UNSEEN;
	for (size_t i = 0; i < d->callees.n && res == FACT_YES; i++) {
		const char *cn = d->callees.v[i], *cf = callee_file(c, file, cn);

		if (strcmp(cn, fn))
			res = bodies_seen(c, cf ? cf : file, cn, depth + 1, seen, gap);
	}
	return res;
}

enum fact methods_seen(struct cx *c, struct impl *p, const char **mk, const char **fn)
{
	struct smap seen = { 0 };
	enum fact r = FACT_YES;

	for (size_t i = 0; i < p->ops.n && r == FACT_YES; i++) {
		struct ops_rec *o = p->ops.v[i];

		for (size_t j = 0; j < o->members.n && r == FACT_YES; j++) {
			const struct member *mv = o->members.v[j];

			r = bodies_seen(c, def_file_of(c, mv, o->file), mv->function, 0, &seen, fn);
			*mk = mv->name;
		}
	}
	smap_free(&seen, NULL);
	return r;
}
