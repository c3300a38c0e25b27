// SPDX-License-Identifier: GPL-2.0
/*
 * cocci.c - run cocci/classify.cocci (virtual facts) with spatch and read
 * its tab-separated lines (format in the script's header).  Results are
 * cached per file, keyed by the script and the file's bytes, so a warm scan
 * runs spatch only on what changed (scan --no-cache reads no entry).  Files are handed to spatch through a
 * list in the cache directory and spatch runs from the tree root, so FILE
 * fields come back relative to the tree.
 */
#define _GNU_SOURCE
#include "cocci.h"
#include "lib/datadir.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xxhash.h>

const char *cocci_dir(void)
{
	static char *dir;

	if (!dir)
		dir = path_join(data_dir(), "cocci");
	return dir;
}

static void parse_lines(const char *buf, json_t *out)
{
	for (const char *l = buf; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		const char *e = strchr(l, '\n');
		char *raw = e ? xstrndup(l, (size_t)(e - l)) : xstrdup(l);
		char *line = utf8_safe(raw);	/* file names and heads as the facts have them */
		char *f[9];
		int n = 0;
		char *save = line;

		free(raw);
		if (strncmp(line, "polltax-cocci\t", 14)) {
			free(line);
			continue;
		}
		for (char *p = line; n < 9; n++) {
			f[n] = p;
			p = strchr(p, '\t');
			if (!p) {
				n++;
				break;
			}
			*p++ = '\0';
		}
		if (n >= 9) {
			const char *file = f[1];
			char *key;

			if (!strncmp(file, "./", 2))
				file += 2;
			key = xasprintf("%s:%s", file, f[3]);
			json_object_set_new(out, key,
					    json_pack("{s:s, s:I, s:s, s:s, s:s, s:I, s:s, s:s}", "file", file,
						      "line", (json_int_t)atol(f[2]), "function", f[3],
						      "ops_type", f[4], "class", f[5],
						      "nheads", (json_int_t)atol(f[6]), "heads", f[7], "reason", f[8]));
			free(key);
		}
		free(save);
	}
}

