/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbuild.h - does a configuration build a file?  Read from the tree's
 * Kbuild makefiles (obj-$(CONFIG_X) += x.o, composite objects, the
 * subdirectory entries of the parents) and the configuration's
 * include/config/auto.conf.  The series stage uses it so that it only
 * converts what verify can build; when the makefiles say something it
 * does not follow, the answer is "cannot tell" and verify decides.
 */
#ifndef POLLTAX_KBUILD_H
#define POLLTAX_KBUILD_H

#include "util.h"

struct kbuild;

/* NULL when BUILD has no include/config/auto.conf. */
struct kbuild *kbuild_open(const char *root, const char *build);
void kbuild_close(struct kbuild *k);

/*
 * 1: the configuration builds REL (a .c file); 0: it does not (*WHY says
 * which symbol or directory); -1: cannot tell.
 */
int kbuild_built(struct kbuild *k, const char *rel, char **why);

#endif
