/* SPDX-License-Identifier: GPL-2.0 */
/*
 * util.h - error reporting in one voice, allocation, string buffers and
 * small file helpers shared by every polltax command.
 *
 * Errors follow git: die() for fatal (exit 128 unless said otherwise),
 * error() prints and returns -1, warning() prints, BUG() is an internal
 * error.  Messages are lowercase, no trailing period, paths quoted.
 */
#ifndef POLLTAX_UTIL_H
#define POLLTAX_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <stdbool.h>

/* Documented exit codes (README "Exit codes"). */
enum {
	EXIT_OK = 0,
	EXIT_FINDINGS = 1,	/* verify: a check failed; test: a case failed */
	EXIT_USAGE = 2,		/* bad command line */
	EXIT_INPUT = 3,		/* the input is not what it must be (not a kernel tree, ...) */
	EXIT_TOOL = 4,		/* a required external tool is missing or failed */
	EXIT_INTERNAL = 70,	/* BUG() */
	EXIT_FATAL = 128,	/* die() without a more precise code */
};

extern const char *progname;

__attribute__((noreturn, format(printf, 2, 3)))
void die_code(int code, const char *fmt, ...);
__attribute__((noreturn, format(printf, 1, 2)))
void die(const char *fmt, ...);
__attribute__((format(printf, 1, 2)))
int error(const char *fmt, ...);
__attribute__((format(printf, 1, 2)))
void warning(const char *fmt, ...);
__attribute__((noreturn, format(printf, 3, 4)))
void bug_at(const char *file, int line, const char *fmt, ...);
#define BUG(...) bug_at(__FILE__, __LINE__, __VA_ARGS__)

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
__attribute__((format(printf, 1, 2)))
char *xasprintf(const char *fmt, ...);
__attribute__((format(printf, 1, 0)))
char *xvasprintf(const char *fmt, va_list ap);
/* S with bytes that are not valid UTF-8 written as \\xNN (for JSON). */
char *utf8_safe(const char *s);

/*
 * From now on, this process answers stat() of an absolute path once and
 * then from memory (statmemo.c): for the scan's worker processes only.
 */
void stat_memo_enable(void);

/* Growable string. */
struct strbuf {
	char *buf;
	size_t len, alloc;
};
#define STRBUF_INIT { NULL, 0, 0 }
void sb_grow(struct strbuf *sb, size_t extra);
void sb_add(struct strbuf *sb, const char *s, size_t n);
void sb_adds(struct strbuf *sb, const char *s);
void sb_addc(struct strbuf *sb, char c);
__attribute__((format(printf, 2, 3)))
void sb_addf(struct strbuf *sb, const char *fmt, ...);
char *sb_detach(struct strbuf *sb);
void sb_release(struct strbuf *sb);
void sb_reset(struct strbuf *sb);

/* Growable array of owned strings. */
struct strvec {
	char **v;
	size_t n, alloc;
};
#define STRVEC_INIT { NULL, 0, 0 }
void sv_push(struct strvec *sv, const char *s);
void sv_pushf(struct strvec *sv, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sv_clear(struct strvec *sv);
void sv_sort(struct strvec *sv);
bool sv_contains(const struct strvec *sv, const char *s);

/* Files. */
int read_file(const char *path, char **out, size_t *len);	/* -1 and errno on error */
/* The same, but a file of more than MAX bytes is not read: -1 with errno EFBIG. */
int read_file_max(const char *path, char **out, size_t *len, size_t max);
int write_file_atomic(const char *path, const char *data, size_t len);
int mkdir_p(const char *path);
bool is_dir(const char *path);
bool is_file(const char *path);
char *path_join(const char *a, const char *b);
char *realpath_or_die(const char *path);
/*
 * PATH made absolute against the directory polltax was started in, as a
 * person typed it: commands later run elsewhere (git in a scratch tree,
 * make in a cache), where a relative path would name another place.  Not
 * resolved through symbolic links, and PATH need not exist; "." and
 * trailing slashes go.  NULL stays NULL.
 */
char *abs_path(const char *path);
/*
 * Dies with EXIT_USAGE when PATH (absolute, from abs_path(); it need not
 * exist) is the kernel tree ROOT (a real path) or lies inside it,
 * symbolic links followed as far as PATH exists: polltax never writes
 * into the tree.  TYPED is PATH as given, OPT the option that gave it
 * ("-o"), DEFLT whether it is that option's default.
 */
void refuse_inside_tree(const char *path, const char *typed, const char *opt, bool deflt, const char *root);
int rm_rf(const char *path);
/*
 * The cache: $XDG_CACHE_HOME/polltax or ~/.cache/polltax.  The first call
 * checks that the directories a scan writes there can be written; when
 * they cannot (a read-only file system, a file where a directory should
 * be), it warns once and this run uses a temporary directory instead,
 * removed when it exits: the scan goes on, and reuses nothing.
 */
const char *cache_root(void);
/* Where the cache is, as cache_root() finds it, but nothing checked or made (a new string). */
char *cache_home(void);
/*
 * Write the cache entry PATH (its directory made if need be) under a
 * temporary name, then rename it.  On failure (a full disk) it warns once
 * per run, in whichever process meets it first (workers included), and
 * returns -1: a cache that cannot be written costs time, not the scan.
 */
int cache_write(const char *path, const char *data, size_t len);

/*
 * A file libclang reads from memory instead of from disk (an unsaved file
 * of clang_parseTranslationUnit2(), clang's -remap-file): flags_init()
 * sets the one of the tree's flags, every parse and PCH build uses it.
 */
struct remap {
	char *path;		/* absolute */
	char *text;
	size_t len;
};
void parse_remap_set(const struct remap *r);	/* NULL: none */
const struct remap *parse_remap(void);		/* NULL: none */

/* Preprocessor lines, for the cheap readers of C text (pch_read.c, tree.c). */
/* The directive of line L..END ("include", "define", ...: *DLEN long), NULL if none. */
const char *directive(const char *l, const char *end, size_t *dlen);
bool is_dir_word(const char *d, size_t n, const char *w);
const char *skip_blank(const char *p, const char *end);
bool has_suffix(const char *s, const char *suf);	/* does S end with SUF? */
/*
 * The live status line on stderr (a terminal): "\r\033[K" and the text,
 * cut to one column less than the terminal is wide, so that it never
 * wraps and the next one overwrites it whole.  The width is asked of the
 * terminal each time (TIOCGWINSZ: it may have been resized), else taken
 * from $COLUMNS, else 80.
 */
int term_columns(void);
__attribute__((format(printf, 1, 2)))
void status_line(const char *fmt, ...);
int online_cpus(void);
bool have_program(const char *name);
double now_seconds(void);

/* Run a command, argv style; returns exit status or -1.  out captures stdout when non-NULL. */
int run_cmd(const char *const argv[], const char *cwd, struct strbuf *out, bool quiet_stderr);
/* In a forked child: go to CWD (unless NULL) and run ARGV; on failure say why and _exit(127). */
void child_exec(const char *const argv[], const char *cwd) __attribute__((noreturn));

#endif
