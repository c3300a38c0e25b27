// SPDX-License-Identifier: GPL-2.0
/*
 * infra.c - the infrastructure patch made for the tree at hand (infra.h).
 *
 * Every change has an anchor in the tree's sources: a member of struct
 * file or struct file_operations, a function found by its name (a small
 * reader of C that knows comments, strings, preprocessor lines and braces:
 * enough to find a top-level definition, its parameters and its body), a
 * line of the documentation.  What the generator replaces it first
 * recognises (vfs_poll() and file_can_poll() must be the ones it knows,
 * whitespace aside); what it adds it writes in the indentation of its
 * neighbours, breaking parameter lists at 80 columns as the kernel does.
 * An anchor that is not there is an error naming the file and the anchor:
 * a patch is written only when every change has its place.
 */
#define _GNU_SOURCE
#include "infra_int.h"
#include "lib/datadir.h"

#include <ctype.h>
#include <errno.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

/* ---- the scratch repository ------------------------------------------------------- */

static const char *const git_env[] = {
	"GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_AUTHOR_DATE", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL",
	"GIT_COMMITTER_DATE", "GIT_CONFIG_NOSYSTEM", "GIT_CONFIG_GLOBAL", NULL
};

static void env_save(char **saved)
{
	for (int i = 0; git_env[i]; i++)
		saved[i] = getenv(git_env[i]) ? xstrdup(getenv(git_env[i])) : NULL;
}

static void env_restore(char **saved)
{
	for (int i = 0; git_env[i]; i++) {
		if (saved[i])
			setenv(git_env[i], saved[i], 1);
		else
			unsetenv(git_env[i]);
		free(saved[i]);
	}
}

static void env_identity(const char *name, const char *email, const char *date)
{
	setenv("GIT_AUTHOR_NAME", name, 1);
	setenv("GIT_AUTHOR_EMAIL", email, 1);
	setenv("GIT_COMMITTER_NAME", name, 1);
	setenv("GIT_COMMITTER_EMAIL", email, 1);
	setenv("GIT_AUTHOR_DATE", date, 1);
	setenv("GIT_COMMITTER_DATE", date, 1);
}

static void git_or_die(const char *work, const char *const *argv)
{
	if (run_cmd(argv, work, NULL, true) != 0)
		die("git %s failed in '%s'", argv[1], work);
}

static void write_texts(const char *work, char *const *text)
{
	for (int f = 0; f < NR_FILES; f++) {
		char *p = path_join(work, infra_files[f]), *d = xstrdup(p);

		*strrchr(d, '/') = '\0';
		if (mkdir_p(d) < 0 || write_file_atomic(p, text[f], strlen(text[f])) < 0)
			die("cannot write '%s': %s", p, strerror(errno));
		free(d);
		free(p);
	}
}

/* ---- the interface ---------------------------------------------------------------- */

bool infra_present(const char *root)
{
	char *p = path_join(root, "include/linux/fs.h"), *text;
	struct cdef d;
	bool r = false;

	if (read_file(p, &text, NULL) == 0) {
		if (find_def(text, "struct file", false, &d))
			r = find_line(text, d.open, d.close, "\\*[[:space:]]*f_poll_head;", NULL) > 0;
		free(text);
	}
	free(p);
	return r;
}

char *infra_date(const struct tree *t)
{
	struct strbuf out = STRBUF_INIT;
	struct stat st;
	char *mk;

	if (t->is_git && t->head) {
		const char *argv[] = { "git", "-C", t->root, "log", "-1", "--format=%ct", t->head, NULL };

		if (run_cmd(argv, NULL, &out, true) == 0 && out.len) {
			char *r;

			out.buf[strcspn(out.buf, "\n")] = '\0';
			r = xasprintf("@%s +0000", out.buf);
			sb_release(&out);
			return r;
		}
		sb_release(&out);
	}
	mk = path_join(t->root, "Makefile");
	if (stat(mk, &st) < 0)
		die_code(EXIT_INPUT, "cannot stat '%s': %s", mk, strerror(errno));
	free(mk);
	return xasprintf("@%lld +0000", (long long)st.st_mtime);
}

char *infra_measurements(void)
{
	return xasprintf("%s/kernel-patches/MEASUREMENTS.md", data_dir());
}

static bool all_hex(const char *s)
{
	return *s && strspn(s, "0123456789abcdef") == strlen(s);
}

