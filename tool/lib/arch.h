/* SPDX-License-Identifier: GPL-2.0 */
/*
 * arch.h - the architectures polltax can prepare, scan and build a tree
 * for besides x86 (the configured one): the kernel's ARCH= name, the
 * Debian cross compiler's prefix and package, and libclang's --target.
 * A file that x86's configuration does not build is scanned and verified
 * with the first architecture of --arch whose configuration builds it.
 */
#ifndef POLLTAX_ARCH_H
#define POLLTAX_ARCH_H

#include <stdbool.h>
#include <stddef.h>

struct arch_info {
	const char *name;	/* ARCH=, and the directory under arch/ */
	const char *cross;	/* CROSS_COMPILE= ("" for the host) */
	const char *target;	/* clang --target= (little endian; see arch_target()) */
	const char *pkg;	/* the Debian package of the cross compiler */
};

#define ARCH_MAX 8

/* The host architecture, x86. */
const struct arch_info *arch_host(void);
/* NAME's entry, or NULL. */
const struct arch_info *arch_find(const char *name);
/*
 * SPEC, "powerpc,s390" or "all" (every one but x86), into OUT (at most
 * ARCH_MAX); returns how many, or -1 with *ERR saying what is wrong.
 */
int arch_parse(const char *spec, const struct arch_info **out, char **err);
/* The architectures but x86 in order: the first after A (NULL: the first), NULL after the last. */
const struct arch_info *arch_next(const struct arch_info *a);
/* The names of every known architecture but x86, comma-separated (for --help and errors). */
const char *arch_names(void);
/* Is REL (relative to the tree) under arch/A/? */
bool arch_dir_of(const char *rel, const struct arch_info *a);
/* Dies (EXIT_TOOL) naming the Debian package when A's gcc is not on PATH; WHAT says who needs it. */
void arch_require_compiler(const struct arch_info *a, const char *what);
struct strvec;
/* The make variables that build for A, "ARCH=powerpc" and "CROSS_COMPILE=...", into OUT: none for x86. */
void arch_make_args(const struct arch_info *a, struct strvec *out);
/*
 * The clang target for A in the build directory BUILD: the big-endian
 * triple when BUILD's configuration sets CONFIG_CPU_BIG_ENDIAN.  Allocated.
 */
char *arch_target(const struct arch_info *a, const char *build);

#endif
