// SPDX-License-Identifier: GPL-2.0
/*
 * progress.c - the rows and the chart of a history.json (see progress.h).
 * Feeds no class: it counts what the scans recorded, per entry,
 * "converted" (class converted), "convertible" (convertible "yes" that
 * 'polltax series' did not refuse), "refused" (what it refused) and
 * "flagged" (convertible "no").  The chart is written by hand as SVG with
 * fixed geometry and one decimal per coordinate, so the same history
 * always gives the same bytes.
 */
#define _GNU_SOURCE
#include "progress.h"
#include "lib/json_util.h"
#include "html.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

void progress_row(json_t *e, struct progress_row *r)
{
	json_t *bv = json_object_get(e, "by_convertible");

	const char *d = jstr(e, "git_describe");

	r->date = jstr(e, "date");
	r->label = d[0] ? d : jstr(e, "version");
	if (jstr(e, "label")[0]) {	/* 'scan --label' */
		r->label = jstr(e, "label");
		d = "";
	}
	/* no tag: 'git describe --always' is a bare hash, which says nothing of when: add the commit's date */
	if (d[0] && strspn(d, "0123456789abcdef") == strlen(d) && jstr(e, "git_date")[0]) {
		snprintf(r->buf, sizeof(r->buf), "%s@%s", d, jstr(e, "git_date"));
		r->label = r->buf;
	}
	r->implementations = jint(e, "implementations");
	r->converted = jint(bv, "converted");
	r->refused = jint(e, "refused");
	r->yes = jint(bv, "yes") - r->refused;
	r->needs_open = jint(bv, "needs-open");
	r->review = jint(bv, "review");
	r->no = jint(bv, "no");
}

static const char *const heads[] = {
	"date", "version", "implementations", "converted", "convertible", "refused", "needs-open", "review", "flagged",
};
#define NHEADS (int)(sizeof(heads) / sizeof(heads[0]))

/*
 * The text table fits 80 columns for a version of up to 20 characters: the
 * day of each scan (history.json has the time), short column names, and a
 * legend under the table for the short names.
 */
static const char *const short_heads[] = {
	"day", "version", "total", "conv", "todo", "refused", "open", "review", "flag",
};

void progress_table_text(struct strbuf *sb, json_t *history)
{
	int wl = 7;
	json_t *e;
	size_t i;

	json_array_foreach(history, i, e) {
		struct progress_row r;

		progress_row(e, &r);
		if ((int)strlen(r.label) > wl)
			wl = (int)strlen(r.label);
	}
	sb_addf(sb, "%-10s  %-*s", short_heads[0], wl, short_heads[1]);
	for (int c = 2; c < NHEADS; c++)
		sb_addf(sb, "  %*s", (int)strlen(short_heads[c]), short_heads[c]);
	sb_addc(sb, '\n');
	json_array_foreach(history, i, e) {
		struct progress_row r;

		progress_row(e, &r);
		sb_addf(sb, "%-10.10s  %-*s  %5lld  %4lld  %4lld  %7lld  %4lld  %6lld  %4lld\n", r.date, wl, r.label,
			r.implementations, r.converted, r.yes, r.refused, r.needs_open, r.review, r.no);
	}
	sb_adds(sb, "(total: implementations; conv: converted; todo: convertible, not refused by\n"
		    " 'polltax series'; open: needs-open; flag: flagged, convertible no)\n");
}

