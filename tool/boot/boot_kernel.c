// SPDX-License-Identifier: GPL-2.0
/*
 * boot_kernel.c - the three kernels of the boot test, built in worktrees
 * of the tree's one import (scratch.h: $CACHE/work/<tree>/base.git, shared
 * with series and verify; its base commit is the one the series is made
 * on), under ~/.cache/polltax/boot/<tree>/ (or --work DIR):
 *
 *   src/apply       where the series is "git am"ed; the result is kept as
 *                   refs/polltax/<kernel>-<hash of its input>
 *   src/<kernel>    base, patched, two-call: one worktree each, moved with
 *                   "git checkout" so that only changed files get a new
 *                   mtime, and built with O=build/<kernel>, so that a second
 *                   run rebuilds only what the series changed
 *   config/         tinyconfig + the boot list + the converted files' symbols
 *   kernels/<k>/vmlinux   what was booted
 *   logs/           make's output
 *
 * The two-call kernel is the two-call infrastructure (made for the tree by
 * infra.c, as "polltax infra --two-call" writes it, or hand-written ones in
 * --kernel-patches DIR/<ver>/two-call/NNNN-*.patch) followed by the series'
 * conversions; its last commit, generated here, gives every converted
 * file_operations a
 * .get_poll_head = file_get_poll_head, so that vfs_poll() makes the two
 * indirect calls of 4.18 while everything else stays as in the patched kernel.
 */
#define _GNU_SOURCE
#include "boot.h"
#include "series/infra.h"
#include "lib/scratch.h"
#include "lib/tree.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
/* sparse cannot parse glibc's VLA parameters in regex.h */
#ifdef __CHECKER__
#define __STDC_NO_VLA__ 1
#endif
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

const char *const kernel_names[NR_KERNELS] = { "base", "patched", "two-call", "base-kasan", "patched-kasan" };

enum kernel_id kernel_source(enum kernel_id id)
{
	return id == K_BASE_KASAN ? K_BASE : id == K_PATCHED_KASAN ? K_PATCHED : id;
}

/*
 * The debug fragment of the -kasan kernels, after the boot configuration:
 * generic KASAN (out of line: a smaller, faster build), which needs the
 * full SLUB (tinyconfig has SLUB_TINY), and lockdep's proof of locking
 * with the atomic-sleep check.  A use after free of a wait queue (an
 * f_poll_head left pointing into freed memory) is a KASAN report on the
 * console, which the boot's log check counts as a failure.
 */
static const char kasan_fragment[] =
	"CONFIG_DEBUG_KERNEL=y\n"
	"# CONFIG_SLUB_TINY is not set\n"
	"CONFIG_KASAN=y\n"
	"CONFIG_KASAN_GENERIC=y\n"
	"CONFIG_KASAN_OUTLINE=y\n"
	"# CONFIG_KASAN_INLINE is not set\n"
	"CONFIG_PROVE_LOCKING=y\n"
	"CONFIG_DEBUG_ATOMIC_SLEEP=y\n"
	"CONFIG_KALLSYMS=y\n";
static const char *const kasan_required[] = { "KASAN", "PROVE_LOCKING" };

static char *hash_hex(const char *a, const char *b)
{
	XXH64_state_t *st = XXH64_createState();
	char *r;

	XXH64_reset(st, 0);
	XXH64_update(st, a, strlen(a));
	if (b)
		XXH64_update(st, b, strlen(b));
	r = xasprintf("%016llx", (unsigned long long)XXH64_digest(st));
	XXH64_freeState(st);
	return r;
}

/* the hash of a kernel's inputs: the commit it starts from, then patch texts */
static void hash_files(XXH64_state_t *st, const struct strvec *files, size_t from)
{
	for (size_t i = from; i < files->n; i++) {
		char *text;
		size_t len;

		if (read_file(files->v[i], &text, &len) < 0)
			die_code(EXIT_INPUT, "cannot read '%s': %s", files->v[i], strerror(errno));
		XXH64_update(st, text, len);
		free(text);
	}
}

