/* SPDX-License-Identifier: GPL-2.0 */
/*
 * series.h - "polltax series": the engine and its words.
 *
 *   series_build.c  series_build(): the scratch tree, the infrastructure
 *                   patch, the conversions planned, grouped per MAINTAINERS
 *                   section and committed
 *   series_apply.c  series_apply(): the plans applied before the commits,
 *                   in parallel where they share no file
 *   series_post.c   series_post(): the commits split into postings, git
 *                   format-patch, To:/Cc:, cover letters, README.md and
 *                   series.json, the output directory replaced at once;
 *                   series_dir_patches(), the one reader of that layout
 *                   (verify, boot-test)
 *   series.c        the words: the commit message of a conversion patch,
 *                   the cover letter of a posting, the README of the
 *                   output, and the edits git format-patch's output needs
 *                   (To:/Cc:, the cover letter's subject and blurb)
 *
 * cmd_series.c only parses the options.
 */
#ifndef POLLTAX_SERIES_H
#define POLLTAX_SERIES_H

#include <jansson.h>
#include "lib/maintainers.h"
#include "lib/scratch.h"
#include "lib/tree.h"
#include "lib/util.h"

/* ---- the engine ---- */

struct series_opts {
	const char *out;		/* -o DIR, absolute */
	const char *out_typed;		/* -o DIR as typed, for messages */
	const char *scan;		/* --scan SCAN_DIR, absolute, or NULL */
	const char *signoff;		/* "Name <mail>", or NULL: git's configuration */
	const char *infra;		/* --infra PATCH, absolute, or NULL */
	const char *config;		/* --config TARGET */
	const char *arches;		/* --arch LIST (lib/arch.h), or NULL: those of the scan */
	char *tested;			/* --tested: the text of boot-test.md, or NULL */
	bool no_infra, split, quiet;
	int max;			/* --max-patches */
	struct strvec only;		/* --only FUNC ... */
	const char *subject_prefix;	/* --subject-prefix, NULL: git's "PATCH" */
	bool rfc;			/* --rfc: "RFC " before the prefix */
	bool review;			/* --review: the single-cond conversions left to review, as an RFC */
	int reroll;			/* -v N, 0: none */
	const char *section;		/* --section NAME, NULL: every section */
};

struct series_group {
	char *key;		/* section, or section + file with --split-per-driver */
	char *section;
	json_t *plans;		/* planned, in scan order */
	json_t *done;		/* applied */
	char *commit;
};

/* What series_build() made, for series_post(). */
struct series_run {
	const struct series_opts *o;
	const struct tree *t;
	struct scratch s;
	struct maint m;
	char *stage;		/* the output is written here, then renamed to o->out */
	char *infra;		/* the infrastructure patch applied, or NULL */
	bool infra_made;	/* it is polltax's, made for the tree */
	char *signoff;		/* "Name <mail>" */
	json_t *scan;
	json_t *converted;	/* the plans applied */
	json_t *refused;	/* the plans refused, with their reasons */
	json_t *commits;	/* in order: the infrastructure patch, then one per group */
	struct series_group *groups;
	size_t ngroups;
	double t0;
};

/*
 * Everything up to the commits: the identity, the infrastructure patch,
 * the staging directory next to O->out, the scan, the scratch tree, the
 * plans (only what O->config builds, O->only, O->section), grouped and
 * committed.  Dies on failure (exit codes as "polltax series" documents).
 */
void series_build(struct series_run *r, const struct series_opts *o, const struct tree *t);
/*
 * Apply every plan of R's groups to the scratch tree (series_apply.c):
 * plans that share no file in parallel worker processes, those that do
 * in one worker in the series' order.  Each plan gets "applied" (true,
 * or false with "apply_reason"), and what the application found
 * ("export", "fops_macros").
 */
struct convert;
void series_apply(struct series_run *r, struct convert *cv);
/* The postings, README.md and series.json, and O->out replaced by them. */
void series_post(struct series_run *r);
void series_run_free(struct series_run *r);

/* "polltax: ..." on stderr unless O->quiet. */
void series_progress(const struct series_opts *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Check O->out (missing, or a previous series) and create the staging directory next to it. */
char *series_stage(const char *out);

/*
 * The patches of a series directory as series_post() writes it: DIR's
 * *.patch files, or, when it has none, those of DIR/posting-1/,
 * posting-2/, ..., in order, as DIR/NAME paths.  The cover letters (named
 * so, or without a diff) go to COVERS (may be NULL), and a later
 * posting's copy of the first patch is left out.  Dies when DIR cannot
 * be read.
 */
void series_dir_patches(const char *dir, struct strvec *patches, struct strvec *covers);

/* ---- the words (series.c) ---- */

/* Wrap TEXT (paragraphs separated by blank lines) at WIDTH columns; lines starting with a space are kept. */
void series_wrap(struct strbuf *out, const char *text, int width);

/*
 * Commit message of one conversion patch: PREFIX, SECTION, the plans
 * converted (each with "describe"), SIGNOFF ("Name <mail>").
 */
char *series_commit_message(const char *prefix, const char *section, json_t *plans, const char *signoff);
/*
 * Its subject: "PREFIX: convert FN() to ->poll_mask()" or "PREFIX: convert
 * N ->poll() to ->poll_mask()", shortened the same way every time until it
 * has at most 75 characters (no function, then a shorter prefix).
 */
char *series_subject(const char *prefix, json_t *plans);

/*
 * The cover letter's subject and body for posting K of N.  S holds what
 * the series knows: "version", "patches" (this posting's: subject,
 * section, count), "converted", "refused" (plans), "scan" (the scan),
 * "command", "infra" (subject or null), "measurements" (text or null).
 */
char *series_cover_subject(json_t *s, int k, int n);
char *series_cover_body(json_t *s, int k, int n);

/* README.md of the output directory. */
char *series_readme(json_t *s);

/*
 * Edit a format-patch file: add To:/Cc: after the Subject header; for a
 * cover letter also put SUBJECT and BODY in place of git's placeholders.
 */
int series_edit_patch(const char *path, const struct strvec *to, const struct strvec *cc, const char *subject,
		      const char *body);

#endif
