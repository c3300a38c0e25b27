// SPDX-License-Identifier: GPL-2.0
/*
 * boot_series.c - what a series (git format-patch directory) converts, read
 * from its diffs: the files whose ->poll became ->poll_mask, which .poll
 * function each replaced, and every added "f_poll_head = ..." line of a
 * patch that converts something (the creation sites).  boot-test matches these against the guest's kinds to say
 * which converted file types really ran, and --mutate removes one creation
 * site's line to prove that the guest notices.
 */
#define _GNU_SOURCE
#include "boot.h"
#include "series/series.h"
#include "lib/strutil.h"

#include <errno.h>
/* sparse cannot parse glibc's VLA parameters in regex.h */
#ifdef __CHECKER__
#define __STDC_NO_VLA__ 1
#endif
#include <regex.h>
#include <stdlib.h>
#include <string.h>

static char *match(regex_t *re, const char *line, int group)
{
	regmatch_t m[4];

	if (regexec(re, line, 4, m, 0) || m[group].rm_so < 0)
		return NULL;
	return xstrndup(line + m[group].rm_so, (size_t)(m[group].rm_eo - m[group].rm_so));
}

static char *subject_of(const char *text)
{
	const char *p = strstr(text, "\nSubject: ");
	struct strbuf sb = STRBUF_INIT;

	if (!p)
		return xstrdup("");
	p += 10;
	for (;;) {
		const char *e = strchr(p, '\n');
		size_t n = e ? (size_t)(e - p) : strlen(p);

		sb_add(&sb, p, n);
		if (!e || (e[1] != ' ' && e[1] != '\t'))
			break;
		p = e + 1;	/* folded header line */
	}
	/* drop the "[PATCH n/m] " prefix */
	if (sb.len && sb.buf[0] == '[' && strchr(sb.buf, ']')) {
		char *q = strchr(sb.buf, ']') + 1;

		while (*q == ' ')
			q++;
		memmove(sb.buf, q, strlen(q) + 1);
		sb.len = strlen(sb.buf);
	}
	return sb_detach(&sb);
}

static void scan_patch(struct boot_series *s, int idx, const char *text)
{
	regex_t re_file, re_poll, re_poll_rt, re_mask, re_mask_rt, re_head, re_def;
	char *file = NULL;
	struct strvec removed = STRVEC_INIT;	/* .poll functions removed in this file */
	size_t used = 0, lineno = 0;

	regcomp(&re_file, "^\\+\\+\\+ b/(.*)$", REG_EXTENDED);
	regcomp(&re_poll, "^-[[:space:]]*\\.poll[[:space:]]*=[[:space:]]*([A-Za-z_][A-Za-z0-9_]*)", REG_EXTENDED);
	regcomp(&re_poll_rt, "^-.*->poll[[:space:]]*=[[:space:]]*([A-Za-z_][A-Za-z0-9_]*)[[:space:]]*;", REG_EXTENDED);
	regcomp(&re_mask, "^\\+[[:space:]]*\\.poll_mask[[:space:]]*=[[:space:]]*([A-Za-z_][A-Za-z0-9_]*)",
		REG_EXTENDED);
	regcomp(&re_mask_rt, "^\\+.*->poll_mask[[:space:]]*=[[:space:]]*([A-Za-z_][A-Za-z0-9_]*)[[:space:]]*;",
		REG_EXTENDED);
	regcomp(&re_head, "^\\+(.*f_poll_head[[:space:]]*=[^=].*)$", REG_EXTENDED);
	/* a definition the patch takes away: "-__poll_t drm_poll(struct file *filp, ..." */
	regcomp(&re_def, "^-[A-Za-z_][^=;(]*[[:space:]*]([A-Za-z_][A-Za-z0-9_]*)\\([[:space:]]*struct[[:space:]]+file[[:space:]]*\\*",
		REG_EXTENDED);

	for (const char *p = text; *p;) {
		const char *e = strchr(p, '\n');
		char *line = xstrndup(p, e ? (size_t)(e - p) : strlen(p));
		char *m;

		lineno++;
		if (!strncmp(line, "diff --git ", 11)) {
			sv_clear(&removed);
			used = 0;
		} else if ((m = match(&re_file, line, 1))) {
			free(file);
			file = m;
		} else if (file && line[0] == '-' && strncmp(line, "---", 3) &&
			   ((m = match(&re_poll, line, 1)) || (m = match(&re_poll_rt, line, 1)))) {
			sv_push(&removed, m);
			free(m);
		} else if (file && line[0] == '+' &&
			   ((m = match(&re_mask, line, 1)) || (m = match(&re_mask_rt, line, 1)))) {
			struct conversion *c;

			s->conv = xrealloc(s->conv, (s->nconv + 1) * sizeof(*s->conv));
			c = &s->conv[s->nconv++];
			c->file = xstrdup(file);
			c->poll_mask_fn = m;
			c->poll_fn = xstrdup(used < removed.n ? removed.v[used++] : "");
			c->patch = idx;
			if (!sv_contains(&s->files, file))
				sv_push(&s->files, file);
		} else if (file && line[0] == '-' && strncmp(line, "---", 3) && (m = match(&re_def, line, 1))) {
			char *key = xasprintf("%s\t%s", file, m);

			if (!sv_contains(&s->defined, key))
				sv_push(&s->defined, key);
			free(key);
			free(m);
		} else if (file && (m = match(&re_head, line, 1))) {
			char *t = trim_dup(m);

			/* "f->f_poll_head = NULL;" (the infrastructure's clean-up) is no creation site */
			if (!strstr(t, "= NULL;")) {
				struct head_site *h;

				s->sites = xrealloc(s->sites, (s->nsites + 1) * sizeof(*s->sites));
				h = &s->sites[s->nsites++];
				h->file = xstrdup(file);
				h->text = t;
				h->patch = idx;
				h->patch_line = lineno;
			} else {
				free(t);
			}
			free(m);
		}
		free(line);
		p = e ? e + 1 : p + strlen(p);
	}
	{
		/*
		 * A creation site belongs to a conversion: the infrastructure
		 * patch's own assignment (anon_inode_getfd_poll() and
		 * anon_inode_create_getfd_poll() store their poll_head
		 * argument) is none.
		 */
		size_t k, n = 0;
		bool converts = false;

		for (k = 0; k < s->nconv; k++)
			converts |= s->conv[k].patch == idx;
		for (k = 0; k < s->nsites; k++) {
			if (s->sites[k].patch == idx && !converts) {
				free(s->sites[k].file);
				free(s->sites[k].text);
				continue;
			}
			s->sites[n++] = s->sites[k];
		}
		s->nsites = n;
	}
	free(file);
	sv_clear(&removed);
	regfree(&re_file);
	regfree(&re_poll);
	regfree(&re_poll_rt);
	regfree(&re_mask);
	regfree(&re_mask_rt);
	regfree(&re_head);
	regfree(&re_def);
}

