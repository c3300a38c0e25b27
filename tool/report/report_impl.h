/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report_impl.h - the sections of the page after the summary, which
 * report.c calls (report_table.c, census_report.c); the orders of the
 * classes are in output.h, the class chip in html.h.
 * Internal to the report; other commands use report.h.
 */
#ifndef POLLTAX_REPORT_IMPL_H
#define POLLTAX_REPORT_IMPL_H

#include "lib/util.h"

#include <jansson.h>

/*
 * The MAINTAINERS section an implementation is grouped under ("section" of
 * polltax.json; NO_SECTION when only THE REST claims its file), and
 * whether the scan recorded sections at all (scans before it did not).
 */
#define NO_SECTION "(no MAINTAINERS section)"
const char *report_section_of(json_t *x);
bool report_has_sections(json_t *r);
void implementations_section(struct strbuf *sb, json_t *r, const char *url);
void disagreements_section(struct strbuf *sb, json_t *r, const char *url);
void layers_section(struct strbuf *sb, json_t *r);
void files_section(struct strbuf *sb, json_t *r);
/* census_report.c: a line for the summary, and the section of the census */
void census_summary_line(struct strbuf *sb, json_t *r);
void census_section(struct strbuf *sb, json_t *r, const char *url);

#endif
