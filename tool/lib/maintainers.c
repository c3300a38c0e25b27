// SPDX-License-Identifier: GPL-2.0
/*
 * maintainers.c - get_maintainer.pl, and subject prefixes (maintainers.h).
 */
#define _GNU_SOURCE
#include "maintainers.h"

#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>
#include <xxhash.h>

/* The bytes of REL (relative to WORK, or absolute) into H, after its name when NAMED (the path is part of the question). */
static void hash_input(XXH64_state_t *h, const char *work, const char *rel, bool named)
{
	char *p = rel[0] == '/' ? xstrdup(rel) : path_join(work, rel), *text;
	size_t len;

	if (named)
		XXH64_update(h, rel, strlen(rel) + 1);
	if (read_file(p, &text, &len) == 0) {
		/* a patch's first line is its commit's id, which get_maintainer.pl does not read */
		const char *b = text;

		if (!strncmp(text, "From ", 5) && strchr(text, '\n'))
			b = strchr(text, '\n') + 1;
		XXH64_update(h, b, len - (size_t)(b - text));
		free(text);
	}
	free(p);
}

/*
 * Where get_maintainer.pl's answer to these arguments is kept: its key
 * hashes MAINTAINERS, the script, the arguments and the input file
 * (keywords are matched in it), so that the answer is reused only for
 * the same question.
 */
static char *answer_path(const struct maint *m, const char *a1, const char *a2)
{
	XXH64_state_t *h = XXH64_createState();
	char *p;
	unsigned long long k;

	XXH64_reset(h, 0);
	XXH64_update(h, m->no_tree ? "1" : "0", 1);
	hash_input(h, m->work, "MAINTAINERS", false);
	hash_input(h, m->work, "scripts/get_maintainer.pl", false);
	/* "--sections -f FILE": the option and FILE's path and bytes; a patch: its bytes, wherever it is */
	if (a2)
		XXH64_update(h, a1, strlen(a1) + 1);
	hash_input(h, m->work, a2 ? a2 : a1, a2 != NULL);
	k = (unsigned long long)XXH64_digest(h);
	XXH64_freeState(h);
	p = xasprintf("%s/maintainers/%02llx/%016llx.txt", cache_root(), k >> 56, k);
	return p;
}

static int get_maintainer(const struct maint *m, struct strbuf *out, const char *a1, const char *a2)
{
	struct strvec argv = STRVEC_INIT;
	char *cached = answer_path(m, a1, a2), *text;
	size_t len;
	int rc;

	if (read_file(cached, &text, &len) == 0) {
		sb_add(out, text, len);
		free(text);
		free(cached);
		return 0;
	}

	/* perl's hash order decides the order of what get_maintainer.pl prints */
	setenv("PERL_HASH_SEED", "0", 1);
	setenv("PERL_PERTURB_KEYS", "0", 1);
	sv_push(&argv, "perl");
	sv_push(&argv, "scripts/get_maintainer.pl");
	if (m->no_tree)
		sv_push(&argv, "--no-tree");
	sv_push(&argv, "--nogit");
	sv_push(&argv, "--nogit-fallback");
	if (a2) {
		/* an option, then the file (-f) */
		sv_push(&argv, a1);
		sv_push(&argv, "-f");
		sv_push(&argv, a2);
	} else {
		sv_push(&argv, a1);
	}
	rc = run_cmd((const char *const *)argv.v, m->work, out, true);
	if (rc == 0)
		cache_write(cached, out->buf ? out->buf : "", out->len);
	free(cached);
	sv_clear(&argv);
	return rc;
}

/* How specifically PATTERN (an F: line) names FILE: 0 when it does not. */
static int pattern_score(const char *pat, const char *file)
{
	size_t pl = strlen(pat);
	int slashes = 0;

	for (const char *q = pat; *q; q++)
		slashes += *q == '/';
	if (!strpbrk(pat, "*?[")) {
		if (!strcmp(pat, file))
			return 100000;			/* the file itself */
		if (pl && pat[pl - 1] == '/' && !strncmp(file, pat, pl))
			return 1000 * slashes + (int)pl;	/* a directory above it */
		if (!strncmp(file, pat, pl) && file[pl] == '/')
			return 1000 * slashes + (int)pl;
		return 0;
	}
	/* a wildcard pattern: FNM_PATHNAME, so that a star does not cross a slash */
	if (fnmatch(pat, file, FNM_PATHNAME) == 0)
		return 1000 * slashes + (int)pl;
	if (pl && pat[pl - 1] == '/') {
		char *d = xstrndup(pat, pl - 1);
		char *dir = xstrdup(file), *sl;
		int r = 0;

		/* a wildcard directory pattern (trailing slash): some directory above the file */
		while ((sl = strrchr(dir, '/')) && !r) {
			*sl = '\0';
			if (fnmatch(d, dir, FNM_PATHNAME) == 0)
				r = 1000 * slashes + (int)pl;
		}
		free(d);
		free(dir);
		return r;
	}
	return 0;
}

