// SPDX-License-Identifier: GPL-2.0
/*
 * series_post.c - series_post() (series.h): the commits series_build()
 * made, split into postings of at most --max-patches patches, each run
 * through git format-patch with its cover letter and To:/Cc: from
 * get_maintainer.pl; then README.md and series.json.  The output
 * directory is built next to DIR and replaced as a whole, atomically.
 * series_dir_patches() reads that layout back, for verify and boot-test.
 */
#define _GNU_SOURCE
#include "infra.h"
#include "scan/pipeline.h"
#include "series.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The staging directory of this run, removed if it dies before the rename (die() exits). */
static char *stage_dir;
static pid_t stage_owner;

static void remove_stage(void)
{
	if (stage_dir && getpid() == stage_owner && is_dir(stage_dir))
		rm_rf(stage_dir);
}

void series_progress(const struct series_opts *o, const char *fmt, ...)
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

/* OUT without its trailing slashes. */
static char *out_dir(const char *out)
{
	char *d = xstrdup(out);

	while (strlen(d) > 1 && d[strlen(d) - 1] == '/')
		d[strlen(d) - 1] = '\0';
	return d;
}

char *series_stage(const char *out)
{
	char *outdir = out_dir(out), *stage;

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
	free(outdir);
	return xstrdup(stage);
}

/* DIR <- stage */
static void stage_commit(const char *stage, const char *outdir)
{
	char *old = xasprintf("%s.old-%d", outdir, (int)getpid());

	if (is_dir(outdir) && rename(outdir, old) < 0)
		die("cannot move '%s' away: %s", outdir, strerror(errno));
	if (rename(stage, outdir) < 0)
		die("cannot rename '%s' to '%s': %s", stage, outdir, strerror(errno));
	free(stage_dir);
	stage_dir = NULL;
	if (is_dir(old))
		rm_rf(old);
	free(old);
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

/*
 * The command, for the cover letter and README: the options that change
 * the output, with the paths as placeholders, so that where the tree and
 * the output live does not change a byte.
 */
static char *command_line(const struct series_opts *o)
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
	if (o->section)
		sb_addf(&sb, " --section \"%s\"", o->section);
	if (o->review)
		sb_adds(&sb, " --review");
	else if (o->rfc)
		sb_adds(&sb, " --rfc");
	if (o->subject_prefix)
		sb_addf(&sb, " --subject-prefix \"%s\"", o->subject_prefix);
	if (o->reroll)
		sb_addf(&sb, " -v %d", o->reroll);
	sb_adds(&sb, " -o DIR KERNEL_DIR");
	return sb_detach(&sb);
}

/* "[PREFIX n/m]": --subject-prefix (git's default "PATCH"), "RFC " before it with --rfc, as b4 does. */
static char *subject_prefix(const struct series_opts *o)
{
	return xasprintf("%s%s", o->rfc ? "RFC " : "", o->subject_prefix ? o->subject_prefix : "PATCH");
}

