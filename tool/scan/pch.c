// SPDX-License-Identifier: GPL-2.0
/*
 * pch.c - precompiled kernel headers shared by the files of one scan
 * (pch.h says why and when a file may use one).
 *
 * Plan: each file to parse is read for its unconditional #include <...>
 * lines (and those of its own "..." headers); files are grouped by the -D
 * flags of their Makefiles (most have none: one group holds nearly all).
 * A group's PCH holds the forced headers of the kernel's flags
 * (kconfig.h, compiler_types.h, ...) and every header that at least
 * PCH_SHARE percent of its files include, in the order the files include
 * them.  The PCHs are built in parallel worker processes, like the parses.
 * (Groups by directory, one PCH each, were tried: 11 PCHs on 6.12 cost
 * more to build than their closer fit saved; one big PCH is ~20% faster.)
 */
#define _GNU_SOURCE
#include "pch_int.h"
#include "extract.h"

#include <clang-c/Index.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static struct pch *cleanup_at_exit;

static void remove_at_exit(void)
{
	if (cleanup_at_exit && cleanup_at_exit->owner == getpid())
		rm_rf(cleanup_at_exit->dir);
}

/* Remove the PCH directories of scans that are no longer running. */
static void remove_stale(const char *top)
{
	DIR *d = opendir(top);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		char *endp;
		long pid = strtol(e->d_name, &endp, 10);

		if (*endp || pid <= 0 || (kill((pid_t)pid, 0) < 0 && errno == ESRCH)) {
			char *p;

			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			p = path_join(top, e->d_name);
			rm_rf(p);
			free(p);
		}
	}
	closedir(d);
}

static void inclusion_cb(CXFile f, CXSourceLocation *stack, unsigned len, CXClientData data)
{
	CXString n = clang_getFileName(f);

	(void)stack;
	(void)len;
	sb_addf(data, "%s\n", clang_getCString(n));
	clang_disposeString(n);
}

/* The worker that builds the PCH of group GI and lists what it read.  Never returns. */
static void build_one(const struct pch *p, size_t gi, const struct strvec *args)
{
	char *src = xasprintf("%s/g%zu.h", p->dir, gi), *out = xasprintf("%s/g%zu.pch", p->dir, gi);
	char *tmp = xasprintf("%s.tmp", out), *deps = xasprintf("%s/g%zu.deps", p->dir, gi);
	CXIndex idx = clang_createIndex(0, 0);
	CXTranslationUnit tu = NULL;
	struct strbuf sb = STRBUF_INIT;
	unsigned opts = CXTranslationUnit_Incomplete | CXTranslationUnit_ForSerialization;
	struct CXUnsavedFile uf;
	unsigned nuf = remap_unsaved(&uf);	/* the same text as every parse */

	if (clang_parseTranslationUnit2(idx, src, (const char *const *)args->v, (int)args->n, &uf, nuf, opts,
					&tu) != CXError_Success || !tu)
		_exit(2);
	for (unsigned i = 0; i < clang_getNumDiagnostics(tu); i++) {
		CXDiagnostic dg = clang_getDiagnostic(tu, i);

		if (clang_getDiagnosticSeverity(dg) >= CXDiagnostic_Error)
			_exit(3);	/* these headers do not go together: no PCH */
		clang_disposeDiagnostic(dg);
	}
	if (clang_saveTranslationUnit(tu, tmp, clang_defaultSaveOptions(tu)) != CXSaveError_None ||
	    rename(tmp, out) < 0)
		_exit(4);
	clang_getInclusions(tu, inclusion_cb, &sb);
	if (cache_write(deps, sb.buf ? sb.buf : "", sb.len) < 0)
		_exit(5);
	_exit(0);
}

/* Build the PCH of every group, JOBS at a time; a group whose build fails gets none. */
static void build_all(struct pch *p, const struct strvec *args, int jobs)
{
	pid_t *pids = xcalloc(p->ng, sizeof(pid_t));
	size_t next = 0, running = 0;

	while (next < p->ng || running) {
		if (next < p->ng && running < (size_t)jobs) {
			fflush(stdout);
			fflush(stderr);
			pids[next] = fork();
			if (pids[next] < 0)
				die("fork: %s", strerror(errno));
			if (pids[next] == 0) {
				struct strvec ga = STRVEC_INIT;

				for (size_t k = 0; k < args->n; k++)
					sv_push(&ga, args->v[k]);
				for (size_t k = 0; k < p->g[next].defs.n; k++)
					sv_push(&ga, p->g[next].defs.v[k]);
				build_one(p, next, &ga);
			}
			next++;
			running++;
			continue;
		}
		int status;
		pid_t pid = waitpid(-1, &status, 0);

		if (pid < 0) {
			if (errno == EINTR)
				continue;
			die("waitpid: %s", strerror(errno));
		}
		for (size_t gi = 0; gi < p->ng; gi++) {
			if (pids[gi] != pid)
				continue;
			running--;
			if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
				char *dp = xasprintf("%s/g%zu.deps", p->dir, gi), *buf;

				if (read_file(dp, &buf, NULL) == 0) {
					for (char *s = NULL, *l = strtok_r(buf, "\n", &s); l; l = strtok_r(NULL, "\n", &s))
						if (strncmp(l, p->dir, strlen(p->dir)))
							sv_push(&p->g[gi].deps, l);
					free(buf);
					p->g[gi].pch = xasprintf("%s/g%zu.pch", p->dir, gi);
				}
				free(dp);
			}
		}
	}
	free(pids);
}

