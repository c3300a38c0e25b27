/* SPDX-License-Identifier: GPL-2.0 */
/*
 * classify_int.h - the classifier's own header (not for other stages):
 * the tree's facts loaded once into typed records (classify_facts.c) and
 * the lookups every part of the classifier reads them through.
 *
 * A lookup that finds nothing returns NULL (or an empty list): "not seen",
 * never an empty string that reads like a fact.  The deep shapes of a
 * function summary (its events, parameters, bases) stay the JSON that
 * extract.c wrote (extract.h); every map of the tree is typed here.
 */
#ifndef POLLTAX_CLASSIFY_INT_H
#define POLLTAX_CLASSIFY_INT_H

#include <jansson.h>
#include <stdbool.h>

#include "classify.h"
#include "lib/json_util.h"
#include "lib/util.h"

/* JSON string member K of O, "" when absent (the summaries' deep shapes). */
/*
 * A fact the decision needs, as far as the facts establish it: a fact
 * not established is not false.  A verdict that needs the fact (yes,
 * single-private) takes FACT_YES (or FACT_NO for a fact that would forbid
 * it), and FACT_UNSEEN makes it unknown or leaves it to review, with the
 * reason (TAXONOMY.md, "Precedence and hard cases").
 */
enum fact { FACT_NO, FACT_YES, FACT_UNSEEN };

/* A or B: YES if either is, else UNSEEN if either is. */
static inline enum fact fact_or(enum fact a, enum fact b)
{
	if (a == FACT_YES || b == FACT_YES)
		return FACT_YES;
	return a == FACT_UNSEEN || b == FACT_UNSEEN ? FACT_UNSEEN : FACT_NO;
}

/* A string-keyed hash table (keys copied, values borrowed). */
struct smap {
	struct smap_ent { char *key; void *val; } *v;
	size_t n, cap;
};
void *smap_get(const struct smap *m, const char *key);
/* The value slot of KEY, added (NULL) when missing; *ADDED says which. */
void **smap_slot(struct smap *m, const char *key, bool *added);
/* KEY as the table stores it (stable for the table's life), or NULL. */
const char *smap_key(const struct smap *m, const char *key);
void smap_free(struct smap *m, void (*free_val)(void *));

/* A growable list of pointers. */
struct plist {
	void **v;
	size_t n, alloc;
};
void pl_push(struct plist *l, void *p);

/* One function summary (extract.c "functions"). */
struct fn_fact {
	char *key;		/* static: "file:name", else "name" */
	const char *name, *file;
	bool st;
	json_int_t line, end_line;
	json_int_t pt;		/* index of the poll_table parameter, < 0: none */
	json_int_t file_param;	/* index of the struct file parameter, < 0: none */
	json_t *j;		/* the summary: params, events (FACTS.md) */
};

/* A function defined in a file (extract.c "defs"). */
struct def_fact {
	const char *file, *name;
	json_int_t line, end;
	struct plist callees;	/* const char *: the functions it hands the file to */
};

/* A store into file->private_data (extract.c "private_data_sets"). */
struct pd_fact {
	const char *in;		/* the function */
	bool is_const;		/* a constant (NULL), not an object */
	json_t *line;
};

/* A reference to an ops variable (extract.c "refs"). */
struct ref_fact {
	const char *var, *ctx, *in, *file;
	json_t *line;
};

/* What one function does with file_operations pointers (extract.c "fop_flow"). */
struct flow_fn {
	const char *file, *in;
	json_int_t line;	/* its first fop_flow record */
	bool store_fop, store_ifop, open_call;	/* file->f_op =, inode->i_fop =, ->open() called */
	struct plist passes;	/* const char *: the functions it hands a fops pointer to */
	struct plist stores;	/* const char *: the other members it stores a fops pointer in */
};

/* A function member of an ops record. */
struct member {
	char *name;		/* the member ("open", "poll") */
	const char *function, *file;	/* file: "" when the record's own */
	bool st;
};

