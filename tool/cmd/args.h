/* SPDX-License-Identifier: GPL-2.0 */
/*
 * args.h - the command line in one voice for every command: a missing or
 * extra argument is named (with the usage line, not the whole help page),
 * -o always names a directory (the file options have their own names, the
 * old "-o FILE" is accepted with a warning), and an output directory that
 * cannot be written is refused before any work starts.
 */
#ifndef POLLTAX_ARGS_H
#define POLLTAX_ARGS_H

#include <stdio.h>

/*
 * The operands argv[first..argc) against NAMES, the operands of the usage
 * line ("SERIES_DIR KERNEL_DIR"; a last name ending in "..." takes one or
 * more).  0 when they fit; else prints what is missing or unexpected, the
 * usage line of USAGE (its first line) and where the help is, on stderr,
 * and returns EXIT_USAGE.
 */
int args_check(const char *usage, int argc, char **argv, int first, const char *names);
/* The value of -j N: a number from 1 to 1024, or dies with EXIT_USAGE naming ARG. */
int args_jobs(const char *arg);
/* --arch LIST, checked (lib/arch.h): ARG itself, or dies with EXIT_USAGE. */
const char *args_arches(const char *arg);
/*
 * --help: USAGE on stdout, each "~/.cache/polltax" in it shown as
 * $XDG_CACHE_HOME/polltax when that is set (the cache this run uses);
 * returns 0.
 */
int args_help(const char *usage);
/* A bad option (getopt said why): the usage line and the hint; EXIT_USAGE. */
int args_bad_option(const char *usage);
/*
 * The file a command writes given "-o ARG": ARG is a directory (made if
 * need be: the file is ARG/NAME), unless it is an existing file or its
 * last component has an extension, the old meaning of -o for this command:
 * then ARG itself, with a warning that FILE_OPT is its name now.  Returns
 * a new string, the path as typed.
 */
char *args_out_file(const char *cmd, const char *arg, const char *name, const char *file_opt);
/* Make the directory FILE is to be written in (an -o DIR), or die. */
void args_make_parent(const char *file);
/*
 * Dies with EXIT_USAGE unless the output directory PATH (absolute; it
 * need not exist) can be made and written: an existing directory must be
 * writable (asked of access() and statvfs(), so that its mtime stays),
 * else the nearest existing directory above it must take a new entry
 * (tried: as root, access() says yes to /proc).
 * TYPED is PATH as given, OPT the option that gave it.
 */
void args_writable_dir(const char *path, const char *typed, const char *opt);

#endif
