/* SPDX-License-Identifier: GPL-2.0 */
/*
 * boot.h - "polltax boot-test": prove a series in a running kernel.
 *
 *   boot_series.c  what the series converts (files, ->poll functions, the
 *                  f_poll_head creation sites), and the --mutate copy
 *   boot_kernel.c  the scratch git repository and worktrees, applying the
 *                  series (and its two-call variant), the builds
 *   boot_config.c  the configuration: tinyconfig, the guest's needs, the
 *                  converted files' Kconfig symbols
 *   boot_kconfig.c the Kconfig entries x86 reads: dependencies, selectors
 *   boot_deps.c    the software dependencies of those symbols, resolved
 *   boot_guest.c   the initramfs, qemu (accelerator, timeout, log), and
 *                  reading the guest's TAP and benchmark lines
 *   boot_report.c  comparing the kernels, boot-test.json and boot-test.md
 *   boot_run.c     running a program with its output in a log file
 */
#ifndef POLLTAX_BOOT_H
#define POLLTAX_BOOT_H

#include <jansson.h>
#include <stdbool.h>
#include "lib/util.h"

/* ---- the series ---- */

struct conversion {
	char *file;		/* fs/eventfd.c */
	char *poll_fn;		/* the .poll function it replaced, "" when not seen */
	char *poll_mask_fn;	/* the .poll_mask function */
	int patch;		/* index into series.patches */
};

struct head_site {
	char *file;		/* where f_poll_head is set */
	char *text;		/* the added line, trimmed */
	int patch;
	size_t patch_line;	/* 1-based line in the patch file */
};

struct boot_series {
	char *dir;
	char *cover;		/* the cover letter, or NULL */
	struct strvec patches;	/* in order, cover letter excluded */
	struct strvec subjects;
	struct conversion *conv;
	size_t nconv;
	struct head_site *sites;
	size_t nsites;
	struct strvec files;	/* every converted file, sorted */
	struct strvec defined;	/* "FILE\tFN": a function of a file the series renames (the poll's own file) */
};

void boot_series_read(struct boot_series *s, const char *dir);
void boot_series_free(struct boot_series *s);
/*
 * Does the series convert FN (a .poll function) of FILE?  FILE is where
 * the file_operations are, or where FN itself is defined (drm_poll() is
 * drm_file.c's, its file_operations are the drivers' and DRM_GEM_FOPS').
 */
bool boot_series_converts(const struct boot_series *s, const char *file, const char *fn);
/*
 * Write a copy of the series into DIR with one f_poll_head assignment
 * mutated: the first one in a file of PREFER (a list of files, may be
 * empty) or else the first one.  MISSING_HEAD: the line removed (the head
 * never set: lost wake-ups).  LIFETIME: its value replaced by a wait queue
 * freed before the file is (kmalloc()ed, initialized, kfree()d in the same
 * statement: the head dangles from the start, a use after free in the
 * first poll).  Returns the site mutated, or NULL.
 */
enum mutation_kind { MUTATE_MISSING_HEAD, MUTATE_LIFETIME };
const struct head_site *boot_series_mutate(const struct boot_series *s, const struct strvec *prefer, const char *dir,
					   enum mutation_kind kind);
/* The f_poll_head line of site H as LIFETIME makes it (a new string). */
char *boot_lifetime_line(const struct head_site *h);

/* ---- kernels ---- */

/*
 * base, patched, two-call; then base and patched again, built with the
 * KASAN + lockdep fragment (boot_kernel.c) into their own object
 * directories from the same worktrees: booted for the checks only (the
 * benchmark keeps the plain kernels), compared with the plain base kernel.
 */
enum kernel_id { K_BASE, K_PATCHED, K_TWO_CALL, K_BASE_KASAN, K_PATCHED_KASAN, NR_KERNELS };
extern const char *const kernel_names[NR_KERNELS];
/* K_BASE_KASAN and K_PATCHED_KASAN: the plain kernel built from the same sources; else ID itself */
enum kernel_id kernel_source(enum kernel_id id);
static inline bool kernel_debug(int id) { return id == K_BASE_KASAN || id == K_PATCHED_KASAN; }

