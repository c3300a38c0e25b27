// SPDX-License-Identifier: GPL-2.0
/*
 * convert_apply.c - apply a plan (convert.h): cocci/poll_mask.cocci on the
 * files of the poll side, cocci/f_poll_head.cocci per creation site (and a
 * new ->open() written before the poll function), ops built by macros as
 * text; then check what spatch did (no reference to the old name, no use
 * of the poll_table, one f_poll_head line per site) and tidy what it left
 * (alignment of the members it wrote, blank lines where poll_wait() was,
 * the kernel-doc: convert_tidy.c).  Any failure restores every file.
 */
#define _GNU_SOURCE
#include "convert_int.h"
#include "cfacts.h"
#include "headexpr.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ---- applying ---- */

struct saved {
	struct strvec names;
	struct strvec texts;
};

static void save_files(struct convert *c, const struct strvec *files, struct saved *sv)
{
	for (size_t i = 0; i < files->n; i++) {
		char *t = cv_read_rel(c, files->v[i]);

		sv_push(&sv->names, files->v[i]);
		sv_push(&sv->texts, t ? t : "");
		free(t);
	}
}

static void restore_files(struct convert *c, struct saved *sv)
{
	for (size_t i = 0; i < sv->names.n; i++) {
		char *p = path_join(c->root, sv->names.v[i]);

		if (write_file_atomic(p, sv->texts.v[i], strlen(sv->texts.v[i])) < 0)
			die("cannot restore '%s'", p);
		free(p);
	}
}

static const char *saved_text(struct saved *sv, const char *rel)
{
	for (size_t i = 0; i < sv->names.n; i++)
		if (!strcmp(sv->names.v[i], rel))
			return sv->texts.v[i];
	return NULL;
}

/* Run the spatch command ARGV in the tree (ARGV is emptied); *REASON when it fails. */
static int spatch(struct convert *c, struct strvec *argv, char **reason)
{
	struct strbuf out = STRBUF_INIT;
	int rc;

	rc = run_cmd((const char *const *)argv->v, c->root, &out, true);
	sb_release(&out);
	sv_clear(argv);
	if (rc != 0) {
		*reason = xasprintf("spatch failed (exit %d)", rc);
		return -1;
	}
	return 0;
}

static void spatch_common(struct strvec *a, const char *sp)
{
	sv_push(a, "spatch");
	sv_push(a, "--sp-file");
	sv_push(a, sp);
	sv_push(a, "--very-quiet");
	sv_push(a, "--no-includes");
	sv_push(a, "--keep-comments");
	sv_push(a, "--timeout");
	sv_push(a, "300");
	sv_push(a, "--in-place");
}

/* "EXPORT_SYMBOL_GPL" when TEXT exports NAME, else NULL. */
static const char *export_of(const char *text, const char *name)
{
	static const char *const ex[] = { "EXPORT_SYMBOL_GPL", "EXPORT_SYMBOL_NS_GPL", "EXPORT_SYMBOL_NS",
					  "EXPORT_SYMBOL", NULL };

	for (int i = 0; ex[i]; i++) {
		const char *p = text;
		size_t el = strlen(ex[i]), nl = strlen(name);

		while ((p = strstr(p, ex[i]))) {
			const char *q = p + el;

			p = q;
			q += strspn(q, " \t");
			if (*q != '(')
				continue;
			q++;
			q += strspn(q, " \t");
			if (!strncmp(q, name, nl) && !(q[nl] == '_' || (q[nl] >= 'a' && q[nl] <= 'z') ||
						      (q[nl] >= 'A' && q[nl] <= 'Z') || (q[nl] >= '0' && q[nl] <= '9')))
				return ex[i];
		}
	}
	return NULL;
}

static int write_rel(struct convert *c, const char *rel, const char *text);

