/* SPDX-License-Identifier: GPL-2.0 */
/*
 * strutil.h - small text helpers more than one stage needs (util.h has
 * the basic strings, files and processes).
 */
#ifndef POLLTAX_STRUTIL_H
#define POLLTAX_STRUTIL_H

#include "util.h"

/* Split a shell command line (compile_commands.json "command", a ccflags value) into OUT. */
void shell_split(const char *s, struct strvec *out);

/* S without its leading and trailing blanks (spaces, tabs, CR, LF), allocated. */
char *trim_dup(const char *s);
/* SB's text trimmed as trim_dup() does (a command's output without its newline); SB is emptied. */
char *sb_detach_trimmed(struct strbuf *sb);

/*
 * TEXT as "git commit -F" stores a message it does not edit (its
 * "whitespace" clean-up): trailing blanks of each line removed, leading
 * and trailing empty lines dropped, runs of empty lines made one, a
 * newline at the end.  Allocated.
 */
char *git_stripspace(const char *text);

/* Blank C comments, string and character literals in T in place (spaces; newlines kept). */
void c_blank_text(char *t);

#endif
