// SPDX-License-Identifier: GPL-2.0
/*
 * tree.c - kernel tree identity and compile flags (see tree.h).
 *
 * Flags come, in this order, from the tree's compile_commands.json, its
 * compile_flags.txt (clang's one-flag-a-line file, used by the fixtures),
 * an in-tree prepared build (include/generated/autoconf.h present), or a
 * build directory polltax prepares in its cache with the kernel's own
 * "make O=DIR CONFIG prepare".  The tree itself is never written to.
 * Only the flags that change what the preprocessor sees are kept: -I -D -U
 * -include -isystem -iquote -nostdinc -std; the rest (gcc's code generation
 * options) would only make libclang complain.
 */
#define _GNU_SOURCE
#include "tree.h"
#include "arch.h"
#include "kbuild.h"
#include "strutil.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

static char *makefile_var(const char *mk, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = mk; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		const char *q = p;

		if (strncmp(q, name, n))
			continue;
		q += n;
		while (*q == ' ' || *q == '\t')
			q++;
		if (*q != '=')
			continue;
		q++;
		while (*q == ' ' || *q == '\t')
			q++;
		const char *e = q;

		while (*e && *e != '\n' && *e != ' ' && *e != '\t')
			e++;
		return xstrndup(q, (size_t)(e - q));
	}
	return NULL;
}

void tree_open(struct tree *t, const char *path)
{
	char *mk = NULL, *mkpath, *v, *pl, *sl, *ev;
	struct strbuf out = STRBUF_INIT;

	memset(t, 0, sizeof(*t));
	{
		struct stat st;

		if (stat(path, &st) < 0)
			die_code(EXIT_INPUT, "cannot open the kernel tree '%s': %s", path, strerror(errno));
		if (!S_ISDIR(st.st_mode))
			die_code(EXIT_INPUT, "'%s' is not a directory", path);
	}
	t->root = realpath_or_die(path);
	mkpath = path_join(t->root, "Makefile");
	if (read_file(mkpath, &mk, NULL) < 0)
		die_code(EXIT_INPUT, "'%s' is not a kernel tree: cannot read '%s': %s", path, mkpath,
			 strerror(errno));
	v = makefile_var(mk, "VERSION");
	pl = makefile_var(mk, "PATCHLEVEL");
	sl = makefile_var(mk, "SUBLEVEL");
	ev = makefile_var(mk, "EXTRAVERSION");
	if (!v || !pl) {
		free(v); free(pl); free(sl); free(ev); free(mk);
		die_code(EXIT_INPUT, "'%s' is not a kernel tree: its Makefile has no VERSION/PATCHLEVEL", path);
	}
	{
		char *inc = path_join(t->root, "include/linux");

		if (!is_dir(inc)) {
			free(inc);
			die_code(EXIT_INPUT, "'%s' is not a kernel tree: no include/linux directory", path);
		}
		free(inc);
	}
	{
		/* the Makefile's bytes go into the reports: keep them UTF-8 */
		char *raw = xasprintf("%s.%s%s%s%s", v, pl, sl && *sl ? "." : "", sl ? sl : "", ev ? ev : "");

		t->version = utf8_safe(raw);
		free(raw);
	}
	free(v); free(pl); free(sl); free(ev); free(mk); free(mkpath);

	{
		char *g = path_join(t->root, ".git");

		t->is_git = access(g, F_OK) == 0;
		free(g);
	}
	if (t->is_git && !have_program("git"))
		warning("git not found: '%s' is a git tree but its describe and HEAD are not recorded "
			"(apt-get install git)", path);
	if (t->is_git && have_program("git")) {
		const char *d[] = { "git", "-C", t->root, "describe", "--tags", "--always", NULL };
		const char *h[] = { "git", "-C", t->root, "rev-parse", "HEAD", NULL };

		if (run_cmd(d, NULL, &out, true) == 0 && out.len) {
			out.buf[strcspn(out.buf, "\n")] = '\0';
			t->describe = utf8_safe(out.buf);	/* a tag can hold any bytes */
		}
		sb_reset(&out);
		if (run_cmd(h, NULL, &out, true) == 0 && out.len) {
			out.buf[strcspn(out.buf, "\n")] = '\0';
			t->head = xstrdup(out.buf);
		}
		sb_release(&out);
	}
}

