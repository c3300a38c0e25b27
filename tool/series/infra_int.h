/* SPDX-License-Identifier: GPL-2.0 */
/*
 * infra_int.h - what the files of the infrastructure patch share (infra.h):
 * infra.c (the interface, the scratch repository), infra_text.c (the
 * templates, line editing), infra_cread.c (a reader of C), and one file
 * per part of the tree the patch edits: infra_fs.c, infra_poll.c,
 * infra_debugfs.c, infra_anon.c, infra_docs.c, infra_msg.c (the commit
 * messages).  Not for other stages: they use infra.h.
 */
#ifndef POLLTAX_INFRA_INT_H
#define POLLTAX_INFRA_INT_H

#include "infra.h"

#include <stdbool.h>
#include <stddef.h>
/* sparse cannot parse glibc's VLA parameters in regex.h */
#ifdef __CHECKER__
#define __STDC_NO_VLA__ 1
#endif
#include <regex.h>

enum {
	F_FS_H, F_POLL_H, F_ANON_H, F_ANON_C, F_DEBUGFS, F_OPEN, F_SELECT, F_LOCKING, F_VFS, F_PORTING,
	NR_FILES
};

#define MAX_COLS 80	/* code and documentation */
#define MSG_COLS 72	/* commit messages */

struct gen {
	const struct tree *t;
	char *tmpl_path, *tmpl;
	char *orig[NR_FILES];
	char *text[NR_FILES];	/* as edited so far */
	struct strvec fd;	/* the anon_inode helpers that install a file descriptor */
	char *tree;		/* "linux-6.12.118", for the commit messages */
};

struct var {
	const char *name, *value;
	bool raw;	/* substituted as it is: the paragraph is not filled again */
};

struct cdef {
	size_t hdr;		/* where its header starts (after any comment before it) */
	size_t open, close;	/* its braces */
	size_t name, nlen;	/* a function's name; else the header ("struct file") */
	size_t lparen, rparen;	/* a function's parameter list */
	bool func;
};

struct params {
	struct strvec v;	/* each one, on one line */
	bool *newline;		/* it started a line of its own */
};

extern const char *const infra_files[NR_FILES];

/* ---- infra.c ---- */
/* Die (EXIT_INPUT) naming file F of the tree and the anchor that is not there. */
__attribute__((noreturn, format(printf, 3, 4)))
void anchor(const struct gen *g, int f, const char *fmt, ...);

/* ---- infra_text.c ---- */
/* Section NAME of the templates file, without its trailing blank lines. */
char *tmpl(const struct gen *g, const char *name);
/* The column after the N bytes of S, starting at column COL (tabs to 8). */
int cols(const char *s, size_t n, int col);
/* The columns S takes from column 0. */
int width_of(const char *s);
/* Tabs and spaces from column 0 to COL, the kernel's way. */
char *align_to(int col);
/* TEXT with its @{NAME} and @{NAME|TEXT} replaced, each paragraph they change filled again to WIDTH (0: never). */
char *render(const struct gen *g, const char *what, const char *text, const struct var *v, size_t nv,
	     int width);
/* Each line of BLOCK with INDENT before it (blank lines stay blank). */
char *indented(const char *block, const char *indent);
/* The start of the line holding offset AT. */
size_t line_start(const char *s, size_t at);
/* The start of the line after the one at AT. */
size_t line_next(const char *s, size_t at);
/* The line starting at LS, without its newline. */
char *line_text(const char *s, size_t ls);
/* The leading whitespace of the line starting at LS. */
char *indent_of(const char *s, size_t ls);
/* Insert TEXT after the line of *S at LS, each of its lines indented as that one. */
void insert_after_line(char **s, size_t ls, const char *text);
/* Replace DEL bytes of *S at AT by INS. */
void text_splice(char **s, size_t at, size_t del, const char *ins);
/* Does the line at LS match the extended regular expression RE?  Its groups go to M. */
bool line_matches(const char *s, size_t ls, const char *re, regmatch_t *m, size_t nm);
/* The lines of [FROM, TO) matching RE: how many, and the first one's start in *LS. */
int find_line(const char *s, size_t from, size_t to, const char *re, size_t *ls);
/* S without the whitespace that C does not need: for recognising code whatever its layout. */
char *squash(const char *s, size_t n);
/* Are the N bytes of S the code WANT, whitespace aside? */
bool same_code(const char *s, size_t n, const char *want);

