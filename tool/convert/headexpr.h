/* SPDX-License-Identifier: GPL-2.0 */
/*
 * headexpr.h - the small C expressions that name a wait queue head
 * (&dev->wait, &container_of(inode->i_cdev, struct foo, cdev)->wq), as
 * token lists: split, print in kernel style, substitute a variable by an
 * expression, simplify what substitution leaves ((&a->b)->c is a->b.c),
 * and find the fields an expression reads.  The convert stage rewrites a
 * poll function's head in the terms of the function that creates the
 * file with these.
 *
 * Expressions are kept "normalized": tokens joined by one space, so that
 * two spellings of the same expression compare equal with strcmp().
 */
#ifndef POLLTAX_HEADEXPR_H
#define POLLTAX_HEADEXPR_H

#include "lib/util.h"

/* Split C text into tokens (comments dropped); false on a character it does not know. */
bool hx_split(const char *s, struct strvec *out);
/* Tokens of S joined by one space; NULL when S does not tokenize. */
char *hx_norm(const char *s);
/* Print normalized S in kernel style: "&dev->wait", "(struct foo *)p", "f(a, b)". */
char *hx_pretty(const char *norm);
/* True when normalized S is an identifier. */
bool hx_is_ident(const char *s);
/* True when S is a postfix expression: a name or call followed by ->x, .x, [n] or (...). */
bool hx_is_postfix(const char *norm);
/*
 * Replace the variable NAME (not a member name after -> or .) by REPL in
 * normalized S; REPL is parenthesized unless it is a postfix expression.
 * The result is simplified.
 */
char *hx_subst(const char *norm, const char *name, const char *repl);
/* Replace every occurrence of the token sequence FROM by TO (both normalized). */
char *hx_replace_seq(const char *norm, const char *from, const char *to);
/*
 * Replace FROM by TO where FROM is used as a value: before "->", as a
 * call argument, or as the whole expression (not "&FROM", not "FROM.x").
 */
char *hx_replace_value(const char *norm, const char *from, const char *to);
/* True when the token sequence SUB occurs in S. */
bool hx_contains_seq(const char *norm, const char *sub);
/* (&x)->y => x.y, (x) => x for a postfix x, & * x => x. */
char *hx_simplify(const char *norm);
/* The identifiers of S that are variables (not members after -> or ., not after "struct"). */
void hx_vars(const char *norm, struct strvec *out);
/*
 * The fields S reads: every left operand of "->" that is not a plain
 * variable ("a -> b" for "& a -> b -> c").  Normalized, outermost last.
 */
void hx_loads(const char *norm, struct strvec *out);
/* True when every call in S is one of container_of / list_entry (pure address arithmetic). */
bool hx_only_pure_calls(const char *norm, char **bad_call);

#endif
