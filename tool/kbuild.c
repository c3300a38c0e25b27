// SPDX-License-Identifier: GPL-2.0
/*
 * kbuild.c - "does the configuration build this file?" (kbuild.h).
 *
 * Only plain assignments are followed: obj-y, obj-m, obj-$(CONFIG_X),
 * lib-y, subdir-*, and composite objects (NAME-y, NAME-objs,
 * NAME-$(CONFIG_X)).  ifdef/ifeq blocks are read as if every branch were
 * taken, which can only make a file look built: "not built" is said only
 * when every line naming the file is guarded by a symbol the
 * configuration does not set.
 */
#define _GNU_SOURCE
#include "kbuild.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

struct kbuild {
	char *root;
	json_t *conf;		/* CONFIG_X -> "y" | "m" | ... */
	json_t *mk;		/* dir -> [ [var, [tokens]] ] */
};

struct kbuild *kbuild_open(const char *root, const char *build)
{
	char *p = path_join(build, "include/config/auto.conf"), *text;
	struct kbuild *k;

	if (read_file(p, &text, NULL) < 0) {
		free(p);
		return NULL;
	}
	free(p);
	k = xcalloc(1, sizeof(*k));
	k->root = xstrdup(root);
	k->conf = json_object();
	k->mk = json_object();
	for (char *save = NULL, *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char *eq = strchr(l, '=');

		if (l[0] == '#' || !eq)
			continue;
		*eq = '\0';
		json_object_set_new(k->conf, l, json_string(eq + 1));
	}
	free(text);
	return k;
}

void kbuild_close(struct kbuild *k)
{
	if (!k)
		return;
	free(k->root);
	json_decref(k->conf);
	json_decref(k->mk);
	free(k);
}

/* The assignments of DIR's Makefile and Kbuild: [[var, [tokens]]]. */
static json_t *makefile(struct kbuild *k, const char *dir)
{
	json_t *r = json_object_get(k->mk, dir);
	const char *names[] = { "Makefile", "Kbuild", NULL };

	if (r)
		return r;
	r = json_array();
	for (int n = 0; names[n]; n++) {
		char *p = xasprintf("%s/%s/%s", k->root, dir, names[n]), *text;
		struct strbuf line = STRBUF_INIT;

		if (read_file(p, &text, NULL) < 0) {
			free(p);
			continue;
		}
		free(p);
		for (const char *s = text; *s;) {
			const char *e = strchr(s, '\n');
			size_t len = e ? (size_t)(e - s) : strlen(s);

			sb_add(&line, s, len);
			s += len + (e ? 1 : 0);
			if (line.len && line.buf[line.len - 1] == '\\') {
				line.buf[--line.len] = ' ';
				continue;
			}
			{
				char *l = line.buf ? line.buf : xstrdup(""), *hash = strchr(l, '#'), *op, *var, *rest;

				if (hash)
					*hash = '\0';
				op = strstr(l, "+=");
				if (!op)
					op = strstr(l, ":=");
				if (!op) {
					op = strchr(l, '=');
					if (op && op > l && (op[-1] == '?' || op[-1] == '!'))
						op = NULL;
				}
				if (op) {
					json_t *toks = json_array();
					char *save = NULL;

					var = xstrndup(l, (size_t)(op - l));
					rest = op + (op[1] == '=' ? 2 : 1);
					while (*var == ' ' || *var == '\t')
						memmove(var, var + 1, strlen(var));
					while (*var && (var[strlen(var) - 1] == ' ' || var[strlen(var) - 1] == '\t'))
						var[strlen(var) - 1] = '\0';
					for (char *t = strtok_r(rest, " \t", &save); t; t = strtok_r(NULL, " \t", &save))
						json_array_append_new(toks, json_string(t));
					json_array_append_new(r, json_pack("[s, o]", var, toks));
					free(var);
				}
				if (!line.buf)
					free(l);
			}
			sb_reset(&line);
		}
		sb_release(&line);
		free(text);
	}
	json_object_set_new(k->mk, dir, r);
	return r;
}

enum { NO = 0, YES = 1, UNKNOWN = -1 };

