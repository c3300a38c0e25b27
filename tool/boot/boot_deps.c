// SPDX-License-Identifier: GPL-2.0
/*
 * boot_deps.c - which other Kconfig symbols to turn on so that a converted
 * file's symbol, off after olddefconfig, can be on: its "depends on"
 * expression (and the "if"/"menu" blocks around it) made true, and for a
 * symbol without a prompt one option that selects it, recursively.
 *
 * Only software, and the buses of the functional boots' qemu machine, are
 * enabled.  A symbol is hardware when it is one of the few bus and
 * platform symbols below or when the only way to satisfy its dependencies
 * goes through one.  The machine's own (machine_symbols: its PCI bus, the
 * USB of its xHCI controller, the block layer of its disks, USB gadgets
 * on dummy_hcd) are enabled
 * whatever they cost, when a converted file or a backend needs them; a
 * driver that needs them builds, and runs when qemu gives it a device.
 * Any other symbol whose directory or objects would
 * add more than MAX_OBJECTS objects to the kernel (the TCP/IP stack, the
 * block layer) is refused as too big, and so is one that more than
 * MAX_HEADERS headers test (the preemption model): turning it on would
 * rebuild most of the kernel, and the three boot kernels are rebuilt on
 * every CI run.  Options of a "choice" are never changed.  Each refusal keeps its reason, which the
 * report shows beside the file that stays off.
 */
#define _GNU_SOURCE
#include "boot.h"
#include "lib/kbuild.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 5
#define MAX_OBJECTS 40	/* the block layer (37) passes this bound; MAX_HEADERS keeps it out */
#define MAX_HEADERS 4
#define MAX_SELECTORS 24

/* buses and platforms: what depends on them needs hardware qemu does not give us */
static const char *const bus_symbols[] = {
	"I2C", "SPI", "OF", "ACPI", "PNP", "ISA", "EISA", "PCMCIA",
	"PARPORT", "FIREWIRE", "XEN", "COMMON_CLK", "COMPILE_TEST", "GOLDFISH", "RAPIDIO",
	"CHROME_PLATFORMS", "X86_PLATFORM_DEVICES", "SCSI", "MTD", "MMC", "SND_SOC",
	"KUNIT",	/* not hardware, but tests that run at boot */
};
static const char *const bus_prefixes[] = { "ARCH_", "MFD_", "I2C_", "SPI_" };
/*
 * what qemu's pc machine has for the functional boots (boot_guest.c): PCI
 * (i440FX), USB (the qemu-xhci controller it adds) and disks, and the USB
 * device side in software (gadgets on dummy_hcd's UDC); their cost is the
 * price of reaching the files that need them, measured in README
 */
static const char *const machine_symbols[] = { "PCI", "USB_SUPPORT", "USB", "USB_PCI", "USB_XHCI_HCD", "BLOCK",
					       "USB_GADGET", "PARPORT" };

/* "SYM\tcost", and the makefiles: the greps of one run, kept */
static struct strvec memo_cost, mk_dirs;
static struct kbuild *mk_reader;
struct deps {
	const char *src;
	const char *config;	/* "\n"-prefixed .config text */
	struct strbuf why;	/* the last refusal */
};