/*
 * An ops record: a static initializer (extract.c "ops"), the members
 * assigned at run time through one object (group_assignments()), or one
 * such assignment on its own (extract.c "assigns").
 */
struct ops_rec {
	bool assign;		/* an assignment (lhs, member, function...) */
	const char *type, *file, *var, *macro;
	char *owned_var;	/* var of a record made from assignments */
	json_t *line;
	bool st, via_assignment, grouped, pt;
	const char *assigned_in;	/* grouped: the function that assigns */
	struct plist members;	/* struct member *, in the record's order */
	struct plist pt_members;	/* const char *: members taking a poll_table */
	/* an assignment */
	const char *lhs, *member, *function, *function_file, *in;
	struct member as_member;	/* the assignment as a member */
};

/* A pointer member written somewhere (extract.c "field_sets"). */
struct field_set {
	const char *file, *in;
};

/* A layer: a "type.member" whose functions are poll methods (or not). */
struct layer {
	char *key;		/* "type.member" */
	char *type, *member, *found_via, *caller;	/* found_via, caller: NULL when not said */
	bool busy, done, not_poll;
};

struct cx {
	const struct tree *t;
	struct smap fns;	/* key -> struct fn_fact */
	struct smap fns_by_name;	/* name -> struct plist of struct fn_fact */
	struct smap reach;	/* key -> json_t result of reach() */
	struct plist ops;	/* struct ops_rec (initializers, then grouped) */
	struct plist assigns;	/* struct ops_rec (assignments) */
	struct smap refs;	/* "file\tvar" and "var" -> struct plist of struct ref_fact */
	struct smap pd;		/* "file:function" -> struct plist of struct pd_fact */
	struct smap defs;	/* "file:function" -> struct def_fact */
	struct smap def_file;	/* name -> the first file that defines it (const char *) */
	struct smap pollfree;	/* "struct.field" -> non-NULL */
	struct smap errors;	/* file -> json_t array of its errors */
	struct smap life;	/* file -> json_t: its "life" facts (FACTS.md) */
	struct smap field_sets;	/* "struct.field" -> struct plist of struct field_set */
	struct smap returns;	/* extern function name -> json_t: what its result is derived from */
	struct smap followed;	/* "type.member" callbacks followed like helpers (not layers) */
	struct plist layers;	/* struct layer, in the order found */
	struct smap layer_index;	/* key -> struct layer */
	struct smap open_users;	/* open function key -> struct smap of poll function keys */
	struct smap member_refs;	/* "struct.field" -> struct plist of struct ref_fact ("init:", "assign:") */
	struct smap member_stores;	/* "struct.field" -> non-NULL: a fops that is no global's address is stored there */
	struct smap unseen;	/* file -> json_t array: its static functions with no body seen */
	struct smap named_by;	/* non-static ops var -> struct plist of const char *: the files naming it */
	struct smap named_unparsed;	/* "file\tvar" -> json_t array: files naming it with no facts */
	struct smap flow_fns;	/* "file:function" -> struct flow_fn */
	struct smap flow_readers;	/* "struct.field" (a fops pointer member) -> struct plist of struct flow_fn */
	struct plist owned;	/* what the loading allocated besides the above */
};

/* ---- classify_facts.c ---- */
void facts_load(struct cx *c, json_t *tus);
void facts_free(struct cx *c);

