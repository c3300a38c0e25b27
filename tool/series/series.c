// SPDX-License-Identifier: GPL-2.0
/*
 * series.c - commit messages, cover letters and the README of a series
 * (series.h).  Lines are wrapped at 72 columns, under checkpatch's 75.
 */
#define _GNU_SOURCE
#include "convert/convert.h"
#include "lib/arch.h"
#include "lib/json_util.h"
#include "series.h"

#include <stdlib.h>
#include <string.h>

#define WIDTH 72
/* a subject's summary, without "[PATCH n/m] " (submitting-patches.rst: 70-75) */
#define SUBJECT_MAX 75u

void series_wrap(struct strbuf *out, const char *text, int width)
{
	const char *p = text;

	while (*p) {
		const char *e = strchr(p, '\n');
		size_t n = e ? (size_t)(e - p) : strlen(p);

		if (n == 0 || p[0] == ' ' || (int)n <= width) {
			sb_add(out, p, n);
			sb_addc(out, '\n');
		} else {
			/* a paragraph line: fill words up to WIDTH */
			char *line = xstrndup(p, n), *save = NULL;
			int col = 0;

			for (char *w = strtok_r(line, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
				int wl = (int)strlen(w);

				if (col && col + 1 + wl > width) {
					sb_addc(out, '\n');
					col = 0;
				}
				if (col) {
					sb_addc(out, ' ');
					col++;
				}
				sb_adds(out, w);
				col += wl;
			}
			sb_addc(out, '\n');
			free(line);
		}
		p += n + (e ? 1 : 0);
	}
}

/* "  name(): what" wrapped with a hanging indent of 4. */
static void add_item(struct strbuf *sb, const char *first, const char *rest)
{
	struct strbuf t = STRBUF_INIT;
	char *copy = xstrdup(rest), *save = NULL;
	int col;

	if (*first)
		sb_addf(&t, "  %s", first);
	else
		sb_adds(&t, "   ");	/* a continuation: the word below starts at column 4 */
	col = (int)t.len;
	for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		int wl = (int)strlen(w);

		if (col + 1 + wl > WIDTH) {
			sb_adds(&t, "\n    ");
			col = 4;
		} else {
			sb_addc(&t, ' ');
			col++;
		}
		sb_adds(&t, w);
		col += wl;
	}
	sb_adds(sb, t.buf);
	sb_addc(sb, '\n');
	sb_release(&t);
	free(copy);
}

/* A command line, broken before its options with " \\" so that it still pastes into a shell. */
static void add_command(struct strbuf *sb, const char *cmd)
{
	char *copy = xstrdup(cmd);
	int col = 0;
	bool quoted = false;
	struct strbuf word = STRBUF_INIT;

	sb_adds(sb, "  ");
	col = 2;
	/* words, keeping '...' and "..." together */
	for (const char *p = copy;; p++) {
		if (*p && (quoted || *p != ' ')) {
			if (*p == '\'' || *p == '"')
				quoted = !quoted;
			sb_addc(&word, *p);
			continue;
		}
		if (word.len && !strcmp(word.buf, "-D") && *p) {
			sb_addc(&word, ' ');	/* "-D name=value" stays on one line */
			continue;
		}
		if (word.len) {
			bool opt = word.buf[0] == '-';

			if (col > 2 && (col + 1 + (int)word.len > WIDTH - 2 || (opt && col + 1 + (int)word.len > WIDTH - 20))) {
				sb_adds(sb, " \\\n      ");
				col = 6;
			} else if (col > 2) {
				sb_addc(sb, ' ');
				col++;
			}
			sb_adds(sb, word.buf);
			col += (int)word.len;
			sb_reset(&word);
		}
		if (!*p)
			break;
	}
	sb_addc(sb, '\n');
	sb_release(&word);
	free(copy);
}

