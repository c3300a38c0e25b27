// SPDX-License-Identifier: GPL-2.0
/*
 * scratch.c - the scratch git trees of scratch.h.
 */
#define _GNU_SOURCE
#include "scratch.h"
#include "strutil.h"
#include "datadir.h"

#include <errno.h>
#include <glob.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <ftw.h>
#include <jansson.h>
#include <sys/wait.h>
#include <unistd.h>
#include <xxhash.h>

/* git with ARGS (and EXTRA, NULL-terminated, or NULL) in WORK, or with --git-dir GIT_DIR (and --work-tree WORK) */
static int git_args(const char *git_dir, const char *work, struct strbuf *out, int quiet, const struct strvec *args,
		    const char *const *extra)
{
	struct strvec argv = STRVEC_INIT;
	int rc;

	sv_push(&argv, "git");
	if (git_dir) {
		sv_pushf(&argv, "--git-dir=%s", git_dir);
		if (work)
			sv_pushf(&argv, "--work-tree=%s", work);
	}
	for (size_t i = 0; i < args->n; i++)
		sv_push(&argv, args->v[i]);
	for (size_t i = 0; extra && extra[i]; i++)
		sv_push(&argv, extra[i]);
	/* pathspecs are relative to the work tree */
	rc = run_cmd((const char *const *)argv.v, work, out, quiet);
	sv_clear(&argv);
	return rc;
}

static int gitv(const char *git_dir, const char *work, struct strbuf *out, int quiet, va_list ap)
{
	struct strvec args = STRVEC_INIT;
	const char *a;
	int rc;

	while ((a = va_arg(ap, const char *)))
		sv_push(&args, a);
	rc = git_args(git_dir, work, out, quiet, &args, NULL);
	sv_clear(&args);
	return rc;
}

static int git_in(const char *git_dir, const char *work, struct strbuf *out, int quiet, ...)
	__attribute__((sentinel));
static int git_in(const char *git_dir, const char *work, struct strbuf *out, int quiet, ...)
{
	va_list ap;
	int rc;

	va_start(ap, quiet);
	rc = gitv(git_dir, work, out, quiet, ap);
	va_end(ap);
	return rc;
}

int scratch_git(const struct scratch *s, struct strbuf *out, int quiet, ...)
{
	va_list ap;
	int rc;

	va_start(ap, quiet);
	rc = s->work ? gitv(NULL, s->work, out, quiet, ap) : gitv(s->git_dir, NULL, out, quiet, ap);
	va_end(ap);
	return rc;
}

void scratch_identity(const char *name, const char *email, const char *date)
{
	setenv("GIT_AUTHOR_NAME", name, 1);
	setenv("GIT_AUTHOR_EMAIL", email, 1);
	setenv("GIT_COMMITTER_NAME", name, 1);
	setenv("GIT_COMMITTER_EMAIL", email, 1);
	if (date) {
		setenv("GIT_AUTHOR_DATE", date, 1);
		setenv("GIT_COMMITTER_DATE", date, 1);
	}
	/* nothing of the user's configuration may change what we produce */
	setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
	setenv("GIT_CONFIG_GLOBAL", "/dev/null", 1);
}

/* $CACHE/work/<basename>-<hash of the path> */
static char *work_dir(const struct tree *t)
{
	const char *b = strrchr(t->root, '/');
	unsigned long long h = XXH64(t->root, strlen(t->root), 0);

	return xasprintf("%s/work/%s-%08llx", cache_root(), b ? b + 1 : t->root, h & 0xffffffffULL);
}