void boot_series_read(struct boot_series *s, const char *dir)
{
	struct strvec covers = STRVEC_INIT;

	memset(s, 0, sizeof(*s));
	s->dir = realpath_or_die(dir);
	/* the one reader of the layout "polltax series" writes (series.h) */
	series_dir_patches(s->dir, &s->patches, &covers);
	if (covers.n)
		s->cover = xstrdup(covers.v[0]);
	for (size_t i = 0; i < s->patches.n; i++) {
		char *text, *subj;

		if (read_file(s->patches.v[i], &text, NULL) < 0)
			die_code(EXIT_INPUT, "cannot read '%s': %s", s->patches.v[i], strerror(errno));
		subj = subject_of(text);
		scan_patch(s, (int)i, text);
		sv_push(&s->subjects, subj);
		free(subj);
		free(text);
	}
	sv_clear(&covers);
	if (!s->patches.n)
		die_code(EXIT_INPUT, "no patches in '%s' (expected git format-patch files, *.patch, "
			 "or posting-N/ directories of them)", dir);
	sv_sort(&s->files);
}

void boot_series_free(struct boot_series *s)
{
	for (size_t i = 0; i < s->nconv; i++) {
		free(s->conv[i].file);
		free(s->conv[i].poll_fn);
		free(s->conv[i].poll_mask_fn);
	}
	for (size_t i = 0; i < s->nsites; i++) {
		free(s->sites[i].file);
		free(s->sites[i].text);
	}
	free(s->conv);
	free(s->sites);
	free(s->dir);
	free(s->cover);
	sv_clear(&s->patches);
	sv_clear(&s->subjects);
	sv_clear(&s->files);
	sv_clear(&s->defined);
}

bool boot_series_converts(const struct boot_series *s, const char *file, const char *fn)
{
	char *key = xasprintf("%s\t%s", file, fn);
	bool own = sv_contains(&s->defined, key);

	free(key);
	for (size_t i = 0; i < s->nconv; i++)
		if ((own || !strcmp(s->conv[i].file, file)) && !strcmp(s->conv[i].poll_fn, fn))
			return true;
	return false;
}

static bool starts(const char *line, const char *prefix)
{
	return !strncmp(line, prefix, strlen(prefix));
}

/* where a hunk ends: the next hunk, the next file, or the signature */
static bool hunk_end(const char *line)
{
	return starts(line, "@@ ") || starts(line, "diff --git ") || !strcmp(line, "-- \n") || !strcmp(line, "-- ");
}

/*
 * Remove line LINE (1-based) of TEXT, an added line of a hunk, and keep
 * the patch valid: the hunk's new-side count shrinks by one; a hunk left
 * without any change goes (git apply calls it corrupt), and so does a file
 * left without any hunk.
 */
