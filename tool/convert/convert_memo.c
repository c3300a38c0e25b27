// SPDX-License-Identifier: GPL-2.0
/*
 * convert_memo.c - what convert_apply() did, remembered: the cache part
 * "applied" holds, per conversion, the files it wrote (or the reason it
 * refused) and the plan as it left it, keyed by everything the result
 * depends on: polltax itself, spatch (its path, size and time), the two
 * rules (these three hashed once per run), the plan and the text of every
 * file the plan reads or writes.
 * A series run again on the same tree replays them and runs no spatch.
 */
#define _GNU_SOURCE
#include "convert_int.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <xxhash.h>

static void hash_file(XXH64_state_t *h, const char *path)
{
	char *text = NULL;
	size_t len = 0;

	if (read_file(path, &text, &len) == 0) {
		XXH64_update(h, text, len);
		XXH64_update(h, "\1", 1);
	} else {
		XXH64_update(h, "\0", 1);	/* missing: another key than any text */
	}
	free(text);
}

/*
 * The program, the spatch found in PATH and the two rules of COCCI_DIR:
 * hashed once (a run has one of each), not for every conversion
 */
static unsigned long long tools_hash(const char *cocci_dir)
{
	static unsigned long long done;
	XXH64_state_t *h;
	const char *path = getenv("PATH");
	char *p;

	if (done)
		return done;
	h = XXH64_createState();
	XXH64_reset(h, 0);
	hash_file(h, "/proc/self/exe");
	p = path_join(cocci_dir, "poll_mask.cocci");
	hash_file(h, p);
	free(p);
	p = path_join(cocci_dir, "f_poll_head.cocci");
	hash_file(h, p);
	free(p);
	while (path && *path) {
		size_t n = strcspn(path, ":");
		struct stat st;

		p = xasprintf("%.*s/spatch", (int)n, path);
		if (n && stat(p, &st) == 0 && S_ISREG(st.st_mode)) {
			char *id = xasprintf("%s %lld %lld", p, (long long)st.st_size, (long long)st.st_mtime);

			XXH64_update(h, id, strlen(id) + 1);
			free(id);
			free(p);
			break;
		}
		free(p);
		path += n + (path[n] == ':');
	}
	done = XXH64_digest(h) | 1;
	XXH64_freeState(h);
	return done;
}

char *memo_key(struct convert *c, json_t *plan, const struct strvec *files)
{
	char *dump = json_dumps(plan, JSON_COMPACT | JSON_SORT_KEYS), *p, *key;
	unsigned long long t = tools_hash(c->cocci_dir);
	XXH64_state_t *h;

	if (!dump)
		return NULL;
	h = XXH64_createState();
	XXH64_reset(h, 0);
	XXH64_update(h, "applied 1", 10);
	XXH64_update(h, &t, sizeof(t));
	XXH64_update(h, dump, strlen(dump) + 1);
	for (size_t i = 0; i < files->n; i++) {
		XXH64_update(h, files->v[i], strlen(files->v[i]) + 1);
		p = path_join(c->root, files->v[i]);
		hash_file(h, p);
		free(p);
	}
	key = xasprintf("%s/applied/%016llx.json", cache_root(), (unsigned long long)XXH64_digest(h));
	XXH64_freeState(h);
	free(dump);
	return key;
}

/*
 * The remembered result of KEY, replayed: the files written and PLAN made
 * what the apply left; 0, or -1 with *REASON (nothing written).  1: not
 * remembered (or unreadable), apply it.
 */
int memo_replay(struct convert *c, const char *key, json_t *plan, char **reason)
{
	json_t *m = key ? json_load_file(key, 0, NULL) : NULL, *files, *after, *v;
	const char *rel;
	int rc = 1;

	if (!json_is_object(m) || !json_is_object(after = json_object_get(m, "plan")))
		goto out;
	if (!json_is_true(json_object_get(m, "ok"))) {
		if (!json_is_string(json_object_get(m, "reason")))
			goto out;
		*reason = xstrdup(json_string_value(json_object_get(m, "reason")));
		rc = -1;
	} else {
		if (!json_is_object(files = json_object_get(m, "files")))
			goto out;
		json_object_foreach(files, rel, v) {
			char *p = path_join(c->root, rel);

			if (!json_is_string(v) || write_file_atomic(p, json_string_value(v), json_string_length(v)) < 0)
				die("cannot write '%s'", p);
			free(p);
		}
		rc = 0;
	}
	json_object_clear(plan);
	json_object_update(plan, after);
out:
	json_decref(m);
	return rc;
}

/* Remember under KEY what the apply of PLAN gave: RC, *REASON, FILES' texts. */
void memo_store(struct convert *c, const char *key, json_t *plan, const struct strvec *files, int rc,
		const char *reason)
{
	json_t *m = json_object(), *texts = json_object();
	char *dump;

	if (!key)
		return;
	json_object_set_new(m, "ok", json_boolean(rc == 0));
	if (rc != 0)
		json_object_set_new(m, "reason", json_string(reason ? reason : "?"));
	for (size_t i = 0; i < files->n && rc == 0; i++) {
		char *t = cv_read_rel(c, files->v[i]);

		if (!t) {
			json_decref(m);
			json_decref(texts);
			return;	/* a file went away: nothing to remember */
		}
		json_object_set_new(texts, files->v[i], json_string(t));
		free(t);
	}
	json_object_set_new(m, "files", texts);
	json_object_set(m, "plan", plan);
	dump = json_dumps(m, JSON_COMPACT | JSON_PRESERVE_ORDER);
	if (dump)
		cache_write(key, dump, strlen(dump));
	free(dump);
	json_decref(m);
}
