// SPDX-License-Identifier: GPL-2.0
/*
 * convert_tree.c - what the convert stage reads of the tree: a file's
 * text, its facts (cocci/poll_facts.cocci through cfacts.c), and which
 * files mention a name (git grep, or grep outside a clone), cached in
 * struct convert, and for a clean git worktree on disk too.  See convert_int.h.
 */
#include "convert_int.h"
#include "cfacts.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lib/strutil.h"

/* Is ROOT a git clone or worktree (.git a directory or a file)? */
static bool git_tree(const char *root)
{
	char *gitdir = path_join(root, ".git");
	bool git = is_dir(gitdir) || is_file(gitdir);

	free(gitdir);
	return git;
}

/*
 * At the first question: when the tree is a git worktree with nothing
 * changed, the answers known for its tree id are read from the cache
 * ($CACHE/refs/<tree>.json).  git grep reads the tracked files of the
 * worktree, which then are the tree's.
 */
static void refs_load(struct convert *c)
{
	struct strbuf out = STRBUF_INIT;
	/* no optional locks: the status of a user's clone never rewrites its index */
	const char *status[] = { "git", "--no-optional-locks", "status", "--porcelain", "--untracked-files=no", NULL };
	const char *tree[] = { "git", "rev-parse", "HEAD^{tree}", NULL };
	char *id;
	json_t *known;

	if (c->refs_looked)
		goto out;
	c->refs_looked = true;
	if (!git_tree(c->root) || run_cmd(status, c->root, &out, true) != 0 || out.len)
		goto out;
	sb_release(&out);
	if (run_cmd(tree, c->root, &out, true) != 0)
		goto out;
	id = sb_detach_trimmed(&out);
	c->refs_path = xasprintf("%s/refs/%s.json", cache_root(), id);
	free(id);
	known = json_load_file(c->refs_path, 0, NULL);
	if (json_is_object(known))
		json_object_update_missing(c->refs, known);
	json_decref(known);
out:
	sb_release(&out);
}

void cv_refs_detach(struct convert *c)
{
	char *text;

	c->refs_looked = true;
	if (!c->refs_path)
		return;
	if (c->refs_new && (text = json_dumps(c->refs, JSON_COMPACT | JSON_SORT_KEYS))) {
		cache_write(c->refs_path, text, strlen(text));
		free(text);
	}
	free(c->refs_path);
	c->refs_path = NULL;
	c->refs_new = false;
}

/* FILES sorted, as a JSON array of strings; FILES cleared */
static json_t *sorted_array(struct strvec *files)
{
	json_t *a = json_array();

	sv_sort(files);
	for (size_t i = 0; i < files->n; i++)
		json_array_append_new(a, json_string(files->v[i]));
	sv_clear(files);
	return a;
}

/* .c and .h files of the tree that mention NAME (as a word), cached. */
json_t *cv_refs_of(struct convert *c, const char *name)
{
	json_t *r;
	struct strbuf out = STRBUF_INIT;
	struct strvec files = STRVEC_INIT;
	int rc;

	refs_load(c);
	r = json_object_get(c->refs, name);
	if (r)
		return r;
	c->refs_new = true;
	if (git_tree(c->root)) {
		const char *argv[] = { "git", "grep", "-l", "-w", "-F", "-e", name, "--", "*.c", "*.h", NULL };

		rc = run_cmd(argv, c->root, &out, true);
	} else {
		const char *argv[] = { "grep", "-r", "-l", "-w", "-F", "--include=*.c", "--include=*.h", "-e", name,
				       ".", NULL };

		rc = run_cmd(argv, c->root, &out, true);
	}
	/* no answer is no "in no file": a name taken or a caller missed would go unseen */
	if (rc != 0 && rc != 1)
		die("cannot search '%s' for the name %s (%sgrep failed)", c->root, name,
		    git_tree(c->root) ? "git " : "");
	for (const char *l = out.buf; l && *l;) {
		const char *e = strchr(l, '\n');
		char *f = xstrndup(l, e ? (size_t)(e - l) : strlen(l));

		sv_push(&files, !strncmp(f, "./", 2) ? f + 2 : f);
		free(f);
		l = e ? e + 1 : NULL;
	}
	r = sorted_array(&files);
	sb_release(&out);
	json_object_set_new(c->refs, name, r);
	return r;
}

/*
 * The tracked .c and .h files of the git worktree ROOT that are there, NUL
 * after each, in FILE_LIST: what git grep would read.  -1 if git fails.
 */