/* Insert TEXT before the definition of FN in REL, above the comment that introduces it. */
static int insert_before_def(struct convert *c, const char *rel, const char *fn, const char *text, char **reason)
{
	char *t = cv_read_rel(c, rel), *nt;
	size_t bs, be, n;
	char **v;
	int line, rc;

	if (!t || !cfacts_func_body(t, fn, &bs, &be)) {
		free(t);
		*reason = xasprintf("cannot find %s() to put a new ->open() before it", fn);
		return -1;
	}
	v = split_lines(t, &n);
	line = cfacts_line_of(t, bs) - 1;
	while (line > 0 && !strstr(v[line], fn))
		line--;
	/* the declarator may start on earlier lines ("static __poll_t\nfoo_poll(...)") */
	while (line > 0 && !blank(v[line - 1]) && !strchr("};/", v[line - 1][strlen(v[line - 1]) ? strlen(v[line - 1]) - 1 : 0]) &&
	       v[line - 1][0] != '#' && v[line - 1][0] != ' ')
		line--;
	/* and the comment right above it goes with it */
	if (line > 0 && strstr(v[line - 1], "*/")) {
		while (line > 0 && !strstr(v[line - 1], "/*"))
			line--;
		if (line > 0)
			line--;
	}
	{
		struct strbuf sb = STRBUF_INIT;

		for (size_t i = 0; i < n; i++) {
			if ((int)i == line)
				sb_adds(&sb, text);
			sb_adds(&sb, v[i]);
			sb_addc(&sb, '\n');
		}
		nt = sb_detach(&sb);
	}
	free_lines(v, n);
	rc = write_rel(c, rel, nt);
	if (rc < 0)
		*reason = xasprintf("cannot write '%s'", rel);
	free(t);
	free(nt);
	return rc;
}

static int write_rel(struct convert *c, const char *rel, const char *text)
{
	char *p = path_join(c->root, rel);
	int rc = write_file_atomic(p, text, strlen(text));

	free(p);
	return rc;
}

/*
 * The uses of IDENT in FUNC's body, -1 when there is no such function;
 * MEMBERS_TOO: x->IDENT and x.IDENT count (not for a parameter: lr->wait
 * is no use of the poll_table wait).
 */
static int count_in_func(const char *text, const char *func, const char *ident, bool members_too)
{
	size_t s, e;

	if (!text || !cfacts_func_body(text, func, &s, &e))
		return -1;
	return cfacts_count_ident(text, s, e, ident, members_too);
}

/* The poll side: cocci/poll_mask.cocci (SP) on the function, its ops, prototypes, exports. */
static int apply_poll_side(struct convert *c, json_t *plan, const char *sp, char **reason)
{
	struct strvec argv = STRVEC_INIT;
	json_t *x;
	size_t i;
	int rc;

	spatch_common(&argv, sp);
	sv_pushf(&argv, "-D");
	sv_push(&argv, "patch");
	sv_pushf(&argv, "-D");
	sv_pushf(&argv, "fn=%s", jstr(plan, "function"));
	sv_pushf(&argv, "-D");
	sv_pushf(&argv, "mask_fn=%s", jstr(plan, "mask_fn"));
	sv_pushf(&argv, "-D");
	sv_pushf(&argv, "ev=%s", jstr(plan, "events"));
	if (!strcmp(jstr(plan, "class"), "none")) {
		/* no queue: a direct call of fn is a call of mask_fn (poll_mask.cocci) */
		sv_push(&argv, "-D");
		sv_push(&argv, "nohead");
	}
	json_array_foreach(json_object_get(plan, "files"), i, x)
		sv_push(&argv, json_string_value(x));
	rc = spatch(c, &argv, reason);
	return rc < 0 ? -1 : 0;
}

