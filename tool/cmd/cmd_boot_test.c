// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_boot_test.c - "polltax boot-test SERIES_DIR KERNEL_DIR -o DIR": prove
 * a series in a running kernel.  Builds the base, patched and two-call
 * kernels (boot_kernel.c), boots each in qemu with the guest program
 * (boot_guest.c), once for the checks and once for the benchmark, and
 * writes DIR/boot-test.json, DIR/boot-test.md and DIR/logs/ (boot_report.c).
 */
#define _GNU_SOURCE
#include "args.h"
#include "commands.h"
#include "boot/boot.h"
#include "lib/datadir.h"
#include "lib/kbuild.h"
#include "lib/tree.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage[] =
"usage: polltax boot-test [options] SERIES_DIR KERNEL_DIR\n"
"\n"
"Prove a series in a running kernel.  In scratch worktrees of KERNEL_DIR\n"
"(under ~/.cache/polltax/boot/; the tree is only read) build x86_64\n"
"kernels from one tinyconfig-based configuration that also enables every\n"
"converted file's Kconfig symbol:\n"
"  base      KERNEL_DIR as it is\n"
"  patched   with SERIES_DIR/*.patch applied by git am (the cover letter\n"
"            left out)\n"
"  two-call  the two-call infrastructure made for KERNEL_DIR (as 'polltax\n"
"            infra --two-call' writes it), the series without its first\n"
"            (infrastructure) patch, and a generated commit that gives\n"
"            every converted file .get_poll_head = file_get_poll_head\n"
"and base and patched again with KASAN and lockdep (base-kasan,\n"
"patched-kasan: a use after free of a wait queue is a report there).\n"
"Boot each under qemu with busybox and the guest program polltest\n"
"(tool/boot/guest/) in an initramfs: once for the checks (KVM if it works,\n"
"else TCG), and the three plain ones once more for the benchmark (TCG,\n"
"-icount shift=0,sleep=off: guest instructions per call).  A second run\n"
"rebuilds only what changed.\n"
"\n"
"Writes DIR/boot-test.json (the facts), DIR/boot-test.md (a \"Tested\"\n"
"section for the cover letter) and DIR/logs/ (every console log).\n"
"\n"
"options:\n"
"  -o, --output DIR      where to write (default: boot-test-out)\n"
"  -j, --jobs N          make -j (default: the number of CPUs)\n"
"      --kernels LIST    which kernels, from base,patched,two-call,\n"
"                        base-kasan,patched-kasan (default: all five; base is\n"
"                        always built).  The -kasan ones are base and patched\n"
"                        built again with KASAN and lockdep, booted for the\n"
"                        checks only: the same results as base, no report\n"
"      --no-bench        skip the benchmark boots\n"
"      --mutate[=FILE]   remove one f_poll_head assignment from (a copy of) the\n"
"                        series first, in FILE or else in a file the guest\n"
"                        exercises (one whose wake-ups it tests, if any): the\n"
"                        run must then fail and name the file type\n"
"      --lifetime        with --mutate: point the head at a wait queue freed\n"
"                        before the file is, instead of removing it (a use\n"
"                        after free: lost wake-ups, and a KASAN report on\n"
"                        the -kasan kernels); the run must fail and name the\n"
"                        file type\n"
"      --timeout SEC     hard limit per boot (default: 600; three times that\n"
"                        for the -kasan kernels)\n"
"      --accel A         auto, tcg or kvm for the checks (default: auto: KVM if\n"
"                        /dev/kvm works, else TCG); the benchmark is always TCG\n"
"      --work DIR        scratch directory (default: ~/.cache/polltax/boot/<tree>)\n"
"      --guest PROG      the guest program (default: boot/polltest beside polltax)\n"
"      --kernel-patches DIR  hand-written two-call patches in\n"
"                        DIR/<VERSION.PATCHLEVEL>/two-call/ instead\n"
"      --busybox PROG    a static busybox (default: /bin/busybox, busybox-static)\n"
"      --qemu PROG       default: qemu-system-x86_64 (qemu-system-x86)\n"
"      --guest-args ARGS more arguments for the guest program, ':' for spaces\n"
"                        (e.g. -k:eventfd,pipe runs only those file types)\n"
"      --plan            print what the series converts, which file types the\n"
"                        guest exercises, the converted files' Kconfig\n"
"                        symbols and the options they need beyond the\n"
"                        backends, the backends the guest makes their\n"
"                        files with (lines 'backend KIND SYMBOL NEEDS'),\n"
"                        then stop (with\n"
"                        --mutate: write the mutated series to\n"
"                        DIR/mutated-series); builds nothing\n"
"  -q, --quiet           no progress output\n"
"  -h, --help            this text\n"
"\n"
"exit status: 0 every kernel booted and gave the base kernel's results,\n"
"1 a check failed (a difference, a panic, oops, WARN, lockdep report, hang,\n"
"or the series does not apply or build), 2 usage, 3 bad input, 4 a tool is\n"
"missing or failed, 128 other fatal errors.\n";

