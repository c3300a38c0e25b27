// SPDX-License-Identifier: GPL-2.0
/*
 * verify.c - the engine of "polltax verify" (verify.h): git am, the
 * builds, sparse before and after, checkpatch --strict, patch by patch.
 */
#define _GNU_SOURCE
#include "convert/convert.h"
#include "lib/arch.h"
#include "lib/json_util.h"
#include "lib/kbuild.h"
#include "scan/unity.h"
#include "verify.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Files a patch touches (b/ side), from its diff headers. */
static void touched_files(const char *patch, struct strvec *out)
{
	char *text;

	if (read_file(patch, &text, NULL) < 0)
		return;
	for (const char *l = text; l && *l;) {
		const char *e = strchr(l, '\n');

		if (!strncmp(l, "+++ b/", 6)) {
			char *f = xstrndup(l + 6, e ? (size_t)(e - l - 6) : strlen(l + 6));

			if (!sv_contains(out, f))
				sv_push(out, f);
			free(f);
		}
		l = e ? e + 1 : NULL;
	}
	free(text);
}

/* The commit a patch file was made from ("From <commit> <date>", its first line), or NULL. */
static char *patch_commit(const char *patch)
{
	char *text, *c = NULL;

	if (read_file(patch, &text, NULL) < 0)
		return NULL;
	if (!strncmp(text, "From ", 5) && strspn(text + 5, "0123456789abcdef") == 40)
		c = xstrndup(text + 5, 40);
	free(text);
	return c;
}

/* Warning lines of a build log, without line and column numbers and build paths. */
static void warnings_of(const char *log, const char *work, const char *build, struct strvec *out)
{
	size_t wl = strlen(work), bl = build ? strlen(build) : 0;

	for (const char *l = log; l && *l;) {
		const char *e = strchr(l, '\n');
		char *line = xstrndup(l, e ? (size_t)(e - l) : strlen(l));

		if (strstr(line, ": warning: ") || strstr(line, ": error: ")) {
			struct strbuf sb = STRBUF_INIT;
			const char *p = line;

			if (!strncmp(p, work, wl) && p[wl] == '/')
				p += wl + 1;
			else if (bl && !strncmp(p, build, bl) && p[bl] == '/')
				p += bl + 1;
			/* file:line:col: -> file: */
			for (const char *q = p; *q; q++) {
				if (*q == ':' && q[1] >= '0' && q[1] <= '9') {
					const char *r = q + 1;

					while (*r >= '0' && *r <= '9')
						r++;
					if (*r == ':' && r[1] >= '0' && r[1] <= '9') {
						r++;
						while (*r >= '0' && *r <= '9')
							r++;
					}
					if (*r == ':') {
						sb_addc(&sb, ':');
						q = r;
						continue;
					}
				}
				sb_addc(&sb, *q);
			}
			sv_push(out, sb.buf ? sb.buf : "");
			sb_release(&sb);
		}
		free(line);
		l = e ? e + 1 : NULL;
	}
	sv_sort(out);
}

/*
 * The functions PATCH renames ("-... name(" then "+... name_mask(" among
 * the definitions of __poll_t functions): the warnings of W that quote an
 * old name are rewritten with the new one, so that sparse's "context
 * imbalance in 'foo_poll'" before is the same warning as after.
 */