static void base_from_clone(struct scratch *s, const struct tree *t, bool quiet)
{
	struct strbuf out = STRBUF_INIT;

	if (!is_dir(s->git_dir)) {
		const char *argv[] = { "git", "clone", "-q", "--bare", "--shared", t->root, s->git_dir, NULL };

		if (!quiet)
			fprintf(stderr, "polltax: cloning '%s' (shared) into '%s'\n", t->root, s->git_dir);
		if (run_cmd(argv, NULL, NULL, quiet) != 0)
			die("cannot clone '%s' into '%s'", t->root, s->git_dir);
	}
	/* read only: no index refresh in the user's clone */
	if (git_in(NULL, t->root, &out, true, "--no-optional-locks", "rev-parse", "--verify", "HEAD^{commit}",
		   NULL) != 0)
		die_code(EXIT_INPUT, "'%s' is a git clone without a HEAD commit", t->root);
	s->base = sb_detach_trimmed(&out);
	if (git_in(NULL, t->root, &out, true, "--no-optional-locks", "status", "--porcelain", "-uno", NULL) == 0 &&
	    out.len)
		warning("'%s' has uncommitted changes: the series is based on HEAD (%.12s) without them", t->root,
			s->base);
	sb_reset(&out);
	if (git_in(s->git_dir, NULL, NULL, true, "cat-file", "-e", s->base, NULL) != 0 &&
	    git_in(s->git_dir, NULL, NULL, quiet, "fetch", "-q", t->root, "HEAD", NULL) != 0)
		die("cannot get commit %s of '%s' into '%s'", s->base, t->root, s->git_dir);
	if (git_in(s->git_dir, NULL, &out, true, "log", "-1", "--format=%ct", s->base, NULL) != 0)
		die("cannot read the date of commit %s", s->base);
	{
		char *ct = sb_detach_trimmed(&out);

		s->date = xasprintf("@%s +0000", ct);
		free(ct);
	}
	s->from_git = true;
}

char *scratch_tree_date(const char *root)
{
	struct stat st;
	char *mk = path_join(root, "Makefile");

	if (stat(mk, &st) < 0)
		die_code(EXIT_INPUT, "cannot stat '%s': %s", mk, strerror(errno));
	free(mk);
	return xasprintf("@%lld +0000", (long long)st.st_mtime);
}

/* A root commit of TREE_ID with MSG, polltax's identity and DATE, in GIT_DIR; the environment is left as it was. */
static char *commit_tree(const char *git_dir, const char *tree_id, const char *msg, const char *date, bool quiet)
{
	static const char *const vars[] = { "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME",
					    "GIT_COMMITTER_EMAIL", "GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE" };
	char *saved[6];
	struct strbuf out = STRBUF_INIT;
	int rc;

	for (int i = 0; i < 6; i++)
		saved[i] = getenv(vars[i]) ? xstrdup(getenv(vars[i])) : NULL;
	/* a fixed identity and date: the same tree gives the same commit */
	scratch_identity("polltax", "polltax@localhost", date);
	rc = git_in(git_dir, NULL, &out, quiet, "commit-tree", tree_id, "-m", msg, NULL);
	for (int i = 0; i < 6; i++) {
		if (saved[i])
			setenv(vars[i], saved[i], 1);
		else
			unsetenv(vars[i]);
		free(saved[i]);
	}
	if (rc != 0)
		die("cannot commit tree %s in '%s'", tree_id, git_dir);
	return sb_detach_trimmed(&out);
}

/*
 * The import's shares: ROOT's files by their entry two levels down
 * ("drivers/gpu", "Makefile", "fs/select.c"), the entries dealt to N
 * workers by size, largest first, each to the least loaded (the same tree
 * gives the same shares).
 */
static json_t *share_sizes;
static size_t share_root_len;

static int share_visit(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	const char *rel = path + share_root_len, *slash;
	char *entry;

	(void)ftw;
	while (*rel == '/')
		rel++;
	if (!*rel)
		return 0;
	if (!strncmp(rel, ".git", 4) && (!rel[4] || rel[4] == '/'))
		return type == FTW_D ? FTW_SKIP_SUBTREE : 0;
	if (type != FTW_F && type != FTW_SL)
		return 0;
	slash = strchr(rel, '/');
	slash = slash ? strchr(slash + 1, '/') : NULL;
	entry = slash ? xstrndup(rel, (size_t)(slash - rel)) : xstrdup(rel);
	json_object_set_new(share_sizes, entry,
			    json_integer(json_integer_value(json_object_get(share_sizes, entry)) + st->st_size + 1));
	free(entry);
	return 0;
}

struct share {
	const char *entry;
	long long size;
};