static char *default_guest(void)
{
	return exe_dir() ? xasprintf("%s/boot/polltest", exe_dir()) : xstrdup("build/boot/polltest");
}

static void copy_logs(const struct boot_report *r, const char *out)
{
	char *dir = path_join(out, "logs");

	mkdir_p(dir);
	for (int id = 0; id < NR_KERNELS; id++) {
		const struct boot_result *b[2] = { &r->runs[id].test, &r->runs[id].bench };

		for (int j = 0; j < 2; j++) {
			char *text, *dst;
			size_t len;

			if (!b[j]->ran || !b[j]->log || read_file(b[j]->log, &text, &len) < 0)
				continue;
			dst = xasprintf("%s/%s-%s.console.log", dir, kernel_names[id], j ? "bench" : "test");
			if (write_file_atomic(dst, text, len) < 0)
				die("cannot write '%s'", dst);
			free(dst);
			free(text);
		}
	}
	free(dir);
}

/* --plan: the facts the run would start from, one tab-separated line each */
/* Does ROOT/FILE include <linux/slab.h> itself (kmalloc() and kfree() are declared there)? */
static bool includes_slab(const char *root, const char *file)
{
	char *p = path_join(root, file), *text;
	bool yes = false;

	if (read_file(p, &text, NULL) == 0) {
		yes = strstr(text, "#include <linux/slab.h>") != NULL;
		free(text);
	}
	free(p);
	return yes;
}

/*
 * --mutate: mutate one f_poll_head assignment of S into DIR (KIND: removed,
 * or with --lifetime pointed at a freed queue), in MUTATE when it names a
 * file, else in a file type the guest exercises, one whose wake-ups it
 * tests first (there a lost head shows); with --lifetime, in a file that
 * includes <linux/slab.h> (tree ROOT), so that the mutated line builds.
 * Dies when the series sets a head nowhere.
 */
static const struct head_site *mutate_series(const struct boot_series *s, const struct boot_report *rep,
					     const char *mutate, enum mutation_kind kind, const char *root,
					     const char *dir)
{
	struct strvec prefer = STRVEC_INIT;
	const struct head_site *h;

	if (*mutate)
		sv_push(&prefer, mutate);
	for (int pass = 0; pass < 2 && !*mutate; pass++)
		for (size_t i = 0; i < rep->nkinds; i++)
			if (rep->kinds[i].always_ready == (pass == 1) &&
			    boot_series_converts(s, rep->kinds[i].source, rep->kinds[i].poll_fn) &&
			    (kind != MUTATE_LIFETIME || includes_slab(root, rep->kinds[i].source)))
				sv_push(&prefer, rep->kinds[i].source);
	if (kind == MUTATE_LIFETIME && !*mutate && !prefer.n)
		die_code(EXIT_INPUT, "--mutate --lifetime: no file type the guest exercises is converted in a file that "
			 "includes <linux/slab.h> (the mutated line needs kmalloc() and kfree()); name one with "
			 "--mutate=FILE");
	h = boot_series_mutate(s, &prefer, dir, kind);
	sv_clear(&prefer);
	if (!h)
		die_code(EXIT_INPUT, "--mutate: the series sets f_poll_head nowhere");
	return h;
}