/* A new ->open() (site S): the function before MASK's in FILE, then .open in each ops with SP. */
static int apply_new_open(struct convert *c, json_t *s, const char *file, const char *mask, const char *sp,
			  char **reason)
{
	struct strvec argv = STRVEC_INIT;
	json_t *o;
	size_t j;

	if (insert_before_def(c, file, mask, jstr(s, "text"), reason) < 0)
		return -1;
	json_array_foreach(json_object_get(s, "ops"), j, o) {
		spatch_common(&argv, sp);
		sv_push(&argv, "-D");
		sv_pushf(&argv, "anchor_%s", jstr(s, "anchor"));
		sv_push(&argv, "-D");
		sv_pushf(&argv, "fops=%s", json_string_value(o));
		sv_push(&argv, "-D");
		sv_pushf(&argv, "newopen=%s", jstr(s, "function"));
		sv_push(&argv, "-D");
		sv_pushf(&argv, "mask_fn=%s", mask);
		if (json_object_get(json_object_get(s, "vars"), "oldopen")) {
			sv_push(&argv, "-D");
			sv_pushf(&argv, "oldopen=%s", jstr(json_object_get(s, "vars"), "oldopen"));
		}
		sv_push(&argv, jstr(s, "file"));
		if (spatch(c, &argv, reason) < 0)
			return -1;
	}
	return 0;
}

/* Each creation site of PLAN: cocci/f_poll_head.cocci (SP) with its anchor and variables, or a new ->open(). */
static int apply_sites(struct convert *c, json_t *plan, const char *sp, char **reason)
{
	const char *mask = jstr(plan, "mask_fn"), *file = jstr(plan, "file");
	struct strvec argv = STRVEC_INIT;
	json_t *s;
	size_t i;

	json_array_foreach(json_object_get(plan, "sites"), i, s) {
		const char *k;
		json_t *val;

		if (json_object_get(s, "text")) {
			if (apply_new_open(c, s, file, mask, sp, reason) < 0)
				return -1;
			continue;
		}
		spatch_common(&argv, sp);
		sv_push(&argv, "-D");
		sv_pushf(&argv, "anchor_%s", jstr(s, "anchor"));
		sv_push(&argv, "-D");
		sv_pushf(&argv, "site=%s", jstr(s, "function"));
		sv_push(&argv, "-D");
		sv_pushf(&argv, "head=%s", jstr(s, "head"));
		json_object_foreach(json_object_get(s, "vars"), k, val) {
			sv_push(&argv, "-D");
			sv_pushf(&argv, "%s=%s", k, json_string_value(val));
		}
		sv_push(&argv, jstr(s, "file"));
		if (spatch(c, &argv, reason) < 0)
			return -1;
	}
	return 0;
}

/* *REASON: FN is still referenced in NT (file REL), quoting the line. */
static void still_referenced(const char *nt, const char *rel, const char *fn, char **reason)
{
	long off = cfacts_find_ident(nt, fn);
	int line = off >= 0 ? cfacts_line_of(nt, (size_t)off) : 0;
	const char *ls = off >= 0 ? nt + off : nt, *le;
	char *what;

	while (ls > nt && ls[-1] != '\n')
		ls--;
	le = strchr(ls, '\n');
	what = xstrndup(ls, le ? (size_t)(le - ls) : strlen(ls));
	*reason = xasprintf("%s is still referenced at %s:%d (\"%s\")", fn, rel, line, what + strspn(what, " \t"));
	free(what);
}

/*
 * Ops built by macros, rewritten as text (each macro pushed to
 * FOPS_MACROS, an export recorded in PLAN), then: is anything left of the
 * old name?
 */
