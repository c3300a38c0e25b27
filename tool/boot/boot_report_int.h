/* SPDX-License-Identifier: GPL-2.0 */
/*
 * boot_report_int.h - what boot_report.c (the comparison, boot-test.json)
 * and boot_report_md.c (the "Tested" section) share.
 */
#ifndef POLLTAX_BOOT_REPORT_INT_H
#define POLLTAX_BOOT_REPORT_INT_H

#include "boot.h"

struct counts {
	int total, ok, skip, todo, fail;
};

extern const char NO_GUEST_TEST[];

/* How far the guest got with one conversion of the series, and why no further. */
struct reach {
	bool built, opened, woken, torn_down;
	const char *why;	/* NULL when torn down too; else the first step missing, and why */
};
void br_reach(const struct boot_report *r, const struct conversion *c, struct reach *out);
struct counts br_count(const struct boot_result *b);
int br_kind_ok(const struct boot_report *r, const struct boot_result *b, const struct guest_kind *k);
const char *br_not_exercised(const struct boot_report *r, size_t i);
double br_ins(const struct bench_row *b);
const struct bench_row *br_find_row(const struct boot_result *b, const char *kind, const char *op, int fds);
int br_kernels(const struct boot_report *r, int ids[NR_KERNELS]);
int br_bench_kernels(const struct boot_report *r, int ids[NR_KERNELS]);
/* the file types the debug kernels did not run (K_NO_DEBUG in the guest), in "name, name" */
char *br_debug_skipped(const struct boot_report *r);

#endif