static int share_cmp(const void *a, const void *b)
{
	const struct share *x = a, *y = b;

	return x->size != y->size ? (x->size < y->size ? 1 : -1) : strcmp(x->entry, y->entry);
}

/* OWNER (json object entry -> worker) of ROOT's entries for N workers */
static json_t *import_shares(const char *root, int n)
{
	json_t *owner = json_object(), *v;
	const char *k;
	struct share *sh;
	long long *load = xcalloc((size_t)n, sizeof(*load));
	size_t i = 0, count;

	share_sizes = json_object();
	share_root_len = strlen(root);
	if (nftw(root, share_visit, 64, FTW_PHYS | FTW_ACTIONRETVAL) != 0)
		die("cannot read '%s': %s", root, strerror(errno));
	count = json_object_size(share_sizes);
	sh = xcalloc(count ? count : 1, sizeof(*sh));
	json_object_foreach(share_sizes, k, v) {
		sh[i].entry = k;
		sh[i++].size = json_integer_value(v);
	}
	qsort(sh, count, sizeof(*sh), share_cmp);
	for (i = 0; i < count; i++) {
		int best = 0;

		for (int w = 1; w < n; w++)
			if (load[w] < load[best])
				best = w;
		load[best] += sh[i].size;
		json_object_set_new(owner, sh[i].entry, json_integer(best));
	}
	free(sh);
	free(load);
	json_decref(share_sizes);
	share_sizes = NULL;
	return owner;
}

/* Worker W's pathspecs: the whole tree but the other workers' entries and EXCLUDE */
static void share_pathspecs(struct strvec *args, json_t *owner, int w, const char *const *exclude)
{
	const char *k;
	json_t *v;

	sv_push(args, "--");
	sv_push(args, ".");
	json_object_foreach(owner, k, v)
		if (json_integer_value(v) != w)
			sv_pushf(args, ":(exclude,literal)%s", k);
	for (size_t i = 0; exclude && exclude[i]; i++)
		sv_push(args, exclude[i]);
}

/* Git's ARGS for worker W: CMD on its share, with its index (GIT_INDEX_FILE set) */
static void share_git(struct strvec *args, const char *git_dir, json_t *owner, int w, const char *const *exclude,
		      const char *const *cmd)
{
	char *ix = xasprintf("%s/index.%d", git_dir, w);

	setenv("GIT_INDEX_FILE", ix, 1);
	free(ix);
	sv_push(args, "-c");
	sv_push(args, "core.bare=false");
	for (size_t i = 0; cmd[i]; i++)
		sv_push(args, cmd[i]);
	share_pathspecs(args, owner, w, exclude);
}

/*
 * ROOT's files recorded by N "git add -A -f" side by side, each into its
 * own index in GIT_DIR (index.W, kept: the next import hashes only what
 * changed), then their entries into one index (index.all) and its tree.
 * Returns the tree id.  -f: the tree's .gitignore files are not the tree's
 * contents (the top-level one of Debian's linux-source ignores everything).
 */