static int apply_macros(struct convert *c, json_t *plan, json_t *fops_macros, char **reason)
{
	const char *fn = jstr(plan, "function"), *mask = jstr(plan, "mask_fn");
	json_t *x;
	size_t i;

	json_array_foreach(json_object_get(plan, "files"), i, x) {
		const char *rel = json_string_value(x);
		char *t = cv_read_rel(c, rel), *nt;
		struct strvec macros = STRVEC_INIT;
		bool changed;

		if (!t)
			continue;
		nt = fix_macros(t, fn, mask, &changed, &macros);
		/* what the commit message must tell: a macro other ops share, an export renamed */
		for (size_t k = 0; k < macros.n; k++)
			json_array_append_new(fops_macros, json_pack("{s:s, s:s}", "macro", macros.v[k], "file", rel));
		sv_clear(&macros);
		if (export_of(nt, mask) && !json_object_get(plan, "export"))
			json_object_set_new(plan, "export", json_pack("{s:s, s:s}", "how", export_of(nt, mask),
								    "file", rel));
		if (changed && write_rel(c, rel, nt) < 0) {
			free(t);
			free(nt);
			*reason = xasprintf("cannot write '%s'", rel);
			return -1;
		}
		if (cfacts_count_ident(nt, 0, strlen(nt), fn, false)) {
			still_referenced(nt, rel, fn, reason);
			free(t);
			free(nt);
			return -1;
		}
		free(t);
		free(nt);
	}
	return 0;
}

/* The new function exists and uses neither its poll_table nor poll_wait(). */
static int check_mask_fn(struct convert *c, json_t *plan, char **reason)
{
	const char *fn = jstr(plan, "function"), *mask = jstr(plan, "mask_fn");
	char *text = cv_read_rel(c, jstr(plan, "file"));
	int rc = -1;

	if (!text || count_in_func(text, mask, mask, true) < 0)
		*reason = xasprintf("spatch did not rewrite %s()", fn);
	else if (count_in_func(text, mask, jstr(plan, "pt"), false) != 0)
		*reason = xasprintf("%s() still uses its poll_table %s after the conversion", fn, jstr(plan, "pt"));
	else if (count_in_func(text, mask, "poll_wait", true) != 0)
		*reason = xasprintf("%s() still calls poll_wait() after the conversion", fn);
	else
		rc = 0;
	free(text);
	return rc;
}

/* Each site sets f_poll_head once more than before (SV: the files before), a new ->open() is in every ops. */
static int check_sites(struct convert *c, json_t *plan, struct saved *sv, char **reason)
{
	const char *fn = jstr(plan, "function");
	json_t *s;
	size_t i;

	json_array_foreach(json_object_get(plan, "sites"), i, s) {
		char *nt = cv_read_rel(c, jstr(s, "file"));
		bool added = json_object_get(s, "text") != NULL;
		/* anon_inode_getfd() sets it through anon_inode_getfd_poll(), and so on */
		char *fdmark = !strcmp(jstr(s, "anchor"), "anonfd") ? xasprintf("%s_poll", jstr(s, "kind")) : NULL;
		const char *mark = fdmark ? fdmark : "f_poll_head";
		int before = added ? 0 : count_in_func(saved_text(sv, jstr(s, "file")), jstr(s, "function"), mark, true);
		int after = count_in_func(nt, jstr(s, "function"), mark, true);

		free(fdmark);
		if (added && nt && (size_t)cfacts_count_ident(nt, 0, strlen(nt), jstr(s, "function"), false) !=
					   1 + json_array_size(json_object_get(s, "ops"))) {
			*reason = xasprintf("spatch could not put %s() in every ops of %s()", jstr(s, "function"), fn);
			free(nt);
			return -1;
		}
		free(nt);
		if (before < 0 || after - before != 1) {
			*reason = after - before > 1 ?
				xasprintf("%s() would set f_poll_head %d times", jstr(s, "function"), after - before) :
				xasprintf("spatch could not set f_poll_head in %s() (%s anchor)", jstr(s, "function"),
					  jstr(s, "anchor"));
			return -1;
		}
	}
	return 0;
}