static int print_plan(const struct boot_series *s, const struct boot_report *rep, const char *kernel_dir,
		      const char *mutate, bool lifetime, const char *out)
{
	char *tree = realpath_or_die(kernel_dir);
	struct kbuild *kb = kbuild_new(tree, NULL);
	struct strbuf backends = STRBUF_INIT;
	struct strvec seed = STRVEC_INIT;

	for (size_t i = 0; i < s->patches.n; i++)
		printf("patch\t%zu\t%s\t%s\n", i + 1, strrchr(s->patches.v[i], '/') + 1, s->subjects.v[i]);
	if (s->cover)
		printf("cover\t%s\n", strrchr(s->cover, '/') + 1);
	for (size_t i = 0; i < s->nconv; i++)
		printf("conversion\t%s\t%s\t%s\t%d\n", s->conv[i].file, s->conv[i].poll_fn, s->conv[i].poll_mask_fn,
		       s->conv[i].patch + 1);
	for (size_t i = 0; i < s->nsites; i++)
		printf("site\t%s\t%d\t%s\n", s->sites[i].file, s->sites[i].patch + 1, s->sites[i].text);
	for (size_t i = 0; i < rep->nkinds; i++)
		printf("kind\t%s\t%s\t%s\n", rep->kinds[i].name, rep->kinds[i].source,
		       boot_series_converts(s, rep->kinds[i].source, rep->kinds[i].poll_fn) ? "converted" :
		       rep->kinds[i].unconvertible ? "unconvertible" : "unconverted");
	/*
	 * The backends of the converted kinds first, with what they need from
	 * nothing on: as in the configuration, what they enable is the
	 * converted files' selector of choice.
	 */
	for (size_t i = 0; i < rep->nkinds; i++) {
		const struct guest_kind *k = &rep->kinds[i];
		char *all, *save = NULL;

		if (!k->kconfig || !boot_series_converts(s, k->source, k->poll_fn))
			continue;
		all = xstrdup(k->kconfig);
		for (char *sym = strtok_r(all, " ", &save); sym; sym = strtok_r(NULL, " ", &save)) {
			struct strvec needs = STRVEC_INIT;
			char *refused = NULL;
			bool ok = kconfig_resolve(tree, "\n", sym, &needs, &refused);

			sb_addf(&backends, "backend\t%s\t%s\t", k->name, sym);
			for (size_t j = 0; j < needs.n; j++) {
				sb_addf(&backends, "%s%s", j ? " " : "", needs.v[j]);
				if (ok && !sv_contains(&seed, needs.v[j]))
					sv_push(&seed, needs.v[j]);
			}
			sb_addf(&backends, "\t%s\n", ok ? "" : refused ? refused : "refused");
			sv_clear(&needs);
			free(refused);
		}
		free(all);
	}
	for (size_t i = 0; i < s->files.n; i++) {
		char *cond, *why, *sym = kbuild_symbol(kb, s->files.v[i], &cond, &why);

		printf("config\t%s\t%s%s%s\t%s\n", s->files.v[i], sym ? sym : "-", cond ? " && " : "",
		       cond ? cond : "", why ? why : "");
		if (sym && strcmp(sym, "y")) {
			/* what else turning them on takes, beyond the backends, from a configuration with nothing on */
			struct strvec needs = STRVEC_INIT;
			char *refused = NULL;
			bool ok;

			for (size_t j = 0; j < seed.n; j++)
				sv_push(&needs, seed.v[j]);
			ok = guest_tests_file(rep->kinds, rep->nkinds, s->files.v[i]) || kconfig_affordable(tree, sym, &refused);
			ok = ok && kconfig_resolve(tree, "\n", sym, &needs, &refused);
			if (ok && cond)
				ok = kconfig_resolve(tree, "\n", cond, &needs, &refused);
			printf("needs\t%s\t", s->files.v[i]);
			for (size_t j = seed.n; ok && j < needs.n; j++)
				printf("%s%s", j > seed.n ? " " : "", needs.v[j]);
			printf("\t%s\n", ok ? "" : refused ? refused : "refused");
			sv_clear(&needs);
			free(refused);
		}
		free(sym);
		free(cond);
		free(why);
	}
	fputs(backends.buf ? backends.buf : "", stdout);
	sb_release(&backends);
	sv_clear(&seed);
	if (mutate) {
		char *dir = path_join(out, "mutated-series");
		const struct head_site *h;

		h = mutate_series(s, rep, mutate, lifetime ? MUTATE_LIFETIME : MUTATE_MISSING_HEAD, tree, dir);
		printf("mutate\t%s\t%d\t%s\t%s\n", h->file, h->patch + 1, h->text, dir);
		free(dir);
	}
	kbuild_close(kb);
	free(tree);
	return 0;
}