/* ---- infra_cread.c ---- */
/* The top-level definitions of S (braces outside comments, strings and preprocessor lines): their number. */
size_t c_defs(const char *s, struct cdef **defs);
/* The definition of function NAME (FUNC) or the one whose header is NAME ("struct file"). */
bool find_def(const char *s, const char *name, bool func, struct cdef *out);
/* The "/ **" comment right before offset HDR: [*FROM, *TO), TO at the end of its last line. */
bool doc_before(const char *s, size_t hdr, size_t *from, size_t *to);
/* Where to insert before definition D: the start of its comment, if one is right before it, else of its line. */
size_t def_start(const char *s, const struct cdef *d);
/* The parameter list S[FROM, TO) (inside the parentheses), one by one. */
void params_parse(const char *s, size_t from, size_t to, struct params *p);
/* One more parameter, starting a line of its own when NEWLINE. */
void params_add(struct params *p, const char *param, bool newline);
void params_free(struct params *p);
/*
 * FIRST (up to and with its '('), the parameters, then END (")" or ");"):
 * a parameter that started a line starts one again, aligned after the
 * '(', and a line that would pass 80 columns is broken before the
 * parameter that passes them.
 */
void emit_params(struct strbuf *sb, const char *first, const struct params *p, const char *end);

/* ---- infra_fs.c ---- */
/* struct file gets f_poll_head (its kernel-doc or its comment, as the tree documents it). */
void add_f_poll_head(struct gen *g, const char *doc_section, const char *comment_section);
/* struct file_operations gets the section's members after ->poll. */
void add_fops_members(struct gen *g, const char *section);
/* SECTION after struct file_operations (and a blank line): what every user of fs.h sees. */
void add_after_fops(struct gen *g, const char *section);
/* do_dentry_open() clears f_poll_head where it puts the fops of a failed ->open(). */
void edit_do_dentry_open(struct gen *g);

/* ---- infra_poll.c ---- */
/* vfs_poll() (recognised first) does the one poll_wait() itself; the prototypes are added. */
void edit_vfs_poll(struct gen *g, const char *vfs_section, const char *proto_section);
/* The section before the first line after the #include lines at the top. */
void add_after_includes(struct gen *g, const char *section);
/* The section after the block that ends with EXPORT_SYMBOL(vfs_poll_mask_wait) (made by the patch before). */
void add_after_mask_wait(struct gen *g, const char *section);

/* ---- infra_debugfs.c ---- */
/* The debugfs proxy polls through __vfs_poll() (the real fops' ->poll_mask()). */
void edit_debugfs(struct gen *g, const char *comment_section);

/* ---- infra_anon.c ---- */
/* The names of V, each with SUFFIX and "()", joined as "a(), b() and c()" (CONJ: " and "). */
char *join_names(const struct strvec *v, const char *suffix, const char *conj);
/* Each wrapper of __anon_inode_getfd() in fs/anon_inodes.c gets a _poll twin that takes the queue. */
void edit_anon_c(struct gen *g);
/* include/linux/anon_inodes.h declares the twins, each after its wrapper. */
void edit_anon_h(struct gen *g);

/* ---- infra_docs.c ---- */
/* Documentation/filesystems/: the prototype and sections of variant V ("one", "two"). */
void edit_docs(struct gen *g, const char *v, const struct var *vars, size_t nv);

/* ---- infra_msg.c ---- */
struct names {
	char *fd, *fd_or, *fd_poll, *fd_poll_or;
};

/* The helpers' names as the messages quote them, and the variables TREE, FD, FD_OR, FD_POLL, FD_POLL_OR in V[0..4]. */
void names_of(const struct gen *g, struct names *n, struct var *v);
void names_free(struct names *n);
/* The commit message of SECTION, filled to 72 columns, with the Signed-off-by of ID. */
char *message(const struct gen *g, const char *section, const struct var *v, size_t nv,
	      const struct infra_id *id);

#endif