char *maint_section(const struct maint *m, const char *file)
{
	struct strbuf out = STRBUF_INIT;
	char *best = NULL, *cur = NULL;
	int best_score = -1, cur_score = 0;
	bool para_start = true;

	/*
	 * --sections prints every section that matches; its order depends on
	 * perl's hash order, so the most specific is chosen here, from the F:
	 * lines it prints (an exact file over a directory, a deeper directory
	 * over a shallower one), ties by name.
	 */
	if (get_maintainer(m, &out, "--sections", file) != 0)
		warning("get_maintainer.pl failed on '%s'", file);
	for (const char *l = out.buf; ; ) {
		const char *e = l ? strchr(l, '\n') : NULL;
		size_t n = !l ? 0 : e ? (size_t)(e - l) : strlen(l);
		bool end = !l || !*l;

		if (end || n == 0) {
			if (cur && strncmp(cur, "THE REST", 8) &&
			    (cur_score > best_score || (cur_score == best_score && best && strcmp(cur, best) < 0))) {
				free(best);
				best = cur;
				best_score = cur_score;
				cur = NULL;
			}
			free(cur);
			cur = NULL;
			cur_score = 0;
			para_start = true;
			if (end)
				break;
		} else if (para_start) {
			cur = xstrndup(l, n);
			para_start = false;
		} else if (n > 3 && l[0] == 'F' && l[1] == ':') {
			char *pat = xstrndup(l + 2, n - 2), *t = pat;
			int sc;

			while (*t == ' ' || *t == '\t')
				t++;
			sc = pattern_score(t, file);
			if (sc > cur_score)
				cur_score = sc;
			free(pat);
		}
		l = e ? e + 1 : NULL;
	}
	sb_release(&out);
	return best ? best : xstrdup("THE REST");
}

void maint_prefetch(const struct maint *m, const char *opt, const char *const *args, size_t n, int jobs)
{
	pid_t *pids = xcalloc((size_t)(jobs > 0 ? jobs : 1), sizeof(*pids));
	int running = 0, slots = jobs > 0 ? jobs : 1;
	struct strvec seen = STRVEC_INIT;

	fflush(stdout);
	fflush(stderr);
	for (size_t i = 0; i <= n; i++) {
		char *cached = NULL;
		int st;
		pid_t done;

		if (i < n && !sv_contains(&seen, args[i])) {
			sv_push(&seen, args[i]);
			cached = answer_path(m, opt ? opt : args[i], opt ? args[i] : NULL);
			if (is_file(cached)) {
				free(cached);
				continue;
			}
			free(cached);
		} else if (i < n) {
			continue;
		}
		/* a free slot for input I (or, at the end, every child done) */
		while (running && (i == n || running == slots)) {
			done = wait(&st);
			if (done < 0 && errno != EINTR)
				die("wait: %s", strerror(errno));
			for (int w = 0; done > 0 && w < slots; w++)
				if (pids[w] == done) {
					pids[w] = 0;
					running--;
				}
		}
		if (i == n)
			break;
		for (int w = 0; w < slots; w++)
			if (!pids[w]) {
				pid_t pid = fork();

				if (pid < 0)
					die("cannot fork: %s", strerror(errno));
				if (pid == 0) {
					struct strbuf out = STRBUF_INIT;

					/* the answer goes to the cache; the parent asks again (and says so when it fails) */
					_exit(get_maintainer(m, &out, opt ? opt : args[i], opt ? args[i] : NULL) == 0 ? 0 : 1);
				}
				pids[w] = pid;
				running++;
				break;
			}
	}
	sv_clear(&seen);
	free(pids);
}