static void need_program(const char *prog, const char *pkg)
{
	if (!have_program(prog))
		die_code(EXIT_TOOL, "'%s' not found: install %s (tool/ensure-packages %s)", prog, pkg, pkg);
}

/* The command line of boot-test, as the options leave it. */
struct bt_opts {
	const char *out, *kernels, *work, *mutate, *kpatches;
	struct guest_opts go;
	char *guest;
	int jobs;
	bool bench, quiet, plan, out_given, lifetime;
};

/* The options into O: -1 to go on, else the exit status (--help, a bad option). */
static int parse_options(int argc, char **argv, struct bt_opts *o)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "kernels", required_argument, NULL, 'K' },
		{ "no-bench", no_argument, NULL, 'B' },
		{ "mutate", optional_argument, NULL, 'M' },
		{ "lifetime", no_argument, NULL, 'L' },
		{ "timeout", required_argument, NULL, 't' },
		{ "accel", required_argument, NULL, 'a' },
		{ "work", required_argument, NULL, 'w' },
		{ "guest", required_argument, NULL, 'g' },
		{ "busybox", required_argument, NULL, 'b' },
		{ "qemu", required_argument, NULL, 'Q' },
		{ "guest-args", required_argument, NULL, 'A' },
		{ "kernel-patches", required_argument, NULL, 'k' },
		{ "plan", no_argument, NULL, 'P' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:j:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'o': o->out = optarg; o->out_given = true; break;
		case 'j': o->jobs = args_jobs(optarg); break;
		case 'K': o->kernels = optarg; break;
		case 'B': o->bench = false; break;
		case 'M': o->mutate = optarg ? optarg : ""; break;
		case 'L': o->lifetime = true; break;
		case 't':
			o->go.timeout = atoi(optarg);
			if (o->go.timeout < 10)
				die_code(EXIT_USAGE, "--timeout takes a number of seconds (at least 10), not '%s'", optarg);
			break;
		case 'a':
			if (strcmp(optarg, "auto") && strcmp(optarg, "tcg") && strcmp(optarg, "kvm"))
				die_code(EXIT_USAGE, "--accel takes auto, tcg or kvm, not '%s'", optarg);
			o->go.accel = optarg;
			break;
		case 'w': o->work = optarg; break;
		case 'g': o->guest = xstrdup(optarg); break;
		case 'b': o->go.busybox = optarg; break;
		case 'Q': o->go.qemu = optarg; break;
		case 'k': o->kpatches = optarg; break;
		case 'A':
			if (strchr(optarg, ' '))
				die_code(EXIT_USAGE, "--guest-args: write ':' for spaces: '%s'", optarg);
			o->go.args = optarg;
			break;
		case 'P': o->plan = true; break;
		case 'q': o->quiet = true; break;
		case 'h': return args_help(usage);
		default: return args_bad_option(usage);
		}
	}
	return -1;
}

/* --kernels: each name one of kernel_names (else exit 2). */
static void check_kernels(const char *kernels)
{
	for (const char *p = kernels; *p;) {
		size_t n = strcspn(p, ",");
		bool known = false;

		for (int i = 0; i < NR_KERNELS; i++)
			known |= strlen(kernel_names[i]) == n && !strncmp(p, kernel_names[i], n);
		if (!known)
			die_code(EXIT_USAGE, "--kernels: '%.*s' is not one of base, patched, two-call, base-kasan, "
				 "patched-kasan", (int)n, p);
		p += n + (p[n] == ',');
	}
}

/*
 * --mutate: the series without one f_poll_head line (in file MUTATE, if
 * not empty), read into *MUTATED and noted in REP.
 */