/* Each file's own -D flags (its Makefile's), one "\n-D..." each; "" for a file not parsed. */
static char **file_defs(const struct flags *fl, const struct strvec *const *args, const bool *want, size_t n)
{
	char **defs = xcalloc(n, sizeof(*defs));

	for (size_t i = 0; i < n; i++) {
		struct strbuf sb = STRBUF_INIT;

		if (!want[i])
			continue;
		for (size_t k = fl->common.n; k < args[i]->n; k++)
			if (!strncmp(args[i]->v[k], "-D", 2))
				sb_addf(&sb, "\n%s", args[i]->v[k]);
		defs[i] = sb.buf ? sb_detach(&sb) : xstrdup("");
	}
	return defs;
}

/*
 * Group the files to parse by their own -D flags, with which their PCH is
 * built: FG[i] the group of file i, -1 for a file not parsed or whose
 * flags fewer than PCH_MIN_FILES files share.  Returns the groups' index
 * (the flags -> the group's number).
 */
static json_t *group_files(char *const *defs, const bool *want, size_t n, int *fg)
{
	json_t *count = json_object(), *index = json_object();

	for (size_t i = 0; i < n; i++)
		if (want[i])
			json_object_set_new(count, defs[i],
					    json_integer(json_integer_value(json_object_get(count, defs[i])) + 1));
	for (size_t i = 0; i < n; i++) {
		json_t *gi;

		fg[i] = -1;
		if (!want[i] || json_integer_value(json_object_get(count, defs[i])) < PCH_MIN_FILES)
			continue;
		gi = json_object_get(index, defs[i]);
		if (!gi) {
			gi = json_integer(json_object_size(index));
			json_object_set_new(index, defs[i], gi);
		}
		fg[i] = (int)json_integer_value(gi);
	}
	json_decref(count);
	return index;
}

/* Each group's -D flags, from the keys of INDEX (group_files()). */
static void set_group_defs(struct pch *p, json_t *index)
{
	const char *k;
	json_t *v;

	json_object_foreach(index, k, v) {
		struct group *g = &p->g[json_integer_value(v)];
		const char *nl = strchr(k, '\n');

		for (; nl; nl = strchr(nl + 1, '\n')) {
			const char *e = strchr(nl + 1, '\n');

			sv_push(&g->defs, "");
			free(g->defs.v[g->defs.n - 1]);
			g->defs.v[g->defs.n - 1] = xstrndup(nl + 1, e ? (size_t)(e - nl - 1) : strlen(nl + 1));
		}
	}
}

/* Read each file to parse (read_source()) and count the files of each group. */
static void read_sources(struct pch *p, const struct tree *t, char *const *files, const bool *want,
			 struct finfo *fi)
{
	for (size_t i = 0; i < p->n; i++) {
		if (!want[i])
			continue;
		char *abs = path_join(t->root, files[i]);

		{
			struct strvec seen = STRVEC_INIT;

			read_source(abs, &fi[i], 0, &seen);
			sv_clear(&seen);
		}
		free(abs);
		if (p->use[i] >= 0)
			p->g[p->use[i]].nfiles++;
	}
}

/* The source of each group's PCH, gGI.h in the PCH directory: the forced headers, then the shared ones. */
static void write_group_headers(struct pch *p, const struct finfo *fi, const struct flags *fl,
				const struct strvec *forced)
{
	for (size_t gi = 0; gi < p->ng && cleanup_at_exit == p; gi++) {
		struct strbuf sb = STRBUF_INIT;
		char *src = xasprintf("%s/g%zu.h", p->dir, gi);

		choose_headers(&p->g[gi], (int)gi, fi, p->use, p->n, &fl->common);
		sb_addf(&sb, "/* polltax: the headers %d%% of the files with these -D flags include */\n",
			PCH_SHARE);
		for (size_t k = 0; k < forced->n; k++)
			sb_addf(&sb, "#include \"%s\"\n", forced->v[k]);
		for (size_t k = 0; k < p->g[gi].hdrs.n; k++)
			sb_addf(&sb, "#include <%s>\n", p->g[gi].hdrs.v[k]);
		/* unwritten (cache_write() warned), the group's build fails: its files parse without a PCH */
		cache_write(src, sb.buf, sb.len);
		sb_release(&sb);
		free(src);
	}
}