int maint_recipients(const struct maint *m, const char *patch, struct strvec *to, struct strvec *cc)
{
	struct strbuf out = STRBUF_INIT;
	int rc = get_maintainer(m, &out, patch, NULL);

	if (rc != 0) {
		sb_release(&out);
		return error("get_maintainer.pl failed on '%s'", patch);
	}
	for (const char *l = out.buf; l && *l;) {
		const char *e = strchr(l, '\n');
		char *line = xstrndup(l, e ? (size_t)(e - l) : strlen(l));
		char *gt = strchr(line, '<') ? strchr(line, '>') : NULL;
		char *role = strstr(gt ? gt : line, " (");

		/* "Name <mail> (maintainer:SECTION (X, Y) DRIVERS)", "list@x (open list:SECTION)" */
		if (*line) {
			bool list = false;

			if (role) {
				list = strstr(role, "list") || strstr(role, "reviewer");
				*role = '\0';
			} else {
				list = !gt;
			}
			if (list) {
				if (!sv_contains(cc, line) && !sv_contains(to, line))
					sv_push(cc, line);
			} else if (!sv_contains(to, line)) {
				sv_push(to, line);
			}
		}
		free(line);
		l = e ? e + 1 : NULL;
	}
	/* no maintainer (THE REST): the patch is addressed to its lists, not only copied to them */
	if (!to->n) {
		for (size_t i = 0; i < cc->n; i++)
			sv_push(to, cc->v[i]);
		sv_clear(cc);
	}
	sb_release(&out);
	return 0;
}

static const char *const path_prefixes[][2] = {
	{ "arch/x86/kernel/cpu/mce/", "x86/mce" },
	{ "drivers/accessibility/speakup/", "speakup" },
	{ "drivers/char/ipmi/", "ipmi" },
	{ "drivers/char/tpm/", "tpm" },
	{ "drivers/gpu/drm/", "drm" },
	{ "drivers/hid/", "HID" },
	{ "drivers/infiniband/", "RDMA" },
	{ "drivers/input/", "Input" },
	{ "drivers/media/", "media" },
	{ "drivers/net/wireless/", "wifi" },
	{ "drivers/platform/chrome/", "platform/chrome" },
	{ "drivers/platform/x86/", "platform/x86" },
	{ "drivers/usb/gadget/", "usb: gadget" },
	{ "fs/eventpoll.c", "epoll" },
	{ "kernel/events/", "perf" },
	{ "net/sunrpc/", "SUNRPC" },
	{ "sound/", "ALSA" },
};

/* A prefix from the path alone. */
static char *path_prefix(const char *f)
{
	const char *best = NULL;
	size_t bl = 0;
	char *first, *rest;
	const char *s;

	for (size_t i = 0; i < sizeof(path_prefixes) / sizeof(path_prefixes[0]); i++) {
		size_t l = strlen(path_prefixes[i][0]);

		if (l > bl && !strncmp(f, path_prefixes[i][0], l)) {
			best = path_prefixes[i][1];
			bl = l;
		}
	}
	if (best)
		return xstrdup(best);
	/* drivers/X/..., fs/X/..., fs/x.c, kernel/x.c, net/X/..., arch/X/... */
	s = f;
	if (!strncmp(s, "drivers/", 8))
		s += 8;
	first = xstrndup(s, strcspn(s, "/"));
	rest = (char *)s + strlen(first);
	if (!strcmp(first, "fs") || !strcmp(first, "kernel") || !strcmp(first, "net") || !strcmp(first, "mm") ||
	    !strcmp(first, "ipc") || !strcmp(first, "block")) {
		const char *n = *rest == '/' ? rest + 1 : rest;
		size_t k = strcspn(n, "/");
		char *r;

		if (n[k] == '/') {
			r = !strcmp(first, "net") ? xasprintf("net: %.*s", (int)k, n) : xstrndup(n, k);
		} else {
			/* a file right there: its name */
			const char *dot = strrchr(n, '.');

			r = xstrndup(n, dot ? (size_t)(dot - n) : strlen(n));
		}
		free(first);
		return r;
	}
	if (!strcmp(first, "arch")) {
		const char *n = *rest == '/' ? rest + 1 : rest;

		free(first);
		return xstrndup(n, strcspn(n, "/"));
	}
	return first;
}

