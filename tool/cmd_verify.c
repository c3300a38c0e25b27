// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_verify.c - "polltax verify DIR KERNEL_DIR": check a series the way
 * a maintainer would, in a scratch work tree (scratch.h), never the
 * user's tree.  Patch by patch, in order: git am; build the objects of
 * the .c files it touches (so that every step of the series builds:
 * bisectable); sparse on them before and after the patch, and no new
 * warning; scripts/checkpatch.pl --strict, 0 errors and 0 warnings.
 *
 * Two ways to build, chosen from the tree: a kernel tree (it has
 * scripts/Makefile.build) is built with its own Kbuild in one build
 * directory next to the work tree, configured once (--config, default
 * allmodconfig) and reused across runs, so only what changed is rebuilt
 * ("make O=<dir> C=2 path/file.o"); a tree without Kbuild but with a
 * compile_flags.txt (the test fixture) has each touched file compiled
 * with gcc -Werror and checked with sparse, with those flags.
 */
#define _GNU_SOURCE
#include "args.h"
#include "commands.h"
#include "scratch.h"
#include "unity.h"

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage[] =
"usage: polltax verify [options] DIR KERNEL_DIR\n"
"\n"
"Check the series in DIR (the output of 'polltax series', one posting or\n"
"several) against KERNEL_DIR, in a scratch work tree: git am every patch\n"
"in order; after each, build the objects of the .c files it touches, run\n"
"sparse on them and compare its warnings with those before the patch, and\n"
"run scripts/checkpatch.pl --strict (0 errors, 0 warnings).  Prints a\n"
"table, one row per patch.  KERNEL_DIR is never written to.\n"
"\n"
"A kernel tree is built with its Kbuild: make O=<build dir> C=2 file.o,\n"
"in a build directory configured once with --config and kept for the next\n"
"runs.  A tree without Kbuild but with compile_flags.txt (a test fixture)\n"
"has each file compiled with gcc -Werror and checked with sparse.\n"
"\n"
"options:\n"
"      --config TARGET  the configuration to build (default: allmodconfig)\n"
"  -j, --jobs N         parallel make jobs (default: number of CPUs)\n"
"      --no-build       only git am and checkpatch\n"
"  -o, --output DIR     also write the table (Markdown) to DIR/verify.md\n"
"      --table FILE     also write the table to FILE (the old '-o FILE', still\n"
"                       taken, with a warning)\n"
"  -q, --quiet          no progress output\n"
"  -h, --help           this text\n"
"\n"
"exit status: 0 every check passed, 1 a check failed, 2 usage, 3 bad input,\n"
"4 a required tool is missing, 128 other fatal errors.\n";

struct vopts {
	const char *config, *output;
	int jobs;
	bool no_build, quiet;
};

struct row {
	char *patch;
	const char *am, *build, *sparse, *checkpatch;
	char *build_note, *sparse_note, *cp_note;
	bool ok;
};

/* The patches of DIR in order: DIR/0*.patch, or those of DIR/posting-1/, posting-2/, ... */
static void find_patches(const char *dir, struct strvec *out)
{
	char *pat = xasprintf("%s/0*.patch", dir);
	glob_t g;

	if (glob(pat, 0, NULL, &g) == 0) {
		for (size_t i = 0; i < g.gl_pathc; i++)
			if (!strstr(g.gl_pathv[i], "/0000-cover-letter.patch"))
				sv_push(out, g.gl_pathv[i]);
		globfree(&g);
	}
	free(pat);
	for (int n = 1; !out->n || n > 1; n++) {
		char *pd = xasprintf("%s/posting-%d", dir, n);

		if (!is_dir(pd)) {
			free(pd);
			break;
		}
		pat = xasprintf("%s/0*.patch", pd);
		if (glob(pat, 0, NULL, &g) == 0) {
			for (size_t i = 0; i < g.gl_pathc; i++)
				if (!strstr(g.gl_pathv[i], "/0000-cover-letter.patch"))
					sv_push(out, g.gl_pathv[i]);
			globfree(&g);
		}
		free(pat);
		free(pd);
	}
}

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
	const char *work;
	char *build;		/* O= (kbuild) */
	struct strvec flags;	/* compile_flags.txt (fixture) */
	int jobs;
	bool quiet;
};