static char *import_tree(const char *git_dir, const char *root, const char *const *exclude, bool quiet)
{
	int n = online_cpus(), failed = 0;
	json_t *owner;
	pid_t *pids;
	struct strbuf entries = STRBUF_INIT, out = STRBUF_INIT;
	char *all = path_join(git_dir, "index.all"), *list = path_join(git_dir, "index.entries"), *tree_id;

	if (n > 8)
		n = 8;
	if (n < 1)
		n = 1;
	owner = import_shares(root, n);
	pids = xcalloc((size_t)n, sizeof(*pids));
	fflush(stdout);
	fflush(stderr);
	for (int w = 0; w < n; w++) {
		pids[w] = fork();
		if (pids[w] < 0)
			die("cannot fork: %s", strerror(errno));
		if (pids[w] == 0) {
			struct strvec args = STRVEC_INIT;

			share_git(&args, git_dir, owner, w, exclude, (const char *const[]){ "add", "-A", "-f", NULL });
			_exit(git_args(git_dir, root, NULL, quiet, &args, NULL) == 0 ? 0 : 1);
		}
	}
	for (int w = 0; w < n; w++) {
		int st;

		while (waitpid(pids[w], &st, 0) < 0)
			if (errno != EINTR)
				die("waitpid: %s", strerror(errno));
		failed |= !WIFEXITED(st) || WEXITSTATUS(st) != 0;
	}
	free(pids);
	if (failed)
		die("cannot record '%s' in '%s'", root, git_dir);
	/* each worker's entries, those of its share only (an index keeps what a share had before) */
	for (int w = 0; w < n && !failed; w++) {
		struct strvec args = STRVEC_INIT;

		share_git(&args, git_dir, owner, w, exclude, (const char *const[]){ "ls-files", "-s", "-z", NULL });
		failed = git_args(git_dir, root, &out, true, &args, NULL) != 0;
		sb_add(&entries, out.buf ? out.buf : "", out.len);
		sb_reset(&out);
		sv_clear(&args);
	}
	unlink(all);
	setenv("GIT_INDEX_FILE", all, 1);
	if (!failed) {
		const char *argv[] = { "sh", "-c", "exec git update-index -z --add --index-info <\"$0\"", list, NULL };

		failed = write_file_atomic(list, entries.buf ? entries.buf : "", entries.len) < 0 ||
			 run_cmd(argv, git_dir, NULL, quiet) != 0;
		unlink(list);
	}
	if (failed || git_in(git_dir, NULL, &out, quiet, "write-tree", NULL) != 0)
		die("cannot write the tree of '%s'", root);
	unsetenv("GIT_INDEX_FILE");
	unlink(all);
	tree_id = sb_detach_trimmed(&out);
	sb_release(&entries);
	json_decref(owner);
	free(all);
	free(list);
	return tree_id;
}

char *scratch_import(const char *git_dir, const char *root, const char *const *exclude, const char *ref,
		     const char *msg, const char *date, bool quiet)
{
	struct strbuf out = STRBUF_INIT;
	char *tree_id, *old = NULL, *ix, *spec;

	if (!is_dir(git_dir)) {
		if (git_in(NULL, NULL, NULL, quiet, "init", "-q", "--bare", git_dir, NULL) != 0)
			die("cannot create '%s'", git_dir);
		/* no automatic gc in the middle of a run */
		git_in(git_dir, NULL, NULL, true, "config", "gc.auto", "0", NULL);
	}
	/* the single index of imports before they were shared out: not read any more */
	ix = path_join(git_dir, "index");
	unlink(ix);
	free(ix);
	if (!quiet)
		fprintf(stderr, "polltax: recording '%s' in '%s'\n", root, git_dir);
	tree_id = import_tree(git_dir, root, exclude, quiet);
	if (!strcmp(tree_id, "4b825dc642cb6eb9a060e54bf8d69288fbee4904"))
		die_code(EXIT_INPUT, "no file of '%s' could be recorded in '%s'", root, git_dir);
	spec = xasprintf("%s^{tree}", ref);
	if (git_in(git_dir, NULL, &out, true, "rev-parse", "--verify", "-q", spec, NULL) == 0)
		old = sb_detach_trimmed(&out);
	sb_reset(&out);
	free(spec);
	if (!old || strcmp(old, tree_id)) {
		char *c = commit_tree(git_dir, tree_id, msg, date, quiet);

		if (git_in(git_dir, NULL, NULL, quiet, "update-ref", ref, c, NULL) != 0)
			die("cannot update %s in '%s'", ref, git_dir);
		free(c);
	}
	free(old);
	free(tree_id);
	sb_reset(&out);
	if (git_in(git_dir, NULL, &out, true, "rev-parse", ref, NULL) != 0)
		die("no %s in '%s'", ref, git_dir);
	return sb_detach_trimmed(&out);
}

/*
 * What a tree prepared or built in place has beside its sources (the
 * configuration, generated headers, objects): not part of the tree the
 * series applies to and the kernels are built from (with O=).
 */
static const char *const build_products[] = {
	":(exclude).config", ":(exclude).config.old", ":(exclude)include/config",
	":(exclude)include/generated", ":(exclude)arch/*/include/generated",
	":(exclude,glob)**/*.o", ":(exclude,glob)**/.*.cmd", ":(exclude,glob)**/*.ko", NULL
};

