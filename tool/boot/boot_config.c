// SPDX-License-Identifier: GPL-2.0
/*
 * boot_config.c - the one configuration the three kernels of the boot test
 * are built from: tinyconfig, the symbols the guest needs, and the Kconfig
 * symbol of every file the series converts, found from the
 * "obj-$(CONFIG_X) += file.o" line of its directory's Makefile (through
 * composite objects and conditional directories: kbuild_symbol()), set with the kernel's
 * scripts/config and checked after olddefconfig.  A symbol that stays off
 * is reported with its "depends on" lines, so "needs PCI" reads as such.
 *
 * The guest's kinds name the backend that makes their file or makes it
 * ready (tool/boot/guest/kinds.c: CONFIG_SW_SYNC for sync_file,
 * CONFIG_RC_LOOPBACK for lirc): a backend is enabled, with its software
 * dependencies, only when the series converts the ->poll of a kind that
 * needs it, so the configuration follows the series, not a list per
 * kernel version.
 */
#define _GNU_SOURCE
#include "boot.h"
#include "lib/kbuild.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* rounds of dependency resolution: each one runs olddefconfig */
#define MAX_ROUNDS 4

/*
 * The configuration of the brief: tinyconfig plus what the guest needs to
 * boot under qemu -kernel (PVH) and every poll user and file type polltest
 * exercises.  HYPERVISOR_GUEST, SHMEM and NET are there because PVH, TMPFS
 * and POSIX_MQUEUE depend on them; BINFMT_SCRIPT for /init, UNIX98_PTYS and
 * UNIX for the pty and socket kinds.  GPIOLIB for gpio-mockup's lines
 * (guest/gpiokinds.c): it changes more headers than boot_deps.c lets a
 * converted file's dependency change, so it is here from the start.
 */
static const char *const base_symbols[] = {
	"64BIT", "HYPERVISOR_GUEST", "PVH", "TTY", "SERIAL_8250", "SERIAL_8250_CONSOLE",
	"BLK_DEV_INITRD", "DEVTMPFS", "DEVTMPFS_MOUNT", "PROC_FS", "SYSFS", "SHMEM", "TMPFS",
	"MULTIUSER", "FUTEX", "POSIX_TIMERS", "PRINTK", "EPOLL", "EVENTFD", "SIGNALFD", "TIMERFD",
	"INOTIFY_USER", "FANOTIFY", "IO_URING", "AIO", "PERF_EVENTS", "NET", "UNIX", "POSIX_MQUEUE",
	"USERFAULTFD", "FUSE_FS", "BINFMT_ELF", "BINFMT_SCRIPT", "UNIX98_PTYS", "PRINTK_TIME",
	"CC_OPTIMIZE_FOR_PERFORMANCE", "GPIOLIB",
};
/* without these there is no guest at all */
static const char *const critical_symbols[] = {
	"64BIT", "PVH", "SERIAL_8250_CONSOLE", "BLK_DEV_INITRD", "BINFMT_ELF", "BINFMT_SCRIPT",
	"PROC_FS", "DEVTMPFS", "TMPFS",
};

/* Why SYM stays off, from its Kconfig entry. */
static char *depends_of(const char *src, const char *sym)
{
	struct kconfig_entry e;
	char *m;

	if (kconfig_entry(src, sym, &e) < 0)
		return xstrdup("cannot read its Kconfig");
	if (!e.found)
		return xasprintf("no Kconfig entry for %s", sym);
	if (!e.prompt && e.depends)
		m = xasprintf("no prompt (only a select sets it), depends on %s", e.depends);
	else if (!e.prompt)
		m = xstrdup("no prompt: only a select from another option sets it");
	else if (!e.depends)
		m = xstrdup("its menu or the Kconfig file that sources it is off");
	else
		m = xasprintf("depends on %s", e.depends);
	kconfig_entry_free(&e);
	return m;
}

static bool config_has(const char *config, const char *sym)
{
	char *needle = xasprintf("\nCONFIG_%s=y\n", sym);
	bool on = strstr(config, needle) != NULL;

	free(needle);
	return on;
}

static void mk(struct boot_work *w, const char *src, const char *obj, const char *log, const char *target)
{
	char *o = xasprintf("O=%s", obj);
	const char *argv[] = { "nice", "make", "-C", src, o, target, NULL };

	if (run_logged(argv, NULL, log, 0, NULL)) {
		char *tail = log_tail(log, 20);

		die_code(EXIT_TOOL, "'make %s' failed in '%s' (log '%s'):\n%s", target, obj, log, tail);
	}
	free(o);
}

