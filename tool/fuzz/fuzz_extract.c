// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_extract.c - libFuzzer harness for the analyzer's input: the bytes
 * are one C file of a kernel-like tree, parsed by extract_tu() with the
 * fixture tree's flags, then joined and classified by classify(); the
 * result must serialize to JSON.  libFuzzer reports any crash, sanitizer
 * error, exit() (our die()) and the abort()s below.
 *
 * Built by "make fuzz" (tool/mk/sanitizers.mk) with
 * -DFIXTURE_DIR=<tests/fixtures/tree>; the seed corpus is the fixture's
 * .c files.  The file is written under a temporary tree each time:
 * extract_tu() reads files, and the tree's relative paths are what the
 * facts record.
 */
#define _GNU_SOURCE
#include "classify/classify.h"
#include "scan/extract.h"
#include "lib/util.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef FIXTURE_DIR
#error "build with -DFIXTURE_DIR=/path/to/tests/fixtures/tree"
#endif

#define REL "drivers/fuzz/fuzz-input.c"

static char *root, *path;
static struct strvec args = STRVEC_INIT;

static void cleanup(void)
{
	if (root)
		rm_rf(root);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char tmpl[] = "/tmp/polltax-fuzz-XXXXXX";
	char *dir, *real;

	(void)argc;
	(void)argv;
	/* libclang's own crash recovery would hide crashes from the sanitizers */
	setenv("LIBCLANG_DISABLE_CRASH_RECOVERY", "1", 1);
	if (!mkdtemp(tmpl))
		die("mkdtemp: %s", strerror(errno));
	real = realpath(tmpl, NULL);
	root = xstrdup(real ? real : tmpl);
	free(real);
	atexit(cleanup);
	dir = path_join(root, "drivers/fuzz");
	if (mkdir_p(dir) < 0)
		die("cannot create '%s': %s", dir, strerror(errno));
	free(dir);
	path = path_join(root, REL);
	sv_push(&args, "-nostdinc");
	sv_push(&args, "-I" FIXTURE_DIR "/include");
	sv_push(&args, "-I" FIXTURE_DIR "/include/uapi");
	sv_push(&args, "-D__KERNEL__");
	sv_push(&args, "-std=gnu11");
	sv_push(&args, "-w");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tree t = { root, (char *)"6.12.0-fuzz", NULL, NULL, false };
	json_t *facts, *tus, *failed, *notcomp, *res;
	char *err = NULL, *dump;
	FILE *f = fopen(path, "wb");

	/* no write_file_atomic(): its fsync would be most of the time spent */
	if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
		die("cannot write '%s': %s", path, strerror(errno));
	facts = extract_tu(root, REL, (const char *const *)args.v, (int)args.n, &err);
	if (!facts) {
		/* a parse may fail, but never without saying why */
		if (!err || !*err) {
			fprintf(stderr, "extract_tu returned no facts and no reason\n");
			abort();
		}
		free(err);
		return 0;
	}
	tus = json_array();
	failed = json_array();
	notcomp = json_array();
	json_object_del(facts, "deps");
	json_array_append_new(tus, facts);
	res = classify(&t, tus, NULL, failed, notcomp);
	if (!res) {
		fprintf(stderr, "classify returned NULL\n");
		abort();
	}
	dump = json_dumps(res, JSON_INDENT(1) | JSON_SORT_KEYS | JSON_ENSURE_ASCII);
	if (!dump) {
		fprintf(stderr, "the result does not serialize to JSON\n");
		abort();
	}
	free(dump);
	json_decref(res);
	json_decref(tus);
	json_decref(failed);
	json_decref(notcomp);
	return 0;
}