/* The most common "prefix: " of the recent commits that touched FILES, or NULL. */
static char *history_prefix(const struct maint *m, const struct strvec *files)
{
	struct strvec argv = STRVEC_INIT, seen = STRVEC_INIT;
	struct strbuf out = STRBUF_INIT;
	int *count = NULL, best = -1, bestn = 0;
	size_t n = 0;
	char *r = NULL;

	sv_push(&argv, "git");
	sv_push(&argv, "log");
	sv_push(&argv, "-n");
	sv_push(&argv, "30");
	sv_push(&argv, "--no-merges");
	sv_push(&argv, "--format=%s");
	sv_push(&argv, "--");
	for (size_t i = 0; i < files->n; i++)
		sv_push(&argv, files->v[i]);
	if (run_cmd((const char *const *)argv.v, m->work, &out, true) == 0) {
		for (const char *l = out.buf; l && *l;) {
			const char *e = strchr(l, '\n');
			char *line = xstrndup(l, e ? (size_t)(e - l) : strlen(l));
			char *colon = strstr(line, ": "), *c2;

			/* "HID: roccat: fix" -> "HID: roccat"; "Input: evdev - fix" -> "Input" */
			while (colon && (c2 = strstr(colon + 2, ": ")) && !strchr(colon + 2, ' '))
				colon = c2;
			while (colon && (c2 = strstr(colon + 2, ": ")) && c2 - colon - 2 < 20 &&
			       !memchr(colon + 2, ' ', (size_t)(c2 - colon - 2)))
				colon = c2;
			if (colon && colon > line && strncmp(line, "Revert", 6) && strncmp(line, "Merge", 5)) {
				char *p = xstrndup(line, (size_t)(colon - line));
				size_t k;

				for (k = 0; k < seen.n && strcmp(seen.v[k], p); k++)
					;
				if (k == seen.n) {
					sv_push(&seen, p);
					count = xrealloc(count, seen.n * sizeof(*count));
					count[k] = 0;
				}
				count[k]++;
				n++;
				free(p);
			}
			free(line);
			l = e ? e + 1 : NULL;
		}
	}
	for (size_t k = 0; k < seen.n; k++)
		if (count[k] > bestn) {
			bestn = count[k];
			best = (int)k;
		}
	if (best >= 0 && n >= 3)
		r = xstrdup(seen.v[best]);
	free(count);
	sv_clear(&seen);
	sv_clear(&argv);
	sb_release(&out);
	return r;
}

char *maint_prefix(const struct maint *m, const struct strvec *files)
{
	struct strvec p = STRVEC_INIT;
	char *r;

	if (m->history && (r = history_prefix(m, files)))
		return r;
	for (size_t i = 0; i < files->n; i++) {
		char *x = path_prefix(files->v[i]);

		if (!sv_contains(&p, x))
			sv_push(&p, x);
		free(x);
	}
	if (!p.n)
		r = xstrdup("treewide");
	else if (p.n == 1)
		r = xstrdup(p.v[0]);
	else
		r = xasprintf("%s/%s", p.v[0], p.v[1]);
	sv_clear(&p);
	return r;
}

/* The titles of the sections of ROOT/MAINTAINERS (a line followed by an "X:\t" entry); -1 when it cannot be read. */
static int sections_of(const char *root, struct strvec *out)
{
	char *p = path_join(root, "MAINTAINERS"), *text, *prev = NULL;

	if (read_file(p, &text, NULL) < 0) {
		free(p);
		return -1;
	}
	for (char *save = NULL, *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		bool entry = l[0] >= 'A' && l[0] <= 'Z' && l[1] == ':' && l[2] == '\t';

		if (entry && prev && !sv_contains(out, prev))
			sv_push(out, prev);
		prev = entry ? NULL : l;
	}
	free(text);
	free(p);
	return 0;
}

/* Edit distance of A and B, case aside (small strings: section titles). */
static size_t distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), *row = xcalloc(lb + 1, sizeof(*row)), r;

	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j], best = diag + (tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]));

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	r = row[lb];
	free(row);
	return r;
}

/* TITLE without its parenthesized parts, as people say it: "INPUT (KEYBOARD, ...) DRIVERS" is "INPUT DRIVERS". */
static char *spoken(const char *title)
{
	struct strbuf sb = STRBUF_INIT;
	int depth = 0;

	for (const char *p = title; *p; p++) {
		if (*p == '(')
			depth++;
		else if (*p == ')' && depth)
			depth--;
		else if (!depth && !(*p == ' ' && (!sb.len || sb.buf[sb.len - 1] == ' ')))
			sb_addc(&sb, *p);
	}
	while (sb.len && sb.buf[sb.len - 1] == ' ')
		sb.buf[--sb.len] = '\0';
	return sb.buf ? sb.buf : xstrdup("");
}

