// SPDX-License-Identifier: GPL-2.0
/*
 * boot_kernel.c - the three kernels of the boot test, built in scratch
 * worktrees of one bare repository under ~/.cache/polltax/boot/<tree>/:
 *
 *   git/            the kernel tree imported as commit "pristine" (git add
 *                   with --work-tree=KERNEL_DIR: the tree is only read)
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
 * The two-call kernel is the two-call infrastructure (kernel-patches/<ver>/
 * two-call/NNNN-*.patch, in order) followed by the series' conversions; its last
 * commit, generated here, gives every converted file_operations a
 * .get_poll_head = file_get_poll_head, so that vfs_poll() makes the two
 * indirect calls of 4.18 while everything else stays as in the patched kernel.
 */
#define _GNU_SOURCE
#include "boot.h"
#include "tree.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

const char *const kernel_names[NR_KERNELS] = { "base", "patched", "two-call" };

/*
 * The configuration of the brief: tinyconfig plus what the guest needs to
 * boot under qemu -kernel (PVH) and every poll user and file type polltest
 * exercises.  HYPERVISOR_GUEST, SHMEM and NET are there because PVH, TMPFS
 * and POSIX_MQUEUE depend on them; BINFMT_SCRIPT for /init, UNIX98_PTYS and
 * UNIX for the pty and socket kinds.
 */
static const char *const base_symbols[] = {
	"64BIT", "HYPERVISOR_GUEST", "PVH", "TTY", "SERIAL_8250", "SERIAL_8250_CONSOLE",
	"BLK_DEV_INITRD", "DEVTMPFS", "DEVTMPFS_MOUNT", "PROC_FS", "SYSFS", "SHMEM", "TMPFS",
	"MULTIUSER", "FUTEX", "POSIX_TIMERS", "PRINTK", "EPOLL", "EVENTFD", "SIGNALFD", "TIMERFD",
	"INOTIFY_USER", "FANOTIFY", "IO_URING", "AIO", "PERF_EVENTS", "NET", "UNIX", "POSIX_MQUEUE",
	"USERFAULTFD", "FUSE_FS", "BINFMT_ELF", "BINFMT_SCRIPT", "UNIX98_PTYS", "PRINTK_TIME",
	"CC_OPTIMIZE_FOR_PERFORMANCE",
};
/* without these there is no guest at all */
static const char *const critical_symbols[] = {
	"64BIT", "PVH", "SERIAL_8250_CONSOLE", "BLK_DEV_INITRD", "BINFMT_ELF", "BINFMT_SCRIPT",
	"PROC_FS", "DEVTMPFS", "TMPFS",
};

static int lock_fd = -1;

const char *kernel_patches_dir(void)
{
	static char *dir;
	char exe[PATH_MAX];
	ssize_t n;

	if (dir)
		return dir;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		for (int up = 0; up < 4 && !dir && strrchr(exe, '/'); up++) {
			char *c;

			*strrchr(exe, '/') = '\0';
			c = xasprintf("%s/kernel-patches", exe);
			if (is_dir(c))
				dir = c;
			else
				free(c);
		}
	}
	if (!dir)
		dir = xstrdup("/usr/share/polltax/kernel-patches");
	return dir;
}

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
	char *dotgit = path_join(path, ".git");

	if (!is_file(dotgit)) {
		if (is_dir(path))
			rm_rf(path);
		git(w->repo, false, NULL, "worktree", "prune", NULL);
		if (!w->quiet)
			fprintf(stderr, "boot-test: checking out '%s'\n", path);
		git(w->repo, false, NULL, "worktree", "add", "-q", "-f", "--detach", path, "pristine", NULL);
	}
	free(dotgit);
}

