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

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * "DIR/NAME" with its "." and ".." resolved (allocated), or NULL when it
 * leaves the tree.
 */
static char *resolve_rel(const char *dir, const char *name)
{
	char *p = dir[0] ? xasprintf("%s/%s", dir, name) : xstrdup(name), *out = xcalloc(strlen(p) + 1, 1);
	size_t n = 0;

	for (char *c = p, *next; c; c = next) {
		next = strchr(c, '/');
		if (next)
			*next++ = '\0';
		if (!*c || !strcmp(c, "."))
			continue;
		if (!strcmp(c, "..")) {
			if (!n) {
				free(p);
				free(out);
				return NULL;
			}
			while (n && out[n - 1] != '/')
				n--;
			n = n ? n - 1 : 0;
			out[n] = '\0';
			continue;
		}
		n += (size_t)sprintf(out + n, "%s%s", n ? "/" : "", c);
	}
	free(p);
	return out;
}

void unity_c_includes(const char *rel, const char *buf, size_t len, struct strvec *out)
{
	const char *end = buf + len, *slash = strrchr(rel, '/');
	char *dir = slash ? xstrndup(rel, (size_t)(slash - rel)) : xstrdup("");

	for (const char *q = memmem(buf, len, ".c\"", 3); q; q = memmem(q + 1, (size_t)(end - q - 1), ".c\"", 3)) {
		const char *bol = q, *d, *open;
		size_t dl;

		while (bol > buf && bol[-1] != '\n')
			bol--;
		d = directive(bol, q, &dl);
		if (!d || !is_dir_word(d, dl, "include"))
			continue;
		open = skip_blank(d + dl, q);
		if (open < q && *open == '"' && !memchr(open + 1, '"', (size_t)(q - open - 1))) {
			char *name = xstrndup(open + 1, (size_t)(q + 2 - open - 1));
			char *r = resolve_rel(dir, name);

			if (r && !sv_contains(out, r))
				sv_push(out, r);
			free(r);
			free(name);
		}
	}
	free(dir);
}

char *unity_compiled_as(const char *root, const char *rel)
{
	const char *slash = strrchr(rel, '/');
	char *dir = slash ? xstrndup(rel, (size_t)(slash - rel)) : xstrdup(""), *abs = path_join(root, dir);
	struct dirent **names = NULL;
	char *r = NULL;
	int n = scandir(abs, &names, NULL, alphasort);

	for (int i = 0; i < n; i++) {
		const char *nm = names[i]->d_name;
		char *crel = dir[0] ? xasprintf("%s/%s", dir, nm) : xstrdup(nm), *cabs, *buf;
		size_t len;

		if (!r && has_suffix(nm, ".c") && strcmp(crel, rel)) {
			struct strvec incs = STRVEC_INIT;

			cabs = path_join(root, crel);
			if (read_file(cabs, &buf, &len) == 0) {
				unity_c_includes(crel, buf, strlen(buf), &incs);
				free(buf);
			}
			if (sv_contains(&incs, rel))
				r = xstrdup(crel);
			sv_clear(&incs);
			free(cabs);
		}
		free(crel);
		free(names[i]);
	}
	free(names);
	free(abs);
	free(dir);
	return r ? r : xstrdup(rel);
}

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