void tree_free(struct tree *t)
{
	free(t->root);
	free(t->version);
	free(t->describe);
	free(t->head);
}

/* ---- flags ------------------------------------------------------------------------ */

/* Keep the preprocessor-relevant flags; make -I paths absolute against DIR. */
static void keep_flags(char **argv, size_t n, const char *dir, struct strvec *out)
{
	static const char *const with_arg[] = { "-I", "-D", "-U", "-include", "-isystem", "-iquote", "-imacros", NULL };

	for (size_t i = 0; i < n; i++) {
		const char *a = argv[i];
		bool done = false;

		for (int k = 0; with_arg[k]; k++) {
			size_t l = strlen(with_arg[k]);

			if (strncmp(a, with_arg[k], l))
				continue;
			const char *val = a[l] ? a + l : (i + 1 < n ? argv[++i] : NULL);

			if (!val)
				break;
			if (k == 1 || k == 2) {
				sv_pushf(out, "%s%s", with_arg[k], val);
			} else {
				char *p = path_join(dir, val);

				sv_push(out, with_arg[k]);
				sv_push(out, p);
				free(p);
			}
			done = true;
			break;
		}
		if (done)
			continue;
		if (!strcmp(a, "-nostdinc") || !strncmp(a, "-std=", 5))
			sv_push(out, a);
	}
}

static void load_ccdb(struct flags *f, const struct tree *t, const char *path)
{
	json_error_t je;
	json_t *db = json_load_file(path, 0, &je), *e;
	size_t i;

	if (!db || !json_is_array(db))
		die_code(EXIT_INPUT, "cannot read '%s': %s (line %d)", path, db ? "not an array" : je.text, je.line);
	f->ccdb = json_object();
	json_array_foreach(db, i, e) {
		const char *dir = json_string_value(json_object_get(e, "directory"));
		const char *file = json_string_value(json_object_get(e, "file"));
		json_t *args = json_object_get(e, "arguments");
		struct strvec raw = STRVEC_INIT, kept = STRVEC_INIT;
		char *abs, *real;
		json_t *arr;

		if (!dir || !file)
			continue;
		if (json_is_array(args)) {
			size_t j;
			json_t *a;

			json_array_foreach(args, j, a)
				sv_push(&raw, json_string_value(a) ? json_string_value(a) : "");
		} else if (json_string_value(json_object_get(e, "command"))) {
			shell_split(json_string_value(json_object_get(e, "command")), &raw);
		}
		keep_flags(raw.v, raw.n, dir, &kept);
		abs = path_join(dir, file);
		real = realpath(abs, NULL);
		if (real && !strncmp(real, t->root, strlen(t->root)) && real[strlen(t->root)] == '/') {
			arr = json_array();
			for (size_t j = 0; j < kept.n; j++)
				json_array_append_new(arr, json_string(kept.v[j]));
			json_object_set_new(f->ccdb, real + strlen(t->root) + 1, arr);
		}
		free(real);
		free(abs);
		sv_clear(&raw);
		sv_clear(&kept);
	}
	json_decref(db);
	if (!json_object_size(f->ccdb))
		die_code(EXIT_INPUT, "'%s' names no file inside '%s'", path, t->root);
}