struct symbol_result {
	char *file;		/* the converted file */
	char *symbol;		/* CONFIG_ symbol without the prefix, "y" if always built, NULL if not found */
	bool on;		/* =y in the final configuration */
	char *reason;		/* why not, or NULL */
	struct strvec needs;	/* the dependencies enabled for it */
	char *refused;		/* why its dependencies were not enabled, or NULL */
};

struct kernel_build {
	bool wanted;
	char *src;		/* worktree */
	char *obj;		/* O= */
	char *commit;
	char *vmlinux;		/* copy kept for the boots */
	double seconds;
	bool rebuilt;		/* make did work (false: it was up to date) */
	char *note;		/* how the tree was made (two-call), or why it was left out */
};

struct boot_work {
	char *root;		/* ~/.cache/polltax/boot/<tree>-<hash> */
	char *repo;		/* bare repository */
	char *tree;		/* KERNEL_DIR, realpath */
	char *version;		/* 6.12.118 */
	char *series_ver;	/* 6.12 */
	char *pristine;		/* commit of the imported tree */
	int jobs;
	bool quiet;
	struct kernel_build k[NR_KERNELS];
	struct symbol_result *syms;
	size_t nsyms;
	/*
	 * The backends of the guest's kinds (struct guest_kind's kconfig)
	 * whose ->poll the series converts: file is the kinds' names
	 * ("tpm-dev, tpmrm-dev"), symbol one Kconfig symbol (CONFIG_SW_SYNC)
	 */
	struct symbol_result *backends;
	size_t nbackends;
	struct strvec base_syms;	/* the fixed list, with what ended up =y */
	struct strvec base_missing;
	char *config;		/* the .config text */
	int get_poll_heads;	/* two-call: .get_poll_head lines added */
	int import_lock;	/* the tree's shared import (scratch.h), held until work_apply() is done with it */
};

void work_open(struct boot_work *w, const char *kernel_dir, const char *workdir, int jobs, bool quiet);
/*
 * Apply the series (and its two-call variant: the one polltax makes for the
 * tree, or KPATCHES/<version>/two-call/ when KPATCHES is not NULL) and check
 * the worktrees out.
 */
void work_apply(struct boot_work *w, const struct boot_series *s, const char *kpatches);
struct guest_kind;
/* the configuration: tinyconfig, the converted files, the backends of the kinds that exercise them */
void work_config(struct boot_work *w, const struct boot_series *s, const struct guest_kind *kinds, size_t nkinds);
/* whether one of KINDS exercises a file type of FILE */
bool guest_tests_file(const struct guest_kind *kinds, size_t nkinds, const char *file);
/* Build one kernel; dies with the log's tail when make fails. */
void work_build(struct boot_work *w, enum kernel_id id);
void work_free(struct boot_work *w);

struct kconfig_entry {
	bool found;		/* an x86 or generic "config SYM" */
	bool prompt;		/* false: only a select sets it */
	bool in_choice;		/* one option of a "choice" */
	char *depends;		/* its "depends on" and enclosing blocks, joined with &&; NULL if none */
};
/* SYM's Kconfig entry; -1 when its file cannot be read. */
int kconfig_entry(const char *src, const char *sym, struct kconfig_entry *e);
void kconfig_entry_free(struct kconfig_entry *e);
/* append to OUT the options whose entries "select SYM" */
void kconfig_selectors(const char *src, const char *sym, struct strvec *out);
/*
 * boot_deps.c: append to PLAN the software symbols (SYM last) that must be
 * enabled for SYM to be on in CONFIG ("\n"-prefixed .config text); false
 * with *why (or NULL) when SYM needs hardware or too big a subsystem.
 */
