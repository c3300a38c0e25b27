// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_series.c - "polltax series KERNEL_DIR -o DIR": the infrastructure
 * patch, then the conversions grouped per MAINTAINERS section, one commit
 * each, in a scratch git tree (scratch.h); then git format-patch into
 * postings of at most 15 patches, each with a cover letter, To:/Cc: from
 * get_maintainer.pl, a README.md and series.json.  The output directory
 * is replaced as a whole, atomically; the same input gives the same bytes
 * (commits carry the base's date).
 */
#define _GNU_SOURCE
#include "args.h"
#include "commands.h"
#include "cocci.h"
#include "convert.h"
#include "infra.h"
#include "kbuild.h"
#include "maintainers.h"
#include "pipeline.h"
#include "scratch.h"
#include "series.h"

#include <errno.h>
#include <getopt.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage[] =
"usage: polltax series [options] KERNEL_DIR -o DIR\n"
"\n"
"Convert the single-queue ->poll implementations of KERNEL_DIR and write a\n"
"kernel patch series to DIR: the infrastructure patch first, then one patch\n"
"per MAINTAINERS section, then the cover letter; git format-patch layout\n"
"with To:/Cc: from scripts/get_maintainer.pl.  More than --max-patches\n"
"patches are split into postings DIR/posting-1/, posting-2/, ...  DIR also\n"
"gets README.md (how the output maps to postings) and series.json.\n"
"KERNEL_DIR is never written to: the work happens in a git tree in\n"
"~/.cache/polltax/work/.\n"
"\n"
"options:\n"
"  -o, --output DIR       where to write (replaced as a whole; not inside\n"
"                         KERNEL_DIR)\n"
"      --scan SCAN_DIR    use this scan of KERNEL_DIR (default: scan now,\n"
"                         into DIR/scan/)\n"
"      --signoff ID       \"Name <mail>\" for Signed-off-by and the author\n"
"                         (default: git config user.name and user.email)\n"
"      --split-per-driver one patch per driver file instead of per section\n"
"      --infra PATCH      use PATCH as the infrastructure patch (default: the\n"
"                         one polltax makes for KERNEL_DIR, as 'polltax infra')\n"
"      --no-infra         no infrastructure patch: the tree already has\n"
"                         f_poll_head and ->poll_mask (checked)\n"
"      --max-patches N    patches per posting (default: 15)\n"
"      --only FUNC        convert only FUNC (repeatable)\n"
"      --tested FILE      put FILE, the \"Tested\" section 'polltax boot-test'\n"
"                         writes (boot-test.md), in the first cover letter\n"
"      --config TARGET    convert only what this configuration builds, so\n"
"                         that verify can build every patch (default:\n"
"                         allmodconfig; the scan's prepared build is used)\n"
"  -q, --quiet            no progress output\n"
"  -h, --help             this text\n"
"\n"
"Without --infra or --no-infra: a tree whose include/linux/fs.h already has\n"
"f_poll_head and poll_mask needs none; otherwise polltax makes the\n"
"infrastructure patch for the tree from its own sources, signed off as the\n"
"other patches.\n"
"\n"
"exit status: 0 done, 2 usage, 3 bad input (the tree's sources are not what\n"
"the infrastructure patch is made for: the message names the file and the\n"
"anchor; the infrastructure patch does not apply; no identity; a --scan of\n"
"another tree; nothing to send: the tree has f_poll_head and nothing could\n"
"be converted), 4 a required tool is missing, 128 other fatal errors.\n";

struct opts {
	const char *out, *scan, *signoff, *infra, *config;
	char *tested;		/* --tested: the text of boot-test.md */
	bool no_infra, split, quiet;
	bool infra_made;	/* the infrastructure patch is polltax's, made for the tree */
	int max;
	struct strvec only;
};

static void progress(const struct opts *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void progress(const struct opts *o, const char *fmt, ...)
{
	va_list ap;

	if (o->quiet)
		return;
	fprintf(stderr, "polltax: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static char *trimmed(struct strbuf *sb)
{
	char *r = sb_detach(sb);
	size_t n = strlen(r);

	while (n && (r[n - 1] == '\n' || r[n - 1] == ' '))
		r[--n] = '\0';
	return r;
}

/* "Name <mail>" from --signoff or git's configuration of the tree. */
static void identity(const struct opts *o, const struct tree *t, char **name, char **email)
{
	const char *id = o->signoff;
	char *fromgit = NULL;

	if (!id) {
		struct strbuf n = STRBUF_INIT, e = STRBUF_INIT;
		const char *an[] = { "git", "config", "user.name", NULL };
		const char *ae[] = { "git", "config", "user.email", NULL };

		if (run_cmd(an, t->root, &n, true) == 0 && run_cmd(ae, t->root, &e, true) == 0) {
			char *nn = trimmed(&n), *ee = trimmed(&e);

			if (*nn && *ee)
				fromgit = xasprintf("%s <%s>", nn, ee);
			free(nn);
			free(ee);
		}
		sb_release(&n);
		sb_release(&e);
		if (!fromgit)
			die_code(EXIT_INPUT, "no identity to sign the patches off with: pass --signoff \"Name <mail>\" "
				 "or set git config user.name and user.email");
		id = fromgit;
	}
	{
		const char *lt = strchr(id, '<'), *gt = lt ? strchr(lt, '>') : NULL;

		if (!lt || !gt || lt == id || gt[1] || gt == lt + 1)
			die_code(EXIT_USAGE, "--signoff takes \"Name <mail>\", not '%s'", id);
		*name = xstrndup(id, (size_t)(lt - id));
		while (strlen(*name) && (*name)[strlen(*name) - 1] == ' ')
			(*name)[strlen(*name) - 1] = '\0';
		*email = xstrndup(lt + 1, (size_t)(gt - lt - 1));
	}
	free(fromgit);
}

/* Does the tree already declare f_poll_head and ->poll_mask? */
static bool tree_has_api(const char *root)
{
	char *p = path_join(root, "include/linux/fs.h"), *text;
	bool r = false;

	if (read_file(p, &text, NULL) == 0) {
		r = strstr(text, "f_poll_head") && strstr(text, "poll_mask");
		free(text);
	}
	free(p);
	return r;
}

/* The infrastructure patch to apply, or NULL for none. */
static char *infra_patch(struct opts *o, const struct tree *t, const char *name, const char *email)
{
	struct infra_id id = { name, email, NULL };
	struct strvec made = STRVEC_INIT;
	char *r = NULL;

	if (o->infra) {
		if (!is_file(o->infra))
			die_code(EXIT_INPUT, "cannot read the infrastructure patch '%s'", o->infra);
		return realpath_or_die(o->infra);
	}
	if (o->no_infra) {
		if (!tree_has_api(t->root))
			die_code(EXIT_INPUT, "--no-infra, but '%s/include/linux/fs.h' has no f_poll_head and "
				 "poll_mask: the conversions would not build", t->root);
		return NULL;
	}
	if (tree_has_api(t->root))
		return NULL;
	/* made for the tree (infra.c): dies naming the file and the anchor it does not know */
	if (infra_write(t, INFRA_ONE_CALL, &id, NULL, &made) != 0 || made.n != 1)
		die_code(EXIT_INPUT, "'%s/include/linux/fs.h' has f_poll_head but not poll_mask: a part of the "
			 "infrastructure, or another one? (pass --infra PATCH or --no-infra)", t->root);
	r = xstrdup(made.v[0]);
	o->infra_made = true;
	sv_clear(&made);
	return r;
}

/*
 * The excerpt of MEASUREMENTS.md for the cover letter: its sizeof(struct
 * file) table and filp slab table; *SOURCE says where they come from (the
 * tree they were measured on is in the file's first heading, "... on TREE").
 */
static char *measurements(const char *infra, bool made, char **source)
{
	char *dir, *p, *text, *r = NULL;
	struct strbuf sb = STRBUF_INIT;
	const char *heads[] = { "## sizeof(struct file)", "## filp slab", NULL };

	if (!infra)
		return NULL;
	dir = xstrdup(infra);
	*strrchr(dir, '/') = '\0';
	p = made ? infra_measurements() : path_join(dir, "MEASUREMENTS.md");
	if (read_file(p, &text, NULL) == 0) {
		const char *h1 = !strncmp(text, "# ", 2) ? text : strstr(text, "\n# "), *on = NULL;

		if (h1) {
			size_t n;

			h1 += *h1 == '\n';
			n = strcspn(h1, "\n");
			for (const char *q = h1; (q = memmem(q, n - (size_t)(q - h1), " on ", 4)); q += 4)
				on = q + 4;
		}
		*source = xasprintf("%s%s%.*s", made ? "kernel-patches/MEASUREMENTS.md of polltax" :
				    "MEASUREMENTS.md beside the infrastructure patch", on ? ", measured on " : "",
				    on ? (int)strcspn(on, "\n") : 0, on ? on : "");
		for (int h = 0; heads[h]; h++) {
			const char *s = strstr(text, heads[h]), *t;

			if (!s || !(t = strstr(s, "\n|")))
				continue;
			t++;
			/* the first table after the heading */
			while (*t == '|') {
				const char *e = strchr(t, '\n');

				sb_adds(&sb, "  ");
				sb_add(&sb, t, e ? (size_t)(e - t) : strlen(t));
				sb_addc(&sb, '\n');
				t = e ? e + 1 : t + strlen(t);
			}
			sb_addc(&sb, '\n');
		}
		free(text);
		if (sb.len)
			r = sb_detach(&sb);
	}
	sb_release(&sb);
	free(p);
	free(dir);
	return r;
}

static const char *str(json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));

	return s ? s : "";
}

/*
 * The command, for the cover letter and README: the options that change
 * the output, with the paths as placeholders, so that where the tree and
 * the output live does not change a byte.
 */
static char *command_line(const struct opts *o)
{
	struct strbuf sb = STRBUF_INIT;

	sb_adds(&sb, "polltax series");
	if (o->scan)
		sb_adds(&sb, " --scan SCAN_DIR");
	if (o->signoff)
		sb_addf(&sb, " --signoff \"%s\"", o->signoff);
	if (o->split)
		sb_adds(&sb, " --split-per-driver");
	if (o->infra)
		sb_addf(&sb, " --infra %s", strrchr(o->infra, '/') ? strrchr(o->infra, '/') + 1 : o->infra);
	if (o->no_infra)
		sb_adds(&sb, " --no-infra");
	if (o->max != 15)
		sb_addf(&sb, " --max-patches %d", o->max);
	for (size_t i = 0; i < o->only.n; i++)
		sb_addf(&sb, " --only %s", o->only.v[i]);
	sb_adds(&sb, " -o DIR KERNEL_DIR");
	return sb_detach(&sb);
}

/* The spatch command lines of a plan, as run. */
static json_t *plan_commands(json_t *p)
{
	json_t *a = json_array(), *x, *v;
	struct strbuf sb = STRBUF_INIT;
	const char *k;
	size_t i;

	sb_addf(&sb, "spatch --sp-file cocci/poll_mask.cocci -D patch -D fn=%s -D mask_fn=%s -D ev=%s "
		"--no-includes --keep-comments --in-place", str(p, "function"), str(p, "mask_fn"), str(p, "events"));
	json_array_foreach(json_object_get(p, "files"), i, x)
		sb_addf(&sb, " %s", json_string_value(x));
	json_array_append_new(a, json_string(sb.buf));
	json_array_foreach(json_object_get(p, "sites"), i, x) {
		sb_reset(&sb);
		sb_addf(&sb, "spatch --sp-file cocci/f_poll_head.cocci -D anchor_%s -D site=%s -D head='%s'",
			str(x, "anchor"), str(x, "function"), str(x, "head"));
		json_object_foreach(json_object_get(x, "vars"), k, v)
			sb_addf(&sb, " -D %s=%s", k, json_string_value(v));
		sb_addf(&sb, " --no-includes --keep-comments --in-place %s", str(x, "file"));
		json_array_append_new(a, json_string(sb.buf));
	}
	sb_release(&sb);
	return a;
}

/* The configuration the series is checked against (verify builds it). */
struct config {
	struct flags fl;
	struct kbuild *kb;	/* a Kbuild tree with a prepared build */
	const char *name;
	const char *root;	/* the tree */
	char *why;		/* why the last plan was not configured */
};

static void cfg_open(struct config *c, const struct tree *t, const char *config, bool quiet)
{
	struct prepare_opts po = { .config = config, .jobs = online_cpus(), .quiet = quiet };

	memset(c, 0, sizeof(*c));
	c->name = config;
	c->root = t->root;
	flags_init(&c->fl, t, &po);
	if (c->fl.kind != FLAGS_FILE && c->fl.kind != FLAGS_CCDB)
		c->kb = kbuild_open(t->root, c->fl.build);
}

static void cfg_close(struct config *c)
{
	kbuild_close(c->kb);
	flags_free(&c->fl);
	free(c->why);
}

/*
 * A file the configuration does not enable can still be compiled on its own
 * (make O=<build> dir/file.o): ISA, 32-bit-only or other-architecture
 * drivers often build on x86_64.  If the untouched file compiles so, verify
 * can build it the same way after each patch; if not, it cannot be tested.
 */
static bool builds_alone(const struct config *c, const char *rel)
{
	char *obj = xstrdup(rel), *odir = xasprintf("O=%s", c->fl.build);
	const char *argv[] = { "make", "-s", odir, obj, NULL };
	bool ok = false;

	/* only in a build directory of ours: an in-tree build would write to the tree */
	obj[strlen(obj) - 1] = 'o';
	if (c->fl.kind == FLAGS_PREPARED)
		ok = run_cmd(argv, c->root, NULL, true) == 0;
	free(obj);
	free(odir);
	return ok;
}

/* Does the configuration build every .c file the plan touches? */
static bool configured(struct config *c, json_t *plan)
{
	struct strvec files = STRVEC_INIT;
	json_t *alone = json_array();
	bool ok = true;

	convert_plan_files(plan, &files);
	for (size_t i = 0; i < files.n && ok; i++) {
		size_t l = strlen(files.v[i]);
		char *why = NULL;

		if (l < 2 || strcmp(files.v[i] + l - 2, ".c"))
			continue;
		if (c->fl.kind == FLAGS_CCDB) {
			ok = json_object_get(c->fl.ccdb, files.v[i]) != NULL;
			if (!ok)
				c->why = xasprintf("%s is not in compile_commands.json: it could not be build-tested",
						   files.v[i]);
		} else if (c->kb && kbuild_built(c->kb, files.v[i], &why) == 0) {
			if (builds_alone(c, files.v[i])) {
				json_array_append_new(alone, json_pack("{s:s, s:s, s:s}", "file", files.v[i], "why",
								       why ? why : "not in the build", "config",
								       c->name ? c->name : "the configuration"));
			} else {
				ok = false;
				c->why = xasprintf("%s is not built by %s (%s) and does not compile on its own: "
						   "it could not be build-tested", files.v[i], c->name,
						   why ? why : "not in the build");
			}
		}
		free(why);
	}
	if (ok && json_array_size(alone))
		json_object_set(plan, "built_alone", alone);
	json_decref(alone);
	sv_clear(&files);
	return ok;
}

struct group {
	char *key;		/* section, or section + file with --split-per-driver */
	char *section;
	json_t *plans;		/* planned, in scan order */
	json_t *done;		/* applied */
	char *commit;
};

/* The staging directory of this run, removed if it dies before the rename (die() exits). */
static char *stage_dir;
static pid_t stage_owner;

static void remove_stage(void)
{
	if (stage_dir && getpid() == stage_owner && is_dir(stage_dir))
		rm_rf(stage_dir);
}

static int cmp_group(const void *a, const void *b)
{
	return strcmp(((const struct group *)a)->key, ((const struct group *)b)->key);
}

int cmd_series(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "scan", required_argument, NULL, 's' },
		{ "signoff", required_argument, NULL, 'S' },
		{ "split-per-driver", no_argument, NULL, 'd' },
		{ "infra", required_argument, NULL, 'i' },
		{ "no-infra", no_argument, NULL, 'n' },
		{ "max-patches", required_argument, NULL, 'm' },
		{ "only", required_argument, NULL, 'O' },
		{ "config", required_argument, NULL, 'c' },
		{ "tested", required_argument, NULL, 'T' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct opts o = { .max = 15, .config = "allmodconfig" };
	struct tree t;
	struct scratch s;
	struct convert cv;
	struct maint m;
	struct config cfg;
	struct group *groups = NULL;
	size_t ngroups = 0, i, k;
	json_t *scan, *impls, *x, *refused = json_array(), *converted = json_array(), *info, *postings;
	json_t *commits = json_array();
	char *name, *email, *signoff, *infra, *outdir, *stage, *cmdline, *scan_write = NULL;
	const char *typed_out;
	double t0 = now_seconds();
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'o': o.out = optarg; break;
		case 's': o.scan = optarg; break;
		case 'S': o.signoff = optarg; break;
		case 'd': o.split = true; break;
		case 'i': o.infra = optarg; break;
		case 'n': o.no_infra = true; break;
		case 'm':
			o.max = atoi(optarg);
			if (o.max < 2 || o.max > 100)
				die_code(EXIT_USAGE, "--max-patches takes a number from 2 to 100, not '%s'", optarg);
			break;
		case 'O': sv_push(&o.only, optarg); break;
		case 'c': o.config = optarg; break;
		case 'T':
			/* read now: a wrong path should not cost the whole conversion */
			if (read_file(optarg, &o.tested, NULL) != 0)
				die_code(EXIT_INPUT, "cannot read %s (--tested): %s", optarg, strerror(errno));
			break;
		case 'q': o.quiet = true; break;
		case 'h': fputs(usage, stdout); return 0;
		default: return args_bad_option(usage);
		}
	}
	if (args_check(usage, argc, argv, optind, "KERNEL_DIR"))
		return EXIT_USAGE;
	if (!o.out) {
		fputs("polltax series: missing -o DIR, the directory to write to\n", stderr);
		return args_bad_option(usage);
	}
	if (o.infra && o.no_infra)
		die_code(EXIT_USAGE, "--infra and --no-infra exclude each other");
	/* git format-patch and spatch run in the scratch tree: the paths must not depend on a cwd */
	typed_out = o.out;
	o.out = abs_path(o.out);
	o.scan = abs_path(o.scan);
	o.infra = abs_path(o.infra);
	for (const char *const *p = (const char *const[]){ "git", "spatch", "perl", NULL }; *p; p++)
		if (!have_program(*p))
			die_code(EXIT_TOOL, "%s not found (apt-get install %s)", *p,
				 !strcmp(*p, "spatch") ? "coccinelle" : *p);
	cmdline = command_line(&o);
	tree_open(&t, argv[optind]);
	refuse_inside_tree(o.out, typed_out, "-o", false, t.root);
	identity(&o, &t, &name, &email);
	signoff = xasprintf("%s <%s>", name, email);
	infra = infra_patch(&o, &t, name, email);

	/* the output is built next to DIR and renamed into place at the end */
	outdir = xstrdup(o.out);
	while (strlen(outdir) > 1 && outdir[strlen(outdir) - 1] == '/')
		outdir[strlen(outdir) - 1] = '\0';
	if (is_dir(outdir)) {
		/* replace a previous series, nothing else */
		char *sj = path_join(outdir, "series.json");
		struct strbuf ls = STRBUF_INIT;
		const char *lsargv[] = { "ls", "-A", outdir, NULL };

		run_cmd(lsargv, NULL, &ls, true);
		if (!is_file(sj) && ls.len)
			die_code(EXIT_USAGE, "'%s' exists and is not the output of polltax series: not replacing it", outdir);
		sb_release(&ls);
		free(sj);
	}
	stage = xasprintf("%s.tmp-%d", outdir, (int)getpid());
	if (mkdir_p(stage) < 0)
		die("cannot create '%s': %s", stage, strerror(errno));
	stage_dir = stage;
	stage_owner = getpid();
	atexit(remove_stage);
	if (!o.scan)
		scan_write = path_join(stage, "scan");
	scan = pipeline_scan(&t, o.scan, scan_write, o.quiet);
	impls = pipeline_convertible(scan);

	/* the scratch tree: the base, plus the infrastructure patch */
	scratch_open(&s, &t, "series", o.quiet);
	scratch_identity(name, email, s.date);
	{
		char *gm = path_join(s.work, "scripts/get_maintainer.pl");

		if (!is_file(gm) && scratch_kernel_scripts(s.work, o.quiet) < 0)
			die_code(EXIT_TOOL, "'%s' has no scripts/get_maintainer.pl and none could be found", t.root);
		free(gm);
	}
	m.work = s.work;
	{
		char *kb = path_join(s.work, "Kbuild");

		m.no_tree = !is_file(kb);
		free(kb);
	}
	m.history = s.from_git;
	if (infra) {
		progress(&o, "applying %s", infra);
		if (scratch_git(&s, NULL, o.quiet, "am", "-q", "--keep-non-patch", infra, NULL) != 0) {
			scratch_git(&s, NULL, true, "am", "--abort", NULL);
			die_code(EXIT_INPUT, "the infrastructure patch '%s' does not apply to '%s'", infra, t.root);
		}
		{
			struct strbuf out = STRBUF_INIT;

			scratch_git(&s, &out, true, "rev-parse", "HEAD", NULL);
			json_array_append_new(commits, json_string(trimmed(&out)));
		}
	}

	/* what the configuration builds: only that is converted */
	cfg_open(&cfg, &t, o.config, o.quiet);

	/* plan every implementation, and group them */
	convert_init(&cv, s.work, cocci_dir());
	progress(&o, "planning %zu conversions", json_array_size(impls));
	convert_prefetch(&cv, impls, online_cpus());
	json_array_foreach(impls, i, x) {
		json_t *p;
		char *sec, *key;
		size_t g;

		if (o.only.n && !sv_contains(&o.only, str(x, "function")))
			continue;
		p = convert_plan(&cv, x);
		if (json_is_true(json_object_get(p, "ok")) && !configured(&cfg, p)) {
			json_object_set_new(p, "ok", json_false());
			json_object_set_new(p, "reason", json_string(cfg.why));
			free(cfg.why);
			cfg.why = NULL;
		}
		if (!json_is_true(json_object_get(p, "ok"))) {
			json_array_append_new(refused, p);
			continue;
		}
		sec = maint_section(&m, str(x, "file"));
		if (o.split) {
			key = xasprintf("%s\t%s", sec, str(x, "file"));
		} else if (!strcmp(sec, "THE REST")) {
			/* no section of their own: one patch per directory, not one for everything */
			const char *f = str(x, "file"), *sl = strrchr(f, '/');

			key = xasprintf("%s\t%.*s", sec, sl ? (int)(sl - f) : 0, f);
		} else {
			key = xstrdup(sec);
		}
		for (g = 0; g < ngroups && strcmp(groups[g].key, key); g++)
			;
		if (g == ngroups) {
			groups = xrealloc(groups, (ngroups + 1) * sizeof(*groups));
			groups[g].key = key;
			groups[g].section = sec;
			groups[g].plans = json_array();
			groups[g].done = json_array();
			groups[g].commit = NULL;
			ngroups++;
		} else {
			free(key);
			free(sec);
		}
		json_array_append_new(groups[g].plans, p);
	}
	qsort(groups, ngroups, sizeof(*groups), cmp_group);

	/* apply and commit, group by group */
	for (k = 0; k < ngroups; k++) {
		struct group *g = &groups[k];
		struct strvec files = STRVEC_INIT, argvv = STRVEC_INIT;
		char *prefix, *msg, *msgfile;

		progress(&o, "converting %zu in %s", json_array_size(g->plans), g->section);
		json_array_foreach(g->plans, i, x) {
			char *reason = NULL;

			if (convert_apply(&cv, x, &reason) < 0) {
				json_object_set_new(x, "ok", json_false());
				json_object_set_new(x, "reason", json_string(reason));
				json_array_append(refused, x);
				free(reason);
				continue;
			}
			json_object_set_new(x, "commands", plan_commands(x));
			json_object_set_new(x, "section", json_string(g->section));
			json_array_append(g->done, x);
			json_array_append(converted, x);
			convert_plan_files(x, &files);
		}
		if (!json_array_size(g->done)) {
			sv_clear(&files);
			continue;
		}
		{
			struct strvec pollfiles = STRVEC_INIT;

			json_array_foreach(g->done, i, x)
				if (!sv_contains(&pollfiles, str(x, "file")))
					sv_push(&pollfiles, str(x, "file"));
			prefix = maint_prefix(&m, &pollfiles);
			sv_clear(&pollfiles);
		}
		msg = series_commit_message(prefix, g->section, g->done, signoff);
		msgfile = xasprintf("%s/.git-msg-%d", s.dir, (int)getpid());
		if (write_file_atomic(msgfile, msg, strlen(msg)) < 0)
			die("cannot write '%s'", msgfile);
		sv_push(&argvv, "git");
		sv_push(&argvv, "add");
		sv_push(&argvv, "-f");	/* tracked files, whatever the tree's .gitignore says */
		sv_push(&argvv, "--");
		for (i = 0; i < files.n; i++)
			sv_push(&argvv, files.v[i]);
		if (run_cmd((const char *const *)argvv.v, s.work, NULL, o.quiet) != 0 ||
		    scratch_git(&s, NULL, o.quiet, "commit", "-q", "--no-verify", "-F", msgfile, NULL) != 0)
			die("cannot commit the conversions of %s in '%s'", g->section, s.work);
		unlink(msgfile);
		{
			struct strbuf out = STRBUF_INIT;

			scratch_git(&s, &out, true, "rev-parse", "HEAD", NULL);
			g->commit = trimmed(&out);
			json_array_append_new(commits, json_string(g->commit));
		}
		free(msgfile);
		free(msg);
		free(prefix);
		sv_clear(&files);
		sv_clear(&argvv);
	}

	/* postings of at most o.max patches, each formatted with its cover letter */
	info = json_object();
	json_object_set_new(info, "version", json_string(t.version));
	json_object_set_new(info, "base_version", json_string(""));
	json_object_set(info, "scan", scan);
	json_object_set(info, "converted", converted);
	json_object_set(info, "refused", refused);
	pipeline_record_refused(o.scan ? o.scan : scan_write, scan, refused);	/* for polltax progress */
	json_object_set_new(info, "command", json_string(cmdline));
	json_object_set_new(info, "max_patches", json_integer(o.max));
	json_object_set_new(info, "infra", infra ? json_string(strrchr(infra, '/') + 1) : json_null());
	{
		char *source = NULL, *ms = measurements(infra, o.infra_made, &source);

		json_object_set_new(info, "measurements", ms ? json_string(ms) : json_null());
		if (o.tested)
			json_object_set_new(info, "tested", json_string(o.tested));
		if (ms)
			json_object_set_new(info, "measurements_source", json_string(source));
		free(source);
		if (infra && o.infra_made) {
			char *v = xstrdup(t.version), *d = strchr(v, '.');

			/* VERSION.PATCHLEVEL */
			if (d && (d = strchr(d + 1, '.')))
				*d = '\0';
			json_object_set_new(info, "base_version", json_string(v));
			free(v);
		} else if (infra) {
			char *d = xstrdup(infra), *b;

			*strrchr(d, '/') = '\0';
			b = strrchr(d, '/');
			json_object_set_new(info, "base_version", json_string(b ? b + 1 : d));
			free(d);
		}
		free(ms);
	}
	json_object_set_new(info, "conversion_patches",
			    json_integer((json_int_t)json_array_size(commits) - (infra ? 1 : 0)));
	{
		json_t *ex = json_array();

		/* two example commands: the first conversion with a creation site */
		json_array_foreach(converted, i, x)
			if (json_array_size(json_object_get(x, "commands")) > 1) {
				json_array_extend(ex, json_object_get(x, "commands"));
				break;
			}
		json_object_set_new(info, "example_commands", ex);
	}
	postings = json_array();
	{
		size_t total = json_array_size(commits), np = (total + (size_t)o.max - 1) / (size_t)o.max, first = 0;

		if (!total)
			die_code(EXIT_INPUT, "nothing to send: the tree already has the infrastructure (f_poll_head) and "
				 "%s; no series written to '%s'", json_array_size(refused) ?
				 "every auto-convertible implementation was refused (polltax convert --plan says why)" :
				 "the scan found nothing auto-convertible", outdir);
		for (size_t pi = 0; pi < np; pi++) {
			size_t count = (total - first + (np - pi) - 1) / (np - pi);	/* even split */
			char *dir = np > 1 ? xasprintf("posting-%zu", pi + 1) : xstrdup("");
			char *pdir = *dir ? path_join(stage, dir) : xstrdup(stage);
			const char *from = json_string_value(json_array_get(commits, first));
			const char *to = json_string_value(json_array_get(commits, first + count - 1));
			char *range = xasprintf("%s^..%s", from, to), *basearg = xasprintf("--base=%s", s.base);
			json_t *pjson = json_object(), *plist = json_array();
			struct strvec cov_to = STRVEC_INIT, cov_cc = STRVEC_INIT;
			struct strbuf out = STRBUF_INIT;
			glob_t g;
			char *pat;

			if (mkdir_p(pdir) < 0)
				die("cannot create '%s': %s", pdir, strerror(errno));
			if ((s.from_git ? scratch_git(&s, &out, o.quiet, "format-patch", "-q", "--cover-letter", "--numbered",
						      "--abbrev=12", basearg, "-o", pdir, range, NULL)
					: scratch_git(&s, &out, o.quiet, "format-patch", "-q", "--cover-letter", "--numbered",
						      "--abbrev=12", "-o", pdir, range, NULL)) != 0)
				die("git format-patch failed in '%s'", s.work);
			sb_release(&out);
			pat = path_join(pdir, "0*.patch");
			if (glob(pat, 0, NULL, &g) != 0)
				die("git format-patch wrote nothing to '%s'", pdir);
			for (size_t fi = 1; fi < g.gl_pathc; fi++) {
				struct strvec pto = STRVEC_INIT, pcc = STRVEC_INIT;
				const char *f = g.gl_pathv[fi];
				const char *commit = json_string_value(json_array_get(commits, first + fi - 1));
				json_t *pp = json_object();
				struct strbuf subj = STRBUF_INIT;

				if (maint_recipients(&m, f, &pto, &pcc) < 0)
					die("cannot find the recipients of '%s'", f);
				series_edit_patch(f, &pto, &pcc, NULL, NULL);
				for (size_t r = 0; r < pto.n; r++)
					if (!sv_contains(&cov_to, pto.v[r]))
						sv_push(&cov_to, pto.v[r]);
				for (size_t r = 0; r < pcc.n; r++)
					if (!sv_contains(&cov_cc, pcc.v[r]) && !sv_contains(&cov_to, pcc.v[r]))
						sv_push(&cov_cc, pcc.v[r]);
				scratch_git(&s, &subj, true, "log", "-1", "--format=%s", commit, NULL);
				json_object_set_new(pp, "file", json_string(strrchr(f, '/') + 1));
				json_object_set_new(pp, "commit", json_string(commit));
				{
					char *st = trimmed(&subj);

					json_object_set_new(pp, "subject", json_string(st));
					free(st);
				}
				json_object_set_new(pp, "section", json_string(""));
				json_object_set_new(pp, "count", json_integer(0));
				for (size_t gi = 0; gi < ngroups; gi++)
					if (groups[gi].commit && !strcmp(groups[gi].commit, commit)) {
						json_object_set_new(pp, "section", json_string(groups[gi].section));
						json_object_set_new(pp, "count",
								    json_integer((json_int_t)json_array_size(groups[gi].done)));
						json_object_set(pp, "functions", groups[gi].done);
					}
				json_array_append_new(plist, pp);
				sv_clear(&pto);
				sv_clear(&pcc);
			}
			json_object_set_new(pjson, "dir", json_string(dir));
			json_object_set_new(pjson, "patches", plist);
			json_array_append_new(postings, pjson);
			json_object_set(info, "patches", plist);
			{
				/* To: wins over Cc: for who is in both (a reviewer here, a maintainer there) */
				struct strvec cc2 = STRVEC_INIT;

				for (size_t r = 0; r < cov_cc.n; r++)
					if (!sv_contains(&cov_to, cov_cc.v[r]))
						sv_push(&cc2, cov_cc.v[r]);
				sv_clear(&cov_cc);
				cov_cc = cc2;
			}
			{
				char *subject = series_cover_subject(info, (int)pi + 1, (int)np);
				char *body = series_cover_body(info, (int)pi + 1, (int)np);

				series_edit_patch(g.gl_pathv[0], &cov_to, &cov_cc, subject, body);
				free(subject);
				free(body);
			}
			globfree(&g);
			free(pat);
			sv_clear(&cov_to);
			sv_clear(&cov_cc);
			free(range);
			free(basearg);
			free(pdir);
			free(dir);
			first += count;
		}
	}
	json_object_del(info, "patches");
	json_object_set(info, "postings", postings);

	/* README.md and series.json (without the scan, which has its own file) */
	{
		char *readme = series_readme(info), *p = path_join(stage, "README.md");
		json_t *sj = json_deep_copy(info);
		char *sjp = path_join(stage, "series.json"), *dump;

		if (write_file_atomic(p, readme, strlen(readme)) < 0)
			die("cannot write '%s'", p);
		json_object_del(sj, "scan");
		json_object_set_new(sj, "base", s.from_git ? json_string(s.base) : json_null());
		json_object_set_new(sj, "tree", json_string(t.version));
		dump = json_dumps(sj, JSON_INDENT(2) | JSON_SORT_KEYS);
		{
			struct strbuf sb = STRBUF_INIT;

			sb_adds(&sb, dump);
			sb_addc(&sb, '\n');
			if (write_file_atomic(sjp, sb.buf, sb.len) < 0)
				die("cannot write '%s'", sjp);
			sb_release(&sb);
		}
		free(dump);
		json_decref(sj);
		free(sjp);
		free(readme);
		free(p);
	}

	/* DIR <- stage */
	{
		char *old = xasprintf("%s.old-%d", outdir, (int)getpid());

		if (is_dir(outdir) && rename(outdir, old) < 0)
			die("cannot move '%s' away: %s", outdir, strerror(errno));
		if (rename(stage, outdir) < 0)
			die("cannot rename '%s' to '%s': %s", stage, outdir, strerror(errno));
		stage_dir = NULL;
		if (is_dir(old))
			rm_rf(old);
		free(old);
	}
	progress(&o, "%zu patches in %zu posting%s: %zu implementations converted, %zu refused; wrote %s (%.0f s)",
		 json_array_size(commits), json_array_size(postings), json_array_size(postings) > 1 ? "s" : "",
		 json_array_size(converted), json_array_size(refused), outdir, now_seconds() - t0);

	for (k = 0; k < ngroups; k++) {
		free(groups[k].key);
		free(groups[k].section);
		json_decref(groups[k].plans);
		json_decref(groups[k].done);
		free(groups[k].commit);
	}
	free(groups);
	convert_release(&cv);
	cfg_close(&cfg);
	scratch_free(&s);
	json_decref(info);
	json_decref(postings);
	json_decref(commits);
	json_decref(converted);
	json_decref(refused);
	json_decref(impls);
	json_decref(scan);
	free(name);
	free(email);
	free(signoff);
	free(infra);
	free(outdir);
	free(stage);
	free(cmdline);
	free(scan_write);
	free((char *)o.out);
	free((char *)o.scan);
	free((char *)o.infra);
	sv_clear(&o.only);
	tree_free(&t);
	return 0;
}