/*
 * Tracepoints parse as what they are to polltax: calls that wait on
 * nothing.  Each trace_<event>() inline of include/linux/tracepoint.h
 * expands __DO_TRACE, the static call of the event's probes under RCU
 * (some forty lines of macros), and every file that includes a trace
 * header parses that again for each of its events: fs/xfs/xfs_trace.h's
 * cost 1.1 s of the 2.4 s of xfs_pwork.c, and 8% of the parse of the
 * 667 files of 6.12.  A probe belongs to a tracer, never to a file's
 * queue, so libclang is given, for the tree's tracepoint.h, its text with
 * every definition of __DO_TRACE expanding to an empty statement (the
 * parameters and the lines of the file kept: no location moves, and the
 * file keeps its name).  libclang's unsaved files do it (clang's
 * -remap-file), for the PCH and every parse alike: an include directory
 * of our own would be searched, in vain, for every other header.  The
 * text's hash is part of the flags' fingerprint, hence of the cache keys;
 * the tree's file is a dependency as before.  Nothing is remapped when
 * the tree has no such definition; --trace-bodies asks for the tree's
 * own text (the facts must be the same: tests/trace.t.sh).
 */
static char *slim_do_trace(const char *text, size_t len, size_t *outlen)
{
	struct strbuf sb = STRBUF_INIT;
	const char *s = text, *end = text + len;
	int n = 0;

	while (s < end) {
		const char *e = memchr(s, '\n', (size_t)(end - s)), *d, *q = NULL;
		size_t dn;
		int depth = 0;

		e = e ? e + 1 : end;
		d = directive(s, e, &dn);
		if (d && is_dir_word(d, dn, "define")) {
			const char *name = skip_blank(d + dn, e);

			if (name > d + dn && (size_t)(e - name) > 11 && !strncmp(name, "__DO_TRACE(", 11))
				q = name + 10;
		}
		/* the end of its parameter list, on this line */
		for (; q && q < e; q++) {
			depth += *q == '(';
			depth -= *q == ')';
			if (!depth)
				break;
		}
		if (!q || q >= e || *q != ')') {
			sb_add(&sb, s, (size_t)(e - s));
			s = e;
			continue;
		}
		/* the body, to the end of the logical line: an empty statement, as many lines */
		for (e = q + 1; e < end && !(*e == '\n' && e[-1] != '\\'); e++)
			;
		sb_add(&sb, s, (size_t)(q + 1 - s));
		sb_adds(&sb, " do { } while (0)");
		for (const char *c = q + 1; c < e; c++)
			if (*c == '\n')
				sb_adds(&sb, " \\\n");
		n++;
		s = e;
	}
	if (!n || !sb.buf) {
		sb_release(&sb);
		return NULL;
	}
	*outlen = sb.len;
	return sb_detach(&sb);
}

static void trace_remap(const struct tree *t, struct remap *r)
{
	char *src = path_join(t->root, "include/linux/tracepoint.h"), *buf;
	size_t len;

	if (read_file(src, &buf, &len) < 0) {
		free(src);
		return;
	}
	r->text = slim_do_trace(buf, len, &r->len);
	if (r->text) {
		r->path = src;
	} else {
		free(src);
	}
	free(buf);
}

static void kernel_common_flags(struct flags *f, const struct tree *t)
{
	const char *S = t->root, *B = f->build;
	static const char *const incs[] = {
		"%s/arch/x86/include", "%s/arch/x86/include/generated", "%s/include", "%s/include",
		"%s/arch/x86/include/uapi", "%s/arch/x86/include/generated/uapi", "%s/include/uapi",
		"%s/include/generated/uapi", NULL,
	};
	static const bool from_build[] = { false, true, false, true, false, true, false, true };
	static const char *const pre[] = {
		"include/linux/compiler-version.h", "include/linux/kconfig.h",
		"include/linux/compiler_types.h", NULL,
	};

	sv_push(&f->common, "-nostdinc");
	for (int i = 0; incs[i]; i++) {
		char *p = xasprintf(incs[i], from_build[i] ? B : S);

		if (is_dir(p))
			sv_pushf(&f->common, "-I%s", p);
		free(p);
	}
	for (int i = 0; pre[i]; i++) {
		char *p = path_join(S, pre[i]);

		if (is_file(p)) {
			sv_push(&f->common, "-include");
			sv_push(&f->common, p);
		}
		free(p);
	}
	sv_push(&f->common, "-D__KERNEL__");
	sv_push(&f->common, "-DCC_USING_FENTRY");
	sv_push(&f->common, "-DKBUILD_MODNAME=\"polltax\"");
	sv_push(&f->common, "-DKBUILD_BASENAME=\"polltax\"");
	sv_push(&f->common, "-D__KBUILD_MODNAME=kmod_polltax");
	sv_push(&f->common, "-DKBUILD_MODFILE=\"polltax\"");	/* MODULE_LICENSE() of built-in code */
	sv_push(&f->common, "-std=gnu11");
	sv_push(&f->common, "-w");
}