json_t *cocci_run(const char *root, const struct strvec *files, int jobs, bool no_cache, bool quiet)
{
	char *script = xasprintf("%s/classify.cocci", cocci_dir()), *sbuf;
	size_t slen;
	json_t *out = json_object();
	struct strvec todo = STRVEC_INIT;
	struct strbuf list = STRBUF_INIT, res = STRBUF_INIT;
	char **keys;
	double t0 = now_seconds();

	if (!have_program("spatch")) {
		warning("spatch not found: no Coccinelle second opinion (apt-get install coccinelle)");
		free(script);
		json_decref(out);
		return NULL;
	}
	if (read_file(script, &sbuf, &slen) < 0) {
		warning("cannot read '%s': %s: no Coccinelle second opinion", script, strerror(errno));
		free(script);
		json_decref(out);
		return NULL;
	}
	keys = xcalloc(files->n + 1, sizeof(*keys));
	for (size_t i = 0; i < files->n; i++) {
		char *abs = path_join(root, files->v[i]), *buf, *cached;
		size_t len;
		XXH64_state_t *h = XXH64_createState();

		XXH64_reset(h, 1);
		XXH64_update(h, sbuf, slen);
		XXH64_update(h, files->v[i], strlen(files->v[i]) + 1);
		if (read_file(abs, &buf, &len) == 0) {
			XXH64_update(h, buf, len);
			free(buf);
		}
		keys[i] = xasprintf("%s/cocci/%016llx.tsv", cache_root(), (unsigned long long)XXH64_digest(h));
		XXH64_freeState(h);
		if (!no_cache && read_file(keys[i], &cached, NULL) == 0) {
			parse_lines(cached, out);
			free(cached);
		} else {
			sv_push(&todo, files->v[i]);
		}
		free(abs);
	}
	if (todo.n) {
		char *dir = xasprintf("%s/cocci", cache_root());
		char *groups = xasprintf("%s/groups.%d", dir, (int)getpid());
		char *macros = xasprintf("%s/classify-macros.h", cocci_dir());
		char *jobsarg = xasprintf("%d", jobs > 0 ? jobs : 1);
		int rc;

		mkdir_p(dir);
		if (!quiet)
			fprintf(stderr, "polltax: Coccinelle second opinion on %zu file%s\n", todo.n,
				todo.n == 1 ? "" : "s");
		/* one spatch run for all files; results are split per file for the cache */
		struct strvec argv = STRVEC_INIT;

		sv_push(&argv, "spatch");
		sv_push(&argv, "--sp-file");
		sv_push(&argv, script);
		sv_push(&argv, "-D");
		sv_push(&argv, "facts");
		sv_push(&argv, "--very-quiet");
		sv_push(&argv, "--no-show-diff");
		sv_push(&argv, "--no-includes");
		sv_push(&argv, "--timeout");
		sv_push(&argv, "60");
		sv_push(&argv, "--jobs");
		sv_push(&argv, jobsarg);
		sv_push(&argv, "--chunksize");
		sv_push(&argv, "1");
		/* its parallel jobs' directory, by default in the cwd: the user's tree */
		sv_push(&argv, "--tmp-dir");
		sv_pushf(&argv, "%s/jobs", dir);
		sv_push(&argv, "--ifdef-to-if");
		sv_push(&argv, "--macro-file");
		sv_push(&argv, macros);
		/* one file per group: a timeout then costs that file only */
		for (size_t i = 0; i < todo.n; i++)
			sb_addf(&list, "%s\n\n", todo.v[i]);
		if (cache_write(groups, list.buf, list.len) < 0) {
			warning("no Coccinelle second opinion: its list of files cannot be written");
			goto out;
		}
		sv_push(&argv, "--file-groups");
		sv_push(&argv, groups);
		rc = run_cmd((const char *const *)argv.v, root, &res, true);
		if (rc != 0)
			warning("spatch exited with status %d; the second opinion may be incomplete", rc);
		{
			json_t *fresh = json_object();
			const char *k;
			json_t *v;

			parse_lines(res.buf ? res.buf : "", fresh);
			/* write a cache entry per file, even an empty one */
			for (size_t i = 0; i < files->n; i++) {
				struct strbuf e = STRBUF_INIT;
				char *safe;

				if (!sv_contains(&todo, files->v[i]))
					continue;
				safe = utf8_safe(files->v[i]);
				json_object_foreach(fresh, k, v) {
					if (strcmp(json_string_value(json_object_get(v, "file")), safe))
						continue;
					sb_addf(&e, "polltax-cocci\t%s\t%lld\t%s\t%s\t%s\t%lld\t%s\t%s\n",
						safe, json_integer_value(json_object_get(v, "line")),
						json_string_value(json_object_get(v, "function")),
						json_string_value(json_object_get(v, "ops_type")),
						json_string_value(json_object_get(v, "class")),
						json_integer_value(json_object_get(v, "nheads")),
						json_string_value(json_object_get(v, "heads")),
						json_string_value(json_object_get(v, "reason")));
				}
				if (rc == 0)
					cache_write(keys[i], e.buf ? e.buf : "", e.len);
				sb_release(&e);
				free(safe);
			}
			json_object_update(out, fresh);
			json_decref(fresh);
		}
		if (!quiet)
			fprintf(stderr, "polltax: Coccinelle pass took %.1f s\n", now_seconds() - t0);
out:
		unlink(groups);
		sv_clear(&argv);
		free(groups);
		free(macros);
		free(dir);
		free(jobsarg);
	}
	for (size_t i = 0; i < files->n; i++)
		free(keys[i]);
	free(keys);
	sv_clear(&todo);
	sb_release(&list);
	sb_release(&res);
	free(sbuf);
	free(script);
	return out;
}