char *maint_section_named(const char *root, const char *name, struct strvec *close)
{
	struct strvec all = STRVEC_INIT, said = STRVEC_INIT;
	char *r = NULL;
	size_t nsaid = 0, hit = 0;

	if (sections_of(root, &all) < 0)
		die_code(EXIT_INPUT, "cannot read '%s/MAINTAINERS' for --section", root);
	sv_push(&all, "THE REST");	/* maint_section()'s name for a file no section claims */
	for (size_t i = 0; i < all.n; i++) {
		char *s = spoken(all.v[i]);

		sv_push(&said, s);
		free(s);
	}
	for (size_t i = 0; i < all.n && !r; i++)
		if (!strcasecmp(all.v[i], name))
			r = xstrdup(all.v[i]);
	/* the title said without its parentheses, when only one section is said so */
	for (size_t i = 0; i < all.n && !r; i++)
		if (!strcasecmp(said.v[i], name) && !nsaid++)
			hit = i;
	if (!r && nsaid == 1)
		r = xstrdup(all.v[hit]);
	for (size_t d = 0; !r && d <= strlen(name) / 3 + 2; d++)
		for (size_t i = 0; i < all.n; i++) {
			size_t e = distance(all.v[i], name), f = distance(said.v[i], name);
			bool part = strlen(name) >= 3 && strcasestr(all.v[i], name);

			if (((e < f ? e : f) == d || (d == 0 && part)) && !sv_contains(close, all.v[i]))
				sv_push(close, all.v[i]);
		}
	sv_clear(&said);
	sv_clear(&all);
	return r;
}

/*
 * The MAINTAINERS file read by polltax itself (maint_db_*), for the scan:
 * get_maintainer.pl's rules for which sections match a file, and
 * maint_section()'s for the most specific of them, without a perl per file.
 */
struct maint_pat {
	char *raw;		/* as written after "F:"/"X:"/"N:" */
	char type;		/* 'F', 'X', 'N' */
	bool plain;		/* no regex character: compared as text */
	bool dir;		/* ends in '/', or names a directory of the tree (get_maintainer.pl adds the '/') */
	int slashes;		/* of the pattern as get_maintainer.pl matches it */
	regex_t re;		/* !plain: the pattern as get_maintainer.pl makes it a regex */
	bool re_ok;
};

struct maint_sec {
	char *name;
	struct maint_pat *p;
	size_t n;
};

struct maint_db {
	struct maint_sec *s;
	size_t n;
};

static void pat_init(struct maint_pat *p, const char *root, char type, const char *v)
{
	struct strbuf re = STRBUF_INIT;
	size_t l = strlen(v);

	memset(p, 0, sizeof(*p));
	p->raw = xstrdup(v);
	p->type = type;
	if (type == 'N') {
		/* a regex matched anywhere in the path (perl's /x: blanks do not count) */
		for (const char *q = v; *q; q++)
			if (*q != ' ' && *q != '\t')
				sb_addc(&re, *q);
		p->re_ok = regcomp(&p->re, re.buf ? re.buf : "", REG_EXTENDED | REG_NOSUB) == 0;
		sb_release(&re);
		return;
	}
	/* get_maintainer.pl: '.' is literal, '*' is '.*', '?' is '.', the rest is perl's regex */
	p->plain = !strpbrk(v, "*?[]()+{}|^$\\");
	if (l && v[l - 1] == '/') {
		p->dir = true;
	} else if (!strpbrk(v, ".*?")) {
		/* -d on the converted text: it has a backslash (so is no directory) when v has a '.' */
		char *d = path_join(root, v);

		p->dir = is_dir(d);
		free(d);
	}
	for (const char *q = v; *q; q++)
		p->slashes += *q == '/';
	if (p->dir && !(l && v[l - 1] == '/'))
		p->slashes++;
	if (p->plain)
		return;
	sb_addc(&re, '^');
	for (const char *q = v; *q; q++) {
		if (*q == '.')
			sb_adds(&re, "\\.");
		else if (*q == '*')
			sb_adds(&re, ".*");
		else if (*q == '?')
			sb_addc(&re, '.');
		else
			sb_addc(&re, *q);
	}
	p->re_ok = regcomp(&p->re, re.buf, REG_EXTENDED | REG_NOSUB) == 0;
	sb_release(&re);
}

