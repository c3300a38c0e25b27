// SPDX-License-Identifier: GPL-2.0
/*
 * unity.c - unity builds (unity.h).
 *
 * Parsed alone, a .c file that only compiles inside another one (it uses
 * the includer's types, macros and includes) stops at clang's limit of 20
 * errors with no function: its polls would vanish, and every call into it
 * would be unknown.  The prefilter reads every .c file of the tree and
 * notes its quoted #include of .c files; here each such file is given to
 * the parse of its includer, which records its facts apart, under its own
 * name (extract_unit()), as if it had been parsed alone.  Which includer:
 * the first, by path, that the configuration compiles (six includers of
 * ni_mio_common.c would give the same facts six times); when that one is
 * itself only included, its own includer.
 */
#define _GNU_SOURCE
#include "unity.h"

#include <stdlib.h>
#include <string.h>

/* Does the configuration compile REL? */
static bool compiled(const struct tree *t, const struct flags *fl, const char *rel)
{
	struct strvec args = STRVEC_INIT;
	bool r = flags_for(fl, t, rel, &args);

	sv_clear(&args);
	return r;
}

/* The file whose parse records REL (REL itself when it is not only included), allocated. */
static char *top_includer(const struct tree *t, const struct flags *fl, const char *rel, json_t *included_by)
{
	struct strvec seen = STRVEC_INIT;
	const char *cur = rel;
	char *r;

	/* compile_commands.json lists what the build compiles on its own */
	if (fl->kind == FLAGS_CCDB && compiled(t, fl, rel))
		return xstrdup(rel);
	sv_push(&seen, rel);
	for (int depth = 0; depth < 8; depth++) {
		json_t *incs = json_object_get(included_by, cur), *v;
		const char *next = NULL;
		size_t i;

		json_array_foreach(incs, i, v) {
			const char *ir = json_string_value(v);

			if (ir && !sv_contains(&seen, ir) && compiled(t, fl, ir)) {
				next = ir;
				break;
			}
		}
		if (!next)
			break;
		sv_push(&seen, next);
		cur = next;
	}
	r = xstrdup(cur);
	sv_clear(&seen);
	return r;
}

void unity_plan(struct unity *u, const struct tree *t, const struct flags *fl, const struct strvec *files,
		json_t *included_by)
{
	json_t *index = json_object();	/* unit file -> its number */
	size_t alloc = files->n + 1;

	memset(u, 0, sizeof(*u));
	u->also = xcalloc(alloc, sizeof(*u->also));
	u->unit_of = xcalloc(alloc, sizeof(*u->unit_of));
	for (size_t i = 0; i < files->n; i++) {
		char *top = json_object_size(included_by) ? top_includer(t, fl, files->v[i], included_by)
							  : xstrdup(files->v[i]);
		json_t *at = json_object_get(index, top);
		size_t k;

		if (at) {
			k = (size_t)json_integer_value(at);
		} else {
			k = u->rels.n;
			sv_push(&u->rels, top);
			json_object_set_new(index, top, json_integer((json_int_t)k));
		}
		if (strcmp(top, files->v[i]))
			sv_push(&u->also[k], files->v[i]);
		u->unit_of[i] = k;
		free(top);
	}
	json_decref(index);
}

void unity_free(struct unity *u)
{
	for (size_t k = 0; k < u->rels.n; k++)
		sv_clear(&u->also[k]);
	sv_clear(&u->rels);
	free(u->also);
	free(u->unit_of);
	memset(u, 0, sizeof(*u));
}