static void describe_plan(struct strbuf *sb, json_t *p)
{
	json_t *s, *h;
	size_t i;
	char *name = xasprintf("%s():", jstr(p, "function"));

	if (!json_array_size(json_object_get(p, "sites"))) {
		json_t *callers = json_object_get(p, "direct_callers"), *c;
		struct strbuf w = STRBUF_INIT;

		sb_adds(&w, "no wait queue; f_poll_head stays NULL");
		json_array_foreach(callers, i, c)
			sb_addf(&w, "%s%s()", i ? ", " : "; called directly by ", json_string_value(c));
		if (json_array_size(callers))
			sb_addf(&w, ", which now %s %s() with the events of its poll_table "
				"(poll_requested_events())", json_array_size(callers) > 1 ? "call" : "calls",
				jstr(p, "mask_fn"));
		add_item(sb, name, w.buf);
		sb_release(&w);
	} else {
		struct strbuf w = STRBUF_INIT;

		json_array_foreach(json_object_get(p, "sites"), i, s) {
			const char *k = jstr(s, "kind");

			if (i)
				sb_adds(&w, "; ");
			if (!strcmp(k, "anon_inode_getfd") || !strcmp(k, "anon_inode_create_getfd")) {
				/* the file is installed by the call: the head goes in with it */
				sb_addf(&w, "%s, given to %s_poll() in %s()", jstr(s, "head"), k,
					jstr(s, "function"));
				continue;
			}
			sb_addf(&w, "%s, set in %s()", jstr(s, "head"), jstr(s, "function"));
			convert_add_callers(&w, json_object_get(s, "callers"));
			if (!strcmp(k, "new-open"))
				sb_adds(&w, ", a new ->open()");
			else if (!strcmp(k, "wrap"))
				sb_addf(&w, ", a new ->open() around %s()", jstr(json_object_get(s, "vars"), "oldopen"));
			else if (strcmp(k, "open"))
				sb_addf(&w, " after %s()", k);
		}
		add_item(sb, name, w.buf);
		sb_release(&w);
	}
	json_array_foreach(json_object_get(p, "null_helpers"), i, h) {
		char *t = xasprintf("(%s() is now given a NULL poll_table: it registers nothing)",
				    json_string_value(h));

		add_item(sb, "", t + 0);
		free(t);
	}
	free(name);
}

/* Does a plan of PLANS set the head at a creation site of KIND? */
static bool plans_have_site(json_t *plans, const char *kind)
{
	json_t *p, *s;
	size_t i, j;

	json_array_foreach(plans, i, p)
		json_array_foreach(json_object_get(p, "sites"), j, s)
			if (!strcmp(jstr(s, "kind"), kind))
				return true;
	return false;
}

/*
 * The prefix less its last part: "drm/amd/display" -> "drm/amd", "HID:
 * roccat" -> "HID", "a/b" (two drivers) -> "a"; NULL when it has one part.
 */
static char *shorter_prefix(const char *prefix)
{
	const char *slash = strrchr(prefix, '/'), *colon = NULL, *c;
	const char *cut;

	for (c = strstr(prefix, ": "); c; c = strstr(c + 1, ": "))
		colon = c;
	cut = slash > colon ? slash : colon;
	if (!cut || cut == prefix)
		return NULL;
	return xstrndup(prefix, (size_t)(cut - prefix));
}

char *series_subject(const char *prefix, json_t *plans)
{
	size_t n = json_array_size(plans);
	char *p = xstrdup(prefix), *r = NULL;

	/*
	 * Deterministically shorter until it fits: the whole wording, then
	 * without the function (the body names it), then with a shorter
	 * prefix, then the prefix cut.
	 */
	while (!r) {
		char *full = n == 1 ? xasprintf("%s: convert %s() to ->poll_mask()", p,
						  jstr(json_array_get(plans, 0), "function"))
				    : xasprintf("%s: convert %zu ->poll() to ->poll_mask()", p, n);
		char *brief = xasprintf("%s: convert to ->poll_mask()", p);
		char *next;

		if (strlen(full) <= SUBJECT_MAX) {
			r = full;
			free(brief);
		} else if (strlen(brief) <= SUBJECT_MAX) {
			r = brief;
			free(full);
		} else if ((next = shorter_prefix(p))) {
			free(full);
			free(brief);
			free(p);
			p = next;
		} else {
			const char *tail = ": convert to ->poll_mask()";

			r = xasprintf("%.*s%s", (int)(SUBJECT_MAX - strlen(tail)), p, tail);
			free(full);
			free(brief);
		}
	}
	free(p);
	return r;
}

