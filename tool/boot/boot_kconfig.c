// SPDX-License-Identifier: GPL-2.0
/*
 * boot_kconfig.c - facts from the Kconfig files x86 reads: for a symbol,
 * its "depends on" lines with the "if" and "menu ... depends on" blocks
 * around it, and around every "source" line on the way from the top-level
 * Kconfig to its file ("if USB" in drivers/media/usb/Kconfig is a
 * dependency of every driver in drivers/media/usb/siano/Kconfig); whether
 * it has a prompt; which options select it.  The files are read once, by
 * following "source" from the top with $(SRCARCH) = x86, so a symbol that
 * only another architecture defines has no entry.
 */
#define _GNU_SOURCE
#include "boot.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

struct kfile {
	char *path;		/* relative to the tree */
	struct strvec lines;
	long parent;		/* index of the file that sources it, -1 for the top */
	size_t parent_line;	/* its "source" line there */
};

struct kindex {
	char *src;
	struct kfile *f;
	size_t nf, alloc;
	struct strvec sym;	/* "config SYM" entries, first one wins */
	size_t *sym_file, *sym_line;
	struct strvec sel_target, sel_by;	/* "select TARGET" inside "config BY" */
};

static struct kindex idx;

static const char *skip_space(const char *p)
{
	while (isspace((unsigned char)*p))
		p++;
	return p;
}

static bool kconfig_keyword(const char *l)
{
	static const char *const kw[] = { "config ", "menuconfig ", "choice", "endchoice", "menu ", "endmenu",
					   "if ", "endif", "source ", "comment ", "mainmenu " };

	for (size_t i = 0; i < sizeof(kw) / sizeof(kw[0]); i++)
		if (!strncmp(l, kw[i], strlen(kw[i])))
			return true;
	return false;
}

/* append "&& E" to R, E in parentheses when it has an "||" of its own */
static void and_part(struct strbuf *r, const char *e)
{
	if (!*e)
		return;
	if (strstr(e, "||") && *e != '(')
		sb_addf(r, "%s(%s)", r->len ? " && " : "", e);
	else
		sb_addf(r, "%s%s", r->len ? " && " : "", e);
}

/* the word after a keyword: "config FOO" -> FOO */
static char *word_after(const char *p)
{
	const char *e;

	p = skip_space(p);
	for (e = p; isalnum((unsigned char)*e) || *e == '_'; e++)
		;
	return xstrndup(p, (size_t)(e - p));
}

static void read_kfile(const char *path, long parent, size_t parent_line, int depth)
{
	char *full = path_join(idx.src, path), *text;
	struct kfile *f;
	size_t me;
	char *current = NULL;

	if (depth > 32 || read_file(full, &text, NULL) < 0) {
		free(full);
		return;
	}
	free(full);
	if (idx.nf == idx.alloc) {
		idx.alloc = idx.alloc ? 2 * idx.alloc : 256;
		idx.f = xrealloc(idx.f, idx.alloc * sizeof(*idx.f));
	}
	me = idx.nf++;
	f = &idx.f[me];
	memset(f, 0, sizeof(*f));
	f->path = xstrdup(path);
	f->parent = parent;
	f->parent_line = parent_line;
	for (char *p = text; *p;) {
		char *e = strchr(p, '\n');

		if (e)
			*e = '\0';
		sv_push(&f->lines, p);
		p = e ? e + 1 : p + strlen(p);
	}
	free(text);
	for (size_t i = 0; i < idx.f[me].lines.n; i++) {
		const char *l = idx.f[me].lines.v[i], *t = skip_space(l);

		if (!strncmp(l, "config ", 7) || !strncmp(l, "menuconfig ", 11)) {
			free(current);
			current = word_after(strchr(l, ' '));
			if (!sv_contains(&idx.sym, current)) {
				sv_push(&idx.sym, current);
				idx.sym_file = xrealloc(idx.sym_file, idx.sym.n * sizeof(size_t));
				idx.sym_line = xrealloc(idx.sym_line, idx.sym.n * sizeof(size_t));
				idx.sym_file[idx.sym.n - 1] = me;
				idx.sym_line[idx.sym.n - 1] = i;
			}
		} else if (kconfig_keyword(t)) {
			free(current);
			current = NULL;
		}
		if (current && !strncmp(t, "select ", 7)) {
			char *target = word_after(t + 7);

			sv_push(&idx.sel_target, target);
			sv_push(&idx.sel_by, current);
			free(target);
		}
		if (!strncmp(t, "source ", 7) || !strncmp(t, "osource ", 8) || !strncmp(t, "rsource ", 8)) {
			const char *q = strchr(t, '"'), *q2 = q ? strchr(q + 1, '"') : NULL;
			struct strbuf p = STRBUF_INIT;

			if (!q || !q2)
				continue;
			if (t[0] == 'r') {	/* relative to this file's directory */
				const char *slash = strrchr(idx.f[me].path, '/');

				if (slash)
					sb_addf(&p, "%.*s/", (int)(slash - idx.f[me].path), idx.f[me].path);
			}
			for (const char *c = q + 1; c < q2; c++) {
				if (!strncmp(c, "$(SRCARCH)", 10)) {
					sb_adds(&p, "x86");
					c += 9;
				} else {
					sb_addc(&p, *c);
				}
			}
			if (!strchr(p.buf, '$') && !strchr(p.buf, '*'))
				read_kfile(p.buf, (long)me, i, depth + 1);	/* may move idx.f */
			sb_release(&p);
		}
	}
	free(current);
}

