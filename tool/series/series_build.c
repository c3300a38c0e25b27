// SPDX-License-Identifier: GPL-2.0
/*
 * series_build.c - series_build() (series.h): the infrastructure patch,
 * then the conversions grouped per MAINTAINERS section, one commit each,
 * in a scratch git tree (scratch.h).  The commits carry the base's date,
 * so the same input gives the same commits; series_post.c formats them.
 */
#define _GNU_SOURCE
#include "scan/cocci.h"
#include "convert/convert.h"
#include "infra.h"
#include "lib/arch.h"
#include "lib/kbuild.h"
#include "scan/pipeline.h"
#include "series.h"
#include "lib/json_util.h"
#include "lib/strutil.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* "Name <mail>" from --signoff or git's configuration of the tree. */
static void identity(const struct series_opts *o, const struct tree *t, char **name, char **email)
{
	const char *id = o->signoff;
	char *fromgit = NULL;

	if (!id) {
		struct strbuf n = STRBUF_INIT, e = STRBUF_INIT;
		const char *an[] = { "git", "config", "user.name", NULL };
		const char *ae[] = { "git", "config", "user.email", NULL };

		if (run_cmd(an, t->root, &n, true) == 0 && run_cmd(ae, t->root, &e, true) == 0) {
			char *nn = sb_detach_trimmed(&n), *ee = sb_detach_trimmed(&e);

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
static char *infra_patch(struct series_run *r, const char *name, const char *email)
{
	const struct series_opts *o = r->o;
	const struct tree *t = r->t;
	struct infra_id id = { name, email, NULL };
	struct strvec made = STRVEC_INIT;
	char *p = NULL;

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
	p = xstrdup(made.v[0]);
	r->infra_made = true;
	sv_clear(&made);
	return p;
}

/* The spatch command lines of a plan, as run. */
static json_t *plan_commands(json_t *p)
{
	json_t *a = json_array(), *x, *v;
	struct strbuf sb = STRBUF_INIT;
	const char *k;
	size_t i;

	sb_addf(&sb, "spatch --sp-file cocci/poll_mask.cocci -D patch -D fn=%s -D mask_fn=%s -D ev=%s "
		"%s--no-includes --keep-comments --in-place", jstr(p, "function"), jstr(p, "mask_fn"), jstr(p, "events"),
		!strcmp(jstr(p, "class"), "none") ? "-D nohead " : "");
	json_array_foreach(json_object_get(p, "files"), i, x)
		sb_addf(&sb, " %s", json_string_value(x));
	json_array_append_new(a, json_string(sb.buf));
	json_array_foreach(json_object_get(p, "sites"), i, x) {
		sb_reset(&sb);
		sb_addf(&sb, "spatch --sp-file cocci/f_poll_head.cocci -D anchor_%s -D site=%s -D head='%s'",
			jstr(x, "anchor"), jstr(x, "function"), jstr(x, "head"));
		json_object_foreach(json_object_get(x, "vars"), k, v)
			sb_addf(&sb, " -D %s=%s", k, json_string_value(v));
		sb_addf(&sb, " --no-includes --keep-comments --in-place %s", jstr(x, "file"));
		json_array_append_new(a, json_string(sb.buf));
	}
	sb_release(&sb);
	return a;
}

/* The configuration the series is checked against (verify builds it). */
struct config {
	struct flags fl;
	const char *name;
	const char *root;	/* the tree */
	char *why;		/* why the last plan was not configured */
};

static void cfg_open(struct config *c, const struct tree *t, const char *config, const char *arches, bool quiet)
{
	struct prepare_opts po = { .config = config, .jobs = online_cpus(), .quiet = quiet, .arches = arches };

	memset(c, 0, sizeof(*c));
	c->name = config;
	c->root = t->root;
	flags_init(&c->fl, t, &po);
}

static void cfg_close(struct config *c)
{
	flags_free(&c->fl);
	free(c->why);
}

/*
 * A file the configuration does not enable can still be compiled on its own
 * (make O=<build> dir/file.o): ISA, 32-bit-only or other-architecture
 * drivers often build on x86_64.  If the untouched file compiles so, verify
 * can build it the same way after each patch; if not, it cannot be tested.
 * FL is x86's build or another architecture's (--arch).
 */
static bool builds_alone(const struct config *c, const struct flags *fl, const char *rel)
{
	struct strvec argv = STRVEC_INIT;
	bool ok = false;

	sv_push(&argv, "make");
	sv_push(&argv, "-s");
	sv_pushf(&argv, "O=%s", fl->build);
	sv_pushf(&argv, "%.*so", (int)strlen(rel) - 1, rel);
	arch_make_args(fl->arch, &argv);
	/* only in a build directory of ours: an in-tree build would write to the tree */
	if (fl->kind == FLAGS_PREPARED)
		ok = run_cmd((const char *const *)argv.v, c->root, NULL, true) == 0;
	sv_clear(&argv);
	return ok;
}

/*
 * Which build has REL (a .c file): *FL gets x86's or another
 * architecture's flags, *ALONE whether only compiling REL on its own
 * does; false (and *WHY) when none does.
 */
static bool build_of(struct config *c, const char *rel, const struct flags **fl, bool *alone, char **why)
{
	const struct flags *af = flags_arch_of(&c->fl, rel);
	/* x86's answer, and its reason when it does not build REL */
	int x86 = c->fl.conf ? kbuild_built(c->fl.conf, rel, why) : -1;

	*alone = false;
	*fl = af;
	if (af != &c->fl) {
		/* another architecture's configuration builds it, or it is under that one's arch/ */
		if (kbuild_built(af->conf, rel, NULL) == 1)
			return true;
		*alone = true;
		return builds_alone(c, af, rel);
	}
	if (x86 != 0)
		return true;
	*alone = true;
	if (builds_alone(c, af, rel))
		return true;
	for (size_t a = 0; a < c->fl.nalt; a++)
		if (strncmp(rel, "arch/", 5) && builds_alone(c, &c->fl.alt[a], rel)) {
			*fl = &c->fl.alt[a];
			return true;
		}
	return false;
}

/*
 * Does the configuration (or one architecture's of --arch) build every .c
 * file the plan touches?  Each file that only another architecture builds
 * is named in the plan's "arch_built" (its configuration builds it) or
 * "built_alone" (it compiles on its own), with that architecture: verify
 * builds each file with its own.
 */
static bool configured(struct config *c, json_t *plan)
{
	struct strvec files = STRVEC_INIT;
	json_t *alone = json_array(), *other = json_array();
	bool ok = true;

	convert_plan_files(plan, &files);
	for (size_t i = 0; i < files.n && ok; i++) {
		size_t l = strlen(files.v[i]);
		const struct flags *fl;
		char *why = NULL;
		bool by_alone;

		if (l < 2 || strcmp(files.v[i] + l - 2, ".c"))
			continue;
		if (c->fl.kind == FLAGS_CCDB) {
			ok = json_object_get(c->fl.ccdb, files.v[i]) != NULL;
			if (!ok)
				c->why = xasprintf("%s is not in compile_commands.json: it could not be build-tested",
						   files.v[i]);
			continue;
		}
		if (!build_of(c, files.v[i], &fl, &by_alone, &why)) {
			ok = false;
			c->why = xasprintf("%s is not built by %s (%s) and does not compile on its own%s: it could "
					   "not be build-tested", files.v[i], c->name, why ? why : "not in the build",
					   c->fl.nalt ? " for any architecture of --arch" : "");
		} else if (by_alone || fl != &c->fl) {
			json_array_append_new(by_alone ? alone : other,
					      json_pack("{s:s, s:s, s:s, s:s}", "file", files.v[i], "why",
							why ? why : "not in the build", "config",
							c->name ? c->name : "the configuration", "arch", fl->arch->name));
		}
		free(why);
	}
	if (ok && json_array_size(alone))
		json_object_set(plan, "built_alone", alone);
	if (ok && json_array_size(other))
		json_object_set(plan, "arch_built", other);
	json_decref(alone);
	json_decref(other);
	sv_clear(&files);
	return ok;
}

static int cmp_group(const void *a, const void *b)
{
	return strcmp(((const struct series_group *)a)->key, ((const struct series_group *)b)->key);
}

/* The group of a plan of FILE in section SEC (taken over): one per section, or per file with --split-per-driver. */
static struct series_group *group_for(struct series_run *r, char *sec, const char *file)
{
	char *key;
	size_t g;

	if (r->o->split) {
		key = xasprintf("%s\t%s", sec, file);
	} else if (!strcmp(sec, "THE REST")) {
		/* no section of their own: one patch per directory, not one for everything */
		const char *sl = strrchr(file, '/');

		key = xasprintf("%s\t%.*s", sec, sl ? (int)(sl - file) : 0, file);
	} else {
		key = xstrdup(sec);
	}
	for (g = 0; g < r->ngroups && strcmp(r->groups[g].key, key); g++)
		;
	if (g == r->ngroups) {
		r->groups = xrealloc(r->groups, (r->ngroups + 1) * sizeof(*r->groups));
		r->groups[g].key = key;
		r->groups[g].section = sec;
		r->groups[g].plans = json_array();
		r->groups[g].done = json_array();
		r->groups[g].commit = NULL;
		r->ngroups++;
	} else {
		free(key);
		free(sec);
	}
	return &r->groups[g];
}

/* The MAINTAINERS sections of the files of IMPLS asked side by side (maint_section() then reads them) */
static void prefetch_sections(struct series_run *r, json_t *impls)
{
	struct strvec files = STRVEC_INIT;
	json_t *x;
	size_t i;

	json_array_foreach(impls, i, x)
		if ((!r->o->only.n || sv_contains(&r->o->only, jstr(x, "function"))) &&
		    !sv_contains(&files, jstr(x, "file")))
			sv_push(&files, jstr(x, "file"));
	maint_prefetch(&r->m, "--sections", (const char *const *)files.v, files.n, online_cpus());
	sv_clear(&files);
}

/*
 * --section NAME: the implementations of IMPLS in that section only.  The
 * section of each is asked before planning, so that the others cost nothing.
 */
static json_t *in_section(struct series_run *r, json_t *impls)
{
	json_t *keep = json_array(), *x;
	size_t i;

	prefetch_sections(r, impls);
	json_array_foreach(impls, i, x) {
		char *sec = maint_section(&r->m, jstr(x, "file"));

		if (!strcmp(sec, r->o->section))
			json_array_append(keep, x);
		free(sec);
	}
	json_decref(impls);
	return keep;
}

/* Plan every implementation of the scan that the options ask for, and group the plans. */
static void plan_groups(struct series_run *r, struct convert *cv, struct config *cfg)
{
	const struct series_opts *o = r->o;
	json_t *impls = o->review ? pipeline_reviewable(r->scan) : pipeline_convertible(r->scan), *x;
	size_t i;

	cv->review = o->review;
	if (o->section)
		impls = in_section(r, impls);
	series_progress(o, "planning %zu conversions", json_array_size(impls));
	convert_prefetch(cv, impls, online_cpus());
	prefetch_sections(r, impls);
	json_array_foreach(impls, i, x) {
		json_t *p;

		if (o->only.n && !sv_contains(&o->only, jstr(x, "function")))
			continue;
		p = convert_plan(cv, x);
		if (json_is_true(json_object_get(p, "ok")) && !configured(cfg, p)) {
			json_object_set_new(p, "ok", json_false());
			json_object_set_new(p, "reason", json_string(cfg->why));
			free(cfg->why);
			cfg->why = NULL;
		}
		if (!json_is_true(json_object_get(p, "ok"))) {
			json_array_append_new(r->refused, p);
			continue;
		}
		/* what a single-cond conversion rests on, for its commit message */
		if (json_object_get(x, "review"))
			json_object_set(p, "review", json_object_get(x, "review"));
		json_array_append_new(group_for(r, maint_section(&r->m, jstr(x, "file")), jstr(x, "file"))->plans, p);
	}
	qsort(r->groups, r->ngroups, sizeof(*r->groups), cmp_group);
	json_decref(impls);
}

/* HEAD (the infrastructure patch's commit) in r->commits */
static void push_head(struct series_run *r)
{
	struct strbuf out = STRBUF_INIT;
	char *c;

	scratch_git(&r->s, &out, true, "rev-parse", "HEAD", NULL);
	c = sb_detach_trimmed(&out);
	json_array_append_new(r->commits, json_string(c));
	free(c);
}

/*
 * Commit FILES of the scratch tree with message MSG on top of HEAD, its
 * id in *COMMIT and r->commits.  By git's plumbing (update-index,
 * write-tree, commit-tree, update-ref): what "git add -f; git commit -F"
 * makes, the message cleaned up as that commit does (git_stripspace()),
 * at half the cost per commit.  An empty change is an error, as there.
 */
static void commit_files(struct series_run *r, const struct strvec *files, const char *msg, const char *section,
			 char **commit)
{
	const struct series_opts *o = r->o;
	struct strvec argv = STRVEC_INIT;
	struct strbuf out = STRBUF_INIT;
	char *tree, *parent, *parent_tree, *text, *msgfile, *c;
	int rc;

	sv_push(&argv, "git");
	sv_push(&argv, "update-index");
	sv_push(&argv, "--add");
	sv_push(&argv, "--");
	for (size_t i = 0; i < files->n; i++)
		sv_push(&argv, files->v[i]);
	if (run_cmd((const char *const *)argv.v, r->s.work, NULL, o->quiet) != 0 ||
	    scratch_git(&r->s, &out, o->quiet, "write-tree", NULL) != 0)
		die("cannot commit the conversions of %s in '%s'", section, r->s.work);
	tree = sb_detach_trimmed(&out);
	if (scratch_git(&r->s, &out, o->quiet, "rev-parse", "HEAD", "HEAD^{tree}", NULL) != 0)
		die("cannot commit the conversions of %s in '%s'", section, r->s.work);
	parent = sb_detach_trimmed(&out);
	parent_tree = strchr(parent, '\n');
	if (!parent_tree)
		die("cannot commit the conversions of %s in '%s'", section, r->s.work);
	*parent_tree++ = '\0';
	if (!strcmp(tree, parent_tree))
		die("cannot commit the conversions of %s in '%s': they change nothing", section, r->s.work);
	text = git_stripspace(msg);
	msgfile = xasprintf("%s/.git-msg-%d", r->s.dir, (int)getpid());
	if (write_file_atomic(msgfile, text, strlen(text)) < 0)
		die("cannot write '%s'", msgfile);
	rc = scratch_git(&r->s, &out, o->quiet, "commit-tree", tree, "-p", parent, "-F", msgfile, NULL);
	unlink(msgfile);
	c = sb_detach_trimmed(&out);
	if (rc != 0 || scratch_git(&r->s, NULL, o->quiet, "update-ref", "HEAD", c, parent, NULL) != 0)
		die("cannot commit the conversions of %s in '%s'", section, r->s.work);
	json_array_append_new(r->commits, json_string(c));
	*commit = c;
	free(msgfile);
	free(text);
	free(parent);
	free(tree);
	sv_clear(&argv);
}

/* Apply the plans of G and commit them. */
static void commit_group(struct series_run *r, struct series_group *g)
{
	const struct series_opts *o = r->o;
	struct strvec files = STRVEC_INIT, pollfiles = STRVEC_INIT;
	char *prefix, *msg;
	json_t *x;
	size_t i;

	series_progress(o, "committing %zu in %s", json_array_size(g->plans), g->section);
	json_array_foreach(g->plans, i, x) {
		/* applied already, by series_apply() */
		bool ok = json_is_true(json_object_get(x, "applied"));

		json_object_del(x, "applied");
		if (!ok) {
			json_object_set_new(x, "ok", json_false());
			json_object_set(x, "reason", json_object_get(x, "apply_reason"));
			json_object_del(x, "apply_reason");
			json_array_append(r->refused, x);
			continue;
		}
		json_object_set_new(x, "commands", plan_commands(x));
		json_object_set_new(x, "section", json_string(g->section));
		json_array_append(g->done, x);
		json_array_append(r->converted, x);
		convert_plan_files(x, &files);
	}
	if (!json_array_size(g->done)) {
		sv_clear(&files);
		return;
	}
	json_array_foreach(g->done, i, x)
		if (!sv_contains(&pollfiles, jstr(x, "file")))
			sv_push(&pollfiles, jstr(x, "file"));
	prefix = maint_prefix(&r->m, &pollfiles);
	sv_clear(&pollfiles);
	msg = series_commit_message(prefix, g->section, g->done, r->signoff);
	commit_files(r, &files, msg, g->section, &g->commit);
	free(msg);
	free(prefix);
	sv_clear(&files);
}

/* The scratch tree at the base, with get_maintainer.pl, and the infrastructure patch applied. */
static void open_scratch(struct series_run *r, const char *name, const char *email)
{
	const struct series_opts *o = r->o;
	char *gm, *kb;

	scratch_open(&r->s, r->t, "series", o->quiet);
	scratch_identity(name, email, r->s.date);
	gm = path_join(r->s.work, "scripts/get_maintainer.pl");
	if (!is_file(gm) && scratch_kernel_scripts(r->s.work, o->quiet) < 0)
		die_code(EXIT_TOOL, "'%s' has no scripts/get_maintainer.pl and none could be found", r->t->root);
	free(gm);
	r->m.work = r->s.work;
	kb = path_join(r->s.work, "Kbuild");
	r->m.no_tree = !is_file(kb);
	free(kb);
	r->m.history = r->s.from_git;
	if (r->infra) {
		series_progress(o, "applying %s", r->infra);
		if (scratch_git(&r->s, NULL, o->quiet, "am", "-q", "--keep-non-patch", r->infra, NULL) != 0) {
			scratch_git(&r->s, NULL, true, "am", "--abort", NULL);
			die_code(EXIT_INPUT, "the infrastructure patch '%s' does not apply to '%s'", r->infra, r->t->root);
		}
		push_head(r);
	}
}

void series_build(struct series_run *r, const struct series_opts *o, const struct tree *t)
{
	struct convert cv;
	struct config cfg;
	char *name, *email, *scan_write = NULL;

	memset(r, 0, sizeof(*r));
	r->o = o;
	r->t = t;
	r->t0 = now_seconds();
	r->refused = json_array();
	r->converted = json_array();
	r->commits = json_array();
	identity(o, t, &name, &email);
	r->signoff = xasprintf("%s <%s>", name, email);
	r->infra = infra_patch(r, name, email);
	r->stage = series_stage(o->out);
	if (!o->scan)
		scan_write = path_join(r->stage, "scan");
	r->scan = pipeline_scan(t, o->scan, scan_write, o->arches, o->quiet);
	free(scan_write);
	open_scratch(r, name, email);
	/* what the configuration builds: only that is converted */
	{
		/* the architectures of the scan's --arch, unless --arch says otherwise */
		struct strbuf as = STRBUF_INIT;
		json_t *x;
		size_t i;

		json_array_foreach(json_object_get(json_object_get(r->scan, "tree"), "arches"), i, x)
			sb_addf(&as, "%s%s", i ? "," : "", json_string_value(x));
		cfg_open(&cfg, t, o->config, o->arches ? o->arches : as.buf, o->quiet);
		sb_release(&as);
	}
	convert_init(&cv, r->s.work, cocci_dir());
	plan_groups(r, &cv, &cfg);
	/* apply (in parallel where the files are disjoint), then commit, group by group */
	series_apply(r, &cv);
	for (size_t k = 0; k < r->ngroups; k++)
		commit_group(r, &r->groups[k]);
	convert_release(&cv);
	cfg_close(&cfg);
	free(name);
	free(email);
}

void series_run_free(struct series_run *r)
{
	for (size_t k = 0; k < r->ngroups; k++) {
		free(r->groups[k].key);
		free(r->groups[k].section);
		json_decref(r->groups[k].plans);
		json_decref(r->groups[k].done);
		free(r->groups[k].commit);
	}
	free(r->groups);
	scratch_free(&r->s);
	json_decref(r->commits);
	json_decref(r->converted);
	json_decref(r->refused);
	json_decref(r->scan);
	free(r->signoff);
	free(r->infra);
	free(r->stage);
}