/* Is the symbol of "obj-$(CONFIG_X)" set?  *COMPOSITE gets NAME for NAME-y / NAME-objs / NAME-$(CONFIG_X). */
static int var_condition(struct kbuild *k, const char *var, char **composite, char **sym)
{
	const char *d = strstr(var, "-$(CONFIG_");
	size_t plen;

	*composite = NULL;
	*sym = NULL;
	if (!strcmp(var, "obj-y") || !strcmp(var, "obj-m") || !strcmp(var, "lib-y") || !strcmp(var, "subdir-y") ||
	    !strcmp(var, "subdir-m") || !strcmp(var, "core-y") || !strcmp(var, "drivers-y"))
		return YES;
	if (d && var[strlen(var) - 1] == ')') {
		const char *c = d + 3;
		char *name = xstrndup(c, strlen(c) - 1);	/* CONFIG_X */
		const char *v = json_string_value(json_object_get(k->conf, name));
		int r = v && (!strcmp(v, "y") || !strcmp(v, "m")) ? YES : NO;

		plen = (size_t)(d - var);
		if (strncmp(var, "obj", plen) || plen != 3) {
			if (strncmp(var, "subdir", plen) || plen != 6)
				*composite = xstrndup(var, plen);
		}
		*sym = name;
		return r;
	}
	plen = strlen(var);
	if (plen > 2 && (!strcmp(var + plen - 2, "-y") || !strcmp(var + plen - 2, "-m"))) {
		*composite = xstrndup(var, plen - 2);
		return YES;
	}
	if (plen > 5 && !strcmp(var + plen - 5, "-objs")) {
		*composite = xstrndup(var, plen - 5);
		return YES;
	}
	return UNKNOWN;
}

static int dir_built(struct kbuild *k, const char *dir, char **why, int depth);

/* Is OBJ (a file name in DIR, "x.o") built? */
static int obj_built(struct kbuild *k, const char *dir, const char *obj, char **why, int depth)
{
	json_t *asg = makefile(k, dir), *a, *tok;
	size_t i, j;
	int result = NO, seen = 0;

	if (depth > 16)
		return UNKNOWN;
	json_array_foreach(asg, i, a) {
		const char *var = json_string_value(json_array_get(a, 0));
		bool has = false;

		json_array_foreach(json_array_get(a, 1), j, tok)
			has = has || !strcmp(json_string_value(tok), obj);
		if (has) {
			char *comp, *sym;
			int c = var_condition(k, var, &comp, &sym);

			seen++;
			if (c == YES && comp) {
				char *co = xasprintf("%s.o", comp);

				c = obj_built(k, dir, co, why, depth + 1);
				free(co);
			} else if (c == YES) {
				c = dir_built(k, dir, why, depth + 1);
			} else if (c == NO && why && sym && !*why) {
				*why = xasprintf("%s is not set", sym);
			}
			free(comp);
			free(sym);
			if (c == YES) {
				result = YES;
				break;
			}
			if (c == UNKNOWN)
				result = UNKNOWN;
		}
	}
	return seen ? result : UNKNOWN;
}

static int dir_built(struct kbuild *k, const char *dir, char **why, int depth)
{
	char *anc = xstrdup(dir), *slash;
	int r = UNKNOWN;

	if (!strncmp(dir, "arch/", 5) && strncmp(dir, "arch/x86", 8)) {
		if (why && !*why)
			*why = xasprintf("%s is not the configured architecture", dir);
		free(anc);
		return NO;
	}
	if (!strchr(dir, '/') || !strcmp(dir, "arch/x86")) {
		free(anc);
		return YES;	/* a top-level directory of the build */
	}
	/* the closest ancestor that names DIR's remaining path, as "sub/" */
	while ((slash = strrchr(anc, '/'))) {
		char *rest;
		json_t *a, *tok;
		size_t i, j;
		bool found = false;

		*slash = '\0';
		rest = xasprintf("%s/", dir + strlen(anc) + 1);
		json_array_foreach(makefile(k, anc), i, a) {
			const char *var = json_string_value(json_array_get(a, 0));
			bool has = false;

			json_array_foreach(json_array_get(a, 1), j, tok)
				has = has || !strcmp(json_string_value(tok), rest);
			if (has) {
				char *comp, *sym;
				int c = var_condition(k, var, &comp, &sym);

				found = true;
				if (c == YES)
					c = dir_built(k, anc, why, depth + 1);
				else if (c == NO && why && sym && !*why)
					*why = xasprintf("%s is not set", sym);
				free(comp);
				free(sym);
				if (c == YES) {
					r = YES;
					break;
				}
				r = (r == UNKNOWN && c == NO) ? NO : (c == UNKNOWN ? UNKNOWN : r);
			}
		}
		free(rest);
		if (found || !strchr(anc, '/'))
			break;
	}
	free(anc);
	return r;
}

int kbuild_built(struct kbuild *k, const char *rel, char **why)
{
	char *dir = xstrdup(rel), *slash = strrchr(dir, '/'), *obj;
	size_t n;
	int r;

	if (why)
		*why = NULL;
	if (!slash) {
		free(dir);
		return UNKNOWN;
	}
	*slash = '\0';
	obj = xstrdup(slash + 1);
	n = strlen(obj);
	if (n < 2 || strcmp(obj + n - 2, ".c")) {
		free(dir);
		free(obj);
		return UNKNOWN;
	}
	obj[n - 1] = 'o';
	r = obj_built(k, dir, obj, why, 0);
	if (r != NO && why) {
		free(*why);
		*why = NULL;
	}
	free(dir);
	free(obj);
	return r;
}