bool kconfig_resolve(const char *src, const char *config, const char *sym, struct strvec *plan, char **why);
/* whether a converted file's own SYM is cheap enough to build without a guest test; false: why not */
bool kconfig_affordable(const char *src, const char *sym, char **why);

/* ---- the guest ---- */

struct guest_kind {
	char *name, *source, *poll_fn;
	char *kconfig;		/* its backend's Kconfig symbols, space-separated, or NULL */
	bool unconvertible;
	bool always_ready;	/* no wake-up to test: a lost head would not show */
	bool teardown;		/* the trigger takes away what the file is open on (a hang-up, an unbind) */
};

struct check_result {
	char *name;		/* "eventfd: poll() reports ready after the trigger" */
	char *status;		/* ok, fail, skip, todo */
	char *detail;		/* the reason / diagnostic, or NULL */
};

struct bench_row {
	char *kind, *op;
	int fds;
	double per_call;	/* ns == instructions under icount shift=0 */
	double tsc;
};

struct boot_result {
	bool ran;
	char *accel;		/* tcg, kvm */
	char *log;		/* console log path */
	double seconds;
	bool finished;		/* the guest printed its end marker */
	bool timed_out;
	int guest_exit;		/* polltest's status, -1 unknown */
	struct strvec problems;	/* panic/oops/WARN/lockdep lines, with context */
	struct check_result *checks;
	size_t nchecks;
	struct bench_row *bench;
	size_t nbench;
	char *clocksource;
	char *kvm_note;		/* why KVM was not used, if tried */
};

struct guest_opts {
	const char *qemu;
	const char *accel;	/* auto, tcg, kvm */
	int timeout;		/* seconds per boot */
	const char *guest;	/* polltest */
	const char *busybox;
	const char *args;	/* extra polltest arguments, ':' for spaces, or NULL */
};

void guest_kinds(const char *polltest, struct guest_kind **out, size_t *n);
/* The initramfs with busybox, /init and polltest, built with the base build's gen_init_cpio. */
char *guest_initramfs(const struct boot_work *w, const struct guest_opts *o);
/* Boot VMLINUX; bench: under -icount shift=0,sleep=off. */
void guest_boot(const struct guest_opts *o, const char *vmlinux, const char *initrd, const char *dir,
		const char *name, bool bench, struct boot_result *r);
void boot_result_free(struct boot_result *r);
const char *guest_accel_for_test(const struct guest_opts *o);

/* ---- comparing and reporting (boot_report.c) ---- */

struct boot_run {
	struct boot_result test, bench;
};

struct boot_report {
	const struct boot_series *s;
	const struct boot_work *w;
	struct guest_kind *kinds;
	size_t nkinds;
	struct boot_run runs[NR_KERNELS];
	const struct head_site *mutation;	/* --mutate: the line removed, or with --lifetime replaced */
	bool lifetime;				/* --mutate --lifetime */
	bool bench;
	const char *reproduce;			/* the command line */
	struct strvec failures;			/* filled by boot_report_compare() */
};

/* Fills r->failures: problems in a log, unfinished guests, differences from base. */
void boot_report_compare(struct boot_report *r);
json_t *boot_report_json(const struct boot_report *r);
char *boot_report_markdown(const struct boot_report *r);
/* is the kind's ->poll converted by the series? */
bool kind_converted(const struct boot_report *r, const struct guest_kind *k);

/* ---- running things ---- */

/* Run ARGV in CWD with stdout+stderr to LOG (appended); kill after TIMEOUT s (0: none). */
int run_logged(const char *const argv[], const char *cwd, const char *log, int timeout, bool *timed_out);
/* The last N lines of a file, indented, for error messages. */
char *log_tail(const char *path, int n);
/* git in a repository or worktree; dies on failure unless allow_fail */
int git(const char *dir, bool allow_fail, struct strbuf *out, ...) __attribute__((sentinel));

#endif