/* What the cover letters and README say of the series as a whole (series.h: series_cover_body()). */
static json_t *series_info(const struct series_run *r)
{
	const struct series_opts *o = r->o;
	json_t *info = json_object(), *ex = json_array(), *x;
	char *cmdline = command_line(o), *source = NULL, *ms = measurements(r->infra, r->infra_made, &source);
	size_t i;

	json_object_set_new(info, "version", json_string(r->t->version));
	json_object_set_new(info, "base_version", json_string(""));
	json_object_set(info, "scan", r->scan);
	json_object_set(info, "converted", r->converted);
	json_object_set(info, "refused", r->refused);
	if (o->review)
		json_object_set_new(info, "review", json_true());
	if (!o->review) {	/* for polltax progress: next to the scan it used (the ready series' refusals) */
		char *sd = r->o->scan ? xstrdup(r->o->scan) : path_join(r->stage, "scan");

		pipeline_record_refused(sd, r->scan, r->refused);
		free(sd);
	}
	json_object_set_new(info, "command", json_string(cmdline));
	json_object_set_new(info, "max_patches", json_integer(o->max));
	json_object_set_new(info, "infra", r->infra ? json_string(strrchr(r->infra, '/') + 1) : json_null());
	json_object_set_new(info, "measurements", ms ? json_string(ms) : json_null());
	if (o->tested)
		json_object_set_new(info, "tested", json_string(o->tested));
	if (ms)
		json_object_set_new(info, "measurements_source", json_string(source));
	if (r->infra && r->infra_made) {
		char *v = xstrdup(r->t->version), *d = strchr(v, '.');

		/* VERSION.PATCHLEVEL */
		if (d && (d = strchr(d + 1, '.')))
			*d = '\0';
		json_object_set_new(info, "base_version", json_string(v));
		free(v);
	} else if (r->infra) {
		char *d = xstrdup(r->infra), *b;

		*strrchr(d, '/') = '\0';
		b = strrchr(d, '/');
		json_object_set_new(info, "base_version", json_string(b ? b + 1 : d));
		free(d);
	}
	/* only when asked for: without them, series.json stays as it was */
	if (o->reroll)
		json_object_set_new(info, "reroll_count", json_integer(o->reroll));
	if (o->rfc || o->subject_prefix) {
		char *sp = subject_prefix(o);

		json_object_set_new(info, "subject_prefix", json_string(sp));
		free(sp);
	}
	if (o->section)
		json_object_set_new(info, "section", json_string(o->section));
	json_object_set_new(info, "conversion_patches",
			    json_integer((json_int_t)json_array_size(r->commits) - (r->infra ? 1 : 0)));
	/* two example commands: the first conversion with a creation site */
	json_array_foreach(r->converted, i, x)
		if (json_array_size(json_object_get(x, "commands")) > 1) {
			json_array_extend(ex, json_object_get(x, "commands"));
			break;
		}
	json_object_set_new(info, "example_commands", ex);
	free(source);
	free(ms);
	free(cmdline);
	return info;
}

/* git format-patch of RANGE into PDIR, as --subject-prefix, --rfc and -v ask. */
static void format_patch(const struct series_run *r, const char *range, const char *pdir)
{
	const struct series_opts *o = r->o;
	struct strvec argv = STRVEC_INIT;
	struct strbuf out = STRBUF_INIT;

	sv_push(&argv, "git");
	sv_push(&argv, "format-patch");
	sv_push(&argv, "-q");
	sv_push(&argv, "--cover-letter");
	sv_push(&argv, "--numbered");
	sv_push(&argv, "--abbrev=12");
	if (r->s.from_git)
		sv_pushf(&argv, "--base=%s", r->s.base);
	if (o->rfc || o->subject_prefix) {
		char *sp = subject_prefix(o);

		sv_pushf(&argv, "--subject-prefix=%s", sp);
		free(sp);
	}
	if (o->reroll)
		sv_pushf(&argv, "--reroll-count=%d", o->reroll);
	sv_push(&argv, "-o");
	sv_push(&argv, pdir);
	sv_push(&argv, range);
	if (run_cmd((const char *const *)argv.v, r->s.work, &out, o->quiet) != 0)
		die("git format-patch failed in '%s'", r->s.work);
	sb_release(&out);
	sv_clear(&argv);
}

/* The entry of series.json for the patch file F of COMMIT; its To:/Cc: added to F and to the cover's. */
static json_t *patch_entry(const struct series_run *r, const char *f, const char *commit, struct strvec *cov_to,
			   struct strvec *cov_cc)
{
	struct strvec pto = STRVEC_INIT, pcc = STRVEC_INIT;
	json_t *pp = json_object();
	struct strbuf subj = STRBUF_INIT;