/*
 * The make target of REL (a .c file, relative to WORK).  A directory whose
 * Makefile has no obj- line is not a Kbuild directory of its own: its files
 * are built from a sibling's Makefile through "../DIR/" (amdgpu builds
 * ../amdkfd/), and only that path gets the sibling's flags.
 */
static char *kbuild_target(const char *work, const char *rel)
{
	char *d = xstrdup(rel), *slash = strrchr(d, '/'), *mk, *text = NULL, *res = NULL;
	const char *name, *base;
	char *parent, *ps;

	if (!slash)
		goto plain;
	*slash = '\0';
	base = slash + 1;
	mk = xasprintf("%s/%s/Makefile", work, d);
	if (read_file(mk, &text, NULL) != 0 || strstr(text, "obj-")) {
		free(mk);
		free(text);
		goto plain;
	}
	free(mk);
	free(text);
	parent = xstrdup(d);
	ps = strrchr(parent, '/');
	if (!ps) {
		free(parent);
		goto plain;
	}
	*ps = '\0';
	name = ps + 1;
	{
		char *pdir = xasprintf("%s/%s", work, parent), *needle = xasprintf("../%s", name);
		DIR *dir = opendir(pdir);
		struct dirent *de;
		struct strvec subs = STRVEC_INIT;

		while (dir && (de = readdir(dir)))
			if (de->d_name[0] != '.' && strcmp(de->d_name, name))
				sv_push(&subs, de->d_name);
		if (dir)
			closedir(dir);
		sv_sort(&subs);
		for (size_t i = 0; i < subs.n && !res; i++) {
			char *smk = xasprintf("%s/%s/Makefile", pdir, subs.v[i]), *st = NULL;

			if (read_file(smk, &st, NULL) == 0 && strstr(st, needle))
				res = xasprintf("%s/%s/../%s/%.*so", parent, subs.v[i], name,
						(int)strlen(base) - 1, base);
			free(st);
			free(smk);
		}
		sv_clear(&subs);
		free(needle);
		free(pdir);
	}
	free(parent);
	if (res) {
		free(d);
		return res;
	}
plain:
	free(d);
	res = xstrdup(rel);
	res[strlen(res) - 1] = 'o';
	return res;
}

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
		sv_push(&argv, "C=2");
		for (size_t i = 0; i < cfiles->n; i++) {
			char *o = kbuild_target(b->work, cfiles->v[i]);

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

/*
 * Sparse's baseline for patches 2..n in one build, after patch 1 (the
 * infrastructure): each later patch touches files no patch before it
 * touched (one per MAINTAINERS section), so their state before that patch
 * is this one, and one make -j over all of them compiles each file once
 * instead of before and after every patch.  A file that a later patch
 * touches again starts from the warnings after the patch before (the
 * caller adds them).  The warnings are one multiset for all files.
 */
static void baseline(struct builder *b, const struct strvec *patches, const struct scratch *s, struct strvec *w,
		     bool quiet)
{
	struct strvec files = STRVEC_INIT, cfiles = STRVEC_INIT;
	struct strbuf log = STRBUF_INIT;

	for (size_t i = 1; i < patches->n; i++) {
		char *abs = realpath(patches->v[i], NULL);

		if (abs)
			touched_files(abs, &files);
		free(abs);
	}
	for (size_t k = 0; k < files.n; k++) {
		size_t l = strlen(files.v[k]);

		if (l > 2 && !strcmp(files.v[k] + l - 2, ".c") && is_file_in(s->work, files.v[k]))
			sv_push(&cfiles, files.v[k]);
	}
	if (!quiet)
		fprintf(stderr, "polltax: sparse baseline of the %zu files the other patches touch\n", cfiles.n);
	if (build_objs(b, &cfiles, &log) != 0 && b->kbuild && b->jobs > 1) {
		/* the objects that did not build, again one job at a time (see forget_cmd_files()) */
		struct strvec again = STRVEC_INIT;
		int jobs = b->jobs;

		for (size_t k = 0; k < cfiles.n; k++) {
			char *o = xasprintf("%s/%.*so", b->build, (int)(strlen(cfiles.v[k]) - 1), cfiles.v[k]);

			if (!is_file(o))
				sv_push(&again, cfiles.v[k]);
			free(o);
		}
		forget_cmd_files(b, &again);
		b->jobs = 1;
		build_objs(b, &again, &log);
		b->jobs = jobs;
		sv_clear(&again);
	}
	warnings_of(log.buf ? log.buf : "", s->work, b->build, w);
	sv_clear(&files);
	sv_clear(&cfiles);
	sb_release(&log);
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

	b->build = xasprintf("%s/build-%s", s->dir, config);
	marker = path_join(b->build, ".polltax-config");
	dotconfig = path_join(b->build, ".config");
	want = xasprintf("%s\n", config);
	if (read_file(marker, &have, NULL) < 0)
		have = NULL;
	if (!is_file(dotconfig) || !have || strcmp(have, want)) {
		char *jobs = xasprintf("-j%d", b->jobs), *o = xasprintf("O=%s", b->build);
		const char *argv[] = { "nice", "make", "-s", jobs, o, config, NULL };

		if (!quiet)
			fprintf(stderr, "polltax: configuring %s in '%s'\n", config, b->build);
		if (mkdir_p(b->build) < 0 || run_cmd(argv, s->work, NULL, quiet) != 0)
			die_code(EXIT_INPUT, "make %s failed in '%s'", config, b->build);
		write_file_atomic(marker, want, strlen(want));
		free(jobs);
		free(o);
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

int cmd_verify(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "no-build", no_argument, NULL, 'B' },
		{ "output", required_argument, NULL, 'o' },
		{ "table", required_argument, NULL, 'T' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct vopts o = { "allmodconfig", NULL, 0, false, false };
	struct strvec patches = STRVEC_INIT;
	struct builder b = { 0 };
	struct scratch s;
	struct tree t;
	struct row *rows;
	struct strbuf table = STRBUF_INIT;
	bool all_ok = true, no_tree, baseline_ready = false;
	struct strvec base_w = STRVEC_INIT;
	double t0 = now_seconds();
	char *dir;
	const char *typed_out;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "j:o:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'c': o.config = optarg; break;
		case 'j':
			o.jobs = atoi(optarg);
			if (o.jobs < 1 || o.jobs > 1024)
				die_code(EXIT_USAGE, "-j takes a number from 1 to 1024, not '%s'", optarg);
			break;
		case 'B': o.no_build = true; break;
		case 'o': o.output = args_out_file("verify", optarg, "verify.md", "--table"); break;
		case 'T': o.output = optarg; break;
		case 'q': o.quiet = true; break;
		case 'h': fputs(usage, stdout); return 0;
		default: return args_bad_option(usage);
		}
	}
	if (args_check(usage, argc, argv, optind, "DIR KERNEL_DIR"))
		return EXIT_USAGE;
	/* git am and make run in the scratch tree: no path may depend on the cwd */
	dir = abs_path(argv[optind]);
	typed_out = o.output;
	o.output = abs_path(o.output);
	if (!is_dir(dir))
		die_code(EXIT_INPUT, "'%s' is not a directory of patches", argv[optind]);
	find_patches(dir, &patches);
	if (!patches.n)
		die_code(EXIT_INPUT, "no patches in '%s' (0*.patch, or posting-N/0*.patch)", argv[optind]);
	for (const char *const *p = (const char *const[]){ "git", "perl", "make", "gcc", "sparse", NULL }; *p; p++)
		if (!have_program(*p))
			die_code(EXIT_TOOL, "%s not found (apt-get install %s)", *p, *p);
	tree_open(&t, argv[optind + 1]);
	refuse_inside_tree(o.output, typed_out, "-o", false, t.root);
	scratch_open(&s, &t, "verify", o.quiet);
	scratch_identity("polltax verify", "verify@localhost", s.date);
	unsetenv("GIT_AUTHOR_NAME");
	unsetenv("GIT_AUTHOR_EMAIL");
	unsetenv("GIT_AUTHOR_DATE");
	{
		char *cp = path_join(s.work, "scripts/checkpatch.pl");

		if (!is_file(cp) && scratch_kernel_scripts(s.work, o.quiet) < 0)
			die_code(EXIT_TOOL, "'%s' has no scripts/checkpatch.pl and none could be found", t.root);
		free(cp);
	}
	{
		char *kb = path_join(s.work, "Kbuild");

		no_tree = !is_file(kb);
		free(kb);
	}

	b.work = s.work;
	b.jobs = o.jobs ? o.jobs : online_cpus();
	b.quiet = o.quiet;
	if (!o.no_build) {
		char *mb = path_join(s.work, "scripts/Makefile.build");
		char *cf = path_join(s.work, "compile_flags.txt");

		if (is_file(mb)) {
			b.kbuild = true;
			prepare_kbuild(&b, &s, o.config, o.quiet);
		} else if (is_file(cf)) {
			char *text;

			if (read_file(cf, &text, NULL) < 0)
				die_code(EXIT_INPUT, "cannot read '%s'", cf);
			for (char *save = NULL, *w = strtok_r(text, " \t\n", &save); w; w = strtok_r(NULL, " \t\n", &save))
				sv_push(&b.flags, w);
			free(text);
		} else {
			die_code(EXIT_INPUT, "'%s' has neither a kernel build system (scripts/Makefile.build) nor a "
				 "compile_flags.txt: pass --no-build", t.root);
		}
		free(mb);
		free(cf);
	}

	rows = xcalloc(patches.n, sizeof(*rows));
	for (size_t i = 0; i < patches.n; i++) {
		struct row *r = &rows[i];
		struct strvec files = STRVEC_INIT, cfiles = STRVEC_INIT, w0 = STRVEC_INIT, w1 = STRVEC_INIT, nw = STRVEC_INIT;
		struct strbuf log0 = STRBUF_INIT, log1 = STRBUF_INIT;
		const char *base = strrchr(patches.v[i], '/') + 1;
		char *abs = realpath_or_die(patches.v[i]);

		r->patch = xstrdup(patches.v[i] + strlen(dir) + (patches.v[i][strlen(dir)] == '/'));
		r->ok = true;
		r->build = r->sparse = "-";
		if (!o.quiet)
			fprintf(stderr, "polltax: [%zu/%zu] %s\n", i + 1, patches.n, base);
		touched_files(abs, &files);
		for (size_t k = 0; k < files.n; k++) {
			size_t l = strlen(files.v[k]);

			if (l > 2 && !strcmp(files.v[k] + l - 2, ".c"))
				sv_push(&cfiles, files.v[k]);
		}
		if (!o.no_build && cfiles.n) {
			if (!baseline_ready) {
				build_objs(&b, &cfiles, &log0);	/* the state before: sparse's baseline */
				warnings_of(log0.buf ? log0.buf : "", s.work, b.build, &w0);
			} else {
				/* the baseline's warnings in these files, or in headers they include */
				for (size_t k = 0; k < base_w.n; k++) {
					const char *wl = base_w.v[k], *colon = strchr(wl, ':');
					size_t pl = colon ? (size_t)(colon - wl) : 0;
					bool keep = pl > 2 && !strncmp(wl + pl - 2, ".h", 2);

					for (size_t c = 0; c < cfiles.n && !keep; c++)
						keep = strlen(cfiles.v[c]) == pl && !strncmp(wl, cfiles.v[c], pl);
					if (keep)
						sv_push(&w0, wl);
				}
				sv_sort(&w0);
			}
		}
		if (scratch_git(&s, NULL, true, "am", "-q", "--keep-non-patch", abs, NULL) != 0) {
			scratch_git(&s, NULL, true, "am", "--abort", NULL);
			r->am = "FAIL";
			r->ok = false;
			all_ok = false;
			r->checkpatch = "-";
			r->cp_note = xstrdup("");
			r->build_note = xstrdup("");
			r->sparse_note = xstrdup("");
			free(abs);
			sv_clear(&files);
			sv_clear(&cfiles);
			sv_clear(&w0);
			sb_release(&log0);
			/* the rest cannot apply on top */
			for (size_t k = i + 1; k < patches.n; k++) {
				rows[k].patch = xstrdup(patches.v[k] + strlen(dir) + 1);
				rows[k].am = "not tried";
				rows[k].build = rows[k].sparse = rows[k].checkpatch = "-";
				rows[k].build_note = xstrdup("");
				rows[k].sparse_note = xstrdup("");
				rows[k].cp_note = xstrdup("");
			}
			for (size_t k = i + 1; k < patches.n; k++)
				rows[k].ok = false;
			i = patches.n;
			break;
		}
		r->am = "ok";
		if (!o.no_build && cfiles.n) {
			int rc = build_objs(&b, &cfiles, &log1);
			bool retried = false;

			if (rc != 0 && b.kbuild && b.jobs > 1) {
				/*
				 * Once more, one job at a time, without the objects' .cmd files:
				 * Kbuild can reach a directory by two paths at once (drivers/
				 * lists "char/ipmi/" and "char/"), and two makes then write and
				 * read the same .cmd file.  A failure that goes away was that.
				 */
				int jobs = b.jobs;

				forget_cmd_files(&b, &cfiles);
				b.jobs = 1;
				sb_reset(&log1);
				rc = build_objs(&b, &cfiles, &log1);
				b.jobs = jobs;
				retried = rc == 0;
			}
			warnings_of(log1.buf ? log1.buf : "", s.work, b.build, &w1);
			r->build = rc == 0 ? "ok" : "FAIL";
			r->build_note = xasprintf("%zu file%s%s", cfiles.n, cfiles.n == 1 ? "" : "s",
						  retried ? " (at -j1)" : "");
			/* a warning that names a function the patch renamed is the same warning */
			renamed(abs, &w0);
			new_lines(&w0, &w1, &nw);
			r->sparse = nw.n ? "FAIL" : "ok";
			r->sparse_note = xasprintf("%zu -> %zu, %zu new", relevant_before(&w0, &w1), w1.n, nw.n);
			if (rc != 0 || nw.n) {
				r->ok = false;
				all_ok = false;
				for (size_t k = 0; k < nw.n && k < 10; k++)
					fprintf(stderr, "polltax: %s: new: %s\n", base, nw.v[k]);
				if (rc != 0 && !nw.n && log1.buf)
					fprintf(stderr, "polltax: %s: build failed:\n%s\n", base, log1.buf);
			}
		} else {
			r->build_note = xstrdup(o.no_build ? "not asked" : "no .c file");
			r->sparse_note = xstrdup("");
		}
		if (!o.no_build) {
			/* what a later patch of the same file starts from */
			for (size_t k = 0; k < w1.n; k++)
				sv_push(&base_w, w1.v[k]);
			if (i == 0 && patches.n > 1)
				baseline(&b, &patches, &s, &base_w, o.quiet);
			baseline_ready = i == 0 || baseline_ready;
		}
		r->checkpatch = checkpatch(s.work, abs, no_tree, &r->cp_note) ? "ok" : "FAIL";
		if (strcmp(r->checkpatch, "ok")) {
			r->ok = false;
			all_ok = false;
		}
		free(abs);
		sv_clear(&files);
		sv_clear(&cfiles);
		sv_clear(&w0);
		sv_clear(&w1);
		sv_clear(&nw);
		sb_release(&log0);
		sb_release(&log1);
	}

	sb_addf(&table, "| # | patch | git am | build | sparse (warnings before -> after) | checkpatch --strict (E/W/C) | result |\n");
	sb_addf(&table, "|---|---|---|---|---|---|---|\n");
	for (size_t i = 0; i < patches.n; i++) {
		struct row *r = &rows[i];

		sb_addf(&table, "| %zu | %s | %s | %s %s | %s %s | %s %s | %s |\n", i + 1, r->patch, r->am, r->build,
			r->build_note ? r->build_note : "", r->sparse, r->sparse_note ? r->sparse_note : "",
			r->checkpatch ? r->checkpatch : "-", r->cp_note ? r->cp_note : "", r->ok ? "PASS" : "FAIL");
	}
	sb_addf(&table, "\n%s: %zu patches, %s; built with %s.\n", all_ok ? "PASS" : "FAIL", patches.n,
		all_ok ? "every check passed" : "some checks failed",
		o.no_build ? "nothing (--no-build)" : b.kbuild ? o.config : "gcc -Werror and sparse (compile_flags.txt)");
	fputs(table.buf, stdout);
	if (o.output)
		args_make_parent(o.output);
	if (o.output && write_file_atomic(o.output, table.buf, table.len) < 0)
		die("cannot write '%s'", o.output);
	if (!o.quiet)
		fprintf(stderr, "polltax: verify took %.0f s\n", now_seconds() - t0);
	for (size_t i = 0; i < patches.n; i++) {
		free(rows[i].patch);
		free(rows[i].build_note);
		free(rows[i].sparse_note);
		free(rows[i].cp_note);
	}
	free(rows);
	sb_release(&table);
	sv_clear(&patches);
	sv_clear(&base_w);
	sv_clear(&b.flags);
	free(b.build);
	free(dir);
	free((char *)o.output);
	scratch_free(&s);
	tree_free(&t);
	return all_ok ? 0 : EXIT_FINDINGS;
}