static void add_worktree(struct boot_work *w, const char *path)
{
	scratch_worktree_add(w->repo, path, w->pristine, w->quiet);
}

void work_open(struct boot_work *w, const char *kernel_dir, const char *workdir, int jobs, bool quiet)
{
	struct tree t;
	struct scratch base;
	char *dot, *old;

	memset(w, 0, sizeof(*w));
	w->jobs = jobs;
	w->quiet = quiet;
	tree_open(&t, kernel_dir);
	w->tree = xstrdup(t.root);
	w->version = xstrdup(t.version);
	w->series_ver = xstrdup(t.version);
	dot = strchr(w->series_ver, '.');
	if (dot && (dot = strchr(dot + 1, '.')))
		*dot = '\0';
	if (workdir) {
		w->root = xstrdup(workdir);
	} else {
		char *h = hash_hex(w->tree, NULL);

		w->root = xasprintf("%s/boot/%s-%.8s", cache_root(), strrchr(w->tree, '/') + 1, h);
		free(h);
	}
	if (mkdir_p(w->root) < 0)
		die("cannot create '%s': %s", w->root, strerror(errno));
	scratch_lock(w->root, false, quiet);
	/* the tree's one import, shared with series and verify (scratch.h): its base commit */
	scratch_base(&base, &t, quiet);
	w->repo = xstrdup(base.git_dir);
	w->pristine = xstrdup(base.base);
	w->import_lock = base.lock;
	scratch_free(&base);
	tree_free(&t);
	/* an import of the boot test's own, as older versions made: its worktrees go with it */
	old = path_join(w->root, "git");
	if (is_dir(old)) {
		char *src = path_join(w->root, "src");

		if (!quiet)
			fprintf(stderr, "boot-test: removing '%s' and '%s': the boot test now uses '%s'\n", old, src,
				w->repo);
		rm_rf(src);
		rm_rf(old);
		free(src);
	}
	free(old);

	for (int i = 0; i < NR_KERNELS; i++) {
		w->k[i].src = xasprintf("%s/src/%s", w->root, kernel_names[kernel_source((enum kernel_id)i)]);
		w->k[i].obj = xasprintf("%s/build/%s", w->root, kernel_names[i]);
		w->k[i].vmlinux = xasprintf("%s/kernels/%s/vmlinux", w->root, kernel_names[i]);
	}
}

static char *ref_commit(struct boot_work *w, const char *ref)
{
	struct strbuf out = STRBUF_INIT;
	char *spec = xasprintf("%s^{commit}", ref);

	if (git(w->repo, true, &out, "rev-parse", "-q", "--verify", spec, NULL)) {
		free(spec);
		sb_release(&out);
		return NULL;
	}
	free(spec);
	return sb_detach(&out);
}

/* git am the PATCHES (from index FROM on) in the apply worktree; dies with git's words */
static void am(struct boot_work *w, const char *apply, const struct strvec *patches, size_t from,
	       const char *what)
{
	struct strvec argv = STRVEC_INIT;
	struct strbuf out = STRBUF_INIT;
	char *log = xasprintf("%s/logs/am.log", w->root);
	int r;

	if (from >= patches->n)
		return;
	sv_push(&argv, "git");
	sv_push(&argv, "-c");
	sv_push(&argv, "user.name=polltax boot-test");
	sv_push(&argv, "-c");
	sv_push(&argv, "user.email=polltax@localhost");
	sv_push(&argv, "am");
	sv_push(&argv, "-q");
	sv_push(&argv, "--3way");
	for (size_t i = from; i < patches->n; i++)
		sv_push(&argv, patches->v[i]);
	unlink(log);
	r = run_logged((const char *const *)argv.v, apply, log, 0, NULL);
	if (r) {
		char *tail = log_tail(log, 12);

		git(apply, true, NULL, "am", "--abort", NULL);
		die_code(EXIT_FINDINGS, "%s does not apply to '%s' (%s):\n%s", what, w->tree, w->version, tail);
	}
	sv_clear(&argv);
	sb_release(&out);
	free(log);
}

