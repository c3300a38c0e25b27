// SPDX-License-Identifier: GPL-2.0
/*
 * kbuild.c - the one reader of the tree's Kbuild makefiles (kbuild.h).
 *
 * kbuild_file() parses a directory's makefile once into its assignments;
 * the queries read those: kbuild_flags() expands the ccflags lines with the
 * makefile's own variables as make does, kbuild_built() follows plain
 * assignments (obj-y, obj-m, obj-$(CONFIG_X), lib-y, subdir-*, composite
 * objects NAME-y, NAME-objs, NAME-$(CONFIG_X)) and the parents'
 * subdirectory entries against include/config/auto.conf, kbuild_find()
 * names the line that builds an object, kbuild_target() the make target.
 */
#define _GNU_SOURCE
#include "kbuild.h"
#include "strutil.h"

#include <dirent.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

/* a directory's ccflags, expanded (kbuild_flags()) */
struct kb_flags {
	struct strvec all;	/* the -I/-D flags of its ccflags and subdir-ccflags, in order */
	struct strvec sub;	/* those of its subdir-ccflags alone */
};

struct kbuild {
	char *root;
	char *build;		/* O=, or NULL */
	char *arch;		/* the configured architecture's directory under arch/ */
	json_t *conf;		/* CONFIG_X -> "y" | "m" | ...; NULL: no configuration */
	json_t *index;		/* dir -> index in file */
	struct kb_file **file;
	size_t n;
};

struct kbuild *kbuild_new(const char *root, const char *build)
{
	struct kbuild *k = xcalloc(1, sizeof(*k));

	k->root = xstrdup(root);
	k->build = build ? xstrdup(build) : NULL;
	k->arch = xstrdup("x86");
	k->index = json_object();
	return k;
}

struct kbuild *kbuild_open(const char *root, const char *build)
{
	char *p = path_join(build, "include/config/auto.conf"), *text;
	struct kbuild *k;