void progress_table_markdown(struct strbuf *sb, json_t *history)
{
	json_t *e;
	size_t i;

	sb_adds(sb, "|");
	for (int c = 0; c < NHEADS; c++)
		sb_addf(sb, " %s |", heads[c]);
	sb_adds(sb, "\n|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
	json_array_foreach(history, i, e) {
		struct progress_row r;

		progress_row(e, &r);
		sb_addf(sb, "| %s | %s | %lld | %lld | %lld | %lld | %lld | %lld | %lld |\n", r.date, r.label,
			r.implementations, r.converted, r.yes, r.refused, r.needs_open, r.review, r.no);
	}
}

/* Chart geometry (SVG user units); the width grows for long labels (chart_width()). */
enum { W0 = 760, H = 360, ML = 64, MR = 170, MT = 40, MB = 78 };
static int W = W0;

/* Labels: about 6.7 units a character at font-size 12; wrapped at spaces into lines of LABEL_LINE characters. */
#define CHAR_W 6.7
enum { LABEL_LINE = 14, LABEL_LINES = 3 };

/*
 * Split LABEL at spaces into at most LABEL_LINES lines of about LABEL_LINE
 * characters (a longer word keeps its line; the last line takes the rest):
 * the start and length of each in START[] and LEN[]; returns the count.
 */
static int wrap_label(const char *label, const char **start, int *len)
{
	int n = 0;
	const char *p = label;

	while (*p && n < LABEL_LINES) {
		const char *end = p, *sp;

		while (*p == ' ')
			p++;
		end = p;
		if (n == LABEL_LINES - 1) {
			end = p + strlen(p);
		} else {
			/* take words while the line stays within LABEL_LINE, at least one */
			while (*end) {
				const char *w = end;

				while (*w == ' ')
					w++;
				sp = strchr(w, ' ');
				if (!sp)
					sp = w + strlen(w);
				if (end != p && sp - p > LABEL_LINE)
					break;
				end = sp;
			}
		}
		if (end == p)
			break;
		start[n] = p;
		len[n++] = (int)(end - p);
		p = end;
	}
	return n;
}

/*
 * The chart's width: W0, unless a label does not fit between two points;
 * then the labels are wrapped (*WRAP) and the points spaced for the
 * longest line.  Short labels keep the chart as it always was.
 */
static int chart_width(const struct progress_row *rows, size_t n, bool *wrap)
{
	double room = n > 1 ? (W0 - ML - MR - 40) / (double)(n - 1) : W0;
	size_t longest = 0;
	int widest = 0;

	*wrap = false;
	for (size_t i = 0; i < n; i++)
		if (strlen(rows[i].label) > longest)
			longest = strlen(rows[i].label);
	if (n < 2 || (double)longest * CHAR_W + 8 <= room)
		return W0;
	*wrap = true;
	for (size_t i = 0; i < n; i++) {
		const char *st[LABEL_LINES];
		int ln[LABEL_LINES], k = wrap_label(rows[i].label, st, ln);

		for (int j = 0; j < k; j++)
			if (ln[j] > widest)
				widest = ln[j];
	}
	room = (double)widest * CHAR_W + 12;
	return (double)(W0 - ML - MR - 40) / (double)(n - 1) >= room ? W0 :
		ML + MR + 40 + (int)(room * (double)(n - 1) + 0.5);
}

/* A round tick step (1, 2 or 5 times a power of ten) giving at most 6 ticks above 0. */
static long long tick_step(long long v)
{
	for (long long p = 1; ; p *= 10)
		for (int k = 0; k < 3; k++) {
			long long step = p * (k == 0 ? 1 : k == 1 ? 2 : 5);

			if ((v + step - 1) / step <= 6)
				return step;
		}
}

static const struct series {
	const char *name, *color;
	size_t off;
} series[] = {
	{ "converted", "#2e7d32", offsetof(struct progress_row, converted) },
	{ "convertible (yes)", "#1565c0", offsetof(struct progress_row, yes) },
	{ "flagged (no)", "#c62828", offsetof(struct progress_row, no) },
};

static long long value(const struct progress_row *r, const struct series *s)
{
	return *(const long long *)((const char *)r + s->off);
}

static double xpos(size_t i, size_t n)
{
	double pw = W - ML - MR;

	return n < 2 ? ML + pw / 2 : ML + 20 + (pw - 40) * (double)i / (double)(n - 1);
}

static double ypos(long long v, long long max)
{
	double ph = H - MT - MB;

	return MT + ph - ph * (double)v / (double)max;
}

void progress_svg(struct strbuf *sb, json_t *history)
{
	size_t n = json_array_size(history), i, every;
	struct progress_row *rows = xcalloc(n ? n : 1, sizeof(*rows));
	long long max = 0, step;
	bool wrap;

	for (i = 0; i < n; i++)
		progress_row(json_array_get(history, i), &rows[i]);
	W = chart_width(rows, n, &wrap);
	for (i = 0; i < n; i++) {
		for (size_t s = 0; s < sizeof(series) / sizeof(series[0]); s++)
			if (value(&rows[i], &series[s]) > max)
				max = value(&rows[i], &series[s]);
	}
	if (max < 1)
		max = 1;
	step = tick_step(max);
	max = (max + step - 1) / step * step;
	sb_addf(sb, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"%d\" height=\"%d\" "
		    "viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"conversion progress\" "
		    "font-family=\"sans-serif\" font-size=\"12\">\n", W, H, W, H);
	sb_adds(sb, "<title>polltax: conversion progress across scans</title>\n");
	sb_addf(sb, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", W, H);
	sb_addf(sb, "<text x=\"%d\" y=\"22\" font-size=\"15\" font-weight=\"bold\" fill=\"#222\">"
		    "->poll implementations per scan</text>\n", ML);
	/* y grid, ticks and label */
	for (long long t = 0; t <= max; t += step) {
		double y = ypos(t, max);

		sb_addf(sb, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\"/>\n", ML, y, W - MR, y,
			t ? "#e3e3e3" : "#555");
		sb_addf(sb, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" fill=\"#444\">%lld</text>\n", ML - 6,
			y + 4, t);
	}
	sb_addf(sb, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#555\"/>\n", ML, MT, ML, H - MB);
	sb_addf(sb, "<text transform=\"translate(16 %d) rotate(-90)\" text-anchor=\"middle\" fill=\"#444\">"
		    "implementations</text>\n", MT + (H - MT - MB) / 2);
	sb_addf(sb, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"#444\">scan (version, date)</text>\n",
		ML + (W - ML - MR) / 2, H - 8);
	if (!n)
		sb_addf(sb, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"#888\">no scans recorded"
			    "</text>\n", ML + (W - ML - MR) / 2, MT + (H - MT - MB) / 2);
	/* x labels: at most about 12, the last one always */
	every = n > 12 ? (n + 11) / 12 : 1;
	for (i = 0; i < n; i++) {
		double x = xpos(i, n);

		if (i % every && i != n - 1)
			continue;
		sb_addf(sb, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#555\"/>\n", x, H - MB, x,
			H - MB + 5);
		if (wrap) {
			const char *st[LABEL_LINES];
			int ln[LABEL_LINES], k = wrap_label(rows[i].label, st, ln);

			for (int j = 0; j < k; j++) {
				sb_addf(sb, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#222\">", x,
					H - MB + 17 + 13 * j);
				sb_add_escf(sb, "%.*s", ln[j], st[j]);
				sb_adds(sb, "</text>\n");
			}
			sb_addf(sb, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"10\" "
				    "fill=\"#777\">", x, H - MB + 17 + 13 * k);
		} else {
			sb_addf(sb, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#222\">", x, H - MB + 19);
			sb_add_esc(sb, rows[i].label);
			sb_addf(sb, "</text>\n<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"10\" "
				    "fill=\"#777\">", x, H - MB + 33);
		}
		sb_add_escf(sb, "%.10s", rows[i].date);
		sb_adds(sb, "</text>\n");
	}
	for (size_t s = 0; s < sizeof(series) / sizeof(series[0]); s++) {
		const struct series *se = &series[s];
		double ly = MT + 10 + 22.0 * (double)s;

		if (n > 1) {
			sb_addf(sb, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2.5\" points=\"", se->color);
			for (i = 0; i < n; i++)
				sb_addf(sb, "%s%.1f,%.1f", i ? " " : "", xpos(i, n), ypos(value(&rows[i], se), max));
			sb_adds(sb, "\"/>\n");
		}
		for (i = 0; i < n; i++) {
			double x = xpos(i, n), y = ypos(value(&rows[i], se), max);

			sb_addf(sb, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"><title>", x, y, se->color);
			sb_add_escf(sb, "%s %s: %lld", rows[i].label, se->name, value(&rows[i], se));
			sb_addf(sb, "</title></circle>\n<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"start\" "
				    "font-size=\"11\" fill=\"%s\">%lld</text>\n", x + 6, y - 5, se->color,
				value(&rows[i], se));
		}
		sb_addf(sb, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"3\"/>\n",
			W - MR + 16, ly, W - MR + 36, ly, se->color);
		sb_addf(sb, "<text x=\"%d\" y=\"%.1f\" fill=\"#222\">%s</text>\n", W - MR + 42, ly + 4, se->name);
	}
	sb_adds(sb, "</svg>\n");
	free(rows);
}