	if (maint_recipients(&r->m, f, &pto, &pcc) < 0)
		die("cannot find the recipients of '%s'", f);
	series_edit_patch(f, &pto, &pcc, NULL, NULL);
	for (size_t i = 0; i < pto.n; i++)
		if (!sv_contains(cov_to, pto.v[i]))
			sv_push(cov_to, pto.v[i]);
	for (size_t i = 0; i < pcc.n; i++)
		if (!sv_contains(cov_cc, pcc.v[i]) && !sv_contains(cov_to, pcc.v[i]))
			sv_push(cov_cc, pcc.v[i]);
	scratch_git(&r->s, &subj, true, "log", "-1", "--format=%s", commit, NULL);
	json_object_set_new(pp, "file", json_string(strrchr(f, '/') + 1));
	json_object_set_new(pp, "commit", json_string(commit));
	while (subj.len && (subj.buf[subj.len - 1] == '\n' || subj.buf[subj.len - 1] == ' '))
		subj.buf[--subj.len] = '\0';
	json_object_set_new(pp, "subject", json_string(subj.len ? subj.buf : ""));
	sb_release(&subj);
	json_object_set_new(pp, "section", json_string(""));
	json_object_set_new(pp, "count", json_integer(0));
	for (size_t gi = 0; gi < r->ngroups; gi++)
		if (r->groups[gi].commit && !strcmp(r->groups[gi].commit, commit)) {
			json_object_set_new(pp, "section", json_string(r->groups[gi].section));
			json_object_set_new(pp, "count", json_integer((json_int_t)json_array_size(r->groups[gi].done)));
			json_object_set(pp, "functions", r->groups[gi].done);
		}
	sv_clear(&pto);
	sv_clear(&pcc);
	return pp;
}

/* Posting PI of NP: the commits FIRST.. (COUNT of them), formatted with their cover letter. */
static json_t *posting(const struct series_run *r, json_t *info, size_t pi, size_t np, size_t first, size_t count)
{
	char *dir = np > 1 ? xasprintf("posting-%zu", pi + 1) : xstrdup("");
	char *pdir = *dir ? path_join(r->stage, dir) : xstrdup(r->stage);
	const char *from = json_string_value(json_array_get(r->commits, first));
	const char *to = json_string_value(json_array_get(r->commits, first + count - 1));
	char *range = xasprintf("%s^..%s", from, to), *pat, *subject, *body;
	json_t *pjson = json_object(), *plist = json_array();
	struct strvec cov_to = STRVEC_INIT, cov_cc = STRVEC_INIT, cc2 = STRVEC_INIT;
	glob_t g;

	if (mkdir_p(pdir) < 0)
		die("cannot create '%s': %s", pdir, strerror(errno));
	format_patch(r, range, pdir);
	pat = r->o->reroll ? xasprintf("%s/v%d-0*.patch", pdir, r->o->reroll) : path_join(pdir, "0*.patch");
	if (glob(pat, 0, NULL, &g) != 0)
		die("git format-patch wrote nothing to '%s'", pdir);
	/* the recipients of every patch asked side by side; patch_entry() then reads them */
	maint_prefetch(&r->m, NULL, (const char *const *)g.gl_pathv + 1, g.gl_pathc - 1, online_cpus());
	for (size_t fi = 1; fi < g.gl_pathc; fi++)
		json_array_append_new(plist, patch_entry(r, g.gl_pathv[fi],
							 json_string_value(json_array_get(r->commits, first + fi - 1)),
							 &cov_to, &cov_cc));
	json_object_set_new(pjson, "dir", json_string(dir));
	json_object_set_new(pjson, "patches", plist);
	json_object_set(info, "patches", plist);
	/* To: wins over Cc: for who is in both (a reviewer here, a maintainer there) */
	for (size_t i = 0; i < cov_cc.n; i++)
		if (!sv_contains(&cov_to, cov_cc.v[i]))
			sv_push(&cc2, cov_cc.v[i]);
	subject = series_cover_subject(info, (int)pi + 1, (int)np);
	body = series_cover_body(info, (int)pi + 1, (int)np);
	series_edit_patch(g.gl_pathv[0], &cov_to, &cc2, subject, body);
	free(subject);
	free(body);
	globfree(&g);
	free(pat);
	sv_clear(&cov_to);
	sv_clear(&cov_cc);
	sv_clear(&cc2);
	free(range);
	free(pdir);
	free(dir);
	return pjson;
}

/* README.md and series.json (without the scan, which has its own file) */
static void write_readme_json(const struct series_run *r, json_t *info)
{
	char *readme = series_readme(info), *p = path_join(r->stage, "README.md");
	json_t *sj = json_deep_copy(info);
	char *sjp = path_join(r->stage, "series.json"), *dump;
	struct strbuf sb = STRBUF_INIT;

	if (write_file_atomic(p, readme, strlen(readme)) < 0)
		die("cannot write '%s'", p);
	json_object_del(sj, "scan");
	json_object_set_new(sj, "base", r->s.from_git ? json_string(r->s.base) : json_null());
	json_object_set_new(sj, "tree", json_string(r->t->version));
	dump = json_dumps(sj, JSON_INDENT(2) | JSON_SORT_KEYS);
	sb_adds(&sb, dump);
	sb_addc(&sb, '\n');
	if (write_file_atomic(sjp, sb.buf, sb.len) < 0)
		die("cannot write '%s'", sjp);
	sb_release(&sb);
	free(dump);
	json_decref(sj);
	free(sjp);
	free(readme);
	free(p);
}