/*
 * For a single-cond conversion (the plan carries the scan's "review"):
 * the paths that returned before registering the queue, which now
 * register it, and either why that is safe (proven) or the facts a
 * maintainer must confirm.
 */
static void review_paragraph(struct strbuf *para, json_t *p)
{
	json_t *rv = json_object_get(p, "review"), *e;
	json_t *skips = json_object_get(rv, "skips"), *missing = json_object_get(rv, "missing");
	size_t i;

	if (!rv)
		return;
	if (!json_array_size(skips)) {
		sb_addf(para, "%s() registered its queue only under a condition; vfs_poll() now registers it "
			"on every call.", jstr(p, "function"));
	} else {
		sb_addf(para, "%s() returned ", jstr(p, "function"));
		json_array_foreach(skips, i, e)
			sb_addf(para, "%s%s (%s:%lld)", i ? (i + 1 == json_array_size(skips) ? " or " : ", ") : "",
				jstr(e, "value"), jstr(e, "file"), json_integer_value(json_object_get(e, "line")));
		sb_adds(para, " without registering its queue; vfs_poll() now registers it on that path too.");
	}
	if (!json_array_size(missing)) {
		sb_addf(para, "  That is safe: %s, and that answer is final (an error or a hang-up), so nothing "
			"waits on the queue for it.\n\n", jstr(rv, "proof"));
		return;
	}
	sb_adds(para, "  polltax could not prove that safe.  To confirm before this is applied:");
	json_array_foreach(missing, i, e)
		sb_addf(para, "%s that %s", i ? ";" : "", json_string_value(e));
	sb_adds(para, ".\n\n");
}

/*
 * The files of PLANS that only another architecture's configuration builds
 * ("arch_built"), one paragraph per architecture: how they were built.
 */
static void arch_paragraphs(struct strbuf *para, json_t *plans)
{
	for (const struct arch_info *ar = arch_next(NULL); ar; ar = arch_next(ar)) {
		struct strbuf files = STRBUF_INIT;
		const char *config = NULL;
		json_t *p, *a;
		size_t i, j, n = 0, k = 0;

		json_array_foreach(plans, i, p)
			json_array_foreach(json_object_get(p, "arch_built"), j, a)
				n += !strcmp(jstr(a, "arch"), ar->name);
		if (!n)
			continue;
		json_array_foreach(plans, i, p)
			json_array_foreach(json_object_get(p, "arch_built"), j, a) {
				if (strcmp(jstr(a, "arch"), ar->name))
					continue;
				config = jstr(a, "config");
				k++;
				sb_addf(&files, "%s%s (%s)", k == 1 ? "" : k == n ? " and " : ", ", jstr(a, "file"),
					jstr(a, "why"));
			}
		sb_addf(para, "x86's %s does not build %s: %s build-tested with make ARCH=%s CROSS_COMPILE=%s %s.\n\n",
			config, files.buf, n == 1 ? "it was" : "they were", ar->name, ar->cross, config);
		sb_release(&files);
	}
}