/*
 * An alternative's flags: those its prepare step compiled kernel/bounds.c
 * with (the arch Makefile's -D flags, such as __LINUX_ARM_ARCH__, are
 * there and nowhere else), as the preprocessor needs them, after the
 * target (first: pch.c tells them from x86's by it).  The configuration
 * is gcc's; the kernel's headers choose the asm constraints clang takes
 * by CONFIG_CC_IS_CLANG, which libclang's parse is.
 */
static void alt_common_flags(struct flags *f, const struct tree *t)
{
	char *cmdf = path_join(f->build, "kernel/.bounds.s.cmd"), *text, *target = arch_target(f->arch, f->build);
	char *dot_src = path_join(t->root, "."), *dot_obj = path_join(f->build, ".");
	struct strvec raw = STRVEC_INIT, kept = STRVEC_INIT;

	if (read_file(cmdf, &text, NULL) < 0)
		die_code(EXIT_INPUT, "'%s' is missing: the prepared build '%s' is incomplete; remove it and run again",
			 cmdf, f->build);
	{
		char *l = strstr(text, " := "), *e = l ? strchr(l, '\n') : NULL;

		if (!l)
			die_code(EXIT_INPUT, "'%s' has no command line", cmdf);
		if (e)
			*e = '\0';
		shell_split(l + 4, &raw);
	}
	keep_flags(raw.v, raw.n, f->build, &kept);
	sv_pushf(&f->common, "--target=%s", target);
	for (size_t i = 0; i < kept.n; i++) {
		const char *a = kept.v[i];

		/* bounds.c's own names, and its directory's -I */
		if (!strncmp(a, "-DKBUILD_", 9) || !strncmp(a, "-D__KBUILD_", 11) || !strcmp(a, "-std=gnu11"))
			continue;
		if (!strcmp(a, "-I") && i + 1 < kept.n && (!strcmp(kept.v[i + 1], dot_src) || !strcmp(kept.v[i + 1], dot_obj))) {
			i++;
			continue;
		}
		sv_push(&f->common, a);
	}
	sv_push(&f->common, "-DCONFIG_CC_IS_CLANG=1");
	sv_push(&f->common, "-DKBUILD_MODNAME=\"polltax\"");
	sv_push(&f->common, "-DKBUILD_BASENAME=\"polltax\"");
	sv_push(&f->common, "-D__KBUILD_MODNAME=kmod_polltax");
	sv_push(&f->common, "-DKBUILD_MODFILE=\"polltax\"");
	sv_push(&f->common, "-std=gnu11");
	sv_push(&f->common, "-w");
	sv_clear(&raw);
	sv_clear(&kept);
	free(text);
	free(cmdf);
	free(target);
	free(dot_src);
	free(dot_obj);
}

static bool prepared(const char *build)
{
	char *a = path_join(build, "include/generated/autoconf.h");
	char *s = path_join(build, ".polltax-prepared");
	bool r = is_file(a) && is_file(s);

	free(a);
	free(s);
	return r;
}