/* scripts/config --enable ENABLE, olddefconfig, and the result in w->config */
static void apply_config(struct boot_work *w, const char *src, const char *obj, const char *log,
			 const struct strvec *enable)
{
	struct strvec argv = STRVEC_INIT;
	char *cfg = path_join(obj, ".config"), *text;

	sv_push(&argv, path_join(src, "scripts/config"));
	sv_push(&argv, "--file");
	sv_push(&argv, cfg);
	sv_push(&argv, "--disable");
	sv_push(&argv, "CC_OPTIMIZE_FOR_SIZE");
	for (size_t i = 0; i < enable->n; i++) {
		sv_push(&argv, "--enable");
		sv_push(&argv, enable->v[i]);
	}
	if (run_logged((const char *const *)argv.v, NULL, log, 0, NULL))
		die_code(EXIT_TOOL, "scripts/config failed (log '%s')", log);
	mk(w, src, obj, log, "olddefconfig");
	if (read_file(cfg, &text, NULL) < 0)
		die("cannot read '%s': %s", cfg, strerror(errno));
	free(w->config);
	w->config = xasprintf("\n%s", text);	/* so that every line starts after a '\n' */
	free(text);
	free(cfg);
	sv_clear(&argv);
}

/* the first symbol of R's "A && B" that is not =y, or NULL */
static char *first_off(const struct boot_work *w, const struct symbol_result *r)
{
	char *sym, *and, *off = NULL;

	if (!r->symbol || r->on)
		return NULL;
	sym = xstrdup(r->symbol);
	for (char *p = sym; p && !off; p = and ? and + 4 : NULL) {
		and = strstr(p, " && ");
		if (and)
			*and = '\0';
		if (strcmp(p, "y") && !config_has(w->config, p))
			off = xstrdup(p);
	}
	free(sym);
	return off;
}

/* which symbols of SYMS (converted files, backends) are =y, and why the others are not */
static void check_list(struct boot_work *w, const char *src, struct symbol_result *syms, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct symbol_result *r = &syms[i];
		char *off;

		if (!r->symbol)
			continue;
		r->on = false;
		off = first_off(w, r);
		r->on = !off;
		if (off) {
			free(r->reason);
			r->reason = xasprintf("CONFIG_%s stays off: %s", off, depends_of(src, off));
		} else if (r->reason && strstr(r->reason, " stays off: ")) {
			/* a round before said so, and its dependencies turned it on */
			free(r->reason);
			r->reason = NULL;
		}
		free(off);
	}
}

static void check_symbols(struct boot_work *w, const char *src)
{
	check_list(w, src, w->syms, w->nsyms);
	check_list(w, src, w->backends, w->nbackends);
}

/*
 * The backends of the kinds whose ->poll S converts, into w->backends and
 * ENABLE: one entry per symbol, named after the kinds that need it.
 */
static void add_backends(struct boot_work *w, const struct boot_series *s, const struct guest_kind *kinds,
			 size_t nkinds, struct strvec *enable)
{
	for (size_t i = 0; i < nkinds; i++) {
		const struct guest_kind *k = &kinds[i];
		char *all, *save = NULL;

		if (!k->kconfig || !boot_series_converts(s, k->source, k->poll_fn))
			continue;
		all = xstrdup(k->kconfig);
		for (char *sym = strtok_r(all, " ", &save); sym; sym = strtok_r(NULL, " ", &save)) {
			struct symbol_result *r = NULL;

			for (size_t j = 0; j < w->nbackends && !r; j++)
				if (!strcmp(w->backends[j].symbol, sym))
					r = &w->backends[j];
			if (r) {
				char *names = xasprintf("%s, %s", r->file, k->name);

				free(r->file);
				r->file = names;
				continue;
			}
			w->backends = xrealloc(w->backends, (w->nbackends + 1) * sizeof(*w->backends));
			r = &w->backends[w->nbackends++];
			memset(r, 0, sizeof(*r));
			r->file = xstrdup(k->name);
			r->symbol = xstrdup(sym);
			if (!sv_contains(enable, sym))
				sv_push(enable, sym);
		}
		free(all);
	}
}

/* one round of dependency resolution over SYMS: what to enable next into MORE */
static void resolve_list(struct boot_work *w, const char *src, struct symbol_result *syms, size_t n,
			 const struct strvec *enable, struct strvec *more)
{
	for (size_t i = 0; i < n; i++) {
		struct symbol_result *r = &syms[i];
		char *off = first_off(w, r), *why = NULL;
		struct strvec plan = STRVEC_INIT;
		size_t planned;

		if (!off)
			continue;
		/* what this round already enables costs nothing: a backend is the selector of choice */
		for (size_t j = 0; j < more->n; j++)
			sv_push(&plan, more->v[j]);
		planned = plan.n;
		if (kconfig_resolve(src, w->config, off, &plan, &why)) {
			for (size_t j = planned; j < plan.n; j++) {
				if (!sv_contains(&r->needs, plan.v[j]) && strcmp(plan.v[j], off))
					sv_push(&r->needs, plan.v[j]);
				if (!sv_contains(enable, plan.v[j]) && !sv_contains(more, plan.v[j]))
					sv_push(more, plan.v[j]);
			}
		} else {
			free(r->refused);
			r->refused = why;
		}
		sv_clear(&plan);
		free(off);
	}
}

