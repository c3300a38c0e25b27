/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report_impl.h - what report.c and report_table.c share: the sections
 * of the page after the summary, and small accessors of the scan's facts.
 * Internal to the report; other commands use report.h.
 */
#ifndef POLLTAX_REPORT_IMPL_H
#define POLLTAX_REPORT_IMPL_H

#include "util.h"

#include <jansson.h>

long long rnum(json_t *o, const char *k);	/* 0 when missing */

/* Convertibility in report order: converted, yes, needs-open, review, no, excluded. */
extern const char *const conv_order[];
int class_index(const char *cls);	/* position in class_order, 99 when unknown */
int conv_index(const char *conv);

/* A class chip; with filter, clicking it filters the implementations table. */
void html_class_chip(struct strbuf *sb, const char *cls, bool filter);

void implementations_section(struct strbuf *sb, json_t *r, const char *url);
void disagreements_section(struct strbuf *sb, json_t *r, const char *url);
void layers_section(struct strbuf *sb, json_t *r);
void files_section(struct strbuf *sb, json_t *r);
/* census_report.c: a line for the summary, and the section of the census */
void census_summary_line(struct strbuf *sb, json_t *r);
void census_section(struct strbuf *sb, json_t *r, const char *url);

#endif
