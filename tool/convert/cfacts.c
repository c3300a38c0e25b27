// SPDX-License-Identifier: GPL-2.0
/*
 * cfacts.c - run cocci/poll_facts.cocci -D facts on files and read
 * its lines back (see cfacts.h); find function bodies and identifiers in
 * C text without being fooled by comments and strings.
 */
#define _GNU_SOURCE
#include "cfacts.h"
#include "headexpr.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xxhash.h>

static void split_tabs(const char *line, struct strvec *out)
{
	const char *p = line;

	for (;;) {
		size_t n = strcspn(p, "\t");
		char *f = xstrndup(p, n);

		sv_push(out, f);
		free(f);
		if (!p[n])
			break;
		p += n + 1;
	}
}

static json_t *norm_str(const char *s)
{
	char *n = hx_norm(s);
	json_t *j = json_string(n ? n : s);

	free(n);
	return j;
}

/* "struct inode * inode , struct file * file" -> [{type, name}] */
static json_t *parse_params(const char *s)
{
	json_t *ps = json_array();
	struct strvec t = STRVEC_INIT;
	size_t start = 0;
	int depth = 0;

	if (!hx_split(s, &t))
		return ps;
	for (size_t i = 0; i <= t.n; i++) {
		if (i < t.n && (!strcmp(t.v[i], "(") || !strcmp(t.v[i], "[")))
			depth++;
		else if (i < t.n && (!strcmp(t.v[i], ")") || !strcmp(t.v[i], "]")))
			depth--;
		if (i == t.n || (!strcmp(t.v[i], ",") && depth == 0)) {
			if (i > start && !(i == start + 1 && !strcmp(t.v[start], "void"))) {
				struct strbuf ty = STRBUF_INIT;
				const char *name = t.v[i - 1];

				for (size_t k = start; k + 1 < i; k++) {
					if (ty.len)
						sb_addc(&ty, ' ');
					sb_adds(&ty, t.v[k]);
				}
				json_array_append_new(ps, json_pack("{s:s, s:s}", "type", ty.buf ? ty.buf : "",
								    "name", hx_is_ident(name) ? name : ""));
				sb_release(&ty);
			}
			start = i + 1;
		}
	}
	sv_clear(&t);
	return ps;
}

static int cmp_line(const void *a, const void *b)
{
	json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
	long long lx = json_integer_value(json_object_get(x, "line"));
	long long ly = json_integer_value(json_object_get(y, "line"));
	int c = (lx > ly) - (lx < ly);
	char *sx, *sy;

	if (c)
		return c;
	sx = json_dumps(x, JSON_SORT_KEYS | JSON_COMPACT);
	sy = json_dumps(y, JSON_SORT_KEYS | JSON_COMPACT);
	c = strcmp(sx, sy);
	free(sx);
	free(sy);
	return c;
}

/* spatch prints in no fixed order: sort each list by line, then text. */
static void sort_array(json_t *a)
{
	size_t n = json_array_size(a);
	json_t **v = xcalloc(n, sizeof(*v));
	json_t *x;
	size_t i;

	json_array_foreach(a, i, x)
		v[i] = json_incref(x);
	qsort(v, n, sizeof(*v), cmp_line);
	json_array_clear(a);
	for (i = 0; i < n; i++)
		json_array_append_new(a, v[i]);
	free(v);
}

static json_t *new_facts(void)
{
	return json_pack("{s:{}, s:[], s:[], s:[], s:[], s:[], s:[], s:[], s:[]}", "funcs", "decls", "assigns", "anons",
			 "anonrets", "calls", "fcalls", "anonexits", "anonfds");
}