/* get_maintainer.pl's file_match_pattern(): a prefix match, of as many directories unless a directory pattern */
static bool pat_match(const struct maint_pat *p, const char *file, int file_slashes)
{
	if (p->type == 'N')
		return p->re_ok && regexec(&p->re, file, 0, NULL, 0) == 0;
	if (p->plain) {
		size_t l = strlen(p->raw);

		if (strncmp(file, p->raw, l))
			return false;
		if (p->dir && p->raw[l - 1] != '/')
			return file[l] == '/';	/* "drivers/net" of a directory is "drivers/net/" */
	} else if (!p->re_ok || regexec(&p->re, file, 0, NULL, 0) != 0) {
		return false;
	}
	return p->dir || p->slashes == file_slashes;
}

struct maint_db *maint_db_load(const char *root)
{
	char *path = path_join(root, "MAINTAINERS"), *text;
	struct maint_db *db;
	struct maint_sec *cur = NULL;
	char *prev = NULL;

	if (read_file(path, &text, NULL) < 0) {
		free(path);
		return NULL;
	}
	free(path);
	db = xcalloc(1, sizeof(*db));
	for (char *l = text, *e; l && *l; l = e ? e + 1 : NULL) {
		bool entry;

		e = strchr(l, '\n');
		if (e)
			*e = '\0';
		entry = l[0] >= 'A' && l[0] <= 'Z' && l[1] == ':' && (l[2] == '\t' || l[2] == ' ');
		if (!entry) {
			cur = NULL;
			prev = *l ? l : NULL;
			continue;
		}
		if (!cur && prev) {
			db->s = xrealloc(db->s, (db->n + 1) * sizeof(*db->s));
			cur = &db->s[db->n++];
			memset(cur, 0, sizeof(*cur));
			cur->name = xstrdup(prev);
		}
		prev = NULL;
		if (cur && (l[0] == 'F' || l[0] == 'X' || l[0] == 'N')) {
			const char *v = l + 2;
			char *t;
			size_t n;

			while (*v == ' ' || *v == '\t')
				v++;
			t = xstrdup(v);
			n = strlen(t);
			while (n && (t[n - 1] == ' ' || t[n - 1] == '\t' || t[n - 1] == '\r'))
				t[--n] = '\0';
			if (n) {
				cur->p = xrealloc(cur->p, (cur->n + 1) * sizeof(*cur->p));
				pat_init(&cur->p[cur->n++], root, l[0], t);
			}
			free(t);
		}
	}
	free(text);
	return db;
}

const char *maint_db_section(const struct maint_db *db, const char *file)
{
	const char *best = NULL;
	int best_score = -1, fs = 0;

	if (!db)
		return NULL;
	for (const char *q = file; *q; q++)
		fs += *q == '/';
	for (size_t i = 0; i < db->n; i++) {
		const struct maint_sec *s = &db->s[i];
		bool excluded = false, matched = false;
		int score = 0;

		if (!strncmp(s->name, "THE REST", 8))
			continue;
		for (size_t k = 0; k < s->n && !excluded; k++)
			if (s->p[k].type == 'X' && pat_match(&s->p[k], file, fs))
				excluded = true;
		if (excluded)
			continue;
		for (size_t k = 0; k < s->n; k++) {
			if (s->p[k].type == 'X' || !pat_match(&s->p[k], file, fs))
				continue;
			matched = true;
		}
		if (!matched)
			continue;
		/* maint_section()'s choice among the sections get_maintainer.pl prints */
		for (size_t k = 0; k < s->n; k++)
			if (s->p[k].type == 'F') {
				int sc = pattern_score(s->p[k].raw, file);

				if (sc > score)
					score = sc;
			}
		if (score > best_score || (score == best_score && best && strcmp(s->name, best) < 0)) {
			best = s->name;
			best_score = score;
		}
	}
	return best;
}

void maint_db_free(struct maint_db *db)
{
	if (!db)
		return;
	for (size_t i = 0; i < db->n; i++) {
		for (size_t k = 0; k < db->s[i].n; k++) {
			if (db->s[i].p[k].re_ok)
				regfree(&db->s[i].p[k].re);
			free(db->s[i].p[k].raw);
		}
		free(db->s[i].p);
		free(db->s[i].name);
	}
	free(db->s);
	free(db);
}