static void renamed(const char *patch, struct strvec *w)
{
	char *text;
	struct strvec from = STRVEC_INIT, to = STRVEC_INIT;

	if (read_file(patch, &text, NULL) < 0)
		return;
	for (const char *l = text; l && *l;) {
		const char *e = strchr(l, '\n'), *p = strstr(l, "__poll_t ");

		if ((l[0] == '-' || l[0] == '+') && p && (!e || p < e)) {
			const char *n = p + 9, *q = n;

			while ((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') || (*q >= '0' && *q <= '9') || *q == '_')
				q++;
			if (*q == '(' && q > n) {
				char *name = xstrndup(n, (size_t)(q - n));

				sv_push(l[0] == '-' ? &from : &to, name);
				free(name);
			}
		}
		l = e ? e + 1 : NULL;
	}
	free(text);
	for (size_t i = 0; i < from.n && i < to.n; i++) {
		char *a = xasprintf("'%s'", from.v[i]), *b = xasprintf("'%s'", to.v[i]);

		for (size_t k = 0; k < w->n; k++) {
			char *hit = strstr(w->v[k], a);

			if (hit) {
				char *nl = xasprintf("%.*s%s%s", (int)(hit - w->v[k]), w->v[k], b, hit + strlen(a));

				free(w->v[k]);
				w->v[k] = nl;
			}
		}
		free(a);
		free(b);
	}
	sv_sort(w);
	sv_clear(&from);
	sv_clear(&to);
}

/* Lines of AFTER not matched one for one by lines of BEFORE (both sorted). */
static size_t new_lines(const struct strvec *before, const struct strvec *after, struct strvec *out)
{
	size_t i = 0, j = 0;

	while (j < after->n) {
		int c = i < before->n ? strcmp(before->v[i], after->v[j]) : 1;

		if (c == 0) {
			i++;
			j++;
		} else if (c < 0) {
			i++;
		} else {
			sv_push(out, after->v[j]);
			j++;
		}
	}
	return out->n;
}

/*
 * The baseline warnings that concern this build: those in the patch's .c
 * files, and those in headers that this build reported too (the baseline
 * keeps every header warning, since any of them may be included).
 */
static size_t relevant_before(const struct strvec *before, const struct strvec *after)
{
	size_t n = 0;

	for (size_t i = 0; i < before->n; i++) {
		const char *wl = before->v[i], *colon = strchr(wl, ':');
		bool header = colon && colon - wl > 2 && !strncmp(colon - 2, ".h", 2);
		bool seen = !header;

		for (size_t j = 0; j < after->n && !seen; j++)
			seen = !strcmp(after->v[j], wl);
		n += seen;
	}
	return n;
}

struct builder {
	bool kbuild;
	const struct arch_info *arch;	/* x86, or the architecture of a file only it builds */
	const char *work;
	char *build;		/* O= (kbuild) */
	struct kbuild *kb;	/* the work tree's makefiles: the make targets */
	struct strvec flags;	/* compile_flags.txt (fixture) */
	int jobs;
	bool quiet;
};

static int build_units(struct builder *b, const struct strvec *cfiles, struct strbuf *log);

/*
 * Build OBJS (.c files) and check them with sparse: 0 when the build
 * succeeded; LOG gets the output.  A .c file the build compiles only by
 * #including it into another (a unity build) is built through that one.
 */
static int build_objs(struct builder *b, const struct strvec *cfiles, struct strbuf *log)
{
	struct strvec units = STRVEC_INIT;
	int rc;

	for (size_t i = 0; i < cfiles->n; i++) {
		char *u = unity_compiled_as(b->work, cfiles->v[i]);

		if (!sv_contains(&units, u))
			sv_push(&units, u);
		free(u);
	}
	rc = build_units(b, &units, log);
	sv_clear(&units);
	return rc;
}

static int build_units(struct builder *b, const struct strvec *cfiles, struct strbuf *log)
{
	int rc = 0;

	if (!cfiles->n)
		return 0;
	if (b->kbuild) {
		struct strvec argv = STRVEC_INIT;

		sv_push(&argv, "nice");
		sv_push(&argv, "make");
		sv_push(&argv, "-s");
		sv_push(&argv, "-k");	/* one object that fails does not hide the others' warnings */
		sv_pushf(&argv, "-j%d", b->jobs);
		sv_pushf(&argv, "O=%s", b->build);
		arch_make_args(b->arch, &argv);
		sv_push(&argv, "C=2");
		for (size_t i = 0; i < cfiles->n; i++) {
			char *o = kbuild_target(b->kb, cfiles->v[i]);

			sv_push(&argv, o);
			free(o);
		}
		{
			/* make writes warnings to stderr: capture both */
			struct strvec sh = STRVEC_INIT;
			struct strbuf cmd = STRBUF_INIT;

			for (size_t i = 0; i < argv.n; i++)
				sb_addf(&cmd, "%s'%s'", i ? " " : "", argv.v[i]);
			sb_adds(&cmd, " 2>&1");
			sv_push(&sh, "sh");
			sv_push(&sh, "-c");
			sv_push(&sh, cmd.buf);
			rc = run_cmd((const char *const *)sh.v, b->work, log, false);
			sv_clear(&sh);
			sb_release(&cmd);
		}
		sv_clear(&argv);
		return rc;
	}
	for (size_t i = 0; i < cfiles->n; i++) {
		struct strvec cc = STRVEC_INIT, sp = STRVEC_INIT;
		struct strbuf cmd = STRBUF_INIT;

		sv_push(&cc, "gcc");
		sv_push(&cc, "-std=gnu11");
		sv_push(&cc, "-Wall");
		sv_push(&cc, "-Wextra");
		sv_push(&cc, "-Wno-unused-parameter");
		sv_push(&cc, "-Werror");
		for (size_t k = 0; k < b->flags.n; k++)
			sv_push(&cc, b->flags.v[k]);
		sv_push(&cc, "-c");
		sv_push(&cc, cfiles->v[i]);
		sv_push(&cc, "-o");
		sv_push(&cc, "/dev/null");
		sv_push(&sp, "sparse");
		for (size_t k = 0; k < b->flags.n; k++)
			sv_push(&sp, b->flags.v[k]);
		sv_push(&sp, cfiles->v[i]);
		for (int pass = 0; pass < 2; pass++) {
			const struct strvec *a = pass ? &sp : &cc;

			sb_reset(&cmd);
			for (size_t k = 0; k < a->n; k++)
				sb_addf(&cmd, "%s'%s'", k ? " " : "", a->v[k]);
			sb_adds(&cmd, " 2>&1");
			{
				const char *sh[] = { "sh", "-c", cmd.buf, NULL };
				int r = run_cmd(sh, b->work, log, false);

				if (!pass && r != 0)
					rc = r;
			}
		}
		sb_release(&cmd);
		sv_clear(&cc);
		sv_clear(&sp);
	}
	return rc;
}

static bool is_file_in(const char *dir, const char *rel);
static void forget_cmd_files(struct builder *b, const struct strvec *cfiles);
static size_t split_builders(struct verify *v, const struct strvec *cfiles, struct builder **bs, struct strvec *groups);
static void patch_cfiles(struct verify *v, const char *abs, bool existing, struct strvec *cfiles);

/*
 * Sparse's baseline for patches 2..n in one build, after patch 1 (the
 * infrastructure): each later patch touches files no patch before it
 * touched (one per MAINTAINERS section), so their state before that patch
 * is this one, and one make -j over all of them compiles each file once
 * instead of before and after every patch.  A file that a later patch
 * touches again starts from the warnings after the patch before (the
 * caller adds them).  The warnings are one multiset for all files.
 */
static void baseline_group(struct builder *b, const struct strvec *cfiles, const struct scratch *s, struct strvec *w)
{
	struct strbuf log = STRBUF_INIT;

	if (build_objs(b, cfiles, &log) != 0 && b->kbuild && b->jobs > 1) {
		/* the objects that did not build, again one job at a time (see forget_cmd_files()) */
		struct strvec again = STRVEC_INIT;
		int jobs = b->jobs;

		for (size_t k = 0; k < cfiles->n; k++) {
			char *o = xasprintf("%s/%.*so", b->build, (int)(strlen(cfiles->v[k]) - 1), cfiles->v[k]);

			if (!is_file(o))
				sv_push(&again, cfiles->v[k]);
			free(o);
		}
		forget_cmd_files(b, &again);
		b->jobs = 1;
		build_objs(b, &again, &log);
		b->jobs = jobs;
		sv_clear(&again);
	}
	warnings_of(log.buf ? log.buf : "", s->work, b->build, w);
	sb_release(&log);
}

static void baseline(struct verify *v, struct strvec *w)
{
	const struct strvec *patches = v->patches;
	struct strvec cfiles = STRVEC_INIT, groups[ARCH_MAX + 1];
	struct builder *bs[ARCH_MAX + 1];
	size_t ng;

	for (size_t i = 1; i < patches->n; i++) {
		char *abs = realpath(patches->v[i], NULL);

		if (abs)
			patch_cfiles(v, abs, true, &cfiles);
		free(abs);
	}
	if (!v->o->quiet)
		fprintf(stderr, "polltax: sparse baseline of the %zu files the other patches touch\n", cfiles.n);
	ng = split_builders(v, &cfiles, bs, groups);
	for (size_t g = 0; g < ng; g++) {
		baseline_group(bs[g], &groups[g], &v->s, w);
		sv_clear(&groups[g]);
	}
	sv_clear(&cfiles);
}

static bool is_file_in(const char *dir, const char *rel)
{
	char *p = path_join(dir, rel);
	bool r = is_file(p);

	free(p);
	return r;
}

/* Remove the .cmd files of the objects of CFILES in the build directory (they are rebuilt). */
static void forget_cmd_files(struct builder *b, const struct strvec *cfiles)
{
	for (size_t i = 0; i < cfiles->n; i++) {
		const char *f = cfiles->v[i], *sl = strrchr(f, '/');
		char *cmd = sl ? xasprintf("%s/%.*s/.%.*so.cmd", b->build, (int)(sl - f), f, (int)(strlen(sl + 1) - 1), sl + 1)
			       : xasprintf("%s/.%.*so.cmd", b->build, (int)(strlen(f) - 1), f);

		unlink(cmd);
		free(cmd);
	}
}

static void prepare_kbuild(struct builder *b, const struct scratch *s, const char *config, bool quiet)
{
	char *marker, *dotconfig, *want = NULL, *have = NULL;
	bool cross = b->arch != arch_host();

	b->build = cross ? xasprintf("%s/build-%s-%s", s->dir, config, b->arch->name) : xasprintf("%s/build-%s", s->dir, config);
	marker = path_join(b->build, ".polltax-config");
	dotconfig = path_join(b->build, ".config");
	want = xasprintf("%s\n", config);
	if (read_file(marker, &have, NULL) < 0)
		have = NULL;
	if (!is_file(dotconfig) || !have || strcmp(have, want)) {
		struct strvec argv = STRVEC_INIT;

		if (cross) {
			char *what = xasprintf("the series (a file only ARCH=%s builds)", b->arch->name);

			arch_require_compiler(b->arch, what);
			free(what);
		}
		sv_push(&argv, "nice");
		sv_push(&argv, "make");
		sv_push(&argv, "-s");
		sv_pushf(&argv, "-j%d", b->jobs);
		sv_pushf(&argv, "O=%s", b->build);
		sv_push(&argv, config);
		arch_make_args(b->arch, &argv);
		if (!quiet)
			fprintf(stderr, "polltax: configuring %s%s%s in '%s'\n", config, cross ? " for " : "",
				cross ? b->arch->name : "", b->build);
		if (mkdir_p(b->build) < 0 || run_cmd((const char *const *)argv.v, s->work, NULL, quiet) != 0)
			die_code(EXIT_INPUT, "make %s failed in '%s'", config, b->build);
		write_file_atomic(marker, want, strlen(want));
		sv_clear(&argv);
	}
	free(marker);
	free(dotconfig);
	free(want);
	free(have);
}

/* checkpatch.pl --strict: "E errors, W warnings, C checks"; returns true when E == W == 0. */
static bool checkpatch(const char *work, const char *patch, bool no_tree, char **note)
{
	struct strbuf out = STRBUF_INIT;
	const char *argv_nt[] = { "perl", "scripts/checkpatch.pl", "--strict", "--no-tree", patch, NULL };
	const char *t;
	int e = -1, w = -1, c = -1;

	if (no_tree)
		run_cmd(argv_nt, work, &out, true);
	else {
		const char *a2[] = { "perl", "scripts/checkpatch.pl", "--strict", patch, NULL };

		run_cmd(a2, work, &out, true);
	}
	t = out.buf ? strstr(out.buf, "total: ") : NULL;
	if (t)
		sscanf(t, "total: %d errors, %d warnings, %d checks", &e, &w, &c);
	*note = e < 0 ? xstrdup("no result") : xasprintf("%d/%d/%d", e, w, c);
	if ((e > 0 || w > 0) && out.buf) {
		/* the first finding, for the log */
		const char *f = strstr(out.buf, "ERROR: ");

		if (!f)
			f = strstr(out.buf, "WARNING: ");
		if (f)
			fprintf(stderr, "polltax: %s: %.*s\n", strrchr(patch, '/') + 1, (int)strcspn(f, "\n"), f);
	}
	sb_release(&out);
	return e == 0 && w == 0;
}
struct verify_state {
	struct builder b;
	struct builder alt[ARCH_MAX];	/* one per other architecture the series names, made when first needed */
	size_t nalt;
	json_t *file_arch;		/* file -> the architecture series.json says builds it */
	json_t *affected;		/* commit -> the .c files its conversions change without touching them */
	bool no_tree;		/* no Kbuild: checkpatch --no-tree */
	bool baseline_ready;	/* base_w holds sparse's baseline of the later patches */
	struct strvec base_w;
};

/* The builder of CFILE: x86's, or that of the architecture series.json says builds it (made once). */
static struct builder *builder_for(struct verify *v, const char *cfile)
{
	struct verify_state *st = v->st;
	const struct arch_info *a = arch_find(jstr(st->file_arch, cfile));
	struct builder *b;

	if (!a || a == arch_host() || !st->b.kbuild)
		return &st->b;
	for (size_t i = 0; i < st->nalt; i++)
		if (st->alt[i].arch == a)
			return &st->alt[i];
	b = &st->alt[st->nalt++];
	b->kbuild = true;
	b->arch = a;
	b->work = st->b.work;
	b->jobs = st->b.jobs;
	b->quiet = st->b.quiet;
	b->kb = kbuild_new(b->work, NULL);
	kbuild_set_arch(b->kb, a->name);
	prepare_kbuild(b, &v->s, v->o->config, v->o->quiet);
	return b;
}

/* CFILES by builder: GROUPS[g] (filled, to clear) the files BS[g] builds; returns how many groups. */
static size_t split_builders(struct verify *v, const struct strvec *cfiles, struct builder **bs, struct strvec *groups)
{
	size_t ng = 0;

	for (size_t i = 0; i < cfiles->n; i++) {
		struct builder *b = builder_for(v, cfiles->v[i]);
		size_t g;

		for (g = 0; g < ng && bs[g] != b; g++)
			;
		if (g == ng) {
			bs[ng] = b;
			groups[ng++] = (struct strvec)STRVEC_INIT;
		}
		sv_push(&groups[g], cfiles->v[i]);
	}
	return ng;
}

/*
 * What the series' series.json (DIR's, or its parent's for a posting)
 * says beyond the patches: the architecture that builds each file only
 * another one builds ("arch_built", "built_alone": series_build.c), and
 * the .c files each patch's conversions change without touching them.
 * A directory of patches without it: x86 and the touched files.
 */
static void load_series_facts(struct verify *v)
{
	json_t *sj = NULL, *x;
	size_t i;

	v->st->file_arch = json_object();
	for (int up = 0; up < 2 && !sj; up++) {
		char *p = xasprintf("%s%s/series.json", v->dir, up ? "/.." : "");

		if (is_file(p))
			sj = json_load_file(p, 0, NULL);
		free(p);
	}
	v->st->affected = json_object();
	json_array_foreach(json_object_get(sj, "postings"), i, x) {
		json_t *pa, *fn;
		size_t j, k;

		json_array_foreach(json_object_get(x, "patches"), j, pa) {
			json_t *list = json_array();

			json_array_foreach(json_object_get(pa, "functions"), k, fn) {
				struct strvec files = STRVEC_INIT;

				convert_plan_files(fn, &files);
				for (size_t f = 0; f < files.n; f++)
					if (has_suffix(files.v[f], ".c"))
						json_array_append_new(list, json_string(files.v[f]));
				sv_clear(&files);
			}
			if (json_array_size(list) && *jstr(pa, "commit"))
				json_object_set(v->st->affected, jstr(pa, "commit"), list);
			json_decref(list);
		}
	}
	json_array_foreach(json_object_get(sj, "converted"), i, x) {
		static const char *const lists[] = { "arch_built", "built_alone" };

		for (int l = 0; l < 2; l++) {
			json_t *a;
			size_t k;

			json_array_foreach(json_object_get(x, lists[l]), k, a)
				if (json_is_string(json_object_get(a, "arch")) && json_is_string(json_object_get(a, "file")))
					json_object_set(v->st->file_arch, jstr(a, "file"), json_object_get(a, "arch"));
		}
	}
	json_decref(sj);
}

/*
 * The .c files patch ABS builds into CFILES (each once): those it touches
 * (only those in the work tree now with EXISTING: not one it creates),
 * then those its conversions change without touching them (series.json):
 * the users of an ops macro of a header the patch changes.
 */
static void patch_cfiles(struct verify *v, const char *abs, bool existing, struct strvec *cfiles)
{
	struct strvec files = STRVEC_INIT;
	char *c = patch_commit(abs);
	json_t *x;
	size_t i;

	touched_files(abs, &files);
	json_array_foreach(c ? json_object_get(v->st->affected, c) : NULL, i, x)
		if (!sv_contains(&files, json_string_value(x)) && is_file_in(v->s.work, json_string_value(x)))
			sv_push(&files, json_string_value(x));
	for (size_t k = 0; k < files.n; k++)
		if (has_suffix(files.v[k], ".c") && !sv_contains(cfiles, files.v[k]) &&
		    (!existing || is_file_in(v->s.work, files.v[k])))
			sv_push(cfiles, files.v[k]);
	sv_clear(&files);
	free(c);
}

/* How to build: the tree's Kbuild, configured once, or gcc and sparse with compile_flags.txt. */
static void builder_setup(struct verify *v, const struct tree *t)
{
	struct builder *b = &v->st->b;
	char *mb = path_join(v->s.work, "scripts/Makefile.build");
	char *cf = path_join(v->s.work, "compile_flags.txt");

	b->work = v->s.work;
	b->arch = arch_host();
	b->jobs = v->o->jobs ? v->o->jobs : online_cpus();
	b->quiet = v->o->quiet;
	if (is_file(mb)) {
		b->kbuild = true;
		b->kb = kbuild_new(v->s.work, NULL);
		prepare_kbuild(b, &v->s, v->o->config, v->o->quiet);
	} else if (is_file(cf)) {
		char *text;

		if (read_file(cf, &text, NULL) < 0)
			die_code(EXIT_INPUT, "cannot read '%s'", cf);
		for (char *save = NULL, *w = strtok_r(text, " \t\n", &save); w; w = strtok_r(NULL, " \t\n", &save))
			sv_push(&b->flags, w);
		free(text);
	} else {
		die_code(EXIT_INPUT, "'%s' has neither a kernel build system (scripts/Makefile.build) nor a "
			 "compile_flags.txt: pass --no-build", t->root);
	}
	free(mb);
	free(cf);
}

void verify_open(struct verify *v, const struct verify_opts *o, const struct tree *t, const char *dir,
		 const struct strvec *patches)
{
	char *cp, *kb;

	memset(v, 0, sizeof(*v));
	v->o = o;
	v->dir = dir;
	v->patches = patches;
	v->rows = xcalloc(patches->n, sizeof(*v->rows));
	v->all_ok = true;
	v->st = xcalloc(1, sizeof(*v->st));
	scratch_open(&v->s, t, "verify", o->quiet);
	scratch_identity("polltax verify", "verify@localhost", v->s.date);
	unsetenv("GIT_AUTHOR_NAME");
	unsetenv("GIT_AUTHOR_EMAIL");
	unsetenv("GIT_AUTHOR_DATE");
	cp = path_join(v->s.work, "scripts/checkpatch.pl");
	if (!is_file(cp) && scratch_kernel_scripts(v->s.work, o->quiet) < 0)
		die_code(EXIT_TOOL, "'%s' has no scripts/checkpatch.pl and none could be found", t->root);
	free(cp);
	kb = path_join(v->s.work, "Kbuild");
	v->st->no_tree = !is_file(kb);
	free(kb);
	load_series_facts(v);
	if (!o->no_build)
		builder_setup(v, t);
}

/*
 * Is warning line WL one of the .c files CFILES' (or of a header)?  A make
 * of an object also builds what it needs first (arm64's vDSO in its
 * prepare step), and C=2 checks every file it compiles: those are no
 * file's of the patch.
 */
static bool relevant(const char *wl, const struct strvec *cfiles)
{
	const char *colon = strchr(wl, ':');
	size_t pl = colon ? (size_t)(colon - wl) : 0;
	bool keep = pl > 2 && !strncmp(wl + pl - 2, ".h", 2);

	for (size_t c = 0; c < cfiles->n && !keep; c++)
		keep = strlen(cfiles->v[c]) == pl && !strncmp(wl, cfiles->v[c], pl);
	return keep;
}

/* Keep the lines of W that are relevant() to CFILES. */
static void only_relevant(struct strvec *w, const struct strvec *cfiles)
{
	size_t n = 0;

	for (size_t k = 0; k < w->n; k++) {
		if (relevant(w->v[k], cfiles))
			w->v[n++] = w->v[k];
		else
			free(w->v[k]);
	}
	w->n = n;
}

/* Sparse's warnings before a patch, in its .c files CFILES (or in headers they include). */
static void warnings_before(struct verify *v, const struct strvec *cfiles, struct strvec *w0)
{
	struct verify_state *st = v->st;

	if (!st->baseline_ready) {
		struct strvec groups[ARCH_MAX + 1];
		struct builder *bs[ARCH_MAX + 1];
		size_t ng = split_builders(v, cfiles, bs, groups);

		for (size_t g = 0; g < ng; g++) {
			struct strbuf log0 = STRBUF_INIT;

			build_objs(bs[g], &groups[g], &log0);	/* the state before: sparse's baseline */
			warnings_of(log0.buf ? log0.buf : "", v->s.work, bs[g]->build, w0);
			sb_release(&log0);
			sv_clear(&groups[g]);
		}
		only_relevant(w0, cfiles);
		return;
	}
	/* the baseline's warnings in these files, or in headers they include */
	for (size_t k = 0; k < st->base_w.n; k++)
		if (relevant(st->base_w.v[k], cfiles))
			sv_push(w0, st->base_w.v[k]);
	sv_sort(w0);
}

/* Patch I did not apply: the rest cannot apply on top. */
static void am_failed(struct verify *v, size_t i)
{
	struct verify_row *r = &v->rows[i];

	r->am = "FAIL";
	r->ok = false;
	v->all_ok = false;
	r->checkpatch = "-";
	r->cp_note = xstrdup("");
	r->build_note = xstrdup("");
	r->sparse_note = xstrdup("");
	for (size_t k = i + 1; k < v->patches->n; k++) {
		v->rows[k].patch = xstrdup(v->patches->v[k] + strlen(v->dir) + 1);
		v->rows[k].am = "not tried";
		v->rows[k].build = v->rows[k].sparse = v->rows[k].checkpatch = "-";
		v->rows[k].build_note = xstrdup("");
		v->rows[k].sparse_note = xstrdup("");
		v->rows[k].cp_note = xstrdup("");
	}
	for (size_t k = i + 1; k < v->patches->n; k++)
		v->rows[k].ok = false;
}

/* Build CFILES with B, and again at -j1 without their .cmd files if that failed (*RETRIED: that passed). */
static int build_group(struct builder *b, const struct strvec *cfiles, struct strbuf *log1, bool *retried)
{
	int rc = build_objs(b, cfiles, log1);

	*retried = false;
	if (rc != 0 && b->kbuild && b->jobs > 1) {
		/*
		 * Once more, one job at a time, without the objects' .cmd files:
		 * Kbuild can reach a directory by two paths at once (drivers/
		 * lists "char/ipmi/" and "char/"), and two makes then write and
		 * read the same .cmd file.  A failure that goes away was that.
		 */
		int jobs = b->jobs;

		forget_cmd_files(b, cfiles);
		b->jobs = 1;
		sb_reset(log1);
		rc = build_objs(b, cfiles, log1);
		b->jobs = jobs;
		*retried = rc == 0;
	}
	return rc;
}

/* Build CFILES after the patch ABS (named BASE) and compare sparse's warnings W1 with W0, those before. */
static void build_after(struct verify *v, struct verify_row *r, const char *abs, const char *base,
			const struct strvec *cfiles, struct strvec *w0, struct strvec *w1)
{
	struct strvec nw = STRVEC_INIT, groups[ARCH_MAX + 1];
	struct strbuf failed = STRBUF_INIT, arches = STRBUF_INIT;
	struct builder *bs[ARCH_MAX + 1];
	size_t ng = split_builders(v, cfiles, bs, groups);
	bool retried = false;
	int rc = 0;

	for (size_t g = 0; g < ng; g++) {
		struct strbuf log1 = STRBUF_INIT;
		bool rt;
		int rg = build_group(bs[g], &groups[g], &log1, &rt);

		warnings_of(log1.buf ? log1.buf : "", v->s.work, bs[g]->build, w1);
		if (rg != 0) {
			rc = rg;
			sb_adds(&failed, log1.buf ? log1.buf : "");
		}
		retried |= rt;
		if (bs[g]->arch != arch_host())
			sb_addf(&arches, "%s%s", arches.len ? ", " : "", bs[g]->arch->name);
		sb_release(&log1);
		sv_clear(&groups[g]);
	}
	only_relevant(w1, cfiles);
	r->build = rc == 0 ? "ok" : "FAIL";
	r->build_note = xasprintf("%zu file%s%s%s%s%s", cfiles->n, cfiles->n == 1 ? "" : "s", arches.len ? " (ARCH=" : "",
				  arches.len ? arches.buf : "", arches.len ? ")" : "", retried ? " (at -j1)" : "");
	/* a warning that names a function the patch renamed is the same warning */
	renamed(abs, w0);
	new_lines(w0, w1, &nw);
	r->sparse = nw.n ? "FAIL" : "ok";
	r->sparse_note = xasprintf("%zu -> %zu, %zu new", relevant_before(w0, w1), w1->n, nw.n);
	if (rc != 0 || nw.n) {
		r->ok = false;
		v->all_ok = false;
		for (size_t k = 0; k < nw.n && k < 10; k++)
			fprintf(stderr, "polltax: %s: new: %s\n", base, nw.v[k]);
		if (rc != 0 && !nw.n && failed.buf)
			fprintf(stderr, "polltax: %s: build failed:\n%s\n", base, failed.buf);
	}
	sv_clear(&nw);
	sb_release(&failed);
	sb_release(&arches);
}

/* Check patch I; false when it did not apply (the rest is not tried). */
static bool verify_patch(struct verify *v, size_t i)
{
	const struct strvec *patches = v->patches;
	struct verify_state *st = v->st;
	struct verify_row *r = &v->rows[i];
	struct strvec cfiles = STRVEC_INIT, w0 = STRVEC_INIT, w1 = STRVEC_INIT;
	const char *base = strrchr(patches->v[i], '/') + 1;
	char *abs = realpath_or_die(patches->v[i]);
	bool build = !v->o->no_build, applied;

	r->patch = xstrdup(patches->v[i] + strlen(v->dir) + (patches->v[i][strlen(v->dir)] == '/'));
	r->ok = true;
	r->build = r->sparse = "-";
	if (!v->o->quiet)
		fprintf(stderr, "polltax: [%zu/%zu] %s\n", i + 1, patches->n, base);
	patch_cfiles(v, abs, false, &cfiles);
	if (build && cfiles.n)
		warnings_before(v, &cfiles, &w0);
	applied = scratch_git(&v->s, NULL, true, "am", "-q", "--keep-non-patch", abs, NULL) == 0;
	if (!applied) {
		scratch_git(&v->s, NULL, true, "am", "--abort", NULL);
		am_failed(v, i);
	} else {
		r->am = "ok";
		if (build && cfiles.n) {
			build_after(v, r, abs, base, &cfiles, &w0, &w1);
		} else {
			r->build_note = xstrdup(!build ? "not asked" : "no .c file");
			r->sparse_note = xstrdup("");
		}
		if (build) {
			/* what a later patch of the same file starts from */
			for (size_t k = 0; k < w1.n; k++)
				sv_push(&st->base_w, w1.v[k]);
			if (i == 0 && patches->n > 1)
				baseline(v, &st->base_w);
			st->baseline_ready = i == 0 || st->baseline_ready;
		}
		r->checkpatch = checkpatch(v->s.work, abs, st->no_tree, &r->cp_note) ? "ok" : "FAIL";
		if (strcmp(r->checkpatch, "ok")) {
			r->ok = false;
			v->all_ok = false;
		}
	}
	free(abs);
	sv_clear(&cfiles);
	sv_clear(&w0);
	sv_clear(&w1);
	return applied;
}

bool verify_run(struct verify *v)
{
	for (size_t i = 0; i < v->patches->n; i++)
		if (!verify_patch(v, i))
			break;
	return v->all_ok;
}

char *verify_table(const struct verify *v)
{
	struct strbuf table = STRBUF_INIT;

	sb_addf(&table, "| # | patch | git am | build | sparse (warnings before -> after) | checkpatch --strict (E/W/C) | result |\n");
	sb_addf(&table, "|---|---|---|---|---|---|---|\n");
	for (size_t i = 0; i < v->patches->n; i++) {
		const struct verify_row *r = &v->rows[i];

		sb_addf(&table, "| %zu | %s | %s | %s %s | %s %s | %s %s | %s |\n", i + 1, r->patch, r->am, r->build,
			r->build_note ? r->build_note : "", r->sparse, r->sparse_note ? r->sparse_note : "",
			r->checkpatch ? r->checkpatch : "-", r->cp_note ? r->cp_note : "", r->ok ? "PASS" : "FAIL");
	}
	sb_addf(&table, "\n%s: %zu patches, %s; built with %s", v->all_ok ? "PASS" : "FAIL", v->patches->n,
		v->all_ok ? "every check passed" : "some checks failed",
		v->o->no_build ? "nothing (--no-build)" : v->st->b.kbuild ? v->o->config :
		"gcc -Werror and sparse (compile_flags.txt)");
	for (size_t a = 0; a < v->st->nalt; a++)
		sb_addf(&table, "%s ARCH=%s", a ? "," : ", and for the files only they build,", v->st->alt[a].arch->name);
	sb_adds(&table, ".\n");
	return sb_detach(&table);
}

void verify_close(struct verify *v)
{
	for (size_t i = 0; i < v->patches->n; i++) {
		free(v->rows[i].patch);
		free(v->rows[i].build_note);
		free(v->rows[i].sparse_note);
		free(v->rows[i].cp_note);
	}
	free(v->rows);
	sv_clear(&v->st->base_w);
	sv_clear(&v->st->b.flags);
	free(v->st->b.build);
	for (size_t a = 0; a < v->st->nalt; a++) {
		free(v->st->alt[a].build);
		kbuild_close(v->st->alt[a].kb);
	}
	json_decref(v->st->file_arch);
	json_decref(v->st->affected);
	if (v->st->b.kb)
		kbuild_close(v->st->b.kb);
	free(v->st);
	scratch_free(&v->s);
}