char *series_commit_message(const char *prefix, const char *section, json_t *plans, const char *signoff)
{
	struct strbuf sb = STRBUF_INIT, para = STRBUF_INIT;
	size_t n = json_array_size(plans), i;
	json_t *p;
	bool all_none = true;
	char *subject = series_subject(prefix, plans);

	json_array_foreach(plans, i, p)
		if (json_array_size(json_object_get(p, "sites")))
			all_none = false;
	sb_addf(&sb, "%s\n\n", subject);
	free(subject);
	if (all_none)
		sb_addf(&para, "%s registers no wait queue: %s only computes the events from the state of the "
			"device.  Make %s ->poll_mask(), so that vfs_poll() calls it without a poll_table and "
			"f_poll_head stays NULL.\n",
			n == 1 ? "This ->poll()" : "These ->poll() implementations",
			n == 1 ? "it" : "each", n == 1 ? "it" : "them");
	else
		sb_addf(&para, "%s registers exactly one wait queue, which is known when the file is "
			"created.  Point file->f_poll_head at it where the file is created, and turn ->poll() "
			"into ->poll_mask(): vfs_poll() then registers the queue itself and calls "
			"->poll_mask() for the events, so that polling costs one indirect call and the "
			"poll_table no longer reaches the driver.\n",
			n == 1 ? "This ->poll()" : "Each of these ->poll() implementations");
	series_wrap(&sb, para.buf, WIDTH);
	sb_addc(&sb, '\n');
	sb_adds(&sb, all_none ? "Converted:\n\n" : "Converted (the wait queue, and where f_poll_head is set):\n\n");
	json_array_foreach(plans, i, p)
		describe_plan(&sb, p);
	sb_addc(&sb, '\n');
	sb_reset(&para);
	if (!all_none)
		sb_adds(&para, "The queue is the one the poll function passed to poll_wait().  It is still "
			"registered before the events are computed, and f_poll_head does not change while the "
			"file is open.\n\n");
	json_array_foreach(plans, i, p)
		review_paragraph(&para, p);
	{
		bool fd = plans_have_site(plans, "anon_inode_getfd");
		bool cfd = plans_have_site(plans, "anon_inode_create_getfd");

		if (fd && cfd)
			sb_adds(&para, "anon_inode_getfd() and anon_inode_create_getfd() install the new file in "
				"the file descriptor table before they return, so their callers cannot set "
				"f_poll_head: they call anon_inode_getfd_poll() and anon_inode_create_getfd_poll() "
				"instead, which set it first.\n\n");
		else if (fd || cfd)
			sb_addf(&para, "%s() installs the new file in the file descriptor table before it returns, "
				"so its callers cannot set f_poll_head: they call %s_poll() instead, which sets it "
				"first.\n\n", fd ? "anon_inode_getfd" : "anon_inode_create_getfd",
				fd ? "anon_inode_getfd" : "anon_inode_create_getfd");
	}
	json_array_foreach(plans, i, p) {
		json_t *a;
		size_t j;

		json_array_foreach(json_object_get(p, "built_alone"), j, a) {
			const struct arch_info *ar = arch_find(jstr(a, "arch"));

			if (ar && ar != arch_host())
				sb_addf(&para, "%s is not built by %s (%s); it was build-tested by compiling it on "
					"its own for %s (make ARCH=%s CROSS_COMPILE=%s %.*so).\n\n", jstr(a, "file"),
					jstr(a, "config"), jstr(a, "why"), ar->name, ar->name, ar->cross,
					(int)strlen(jstr(a, "file")) - 1, jstr(a, "file"));
			else
				sb_addf(&para, "%s is not built by %s (%s); it was build-tested by compiling it on "
					"its own (make %.*so).\n\n", jstr(a, "file"), jstr(a, "config"), jstr(a, "why"),
					(int)strlen(jstr(a, "file")) - 1, jstr(a, "file"));
		}
	}
	arch_paragraphs(&para, plans);
	/* what reaches beyond these files: an export renamed, ops macros other code shares */
	json_array_foreach(plans, i, p) {
		json_t *ex = json_object_get(p, "export"), *m;
		size_t j;

		if (ex)
			sb_addf(&para, "%s() is exported (%s in %s): it is renamed %s(), and its export with it, so "
				"a module outside the tree that calls %s() or puts it in its file_operations has to be "
				"converted the same way.\n\n", jstr(p, "function"), jstr(ex, "how"), jstr(ex, "file"),
				jstr(p, "mask_fn"), jstr(p, "function"));
		json_array_foreach(json_object_get(p, "fops_macros"), j, m) {
			if (has_suffix(jstr(m, "file"), ".h"))
				sb_addf(&para, "The macro %s (%s) builds the file_operations of every driver that uses "
					"it: its .poll = %s becomes .poll_mask = %s for all of them.\n\n", jstr(m, "macro"),
					jstr(m, "file"), jstr(p, "function"), jstr(p, "mask_fn"));
			else
				sb_addf(&para, "The macro %s (%s) builds file_operations: its .poll = %s becomes "
					".poll_mask = %s in every one it builds.\n\n", jstr(m, "macro"), jstr(m, "file"),
					jstr(p, "function"), jstr(p, "mask_fn"));
		}
	}
	sb_addf(&para, "Generated by polltax (cocci/poll_mask.cocci, cocci/f_poll_head.cocci) for the %s "
		"section of MAINTAINERS.\n", section);
	series_wrap(&sb, para.buf, WIDTH);
	sb_addf(&sb, "\nSigned-off-by: %s\n", signoff);
	sb_release(&para);
	return sb_detach(&sb);
}