/* The last line of a make log that is not make's own "make: *** ... Error 1". */
static char *last_log_line(const char *log)
{
	char *buf, *why = NULL;

	if (read_file(log, &buf, NULL) < 0)
		return xstrdup("no log");
	for (char *save = NULL, *l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(l, "make", 4) && strstr(l, ": "))
			continue;
		free(why);
		why = xstrdup(l);
	}
	free(buf);
	return why ? why : xstrdup("no message");
}

static void run_prepare(struct flags *f, const struct tree *t, const struct prepare_opts *o)
{
	char *odir = xasprintf("O=%s", f->build);
	char *jobs = xasprintf("-j%d", o->jobs > 0 ? o->jobs : online_cpus());
	char *log = path_join(f->build, "polltax-prepare.log");
	char *stamp = path_join(f->build, ".polltax-prepared");
	char *cmd;
	int rc;

	{
		static const char *const tools[] = { "make", "gcc", "flex", "bison", "bc", NULL };
		struct strbuf miss = STRBUF_INIT;

		/* each of these programs is in the Debian package of its name */
		for (int i = 0; tools[i]; i++)
			if (!have_program(tools[i]))
				sb_addf(&miss, " %s", tools[i]);
		if (miss.len)
			die_code(EXIT_TOOL, "preparing '%s' needs make, gcc, flex, bison and bc; not found:%s "
				 "(apt-get install%s libelf-dev libssl-dev)", t->root, miss.buf, miss.buf);
	}
	if (mkdir_p(f->build) < 0)
		die_code(EXIT_INPUT, "cannot create '%s': %s", f->build, strerror(errno));
	if (f->arch != arch_host()) {
		char *what = xasprintf("--arch %s", f->arch->name);

		arch_require_compiler(f->arch, what);
		free(what);
	}
	if (!o->quiet)
		fprintf(stderr, "polltax: preparing %s%s%s in '%s' (make %s prepare; log in '%s')\n",
			t->version, f->arch != arch_host() ? " for " : "", f->arch != arch_host() ? f->arch->name : "",
			f->build, f->config, log);
	{
		struct strvec vars = STRVEC_INIT;
		struct strbuf sb = STRBUF_INIT;

		arch_make_args(f->arch, &vars);
		for (size_t i = 0; i < vars.n; i++)
			sb_addf(&sb, "%s ", vars.v[i]);
		sb_adds(&sb, odir);
		free(odir);
		odir = sb_detach(&sb);
		sv_clear(&vars);
	}
	cmd = xasprintf("make -C '%s' %s %s >'%s' 2>&1 && make -C '%s' %s %s prepare >>'%s' 2>&1",
			t->root, odir, f->config, log, t->root, odir, jobs, log);
	{
		const char *argv[] = { "sh", "-c", cmd, NULL };

		rc = run_cmd(argv, NULL, NULL, false);
	}
	if (rc != 0) {
		char *why = last_log_line(log);

		die_code(EXIT_INPUT, "make %s prepare failed for '%s' (exit %d): %s; see '%s'", f->config,
			 t->root, rc, why, log);
	}
	if (write_file_atomic(stamp, f->config, strlen(f->config)) < 0)
		die_code(EXIT_INPUT, "cannot write '%s'", stamp);
	free(cmd);
	free(odir);
	free(jobs);
	free(log);
	free(stamp);
}

/* An alternative's flags: architecture A's own prepared build, in the cache. */
static void alt_init(struct flags *f, const struct flags *host, const struct tree *t, const struct prepare_opts *o,
		     const struct arch_info *a)
{
	const char *base = strrchr(t->root, '/');

	memset(f, 0, sizeof(*f));
	f->arch = a;
	f->kind = FLAGS_PREPARED;
	f->config = xstrdup(host->config);
	f->build = xasprintf("%s/build/%s-%08llx-%s-%s", cache_root(), base ? base + 1 : t->root,
			     (unsigned long long)(XXH64(t->root, strlen(t->root), 0) & 0xffffffffu), f->config, a->name);
	f->source = xasprintf("make ARCH=%s %s prepare", a->name, f->config);
	if (!prepared(f->build))
		run_prepare(f, t, o);
	alt_common_flags(f, t);
	f->kb = kbuild_new(t->root, f->build);
	f->conf = kbuild_open(t->root, f->build);
	if (!f->conf)
		die_code(EXIT_INPUT, "'%s' was prepared but has no include/config/auto.conf: remove it and run again",
			 f->build);
	kbuild_set_arch(f->kb, a->name);
	kbuild_set_arch(f->conf, a->name);
}