static void base_from_files(struct scratch *s, const struct tree *t, bool quiet)
{
	char *msg = xasprintf("linux %s as found in the tree", t->version);

	s->date = scratch_tree_date(t->root);
	s->base = scratch_import(s->git_dir, t->root, build_products, "refs/polltax/pristine", msg, s->date, quiet);
	s->from_git = false;
	free(msg);
}

int scratch_lock(const char *dir, bool wait, bool quiet)
{
	char *lk = path_join(dir, "lock");
	int fd = open(lk, O_RDWR | O_CREAT | O_CLOEXEC, 0644);

	if (fd < 0)
		die("cannot open '%s': %s", lk, strerror(errno));
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		if (!wait)
			die("'%s' is in use by another polltax (or cannot be locked)", dir);
		if (!quiet)
			fprintf(stderr, "polltax: waiting for another polltax working in '%s'\n", dir);
		if (flock(fd, LOCK_EX) < 0)
			die("cannot lock '%s': %s", lk, strerror(errno));
	}
	free(lk);
	/* FD stays open: the lock is held until the process exits, or scratch_unlock() */
	return fd;
}

void scratch_unlock(int lock)
{
	if (lock >= 0)
		close(lock);
}

bool scratch_worktree_add(const char *git_dir, const char *path, const char *commit, bool quiet)
{
	char *dotgit = path_join(path, ".git");
	bool added = !is_file(dotgit);

	if (added) {
		if (is_dir(path))
			rm_rf(path);	/* what an interrupted "worktree add" left */
		if (!quiet)
			fprintf(stderr, "polltax: checking out %.12s in '%s'\n", commit, path);
		git_in(git_dir, NULL, NULL, true, "worktree", "prune", NULL);
		if (git_in(git_dir, NULL, NULL, quiet, "worktree", "add", "-q", "--detach", "-f", path, commit, NULL) != 0)
			die("cannot check out %s in '%s'", commit, path);
	}
	free(dotgit);
	return added;
}

void scratch_base(struct scratch *s, const struct tree *t, bool quiet)
{
	char *dotgit = path_join(t->root, ".git");

	/* nothing of the user's git configuration may change what polltax makes */
	setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
	setenv("GIT_CONFIG_GLOBAL", "/dev/null", 1);

	memset(s, 0, sizeof(*s));
	s->dir = work_dir(t);
	s->git_dir = path_join(s->dir, "base.git");
	if (mkdir_p(s->dir) < 0)
		die("cannot create '%s': %s", s->dir, strerror(errno));
	/* one polltax at a time per tree: base.git and the work trees are shared */
	s->lock = scratch_lock(s->dir, true, quiet);
	if (t->is_git && (is_dir(dotgit) || is_file(dotgit)))
		base_from_clone(s, t, quiet);
	else
		base_from_files(s, t, quiet);
	free(dotgit);
}

void scratch_open(struct scratch *s, const struct tree *t, const char *use, bool quiet)
{
	scratch_base(s, t, quiet);
	s->work = path_join(s->dir, use);
	if (!scratch_worktree_add(s->git_dir, s->work, s->base, quiet)) {
		/* git am may have stopped half way in an earlier run */
		git_in(NULL, s->work, NULL, true, "am", "--abort", NULL);
		if (git_in(NULL, s->work, NULL, quiet, "checkout", "-q", "-f", "--detach", s->base, NULL) != 0 ||
		    git_in(NULL, s->work, NULL, quiet, "clean", "-q", "-f", "-d", "-x", NULL) != 0)
			die("cannot reset '%s' to %s", s->work, s->base);
	}
}

void scratch_free(struct scratch *s)
{
	free(s->dir);
	free(s->git_dir);
	free(s->work);
	free(s->base);
	free(s->date);
	memset(s, 0, sizeof(*s));
}

static const char *const kernel_scripts[] = {
	"get_maintainer.pl", "checkpatch.pl", "spelling.txt", "const_structs.checkpatch", NULL
};