char *series_cover_subject(json_t *s, int k, int n)
{
	char *r;

	if (json_is_true(json_object_get(s, "review")))
		return n == 1 ? xstrdup("poll: ->poll_mask() conversions to review") :
				xasprintf("poll: ->poll_mask() conversions to review (part %d of %d)", k, n);
	if (n == 1)
		return xstrdup("poll: f_poll_head and ->poll_mask() for single-queue files");
	r = xasprintf("poll: f_poll_head and ->poll_mask() for single-queue files (part %d of %d)", k, n);
	if (strlen(r) > SUBJECT_MAX) {
		free(r);
		r = xasprintf("poll: f_poll_head and ->poll_mask() (part %d of %d)", k, n);
	}
	return r;
}

static const char *const class_words[][2] = {
	{ "single-cond", "one queue, but a path that can report \"not ready\" skips poll_wait(), "
			 "or poll_wait() is guarded by a condition (review)" },
	{ "single-dynamic", "one poll_wait() site whose queue depends on per-call state, a "
			    "reassigned private_data or a per-task queue" },
	{ "multi", "two or more wait queues" },
	{ "busy-poll", "socket polls that busy-poll: they keep the poll_table" },
	{ "delegate", "forwards to another layer's poll, which is classified on its own" },
	{ "unknown", "the analysis could not decide" },
	{ "single-private", "one queue derived from the file, but no place the scan could see to set "
			    "f_poll_head (no creation site of the driver's own, a file made by "
			    "anon_inode_getfd() or anon_inode_create_getfd() whose queue is not reached from "
			    "its private data), a "
			    "lower layer's poll (converted only with the layer above it), or a file the "
			    "configuration does not compile" },
	{ "single-static", "one global queue, but no place the scan could see to set f_poll_head, a "
			   "lower layer's poll, or a file the configuration does not compile" },
	{ "none", "no wait queue, but a lower layer's poll, or a file the configuration does not "
		  "compile" },
};

static const char *class_meaning(const char *cls)
{
	for (size_t i = 0; i < sizeof(class_words) / sizeof(class_words[0]); i++)
		if (!strcmp(class_words[i][0], cls))
			return class_words[i][1];
	return "";
}

/* The implementations of the scan that are not converted, by class, each with its reason. */
static void flagged_by_class(struct strbuf *sb, json_t *s, bool list_all)
{
	static const char *const order[] = { "single-private", "single-static", "none", "single-cond",
					     "single-dynamic", "multi", "busy-poll", "delegate", "unknown", NULL };
	json_t *impls = json_object_get(json_object_get(s, "scan"), "implementations"), *x;
	size_t i;

	for (int c = 0; order[c]; c++) {
		int count = 0;

		json_array_foreach(impls, i, x)
			if (!strcmp(jstr(x, "class"), order[c]) && strcmp(jstr(x, "convertible"), "yes") &&
			    strcmp(jstr(x, "convertible"), "excluded") && strcmp(jstr(x, "convertible"), "converted"))
				count++;
		if (!count)
			continue;
		{
			struct strbuf p = STRBUF_INIT;

			sb_addc(sb, '\n');
			sb_addf(&p, "%s (%d): %s.\n", order[c], count, class_meaning(order[c]));
			series_wrap(sb, p.buf, WIDTH);
			sb_release(&p);
		}
		if (!list_all)
			continue;
		json_array_foreach(impls, i, x) {
			char *name;

			if (strcmp(jstr(x, "class"), order[c]) || !strcmp(jstr(x, "convertible"), "yes") ||
			    !strcmp(jstr(x, "convertible"), "excluded") || !strcmp(jstr(x, "convertible"), "converted"))
				continue;
			name = xasprintf("%s %s():", jstr(x, "file"), jstr(x, "function"));
			add_item(sb, name, jstr(x, "reason"));
			free(name);
		}
	}
}