void series_post(struct series_run *r)
{
	json_t *info = series_info(r), *postings = json_array();
	size_t total = json_array_size(r->commits), np = (total + (size_t)r->o->max - 1) / (size_t)r->o->max, first = 0;
	char *outdir = out_dir(r->o->out);

	/* postings of at most o->max patches, each formatted with its cover letter */
	if (!total)
		die_code(EXIT_INPUT, "nothing to send: the tree already has the infrastructure (f_poll_head) and "
			 "%s; no series written to '%s'", json_array_size(r->refused) ?
			 "every auto-convertible implementation was refused (polltax convert --plan says why)" :
			 r->o->section ? "the scan found nothing auto-convertible in this MAINTAINERS section" :
			 "the scan found nothing auto-convertible", r->o->out_typed ? r->o->out_typed : outdir);
	for (size_t pi = 0; pi < np; pi++) {
		size_t count = (total - first + (np - pi) - 1) / (np - pi);	/* even split */

		json_array_append_new(postings, posting(r, info, pi, np, first, count));
		first += count;
	}
	json_object_del(info, "patches");
	json_object_set(info, "postings", postings);
	write_readme_json(r, info);
	stage_commit(r->stage, outdir);
	series_progress(r->o, "%zu patches in %zu posting%s: %zu implementations converted, %zu refused; wrote %s (%.0f s)",
			total, json_array_size(postings), json_array_size(postings) > 1 ? "s" : "",
			json_array_size(r->converted), json_array_size(r->refused),
			r->o->out_typed ? r->o->out_typed : outdir, now_seconds() - r->t0);
	json_decref(info);
	json_decref(postings);
	free(outdir);
}

/* The *.patch files of DIR, sorted, appended to OUT as DIR/NAME. */
static void patches_in(const char *dir, struct strvec *out)
{
	struct strvec names = STRVEC_INIT;
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d)
		die_code(EXIT_INPUT, "cannot open series directory '%s': %s", dir, strerror(errno));
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name);

		if (n > 6 && !strcmp(de->d_name + n - 6, ".patch"))
			sv_push(&names, de->d_name);
	}
	closedir(d);
	sv_sort(&names);
	for (size_t i = 0; i < names.n; i++)
		sv_pushf(out, "%s/%s", dir, names.v[i]);
	sv_clear(&names);
}

void series_dir_patches(const char *dir, struct strvec *patches, struct strvec *covers)
{
	struct strvec paths = STRVEC_INIT;
	char *first = NULL;
	size_t ncovers = 0;

	patches_in(dir, &paths);
	/* a long series: DIR/posting-1/, posting-2/, ... (each may start with the infrastructure patch again) */
	for (int i = 1; !paths.n || i > 1; i++) {
		char *sub = xasprintf("%s/posting-%d", dir, i);
		bool more = is_dir(sub);

		if (more)
			patches_in(sub, &paths);
		free(sub);
		if (!more)
			break;
	}
	for (size_t i = 0; i < paths.n; i++) {
		const char *path = paths.v[i], *name = strrchr(path, '/') + 1;
		char *text;

		if (read_file(path, &text, NULL) < 0)
			die_code(EXIT_INPUT, "cannot read '%s': %s", path, strerror(errno));
		if (strstr(name, "cover-letter") || !strstr(text, "\ndiff --git ")) {
			if (ncovers++ && !strstr(name, "cover-letter"))
				warning("'%s' has no diff: left out like the cover letter", path);
			if (covers)
				sv_push(covers, path);
		} else if (first && !strcmp(first, text)) {
			;	/* a later posting's copy of the infrastructure patch */
		} else {
			sv_push(patches, path);
			if (!first)
				first = xstrdup(text);
		}
		free(text);
	}
	free(first);
	sv_clear(&paths);
}