/*
 * The two-call variant's own conversion step: before every ".poll_mask ="
 * initializer (or "->poll_mask =" assignment) of a converted file, the same
 * for .get_poll_head, pointing at file_get_poll_head().
 */
static int add_get_poll_heads(const char *src, const struct strvec *files)
{
	regex_t init, assign;
	int added = 0;

	/* the last member of an initializer may have no comma */
	regcomp(&init, "^([[:space:]]*)\\.poll_mask([[:space:]]*)=[[:space:]]*[A-Za-z_][A-Za-z0-9_]*"
		"[[:space:]]*(,|\\}|$)", REG_EXTENDED);
	regcomp(&assign, "^([[:space:]]*)(.*)->poll_mask[[:space:]]*=[[:space:]]*[A-Za-z_][A-Za-z0-9_]*[[:space:]]*;",
		REG_EXTENDED);
	for (size_t i = 0; i < files->n; i++) {
		char *path = path_join(src, files->v[i]), *text;
		struct strbuf sb = STRBUF_INIT;

		if (read_file(path, &text, NULL) < 0)
			die("cannot read '%s': %s", path, strerror(errno));
		for (char *p = text; *p;) {
			char *e = strchr(p, '\n');
			size_t len = e ? (size_t)(e - p) + 1 : strlen(p);
			char *line = xstrndup(p, len);
			regmatch_t m[3];

			if (!regexec(&init, line, 3, m, 0) && !strstr(line, "get_poll_head")) {
				/* a line of a macro (DRM_GEM_FOPS) goes on: so does the one added */
				size_t l = strlen(line);
				bool cont = (l > 1 && line[l - 1] == '\n' && line[l - 2] == '\\') ||
					    (l && line[l - 1] == '\\');

				sb_add(&sb, line, (size_t)m[1].rm_eo);
				sb_addf(&sb, ".get_poll_head%.*s= file_get_poll_head,%s\n",
					(int)(m[2].rm_eo - m[2].rm_so), line + m[2].rm_so, cont ? "\\" : "");
				added++;
			} else if (!regexec(&assign, line, 3, m, 0)) {
				sb_add(&sb, line, (size_t)m[1].rm_eo);
				sb_addf(&sb, "%.*s->get_poll_head = file_get_poll_head;\n",
					(int)(m[2].rm_eo - m[2].rm_so), line + m[2].rm_so);
				added++;
			}
			sb_adds(&sb, line);
			free(line);
			p += len;
		}
		if (write_file_atomic(path, sb.buf ? sb.buf : "", sb.len) < 0)
			die("cannot write '%s'", path);
		sb_release(&sb);
		free(text);
		free(path);
	}
	regfree(&init);
	regfree(&assign);
	return added;
}

static char *make_commit(struct boot_work *w, const char *apply, const char *ref, XXH64_state_t *st,
			 const struct strvec *infra, const struct strvec *conv, const char *what,
			 const struct strvec *converted_files, int *get_poll_heads)
{
	char *key = xasprintf("%016llx", (unsigned long long)XXH64_digest(st));
	char *full = xasprintf("refs/polltax/%s-%s", ref, key);
	char *c = ref_commit(w, full);
	struct strbuf out = STRBUF_INIT;

	if (c) {
		if (get_poll_heads) {
			git(w->repo, false, &out, "log", "-1", "--format=%b", c, NULL);
			*get_poll_heads = out.buf && strstr(out.buf, "added: ") ? atoi(strstr(out.buf, "added: ") + 7) : 0;
			sb_release(&out);
		}
		free(key);
		free(full);
		return c;
	}
	if (!w->quiet)
		fprintf(stderr, "boot-test: applying %s\n", what);
	git(apply, true, NULL, "am", "--abort", NULL);
	git(apply, false, NULL, "checkout", "-q", "-f", "--detach", w->pristine, NULL);
	am(w, apply, infra, 0, infra == conv ? "the series" : "the two-call infrastructure");
	if (infra != conv)
		am(w, apply, conv, 1, "the series' conversions (on the two-call infrastructure)");
	if (get_poll_heads) {
		int n = add_get_poll_heads(apply, converted_files);
		char *msg = xasprintf("two-call: point the converted files at file_get_poll_head()\n\n"
				      "Generated by polltax boot-test: every .poll_mask of the series gets\n"
				      ".get_poll_head = file_get_poll_head beside it.\n\nadded: %d\n", n);

		*get_poll_heads = n;
		git(apply, false, NULL, "commit", "-q", "-a", "--allow-empty", "-m", msg, NULL);
		free(msg);
	}
	git(apply, false, &out, "rev-parse", "HEAD", NULL);
	c = sb_detach(&out);
	git(w->repo, false, NULL, "update-ref", full, c, NULL);
	free(key);
	free(full);
	return c;
}