/*
 * The macros a header may be asked about: those the files define early,
 * and those of their -D flags (only these words of the headers are kept:
 * the headers hold ~10 MB of them).
 */
static void collect_asked(struct pch *p, const struct finfo *fi, char *const *defs, const bool *want)
{
	for (size_t i = 0; i < p->n; i++) {
		if (!want[i])
			continue;
		for (size_t k = 0; k < fi[i].early.n; k++)
			sv_push(&p->asked, fi[i].early.v[k]);
		for (const char *d = strstr(defs[i], "\n-D"); d; d = strstr(d + 1, "\n-D"))
			sv_pushf(&p->asked, "%.*s", (int)strcspn(d + 3, "=\n"), d + 3);
	}
	sort_unique(p->asked.v, &p->asked.n);
}

/* A file of a group too small for a PCH may use another group's; else *WHY says why not. */
static void find_hosts(struct pch *p, char *const *defs, const bool *want)
{
	int *fg = p->use;

	p->why = xcalloc(p->n, sizeof(*p->why));
	for (size_t i = 0; i < p->n; i++) {
		if (!want[i] || fg[i] >= 0)
			continue;
		if (cleanup_at_exit == p)
			fg[i] = host_group(p, defs[i]);
		if (fg[i] < 0) {
			p->why[i] = xasprintf("-D flags of fewer than %d files:%s", PCH_MIN_FILES, defs[i]);
			for (char *c = p->why[i]; *c; c++)
				*c = *c == '\n' ? ' ' : *c;
		}
	}
}

/* May file I use its group's PCH?  Else p->why[I] says why not. */
static bool may_use(struct pch *p, size_t i, const struct tree *t, char *const *files,
		    const struct strvec *const *args, const struct finfo *fi)
{
	struct group *g = &p->g[p->use[i]];
	bool ok = true, safe_done = false;
	struct strvec safe = STRVEC_INIT;

	if (!g->pch) {
		p->why[i] = xstrdup("its group's PCH was not built");
		return false;
	}
	for (size_t k = 0; k < fi[i].early.n && ok; k++) {
		if (!mentioned(p, g, fi[i].early.v[k]))
			continue;
		if (!safe_done) {
			char *abs = path_join(t->root, files[i]);

			late_safe(abs, &fi[i].early, args[i], &safe);
			safe_done = true;
			free(abs);
		}
		if (!sv_contains(&safe, fi[i].early.v[k])) {
			p->why[i] = xasprintf("#defines %s before an #include", fi[i].early.v[k]);
			ok = false;
		}
	}
	sv_clear(&safe);
	/*
	 * an #include that cannot be found (another architecture's
	 * header) is an error with the PCH, and the parse would be
	 * done again without it: go without it at once
	 */
	for (size_t k = 0; k < fi[i].hdrs.n && ok; k++)
		if (!header_found(args[i], fi[i].hdrs.v[k])) {
			p->why[i] = xasprintf("<%s> not found", fi[i].hdrs.v[k]);
			ok = false;
		}
	return ok;
}

