// SPDX-License-Identifier: GPL-2.0
/*
 * prefilter.c - the cheap first pass, as coccicheck does with its
 * "Requires"/idutils: only .c files whose text can hold a ->poll
 * implementation, an ops initializer with a poll member, a poll helper, or
 * an invocation of a macro that builds one, are handed to libclang.
 *
 * The macro names are learnt from the tree: every "#define NAME(...)" in a
 * header whose body initializes a poll member (the DRM fops macros, for
 * instance).  Files are read once; symlinks are never followed (no loops);
 * files over 64 MiB are skipped and reported (the largest source of 6.12,
 * a register header of amdgpu, has 23 MiB: the bound is for what is not a
 * source, not to skip a header every scan).
 */
#define _GNU_SOURCE
#include "prefilter.h"
#include "unity.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <xxhash.h>

json_t *stat_stamp(const struct stat *st)
{
	return json_sprintf("%lld.%ld.%lld", (long long)st->st_mtim.tv_sec, st->st_mtim.tv_nsec,
			    (long long)st->st_size);
}

static bool member_assigned(const char *buf);
static bool read_small(const char *root, const char *rel, char **buf, char **why);

#define MAX_FILE (64u << 20)

static const char *const skip_top[] = { ".git", "tools", "Documentation", "scripts", "usr", NULL };

/* Any of these anywhere in the file... */
static const char *const needles[] = {
	"poll_table", "poll_wait", "__poll_t", "poll_requested_events", NULL,
};
/*
 * ... or one of these members being given a value ("= x", not "==").  A
 * converted ops' .poll_mask counts too: a macro that builds one (the DRM
 * fops macros after the series) must still be learnt, or its users are
 * never parsed and the implementation looks removed, not converted.
 */
static const char *const members[] = { ".poll", "->poll", ".proc_poll", ".poll_mask", NULL };
/* Changes with what the cache's answers depend on (the needles, the members, MAX_FILE). */
#define PREFILTER_RULES 3

static bool member_assigned(const char *buf)
{
	for (int m = 0; members[m]; m++) {
		size_t l = strlen(members[m]);

		for (const char *q = strstr(buf, members[m]); q; q = strstr(q + 1, members[m])) {
			const char *e = q + l;

			while (*e == ' ' || *e == '\t')
				e++;
			if (e[0] == '=' && e[1] != '=')
				return true;
		}
	}
	return false;
}

struct walkctx {
	const char *root;
	struct strvec c_files, h_files;
	struct strvec *skipped;
	json_t *stats;		/* rel -> "mtime.size" */
};

/*
 * A .c or .h that is not a regular file is not read (a FIFO would block):
 * say so, unless it is a link to a file of the tree, which is read there.
 */
static void not_regular(struct walkctx *w, const char *rel, mode_t mode)
{
	char *p = path_join(w->root, rel), *real = NULL;
	size_t rl = strlen(w->root);
	struct stat st;

	if (!S_ISLNK(mode))
		sv_pushf(w->skipped, "%s: not a regular file, not read", rel);
	else if (stat(p, &st) < 0)
		sv_pushf(w->skipped, "%s: symbolic link to nothing readable (%s), not followed", rel, strerror(errno));
	else if (!S_ISREG(st.st_mode) || !(real = realpath(p, NULL)) || strncmp(real, w->root, rl) || real[rl] != '/')
		sv_pushf(w->skipped, "%s: symbolic link out of the tree or not to a file, not followed", rel);
	free(real);
	free(p);
}

/*
 * Walk directory REL (depth DEPTH) into W.  A subdirectory is walked in
 * turn or, when DIRS is given, only listed there (the caller walks the
 * listed ones in parallel).  Entries are looked at relative to their
 * directory (fstatat), which spares the kernel the walk of the whole path.
 */