/* A directory holding all of kernel_scripts, or NULL. */
static char *find_scripts(void)
{
	const char *pats[] = { "%s/kernel-scripts/*", "%s/src/linux-source-*/scripts", NULL };
	char *found = NULL;

	for (int p = 0; pats[p] && !found; p++) {
		char *pat = xasprintf(pats[p], cache_root());
		glob_t g;

		if (glob(pat, 0, NULL, &g) == 0) {
			/* the newest version last (glob sorts) */
			for (size_t i = g.gl_pathc; i-- > 0 && !found;) {
				bool all = true;

				for (int k = 0; kernel_scripts[k] && all; k++) {
					char *f = path_join(g.gl_pathv[i], kernel_scripts[k]);

					all = is_file(f);
					free(f);
				}
				if (all)
					found = xstrdup(g.gl_pathv[i]);
			}
			globfree(&g);
		}
		free(pat);
	}
	return found;
}

/* Unpack the scripts from Debian's linux-source tarball into $CACHE/kernel-scripts/<version>. */
static char *unpack_scripts(bool quiet)
{
	glob_t g;
	char *r = NULL;

	if (glob("/usr/src/linux-source-*.tar.xz", 0, NULL, &g) != 0) {
		char *ep = xasprintf("%s/tool/ensure-packages", data_dir());
		const char *argv[] = { ep, "linux-source-6.12", NULL };

		if (run_cmd(argv, NULL, NULL, quiet) != 0 ||
		    glob("/usr/src/linux-source-*.tar.xz", 0, NULL, &g) != 0) {
			free(ep);
			return NULL;
		}
		free(ep);
	}
	{
		const char *tarball = g.gl_pathv[g.gl_pathc - 1];
		const char *b = strrchr(tarball, '/') + 1;
		char *top = xstrndup(b, strlen(b) - strlen(".tar.xz"));
		char *dest = xasprintf("%s/kernel-scripts/%s", cache_root(), top + strlen("linux-source-"));
		char *tmp = xasprintf("%s.tmp.%d", dest, (int)getpid());
		struct strvec argv = STRVEC_INIT;

		if (!quiet)
			fprintf(stderr, "polltax: unpacking the kernel scripts from '%s'\n", tarball);
		mkdir_p(tmp);
		sv_push(&argv, "tar");
		sv_push(&argv, "-xJf");
		sv_push(&argv, tarball);
		sv_push(&argv, "-C");
		sv_push(&argv, tmp);
		sv_push(&argv, "--strip-components=2");
		for (int k = 0; kernel_scripts[k]; k++)
			sv_pushf(&argv, "%s/scripts/%s", top, kernel_scripts[k]);
		if (run_cmd((const char *const *)argv.v, NULL, NULL, quiet) == 0 && rename(tmp, dest) == 0)
			r = xstrdup(dest);
		else
			rm_rf(tmp);
		sv_clear(&argv);
		free(top);
		free(dest);
		free(tmp);
	}
	globfree(&g);
	return r;
}

int scratch_kernel_scripts(const char *work, bool quiet)
{
	char *dir = find_scripts(), *sdir = path_join(work, "scripts");
	int rc = 0;

	if (!dir)
		dir = unpack_scripts(quiet);
	if (!dir) {
		free(sdir);
		return error("no kernel scripts to copy: install linux-source-6.12 (tool/ensure-packages linux-source-6.12)");
	}
	if (mkdir_p(sdir) < 0)
		rc = error("cannot create '%s': %s", sdir, strerror(errno));
	for (int k = 0; kernel_scripts[k] && !rc; k++) {
		char *from = path_join(dir, kernel_scripts[k]), *to = path_join(sdir, kernel_scripts[k]), *text;
		size_t len;

		if (!is_file(to)) {
			if (read_file(from, &text, &len) < 0) {
				rc = error("cannot read '%s': %s", from, strerror(errno));
			} else {
				if (write_file_atomic(to, text, len) < 0)
					rc = -1;
				else if (strstr(kernel_scripts[k], ".pl"))
					chmod(to, 0755);
				free(text);
			}
		}
		free(from);
		free(to);
	}
	free(dir);
	free(sdir);
	return rc;
}