char *series_cover_body(json_t *s, int k, int n)
{
	struct strbuf sb = STRBUF_INIT, p = STRBUF_INIT;
	json_t *scan = json_object_get(s, "scan"), *x, *counts = json_object_get(scan, "counts");
	json_t *patches = json_object_get(s, "patches");
	size_t i, nconv = json_array_size(json_object_get(s, "converted"));
	size_t nref = json_array_size(json_object_get(s, "refused"));
	const char *ver = jstr(s, "version");
	bool infra = json_is_string(json_object_get(s, "infra"));

	sb_adds(&p, "In 4.18 ->poll() was split into ->get_poll_head() and ->poll_mask(), so that aio could "
		"poll without a poll_table.  Every poll then made two indirect calls into the driver, the "
		"kernel test robot measured -8.8% on will-it-scale poll2, and the conversion was reverted "
		"(a11e1d432b51, \"Revert changes to convert to ->poll_mask() and aio IOCB_CMD_POLL\").  The "
		"revert pointed out that a pointer to the poll head in struct file would remove one of the "
		"two calls.\n\n");
	sb_adds(&p, "This series does that.  struct file gains f_poll_head, struct file_operations gains "
		"->poll_mask(file, events).  A file whose ->poll() waits on exactly one queue, known when the "
		"file is created, sets f_poll_head there (in ->open(), on the file anon_inode_getfile() "
		"returns, or with anon_inode_getfd_poll() instead of anon_inode_getfd()); vfs_poll() does "
		"the poll_wait() itself and makes one indirect call, to ->poll_mask().  Files that wait on "
		"several queues, on a queue chosen per call, that busy-poll or hand the poll_table on keep "
		"->poll(), which is tested first and runs the code it ran before.\n\n");
	if (json_is_true(json_object_get(s, "review")))
		sb_adds(&p, "This is the RFC part, not for applying as it is.  Its conversions are single-cond: "
			"each ->poll() returns before poll_wait() on some path, or calls it under a condition, "
			"and after the conversion vfs_poll() registers the queue on that path too.  polltax could "
			"not prove that safe for these; each patch names the facts its maintainer must confirm "
			"(that the queue's object lives as long as the file, that the skipped path's answer is "
			"final).  The conversions polltax proved safe are in the series posted without RFC.\n\n");
	if (n > 1)
		sb_addf(&p, "This is posting %d of %d of the series for linux-%s (at most %lld patches each).  %s\n\n",
			k, n, ver, json_integer_value(json_object_get(s, "max_patches")),
			k == 1 ? (infra ? "Patch 1 adds the infrastructure; the others convert drivers, "
					  "one patch per MAINTAINERS section.  The other postings "
					  "depend on patch 1." :
					  "The conversions are one patch per MAINTAINERS section; the tree "
					  "already has f_poll_head and ->poll_mask(), so the postings do not "
					  "depend on each other.") :
			infra ? "It depends on the infrastructure patch, patch 1 of posting 1." :
				"The tree already has f_poll_head and ->poll_mask(): it does not depend on the "
				"other postings.");
	else if (infra)
		sb_addf(&p, "Patch 1 adds the infrastructure; the others convert drivers, one patch per "
			"MAINTAINERS section.\n\n");
	series_wrap(&sb, p.buf, WIDTH);
	sb_reset(&p);

	sb_adds(&sb, "In this posting:\n\n");
	json_array_foreach(patches, i, x) {
		char *name = xasprintf("%zu/%zu", i + 1, json_array_size(patches));
		char *what = json_integer_value(json_object_get(x, "count")) ?
			xasprintf("%s (%s: %lld)", jstr(x, "subject"), jstr(x, "section"),
				  json_integer_value(json_object_get(x, "count"))) :
			xstrdup(jstr(x, "subject"));

		add_item(&sb, name, what);
		free(name);
		free(what);
	}

	sb_addf(&p, "\nWhat is converted, over the whole series: %zu of the %lld ->poll() implementations "
		"that polltax found in linux-%s (%lld file_operations with a poll), in %lld patches.\n",
		nconv, json_integer_value(json_object_get(counts, "implementations")), ver,
		json_integer_value(json_object_get(counts, "file_operations_with_poll")),
		json_integer_value(json_object_get(s, "conversion_patches")));
	series_wrap(&sb, p.buf, WIDTH);
	sb_reset(&p);
	{
		static const char *const cls[] = { "single-private", "single-static", "single-cond", "none", NULL };

		for (int c = 0; cls[c]; c++) {
			int m = 0;

			json_array_foreach(json_object_get(s, "converted"), i, x)
				if (!strcmp(jstr(x, "class"), cls[c]))
					m++;
			if (m)
				sb_addf(&sb, "  %-16s %d\n", cls[c], m);
		}
	}

	sb_addf(&p, "\nWhat is not converted, by class (TAXONOMY.md of polltax), with the reasons%s:\n",
		k == 1 ? "" : " (posting 1 lists every implementation)");
	series_wrap(&sb, p.buf, WIDTH);
	sb_reset(&p);
	flagged_by_class(&sb, s, k == 1);
	if (nref) {
		sb_addc(&sb, '\n');
		sb_addf(&p, "Auto-convertible by the scan but refused by the conversion (%zu), because it "
			"could not be done mechanically and correctly:\n", nref);
		series_wrap(&sb, p.buf, WIDTH);
		sb_reset(&p);
		json_array_foreach(json_object_get(s, "refused"), i, x) {
			char *name = xasprintf("%s %s():", jstr(x, "file"), jstr(x, "function"));

			add_item(&sb, name, jstr(x, "reason"));
			free(name);
		}
	}

	sb_adds(&sb, "\nHow it was made:\n\n");
	add_command(&sb, jstr(s, "command"));
	sb_adds(&sb, "\n");
	sb_adds(&p, "Each conversion is the two semantic patches of polltax, instantiated for one "
		"implementation; for example:\n");
	series_wrap(&sb, p.buf, WIDTH);
	sb_reset(&p);
	sb_adds(&sb, "\n");
	json_array_foreach(json_object_get(s, "example_commands"), i, x)
		add_command(&sb, json_string_value(x));
	sb_adds(&sb, "\n");
	sb_adds(&p, "polltax writes the command of every conversion to series.json next to the patches.\n");
	series_wrap(&sb, p.buf, WIDTH);
	sb_reset(&p);
	if (json_is_string(json_object_get(s, "measurements"))) {
		sb_addf(&sb, "\nThe size of struct file (%s):\n\n", jstr(s, "measurements_source"));
		sb_adds(&sb, jstr(s, "measurements"));
	}
	/* the boot test's "Tested" section (Markdown, wrapped already) */
	if (json_is_string(json_object_get(s, "tested"))) {
		const char *tx = jstr(s, "tested");

		if (k == 1) {
			if (!strncmp(tx, "## ", 3))
				tx += 3;
			sb_addf(&sb, "\n%s", tx);
			if (tx[0] && tx[strlen(tx) - 1] != '\n')
				sb_addc(&sb, '\n');
		} else {
			sb_adds(&sb, "\nTested: see the cover letter of part 1 (boot test in qemu and the poll\n"
				"benchmark, base, patched and two-call kernels).\n");
		}
	}
	sb_release(&p);
	return sb_detach(&sb);
}

