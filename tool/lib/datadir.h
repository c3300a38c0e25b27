/* SPDX-License-Identifier: GPL-2.0 */
/*
 * datadir.h - where polltax finds its own files: the directory of the
 * running binary (build/, where the guest program is built too) and the
 * data directory holding cocci/, kernel-patches/ and tool/.
 */
#ifndef POLLTAX_DATADIR_H
#define POLLTAX_DATADIR_H

/* The directory of the running binary (/proc/self/exe), or NULL. */
const char *exe_dir(void);

/*
 * polltax's data directory: the one of the binary's directory and the two
 * above it that holds cocci/classify.cocci (the repository, for a binary
 * in build/), else /usr/share/polltax.
 */
const char *data_dir(void);

#endif