/* Lines of -D facts output into FILES (an object rel -> facts); lines of other files are dropped. */
static void parse_facts(const char *out, json_t *files)
{
	for (const char *l = out; l && *l;) {
		const char *e = strchr(l, '\n');
		char *line = xstrndup(l, e ? (size_t)(e - l) : strlen(l));
		struct strvec c = STRVEC_INIT;
		json_t *f;

		split_tabs(line, &c);
		f = c.n >= 2 ? json_object_get(files, !strncmp(c.v[1], "./", 2) ? c.v[1] + 2 : c.v[1]) : NULL;
		if (!f) {
			/* not a facts line, or a file not asked for */
		} else if (!strcmp(c.v[0], "func") && c.n >= 4) {
			if (!json_object_get(json_object_get(f, "funcs"), c.v[2]))
				json_object_set_new(json_object_get(f, "funcs"), c.v[2],
						    json_pack("{s:i, s:o}", "line", atoi(c.v[3]), "params",
							      parse_params(c.n > 4 ? c.v[4] : "")));
		} else if (!strcmp(c.v[0], "decl") && c.n >= 7) {
			json_array_append_new(json_object_get(f, "decls"),
					      json_pack("{s:s, s:i, s:s, s:o, s:o}", "func", c.v[2], "line",
							atoi(c.v[3]), "var", c.v[4], "type", norm_str(c.v[5]),
							"init", norm_str(c.v[6])));
		} else if (!strcmp(c.v[0], "var") && c.n >= 6) {
			json_array_append_new(json_object_get(f, "decls"),
					      json_pack("{s:s, s:i, s:s, s:o, s:s}", "func", c.v[2], "line",
							atoi(c.v[3]), "var", c.v[4], "type", norm_str(c.v[5]),
							"init", ""));
		} else if (!strcmp(c.v[0], "assign") && c.n >= 6) {
			json_array_append_new(json_object_get(f, "assigns"),
					      json_pack("{s:s, s:i, s:o, s:o}", "func", c.v[2], "line", atoi(c.v[3]),
							"lhs", norm_str(c.v[4]), "rhs", norm_str(c.v[5])));
		} else if (!strcmp(c.v[0], "anon") && c.n >= 8) {
			json_array_append_new(json_object_get(f, "anons"),
					      json_pack("{s:s, s:i, s:s, s:o, s:o, s:o}", "func", c.v[2], "line",
							atoi(c.v[3]), "callee", c.v[4], "lhs", norm_str(c.v[5]),
							"fops", norm_str(c.v[6]), "priv", norm_str(c.v[7])));
		} else if (!strcmp(c.v[0], "anonfd") && c.n >= 7) {
			json_array_append_new(json_object_get(f, "anonfds"),
					      json_pack("{s:s, s:i, s:s, s:o, s:o}", "func", c.v[2], "line", atoi(c.v[3]),
							"callee", c.v[4], "fops", norm_str(c.v[5]), "priv", norm_str(c.v[6])));
		} else if (!strcmp(c.v[0], "anonret") && c.n >= 7) {
			json_array_append_new(json_object_get(f, "anonrets"),
					      json_pack("{s:s, s:i, s:s, s:o, s:o}", "func", c.v[2], "line", atoi(c.v[3]),
							"callee", c.v[4], "fops", norm_str(c.v[5]), "priv", norm_str(c.v[6])));
		} else if (!strcmp(c.v[0], "anonexit") && c.n >= 5) {
			json_array_append_new(json_object_get(f, "anonexits"),
					      json_pack("{s:s, s:i, s:b}", "func", c.v[2], "line", atoi(c.v[3]),
							"leaves", atoi(c.v[4]) == 1));
		} else if ((!strcmp(c.v[0], "call") || !strcmp(c.v[0], "fcall")) && c.n >= 5) {
			json_t *args = json_array();

			for (size_t i = 5; i < c.n; i++)
				json_array_append_new(args, norm_str(c.v[i]));
			json_array_append_new(json_object_get(f, c.v[0][0] == 'f' ? "fcalls" : "calls"),
					      json_pack("{s:s, s:i, s:s, s:o}", "func", c.v[2], "line", atoi(c.v[3]),
							"callee", c.v[4], "args", args));
		}
		sv_clear(&c);
		free(line);
		l = e ? e + 1 : NULL;
	}
}

