// SPDX-License-Identifier: GPL-2.0
/*
 * output.c - polltax.json, polltax.csv and summary.md (see output.h).
 * Byte-identical for the same input: keys sorted, fixed indent, rows in
 * the classifier's order (file, line, function), no dates.
 */
#define _GNU_SOURCE
#include "output.h"
#include "lib/json_util.h"
#include "census.h"
#include "lib/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

const char *const class_order[] = {
	"none", "single-static", "single-private", "single-cond", "single-dynamic", "multi",
	"busy-poll", "delegate", "unknown", "converted", "not-poll", NULL,
};

const char *const conv_order[] = { "converted", "yes", "needs-open", "review", "no", "excluded", NULL };

int class_index(const char *cls)
{
	for (int i = 0; class_order[i]; i++)
		if (!strcmp(class_order[i], cls))
			return i;
	return 99;
}

int conv_index(const char *conv)
{
	for (int i = 0; conv_order[i]; i++)
		if (!strcmp(conv_order[i], conv))
			return i;
	return 99;
}

int write_json(const char *path, json_t *v)
{
	char *s = json_dumps(v, JSON_INDENT(1) | JSON_SORT_KEYS | JSON_ENSURE_ASCII);
	int rc;
	size_t n;
	char *t;

	if (!s)
		return error("cannot serialize '%s'", path);
	n = strlen(s);
	t = xmalloc(n + 2);
	memcpy(t, s, n);
	t[n] = '\n';
	t[n + 1] = '\0';
	rc = write_file_atomic(path, t, n + 1);
	free(s);
	free(t);
	return rc;
}

static void csv_field(struct strbuf *sb, const char *s, bool last)
{
	bool quote = strpbrk(s, ",\"\n\r") != NULL;

	if (quote) {
		sb_addc(sb, '"');
		for (; *s; s++) {
			if (*s == '"')
				sb_addc(sb, '"');
			sb_addc(sb, *s);
		}
		sb_addc(sb, '"');
	} else {
		sb_adds(sb, s);
	}
	sb_addc(sb, last ? '\n' : ',');
}

static char *join_heads(json_t *impl, const char *sep)
{
	struct strbuf sb = STRBUF_INIT;
	json_t *h;
	size_t i;

	json_array_foreach(json_object_get(impl, "heads"), i, h)
		sb_addf(&sb, "%s%s", i ? sep : "", jstr(h, "expr"));
	return sb_detach(&sb);
}

static char *join_sites(json_t *impl)
{
	struct strbuf sb = STRBUF_INIT;
	json_t *s;
	size_t i;

	json_array_foreach(json_object_get(impl, "creation_sites"), i, s)
		sb_addf(&sb, "%s%s:%s", i ? "; " : "", jstr(s, "kind"), jstr(s, "function"));
	return sb_detach(&sb);
}

static char *csv(json_t *result)
{
	struct strbuf sb = STRBUF_INIT;
	json_t *x;
	size_t i;

	sb_adds(&sb, "file,line,function,layer,class,convertible,heads,base,creation_sites,subsystem,"
		     "compiled,cocci_class,reason\n");
	json_array_foreach(json_object_get(result, "implementations"), i, x) {
		char line[32];
		char *heads = join_heads(x, " ;; "), *sites = join_sites(x);
		json_t *cr = json_object_get(x, "cocci");

		snprintf(line, sizeof(line), "%lld", json_integer_value(json_object_get(x, "line")));
		csv_field(&sb, jstr(x, "file"), false);
		csv_field(&sb, line, false);
		csv_field(&sb, jstr(x, "function"), false);
		csv_field(&sb, jstr(x, "layer"), false);
		csv_field(&sb, jstr(x, "class"), false);
		csv_field(&sb, jstr(x, "convertible"), false);
		csv_field(&sb, heads, false);
		csv_field(&sb, jstr(x, "base"), false);
		csv_field(&sb, sites, false);
		csv_field(&sb, jstr(x, "subsystem"), false);
		csv_field(&sb, json_is_true(json_object_get(x, "compiled")) ? "yes" : "no", false);
		csv_field(&sb, json_is_object(cr) ? jstr(cr, "class") : "", false);
		csv_field(&sb, jstr(x, "reason"), true);
		free(heads);
		free(sites);
	}
	return sb_detach(&sb);
}

json_t *subsystem_counts(json_t *result)
{
	json_t *subs = json_object(), *x, *s;
	size_t i;

	json_array_foreach(json_object_get(result, "implementations"), i, x) {
		const char *sub = jstr(x, "subsystem");

		if (!strcmp(jstr(x, "class"), "not-poll"))
			continue;
		s = json_object_get(subs, sub);
		if (!s) {
			s = json_object();
			json_object_set_new(subs, sub, s);
		}
		json_object_set_new(s, "total", json_integer(jint(s, "total") + 1));
		json_object_set_new(s, jstr(x, "convertible"), json_integer(jint(s, jstr(x, "convertible")) + 1));
	}
	return subs;
}