/* "SYM\theader" for every header of include/ and arch/x86/include/ that names CONFIG_SYM, sorted */
static struct strvec hdr_uses;

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* how many headers test CONFIG_SYM */
static long headers_of(const struct deps *d, const char *sym)
{
	char *key = xasprintf("%s\t", sym);
	size_t lo = 0, hi, n = 0;

	if (!hdr_uses.n) {
		struct strbuf out = STRBUF_INIT;
		size_t w = 0;

		git(d->src, true, &out, "grep", "--no-index", "-o", "-E", "CONFIG_[A-Za-z0-9_]+", "--", "include",
		    "arch/x86/include", NULL);
		for (char *p = out.buf; p && *p;) {
			char *e = strchr(p, '\n'), *c = strstr(p, ":CONFIG_");

			if (e)
				*e = '\0';
			if (c) {
				*c = '\0';
				sv_pushf(&hdr_uses, "%s\t%s", c + 8, p);
			}
			p = e ? e + 1 : NULL;
		}
		sb_release(&out);
		qsort(hdr_uses.v, hdr_uses.n, sizeof(char *), cmp_str);
		for (size_t i = 0; i < hdr_uses.n; i++) {
			if (w && !strcmp(hdr_uses.v[w - 1], hdr_uses.v[i]))
				free(hdr_uses.v[i]);
			else
				hdr_uses.v[w++] = hdr_uses.v[i];
		}
		hdr_uses.n = w;
	}
	for (hi = hdr_uses.n; lo < hi;) {
		size_t mid = (lo + hi) / 2;

		if (strcmp(hdr_uses.v[mid], key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo + n < hdr_uses.n && !strncmp(hdr_uses.v[lo + n], key, strlen(key)))
		n++;
	free(key);
	return (long)n;
}

static bool is_on(const struct deps *d, const char *sym)
{
	char *needle = xasprintf("\nCONFIG_%s=y\n", sym);
	bool on = strstr(d->config, needle) != NULL;

	free(needle);
	return on;
}

static bool is_machine(const char *sym)
{
	for (size_t i = 0; i < sizeof(machine_symbols) / sizeof(machine_symbols[0]); i++)
		if (!strcmp(sym, machine_symbols[i]))
			return true;
	return false;
}

static bool is_bus(const char *sym)
{
	if (is_machine(sym))
		return false;
	for (size_t i = 0; i < sizeof(bus_symbols) / sizeof(bus_symbols[0]); i++)
		if (!strcmp(sym, bus_symbols[i]))
			return true;
	for (size_t i = 0; i < sizeof(bus_prefixes) / sizeof(bus_prefixes[0]); i++)
		if (!strncmp(sym, bus_prefixes[i], strlen(bus_prefixes[i])))
			return true;
	return false;
}

static void refuse(struct deps *d, const char *fmt, const char *sym, long n)
{
	sb_reset(&d->why);
	sb_addf(&d->why, fmt, sym, n);
}

/* the .o words of the assignments of F whose variable is VAR ("y" or a CONFIG_ symbol) */
static long objects_of(const struct kb_file *f, const char *var)
{
	char *own = strcmp(var, "y") ? xasprintf("$(CONFIG_%s)", var) : NULL;
	long n = 0;

	for (size_t i = 0; i < f->n; i++) {
		const char *dash = strchr(f->a[i].name, '-');

		if (!dash || strlen(dash) >= 64 ||
		    !(own ? !strncmp(dash + 1, own, strlen(own)) : dash[1] == 'y' || !strncmp(dash + 1, "objs", 4)))
			continue;
		for (size_t j = 0; j < f->a[i].words.n; j++)
			if (strlen(f->a[i].words.v[j]) > 2 && has_suffix(f->a[i].words.v[j], ".o"))
				n++;
	}
	free(own);
	return n;
}

/*
 * About how many objects turning SYM on adds: the objects its own
 * Makefile lines name, and for each directory they name, what that
 * directory builds unconditionally.
 */
static long cost_count(const struct deps *d, const char *sym)
{
	char *needle = xasprintf("$(CONFIG_%s)", sym);
	long n = 0;

	if (!mk_reader) {
		struct strbuf out = STRBUF_INIT;

		/* every directory whose Makefile or Kbuild names an option, read once */
		mk_reader = kbuild_new(d->src, NULL);
		git(d->src, true, &out, "grep", "--no-index", "-l", "-F", "$(CONFIG_", "--", "*Makefile", "*Kbuild",
		    NULL);
		for (char *p = out.buf; p && *p;) {
			char *e = strchr(p, '\n'), *slash;

			if (e)
				*e = '\0';
			slash = strrchr(p, '/');
			*(slash ? slash : p) = '\0';
			if (!sv_contains(&mk_dirs, p) && kbuild_file(mk_reader, p)->name)
				sv_push(&mk_dirs, p);
			p = e ? e + 1 : NULL;
		}
		sb_release(&out);
	}
	for (size_t k = 0; k < mk_dirs.n; k++) {
		const char *dir = mk_dirs.v[k];
		const struct kb_file *f = kbuild_file(mk_reader, dir);
		bool named = false;

		for (size_t i = 0; i < f->n && !named; i++)
			named = strstr(f->a[i].name, needle) != NULL;
		if (!named)
			continue;
		n += objects_of(f, sym);
		/* subdirectories it enters */
		for (size_t i = 0; i < f->n; i++) {
			if (!strstr(f->a[i].name, needle))
				continue;
			for (size_t j = 0; j < f->a[i].words.n; j++) {
				const char *w = f->a[i].words.v[j];
				size_t len = strlen(w);

				if (len > 1 && w[len - 1] == '/' && !strchr(w, '$')) {
					char *sub = xasprintf("%s%s%.*s", dir, *dir ? "/" : "", (int)len - 1, w);
					const struct kb_file *sf = kbuild_file(mk_reader, sub);

					n += objects_of(sf, "y") + objects_of(sf, sym);
					free(sub);
				}
			}
		}
	}
	free(needle);
	return n;
}

/* cost_count(), remembered */
static long cost_of(const struct deps *d, const char *sym)
{
	long n;

	for (size_t i = 0; i < memo_cost.n; i++) {
		const char *tab = strchr(memo_cost.v[i], '\t');

		if ((size_t)(tab - memo_cost.v[i]) == strlen(sym) && !strncmp(memo_cost.v[i], sym, strlen(sym)))
			return strtol(tab + 1, NULL, 10);
	}
	n = cost_count(d, sym);
	sv_pushf(&memo_cost, "%s\t%ld", sym, n);
	return n;
}

static bool resolve(struct deps *d, const char *sym, int depth, struct strvec *plan);

/* ---- "depends on" expressions: satisfied by enabling symbols ---- */

struct expr {
	const char *p;
	struct deps *d;
	int depth;
	bool negated;		/* under a "!" */
};

static void skip_ws(struct expr *x)
{
	while (isspace((unsigned char)*x->p))
		x->p++;
}

static char *atom(struct expr *x)
{
	const char *s;

	skip_ws(x);
	s = x->p;
	if (*x->p == '"' || *x->p == '\'') {
		char q = *x->p++;

		while (*x->p && *x->p != q)
			x->p++;
		if (*x->p)
			x->p++;
		return xstrndup(s + 1, (size_t)(x->p - s - 2 > 0 ? x->p - s - 2 : 0));
	}
	while (isalnum((unsigned char)*x->p) || *x->p == '_')
		x->p++;
	return xstrndup(s, (size_t)(x->p - s));
}

static bool sym_true(struct expr *x, const char *a, struct strvec *plan)
{
	if (!strcmp(a, "y"))
		return true;
	if (!strcmp(a, "n") || !strcmp(a, "m") || !*a)
		return false;
	/* a bus that is on still does not make its drivers' hardware */
	if (!plan)
		return is_on(x->d, a) && (x->negated || !is_bus(a));
	/* on or not, what needs a bus needs hardware */
	if (is_bus(a)) {
		refuse(x->d, "it needs CONFIG_%s, a bus or platform this guest does not have", a, 0);
		return false;
	}
	return resolve(x->d, a, x->depth + 1, plan);
}

static bool or_expr(struct expr *x, struct strvec *plan);

/* PLAN NULL: only evaluate against the configuration */
static bool factor(struct expr *x, struct strvec *plan)
{
	char *a, *b;
	bool r, ne;

	skip_ws(x);
	if (*x->p == '!' && x->p[1] != '=') {
		x->p++;
		x->negated = !x->negated;
		r = !factor(x, NULL);	/* nothing is ever turned off */
		x->negated = !x->negated;
		return r;
	}
	if (*x->p == '(') {
		x->p++;
		r = or_expr(x, plan);
		skip_ws(x);
		if (*x->p == ')')
			x->p++;
		return r;
	}
	a = atom(x);
	skip_ws(x);
	ne = x->p[0] == '!' && x->p[1] == '=';
	if (!ne && *x->p != '=') {
		r = sym_true(x, a, plan);
		free(a);
		return r;
	}
	x->p += ne ? 2 : 1;
	b = atom(x);
	if (!strcmp(b, "n") || !strcmp(b, "y")) {
		bool want = !strcmp(b, "y") != ne;

		if (want) {
			r = sym_true(x, a, plan);
		} else {
			x->negated = !x->negated;
			r = !sym_true(x, a, NULL);
			x->negated = !x->negated;
		}
	} else {
		r = true;	/* a string or number comparison: not ours to change */
	}
	free(a);
	free(b);
	return r;
}

static bool and_expr(struct expr *x, struct strvec *plan)
{
	bool r = factor(x, plan);

	for (;;) {
		skip_ws(x);
		if (x->p[0] != '&' || x->p[1] != '&')
			return r;
		x->p += 2;
		/* keep parsing after a failure, to stay in step */
		r = factor(x, r ? plan : NULL) && r;
	}
}

/* an "||" is already true, or the first alternative that can be made true */
static bool or_expr(struct expr *x, struct strvec *plan)
{
	const char *start = x->p;
	bool r = false;

	if (plan) {
		struct expr probe = *x;

		if (or_expr(&probe, NULL)) {
			x->p = probe.p;
			return true;
		}
	}
	for (x->p = start;;) {
		struct strvec alt = STRVEC_INIT;

		if (plan)
			for (size_t i = 0; i < plan->n; i++)
				sv_push(&alt, plan->v[i]);
		if (!r && and_expr(x, plan ? &alt : NULL)) {
			r = true;
			if (plan)
				for (size_t i = plan->n; i < alt.n; i++)
					sv_push(plan, alt.v[i]);
		} else if (r) {
			and_expr(x, NULL);
		}
		sv_clear(&alt);
		skip_ws(x);
		if (x->p[0] != '|' || x->p[1] != '|')
			return r;
		x->p += 2;
	}
}

/*
 * Make SYM on: append to PLAN what must be enabled for it (itself
 * included).  false, with the reason in d->why, when it cannot be.
 */
static bool resolve(struct deps *d, const char *sym, int depth, struct strvec *plan)
{
	struct kconfig_entry e;
	struct strvec sub = STRVEC_INIT;
	bool ok = true;
	long cost;

	if (is_on(d, sym) || sv_contains(plan, sym))
		return true;
	if (depth > MAX_DEPTH) {
		refuse(d, "CONFIG_%s is too deep in the dependencies (%ld levels)", sym, depth);
		return false;
	}
	if (is_bus(sym)) {
		refuse(d, "CONFIG_%s is a bus or platform this guest does not have", sym, 0);
		return false;
	}
	if (kconfig_entry(d->src, sym, &e) < 0 || !e.found) {
		refuse(d, "CONFIG_%s has no Kconfig entry on x86", sym, 0);
		return false;
	}
	if (e.in_choice) {
		refuse(d, "CONFIG_%s is one option of a choice: not ours to change", sym, 0);
		kconfig_entry_free(&e);
		return false;
	}
	cost = is_machine(sym) ? 0 : cost_of(d, sym);
	if (cost > MAX_OBJECTS) {
		refuse(d, "CONFIG_%s would add about %ld objects to the boot kernels", sym, cost);
		kconfig_entry_free(&e);
		return false;
	}
	cost = is_machine(sym) ? 0 : headers_of(d, sym);
	if (cost > MAX_HEADERS) {
		refuse(d, "CONFIG_%s changes %ld headers: most of the boot kernels would be rebuilt", sym, cost);
		kconfig_entry_free(&e);
		return false;
	}
	for (size_t i = 0; i < plan->n; i++)
		sv_push(&sub, plan->v[i]);
	if (e.depends) {
		struct expr x = { e.depends, d, depth, false };

		ok = or_expr(&x, &sub);
	}
	if (ok && !e.prompt) {
		struct strvec sel = STRVEC_INIT;

		struct strvec best = STRVEC_INIT;

		/* the selector that needs the fewest other symbols */
		ok = false;
		kconfig_selectors(d->src, sym, &sel);
		for (size_t i = 0; i < sel.n && i < MAX_SELECTORS; i++) {
			struct strvec alt = STRVEC_INIT;

			for (size_t j = 0; j < sub.n; j++)
				sv_push(&alt, sub.v[j]);
			if (resolve(d, sel.v[i], depth + 1, &alt) && (!ok || alt.n < best.n)) {
				ok = true;
				sv_clear(&best);
				best = alt;
			} else {
				sv_clear(&alt);
			}
		}
		if (ok) {
			sv_clear(&sub);
			sub = best;
		}
		if (!sel.n)
			refuse(d, "nothing selects CONFIG_%s", sym, 0);
		sv_clear(&sel);
	}
	if (ok) {
		for (size_t i = plan->n; i < sub.n; i++)
			sv_push(plan, sub.v[i]);
		sv_push(plan, sym);
	}
	sv_clear(&sub);
	kconfig_entry_free(&e);
	return ok;
}

bool kconfig_resolve(const char *src, const char *config, const char *sym, struct strvec *plan, char **why)
{
	struct deps d = { src, config, STRBUF_INIT };
	struct strvec sub = STRVEC_INIT;
	bool ok;

	*why = NULL;
	for (size_t i = 0; i < plan->n; i++)
		sv_push(&sub, plan->v[i]);
	ok = resolve(&d, sym, 0, &sub);
	if (ok) {
		for (size_t i = plan->n; i < sub.n; i++)
			sv_push(plan, sub.v[i]);
		sb_release(&d.why);
	} else {
		*why = d.why.len ? sb_detach(&d.why) : NULL;
	}
	sv_clear(&sub);
	return ok;
}

bool kconfig_affordable(const char *src, const char *sym, char **why)
{
	struct deps d = { src, "", STRBUF_INIT };
	long cost;

	*why = NULL;
	if (is_machine(sym) || is_bus(sym))
		return true;	/* a bus is refused by what depends on it, with that reason */
	cost = cost_of(&d, sym);
	if (cost <= MAX_OBJECTS)
		return true;
	*why = xasprintf("CONFIG_%s would add about %ld objects to the boot kernels, for a file the guest has "
			 "no test for", sym, cost);
	return false;
}