void work_open(struct boot_work *w, const char *kernel_dir, const char *workdir, int jobs, bool quiet)
{
	struct tree t;
	struct strbuf out = STRBUF_INIT;
	char *gd, *wt, *lock, *dot;

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
	tree_free(&t);
	if (workdir) {
		w->root = xstrdup(workdir);
	} else {
		char *h = hash_hex(w->tree, NULL);

		w->root = xasprintf("%s/boot/%s-%.8s", cache_root(), strrchr(w->tree, '/') + 1, h);
		free(h);
	}
	if (mkdir_p(w->root) < 0)
		die("cannot create '%s': %s", w->root, strerror(errno));
	lock = path_join(w->root, "lock");
	lock_fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (lock_fd < 0 || flock(lock_fd, LOCK_EX | LOCK_NB) < 0)
		die("'%s' is in use by another boot-test (or cannot be locked)", w->root);
	free(lock);

	w->repo = path_join(w->root, "git");
	if (!is_dir(w->repo)) {
		git(NULL, false, NULL, "init", "-q", "--bare", w->repo, NULL);
		git(w->repo, false, NULL, "config", "gc.auto", "0", NULL);
	}
	/* import: git add reads the tree (stat-cached after the first run), never writes it */
	gd = xasprintf("--git-dir=%s", w->repo);
	wt = xasprintf("--work-tree=%s", w->tree);
	if (!quiet)
		fprintf(stderr, "boot-test: importing '%s' (the first time takes minutes)\n", w->tree);
	git(NULL, false, NULL, gd, wt, "add", "-f", "-A", "--", ".",
	    ":(exclude).config", ":(exclude).config.old", ":(exclude)include/config",
	    ":(exclude)include/generated", ":(exclude)arch/*/include/generated",
	    ":(exclude,glob)**/*.o", ":(exclude,glob)**/.*.cmd", ":(exclude,glob)**/*.ko", NULL);
	if (git(NULL, true, NULL, gd, "rev-parse", "-q", "--verify", "pristine^{commit}", NULL) ||
	    git(NULL, true, NULL, gd, wt, "diff", "--cached", "--quiet", "pristine", NULL)) {
		char *msg = xasprintf("pristine %s (%s)", w->version, w->tree);

		git(NULL, false, NULL, gd, wt, "commit", "-q", "--allow-empty", "-m", msg, NULL);
		git(NULL, false, NULL, gd, "tag", "-f", "pristine", "HEAD", NULL);
		free(msg);
	}
	git(NULL, false, &out, gd, "rev-parse", "pristine^{commit}", NULL);
	w->pristine = sb_detach(&out);
	free(gd);
	free(wt);

	for (int i = 0; i < NR_KERNELS; i++) {
		w->k[i].src = xasprintf("%s/src/%s", w->root, kernel_names[i]);
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

	regcomp(&init, "^([[:space:]]*)\\.poll_mask([[:space:]]*)=[[:space:]]*[A-Za-z_][A-Za-z0-9_]*[[:space:]]*,",
		REG_EXTENDED);
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
				sb_add(&sb, line, (size_t)m[1].rm_eo);
				sb_addf(&sb, ".get_poll_head%.*s= file_get_poll_head,\n",
					(int)(m[2].rm_eo - m[2].rm_so), line + m[2].rm_so);
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

void work_apply(struct boot_work *w, const struct series *s, const char *kpatches)
{
	char *apply = xasprintf("%s/src/apply", w->root);
	char *logs = xasprintf("%s/logs", w->root);
	char *tcdir = xasprintf("%s/%s/two-call", kpatches, w->series_ver);
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
		list_patches(tcdir, &tc);
		if (!tc.n) {
			warning("no two-call infrastructure in '%s': the two-call kernel is left out", tcdir);
			w->k[K_TWO_CALL].wanted = false;
			w->k[K_TWO_CALL].note = xasprintf("left out: no patches in '%s'", tcdir);
		} else {
			XXH64_reset(st, 0);
			XXH64_update(st, w->pristine, strlen(w->pristine));
			XXH64_update(st, "two-call v1", 11);	/* bump when add_get_poll_heads() changes */
			hash_files(st, &tc, 0);
			hash_files(st, &s->patches, 1);
			w->k[K_TWO_CALL].commit = make_commit(w, apply, "two-call", st, &tc, &s->patches,
							      "the two-call variant", &s->files,
							      &w->get_poll_heads);
			w->k[K_TWO_CALL].note = xasprintf(
				"%zu two-call infrastructure patch(es) from kernel-patches/%s/two-call, then patches "
				"2..%zu of the series, then a generated commit adding %d .get_poll_head = "
				"file_get_poll_head initializers beside the series' .poll_mask ones",
				tc.n, w->series_ver, s->patches.n, w->get_poll_heads);
			if (s->nconv && w->get_poll_heads < (int)s->nconv)
				die_code(EXIT_FINDINGS, "two-call: %zu .poll_mask conversions but only %d "
					 ".get_poll_head lines could be added", s->nconv, w->get_poll_heads);
		}
	}
	for (int i = 0; i < NR_KERNELS; i++)
		if (w->k[i].wanted || i == K_BASE)
			checkout(w, (enum kernel_id)i);
	XXH64_freeState(st);
	sv_clear(&tc);
	free(apply);
	free(logs);
	free(tcdir);
}

/* ---- Kconfig ---- */

/* the Makefile text of DIR with continuation lines joined, or NULL */
static char *read_makefile(const char *tree, const char *dir)
{
	static const char *const names[] = { "Kbuild", "Makefile" };
	struct strbuf all = STRBUF_INIT;

	for (int i = 0; i < 2; i++) {
		char *p = xasprintf("%s/%s%s%s", tree, dir, *dir ? "/" : "", names[i]), *text;

		if (read_file(p, &text, NULL) == 0) {
			for (char *q = text; *q; q++) {
				if (q[0] == '\\' && q[1] == '\n') {
					q[0] = q[1] = ' ';
					continue;
				}
				if (*q == '\t')
					*q = ' ';
			}
			sb_adds(&all, text);
			sb_addc(&all, '\n');
			free(text);
		}
		free(p);
	}
	return all.len ? sb_detach(&all) : NULL;
}

/*
 * In the Makefile text MK, the line that lists WORD (foo.o or sub/) as
 * "<prefix>-<var> += ... WORD ...".  *prefix gets "obj", "lib" or a
 * composite object's name; *var "y" or a CONFIG_ symbol.  false if none.
 */
static bool find_line(const char *mk, const char *word, char **prefix, char **var)
{
	regex_t re;
	bool found = false;

	regcomp(&re, "^[[:space:]]*([A-Za-z0-9_.-]+)-(y|objs|\\$\\(CONFIG_([A-Za-z0-9_]+)\\))[[:space:]]*[:+]?=(.*)$",
		REG_EXTENDED);
	for (const char *p = mk; *p && !found;) {
		const char *e = strchr(p, '\n');
		char *line = xstrndup(p, e ? (size_t)(e - p) : strlen(p));
		regmatch_t m[5];

		if (!regexec(&re, line, 5, m, 0)) {
			char *list = xasprintf(" %s ", line + m[4].rm_so);
			char *w = xasprintf(" %s ", word);

			if (strstr(list, w)) {
				*prefix = xstrndup(line + m[1].rm_so, (size_t)(m[1].rm_eo - m[1].rm_so));
				*var = m[3].rm_so >= 0 ? xstrndup(line + m[3].rm_so, (size_t)(m[3].rm_eo - m[3].rm_so))
						       : xstrdup("y");
				found = true;
			}
			free(list);
			free(w);
		}
		free(line);
		p = e ? e + 1 : p + strlen(p);
	}
	regfree(&re);
	return found;
}

char *kconfig_symbol_for(const char *tree, const char *file, char **cond, char **why)
{
	char *dir = xstrdup(file), *slash = strrchr(dir, '/'), *word, *mk, *prefix = NULL, *var = NULL;
	char *result = NULL;

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
		mk = read_makefile(tree, dir);
		if (!mk || !find_line(mk, word, &prefix, &var)) {
			if (!*why)
				*why = xasprintf("no line of %s/Makefile builds %s", dir, word);
			free(mk);
			break;
		}
		if (strcmp(prefix, "obj") && strcmp(prefix, "lib")) {
			/* a part of composite object PREFIX.o: conditional inside it, then PREFIX.o itself */
			if (strcmp(var, "y") && strcmp(var, "objs") && !*cond)
				*cond = xstrdup(var);
			free(word);
			word = xasprintf("%s.o", prefix);
			free(prefix);
			free(var);
			free(mk);
			continue;
		}
		free(mk);
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
			char *top = read_makefile(tree, ""), *p2 = NULL, *v2 = NULL;

			/* top-level directories: the kernel's own Kbuild/Makefile lists them as obj-y */
			if (top && find_line(top, word, &p2, &v2) && strcmp(v2, "y")) {
				result = v2;
				v2 = NULL;
			} else {
				result = xstrdup("y");
			}
			free(top);
			free(p2);
			free(v2);
			break;
		}
	}
	free(word);
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