static void sort_facts(json_t *f)
{
	sort_array(json_object_get(f, "decls"));
	sort_array(json_object_get(f, "assigns"));
	sort_array(json_object_get(f, "anons"));
	sort_array(json_object_get(f, "anonfds"));
	sort_array(json_object_get(f, "calls"));
	sort_array(json_object_get(f, "fcalls"));
}

/*
 * The facts of a file on disk, in the cache part "cfacts": keyed by the
 * semantic patch's text, the file's path in the tree and its contents, so
 * that a second series of the same tree runs no spatch for it.
 */
static char *disk_key(const char *root, const char *rel, const char *sp)
{
	static char *sp_text;
	static size_t sp_len;
	char *p = path_join(root, rel), *text = NULL, *key = NULL;
	size_t len = 0;
	XXH64_state_t *h;

	if (!sp_text && read_file(sp, &sp_text, &sp_len) < 0)
		sp_text = NULL;
	if (sp_text && read_file(p, &text, &len) == 0) {
		h = XXH64_createState();
		XXH64_reset(h, 0);
		XXH64_update(h, "cfacts 1", 9);
		XXH64_update(h, sp_text, sp_len);
		XXH64_update(h, rel, strlen(rel) + 1);
		XXH64_update(h, text, len);
		key = xasprintf("%s/cfacts/%016llx.json", cache_root(), (unsigned long long)XXH64_digest(h));
		XXH64_freeState(h);
	}
	free(text);
	free(p);
	return key;
}

static json_t *disk_load(const char *key)
{
	json_t *f = key ? json_load_file(key, 0, NULL) : NULL;

	if (f && !json_is_object(f)) {
		json_decref(f);
		f = NULL;
	}
	return f;
}

