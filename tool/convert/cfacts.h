/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cfacts.h - what the convert stage needs to know about the functions of
 * one file, from cocci/poll_facts.cocci -D facts: parameters, local
 * variables with their definitions, assignments, anon_inode_getfile()
 * and anon_inode_getfd() calls (and their create_ variants) and the
 * calls a poll function hands its poll_table to.  And the text helpers
 * that find a function's body in a file.
 */
#ifndef POLLTAX_CFACTS_H
#define POLLTAX_CFACTS_H

#include <jansson.h>
#include "lib/util.h"

/*
 * Facts of ROOT/REL (cached in CACHE, an object rel -> facts):
 * { "funcs": { name: { "line", "params": [ {"type", "name"} ] } },
 *   "decls": [ {"func", "line", "var", "type", "init"} ],   init "" when none
 *   "assigns": [ {"func", "line", "lhs", "rhs"} ],
 *   "anons": [ {"func", "line", "callee", "lhs", "fops", "priv"} ],
 *   "anonexits": [ {"func", "line", "leaves"} ],
 *   "anonfds": [ {"func", "line", "callee", "fops", "priv"} ],   anon_inode_(create_)getfd() calls
 *   "anonrets": [ {"func", "line", "callee", "fops", "priv"} ],  return anon_inode_getfile(...);
 *   "calls": [ {"func", "line", "callee", "args": [...]} ],   given the poll_table
 *   "fcalls": [ {"func", "line", "callee", "args": [...]} ] } with a variable argument
 * Expressions are normalized (headexpr.h).  NULL with *ERR set when
 * spatch fails.
 */
json_t *cfacts_get(json_t *cache, const char *root, const char *rel, const char *cocci_dir, char **err);

/* Fill CACHE with the facts of RELS in one spatch run (one file group each, JOBS at a time). */
int cfacts_prefetch(json_t *cache, const char *root, const struct strvec *rels, const char *cocci_dir, int jobs);

/* Byte range of the body (from "{" to "}" inclusive) of the definition of NAME in TEXT. */
bool cfacts_func_body(const char *text, const char *name, size_t *start, size_t *end);
/* Occurrences of identifier NAME in TEXT[start, end) outside comments, strings and member names. */
int cfacts_count_ident(const char *text, size_t start, size_t end, const char *name, bool members_too);
/* Offset of the first occurrence of identifier NAME in TEXT outside comments and strings, or -1. */
long cfacts_find_ident(const char *text, const char *name);
/*
 * Uses of identifier NAME in TEXT that are not its declarations: those in
 * a function body or initializer, in a preprocessor line, or at the top
 * level not followed by "(" (EXPORT_SYMBOL(NAME) is one).  The lines of
 * the first MAX go to LINES.
 */
int cfacts_code_uses(const char *text, const char *name, int *lines, int max);
/* Line number (1-based) of byte offset OFF in TEXT. */
int cfacts_line_of(const char *text, size_t off);

#endif