static void walk_dir(struct walkctx *w, const char *rel, int depth, struct strvec *dirs)
{
	char *abs = rel[0] ? path_join(w->root, rel) : xstrdup(w->root);
	DIR *d = opendir(abs);
	struct dirent *de;

	if (!d) {
		sv_pushf(w->skipped, "%s: cannot read directory: %s", rel[0] ? rel : ".", strerror(errno));
		free(abs);
		return;
	}
	if (depth > 64) {
		sv_pushf(w->skipped, "%s: directories nested too deep", rel);
		closedir(d);
		free(abs);
		return;
	}
	while ((de = readdir(d))) {
		const char *n = de->d_name;
		char *r;
		struct stat st;

		if (n[0] == '.' && (!n[1] || (n[1] == '.' && !n[2]) || !strcmp(n, ".git")))
			continue;
		if (!rel[0]) {
			bool skip = false;

			for (int i = 0; skip_top[i]; i++)
				skip = skip || !strcmp(n, skip_top[i]);
			if (skip)
				continue;
		}
		if (fstatat(dirfd(d), n, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		r = rel[0] ? xasprintf("%s/%s", rel, n) : xstrdup(n);
		if (S_ISREG(st.st_mode))
			json_object_set_new(w->stats, r, stat_stamp(&st));
		if (S_ISDIR(st.st_mode) && dirs)
			sv_push(dirs, r);
		else if (S_ISDIR(st.st_mode))
			walk_dir(w, r, depth + 1, NULL);
		else if (S_ISREG(st.st_mode) && has_suffix(n, ".c"))
			sv_push(&w->c_files, r);
		else if (S_ISREG(st.st_mode) && has_suffix(n, ".h"))
			sv_push(&w->h_files, r);
		else if (has_suffix(n, ".c") || has_suffix(n, ".h"))
			not_regular(w, r, st.st_mode);
		free(r);
	}
	closedir(d);
	free(abs);
}

static bool ident(char ch)
{
	return ch == '_' || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
}

/* Does TEXT[0..len) use the identifier NAME? */
static bool uses_name(const char *text, size_t len, const char *name)
{
	size_t l = strlen(name);

	for (const char *q = memmem(text, len, name, l); q;
	     q = memmem(q + 1, len - (size_t)(q + 1 - text), name, l))
		if ((q == text || !ident(q[-1])) && !ident(q[l]))
			return true;
	return false;
}

/*
 * The longest text that every name of V[from..] contains, when it has 3
 * characters or more (allocated), else NULL: a file without it uses none
 * of the names, which one memmem() tells instead of one per name.
 */
static char *common_part(const struct strvec *v, size_t from)
{
	const char *shortest = NULL;

	for (size_t k = from; k < v->n; k++)
		if (!shortest || strlen(v->v[k]) < strlen(shortest))
			shortest = v->v[k];
	for (size_t l = shortest ? strlen(shortest) : 0; l >= 3; l--) {
		for (size_t at = 0; at + l <= strlen(shortest); at++) {
			char *part = xstrndup(shortest + at, l);
			bool all = true;

			for (size_t k = from; k < v->n && all; k++)
				all = strstr(v->v[k], part) != NULL;
			if (all)
				return part;
			free(part);
		}
	}
	return NULL;
}

/* Does TEXT use any of the names of V[from..]?  PART: their common_part(). */
static bool uses_any(const char *text, size_t len, const struct strvec *v, size_t from, const char *part)
{
	if (part && !memmem(text, len, part, strlen(part)))
		return false;
	for (size_t k = from; k < v->n; k++)
		if (uses_name(text, len, v->v[k]))
			return true;
	return false;
}

/* Does every string of V contain S? */
static bool all_contain(const char *const *v, const char *s)
{
	for (; *v; v++)
		if (!strstr(*v, s))
			return false;
	return true;
}

/*
 * Run JOB(i, ARG) for every i < N on online_cpus() threads (the prefilter
 * of a cold tree reads 1.3 GB and more).  Each job writes only its own slot
 * of the caller's result arrays, which the caller then merges in index
 * order: the result is one thread's, whatever the scheduling.
 */
struct par {
	size_t n;
	atomic_size_t next;
	void (*job)(size_t i, void *arg);
	void *arg;
};

static void *par_thread(void *data)
{
	struct par *p = data;

	for (size_t i; (i = atomic_fetch_add(&p->next, 1)) < p->n; )
		p->job(i, p->arg);
	return NULL;
}

static void parallel_for(size_t n, void (*job)(size_t i, void *arg), void *arg)
{
	struct par p = { .n = n, .job = job, .arg = arg };
	int nt = online_cpus();
	pthread_t th[16];
	int started = 0;

	atomic_init(&p.next, 0);
	if (nt > 16)
		nt = 16;
	for (int t = 1; t < nt && (size_t)t < n; t++)
		if (pthread_create(&th[started], NULL, par_thread, &p) == 0)
			started++;
	par_thread(&p);	/* this thread works too; with no other, it does all */
	for (int t = 0; t < started; t++)
		pthread_join(th[t], NULL);
}

/*
 * The walk of the tree: its first two levels here, then each directory
 * below them on its own (parallel_for()), merged in their order.
 */
struct pwalk {
	const char *root;
	const struct strvec *dirs;
	struct walkctx *sub;
};

static void walk_one(size_t i, void *arg)
{
	struct pwalk *p = arg;
	struct walkctx *s = &p->sub[i];

	s->root = p->root;
	s->skipped = xcalloc(1, sizeof(*s->skipped));
	s->stats = json_object();
	walk_dir(s, p->dirs->v[i], 2, NULL);
}

static void walk_tree(struct walkctx *w)
{
	struct strvec top = STRVEC_INIT, second = STRVEC_INIT;
	struct pwalk p = { w->root, &second, NULL };

	walk_dir(w, "", 0, &top);
	for (size_t i = 0; i < top.n; i++)
		walk_dir(w, top.v[i], 1, &second);
	p.sub = xcalloc(second.n ? second.n : 1, sizeof(*p.sub));
	parallel_for(second.n, walk_one, &p);
	for (size_t i = 0; i < second.n; i++) {
		struct walkctx *s = &p.sub[i];
		struct strvec *from[] = { &s->c_files, &s->h_files, s->skipped };
		struct strvec *to[] = { &w->c_files, &w->h_files, w->skipped };

		for (int k = 0; k < 3; k++) {
			for (size_t j = 0; j < from[k]->n; j++)
				sv_push(to[k], from[k]->v[j]);
			sv_clear(from[k]);
		}
		json_object_update(w->stats, s->stats);
		json_decref(s->stats);
		free(s->skipped);
	}
	free(p.sub);
	sv_clear(&top);
	sv_clear(&second);
}

/*
 * Learn from the headers the macros that build a poll member: a body that
 * assigns .poll, then (to a fixed point) a body that uses such a macro
 * (DEFINE_DRM_GEM_FOPS uses DRM_GEM_FOPS, which sets .poll).  NEW_ONLY
 * restricts a round to the headers that use a name learnt last round.
 */
static void learn_round(const char *buf, const struct strvec *known, size_t from, struct strvec *out)
{
	for (const char *p = strstr(buf, "#define "); p; p = strstr(p + 1, "#define ")) {
		const char *nm = p + 8, *e = nm, *end;
		char *name;
		bool hit = false;

		while (ident(*e))
			e++;
		if (e == nm)
			continue;
		for (end = e; *end; end++)
			if (*end == '\n' && end[-1] != '\\')
				break;
		if (from == (size_t)-1) {
			char *body = xstrndup(e, (size_t)(end - e));

			hit = member_assigned(body);
			free(body);
		} else {
			for (size_t k = from; k < known->n && !hit; k++)
				hit = uses_name(e, (size_t)(end - e), known->v[k]);
		}
		if (!hit)
			continue;
		name = xstrndup(nm, (size_t)(e - nm));
		if (!sv_contains(known, name) && !sv_contains(out, name))
			sv_push(out, name);
		free(name);
	}
}

struct learn {
	const char *root;
	const struct strvec *headers, *macros;
	size_t from;
	struct strvec *fresh;	/* per header: the names it gives */
	char **why;		/* per header: why it was not read (first round), or NULL */
	bool first;
	char *part;		/* common_part() of the names learnt last round */
};

static void learn_one(size_t i, void *arg)
{
	struct learn *l = arg;
	char *buf;
	size_t len;
	bool relevant = l->from == (size_t)-1;

	if (!read_small(l->root, l->headers->v[i], &buf, l->first ? &l->why[i] : NULL))
		return;
	len = strlen(buf);	/* (the text ends at a NUL byte, as strstr() sees it) */
	if (l->from == (size_t)-1)
		relevant = strstr(buf, "poll") != NULL;
	else
		relevant = uses_any(buf, len, l->macros, l->from, l->part);
	if (relevant)
		learn_round(buf, l->macros, l->from, &l->fresh[i]);
	free(buf);
}

static void learn_macros(const char *root, const struct strvec *headers, struct strvec *macros,
			 struct strvec *skipped)
{
	size_t from = (size_t)-1;
	size_t n = headers->n;
	struct learn l = { root, headers, macros, 0, xcalloc(n ? n : 1, sizeof(struct strvec)),
			   xcalloc(n ? n : 1, sizeof(char *)), true, NULL };

	for (int round = 0; round < 8; round++) {
		struct strvec fresh = STRVEC_INIT;

		l.from = from;
		l.first = round == 0;
		l.part = round == 0 ? NULL : common_part(macros, from);
		parallel_for(n, learn_one, &l);
		free(l.part);
		/* in header order, as one thread reading them in turn would */
		for (size_t i = 0; i < n; i++) {
			for (size_t k = 0; k < l.fresh[i].n; k++)
				if (!sv_contains(macros, l.fresh[i].v[k]) && !sv_contains(&fresh, l.fresh[i].v[k]))
					sv_push(&fresh, l.fresh[i].v[k]);
			sv_clear(&l.fresh[i]);
			if (l.why[i]) {
				sv_push(skipped, l.why[i]);
				free(l.why[i]);
				l.why[i] = NULL;
			}
		}
		from = macros->n;
		for (size_t k = 0; k < fresh.n; k++)
			sv_push(macros, fresh.v[k]);
		sv_clear(&fresh);
		if (from == macros->n)
			break;
	}
	free(l.fresh);
	free(l.why);
}

/* Read ROOT/REL whole into *BUF; if not, and WHY, *WHY says why (allocated). */
static bool read_small(const char *root, const char *rel, char **buf, char **why)
{
	char *p = path_join(root, rel);
	size_t len;
	int rc = read_file_max(p, buf, &len, MAX_FILE);

	if (rc < 0 && why)
		*why = errno == EFBIG ? xasprintf("%s: larger than %u MiB, not read", rel, MAX_FILE >> 20)
				      : xasprintf("%s: cannot read: %s", rel, strerror(errno));
	free(p);
	return rc == 0;
}

static char *fingerprint(const struct strvec *files, json_t *stats)
{
	XXH64_state_t *h = XXH64_createState();
	char *r;

	XXH64_reset(h, 0);
	for (size_t i = 0; i < files->n; i++) {
		const char *s = json_string_value(json_object_get(stats, files->v[i]));

		XXH64_update(h, files->v[i], strlen(files->v[i]) + 1);
		XXH64_update(h, s ? s : "", s ? strlen(s) + 1 : 1);
	}
	r = xasprintf("%016llx", (unsigned long long)XXH64_digest(h));
	XXH64_freeState(h);
	return r;
}

struct cscan {
	const char *root;
	const struct strvec *files, *macros;
	int *hit;		/* per file: -2 answered by the cache, -1 to read; then 0 or 1 */
	char **why;		/* per file read: why it could not be, or NULL */
	struct strvec *incs;	/* per file read: the .c files of the tree it #includes */
	char *part;		/* common_part() of the macros */
	bool poll_first;	/* every needle and member contains "poll" */
};

/* The array at KEY of OBJ, made empty if there is none. */
static json_t *list_of(json_t *obj, const char *key)
{
	json_t *a = json_object_get(obj, key);

	if (!a) {
		a = json_array();
		json_object_set_new(obj, key, a);
	}
	return a;
}

/* Can .c file I hold a poll implementation (it is read)? */
static void scan_c_file(size_t i, void *arg)
{
	struct cscan *cs = arg;
	char *buf;
	size_t len;
	bool hit = false;

	if (cs->hit[i] != -1)
		return;
	if (read_small(cs->root, cs->files->v[i], &buf, &cs->why[i])) {
		len = strlen(buf);	/* (the text ends at a NUL byte, as strstr() sees it) */
		unity_c_includes(cs->files->v[i], buf, len, &cs->incs[i]);
		if (!cs->poll_first || strstr(buf, "poll")) {
			for (int k = 0; needles[k] && !hit; k++)
				hit = strstr(buf, needles[k]) != NULL;
			hit = hit || member_assigned(buf);
		}
		hit = hit || uses_any(buf, len, cs->macros, 0, cs->part);
		free(buf);
	}
	cs->hit[i] = hit;
}

/*
 * The prefilter remembers its work in $CACHE/prefilter/<tree>.json: the
 * macros learnt from the headers (valid while no header changed) and, per .c
 * file, whether it was kept (valid while the file and the macros are as
 * they were).  A warm run stats the tree and reads only what changed.
 */
void prefilter(const char *root, struct strvec *files, struct strvec *skipped)
{
	prefilter_all(root, files, skipped, NULL, NULL, NULL);
}

void prefilter_all(const char *root, struct strvec *files, struct strvec *skipped, struct strvec *all,
		   json_t **stats, json_t **included_by)
{
	struct walkctx w = { root, STRVEC_INIT, STRVEC_INIT, skipped, json_object() };
	struct strvec macros = STRVEC_INIT;
	char *cpath = xasprintf("%s/prefilter/%016llx-r%d.json", cache_root(),
				(unsigned long long)XXH64(root, strlen(root), 0), PREFILTER_RULES);
	json_t *cache = json_load_file(cpath, 0, NULL), *cfiles, *newc = json_object(), *v;
	json_t *hskipped = json_array();
	char *hfp, *mfp;
	size_t i;

	walk_tree(&w);
	sv_sort(&w.c_files);
	sv_sort(&w.h_files);
	hfp = fingerprint(&w.h_files, w.stats);
	/* (a cache written before "headers_skipped" existed does not say them: not used) */
	if (cache && json_object_get(cache, "headers_skipped") &&
	    !strcmp(json_string_value(json_object_get(cache, "headers")) ?: "", hfp)) {
		json_array_foreach(json_object_get(cache, "macros"), i, v)
			sv_push(&macros, json_string_value(v));
		/* the headers not read then are not read now: say so again */
		json_array_foreach(json_object_get(cache, "headers_skipped"), i, v)
			json_array_append(hskipped, v);
	} else {
		struct strvec hs = STRVEC_INIT;

		learn_macros(root, &w.h_files, &macros, &hs);
		for (i = 0; i < hs.n; i++)
			json_array_append_new(hskipped, json_string(hs.v[i]));
		sv_clear(&hs);
	}
	json_array_foreach(hskipped, i, v)
		sv_push(skipped, json_string_value(v));
	mfp = fingerprint(&macros, w.stats);
	cfiles = cache && !strcmp(json_string_value(json_object_get(cache, "macro_set")) ?: "", mfp)
		 ? json_object_get(cache, "c") : NULL;
	{
		/* the files the cache does not answer for are read in parallel */
		struct cscan cs = { root, &w.c_files, &macros, xcalloc(w.c_files.n ? w.c_files.n : 1, sizeof(int)),
				    xcalloc(w.c_files.n ? w.c_files.n : 1, sizeof(char *)),
				    xcalloc(w.c_files.n ? w.c_files.n : 1, sizeof(struct strvec)),
				    common_part(&macros, 0),
				    all_contain(needles, "poll") && all_contain(members, "poll") };
		json_t *inc_by = json_object();

		for (i = 0; i < w.c_files.n; i++) {
			const char *rel = w.c_files.v[i];
			const char *st = json_string_value(json_object_get(w.stats, rel));
			json_t *old = json_object_get(cfiles, rel);

			/* (an entry from before the includes were remembered is read again) */
			cs.hit[i] = old && json_array_size(old) >= 4 &&
				    !strcmp(json_string_value(json_array_get(old, 0)) ?: "", st ? st : "")
				    ? -2 : -1;	/* -2: the cache's answer; -1: to read */
		}
		parallel_for(w.c_files.n, scan_c_file, &cs);
		for (i = 0; i < w.c_files.n; i++) {
			const char *rel = w.c_files.v[i];
			const char *st = json_string_value(json_object_get(w.stats, rel));
			json_t *old = json_object_get(cfiles, rel), *incs, *inc;
			size_t k;
			bool hit;

			if (cs.hit[i] == -2) {
				hit = json_is_true(json_array_get(old, 1));
				if (json_string_length(json_array_get(old, 2)))
					sv_push(skipped, json_string_value(json_array_get(old, 2)));
				json_object_set(newc, rel, old);
				incs = json_array_get(old, 3);
			} else {
				hit = cs.hit[i] == 1;
				if (cs.why[i])
					sv_push(skipped, cs.why[i]);
				incs = json_array();
				for (k = 0; k < cs.incs[i].n; k++)
					json_array_append_new(incs, json_string(cs.incs[i].v[k]));
				sv_clear(&cs.incs[i]);
				json_object_set_new(newc, rel, json_pack("[s, b, s, o]", st ? st : "", hit,
									 cs.why[i] ? cs.why[i] : "", incs));
				free(cs.why[i]);
			}
			if (hit)
				sv_push(files, rel);
			/* a unity build: the .c files of the tree it #includes, included -> includers */
			json_array_foreach(incs, k, inc) {
				const char *ir = json_string_value(inc);

				if (ir && strcmp(ir, rel) && json_object_get(w.stats, ir) && has_suffix(ir, ".c"))
					json_array_append_new(list_of(inc_by, ir), json_string(rel));
			}
		}
		free(cs.hit);
		free(cs.why);
		free(cs.incs);
		free(cs.part);
		if (included_by)
			*included_by = inc_by;
		else
			json_decref(inc_by);
	}
	{
		json_t *mac = json_array(), *out;
		char *dump;

		for (i = 0; i < macros.n; i++)
			json_array_append_new(mac, json_string(macros.v[i]));
		out = json_pack("{s:s, s:o, s:O, s:s, s:o}", "headers", hfp, "macros", mac, "headers_skipped", hskipped,
				"macro_set", mfp, "c", newc);
		dump = json_dumps(out, JSON_COMPACT);
		if (dump)
			cache_write(cpath, dump, strlen(dump));
		free(dump);
		json_decref(out);
	}
	json_decref(cache);
	json_decref(hskipped);
	if (all)
		for (i = 0; i < w.c_files.n; i++)
			sv_push(all, w.c_files.v[i]);
	if (stats)
		*stats = w.stats;
	else
		json_decref(w.stats);
	free(cpath);
	free(hfp);
	free(mfp);
	sv_clear(&w.c_files);
	sv_clear(&w.h_files);
	sv_clear(&macros);
}

/* ---- definers: the files that define the functions a head comes from ------ */

/*
 * The words of a set of names, for a first test of a file in one pass over
 * its identifiers: a name (or, for "STRUCT.FIELD", its struct) that is no
 * identifier of the file cannot match, whatever the predicate.
 */
struct wset {
	const char **k;
	size_t cap;
};

static size_t wset_slot(const struct wset *s, const char *w, size_t len)
{
	size_t i = (size_t)XXH64(w, len, 0) & (s->cap - 1);

	while (s->k[i] && (strcspn(s->k[i], ".") != len || memcmp(s->k[i], w, len)))
		i = (i + 1) & (s->cap - 1);
	return i;
}

static void wset_init(struct wset *s, const struct strvec *names)
{
	s->cap = 16;
	while (s->cap < names->n * 4)
		s->cap <<= 1;
	s->k = xcalloc(s->cap, sizeof(*s->k));
	for (size_t n = 0; n < names->n; n++) {
		const char *w = names->v[n];
		size_t len = strcspn(w, ".");	/* STRUCT.FIELD: the struct */

		s->k[wset_slot(s, w, len)] = w;
	}
}

/* Is any identifier of TEXT a word of S? */
static bool wset_any(const struct wset *s, const char *text, size_t len)
{
	for (size_t i = 0; i < len;) {
		size_t j;

		if (!ident(text[i]) || (i > 0 && ident(text[i - 1]))) {
			i++;
			continue;
		}
		for (j = i; j < len && ident(text[j]); j++)
			;
		if (s->k[wset_slot(s, text + i, j - i)])
			return true;
		i = j;
	}
	return false;
}

struct dscan {
	const char *root;
	const struct strvec *files, *names;
	int *hit;
	bool (*match)(const char *text, size_t len, const char *name);
	struct wset words;
};

/*
 * Does TEXT define NAME?  Kernel style puts a definition's return type at
 * the start of the line and ends its head without ';': "T NAME(" or
 * "NAME(" at column 0, on a line that is no declaration, no call and no
 * preprocessor line.  A false hit costs a parse; a miss leaves a head
 * unknown.
 */
static bool defines(const char *text, size_t len, const char *name)
{
	size_t l = strlen(name);

	for (const char *q = memmem(text, len, name, l); q; q = memmem(q + 1, len - (size_t)(q + 1 - text), name, l)) {
		const char *bol = q, *eol;

		if ((q > text && ident(q[-1])) || q[l] != '(')
			continue;
		while (bol > text && bol[-1] != '\n')
			bol--;
		if (*bol == ' ' || *bol == '\t' || *bol == '#' || *bol == '/' || *bol == '*' || *bol == '}')
			continue;
		if (memchr(bol, '=', (size_t)(q - bol)) || memchr(bol, '(', (size_t)(q - bol)))
			continue;
		eol = memchr(q, '\n', len - (size_t)(q - text));
		if (!eol)
			eol = text + len;
		while (eol > q && (eol[-1] == ' ' || eol[-1] == '\t' || eol[-1] == '\r'))
			eol--;
		if (eol > q && eol[-1] == ';')
			continue;
		return true;
	}
	return false;
}

static void scan_definer(size_t i, void *arg)
{
	struct dscan *ds = arg;
	char *buf;
	size_t len;

	if (ds->hit[i] < 0 || !read_small(ds->root, ds->files->v[i], &buf, NULL))
		return;
	len = strlen(buf);
	/* one pass over its identifiers first: most files name none of them */
	if (wset_any(&ds->words, buf, len))
		for (size_t k = 0; k < ds->names->n && !ds->hit[i]; k++)
			ds->hit[i] = ds->match(buf, len, ds->names->v[k]);
	free(buf);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Does TEXT name NAME, as a whole word (a reference, a declaration or the definition)? */
static bool mentions(const char *text, size_t len, const char *name)
{
	size_t l = strlen(name);

	for (const char *q = memmem(text, len, name, l); q; q = memmem(q + 1, len - (size_t)(q + 1 - text), name, l))
		if (!(q > text && ident(q[-1])) && !ident(q[l]))
			return true;
	return false;
}

/*
 * NAME is "STRUCT.FIELD": does TEXT name the struct and the member
 * ("->FIELD" or ".FIELD")?  A framework that reads it does both.
 */
static bool mentions_member(const char *text, size_t len, const char *name)
{
	const char *dot = strchr(name, '.');
	char *st;
	bool r;

	if (!dot)
		return mentions(text, len, name);
	st = xstrndup(name, (size_t)(dot - name));
	r = mentions(text, len, st);
	free(st);
	if (!r)
		return false;
	for (const char *q = memmem(text, len, dot + 1, strlen(dot + 1)); q;
	     q = memmem(q + 1, len - (size_t)(q + 1 - text), dot + 1, strlen(dot + 1))) {
		size_t l = strlen(dot + 1);

		if (q > text && (q[-1] == '.' || (q[-1] == '>' && q - 1 > text && q[-2] == '-')) && !ident(q[l]))
			return true;
	}
	return false;
}

/* The files of ALL, less EXCLUDE, whose text MATCHes a name of NAMES; cached as "<what>-<hash>.json". */
static void find_files_matching(const char *root, const struct strvec *all, json_t *stats, const struct strvec *names,
				const struct strvec *exclude, struct strvec *out, const char *what,
				bool (*match)(const char *, size_t, const char *))
{
	struct dscan ds = { root, all, names, xcalloc(all->n ? all->n : 1, sizeof(int)), match, { NULL, 0 } };
	XXH64_state_t *h = XXH64_createState();
	char *cpath, *key;
	json_t *cache, *v;
	size_t i;

	/* the answer is remembered while the names and every .c file are as they were */
	XXH64_reset(h, 0);
	for (i = 0; i < names->n; i++)
		XXH64_update(h, names->v[i], strlen(names->v[i]) + 1);
	/* and what was left out: the answer is the files not in it */
	XXH64_update(h, "\0exclude", 9);
	for (i = 0; i < exclude->n; i++)
		XXH64_update(h, exclude->v[i], strlen(exclude->v[i]) + 1);
	key = fingerprint(all, stats);
	XXH64_update(h, key, strlen(key));
	free(key);
	cpath = xasprintf("%s/prefilter/%s-%016llx.json", cache_root(), what, (unsigned long long)XXH64_digest(h));
	XXH64_freeState(h);
	cache = json_load_file(cpath, 0, NULL);
	if (json_is_array(cache)) {
		json_array_foreach(cache, i, v)
			sv_push(out, json_string_value(v));
	} else {
		json_t *found = json_array();
		char *dump;

		for (i = 0; i < all->n; i++)	/* EXCLUDE is sorted */
			if (exclude->n && bsearch(&all->v[i], exclude->v, exclude->n, sizeof(char *), cmp_str))
				ds.hit[i] = -1;
		wset_init(&ds.words, names);
		parallel_for(all->n, scan_definer, &ds);
		free(ds.words.k);
		for (i = 0; i < all->n; i++)
			if (ds.hit[i] == 1) {
				sv_push(out, all->v[i]);
				json_array_append_new(found, json_string(all->v[i]));
			}
		dump = json_dumps(found, JSON_COMPACT);
		if (dump)
			cache_write(cpath, dump, strlen(dump));	/* one warning when the cache is full */
		free(dump);
		json_decref(found);
	}
	json_decref(cache);
	free(cpath);
	free(ds.hit);
}

void find_definers(const char *root, const struct strvec *all, json_t *stats, const struct strvec *names,
		   const struct strvec *exclude, struct strvec *out)
{
	find_files_matching(root, all, stats, names, exclude, out, "definers", defines);
}

void find_referrers(const char *root, const struct strvec *all, json_t *stats, const struct strvec *names,
		    const struct strvec *exclude, struct strvec *out)
{
	find_files_matching(root, all, stats, names, exclude, out, "referrers", mentions);
}

void names_in_files(const char *root, const struct strvec *files, const struct strvec *names, struct strvec *out)
{
	for (size_t i = 0; i < files->n; i++) {
		char *buf;

		if (!read_small(root, files->v[i], &buf, NULL))
			continue;
		for (size_t k = 0; k < names->n; k++)
			if (mentions(buf, strlen(buf), names->v[k]))
				sv_push(&out[i], names->v[k]);
		free(buf);
	}
}

void find_member_readers(const char *root, const struct strvec *all, json_t *stats, const struct strvec *fields,
			 const struct strvec *exclude, struct strvec *out)
{
	find_files_matching(root, all, stats, fields, exclude, out, "readers", mentions_member);
}