struct member *member_named(struct ops_rec *o, const char *name);	/* NULL: none */
/* The summary a call or a member names: FILE's own, else the extern one, else a header's static. */
struct fn_fact *fact_fn(struct cx *c, const char *file, const char *name, bool st, const char **keyp);
struct def_fact *fact_def(struct cx *c, const char *file, const char *name);
const char *fact_def_file(struct cx *c, const char *name);	/* NULL: defined nowhere */
const struct plist *fact_pd(struct cx *c, const char *file, const char *fn);	/* NULL: none */
const struct plist *fact_refs(struct cx *c, const char *file, const char *var);	/* file NULL: by var */
const struct plist *fact_field_sets(struct cx *c, const char *field);
struct flow_fn *fact_flow(struct cx *c, const char *file, const char *fn);	/* NULL: no fop_flow record */
json_t *fact_unseen(struct cx *c, const char *file);	/* NULL: every static function of FILE has its body */
const struct plist *fact_named_by(struct cx *c, const char *var);	/* the files naming non-static VAR */
json_t *fact_named_unparsed(struct cx *c, const char *file, const char *var);	/* NULL: none */
const struct plist *fact_flow_readers(struct cx *c, const char *field);	/* NULL: no function reads it */
json_t *fact_returns(struct cx *c, const char *name);
bool fact_pollfree(struct cx *c, const char *field);
json_t *fact_errors(struct cx *c, const char *file);
json_t *fact_life(struct cx *c, const char *file);	/* NULL: none recorded */

struct layer *layer_get(struct cx *c, const char *key);
/* A new layer KEY (TYPE.MEMBER), at the end of the order. */
struct layer *layer_add(struct cx *c, const char *type, const char *member, const char *found_via);

/* ---- classify_reach.c ---- */
/* What the function KEY registers, helpers followed (cached; the JSON shape of reach()). */
json_t *reach(struct cx *c, const char *key, struct fn_fact *fn);

/* ---- classify_layers.c ---- */
/* One implementation: a function in a poll layer. */
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

void for_each_member(struct cx *c, const char *type, const char *member,
		     void (*cb)(struct cx *, struct ops_rec *rec, const struct member *m, void *), void *d);
/* The key of the function member M names (of a record in RECFILE), and the file to look it up in. */
void fn_key_of(const struct member *m, const char *recfile, char **key, const char **file);
void discover_layers(struct cx *c, struct impls *im);
void collect_undiscovered(struct cx *c, struct impls *im);
void collect_not_poll(struct cx *c, struct impls *im);
void index_open_users(struct cx *c);
char *cocci_layer(struct cx *c, const char *type);

/* ---- classify_sites.c ---- */
extern const char *const file_returning[], *const fd_returning[];
bool in_list(const char *const *l, const char *s);
const char *def_file_of(struct cx *c, const struct member *m, const char *recfile);
/*
 * Why P's file_operations have no creation site, as precisely as the facts
 * say (handed only to a call polltax does not know, or referred to only
 * from files it did not read); NULL when they do not say.  Allocated.
 */
char *no_site_why(struct cx *c, const struct impl *p);
void push_unique(json_t *arr, json_t *e);
void unseen_parts(struct cx *c, const struct ops_rec *o, json_t *unseen);	/* E owned; dropped when ARR has an equal one */
void creation_sites(struct cx *c, struct ops_rec *o, const char *poll_key, const char *poll_file,
		    json_t *sites, json_t *reassigned);
/* Does the ->open FN (in FILE) store an object in private_data? UNSEEN: *GAP is where the analysis stops. */
enum fact open_sets_private_data(struct cx *c, const char *file, const char *fn, const char **gap);
/*
 * A field of FIELDS written after open by a method of P's ops: YES (*FK,
 * *SETTER, *MK: the field, the function that writes it, the method), NO,
 * or UNSEEN (the same, and *GAP: the function whose body was not seen or
 * where the chain was too long to follow).
 */
enum fact changed_after_open(struct cx *c, struct impl *p, json_t *fields, bool skip_last, const char **fk,
			     const char **setter, const char **mk, const char **gap);
/*
 * Is every body seen that P's ops' methods run (with the functions they
 * hand the file to)?  NO: *MK, *FN name a method and a body not seen;
 * UNSEEN: the calls from ->*MK go deeper than followed, at *FN.
 */
enum fact methods_seen(struct cx *c, struct impl *p, const char **mk, const char **fn);

/* ---- classify_decide.c ---- */
/* The verdict of P into OUT (an implementation of polltax.json); COCCI_REC: the second opinion. */
void decide(struct cx *c, struct impl *p, json_t *out, json_t *cocci_rec);

#endif