struct pch *pch_build(const struct tree *t, const struct flags *fl, char *const *files,
		      const struct strvec *const *args, const bool *want, size_t n, int jobs, bool quiet)
{
	struct pch *p;
	struct finfo *fi;
	char **defs;
	int *fg;
	bool *own;
	size_t nwant = 0, nuse = 0;
	json_t *index;
	struct strvec forced = STRVEC_INIT, hargs = STRVEC_INIT;
	char *top = path_join(cache_root(), "pch");
	double t0 = now_seconds();

	/* an interrupted scan leaves its PCHs: whatever runs next removes them */
	remove_stale(top);
	if (fl->kind == FLAGS_CCDB) {
		free(top);
		return NULL;
	}
	for (size_t i = 0; i < fl->common.n; i++) {
		if (!strcmp(fl->common.v[i], "-include") && i + 1 < fl->common.n)
			sv_push(&forced, fl->common.v[++i]);
		else
			sv_push(&hargs, fl->common.v[i]);
	}
	sv_push(&hargs, "-xc-header");
	/* a file with another architecture's flags (tree.h: --arch) has no PCH of these headers */
	own = xcalloc(n ? n : 1, sizeof(*own));
	for (size_t i = 0; i < n; i++) {
		own[i] = want[i] && fl->common.n && args[i]->n && !strcmp(args[i]->v[0], fl->common.v[0]);
		nwant += own[i];
	}
	want = own;
	if (nwant < PCH_MIN_FILES) {
		free(own);
		free(top);
		sv_clear(&forced);
		sv_clear(&hargs);
		return NULL;
	}

	fi = xcalloc(n, sizeof(*fi));
	fg = xcalloc(n, sizeof(*fg));
	defs = file_defs(fl, args, want, n);
	index = group_files(defs, want, n, fg);
	p = xcalloc(1, sizeof(*p));
	p->n = n;
	p->ng = json_object_size(index);
	p->g = xcalloc(p->ng ? p->ng : 1, sizeof(*p->g));
	p->use = fg;
	p->owner = getpid();
	set_group_defs(p, index);
	read_sources(p, t, files, want, fi);
	p->dir = xasprintf("%s/%d", top, (int)getpid());
	free(top);
	if (mkdir_p(p->dir) < 0) {
		warning("cannot create '%s' (%s): parsing without precompiled headers", p->dir, strerror(errno));
		for (size_t i = 0; i < n; i++)
			fg[i] = -1;
	} else {
		cleanup_at_exit = p;
		atexit(remove_at_exit);
	}
	write_group_headers(p, fi, fl, &forced);
	if (cleanup_at_exit == p) {
		if (!quiet && isatty(2))
			status_line("polltax: precompiling the headers %zu %s of files share...", p->ng,
				    p->ng == 1 ? "group" : "groups");
		build_all(p, &hargs, jobs > 0 ? jobs : 1);
	}
	collect_asked(p, fi, defs, want);
	find_hosts(p, defs, want);

	/* which files may use their group's PCH */
	for (size_t i = 0; i < n; i++) {
		bool ok;

		if (fg[i] < 0)
			continue;
		ok = may_use(p, i, t, files, args, fi);
		if (!ok)
			fg[i] = -1;
		nuse += ok;
	}
	if (!quiet) {
		size_t built = 0;

		for (size_t gi = 0; gi < p->ng; gi++)
			built += p->g[gi].pch != NULL;
		fprintf(stderr, "%spolltax: %zu precompiled header%s for %zu of %zu files to parse (%.1f s)\n",
			isatty(2) ? "\r\033[K" : "", built, built == 1 ? "" : "s",
			nuse, nwant, now_seconds() - t0);
	}
	for (size_t i = 0; i < n; i++) {
		sv_clear(&fi[i].hdrs);
		sv_clear(&fi[i].early);
		free(defs[i]);
	}
	free(defs);
	free(fi);
	json_decref(index);
	sv_clear(&forced);
	sv_clear(&hargs);
	free(own);
	return p;
}

bool pch_args(const struct pch *p, size_t i, const struct strvec *plain, struct strvec *out)
{
	bool put = false;

	if (!p || i >= p->n || p->use[i] < 0)
		return false;
	if (!sv_contains(plain, "-include")) {
		sv_push(out, "-include-pch");
		sv_push(out, p->g[p->use[i]].pch);
		put = true;
	}
	for (size_t k = 0; k < plain->n; k++) {
		if (!strcmp(plain->v[k], "-include") && k + 1 < plain->n) {
			k++;
			if (!put) {
				sv_push(out, "-include-pch");
				sv_push(out, p->g[p->use[i]].pch);
				put = true;
			}
			continue;
		}
		sv_push(out, plain->v[k]);
	}
	return true;
}

const char *pch_why(const struct pch *p, size_t i)
{
	return p && i < p->n && p->why ? p->why[i] : NULL;
}

const struct strvec *pch_headers(const struct pch *p, size_t i)
{
	return p && i < p->n && p->use[i] >= 0 ? &p->g[p->use[i]].deps : NULL;
}

const char *pch_dir(const struct pch *p)
{
	return p ? p->dir : NULL;
}

void pch_free(struct pch *p)
{
	if (!p)
		return;
	if (p->dir && p->owner == getpid())
		rm_rf(p->dir);
	if (cleanup_at_exit == p)
		cleanup_at_exit = NULL;
	for (size_t gi = 0; gi < p->ng; gi++) {
		free(p->g[gi].pch);
		words_free(&p->g[gi].words);
		sv_clear(&p->g[gi].hdrs);
		sv_clear(&p->g[gi].defs);
		sv_clear(&p->g[gi].deps);
	}
	free(p->g);
	for (size_t i = 0; p->why && i < p->n; i++)
		free(p->why[i]);
	free(p->why);
	free(p->use);
	sv_clear(&p->asked);
	free(p->dir);
	free(p);
}