static int tracked_sources(const char *root, const char *file_list)
{
	const char *argv[] = { "git", "ls-files", "-z", "--", "*.c", "*.h", NULL };
	struct strbuf out = STRBUF_INIT, keep = STRBUF_INIT;
	int rc = run_cmd(argv, root, &out, true) == 0 ? 0 : -1;

	for (size_t at = 0; rc == 0 && at < out.len;) {
		const char *f = out.buf + at;
		size_t n = strlen(f);
		char *p = path_join(root, f);

		if (is_file(p))	/* a tracked file deleted from the worktree: git grep skips it */
			sb_add(&keep, f, n + 1);
		free(p);
		at += n + 1;
	}
	if (rc == 0 && write_file_atomic(file_list, keep.buf ? keep.buf : "", keep.len) < 0)
		rc = -1;
	sb_release(&out);
	sb_release(&keep);
	return rc;
}

/*
 * Which files mention each of NAMES, in one pass over the tree (cv_refs_of()
 * then answers from the cache).  GNU grep -F matches all the names at once
 * (git grep tries them one after the other: 20 s for 500 names on 6.12,
 * against 3 s), JOBS greps side by side on the tracked files of a git
 * worktree, each line written whole (--line-buffered) so that none mixes.
 */
void cv_refs_prefetch(struct convert *c, const struct strvec *names, int jobs)
{
	struct strbuf out = STRBUF_INIT, pats = STRBUF_INIT;
	bool git = git_tree(c->root);
	json_t *found = json_object(), *v;
	char *tmpd = xasprintf("%s/tmp", cache_root());
	char *pfile = xasprintf("%s/refs-names.%d", tmpd, (int)getpid());
	char *lfile = xasprintf("%s/refs-files.%d", tmpd, (int)getpid());
	char *js = xasprintf("%d", jobs > 0 ? jobs : 1);
	const char *k;
	int rc = -1;

	refs_load(c);
	for (size_t i = 0; i < names->n; i++)
		if (!json_object_get(c->refs, names->v[i]))
			break;
		else if (i + 1 == names->n)
			goto out;	/* all known */
	for (size_t i = 0; i < names->n; i++) {
		sb_addf(&pats, "%s\n", names->v[i]);
		json_object_set_new(found, names->v[i], json_object());
	}
	if (mkdir_p(tmpd) < 0 || write_file_atomic(pfile, pats.buf, pats.len) < 0)
		goto out;
	if (git) {
		/* a grep's status 1 (no match in its files) is no failure; 2 is, and makes xargs' 123 */
		const char *argv[] = { "xargs", "-0", "-r", "-a", lfile, "-n", "2000", "-P", js, "sh", "-c",
				       "grep -s -H -o -w -F --line-buffered -f \"$0\" -- \"$@\"; [ $? -le 1 ]", pfile,
				       NULL };

		if (tracked_sources(c->root, lfile) == 0)
			rc = run_cmd(argv, c->root, &out, true);
		unlink(lfile);
	} else {
		const char *argv[] = { "grep", "-r", "-o", "-w", "-F", "--include=*.c", "--include=*.h", "-f", pfile,
				       ".", NULL };

		rc = run_cmd(argv, c->root, &out, true);
		if (rc == 1)
			rc = 0;
	}
	unlink(pfile);
	if (rc != 0) {
		warning("cannot search '%s' for %zu names at once; one by one", c->root, names->n);
		goto out;
	}
	c->refs_new = true;
	for (const char *l = out.buf; l && *l;) {
		const char *e = strchr(l, '\n');
		char *line = xstrndup(l, e ? (size_t)(e - l) : strlen(l)), *colon = strrchr(line, ':');

		if (colon) {
			*colon = '\0';
			v = json_object_get(found, colon + 1);
			if (v)
				json_object_set_new(v, !strncmp(line, "./", 2) ? line + 2 : line, json_true());
		}
		free(line);
		l = e ? e + 1 : NULL;
	}
	json_object_foreach(found, k, v) {
		const char *f;
		json_t *t;
		struct strvec fs = STRVEC_INIT;

		json_object_foreach(v, f, t)
			sv_push(&fs, f);
		json_object_set_new(c->refs, k, sorted_array(&fs));
	}
out:
	json_decref(found);
	sb_release(&out);
	sb_release(&pats);
	free(tmpd);
	free(pfile);
	free(lfile);
	free(js);
}

char *cv_read_rel(struct convert *c, const char *rel)
{
	char *p = path_join(c->root, rel), *text = NULL;

	if (read_file(p, &text, NULL) < 0)
		text = NULL;
	free(p);
	return text;
}

json_t *cv_facts_of(struct convert *c, const char *rel, char **err)
{
	return cfacts_get(c->facts, c->root, rel, c->cocci_dir, err);
}