static void checkout(struct boot_work *w, enum kernel_id id)
{
	struct kernel_build *k = &w->k[id];
	struct strbuf out = STRBUF_INIT;

	add_worktree(w, k->src);
	git(k->src, true, &out, "rev-parse", "HEAD", NULL);
	/* only files that differ get rewritten, so make rebuilds only those */
	if (!out.buf || strcmp(out.buf, k->commit))
		git(k->src, false, NULL, "checkout", "-q", "-f", "--detach", k->commit, NULL);
	else
		git(k->src, false, NULL, "reset", "-q", "--hard", NULL);
	sb_release(&out);
}

static void list_patches(const char *dir, struct strvec *out)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name);

		if (n > 6 && !strcmp(de->d_name + n - 6, ".patch"))
			sv_pushf(out, "%s/%s", dir, de->d_name);
	}
	closedir(d);
	sv_sort(out);
}

/* The two-call infrastructure made for the tree (infra.h), into TC; NULL, or why there is none. */
static char *two_call_made(struct boot_work *w, struct strvec *tc)
{
	struct infra_id id = { "polltax boot-test", "polltax@localhost", NULL };
	char *dir = path_join(w->root, "two-call"), *why = NULL;
	struct tree t;

	tree_open(&t, w->tree);
	if (infra_write(&t, INFRA_TWO_CALL, &id, dir, tc) == 1)
		why = xasprintf("'%s' has f_poll_head already: no two-call variant can be made for it", w->tree);
	tree_free(&t);
	free(dir);
	return why;
}