static void apply_mutation(const struct boot_work *w, const struct boot_series *s, struct boot_report *rep,
			   const char *mutate, bool lifetime, bool quiet, struct boot_series *mutated)
{
	char *dir = xasprintf("%s/mutated-series", w->root);
	const struct head_site *h;

	h = mutate_series(s, rep, mutate, lifetime ? MUTATE_LIFETIME : MUTATE_MISSING_HEAD, w->tree, dir);
	if (*mutate && strcmp(h->file, mutate))
		die_code(EXIT_INPUT, "--mutate: the series sets no f_poll_head in '%s'", mutate);
	if (!quiet)
		fprintf(stderr, "boot-test: mutation: %s \"%s\" (%s, patch %d)\n",
			lifetime ? "pointed at a freed queue:" : "removed", h->text, h->file, h->patch + 1);
	boot_series_read(mutated, dir);
	rep->mutation = h;
	rep->lifetime = lifetime;
	free(dir);
}

/* Each kernel wanted, booted with INITRD into BOOTDIR: the checks, then (BENCH) the benchmark. */
static void boot_kernels(struct boot_work *w, const struct guest_opts *go, const char *initrd, const char *bootdir,
			 bool bench, bool quiet, struct boot_report *rep)
{
	for (int i = 0; i < NR_KERNELS; i++) {
		char *name;

		if (!w->k[i].wanted)
			continue;
		if (!quiet)
			fprintf(stderr, "boot-test: booting the %s kernel: checks\n", kernel_names[i]);
		name = xasprintf("%s-test", kernel_names[i]);
		if (kernel_debug(i)) {
			/* KASAN checks every access and lockdep every lock: give the boot three times as long */
			struct guest_opts slow = *go;

			slow.timeout = go->timeout * 3;
			guest_boot(&slow, w->k[i].vmlinux, initrd, bootdir, name, false, &rep->runs[i].test);
		} else {
			guest_boot(go, w->k[i].vmlinux, initrd, bootdir, name, false, &rep->runs[i].test);
		}
		free(name);
		if (!bench || kernel_debug(i))	/* the benchmark counts the plain kernels' instructions */
			continue;
		if (!quiet)
			fprintf(stderr, "boot-test: booting the %s kernel: benchmark\n", kernel_names[i]);
		name = xasprintf("%s-bench", kernel_names[i]);
		guest_boot(go, w->k[i].vmlinux, initrd, bootdir, name, true, &rep->runs[i].bench);
		free(name);
	}
}

/* OUT/boot-test.json, OUT/boot-test.md and the logs; the failures said.  The exit status. */
static int write_report(struct boot_report *rep, const char *out, bool quiet)
{
	json_t *j;
	char *text, *path;

	boot_report_compare(rep);
	if (mkdir_p(out) < 0)
		die("cannot create '%s': %s", out, strerror(errno));
	copy_logs(rep, out);
	j = boot_report_json(rep);
	text = json_dumps(j, JSON_INDENT(2) | JSON_SORT_KEYS);
	path = path_join(out, "boot-test.json");
	if (!text || write_file_atomic(path, text, strlen(text)) < 0)
		die("cannot write '%s'", path);
	free(text);
	free(path);
	json_decref(j);
	text = boot_report_markdown(rep);
	path = path_join(out, "boot-test.md");
	if (write_file_atomic(path, text, strlen(text)) < 0)
		die("cannot write '%s'", path);
	free(text);
	free(path);

	for (size_t i = 0; i < rep->failures.n; i++)
		error("%s", rep->failures.v[i]);
	if (!quiet)
		fprintf(stderr, "boot-test: %s; wrote '%s/boot-test.json' and '%s/boot-test.md'\n",
			rep->failures.n ? "FAILED" : "passed", out, out);
	return rep->failures.n ? EXIT_FINDINGS : 0;
}

static void report_free(struct boot_report *rep)
{
	for (int i = 0; i < NR_KERNELS; i++) {
		boot_result_free(&rep->runs[i].test);
		boot_result_free(&rep->runs[i].bench);
	}
	for (size_t i = 0; i < rep->nkinds; i++) {
		free(rep->kinds[i].name);
		free(rep->kinds[i].source);
		free(rep->kinds[i].poll_fn);
		free(rep->kinds[i].kconfig);
	}
	free(rep->kinds);
	sv_clear(&rep->failures);
}

