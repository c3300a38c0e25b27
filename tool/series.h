/* SPDX-License-Identifier: GPL-2.0 */
/*
 * series.h - the words of a series: the commit message of a conversion
 * patch, the cover letter of a posting, the README of the output, and
 * the edits git format-patch's output needs (To:/Cc:, the cover letter's
 * subject and blurb).  cmd_series.c makes the commits and runs git.
 */
#ifndef POLLTAX_SERIES_H
#define POLLTAX_SERIES_H

#include <jansson.h>
#include "util.h"

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