char *series_readme(json_t *s)
{
	struct strbuf sb = STRBUF_INIT;
	json_t *x, *pp;
	size_t i, j;
	/* git format-patch -v N names the files vN-0000-... */
	json_int_t reroll = json_integer_value(json_object_get(s, "reroll_count"));
	char *cover = reroll ? xasprintf("v%lld-0000-cover-letter.patch", (long long)reroll) :
			       xstrdup("0000-cover-letter.patch");

	sb_addf(&sb, "# ->poll_mask conversion series for linux-%s\n\n", jstr(s, "version"));
	sb_addf(&sb, "Made by `%s`.\n\n", jstr(s, "command"));
	sb_addf(&sb, "%zu implementations converted in %lld patches; %zu refused by the conversion; the "
		"infrastructure patch: %s.\n\n",
		json_array_size(json_object_get(s, "converted")),
		json_integer_value(json_object_get(s, "conversion_patches")),
		json_array_size(json_object_get(s, "refused")),
		json_is_string(json_object_get(s, "infra")) ? jstr(s, "infra") : "none (the tree has the API)");
	if (json_array_size(json_object_get(s, "postings")) > 1) {
		sb_adds(&sb, "## Postings\n\n");
		sb_addf(&sb, "The kernel's norm is at most about 15 patches per posting, so the series is split "
			"into %zu postings of at most %lld patches, each in its own directory with its own cover "
			"letter (`%s`).  %s\n\n",
			json_array_size(json_object_get(s, "postings")),
			json_integer_value(json_object_get(s, "max_patches")), cover,
			json_is_string(json_object_get(s, "infra")) ?
			"Send them in order: `posting-1/` carries the infrastructure patch, which the others "
			"depend on." :
			"The tree already has the API (no infrastructure patch): they do not depend on each other.");
	} else {
		sb_addf(&sb, "## Posting\n\nOne posting: the patches are in this directory, starting with "
			"`%s`.\n\n", cover);
	}
	sb_adds(&sb, "| posting | patch | subject | section | converted |\n|---|---|---|---|---|\n");
	json_array_foreach(json_object_get(s, "postings"), i, x)
		json_array_foreach(json_object_get(x, "patches"), j, pp)
			sb_addf(&sb, "| %s | `%s` | %s | %s | %lld |\n", jstr(x, "dir")[0] ? jstr(x, "dir") : ".",
				jstr(pp, "file"), jstr(pp, "subject"), jstr(pp, "section"),
				json_integer_value(json_object_get(pp, "count")));
	sb_adds(&sb, "\nTo send a posting: `git send-email DIR/*.patch` (the To: and Cc: of each patch come from "
		"`scripts/get_maintainer.pl`).  To check it: `polltax verify DIR KERNEL_DIR`.\n\n");
	sb_adds(&sb, "`series.json` has every conversion (its plan: the new names, the head and where it is "
		"set, the spatch commands) and every refusal with its reason.\n");
	free(cover);
	return sb_detach(&sb);
}