/* G for tree T: the templates, and each touched file as it is (EXIT_INPUT when one cannot be read). */
static void gen_init(struct gen *g, const struct tree *t)
{
	memset(g, 0, sizeof(*g));
	g->t = t;
	g->tmpl_path = xasprintf("%s/kernel-patches/infra/templates.txt", data_dir());
	if (read_file(g->tmpl_path, &g->tmpl, NULL) < 0)
		die("cannot read '%s': %s", g->tmpl_path, strerror(errno));
	for (int f = 0; f < NR_FILES; f++) {
		char *p = path_join(t->root, infra_files[f]);

		if (read_file(p, &g->orig[f], NULL) < 0)
			die_code(EXIT_INPUT, "cannot read '%s': %s: polltax cannot make the infrastructure patch for this "
				 "tree (write it by hand and pass it with --infra PATCH)", p, strerror(errno));
		g->text[f] = xstrdup(g->orig[f]);
		free(p);
	}
	g->tree = t->describe && !all_hex(t->describe) ? xasprintf("linux-%s (%s)", t->version, t->describe) :
		  xasprintf("linux-%s", t->version);
}

static void gen_free(struct gen *g, char **snap)
{
	for (int f = 0; f < NR_FILES; f++) {
		free(g->orig[f]);
		free(g->text[f]);
		free(snap[f]);
	}
	sv_clear(&g->fd);
	free(g->tmpl);
	free(g->tmpl_path);
	free(g->tree);
}

/* The one-call patch's edits, and its message in MSGS[0]. */
static void edit_one_call(struct gen *g, struct names *nm, struct var *v, char **msgs, const struct infra_id *id)
{
	add_fops_members(g, "one.fs.h.fops");
	add_f_poll_head(g, "one.fs.h.kerneldoc", "one.fs.h.comment");
	edit_vfs_poll(g, "one.poll.h.__vfs_poll", "one.poll.h.prototypes");
	add_after_includes(g, "one.select.c");
	edit_debugfs(g, "one.debugfs.comment");
	edit_do_dentry_open(g);
	edit_anon_c(g);
	edit_anon_h(g);
	names_of(g, nm, v);
	edit_docs(g, "one", v, 5);
	msgs[0] = message(g, "one.message", v, 5, id);
}

/* The two-call patches' edits: the first one's texts in SNAP, the messages in MSGS[0] and MSGS[1]. */
static void edit_two_call(struct gen *g, struct names *nm, struct var *v, char **msgs, char **snap,
			  const struct infra_id *id)
{
	/* the second patch adds the helpers: find them first, on a copy */
	char *keep = xstrdup(g->text[F_ANON_C]);

	edit_anon_c(g);
	free(g->text[F_ANON_C]);
	g->text[F_ANON_C] = keep;
	names_of(g, nm, v);
	sv_clear(&g->fd);

	add_fops_members(g, "two.fs.h.fops");
	edit_vfs_poll(g, "two.poll.h.__vfs_poll", "two.poll.h.prototypes");
	add_after_includes(g, "two.select.c");
	edit_debugfs(g, "two.debugfs.comment");
	edit_docs(g, "two", v, 5);
	msgs[0] = message(g, "two.message", v, 5, id);
	for (int f = 0; f < NR_FILES; f++)
		snap[f] = xstrdup(g->text[f]);
	add_f_poll_head(g, "two2.fs.h.kerneldoc", "two2.fs.h.comment");
	add_after_fops(g, "two2.fs.h.prototypes");
	add_after_mask_wait(g, "two2.select.c");
	edit_do_dentry_open(g);
	edit_anon_c(g);
	edit_anon_h(g);
	msgs[1] = message(g, "two2.message", v, 5, id);
}

/* The hunk headers of the tree's own diffs: its .gitattributes (diff=cpp), not committed. */
static void repo_attributes(const char *root, const char *work)
{
	char *ga = path_join(root, ".gitattributes"), *info = xasprintf("%s/.git/info", work);
	char *ia = path_join(info, "attributes"), *text;

	if (read_file(ga, &text, NULL) < 0)
		text = xstrdup("*.[ch] diff=cpp\n");
	if (mkdir_p(info) < 0 || write_file_atomic(ia, text, strlen(text)) < 0)
		die("cannot write '%s'", ia);
	free(text);
	free(ga);
	free(info);
	free(ia);
}

