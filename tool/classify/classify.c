// SPDX-License-Identifier: GPL-2.0
/*
 * classify.c - from facts to classes (TAXONOMY.md, all of it).
 *
 * classify() runs the stages, each in its own file (classify_int.h is
 * what they share):
 * 1. classify_facts.c: every file's facts loaded once into typed records
 *    and indexed: function summaries by key (static: "file:name", else
 *    "name"), ops initializers and run-time assignments, creation-site
 *    references, private_data assignments, queues freed with
 *    wake_up_pollfree().
 * 2. classify_reach.c, reach(): what a function registers once helpers are
 *    followed: the heads (with the helper's parameters replaced by the
 *    caller's arguments, both in the text and in the derivation), the
 *    indirect calls that take the poll_table (lower layers), busy-poll
 *    evidence, other uses of the poll_table, whether a return or goto can
 *    skip the registration.
 * 3. classify_layers.c: start from file_operations.poll and follow every
 *    indirect call that an implementation passes its poll_table to
 *    (sock->ops->poll makes proto_ops.poll a layer, vdev->fops->poll
 *    v4l2_file_operations.poll, ...).  A member named poll of any other
 *    struct is not file polling.
 * 4. classify_sites.c: the creation sites of each ops record and what its
 *    other methods do after open; classify_decide.c: the class per
 *    implementation, then whether it is auto-convertible by the safety
 *    rules of DESIGN.md (creation sites that can set f_poll_head).
 * Then this file adds what only the Coccinelle pass saw, sorts, counts.
 */
#define _GNU_SOURCE
#include "classify_int.h"

#include <stdlib.h>
#include <string.h>

const char *class_family(const char *cls)
{
	if (!strncmp(cls, "single", 6))
		return "single";
	return cls;
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

/*
 * Files the configuration cannot compile: the Coccinelle pass classifies
 * their implementations (those of COCCI that USED does not hold) into LIST.
 */
static void cocci_only(struct cx *c, json_t *cocci, json_t *used, json_t *failed, json_t *not_compiled,
		       json_t *list)
{
	const char *k;
	json_t *x;

	json_object_foreach(cocci, k, x) {
		bool nc = false;
		size_t j;
		json_t *f;
		char *lk;
		struct layer *lay;

		if (json_object_get(used, k))
			continue;
		json_array_foreach(not_compiled, j, f)
			nc |= !strcmp(json_string_value(f), jstr(x, "file"));
		json_array_foreach(failed, j, f)
			nc |= !strcmp(jstr(f, "file"), jstr(x, "file"));
		if (!nc)
			continue;
		lk = cocci_layer(c, jstr(x, "ops_type"));
		lay = layer_get(c, lk);
		if (!lay && strcmp(jstr(x, "ops_type"), "file_operations")) {
			free(lk);
			continue;
		}
		{
			bool np = lay && lay->not_poll;
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
	if (cocci)
		cocci_only(&c, cocci, used_cocci, failed, not_compiled, list);
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