/* "depends on" lines of `config SYM`, for the reason a symbol stayed off */
static char *depends_of(const char *src, const char *sym)
{
	struct strbuf out = STRBUF_INIT, r = STRBUF_INIT;
	char *pat = xasprintf("^(menu)?config %s$", sym);

	git(src, true, &out, "grep", "-h", "-E", "-A", "30", pat, "--", "*Kconfig*", NULL);
	free(pat);
	for (char *p = out.buf; p && *p;) {
		char *e = strchr(p, '\n'), *t = p;

		if (e)
			*e = '\0';
		while (isspace((unsigned char)*t))
			t++;
		if (p != out.buf && (!strncmp(p, "config ", 7) || !strncmp(p, "menuconfig ", 11) ||
				     !strncmp(p, "endmenu", 7) || !strncmp(p, "--", 2)))
			break;
		if (!strncmp(t, "depends on ", 11))
			sb_addf(&r, "%s%s", r.len ? " && " : "depends on ", t + 11);
		p = e ? e + 1 : NULL;
	}
	sb_release(&out);
	return r.len ? sb_detach(&r) : xasprintf("not selectable here (no prompt or a choice)");
}

static bool config_has(const char *config, const char *sym)
{
	char *needle = xasprintf("\nCONFIG_%s=y\n", sym);
	bool on = strstr(config, needle) != NULL;

	free(needle);
	return on;
}