static void host_init(struct flags *f, const struct tree *t, const struct prepare_opts *o);

void flags_init(struct flags *f, const struct tree *t, const struct prepare_opts *o)
{
	const struct arch_info *as[ARCH_MAX];
	char *err;
	int n;

	host_init(f, t, o);
	if (!o || !o->arches || !*o->arches)
		return;
	n = arch_parse(o->arches, as, &err);
	if (n < 0)
		die_code(EXIT_USAGE, "%s", err);
	if (f->kind != FLAGS_PREPARED && f->kind != FLAGS_INTREE)
		die_code(EXIT_USAGE, "--arch needs a kernel build of the tree, but its flags come from %s", f->source);
	f->alt = xcalloc((size_t)n, sizeof(*f->alt));
	for (int i = 0; i < n; i++)
		alt_init(&f->alt[f->nalt++], f, t, o, as[i]);
}

static void host_init(struct flags *f, const struct tree *t, const struct prepare_opts *o)
{
	char *p;

	memset(f, 0, sizeof(*f));
	f->arch = arch_host();
	f->config = xstrdup(o && o->config ? o->config : "allmodconfig");
	if (!(o && o->trace_bodies))
		trace_remap(t, &f->remap);
	parse_remap_set(&f->remap);
	p = path_join(t->root, "compile_commands.json");
	if (is_file(p)) {
		f->kind = FLAGS_CCDB;
		f->source = xstrdup("compile_commands.json");
		f->build = xstrdup(t->root);
		load_ccdb(f, t, p);
		free(p);
		return;
	}
	free(p);
	p = path_join(t->root, "compile_flags.txt");
	if (is_file(p)) {
		char *buf;
		struct strvec raw = STRVEC_INIT;

		if (read_file(p, &buf, NULL) < 0)
			die_code(EXIT_INPUT, "cannot read '%s': %s", p, strerror(errno));
		for (char *save = NULL, *l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
			if (*l)
				sv_push(&raw, l);
		keep_flags(raw.v, raw.n, t->root, &f->common);
		sv_clear(&raw);
		free(buf);
		f->kind = FLAGS_FILE;
		f->source = xstrdup("compile_flags.txt");
		f->build = xstrdup(t->root);
		free(p);
		return;
	}
	free(p);
	p = path_join(t->root, "include/generated/autoconf.h");
	if (is_file(p) && !(o && o->build)) {
		f->kind = FLAGS_INTREE;
		f->source = xstrdup("prepared in tree");
		f->build = xstrdup(t->root);
		free(p);
		kernel_common_flags(f, t);
		f->kb = kbuild_new(t->root, f->build);
		f->conf = kbuild_open(t->root, f->build);
		return;
	}
	free(p);
	f->kind = FLAGS_PREPARED;
	if (o && o->build) {
		f->build = xstrdup(o->build);
	} else {
		const char *base = strrchr(t->root, '/');

		f->build = xasprintf("%s/build/%s-%08llx-%s", cache_root(), base ? base + 1 : t->root,
				     (unsigned long long)(XXH64(t->root, strlen(t->root), 0) & 0xffffffffu),
				     f->config);
	}
	f->source = xasprintf("make %s prepare", f->config);
	if (!prepared(f->build))
		run_prepare(f, t, o);
	kernel_common_flags(f, t);
	f->kb = kbuild_new(t->root, f->build);
	f->conf = kbuild_open(t->root, f->build);
}

/* Does F's architecture (and configuration, when known) build REL? */
static bool arch_builds(const struct flags *f, const char *rel)
{
	if (!strncmp(rel, "arch/", 5) && !arch_dir_of(rel, f->arch))
		return false;
	return !f->conf || kbuild_built(f->conf, rel, NULL) != 0;
}

const struct flags *flags_arch_of(const struct flags *f, const char *rel)
{
	if (!f->nalt || arch_builds(f, rel))
		return f;
	for (size_t i = 0; i < f->nalt; i++) {
		/* arch/X/: X's flags, whether its configuration builds the file or not */
		if (!strncmp(rel, "arch/", 5) ? arch_dir_of(rel, f->alt[i].arch) : kbuild_built(f->alt[i].conf, rel, NULL) == 1)
			return &f->alt[i];
	}
	return f;
}

bool flags_for(const struct flags *f, const struct tree *t, const char *rel, struct strvec *out)
{
	f = flags_arch_of(f, rel);
	if (f->kind == FLAGS_CCDB) {
		json_t *a = json_object_get(f->ccdb, rel), *v;
		size_t i;

		if (!a)
			return false;
		json_array_foreach(a, i, v)
			sv_push(out, json_string_value(v));
		sv_push(out, "-w");
		return true;
	}
	for (size_t i = 0; i < f->common.n; i++)
		sv_push(out, f->common.v[i]);
	if (f->kind == FLAGS_FILE)
		return true;
	/* another architecture's code cannot build with this one's flags */
	if (!strncmp(rel, "arch/", 5) && !arch_dir_of(rel, f->arch))
		return false;
	{
		char *dir = xstrdup(rel), *slash = strrchr(dir, '/');

		if (slash) {
			*slash = '\0';
			sv_pushf(out, "-I%s/%s", t->root, dir);
			sv_pushf(out, "-I%s/%s", f->build, dir);
			/* ancestors' subdir-ccflags, then the directory's own ccflags */
			for (char *s = strchr(dir, '/'); s; s = strchr(s + 1, '/')) {
				char *obj = xstrdup(rel + (s - dir) + 1);

				if (has_suffix(obj, ".c"))
					obj[strlen(obj) - 1] = 'o';	/* foo.c: foo.o */
				*s = '\0';
				kbuild_flags(f->kb, dir, obj, out);
				*s = '/';
				free(obj);
			}
			kbuild_flags(f->kb, dir, NULL, out);
		}
		free(dir);
	}
	return true;
}

char *flags_fingerprint(const struct flags *f)
{
	struct strbuf sb = STRBUF_INIT;

	sb_addf(&sb, "%d|%s|%s|%016llx|", f->kind, f->source, f->build,
		f->remap.text ? (unsigned long long)XXH64(f->remap.text, f->remap.len, 0) : 0ull);
	for (size_t i = 0; i < f->common.n; i++)
		sb_addf(&sb, "%s ", f->common.v[i]);
	for (size_t a = 0; a < f->nalt; a++) {
		char *fa = flags_fingerprint(&f->alt[a]);

		sb_addf(&sb, "|alt %s %s", f->alt[a].arch->name, fa);
		free(fa);
	}
	if (f->ccdb) {
		char *d = json_dumps(f->ccdb, JSON_SORT_KEYS | JSON_COMPACT);

		sb_adds(&sb, d);
		free(d);
	}
	return sb_detach(&sb);
}

void flags_free(struct flags *f)
{
	free(f->source);
	free(f->build);
	free(f->config);
	if (parse_remap() == &f->remap)
		parse_remap_set(NULL);
	free(f->remap.path);
	free(f->remap.text);
	kbuild_close(f->kb);
	kbuild_close(f->conf);
	json_decref(f->ccdb);
	sv_clear(&f->common);
	for (size_t a = 0; a < f->nalt; a++)
		flags_free(&f->alt[a]);
	free(f->alt);
}