int cmd_boot_test(int argc, char **argv)
{
	struct bt_opts o = {
		.out = "boot-test-out", .kernels = "base,patched,two-call,base-kasan,patched-kasan",
		.go = { "qemu-system-x86_64", "auto", 600, NULL, "/bin/busybox", NULL },
		.jobs = online_cpus(), .bench = true,
	};
	struct boot_series s, mutated;
	struct boot_series *use = &s;
	struct boot_work w;
	struct boot_report rep;
	struct strbuf cmdline = STRBUF_INIT;
	char *initrd, *bootdir;
	char *outdir, *workdir, *kpdir, *busybox, *qemu = NULL;
	const char *typed_out, *typed_work;
	int c;

	c = parse_options(argc, argv, &o);
	if (c >= 0)
		return c;
	check_kernels(o.kernels);
	if (o.lifetime && !o.mutate)
		die_code(EXIT_USAGE, "--lifetime is a kind of --mutate: give both");
	if (args_check(usage, argc, argv, optind, "SERIES_DIR KERNEL_DIR"))
		return EXIT_USAGE;
	for (int i = 0; i < argc; i++)
		sb_addf(&cmdline, "%s%s", i ? " " : "polltax ", argv[i]);
	/* every path as typed, resolved against the cwd once: git, make and qemu run elsewhere */
	typed_out = o.out;
	typed_work = o.work;
	o.out = outdir = abs_path(o.out);
	o.work = workdir = abs_path(o.work);
	o.kpatches = kpdir = abs_path(o.kpatches);
	o.go.busybox = busybox = abs_path(o.go.busybox);
	if (strchr(o.go.qemu, '/'))
		o.go.qemu = qemu = abs_path(o.go.qemu);	/* a program name is looked up in $PATH */
	if (o.guest) {
		char *g = abs_path(o.guest);

		free(o.guest);
		o.guest = g;
	} else {
		o.guest = default_guest();
	}
	o.go.guest = o.guest;

	boot_series_read(&s, argv[optind]);
	memset(&rep, 0, sizeof(rep));
	guest_kinds(o.guest, &rep.kinds, &rep.nkinds);

	if (o.plan)
		return print_plan(&s, &rep, argv[optind + 1], o.mutate, o.lifetime, o.out);
	{
		struct tree t;

		/*
		 * the arguments first, then the tools: a wrong tree is said
		 * before a missing qemu.  Nothing is written into the tree:
		 * not the outputs, not the scratch worktrees.
		 */
		tree_open(&t, argv[optind + 1]);
		refuse_inside_tree(o.out, typed_out, "-o", !o.out_given, t.root);
		refuse_inside_tree(o.work, typed_work, "--work", false, t.root);
		tree_free(&t);
	}
	need_program(o.go.qemu, "qemu-system-x86");
	need_program("git", "git");
	need_program("make", "make");
	work_open(&w, argv[optind + 1], o.work, o.jobs, o.quiet);
	for (int i = 0; i < NR_KERNELS; i++) {
		char *list = xasprintf(",%s,", o.kernels), *name = xasprintf(",%s,", kernel_names[i]);

		w.k[i].wanted = i == K_BASE || strstr(list, name);
		free(list);
		free(name);
	}
	if (o.mutate) {
		apply_mutation(&w, &s, &rep, o.mutate, o.lifetime, o.quiet, &mutated);
		use = &mutated;
	}
	rep.s = use;
	rep.w = &w;
	rep.bench = o.bench;
	rep.reproduce = cmdline.buf;

	work_apply(&w, use, o.kpatches);
	work_config(&w, use, rep.kinds, rep.nkinds);
	for (int i = 0; i < NR_KERNELS; i++)
		if (w.k[i].wanted)
			work_build(&w, (enum kernel_id)i);
	initrd = guest_initramfs(&w, &o.go);
	bootdir = path_join(w.root, "boots");
	mkdir_p(bootdir);
	boot_kernels(&w, &o.go, initrd, bootdir, o.bench, o.quiet, &rep);
	c = write_report(&rep, o.out, o.quiet);

	report_free(&rep);
	if (use == &mutated)
		boot_series_free(&mutated);
	boot_series_free(&s);
	work_free(&w);
	free(initrd);
	free(bootdir);
	free(o.guest);
	free(outdir);
	free(workdir);
	free(kpdir);
	free(busybox);
	free(qemu);
	sb_release(&cmdline);
	return c;
}