	if (read_file(p, &text, NULL) < 0) {
		free(p);
		return NULL;
	}
	free(p);
	k = kbuild_new(root, build);
	k->conf = json_object();
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

static void file_free(struct kb_file *f)
{
	for (size_t i = 0; i < f->n; i++) {
		free(f->a[i].name);
		free(f->a[i].value);
		sv_clear(&f->a[i].words);
	}
	if (f->flags) {
		sv_clear(&f->flags->all);
		sv_clear(&f->flags->sub);
		free(f->flags);
	}
	free(f->a);
	free(f->dir);
	free(f);
}

void kbuild_set_arch(struct kbuild *k, const char *arch)
{
	free(k->arch);
	k->arch = xstrdup(arch);
}

void kbuild_close(struct kbuild *k)
{
	if (!k)
		return;
	for (size_t i = 0; i < k->n; i++)
		file_free(k->file[i]);
	free(k->file);
	free(k->root);
	free(k->build);
	free(k->arch);
	json_decref(k->conf);
	json_decref(k->index);
	free(k);
}

/* ---- reading ---------------------------------------------------------------------- */

/*
 * Split logical line L (continuations joined, comment cut) into the
 * assigned *NAME (trimmed, allocated), its operator *OP and *VALUE; false
 * when L assigns nothing (a rule, a directive, a recipe).
 */
static bool split_assign(char *l, char **name, const char **op, char **value)
{
	static const char *const ops[] = { "::=", ":=", "+=", "?=", "=", NULL };
	char *e;
	int level = 0;

	while (*l == ' ' || *l == '\t')
		l++;
	if (!strncmp(l, "export ", 7) || !strncmp(l, "override ", 9))
		l = strchr(l, ' ') + 1;
	for (e = l; *e; e++) {
		if (*e == '(' || *e == '{')
			level++;
		else if ((*e == ')' || *e == '}') && level)
			level--;
		else if (!level && strchr("=:+?", *e))
			break;
	}
	*op = NULL;
	for (int k = 0; *e && ops[k] && !*op; k++)
		if (!strncmp(e, ops[k], strlen(ops[k])))
			*op = ops[k];
	if (!*op)
		return false;	/* no '=', or a rule "target: prerequisites" */
	*value = e + strlen(*op);
	while (**value == ' ' || **value == '\t')
		(*value)++;
	while (e > l && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	if (e == l)
		return false;
	*name = xstrndup(l, (size_t)(e - l));
	return true;
}

/* Parse TEXT (LEN bytes) into F's assignments. */
static void parse(struct kb_file *f, const char *text, size_t len)
{
	char *buf = xstrndup(text, len);
	const char *counted = text;
	int line = 1;

	/* a backslash-newline is a blank */
	for (size_t i = 0; i + 1 < len; i++) {
		size_t k = buf[i + 1] == '\r' && i + 2 < len ? 2 : 1;

		if (buf[i] == '\\' && buf[i + k] == '\n')
			memset(buf + i, ' ', k + 1);
	}
	for (char *save = NULL, *l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char *hash = strchr(l, '#'), *name, *value, *words, *wsave = NULL;
		const char *op;
		struct kb_assign *a;

		for (const char *at = text + (l - buf); counted < at; counted++)
			line += *counted == '\n';
		if (hash)
			*hash = '\0';
		if (!split_assign(l, &name, &op, &value))
			continue;
		f->a = xrealloc(f->a, (f->n + 1) * sizeof(*f->a));
		a = &f->a[f->n++];
		memset(a, 0, sizeof(*a));
		a->name = name;
		a->op = op;
		a->value = xstrdup(value);
		a->line = line;
		words = xstrdup(value);
		for (char *w = strtok_r(words, " \t", &wsave); w; w = strtok_r(NULL, " \t", &wsave))
			sv_push(&a->words, w);
		free(words);
	}
	free(buf);
}

const struct kb_file *kbuild_file(struct kbuild *k, const char *dir)
{
	static const char *const names[] = { "Kbuild", "Makefile", NULL };
	json_t *at = json_object_get(k->index, dir);
	struct kb_file *f;

	if (at)
		return k->file[json_integer_value(at)];
	f = xcalloc(1, sizeof(*f));
	f->dir = xstrdup(dir);
	for (int n = 0; names[n] && !f->name; n++) {
		char *p = xasprintf("%s/%s%s%s", k->root, dir, *dir ? "/" : "", names[n]), *text;
		size_t len;

		if (read_file(p, &text, &len) == 0) {
			f->name = names[n];
			parse(f, text, len);
			free(text);
		}
		free(p);
	}
	k->file = xrealloc(k->file, (k->n + 1) * sizeof(*k->file));
	k->file[k->n] = f;
	json_object_set_new(k->index, dir, json_integer((json_int_t)k->n));
	k->n++;
	return f;
}

const struct kb_assign *kbuild_names(const struct kb_file *f, const char *word)
{
	for (size_t i = 0; i < f->n; i++)
		if (sv_contains(&f->a[i].words, word))
			return &f->a[i];
	return NULL;
}

const struct kb_assign *kbuild_find(const struct kb_file *f, const char *word, char **prefix, char **var)
{
	for (size_t i = 0; i < f->n; i++) {
		const struct kb_assign *a = &f->a[i];
		const char *dash = strrchr(a->name, '-'), *v;
		size_t plen;

		if (!dash || dash == a->name || (strcmp(a->op, "=") && strcmp(a->op, ":=") && strcmp(a->op, "+=")))
			continue;
		plen = (size_t)(dash - a->name);
		if (strspn(a->name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-") < plen)
			continue;
		v = dash + 1;
		if (!strncmp(v, "$(CONFIG_", 9)) {
			size_t n = strspn(v + 9, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_");

			if (!n || strcmp(v + 9 + n, ")"))
				continue;
		} else if (strcmp(v, "y") && strcmp(v, "objs")) {
			continue;
		}
		if (!sv_contains(&a->words, word))
			continue;
		*prefix = xstrndup(a->name, plen);
		*var = v[0] == '$' ? xstrndup(v + 9, strlen(v + 9) - 1) : xstrdup("y");
		return a;
	}
	return NULL;
}

/* ---- the Kconfig symbol of a file -------------------------------------------------- */

char *kbuild_symbol(struct kbuild *k, const char *file, char **cond, char **why)
{
	char *dir = xstrdup(file), *slash = strrchr(dir, '/'), *word, *prefix = NULL, *var = NULL;
	char *result = NULL, *alt = NULL;

	*cond = NULL;
	*why = NULL;
	if (!slash || strlen(file) < 3 || strcmp(file + strlen(file) - 2, ".c")) {
		*why = xasprintf("'%s' is not a .c file in a directory", file);
		free(dir);
		return NULL;
	}
	*slash = '\0';
	word = xasprintf("%.*s.o", (int)strlen(slash + 1) - 2, slash + 1);
	for (int depth = 0; depth < 12; depth++) {
		const struct kb_file *mk = kbuild_file(k, dir);

		/* a list variable rather than an object: "obj-y += $(list-y)" */
		if (!mk->name || (!kbuild_find(mk, word, &prefix, &var) && !(alt && kbuild_find(mk, alt, &prefix, &var)))) {
			if (!*why)
				*why = xasprintf("no line of %s/Makefile builds %s", dir, word);
			break;
		}
		free(alt);
		alt = NULL;
		if (strcmp(prefix, "obj") && strcmp(prefix, "lib")) {
			/* a part of composite object PREFIX.o: conditional inside it, then PREFIX.o itself */
			if (strcmp(var, "y") && strcmp(var, "objs") && !*cond)
				*cond = xstrdup(var);
			free(word);
			word = xasprintf("%s.o", prefix);
			alt = xasprintf("$(%s-y)", prefix);
			free(prefix);
			free(var);
			continue;
		}
		free(prefix);
		if (strcmp(var, "y")) {
			result = var;
			break;
		}
		free(var);
		/* obj-y: the directory decides; look for "dir/" in the parent's Makefile */
		slash = strrchr(dir, '/');
		free(word);
		word = xasprintf("%s/", slash ? slash + 1 : dir);
		if (slash) {
			*slash = '\0';
		} else {
			char *p2 = NULL, *v2 = NULL;

			/* top-level directories: the kernel's own Kbuild/Makefile lists them as obj-y */
			if (kbuild_find(kbuild_file(k, ""), word, &p2, &v2) && strcmp(v2, "y")) {
				result = v2;
				v2 = NULL;
			} else {
				result = xstrdup("y");
			}
			free(p2);
			free(v2);
			break;
		}
	}
	free(word);
	free(alt);
	free(dir);
	if (result) {
		free(*why);
		*why = NULL;
	}
	if (result && *cond && !strcmp(*cond, result)) {
		free(*cond);
		*cond = NULL;
	}
	return result;
}

/* ---- flags: the ccflags lines, expanded as make does --------------------------------- */

/*
 * A makefile's variables as make has read them so far: NAME and its value
 * (unexpanded, as "=" and "+=" keep it; ":=" expands it at once), and the
 * flavour of each variable assigned so far, its own or a ccflags one.
 */
struct mkvars {
	struct strvec name, value;
	struct strvec simple, recursive;	/* first set with ":=", or with "=", "+=", "?=" */
};

/*
 * Does make expand the value of NAME OP VALUE at once?  For ":=", and for
 * "+=" to a variable first set with ":="; any other value is expanded
 * where the variable is used.  Records NAME's flavour when it is new.
 */
static bool mk_now(struct mkvars *mv, const char *name, const char *op)
{
	if (!sv_contains(&mv->simple, name) && !sv_contains(&mv->recursive, name))
		sv_push(op[0] == ':' ? &mv->simple : &mv->recursive, name);
	return op[0] == ':' || (op[0] == '+' && sv_contains(&mv->simple, name));
}

#define MK_UNKNOWN '\001'	/* what polltax cannot know expands to */

static void mk_expand(const struct kbuild *k, const char *dir, const struct mkvars *mv, const char *s,
		      const char *end, int depth, struct strbuf *out);

/* The value of variable NAME (N long) into OUT, expanded; MK_UNKNOWN when polltax cannot know it. */
static void mk_var(const struct kbuild *k, const char *dir, const struct mkvars *mv, const char *name, size_t n,
		   int depth, struct strbuf *out)
{
	static const char *const builtin[] = { "srctree", "src", "obj", "objtree", NULL };
	size_t i;

	for (int b = 0; builtin[b]; b++) {
		if (strlen(builtin[b]) != n || strncmp(name, builtin[b], n))
			continue;
		if (b == 0)
			sb_adds(out, k->root);
		else if (b == 1)	/* relative, as older trees' "$(srctree)/$(src)" needs */
			sb_adds(out, dir);
		else if (b == 2)
			sb_addf(out, "%s/%s", k->build, dir);
		else
			sb_adds(out, k->build);
		return;
	}
	for (i = mv->name.n; i-- > 0;)
		if (strlen(mv->name.v[i]) == n && !strncmp(mv->name.v[i], name, n))
			break;
	if (i == (size_t)-1 || depth >= 8) {
		sb_addc(out, MK_UNKNOWN);
		return;
	}
	mk_expand(k, dir, mv, mv->value.v[i], mv->value.v[i] + strlen(mv->value.v[i]), depth + 1, out);
}

/*
 * S..END with its variable references expanded: $(srctree), $(src) (the
 * directory, relative: a relative -I is the tree's), $(obj), $(objtree),
 * and the makefile's own variables.  A function
 * ($(call ...), $(shell ...)), an automatic variable or a variable set
 * elsewhere (the configuration's CONFIG_ ones) is MK_UNKNOWN.
 */
static void mk_expand(const struct kbuild *k, const char *dir, const struct mkvars *mv, const char *s,
		      const char *end, int depth, struct strbuf *out)
{
	while (s < end) {
		char open, close;
		int level = 1;
		const char *name, *q;

		if (*s != '$' || s + 1 >= end) {
			sb_addc(out, *s++);
			continue;
		}
		if (s[1] == '$') {
			sb_addc(out, '$');
			s += 2;
			continue;
		}
		if (s[1] != '(' && s[1] != '{') {	/* $@, $<, $X */
			sb_addc(out, MK_UNKNOWN);
			s += 2;
			continue;
		}
		open = s[1];
		close = open == '(' ? ')' : '}';
		name = s + 2;
		for (q = name; q < end && level; q++)
			level += *q == open ? 1 : *q == close ? -1 : 0;
		if (level) {		/* unbalanced: the rest is unknown */
			sb_addc(out, MK_UNKNOWN);
			return;
		}
		/* q is just past the closing parenthesis */
		if (strcspn(name, " \t:$") >= (size_t)(q - 1 - name))
			mk_var(k, dir, mv, name, (size_t)(q - 1 - name), depth, out);
		else
			sb_addc(out, MK_UNKNOWN);
		s = q;
	}
}

/* Record the assignment NAME OP VALUE (OP: "=", ":=", "::=", "+=", "?="). */
static void mk_assign(const struct kbuild *k, const char *dir, struct mkvars *mv, const char *name, const char *op,
		      const char *value)
{
	struct strbuf v = STRBUF_INIT;
	size_t i;

	for (i = mv->name.n; i-- > 0;)
		if (!strcmp(mv->name.v[i], name))
			break;
	if (i != (size_t)-1 && op[0] == '?')
		return;
	if (mk_now(mv, name, op))
		mk_expand(k, dir, mv, value, value + strlen(value), 0, &v);
	else
		sb_adds(&v, value);
	if (i != (size_t)-1 && op[0] == '+') {
		char *old = mv->value.v[i];

		mv->value.v[i] = xasprintf("%s %s", old, v.buf ? v.buf : "");
		free(old);
	} else if (i != (size_t)-1) {
		free(mv->value.v[i]);
		mv->value.v[i] = xstrdup(v.buf ? v.buf : "");
	} else {
		sv_push(&mv->name, name);
		sv_push(&mv->value, v.buf ? v.buf : "");
	}
	sb_release(&v);
}

/*
 * The -I/-D flags of a ccflags VALUE, expanded with the variables MV (NULL:
 * it is already); those polltax cannot know are left out.
 */
static void mk_cflags(const struct kbuild *k, const char *dir, const struct mkvars *mv, const char *value,
		      struct strvec *out)
{
	struct strbuf ex = STRBUF_INIT;
	struct strvec w = STRVEC_INIT;

	if (mv)
		mk_expand(k, dir, mv, value, value + strlen(value), 0, &ex);
	else
		sb_adds(&ex, value);
	shell_split(ex.buf ? ex.buf : "", &w);
	for (size_t i = 0; i < w.n; i++) {
		const char *a = w.v[i], *val;

		if (strncmp(a, "-I", 2) && strncmp(a, "-D", 2))
			continue;
		val = a[2] ? a + 2 : (i + 1 < w.n ? w.v[++i] : "");
		if (!*val || strchr(val, MK_UNKNOWN))
			continue;
		if (a[1] == 'I' && val[0] != '/')
			sv_pushf(out, "-I%s/%s", k->root, val);
		else
			sv_pushf(out, "-%c%s", a[1], val);
	}
	sv_clear(&w);
	sb_release(&ex);
}

/*
 * F's ccflags: the makefile's own variables (such as
 * "-I$(FULL_AMD_PATH)/include" or "$(INCLUDES) $(DEFINES)") expanded as
 * make does, where the line is when the ccflags variable was first set
 * with ":=", with their last values otherwise.
 */
static struct kb_flags *file_flags(const struct kbuild *k, const struct kb_file *f)
{
	struct mkline {
		char *value;	/* expanded already (now), or to be at the end */
		bool now, sub;
	} *line = NULL;
	size_t nline = 0;
	struct mkvars mv = { STRVEC_INIT, STRVEC_INIT, STRVEC_INIT, STRVEC_INIT };
	struct kb_flags *r = xcalloc(1, sizeof(*r));

	for (size_t i = 0; i < f->n; i++) {
		const char *name = f->a[i].name, *op = f->a[i].op, *value = f->a[i].value;

		if ((strstr(name, "ccflags") && !strstr(name, "remove")) || strstr(name, "EXTRA_CFLAGS")) {
			struct mkline *ml;

			line = xrealloc(line, (nline + 1) * sizeof(*line));
			ml = &line[nline++];
			ml->sub = strstr(name, "subdir-ccflags") != NULL;
			ml->now = mk_now(&mv, name, op);
			if (ml->now) {
				struct strbuf ex = STRBUF_INIT;

				mk_expand(k, f->dir, &mv, value, value + strlen(value), 0, &ex);
				ml->value = ex.buf ? sb_detach(&ex) : xstrdup("");
			} else {
				ml->value = xstrdup(value);
			}
		} else if (!strpbrk(name, "$ \t")) {
			mk_assign(k, f->dir, &mv, name, op, value);
		}
	}
	for (size_t i = 0; i < nline; i++) {
		size_t from = r->all.n;

		mk_cflags(k, f->dir, line[i].now ? NULL : &mv, line[i].value, &r->all);
		for (size_t j = from; line[i].sub && j < r->all.n; j++)
			sv_push(&r->sub, r->all.v[j]);
		free(line[i].value);
	}
	free(line);
	sv_clear(&mv.name);
	sv_clear(&mv.value);
	sv_clear(&mv.simple);
	sv_clear(&mv.recursive);
	return r;
}

void kbuild_flags(struct kbuild *k, const char *dir, const char *obj, struct strvec *out)
{
	struct kb_file *f = (struct kb_file *)kbuild_file(k, dir);
	const struct strvec *v;

	if (!f->name)
		return;
	if (!f->flags)
		f->flags = file_flags(k, f);
	v = !obj || kbuild_names(f, obj) ? &f->flags->all : &f->flags->sub;
	for (size_t i = 0; i < v->n; i++)
		sv_push(out, v->v[i]);
}

/* ---- is a file built? --------------------------------------------------------------- */

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
	const struct kb_file *f = kbuild_file(k, dir);
	int result = NO, seen = 0;

	if (depth > 16)
		return UNKNOWN;
	for (size_t i = 0; i < f->n; i++) {
		char *comp, *sym;
		int c;

		if (!sv_contains(&f->a[i].words, obj))
			continue;
		c = var_condition(k, f->a[i].name, &comp, &sym);
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
	return seen ? result : UNKNOWN;
}

static int dir_built(struct kbuild *k, const char *dir, char **why, int depth)
{
	const char *in_arch = !strncmp(dir, "arch/", 5) ? dir + 5 : NULL;
	size_t al = strlen(k->arch);
	/* arch/X or below it, X the configured architecture */
	bool ours = in_arch && !strncmp(in_arch, k->arch, al) && (!in_arch[al] || in_arch[al] == '/');
	char *anc = xstrdup(dir), *slash;
	int r = UNKNOWN;

	if (in_arch && !ours) {
		if (why && !*why)
			*why = xasprintf("%s is not the configured architecture", dir);
		free(anc);
		return NO;
	}
	if (!strchr(dir, '/') || (ours && !in_arch[al])) {
		free(anc);
		return YES;	/* a top-level directory of the build */
	}
	/* the closest ancestor that names DIR's remaining path, as "sub/" */
	while ((slash = strrchr(anc, '/'))) {
		const struct kb_file *f;
		char *rest;
		bool found = false;

		*slash = '\0';
		rest = xasprintf("%s/", dir + strlen(anc) + 1);
		f = kbuild_file(k, anc);
		for (size_t i = 0; i < f->n; i++) {
			char *comp, *sym;
			int c;

			if (!sv_contains(&f->a[i].words, rest))
				continue;
			c = var_condition(k, f->a[i].name, &comp, &sym);
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
		free(rest);
		if (found || !strchr(anc, '/'))
			break;
	}
	free(anc);
	return r;
}

int kbuild_built(struct kbuild *k, const char *rel, char **why)
{
	char *dir, *slash, *obj;
	int r;

	if (why)
		*why = NULL;
	if (!k->conf || !has_suffix(rel, ".c") || !strchr(rel, '/'))
		return UNKNOWN;
	dir = xstrdup(rel);
	slash = strrchr(dir, '/');
	*slash = '\0';
	obj = xstrdup(slash + 1);
	obj[strlen(obj) - 1] = 'o';
	r = obj_built(k, dir, obj, why, 0);
	if (r != NO && why) {
		free(*why);
		*why = NULL;
	}
	free(dir);
	free(obj);
	return r;
}

/* ---- the make target ---------------------------------------------------------------- */

/* Does an assignment of F have a value containing TEXT? */
static bool value_has(const struct kb_file *f, const char *text)
{
	for (size_t i = 0; i < f->n; i++)
		if (strstr(f->a[i].value, text))
			return true;
	return false;
}

/* The sibling directory of PARENT/NAME whose makefile builds "../NAME", or NULL. */
static char *builder_of(struct kbuild *k, const char *parent, const char *name)
{
	char *pdir = xasprintf("%s/%s", k->root, parent), *needle = xasprintf("../%s", name), *r = NULL;
	DIR *dir = opendir(pdir);
	struct dirent *de;
	struct strvec subs = STRVEC_INIT;

	while (dir && (de = readdir(dir)))
		if (de->d_name[0] != '.' && strcmp(de->d_name, name))
			sv_push(&subs, de->d_name);
	if (dir)
		closedir(dir);
	sv_sort(&subs);
	for (size_t i = 0; i < subs.n && !r; i++) {
		char *sub = xasprintf("%s/%s", parent, subs.v[i]);

		if (value_has(kbuild_file(k, sub), needle))
			r = xstrdup(subs.v[i]);
		free(sub);
	}
	sv_clear(&subs);
	free(needle);
	free(pdir);
	return r;
}

char *kbuild_target(struct kbuild *k, const char *rel)
{
	char *d = xstrdup(rel), *slash = strrchr(d, '/'), *res = NULL;

	if (slash) {
		const struct kb_file *f;
		char *ps;
		bool own = false;

		*slash = '\0';
		f = kbuild_file(k, d);
		for (size_t i = 0; i < f->n && !own; i++)
			own = !strncmp(f->a[i].name, "obj-", 4);
		ps = strrchr(d, '/');
		if (f->name && !own && ps) {
			char *sib;

			*ps = '\0';
			sib = builder_of(k, d, ps + 1);
			if (sib)
				res = xasprintf("%s/%s/../%s/%.*so", d, sib, ps + 1, (int)strlen(slash + 1) - 1,
						slash + 1);
			free(sib);
		}
	}
	free(d);
	if (!res) {
		res = xstrdup(rel);
		res[strlen(res) - 1] = 'o';
	}
	return res;
}