static void mk(struct boot_work *w, const char *src, const char *obj, const char *log, const char *target)
{
	char *o = xasprintf("O=%s", obj);
	const char *argv[] = { "nice", "make", "-C", src, o, target, NULL };

	if (run_logged(argv, NULL, log, 0, NULL)) {
		char *tail = log_tail(log, 20);

		die_code(EXIT_TOOL, "'make %s' failed in '%s' (log '%s'):\n%s", target, obj, log, tail);
	}
	free(o);
}

void work_config(struct boot_work *w, const struct series *s)
{
	const char *src = w->k[K_BASE].src;
	char *obj = xasprintf("%s/config", w->root), *cfg = path_join(obj, ".config");
	char *log = xasprintf("%s/logs/config.log", w->root), *text;
	struct strvec enable = STRVEC_INIT;
	struct strvec argv = STRVEC_INIT;

	mkdir_p(obj);
	unlink(log);
	mk(w, src, obj, log, "tinyconfig");
	for (size_t i = 0; i < sizeof(base_symbols) / sizeof(base_symbols[0]); i++)
		sv_push(&enable, base_symbols[i]);
	w->syms = xcalloc(s->files.n, sizeof(*w->syms));
	w->nsyms = s->files.n;
	for (size_t i = 0; i < s->files.n; i++) {
		struct symbol_result *r = &w->syms[i];
		char *cond = NULL, *why = NULL;

		r->file = xstrdup(s->files.v[i]);
		r->symbol = kconfig_symbol_for(src, s->files.v[i], &cond, &why);
		r->reason = why;
		if (r->symbol && strcmp(r->symbol, "y") && !sv_contains(&enable, r->symbol))
			sv_push(&enable, r->symbol);
		if (cond && !sv_contains(&enable, cond))
			sv_push(&enable, cond);
		if (cond && r->symbol) {
			char *both = xasprintf("%s && %s", r->symbol, cond);

			free(r->symbol);
			r->symbol = both;
		}
		free(cond);
	}
	sv_push(&argv, path_join(src, "scripts/config"));
	sv_push(&argv, "--file");
	sv_push(&argv, cfg);
	sv_push(&argv, "--disable");
	sv_push(&argv, "CC_OPTIMIZE_FOR_SIZE");
	for (size_t i = 0; i < enable.n; i++) {
		sv_push(&argv, "--enable");
		sv_push(&argv, enable.v[i]);
	}
	if (run_logged((const char *const *)argv.v, NULL, log, 0, NULL))
		die_code(EXIT_TOOL, "scripts/config failed (log '%s')", log);
	mk(w, src, obj, log, "olddefconfig");
	if (read_file(cfg, &text, NULL) < 0)
		die("cannot read '%s': %s", cfg, strerror(errno));
	w->config = xasprintf("\n%s", text);	/* so that every line starts after a '\n' */
	free(text);

	for (size_t i = 0; i < sizeof(base_symbols) / sizeof(base_symbols[0]); i++) {
		if (config_has(w->config, base_symbols[i]))
			sv_push(&w->base_syms, base_symbols[i]);
		else
			sv_push(&w->base_missing, base_symbols[i]);
	}
	for (size_t i = 0; i < sizeof(critical_symbols) / sizeof(critical_symbols[0]); i++)
		if (!config_has(w->config, critical_symbols[i]))
			die_code(EXIT_INPUT, "CONFIG_%s cannot be enabled in '%s' (%s): no guest can boot",
				 critical_symbols[i], w->tree, depends_of(src, critical_symbols[i]));
	for (size_t i = 0; i < w->nsyms; i++) {
		struct symbol_result *r = &w->syms[i];
		char *sym, *and;

		if (!r->symbol)
			continue;
		r->on = true;
		sym = xstrdup(r->symbol);
		for (char *p = sym; p; p = and ? and + 4 : NULL) {
			and = strstr(p, " && ");
			if (and)
				*and = '\0';
			if (strcmp(p, "y") && !config_has(w->config, p)) {
				r->on = false;
				free(r->reason);
				r->reason = xasprintf("CONFIG_%s stays off: %s", p, depends_of(src, p));
				break;
			}
		}
		free(sym);
	}
	sv_clear(&enable);
	sv_clear(&argv);
	free(obj);
	free(cfg);
	free(log);
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

void work_build(struct boot_work *w, enum kernel_id id)
{
	struct kernel_build *k = &w->k[id];
	char *cfg = path_join(k->obj, ".config"), *log = xasprintf("%s/logs/build-%s.log", w->root, kernel_names[id]);
	char *o = xasprintf("O=%s", k->obj), *j = xasprintf("-j%d", w->jobs), *built, *vmdir, *image;
	const char *argv[] = { "nice", "make", "-C", k->src, o, j, "vmlinux", "LOCALVERSION=",
			       "KBUILD_BUILD_USER=polltax", "KBUILD_BUILD_HOST=boot-test",
			       "KBUILD_BUILD_TIMESTAMP=Thu Jan  1 00:00:00 UTC 2026", NULL };
	time_t before;
	double t0 = now_seconds();
	size_t len;

	mkdir_p(k->obj);
	if (!same_file_text(cfg, w->config + 1) && write_file_atomic(cfg, w->config + 1, strlen(w->config + 1)) < 0)
		die("cannot write '%s'", cfg);
	built = path_join(k->obj, "vmlinux");
	before = mtime_of(built);
	unlink(log);
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
	free(cfg);
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
	}
	free(w->syms);
	sv_clear(&w->base_syms);
	sv_clear(&w->base_missing);
	free(w->config);
	free(w->root);
	free(w->repo);
	free(w->tree);
	free(w->version);
	free(w->series_ver);
	free(w->pristine);
	if (lock_fd >= 0)
		close(lock_fd);
	lock_fd = -1;
}