/* The argument lists spatch made longer (anon_inode_getfd_poll() and the like), laid out again. */
static int tidy_calls(struct convert *c, json_t *plan, char **reason)
{
	json_t *s;
	size_t i;

	json_array_foreach(json_object_get(plan, "sites"), i, s) {
		char *t, *t2, *callee;

		if (strcmp(jstr(s, "anchor"), "anonfd"))
			continue;
		t = cv_read_rel(c, jstr(s, "file"));
		callee = xasprintf("%s_poll", jstr(s, "kind"));
		t2 = t ? relayout_call(t, jstr(s, "function"), callee) : NULL;
		free(callee);
		if (t2 && strcmp(t, t2) && write_rel(c, jstr(s, "file"), t2) < 0) {
			free(t);
			free(t2);
			*reason = xasprintf("cannot write '%s'", jstr(s, "file"));
			return -1;
		}
		free(t);
		free(t2);
	}
	return 0;
}

/* FILES: the members spatch wrote aligned; the poll function's file: blank lines and kernel-doc too. */
static int tidy_files(struct convert *c, json_t *plan, const struct strvec *files, struct saved *sv,
		      char **reason)
{
	const char *fn = jstr(plan, "function"), *mask = jstr(plan, "mask_fn"), *file = jstr(plan, "file");
	struct strvec names = STRVEC_INIT;
	json_t *s;
	size_t i;
	int rc = 0;

	sv_push(&names, mask);
	json_array_foreach(json_object_get(plan, "sites"), i, s)
		if (json_object_get(s, "text"))
			sv_push(&names, jstr(s, "function"));
	for (i = 0; i < files->n && !rc; i++) {
		char *t = cv_read_rel(c, files->v[i]), *t2;

		if (!t)
			continue;
		t2 = realign(t, &names);
		if (!strcmp(files->v[i], file)) {
			char *t3 = tidy_body(t2, saved_text(sv, file), fn, mask);
			char *t4 = tidy_kerneldoc(t3, fn, mask, jstr(plan, "pt"), jstr(plan, "events"));

			free(t2);
			free(t3);
			t2 = t4;
		}
		if (strcmp(t, t2) && write_rel(c, files->v[i], t2) < 0) {
			*reason = xasprintf("cannot write '%s'", files->v[i]);
			rc = -1;
		}
		free(t);
		free(t2);
	}
	sv_clear(&names);
	return rc;
}

int convert_apply(struct convert *c, json_t *plan, char **reason)
{
	char *sp_poll = path_join(c->cocci_dir, "poll_mask.cocci");
	char *sp_head = path_join(c->cocci_dir, "f_poll_head.cocci");
	struct strvec files = STRVEC_INIT;
	struct saved sv = { STRVEC_INIT, STRVEC_INIT };
	json_t *fops_macros = json_array();
	char *memo;
	int rc = -1;

	*reason = NULL;
	cv_refs_detach(c);
	convert_plan_files(plan, &files);
	memo = memo_key(c, plan, &files);
	rc = memo_replay(c, memo, plan, reason);
	if (rc != 1)
		goto done;
	rc = -1;
	save_files(c, &files, &sv);

	if (apply_poll_side(c, plan, sp_poll, reason) < 0 || apply_sites(c, plan, sp_head, reason) < 0 ||
	    apply_macros(c, plan, fops_macros, reason) < 0 || check_mask_fn(c, plan, reason) < 0 ||
	    check_sites(c, plan, &sv, reason) < 0)
		goto fail;
	/* tidy: the argument lists spatch made longer, alignment, blank lines, kernel-doc */
	if (tidy_calls(c, plan, reason) < 0 || tidy_files(c, plan, &files, &sv, reason) < 0)
		goto fail;
	if (json_array_size(fops_macros))
		json_object_set(plan, "fops_macros", fops_macros);
	rc = 0;
	goto out;
fail:
	restore_files(c, &sv);
	json_object_del(plan, "export");
out:
	memo_store(c, memo, plan, &files, rc, *reason);
done:
	free(memo);
	json_decref(fops_macros);
	sv_clear(&files);
	sv_clear(&sv.names);
	sv_clear(&sv.texts);
	free(sp_poll);
	free(sp_head);
	return rc;
}