/* after the last round: a symbol off says why; one on keeps its dependencies */
static void finish_list(struct symbol_result *syms, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct symbol_result *r = &syms[i];

		if (!r->on && r->refused && r->reason) {
			char *m = xasprintf("%s (not enabled: %s)", r->reason, r->refused);

			free(r->reason);
			r->reason = m;
		} else if (!r->on && r->refused && !r->reason) {
			r->reason = xasprintf("not enabled: %s", r->refused);
		}
		if (r->on || !r->needs.n)
			continue;
		/* dependencies that did not make it on are no dependencies of a file that is on */
		sv_clear(&r->needs);
	}
}

bool guest_tests_file(const struct guest_kind *kinds, size_t nkinds, const char *file)
{
	for (size_t i = 0; i < nkinds; i++)
		if (!strcmp(kinds[i].source, file))
			return true;
	return false;
}

void work_config(struct boot_work *w, const struct boot_series *s, const struct guest_kind *kinds, size_t nkinds)
{
	const char *src = w->k[K_BASE].src;
	char *obj = xasprintf("%s/config", w->root), *cfg = path_join(obj, ".config");
	char *log = xasprintf("%s/logs/config.log", w->root);
	struct strvec enable = STRVEC_INIT;
	struct kbuild *kb = kbuild_new(src, NULL);

	mkdir_p(obj);
	unlink(log);
	mk(w, src, obj, log, "tinyconfig");
	for (size_t i = 0; i < sizeof(base_symbols) / sizeof(base_symbols[0]); i++)
		sv_push(&enable, base_symbols[i]);
	w->syms = xcalloc(s->files.n, sizeof(*w->syms));
	w->nsyms = s->files.n;
	for (size_t i = 0; i < s->files.n; i++) {
		struct symbol_result *r = &w->syms[i];
		char *cond = NULL, *why = NULL;

		r->file = xstrdup(s->files.v[i]);
		r->symbol = kbuild_symbol(kb, s->files.v[i], &cond, &why);
		r->reason = why;
		/*
		 * A file the guest can run is built whatever it costs; one it
		 * has no test for only when it is cheap (a GPU driver's
		 * hundred objects buy a compile, which verify already did).
		 */
		if (r->symbol && strcmp(r->symbol, "y") && !sv_contains(&enable, r->symbol) &&
		    (guest_tests_file(kinds, nkinds, r->file) || kconfig_affordable(src, r->symbol, &r->refused)))
			sv_push(&enable, r->symbol);
		if (cond && !sv_contains(&enable, cond))
			sv_push(&enable, cond);
		if (cond && r->symbol) {
			char *both = xasprintf("%s && %s", r->symbol, cond);

			free(r->symbol);
			r->symbol = both;
		}
		free(cond);
	}
	kbuild_close(kb);
	add_backends(w, s, kinds, nkinds, &enable);
	apply_config(w, src, obj, log, &enable);
	for (size_t i = 0; i < sizeof(base_symbols) / sizeof(base_symbols[0]); i++) {
		if (config_has(w->config, base_symbols[i]))
			sv_push(&w->base_syms, base_symbols[i]);
		else
			sv_push(&w->base_missing, base_symbols[i]);
	}
	for (size_t i = 0; i < sizeof(critical_symbols) / sizeof(critical_symbols[0]); i++)
		if (!config_has(w->config, critical_symbols[i]))
			die_code(EXIT_INPUT, "CONFIG_%s cannot be enabled in '%s' (%s): no guest can boot",
				 critical_symbols[i], w->tree, depends_of(src, critical_symbols[i]));
	/*
	 * The software dependencies of the symbols still off, a few rounds:
	 * what olddefconfig made of one round decides the next.
	 */
	for (int round = 0; round < MAX_ROUNDS; round++) {
		struct strvec more = STRVEC_INIT;

		check_symbols(w, src);
		resolve_list(w, src, w->backends, w->nbackends, &enable, &more);
		resolve_list(w, src, w->syms, w->nsyms, &enable, &more);
		if (!more.n)
			break;
		for (size_t i = 0; i < more.n; i++)
			sv_push(&enable, more.v[i]);
		sv_clear(&more);
		apply_config(w, src, obj, log, &enable);
	}
	check_symbols(w, src);
	finish_list(w->syms, w->nsyms);
	finish_list(w->backends, w->nbackends);
	sv_clear(&enable);
	free(obj);
	free(cfg);
	free(log);
}