void work_apply(struct boot_work *w, const struct boot_series *s, const char *kpatches)
{
	char *apply = xasprintf("%s/src/apply", w->root);
	char *logs = xasprintf("%s/logs", w->root);
	char *tcdir = kpatches ? xasprintf("%s/%s/two-call", kpatches, w->series_ver) : NULL;
	char *from = tcdir ? xasprintf("from '%s'", tcdir) : xstrdup("made for the tree by polltax infra --two-call");
	struct strvec tc = STRVEC_INIT;
	XXH64_state_t *st = XXH64_createState();

	mkdir_p(logs);
	w->k[K_BASE].commit = xstrdup(w->pristine);
	if (w->k[K_PATCHED].wanted || w->k[K_TWO_CALL].wanted)
		add_worktree(w, apply);

	if (w->k[K_PATCHED].wanted) {
		XXH64_reset(st, 0);
		XXH64_update(st, w->pristine, strlen(w->pristine));
		hash_files(st, &s->patches, 0);
		w->k[K_PATCHED].commit = make_commit(w, apply, "patched", st, &s->patches, &s->patches,
						     "the series", NULL, NULL);
	}
	if (w->k[K_TWO_CALL].wanted) {
		char *why = NULL;

		if (tcdir)
			list_patches(tcdir, &tc);
		else
			why = two_call_made(w, &tc);
		if (!tc.n) {
			if (!why)
				why = xasprintf("no patches in '%s'", tcdir);
			warning("no two-call infrastructure: %s: the two-call kernel is left out", why);
			w->k[K_TWO_CALL].wanted = false;
			w->k[K_TWO_CALL].note = xasprintf("left out: %s", why);
			free(why);
		} else {
			XXH64_reset(st, 0);
			XXH64_update(st, w->pristine, strlen(w->pristine));
			XXH64_update(st, "two-call v3", 11);	/* bump when add_get_poll_heads() changes */
			hash_files(st, &tc, 0);
			hash_files(st, &s->patches, 1);
			w->k[K_TWO_CALL].commit = make_commit(w, apply, "two-call", st, &tc, &s->patches,
							      "the two-call variant", &s->files,
							      &w->get_poll_heads);
			w->k[K_TWO_CALL].note = xasprintf(
				"%zu two-call infrastructure patch(es) %s, then patches "
				"2..%zu of the series, then a generated commit adding %d .get_poll_head = "
				"file_get_poll_head initializers beside the series' .poll_mask ones",
				tc.n, from, s->patches.n, w->get_poll_heads);
			if (s->nconv && w->get_poll_heads < (int)s->nconv)
				die_code(EXIT_FINDINGS, "two-call: %zu .poll_mask conversions but only %d "
					 ".get_poll_head lines could be added", s->nconv, w->get_poll_heads);
		}
	}
	for (int i = 0; i < NR_KERNELS; i++)
		if (!kernel_debug(i) && (w->k[i].wanted || i == K_BASE))
			checkout(w, (enum kernel_id)i);
	/* the -kasan kernels build the plain ones' sources: their worktree, their commit */
	for (int i = K_BASE_KASAN; i < NR_KERNELS; i++) {
		enum kernel_id src = kernel_source((enum kernel_id)i);

		w->k[i].wanted &= w->k[src].wanted;
		if (w->k[src].commit)
			w->k[i].commit = xstrdup(w->k[src].commit);
	}
	XXH64_freeState(st);
	/*
	 * The worktrees are out and the commits made: the builds and boots
	 * that follow do not touch the shared import, and a series or verify
	 * of the tree need not wait for them.
	 */
	scratch_unlock(w->import_lock);
	w->import_lock = -1;
	sv_clear(&tc);
	free(apply);
	free(logs);
	free(tcdir);
	free(from);
}

static bool same_file_text(const char *path, const char *text)
{
	char *old;
	bool same;

	if (read_file(path, &old, NULL) < 0)
		return false;
	same = !strcmp(old, text);
	free(old);
	return same;
}

static time_t mtime_of(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : st.st_mtime;
}

/*
 * The configuration of kernel ID in its object directory: the boot
 * configuration, and for a -kasan kernel the debug fragment after it, made
 * whole by olddefconfig (only when its input changed, so that a second run
 * rebuilds nothing).  False, with the kernel's note, when the fragment's
 * options did not stay on.
 */
static bool write_config(struct boot_work *w, enum kernel_id id, const char *log)
{
	struct kernel_build *k = &w->k[id];
	char *cfg = path_join(k->obj, ".config"), *in = path_join(k->obj, ".config.polltax-input"), *text;
	char *o = xasprintf("O=%s", k->obj);
	const char *argv[] = { "make", "-C", k->src, o, "olddefconfig", NULL };
	bool ok = true;

	if (!kernel_debug(id)) {
		if (!same_file_text(cfg, w->config + 1) && write_file_atomic(cfg, w->config + 1, strlen(w->config + 1)) < 0)
			die("cannot write '%s'", cfg);
		goto out;
	}
	text = xasprintf("%s%s", w->config + 1, kasan_fragment);
	if (!same_file_text(in, text) || !is_file(cfg)) {
		if (write_file_atomic(cfg, text, strlen(text)) < 0)
			die("cannot write '%s'", cfg);
		if (run_logged(argv, NULL, log, 0, NULL)) {
			char *tail = log_tail(log, 25);

			die_code(EXIT_FINDINGS, "configuring the %s kernel failed (log '%s'):\n%s", kernel_names[id], log,
				 tail);
		}
		if (write_file_atomic(in, text, strlen(text)) < 0)
			die("cannot write '%s'", in);
	}
	free(text);
	if (read_file(cfg, &text, NULL) < 0)
		die("cannot read '%s'", cfg);
	for (size_t i = 0; i < sizeof(kasan_required) / sizeof(kasan_required[0]) && ok; i++) {
		char *line = xasprintf("\nCONFIG_%s=y\n", kasan_required[i]);

		if (!strstr(text, line)) {
			ok = false;
			k->note = xasprintf("left out: CONFIG_%s stays off in this tree's configuration", kasan_required[i]);
			unlink(in);
		}
		free(line);
	}
	free(text);
out:
	free(cfg);
	free(in);
	free(o);
	return ok;
}