/* insertion order kept: a file's facts read back are the ones computed, key for key */
static void disk_store(const char *key, json_t *f)
{
	char *text = key ? json_dumps(f, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;

	if (text)
		cache_write(key, text, strlen(text));
	free(text);
}

int cfacts_prefetch(json_t *cache, const char *root, const struct strvec *rels, const char *cocci_dir, int jobs)
{
	json_t *want = json_object(), *keys = json_object(), *f;
	struct strbuf groups = STRBUF_INIT, out = STRBUF_INIT;
	char *sp = path_join(cocci_dir, "poll_facts.cocci"), *gfile = NULL;
	char *js = xasprintf("%d", jobs > 0 ? jobs : 1), *tmpd = xasprintf("%s/tmp", cache_root());
	const char *key;
	int rc = 0;

	for (size_t i = 0; i < rels->n; i++)
		if (!json_object_get(cache, rels->v[i]) && !json_object_get(want, rels->v[i])) {
			char *dk = disk_key(root, rels->v[i], sp);
			json_t *known = disk_load(dk);

			if (known) {
				json_object_set_new(cache, rels->v[i], known);
			} else {
				json_object_set_new(want, rels->v[i], new_facts());
				/* where spatch's answer is kept: the file is read and hashed once */
				if (dk)
					json_object_set_new(keys, rels->v[i], json_string(dk));
				sb_addf(&groups, "%s\n\n", rels->v[i]);
			}
			free(dk);
		}
	if (json_object_size(want)) {
		gfile = xasprintf("%s/facts-groups.%d", tmpd, (int)getpid());
		if (mkdir_p(tmpd) < 0 || write_file_atomic(gfile, groups.buf, groups.len) < 0) {
			rc = -1;
		} else {
			const char *argv[] = { "spatch", "--sp-file", sp, "-D", "facts", "--very-quiet", "--no-includes",
					       "--timeout", "300", "--jobs", js, "--chunksize", "1", "--file-groups",
					       gfile, NULL };

			rc = run_cmd(argv, root, &out, true) == 0 ? 0 : -1;
			unlink(gfile);
		}
		if (rc == 0) {
			parse_facts(out.buf ? out.buf : "", want);
			json_object_foreach(want, key, f) {
				sort_facts(f);
				json_object_set(cache, key, f);
				disk_store(json_string_value(json_object_get(keys, key)), f);
			}
		}
	}
	json_decref(want);
	json_decref(keys);
	sb_release(&groups);
	sb_release(&out);
	free(gfile);
	free(sp);
	free(js);
	free(tmpd);
	return rc;
}

json_t *cfacts_get(json_t *cache, const char *root, const char *rel, const char *cocci_dir, char **err)
{
	json_t *f = json_object_get(cache, rel), *want;
	struct strbuf out = STRBUF_INIT;
	char *sp = path_join(cocci_dir, "poll_facts.cocci"), *dk;
	const char *argv[] = { "spatch", "--sp-file", sp, "-D", "facts", "--very-quiet", "--no-includes",
			       "--timeout", "300", rel, NULL };
	int rc;

	if (f)
		return f;
	dk = disk_key(root, rel, sp);
	f = disk_load(dk);
	if (f) {
		json_object_set_new(cache, rel, f);
		free(dk);
		free(sp);
		return f;
	}
	rc = run_cmd(argv, root, &out, true);
	free(sp);
	if (rc != 0) {
		*err = xasprintf("spatch failed on %s (exit %d)", rel, rc);
		sb_release(&out);
		free(dk);
		return NULL;
	}
	want = json_object();
	json_object_set_new(want, rel, new_facts());
	parse_facts(out.buf ? out.buf : "", want);
	f = json_object_get(want, rel);
	sort_facts(f);
	json_object_set(cache, rel, f);
	disk_store(dk, f);
	free(dk);
	json_decref(want);
	sb_release(&out);
	return f;
}

/* Advance over a comment, string or character literal at P; returns P unchanged otherwise. */
static const char *skip_noncode(const char *p, const char *end)
{
	if (p + 1 < end && p[0] == '/' && p[1] == '*') {
		const char *e = strstr(p + 2, "*/");

		return e && e + 2 <= end ? e + 2 : end;
	}
	if (p + 1 < end && p[0] == '/' && p[1] == '/') {
		while (p < end && *p != '\n')
			p++;
		return p;
	}
	if (*p == '"' || *p == '\'') {
		char q = *p++;

		while (p < end && *p != q && *p != '\n')
			p += (*p == '\\' && p + 1 < end) ? 2 : 1;
		return p < end ? p + 1 : end;
	}
	return p;
}

static bool word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* Is P (a name) the first argument of SYSCALL_DEFINEn( or COMPAT_SYSCALL_DEFINEn(? */
static bool syscall_define(const char *text, const char *p)
{
	const char *q = p;

	while (q > text && (q[-1] == ' ' || q[-1] == '\t'))
		q--;
	if (q == text || q[-1] != '(')
		return false;
	q--;
	while (q > text && q[-1] >= '0' && q[-1] <= '9')
		q--;
	return q - text >= 14 && !strncmp(q - 14, "SYSCALL_DEFINE", 14);
}

bool cfacts_func_body(const char *text, const char *name, size_t *start, size_t *end)
{
	const char *p = text, *e = text + strlen(text);
	size_t n = strlen(name);
	int depth = 0;
	bool line_start = true;

	while (p < e) {
		const char *q = skip_noncode(p, e);

		if (q != p) {
			p = q;
			continue;
		}
		if (line_start && *p == '#') {
			/* a preprocessor line, with its continuations */
			while (p < e && *p != '\n')
				p += (*p == '\\' && p + 1 < e) ? 2 : 1;
			continue;
		}
		if (*p == '\n')
			line_start = true;
		else if (*p != ' ' && *p != '\t')
			line_start = false;
		if (*p == '{') {
			depth++;
		} else if (*p == '}') {
			depth--;
		} else if (depth == 0 && !strncmp(p, name, n) && !word_char(p[n]) && (p == text || !word_char(p[-1]))) {
			const char *r = p + n;
			int pd = 0;

			while (r < e && (*r == ' ' || *r == '\t' || *r == '\n'))
				r++;
			if (r < e && (*r == ',' || *r == ')') && syscall_define(text, p)) {
				/* SYSCALL_DEFINEn(name, ...): back to the macro's "(" */
				r = p;
				while (r > text && *r != '(')
					r--;
			}
			if (r < e && *r == '(') {
				for (; r < e; r++) {
					if (*r == '(')
						pd++;
					else if (*r == ')' && --pd == 0)
						break;
				}
				r++;
				while (r < e && (*r == ' ' || *r == '\t' || *r == '\n'))
					r++;
				if (r < e && *r == '{') {
					int d = 0;
					const char *b = r;

					while (r < e) {
						const char *s = skip_noncode(r, e);

						if (s != r) {
							r = s;
							continue;
						}
						if (*r == '{')
							d++;
						else if (*r == '}' && --d == 0)
							break;
						r++;
					}
					if (r >= e)
						return false;
					*start = (size_t)(b - text);
					*end = (size_t)(r - text) + 1;
					return true;
				}
			}
			p += n;
			continue;
		}
		p++;
	}
	return false;
}

int cfacts_count_ident(const char *text, size_t start, size_t end, const char *name, bool members_too)
{
	const char *p = text + start, *e = text + end;
	size_t n = strlen(name);
	int count = 0;

	while (p < e) {
		const char *q = skip_noncode(p, e);

		if (q != p) {
			p = q;
			continue;
		}
		if ((size_t)(e - p) >= n && !strncmp(p, name, n) && (p + n >= e || !word_char(p[n])) &&
		    (p == text || !word_char(p[-1]))) {
			const char *b = p;

			while (b > text && (b[-1] == ' ' || b[-1] == '\t'))
				b--;
			if (members_too || !(b > text && (b[-1] == '.' || (b - 1 > text && b[-1] == '>' && b[-2] == '-'))))
				count++;
			p += n;
			continue;
		}
		p++;
	}
	return count;
}

long cfacts_find_ident(const char *text, const char *name)
{
	const char *p = text, *e = text + strlen(text);
	size_t n = strlen(name);

	while (p < e) {
		const char *q = skip_noncode(p, e);

		if (q != p) {
			p = q;
			continue;
		}
		if ((size_t)(e - p) >= n && !strncmp(p, name, n) && !word_char(p[n]) && (p == text || !word_char(p[-1])))
			return (long)(p - text);
		p++;
	}
	return -1;
}

int cfacts_line_of(const char *text, size_t off)
{
	int l = 1;

	for (size_t i = 0; i < off && text[i]; i++)
		if (text[i] == '\n')
			l++;
	return l;
}

int cfacts_code_uses(const char *text, const char *name, int *lines, int max)
{
	const char *p = text, *e = text + strlen(text);
	size_t n = strlen(name);
	int depth = 0, count = 0;
	bool line_start = true, pp = false;

	while (p < e) {
		const char *q = skip_noncode(p, e);

		if (q != p) {
			p = q;
			continue;
		}
		if (*p == '\n') {
			/* a preprocessor line ends where no backslash continues it */
			if (!(p > text && p[-1] == '\\'))
				pp = false;
			line_start = true;
			p++;
			continue;
		}
		if (line_start && *p == '#')
			pp = true;
		if (*p != ' ' && *p != '\t')
			line_start = false;
		if (*p == '{' && !pp) {
			depth++;
		} else if (*p == '}' && !pp) {
			depth--;
		} else if ((size_t)(e - p) >= n && !strncmp(p, name, n) && !word_char(p[n]) &&
			   (p == text || !word_char(p[-1]))) {
			const char *b = p, *r = p + n;

			while (b > text && (b[-1] == ' ' || b[-1] == '\t'))
				b--;
			while (r < e && (*r == ' ' || *r == '\t' || *r == '\n'))
				r++;
			/* a member of the same name is not the function */
			if (!(b > text && (b[-1] == '.' || (b - 1 > text && b[-1] == '>' && b[-2] == '-'))) &&
			    (pp || depth > 0 || r >= e || *r != '(')) {
				if (count < max)
					lines[count] = cfacts_line_of(text, (size_t)(p - text));
				count++;
			}
			p += n;
			continue;
		}
		p++;
	}
	return count;
}
