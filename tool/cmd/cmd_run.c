// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_run.c - "polltax run KERNEL_DIR -o DIR": the whole job in one
 * command, each stage skipped when its inputs did not change.
 *
 * The stages are the commands a maintainer would type (README, "The
 * maintainer's workflow"), run as child processes of this same binary
 * into one output directory:
 *
 *   scan       polltax scan -o DIR/scan KERNEL_DIR
 *   series     polltax series --scan DIR/scan -o DIR/series KERNEL_DIR
 *   verify     polltax verify -o DIR/verify DIR/series KERNEL_DIR
 *   boot-test  polltax boot-test -o DIR/boot DIR/series KERNEL_DIR
 *   report     polltax series ... --tested DIR/boot/boot-test.md (the
 *              cover letter's "Tested" section), once the boot test passed
 *
 * Each stage's inputs are hashed into a key (the tree's files by path,
 * size and mtime, the polltax binary, the options, and what the stages
 * before it wrote that it reads); DIR/run.json keeps the key of each
 * stage that finished with exit status 0.  A stage whose key is the one
 * recorded, and whose output is still there, is skipped and says so; a
 * stage that fails stops the run (its exit status is the run's), and the
 * next run starts again from it.
 */
#define _GNU_SOURCE
#include "commands.h"
#include "args.h"
#include "lib/json_util.h"
#include "lib/tree.h"
#include "series/series.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

static const char usage[] =
"usage: polltax run [options] KERNEL_DIR -o DIR\n"
"\n"
"The whole job, from a kernel tree to a proven series, in one command: scan,\n"
"series, verify, boot-test, then the series again with the boot test's\n"
"\"Tested\" section in its cover letter (report).  Everything goes into DIR:\n"
"\n"
"  DIR/scan/     the scan (report.html, summary.md, history.json, ...)\n"
"  DIR/series/   the patch series to send (README.md says how)\n"
"  DIR/verify/   verify.md: git am, build, sparse, checkpatch per patch\n"
"  DIR/boot/     boot-test.md and boot-test.json\n"
"  DIR/run.json  what each stage was run on, and how it ended\n"
"\n"
"Run it again after a change (an edited driver, a new -rc, a new polltax):\n"
"a stage whose inputs did not change is skipped and says so; the others run\n"
"again.  A stage that fails stops the run with its exit status; fix what it\n"
"says and run the same command: the stages that passed are not redone.\n"
"KERNEL_DIR is never written to.\n"
"\n"
"options:\n"
"  -o, --output DIR       where everything goes (not inside KERNEL_DIR)\n"
"      --signoff ID       \"Name <mail>\" for the patches (default: git config\n"
"                         user.name and user.email)\n"
"      --config TARGET    the configuration series and verify build (default:\n"
"                         allmodconfig)\n"
"      --arch LIST        other architectures for the files x86 does not build\n"
"                         (powerpc, s390, arm64, arm, um, or all: see 'polltax scan\n"
"                         --help'); the series and verify follow the scan\n"
"      --until STAGE      stop after STAGE: scan, series, verify, boot-test\n"
"                         or report (the default: every stage)\n"
"      --from STAGE       run STAGE and those after it even if their inputs\n"
"                         did not change\n"
"      --dry-run          say which stages would run and which are up to\n"
"                         date, run none\n"
"  -j, --jobs N           parallel jobs of the stages (default: CPUs)\n"
"  -q, --quiet            only this command's own lines, not the stages'\n"
"  -h, --help             this text\n"
"\n"
"The stages are the commands of README's workflow; 'polltax help STAGE'\n"
"tells what each does.  The boot test needs qemu and builds three kernels\n"
"(tens of minutes on 2 cores the first time): --until verify leaves it out.\n"
"\n"
"exit status: 0 every stage passed or was up to date, 2 usage, otherwise\n"
"the exit status of the stage that failed (1 a check failed, 3 bad input,\n"
"4 a required tool is missing, 128 other fatal errors).\n";

enum stage { ST_SCAN, ST_SERIES, ST_VERIFY, ST_BOOT, ST_REPORT, NSTAGES };
static const char *const stage_names[NSTAGES] = { "scan", "series", "verify", "boot-test", "report" };
/* what each stage leaves in DIR: missing, the stage runs whatever its key */
static const char *const stage_outputs[NSTAGES] = { "scan/polltax.json", "series/series.json", "verify/verify.md",
						    "boot/boot-test.md", "series/series.json" };

struct run {
	const char *root;		/* the tree (real path) */
	const char *kernel;		/* as typed */
	const char *out;		/* DIR, absolute */
	const char *signoff, *config, *arches;
	int jobs;
	bool quiet, dry;
	enum stage until, from;
	json_t *state;			/* run.json */
	XXH64_hash_t tree_fp;
	char exe[4096];			/* this polltax, which runs each stage */
	XXH64_hash_t exe_hash;		/* its bytes: a new build may classify, convert or test otherwise */
};

static int stage_named(const char *opt, const char *name)
{
	for (int i = 0; i < NSTAGES; i++)
		if (!strcmp(name, stage_names[i]))
			return i;
	die_code(EXIT_USAGE, "%s: no stage '%s' (scan, series, verify, boot-test, report)", opt, name);
}

/* ---- the tree's fingerprint: every file by path, size and mtime ---- */

static struct strvec fp_lines;
static size_t fp_skip;		/* the length of the root's path and its slash */

/* What a tree prepared or built in place has beside its sources, as scratch.c leaves it out of the import. */
static bool build_product(const char *rel, const char *base)
{
	size_t n = strlen(base);

	return (n > 2 && (!strcmp(base + n - 2, ".o") || !strcmp(base + n - 3, ".ko"))) ||
	       (base[0] == '.' && n > 4 && !strcmp(base + n - 4, ".cmd")) || !strcmp(rel, ".config") ||
	       !strcmp(rel, ".config.old");
}

static int fp_visit(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	const char *rel = path + (strlen(path) > fp_skip ? fp_skip : strlen(path));
	const char *base = path + ftw->base;

	if (type == FTW_D && (!strcmp(base, ".git") || !strcmp(rel, "include/config") ||
			      !strcmp(rel, "include/generated") ||
			      (!strncmp(rel, "arch/", 5) && strstr(rel, "/include/generated"))))
		return FTW_SKIP_SUBTREE;
	if (type != FTW_F || build_product(rel, base))
		return FTW_CONTINUE;
	sv_pushf(&fp_lines, "%s %lld %lld.%09ld", rel, (long long)st->st_size, (long long)st->st_mtim.tv_sec,
		 st->st_mtim.tv_nsec);
	return FTW_CONTINUE;
}

/* The tree's files (sources, not build products), their sizes and mtimes: any change changes it. */
static XXH64_hash_t tree_fingerprint(const char *root)
{
	XXH64_state_t *h = XXH64_createState();
	XXH64_hash_t r;

	fp_skip = strlen(root) + 1;
	if (nftw(root, fp_visit, 64, FTW_PHYS | FTW_ACTIONRETVAL) < 0)
		die_code(EXIT_INPUT, "cannot read the tree '%s': %s", root, strerror(errno));
	sv_sort(&fp_lines);
	XXH64_reset(h, 0);
	for (size_t i = 0; i < fp_lines.n; i++)
		XXH64_update(h, fp_lines.v[i], strlen(fp_lines.v[i]) + 1);
	r = XXH64_digest(h);
	XXH64_freeState(h);
	sv_clear(&fp_lines);
	return r;
}

/* ---- the keys ---- */

static void hash_str(XXH64_state_t *h, const char *s)
{
	XXH64_update(h, s ? s : "(null)", strlen(s ? s : "(null)") + 1);
}

/* The bytes of FILE into H; false when it cannot be read. */
static bool hash_file(XXH64_state_t *h, const char *file)
{
	char *text;
	size_t len;

	if (read_file(file, &text, &len) != 0)
		return false;
	XXH64_update(h, text, len);
	free(text);
	return true;
}

/* The scan's facts without its dates: a scan of the same tree again gives the same. */
static bool hash_scan(XXH64_state_t *h, const char *scan_dir)
{
	char *p = path_join(scan_dir, "polltax.json");
	json_t *j = json_load_file(p, 0, NULL);
	char *text;

	free(p);
	if (!j)
		return false;
	json_object_del(j, "date");
	json_object_del(j, "generated");
	json_object_del(j, "timings");
	text = json_dumps(j, JSON_SORT_KEYS | JSON_COMPACT);
	hash_str(h, text);
	free(text);
	json_decref(j);
	return true;
}

/* The patches of a series (not its cover letters: the report stage rewrites them). */
static bool hash_patches(XXH64_state_t *h, const char *series_dir)
{
	struct strvec patches = STRVEC_INIT;
	bool ok = true;

	if (!is_dir(series_dir))
		return false;
	series_dir_patches(series_dir, &patches, NULL);
	for (size_t i = 0; i < patches.n && ok; i++) {
		char *p = path_join(series_dir, patches.v[i]);

		hash_str(h, patches.v[i]);
		ok = hash_file(h, p);
		free(p);
	}
	ok = ok && patches.n > 0;
	sv_clear(&patches);
	return ok;
}

/* R->exe, this polltax (each stage runs it), and R->exe_hash, its bytes: read once per run. */
static void self_binary(struct run *r)
{
	ssize_t n = readlink("/proc/self/exe", r->exe, sizeof(r->exe) - 1);
	XXH64_state_t *h = XXH64_createState();
	bool ok;

	r->exe[n > 0 ? n : 0] = '\0';
	XXH64_reset(h, 0);
	ok = n > 0 && hash_file(h, r->exe);
	r->exe_hash = XXH64_digest(h);
	XXH64_freeState(h);
	if (!ok)
		die("cannot read this polltax's own binary ('%s'): %s", r->exe, strerror(errno));
}

/* The key of stage S: NULL when an input it reads is missing (the stage before did not run). */
static char *stage_key(struct run *r, enum stage s)
{
	XXH64_state_t *h = XXH64_createState();
	char *series = path_join(r->out, "series"), *scan = path_join(r->out, "scan");
	char *boot = path_join(r->out, "boot/boot-test.md");
	bool ok = true;
	char *key = NULL;

	XXH64_reset(h, 0);
	hash_str(h, stage_names[s]);
	XXH64_update(h, &r->exe_hash, sizeof(r->exe_hash));
	XXH64_update(h, &r->tree_fp, sizeof(r->tree_fp));
	/* only the options a stage is given (stage_argv()) */
	if (s == ST_SERIES || s == ST_REPORT)
		hash_str(h, r->signoff);
	if (s != ST_BOOT)
		hash_str(h, r->config);
	switch (s) {
	case ST_SCAN:
		hash_str(h, r->arches);
		break;
	case ST_SERIES:
		ok = ok && hash_scan(h, scan);
		break;
	case ST_VERIFY:
	case ST_BOOT:
		ok = ok && hash_patches(h, series);
		break;
	case ST_REPORT:
		ok = ok && hash_scan(h, scan) && hash_file(h, boot);
		break;
	default:
		break;
	}
	if (ok)
		key = xasprintf("%016llx", (unsigned long long)XXH64_digest(h));
	XXH64_freeState(h);
	free(series);
	free(scan);
	free(boot);
	return key;
}

/* ---- run.json ---- */

static void state_load(struct run *r)
{
	char *p = path_join(r->out, "run.json");

	r->state = is_file(p) ? json_load_file(p, 0, NULL) : NULL;
	if (!r->state || !json_is_object(json_object_get(r->state, "stages"))) {
		json_decref(r->state);
		r->state = json_pack("{s:{}}", "stages");
	}
	free(p);
}

static void state_save(struct run *r)
{
	char *p = path_join(r->out, "run.json");
	char *text = json_dumps(r->state, JSON_INDENT(2) | JSON_SORT_KEYS);
	char *nl = xasprintf("%s\n", text);

	if (write_file_atomic(p, nl, strlen(nl)) < 0)
		die("cannot write '%s': %s", p, strerror(errno));
	free(nl);
	free(text);
	free(p);
}

/* ---- the stages ---- */

static void push_common(struct strvec *av, const struct run *r)
{
	if (r->quiet)
		sv_push(av, "-q");
}

static void series_args(struct strvec *av, const struct run *r, bool tested)
{
	sv_push(av, "series");
	push_common(av, r);
	sv_pushf(av, "--scan=%s/scan", r->out);
	if (r->signoff)
		sv_pushf(av, "--signoff=%s", r->signoff);
	if (r->config)
		sv_pushf(av, "--config=%s", r->config);
	if (tested)
		sv_pushf(av, "--tested=%s/boot/boot-test.md", r->out);
	sv_pushf(av, "--output=%s/series", r->out);
	sv_push(av, r->root);
}

static void stage_argv(struct strvec *av, const struct run *r, enum stage s)
{
	sv_push(av, r->exe);
	switch (s) {
	case ST_SCAN:
		sv_push(av, "scan");
		push_common(av, r);
		sv_pushf(av, "--jobs=%d", r->jobs);
		if (r->config)
			sv_pushf(av, "--config=%s", r->config);
		if (r->arches)
			sv_pushf(av, "--arch=%s", r->arches);
		sv_pushf(av, "--output=%s/scan", r->out);
		sv_push(av, r->root);
		break;
	case ST_SERIES:
		series_args(av, r, false);
		break;
	case ST_VERIFY:
		sv_push(av, "verify");
		push_common(av, r);
		sv_pushf(av, "--jobs=%d", r->jobs);
		if (r->config)
			sv_pushf(av, "--config=%s", r->config);
		sv_pushf(av, "--output=%s/verify", r->out);
		sv_pushf(av, "%s/series", r->out);
		sv_push(av, r->root);
		break;
	case ST_BOOT:
		sv_push(av, "boot-test");
		push_common(av, r);
		sv_pushf(av, "--jobs=%d", r->jobs);
		sv_pushf(av, "--output=%s/boot", r->out);
		sv_pushf(av, "%s/series", r->out);
		sv_push(av, r->root);
		break;
	case ST_REPORT:
		series_args(av, r, true);
		break;
	default:
		break;
	}
}

/* Run ARGV with stdout going to stderr (the stages' tables and notes are progress here); its exit status. */
static int spawn(const struct strvec *av)
{
	pid_t pid;
	int st;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		die("cannot fork: %s", strerror(errno));
	if (pid == 0) {
		dup2(2, 1);
		execv(av->v[0], av->v);
		fprintf(stderr, "polltax run: cannot run %s: %s\n", av->v[0], strerror(errno));
		_exit(EXIT_FATAL);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			die("waitpid: %s", strerror(errno));
	return WIFEXITED(st) ? WEXITSTATUS(st) : EXIT_FATAL;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Stage S: skipped when up to date, else run and recorded; its exit status. */
static int stage(struct run *r, enum stage s)
{
	json_t *rec = json_object_get(json_object_get(r->state, "stages"), stage_names[s]);
	char *key = stage_key(r, s), *outp = path_join(r->out, stage_outputs[s]);
	int n = (int)r->until + 1, rc;
	double t0;

	if (!key && r->dry) {
		fprintf(stderr, "polltax run: [%d/%d] %s: would run (after the stages before it)\n", s + 1, n,
			stage_names[s]);
		free(outp);
		return 0;
	}
	if (!key) {
		/* a stage before it was skipped by --until in an earlier run, or its output removed */
		fprintf(stderr, "polltax run: [%d/%d] %s: cannot run, what it reads is missing (run the stages "
			"before it)\n", s + 1, n, stage_names[s]);
		free(outp);
		return EXIT_INPUT;
	}
	if (s < r->from && is_file(outp) && !strcmp(jstr(rec, "key"), key) &&
	    json_integer_value(json_object_get(rec, "status")) == 0) {
		fprintf(stderr, "polltax run: [%d/%d] %s: up to date (inputs unchanged since %s), skipped\n", s + 1,
			n, stage_names[s], jstr(rec, "finished"));
		free(key);
		free(outp);
		return 0;
	}
	free(outp);
	if (r->dry) {
		fprintf(stderr, "polltax run: [%d/%d] %s: would run\n", s + 1, n, stage_names[s]);
		free(key);
		return 0;
	}
	{
		struct strvec av = STRVEC_INIT;
		char when[32];
		time_t t;

		stage_argv(&av, r, s);
		fprintf(stderr, "polltax run: [%d/%d] %s ...\n", s + 1, n, stage_names[s]);
		t0 = now_s();
		rc = spawn(&av);
		sv_clear(&av);
		t = time(NULL);
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", gmtime(&t));
		if (rc == 0)
			json_object_set_new(json_object_get(r->state, "stages"), stage_names[s],
					    json_pack("{s:s, s:i, s:s}", "key", key, "status", 0, "finished", when));
		else
			json_object_del(json_object_get(r->state, "stages"), stage_names[s]);
		state_save(r);
		fprintf(stderr, "polltax run: [%d/%d] %s: %s (%.0f s)\n", s + 1, n, stage_names[s],
			rc == 0 ? "done" : "FAILED", now_s() - t0);
		if (rc != 0)
			fprintf(stderr, "polltax run: stopped at %s (exit status %d); fix what it says and run the "
				"same command again: the stages before it are not redone\n", stage_names[s], rc);
	}
	free(key);
	return rc;
}

int cmd_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "signoff", required_argument, NULL, 'S' },
		{ "config", required_argument, NULL, 'c' },
		{ "arch", required_argument, NULL, 'A' },
		{ "until", required_argument, NULL, 'u' },
		{ "from", required_argument, NULL, 'f' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct run r = { .jobs = online_cpus(), .until = ST_REPORT, .from = NSTAGES };
	const char *typed_out = NULL;
	struct tree t;
	int c, rc = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:j:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'o': typed_out = optarg; break;
		case 'S': r.signoff = optarg; break;
		case 'c': r.config = optarg; break;
		case 'A': r.arches = args_arches(optarg); break;
		case 'u': r.until = stage_named("--until", optarg); break;
		case 'f': r.from = stage_named("--from", optarg); break;
		case 'n': r.dry = true; break;
		case 'j': r.jobs = args_jobs(optarg); break;
		case 'q': r.quiet = true; break;
		case 'h': return args_help(usage);
		default: return args_bad_option(usage);
		}
	}
	if (args_check(usage, argc, argv, optind, "KERNEL_DIR"))
		return EXIT_USAGE;
	if (!typed_out) {
		fprintf(stderr, "polltax run: -o DIR is required: where the scan, the series and the tests go\n");
		return args_bad_option(usage);
	}
	if (r.from < NSTAGES && r.from > r.until)
		die_code(EXIT_USAGE, "--from %s comes after --until %s", stage_names[r.from], stage_names[r.until]);
	tree_open(&t, argv[optind]);
	r.root = t.root;
	r.kernel = argv[optind];
	r.out = abs_path(typed_out);
	refuse_inside_tree(r.out, typed_out, "-o", false, t.root);
	args_writable_dir(r.out, typed_out, "-o");
	if (mkdir_p(r.out) < 0)
		die("cannot create '%s': %s", typed_out, strerror(errno));
	self_binary(&r);
	{
		double t0 = now_s();

		r.tree_fp = tree_fingerprint(t.root);
		if (!r.quiet)
			fprintf(stderr, "polltax run: %s (linux %s), read in %.1f s; output in %s\n", r.kernel,
				t.version, now_s() - t0, typed_out);
	}
	state_load(&r);
	for (int s = 0; s <= (int)r.until && rc == 0; s++)
		rc = stage(&r, s);
	if (rc == 0 && !r.dry)
		fprintf(stderr, "polltax run: %s: the series is %s/series (README.md there says how to send it)\n",
			r.until == ST_REPORT ? "every stage passed" : "the stages asked for passed", typed_out);
	json_decref(r.state);
	return rc;
}