static void index_tree(const char *src)
{
	if (idx.src && !strcmp(idx.src, src))
		return;
	if (idx.src)
		die("BUG: Kconfig index of two trees");
	idx.src = xstrdup(src);
	read_kfile("Kconfig", -1, 0, 0);
}

/*
 * the "if" and "menu ... depends on" blocks open at line END of file F;
 * true when a "choice" is one of them
 */
static bool blocks_at(const struct kfile *f, size_t end, struct strbuf *r)
{
	struct strvec stack = STRVEC_INIT;
	bool pending_menu = false;
	int choices = 0;

	for (size_t i = 0; i < end && i < f->lines.n; i++) {
		const char *l = f->lines.v[i], *t = skip_space(l);

		if (!strncmp(l, "if ", 3)) {
			sv_push(&stack, skip_space(l + 3));
		} else if ((!strncmp(l, "endif", 5) || !strncmp(l, "endmenu", 7) || !strncmp(l, "endchoice", 9)) &&
			   stack.n) {
			choices -= !strncmp(l, "endchoice", 9);
			free(stack.v[--stack.n]);
			stack.v[stack.n] = NULL;
		} else if (!strncmp(l, "menu ", 5) || !strncmp(l, "choice", 6)) {
			choices += !strncmp(l, "choice", 6);
			sv_push(&stack, "");
			pending_menu = true;
			continue;
		} else if (pending_menu && !strncmp(t, "depends on ", 11) && stack.n) {
			struct strbuf d = STRBUF_INIT;

			and_part(&d, stack.v[stack.n - 1]);
			and_part(&d, t + 11);
			free(stack.v[stack.n - 1]);
			stack.v[stack.n - 1] = sb_detach(&d);
			continue;
		}
		if (kconfig_keyword(l))
			pending_menu = false;
	}
	for (size_t i = 0; i < stack.n; i++)
		and_part(r, stack.v[i]);
	sv_clear(&stack);
	return choices > 0;
}

int kconfig_entry(const char *src, const char *sym, struct kconfig_entry *e)
{
	struct strbuf r = STRBUF_INIT;
	const struct kfile *f;
	size_t entry, k;

	memset(e, 0, sizeof(*e));
	index_tree(src);
	for (k = 0; k < idx.sym.n && strcmp(idx.sym.v[k], sym); k++)
		;
	if (k == idx.sym.n)
		return 0;
	f = &idx.f[idx.sym_file[k]];
	entry = idx.sym_line[k];
	/* the blocks around the entry, then around each "source" above it */
	e->in_choice = blocks_at(f, entry, &r);
	for (const struct kfile *c = f; c->parent >= 0; c = &idx.f[c->parent])
		blocks_at(&idx.f[c->parent], c->parent_line, &r);
	for (size_t i = entry + 1; i < f->lines.n && (!f->lines.v[i][0] || isspace((unsigned char)f->lines.v[i][0]) ||
						       !kconfig_keyword(f->lines.v[i])); i++) {
		const char *t = skip_space(f->lines.v[i]);

		if (!strncmp(t, "depends on ", 11))
			and_part(&r, t + 11);
		else if (!strncmp(t, "prompt ", 7) ||
			 ((!strncmp(t, "bool", 4) || !strncmp(t, "tristate", 8) || !strncmp(t, "int", 3) ||
			   !strncmp(t, "hex", 3) || !strncmp(t, "string", 6)) && (strchr(t, '"') || strchr(t, '\''))))
			e->prompt = true;
		else if (!strncmp(t, "help", 4) || !strncmp(t, "---help---", 10))
			break;
	}
	e->found = true;
	e->depends = r.len ? sb_detach(&r) : NULL;
	sb_release(&r);
	return 0;
}

void kconfig_entry_free(struct kconfig_entry *e)
{
	free(e->depends);
	e->depends = NULL;
}

void kconfig_selectors(const char *src, const char *sym, struct strvec *out)
{
	index_tree(src);
	for (size_t i = 0; i < idx.sel_target.n; i++)
		if (!strcmp(idx.sel_target.v[i], sym) && !sv_contains(out, idx.sel_by.v[i]))
			sv_push(out, idx.sel_by.v[i]);
}