/* The scratch repository WORK: the originals committed as "base" by polltax, then one commit per message. */
static void repo_commit(const struct gen *g, const char *work, const char *date, char *const *first,
			char *const *msgs, int npatches, const struct infra_id *id)
{
	write_texts(work, g->orig);
	env_identity("polltax", "polltax@localhost", date);
	git_or_die(work, (const char *const[]){ "git", "init", "-q", NULL });
	repo_attributes(g->t->root, work);
	git_or_die(work, (const char *const[]){ "git", "add", "-A", "-f", ".", NULL });
	git_or_die(work, (const char *const[]){ "git", "commit", "-q", "--no-verify", "-m", "base", NULL });
	env_identity(id->name, id->email, date);
	for (int i = 0; i < npatches; i++) {
		char *mf = xasprintf("%s/.git/polltax-msg", work);

		write_texts(work, i == 0 ? first : g->text);
		if (write_file_atomic(mf, msgs[i], strlen(msgs[i])) < 0)
			die("cannot write '%s'", mf);
		git_or_die(work, (const char *const[]){ "git", "commit", "-q", "--no-verify", "-a", "--cleanup=whitespace",
							"-F", mf, NULL });
		free(mf);
	}
}

/* git format-patch of WORK's last NPATCHES commits, copied to OUTDIR as NAMES; their paths pushed to OUT. */
static void repo_format_patches(const char *work, int npatches, const char *outdir, const char *const *names,
				struct strvec *out)
{
	char *range = xasprintf("HEAD~%d..HEAD", npatches), *fmt = xasprintf("%s/.git/polltax-out", work);

	git_or_die(work, (const char *const[]){ "git", "format-patch", "-q", "--abbrev=12", "-o", fmt, range, NULL });
	for (int i = 0; i < npatches; i++) {
		char *pat = xasprintf("%s/%04d-*.patch", fmt, i + 1), *text, *dst;
		glob_t gl;
		size_t len;

		if (glob(pat, 0, NULL, &gl) != 0 || gl.gl_pathc != 1)
			die("git format-patch wrote no '%s'", pat);
		if (read_file(gl.gl_pathv[0], &text, &len) < 0)
			die("cannot read '%s': %s", gl.gl_pathv[0], strerror(errno));
		dst = path_join(outdir, names[i]);
		if (write_file_atomic(dst, text, len) < 0)
			die("cannot write '%s'", dst);
		sv_push(out, dst);
		globfree(&gl);
		free(text);
		free(dst);
		free(pat);
	}
	free(range);
	free(fmt);
}

int infra_write(const struct tree *t, enum infra_kind kind, const struct infra_id *id, const char *dir,
		struct strvec *out)
{
	struct gen g;
	struct names nm;
	struct var v[5];
	char *msgs[2] = { NULL, NULL }, *snap[NR_FILES] = { NULL }, *date, *base, *work, *outdir;
	static const char *const names[2][2] = {
		{ "0001-fs-add-f_poll_head-and-poll_mask.patch", NULL },
		{ "0001-fs-add-get_poll_head-two-call.patch", "0002-fs-f_poll_head-for-the-two-call-variant.patch" },
	};
	int npatches = kind == INFRA_TWO_CALL ? 2 : 1;
	char *saved[16];

	if (infra_present(t->root))
		return 1;
	gen_init(&g, t);

	/* every change first: an anchor that is missing stops before anything is written */
	if (kind == INFRA_ONE_CALL)
		edit_one_call(&g, &nm, v, msgs, id);
	else
		edit_two_call(&g, &nm, v, msgs, snap, id);

	/* a scratch repository of the touched files: the originals, then each patch */
	{
		unsigned long long h = XXH64(t->root, strlen(t->root), 0);
		const char *b = strrchr(t->root, '/');

		base = xasprintf("%s/infra/%s-%08llx", cache_root(), b ? b + 1 : t->root, h & 0xffffffffULL);
	}
	work = xasprintf("%s/tmp-%d", base, (int)getpid());
	outdir = dir ? xstrdup(dir) : xasprintf("%s/%s", base, kind == INFRA_TWO_CALL ? "two-call" : "one-call");
	date = id->date ? xstrdup(id->date) : infra_date(t);
	rm_rf(work);
	if (mkdir_p(work) < 0)
		die("cannot create '%s': %s", work, strerror(errno));
	if (mkdir_p(outdir) < 0)
		die("cannot create '%s': %s", outdir, strerror(errno));
	env_save(saved);
	setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
	setenv("GIT_CONFIG_GLOBAL", "/dev/null", 1);
	repo_commit(&g, work, date, kind == INFRA_TWO_CALL ? snap : g.text, msgs, npatches, id);
	repo_format_patches(work, npatches, outdir, names[kind == INFRA_TWO_CALL], out);
	env_restore(saved);
	rm_rf(work);

	names_free(&nm);
	gen_free(&g, snap);
	free(msgs[0]);
	free(msgs[1]);
	free(date);
	free(base);
	free(work);
	free(outdir);
	return 0;
}