int series_edit_patch(const char *path, const struct strvec *to, const struct strvec *cc, const char *subject,
		      const char *body)
{
	char *text, *subj, *end, *r;
	struct strbuf sb = STRBUF_INIT;

	if (read_file(path, &text, NULL) < 0)
		return error("cannot read '%s'", path);
	subj = strstr(text, "\nSubject: ");
	end = subj ? strstr(subj, "\n\n") : NULL;
	if (!subj || !end) {
		free(text);
		return error("'%s' is not a patch from git format-patch", path);
	}
	/* the header block ends at end; the Subject may be folded over several lines */
	sb_add(&sb, text, (size_t)(end - text) + 1);
	if (subject) {
		/* replace "*** SUBJECT HERE ***" */
		char *ph = strstr(sb.buf, "*** SUBJECT HERE ***");

		if (ph) {
			struct strbuf t = STRBUF_INIT;

			sb_add(&t, sb.buf, (size_t)(ph - sb.buf));
			sb_adds(&t, subject);
			sb_adds(&t, ph + strlen("*** SUBJECT HERE ***"));
			sb_release(&sb);
			sb = t;
		}
	}
	for (size_t i = 0; i < to->n; i++)
		sb_addf(&sb, "%s%s%s", i ? "    " : "To: ", to->v[i], i + 1 < to->n ? ",\n" : "\n");
	for (size_t i = 0; i < cc->n; i++)
		sb_addf(&sb, "%s%s%s", i ? "    " : "Cc: ", cc->v[i], i + 1 < cc->n ? ",\n" : "\n");
	r = end + 1;
	if (body) {
		char *ph = strstr(r, "*** BLURB HERE ***");

		if (ph) {
			sb_add(&sb, r, (size_t)(ph - r));
			sb_adds(&sb, body);
			r = ph + strlen("*** BLURB HERE ***");
			if (*r == '\n' && body[0] && body[strlen(body) - 1] == '\n')
				r++;
		}
	}
	sb_adds(&sb, r);
	if (write_file_atomic(path, sb.buf, sb.len) < 0) {
		free(text);
		sb_release(&sb);
		return -1;
	}
	free(text);
	sb_release(&sb);
	return 0;
}