void work_build(struct boot_work *w, enum kernel_id id)
{
	struct kernel_build *k = &w->k[id];
	char *log = xasprintf("%s/logs/build-%s.log", w->root, kernel_names[id]);
	char *o = xasprintf("O=%s", k->obj), *j = xasprintf("-j%d", w->jobs), *built, *vmdir, *image;
	const char *argv[] = { "nice", "make", "-C", k->src, o, j, "vmlinux", "LOCALVERSION=",
			       "KBUILD_BUILD_USER=polltax", "KBUILD_BUILD_HOST=boot-test",
			       "KBUILD_BUILD_TIMESTAMP=Thu Jan  1 00:00:00 UTC 2026", NULL };
	time_t before;
	double t0 = now_seconds();
	size_t len;

	mkdir_p(k->obj);
	unlink(log);
	if (!write_config(w, id, log)) {
		warning("the %s kernel is left out: %s", kernel_names[id], k->note);
		k->wanted = false;
		free(log);
		free(o);
		free(j);
		return;
	}
	built = path_join(k->obj, "vmlinux");
	before = mtime_of(built);
	if (!w->quiet)
		fprintf(stderr, "boot-test: building the %s kernel in '%s' (log '%s')\n", kernel_names[id], k->obj, log);
	if (run_logged(argv, NULL, log, 0, NULL)) {
		char *tail = log_tail(log, 25);

		die_code(EXIT_FINDINGS, "building the %s kernel failed (log '%s'):\n%s", kernel_names[id], log, tail);
	}
	k->seconds = now_seconds() - t0;
	k->rebuilt = mtime_of(built) != before;
	vmdir = xasprintf("%s/kernels/%s", w->root, kernel_names[id]);
	mkdir_p(vmdir);
	if (read_file(built, &image, &len) < 0)
		die("cannot read '%s': %s", built, strerror(errno));
	if (write_file_atomic(k->vmlinux, image, len) < 0)
		die("cannot write '%s'", k->vmlinux);
	free(image);
	free(vmdir);
	free(built);
	free(log);
	free(o);
	free(j);
}

void work_free(struct boot_work *w)
{
	for (int i = 0; i < NR_KERNELS; i++) {
		free(w->k[i].src);
		free(w->k[i].obj);
		free(w->k[i].commit);
		free(w->k[i].vmlinux);
		free(w->k[i].note);
	}
	for (size_t i = 0; i < w->nsyms; i++) {
		free(w->syms[i].file);
		free(w->syms[i].symbol);
		free(w->syms[i].reason);
		free(w->syms[i].refused);
		sv_clear(&w->syms[i].needs);
	}
	free(w->syms);
	for (size_t i = 0; i < w->nbackends; i++) {
		free(w->backends[i].file);
		free(w->backends[i].symbol);
		free(w->backends[i].reason);
		free(w->backends[i].refused);
		sv_clear(&w->backends[i].needs);
	}
	free(w->backends);
	sv_clear(&w->base_syms);
	sv_clear(&w->base_missing);
	free(w->config);
	free(w->root);
	free(w->repo);
	free(w->tree);
	free(w->version);
	free(w->series_ver);
	free(w->pristine);
}