static char *drop_line(const char *text, size_t line)
{
	struct strvec v = STRVEC_INIT;
	struct strbuf sb = STRBUF_INIT;
	size_t h = 0, e, d = 0;
	bool changes = false, keep_file = false;

	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) + 1 : strlen(p);
		char *l = xstrndup(p, len);

		sv_push(&v, l);
		free(l);
		p += len;
	}
	if (line < 1 || line > v.n)
		BUG("line %zu is not in the patch", line);
	line--;
	for (size_t i = 0; i < line; i++) {
		if (starts(v.v[i], "@@ "))
			h = i;
		if (starts(v.v[i], "diff --git "))
			d = i;
	}
	if (!starts(v.v[h], "@@ "))
		BUG("line %zu is in no hunk", line + 1);
	v.v[line][0] = '\0';	/* removed */
	for (e = h + 1; e < v.n && !hunk_end(v.v[e]); e++)
		if (v.v[e][0] == '+' || v.v[e][0] == '-')
			changes = true;
	if (changes) {
		/* "@@ -a,b +c,d @@": d - 1 */
		char *plus = strchr(v.v[h] + 3, '+'), *after;
		long c, n = 1;
		char *hdr;

		if (!plus)
			BUG("hunk header without a new range");
		c = strtol(plus + 1, &after, 10);
		if (*after == ',')
			n = strtol(after + 1, &after, 10);
		hdr = xasprintf("%.*s+%ld,%ld%s", (int)(plus - v.v[h]), v.v[h], c, n - 1, after);
		free(v.v[h]);
		v.v[h] = hdr;
	} else {
		for (size_t i = h; i < e; i++)
			v.v[i][0] = '\0';
		for (size_t i = d + 1; i < v.n && !starts(v.v[i], "diff --git ") && strcmp(v.v[i], "-- \n"); i++)
			if (starts(v.v[i], "@@ "))
				keep_file = true;
		for (size_t i = d; !keep_file && i < v.n; i++) {
			if (i > d && (starts(v.v[i], "diff --git ") || !strcmp(v.v[i], "-- \n")))
				break;
			v.v[i][0] = '\0';
		}
	}
	for (size_t i = 0; i < v.n; i++)
		sb_adds(&sb, v.v[i]);
	sv_clear(&v);
	return sb_detach(&sb);
}

char *boot_lifetime_line(const struct head_site *h)
{
	const char *eq = strstr(h->text, "f_poll_head");

	eq = eq ? strchr(eq, '=') : NULL;
	if (!eq)
		return NULL;
	return xasprintf("%.*s= ({ wait_queue_head_t *polltax_q = kmalloc(sizeof(*polltax_q), GFP_KERNEL); "
			 "if (polltax_q) { init_waitqueue_head(polltax_q); kfree(polltax_q); } polltax_q; });",
			 (int)(eq - h->text), h->text);
}

/* Replace the added line LINE (1-based) of patch TEXT by "+" and TO, keeping its indentation. */
static char *replace_line(const char *text, size_t line, const char *to)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n = 1;

	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) + 1 : strlen(p);

		if (n++ == line) {
			size_t ws = 1 + strspn(p + 1, " \t");

			if (*p != '+')
				BUG("line %zu of the patch is not an added line", line);
			sb_add(&sb, p, ws);
			sb_adds(&sb, to);
			sb_addc(&sb, '\n');
		} else {
			sb_add(&sb, p, len);
		}
		p += len;
	}
	return sb_detach(&sb);
}

const struct head_site *boot_series_mutate(const struct boot_series *s, const struct strvec *prefer, const char *dir,
					   enum mutation_kind kind)
{
	const struct head_site *h = NULL;

	/* the first file of PREFER that the series sets a head in */
	for (size_t k = 0; prefer && k < prefer->n && !h; k++)
		for (size_t i = 0; i < s->nsites && !h; i++)
			if (!strcmp(prefer->v[k], s->sites[i].file))
				h = &s->sites[i];
	if (!h && s->nsites)
		h = &s->sites[0];
	if (!h)
		return NULL;
	rm_rf(dir);
	if (mkdir_p(dir) < 0)
		die("cannot create '%s': %s", dir, strerror(errno));
	for (size_t i = 0; i < s->patches.n; i++) {
		char *text, *out, *dst;
		size_t len;

		if (read_file(s->patches.v[i], &text, &len) < 0)
			die_code(EXIT_INPUT, "cannot read '%s': %s", s->patches.v[i], strerror(errno));
		if ((int)i != h->patch) {
			out = xstrdup(text);
		} else if (kind == MUTATE_LIFETIME) {
			char *to = boot_lifetime_line(h);

			if (!to)
				BUG("no assignment in '%s'", h->text);
			out = replace_line(text, h->patch_line, to);
			free(to);
		} else {
			out = drop_line(text, h->patch_line);
		}
		/* from posting-N/ directories: numbered, so that the order survives flattening */
		if (strncmp(s->patches.v[i], s->dir, strlen(s->dir)) || strchr(s->patches.v[i] + strlen(s->dir) + 1, '/'))
			dst = xasprintf("%s/%04zu-%s", dir, i + 1, strrchr(s->patches.v[i], '/') + 1);
		else
			dst = path_join(dir, strrchr(s->patches.v[i], '/') + 1);
		if (write_file_atomic(dst, out, strlen(out)) < 0)
			die("cannot write '%s'", dst);
		free(dst);
		free(out);
		free(text);
	}
	return h;
}