char *summary_markdown(json_t *result)
{
	struct strbuf sb = STRBUF_INIT;
	json_t *counts = json_object_get(result, "counts"), *bc = json_object_get(counts, "by_class");
	json_t *bv = json_object_get(counts, "by_convertible"), *tree = json_object_get(result, "tree");
	json_t *subs = subsystem_counts(result), *x, *l;
	const char *k;
	size_t i;

	sb_addf(&sb, "# polltax: linux %s", jstr(tree, "version"));
	if (jstr(tree, "git_describe")[0])
		sb_addf(&sb, " (%s)", jstr(tree, "git_describe"));
	sb_addf(&sb, "\n\n%lld `->poll` implementations (%lld `file_operations` with a poll), "
		     "%lld converted, %lld auto-convertible, %lld need an open path, %lld to review, "
		     "%lld not convertible; %lld `.poll` members that are not file polling.\n\n",
		jint(counts, "implementations"), jint(counts, "file_operations_with_poll"),
		jint(bv, "converted"), jint(bv, "yes"), jint(bv, "needs-open"), jint(bv, "review"),
		jint(bv, "no"), jint(bc, "not-poll"));
	if (jstr(tree, "only_dir")[0])
		sb_addf(&sb, "Only the implementations under `%s/` are reported (`polltax scan --only-dir`), and "
			     "counted; they were decided with the whole tree's flags and helpers.\n\n",
			jstr(tree, "only_dir"));
	sb_adds(&sb, "| class | implementations |\n|---|---:|\n");
	for (int c = 0; class_order[c]; c++)
		sb_addf(&sb, "| `%s` | %lld |\n", class_order[c], jint(bc, class_order[c]));
	sb_adds(&sb, "\n| auto-convertible | implementations |\n|---|---:|\n");
	{
		static const char *const conv[] = { "yes", "needs-open", "review", "no", "converted", "excluded", NULL };

		for (int c = 0; conv[c]; c++)
			sb_addf(&sb, "| %s | %lld |\n", conv[c], jint(bv, conv[c]));
	}
	sb_adds(&sb, "\n## Per subsystem (directory)\n\n| subsystem | total | converted | convertible | "
		     "needs-open | review | not convertible |\n|---|---:|---:|---:|---:|---:|---:|\n");
	{
		/* json objects iterate in insertion order; sort the keys for stable output */
		struct strvec keys = STRVEC_INIT;

		json_object_foreach(subs, k, x)
			sv_push(&keys, k);
		sv_sort(&keys);
		for (i = 0; i < keys.n; i++) {
			x = json_object_get(subs, keys.v[i]);
			sb_addf(&sb, "| %s | %lld | %lld | %lld | %lld | %lld | %lld |\n", keys.v[i], jint(x, "total"),
				jint(x, "converted"), jint(x, "yes"), jint(x, "needs-open"), jint(x, "review"),
				jint(x, "no"));
		}
		sv_clear(&keys);
	}
	sb_adds(&sb, "\n## Poll layers found by following the calls\n\n");
	json_array_foreach(json_object_get(result, "layers"), i, l)
		sb_addf(&sb, "- `%s`%s: %s\n", jstr(l, "layer"),
			json_is_true(json_object_get(l, "busy_poll")) ? " (busy-poll)" : "", jstr(l, "found_via"));
	sb_addf(&sb, "\n%lld implementations where the Coccinelle pass disagrees (see polltax.json "
		     "\"disagreements\").\n", jint(counts, "disagreements"));
	census_markdown(&sb, result);
	json_decref(subs);
	return sb_detach(&sb);
}

int write_outputs(const char *dir, json_t *result)
{
	char *p;
	char *s;
	int rc = 0;

	if (mkdir_p(dir) < 0)
		return error("cannot create '%s': %s", dir, strerror(errno));
	p = path_join(dir, "polltax.json");
	rc |= write_json(p, result);
	free(p);
	s = csv(result);
	p = path_join(dir, "polltax.csv");
	rc |= write_file_atomic(p, s, strlen(s));
	free(p);
	free(s);
	s = summary_markdown(result);
	p = path_join(dir, "summary.md");
	rc |= write_file_atomic(p, s, strlen(s));
	free(p);
	free(s);
	return rc ? -1 : 0;
}

/* Every file an implementation of IMPLS names: its own, its ops', its creation sites'. */
static void impl_files(json_t *impls, struct strvec *out)
{
	static const char *const lists[] = { "ops", "creation_sites" };
	json_t *x, *y;
	size_t i, j;

	json_array_foreach(impls, i, x) {
		const char *f = json_string_value(json_object_get(x, "file"));

		if (f && *f && !sv_contains(out, f))
			sv_push(out, f);
		for (size_t l = 0; l < 2; l++)
			json_array_foreach(json_object_get(x, lists[l]), j, y) {
				f = json_string_value(json_object_get(y, "file"));
				if (f && *f && !sv_contains(out, f))
					sv_push(out, f);
			}
	}
	sv_sort(out);
}

json_t *scan_sources_id(const char *root, json_t *impls)
{
	struct strvec files = STRVEC_INIT;
	XXH64_state_t *st = XXH64_createState();
	json_t *id;
	char hex[17];

	impl_files(impls, &files);
	XXH64_reset(st, 0);
	for (size_t i = 0; i < files.n; i++) {
		char *p = path_join(root, files.v[i]), *text = NULL;
		size_t len = 0;
		unsigned long long h = read_file(p, &text, &len) < 0 ? 0 : XXH64(text, len, 0);

		XXH64_update(st, files.v[i], strlen(files.v[i]) + 1);
		XXH64_update(st, &h, sizeof(h));
		free(text);
		free(p);
	}
	snprintf(hex, sizeof(hex), "%016llx", (unsigned long long)XXH64_digest(st));
	id = json_pack("{s:I, s:s}", "files", (json_int_t)files.n, "xxh64", hex);
	XXH64_freeState(st);
	sv_clear(&files);
	return id;
}
