// SPDX-License-Identifier: GPL-2.0
/*
 * boot_config.c - the one configuration the three kernels of the boot test
 * are built from: tinyconfig, the symbols the guest needs, and the Kconfig
 * symbol of every file the series converts, found from the
 * "obj-$(CONFIG_X) += file.o" line of its directory's Makefile (through
 * composite objects and conditional directories), set with the kernel's
 * scripts/config and checked after olddefconfig.  A symbol that stays off
 * is reported with its "depends on" lines, so "needs PCI" reads as such.
 */
#define _GNU_SOURCE
#include "boot.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
/* sparse cannot parse glibc's VLA parameters in regex.h */
#ifdef __CHECKER__
#define __STDC_NO_VLA__ 1
#endif
#include <regex.h>

/*
 * The configuration of the brief: tinyconfig plus what the guest needs to
 * boot under qemu -kernel (PVH) and every poll user and file type polltest
 * exercises.  HYPERVISOR_GUEST, SHMEM and NET are there because PVH, TMPFS
 * and POSIX_MQUEUE depend on them; BINFMT_SCRIPT for /init, UNIX98_PTYS and
 * UNIX for the pty and socket kinds.
 */
static const char *const base_symbols[] = {
	"64BIT", "HYPERVISOR_GUEST", "PVH", "TTY", "SERIAL_8250", "SERIAL_8250_CONSOLE",
	"BLK_DEV_INITRD", "DEVTMPFS", "DEVTMPFS_MOUNT", "PROC_FS", "SYSFS", "SHMEM", "TMPFS",
	"MULTIUSER", "FUTEX", "POSIX_TIMERS", "PRINTK", "EPOLL", "EVENTFD", "SIGNALFD", "TIMERFD",
	"INOTIFY_USER", "FANOTIFY", "IO_URING", "AIO", "PERF_EVENTS", "NET", "UNIX", "POSIX_MQUEUE",
	"USERFAULTFD", "FUSE_FS", "BINFMT_ELF", "BINFMT_SCRIPT", "UNIX98_PTYS", "PRINTK_TIME",
	"CC_OPTIMIZE_FOR_PERFORMANCE",
};
/* without these there is no guest at all */
static const char *const critical_symbols[] = {
	"64BIT", "PVH", "SERIAL_8250_CONSOLE", "BLK_DEV_INITRD", "BINFMT_ELF", "BINFMT_SCRIPT",
	"PROC_FS", "DEVTMPFS", "TMPFS",
};

/* the Makefile text of DIR with continuation lines joined, or NULL */
static char *read_makefile(const char *tree, const char *dir)
{
	static const char *const names[] = { "Kbuild", "Makefile" };
	struct strbuf all = STRBUF_INIT;

	for (int i = 0; i < 2; i++) {
		char *p = xasprintf("%s/%s%s%s", tree, dir, *dir ? "/" : "", names[i]), *text;

		if (read_file(p, &text, NULL) == 0) {
			for (char *q = text; *q; q++) {
				if (q[0] == '\\' && q[1] == '\n') {
					q[0] = q[1] = ' ';
					continue;
				}
				if (*q == '\t')
					*q = ' ';
			}
			sb_adds(&all, text);
			sb_addc(&all, '\n');
			free(text);
		}
		free(p);
	}
	return all.len ? sb_detach(&all) : NULL;
}

/*
 * In the Makefile text MK, the line that lists WORD (foo.o or sub/) as
 * "<prefix>-<var> += ... WORD ...".  *prefix gets "obj", "lib" or a
 * composite object's name; *var "y" or a CONFIG_ symbol.  false if none.
 */
static bool find_line(const char *mk, const char *word, char **prefix, char **var)
{
	regex_t re;
	bool found = false;

	regcomp(&re, "^[[:space:]]*([A-Za-z0-9_.-]+)-(y|objs|\\$\\(CONFIG_([A-Za-z0-9_]+)\\))[[:space:]]*[:+]?=(.*)$",
		REG_EXTENDED);
	for (const char *p = mk; *p && !found;) {
		const char *e = strchr(p, '\n');
		char *line = xstrndup(p, e ? (size_t)(e - p) : strlen(p));
		regmatch_t m[5];

		if (!regexec(&re, line, 5, m, 0)) {
			char *list = xasprintf(" %s ", line + m[4].rm_so);
			char *w = xasprintf(" %s ", word);

			if (strstr(list, w)) {
				*prefix = xstrndup(line + m[1].rm_so, (size_t)(m[1].rm_eo - m[1].rm_so));
				*var = m[3].rm_so >= 0 ? xstrndup(line + m[3].rm_so, (size_t)(m[3].rm_eo - m[3].rm_so))
						       : xstrdup("y");
				found = true;
			}
			free(list);
			free(w);
		}
		free(line);
		p = e ? e + 1 : p + strlen(p);
	}
	regfree(&re);
	return found;
}

char *kconfig_symbol_for(const char *tree, const char *file, char **cond, char **why)
{
	char *dir = xstrdup(file), *slash = strrchr(dir, '/'), *word, *mk, *prefix = NULL, *var = NULL;
	char *result = NULL, *alt = NULL;

	*cond = NULL;
	*why = NULL;
	if (!slash || strlen(file) < 3 || strcmp(file + strlen(file) - 2, ".c")) {
		*why = xasprintf("'%s' is not a .c file in a directory", file);
		free(dir);
		return NULL;
	}
	*slash = '\0';
	word = xasprintf("%.*s.o", (int)strlen(slash + 1) - 2, slash + 1);
	for (int depth = 0; depth < 12; depth++) {
		mk = read_makefile(tree, dir);
		/* a list variable rather than an object: "obj-y += $(list-y)" */
		if (!mk || (!find_line(mk, word, &prefix, &var) && !(alt && find_line(mk, alt, &prefix, &var)))) {
			if (!*why)
				*why = xasprintf("no line of %s/Makefile builds %s", dir, word);
			free(mk);
			break;
		}
		free(alt);
		alt = NULL;
		if (strcmp(prefix, "obj") && strcmp(prefix, "lib")) {
			/* a part of composite object PREFIX.o: conditional inside it, then PREFIX.o itself */
			if (strcmp(var, "y") && strcmp(var, "objs") && !*cond)
				*cond = xstrdup(var);
			free(word);
			word = xasprintf("%s.o", prefix);
			alt = xasprintf("$(%s-y)", prefix);
			free(prefix);
			free(var);
			free(mk);
			continue;
		}
		free(mk);
		free(prefix);
		if (strcmp(var, "y")) {
			result = var;
			break;
		}
		free(var);
		/* obj-y: the directory decides; look for "dir/" in the parent's Makefile */
		slash = strrchr(dir, '/');
		free(word);
		word = xasprintf("%s/", slash ? slash + 1 : dir);
		if (slash) {
			*slash = '\0';
		} else {
			char *top = read_makefile(tree, ""), *p2 = NULL, *v2 = NULL;

			/* top-level directories: the kernel's own Kbuild/Makefile lists them as obj-y */
			if (top && find_line(top, word, &p2, &v2) && strcmp(v2, "y")) {
				result = v2;
				v2 = NULL;
			} else {
				result = xstrdup("y");
			}
			free(top);
			free(p2);
			free(v2);
			break;
		}
	}
	free(word);
	free(alt);
	free(dir);
	if (result) {
		free(*why);
		*why = NULL;
	}
	if (result && *cond && !strcmp(*cond, result)) {
		free(*cond);
		*cond = NULL;
	}
	return result;
}

static bool kconfig_keyword(const char *l)
{
	static const char *const kw[] = { "config ", "menuconfig ", "choice", "endchoice", "menu ", "endmenu",
					   "if ", "endif", "source ", "comment ", "mainmenu " };

	for (size_t i = 0; i < sizeof(kw) / sizeof(kw[0]); i++)
		if (!strncmp(l, kw[i], strlen(kw[i])))
			return true;
	return false;
}

static const char *skip_space(const char *p)
{
	while (isspace((unsigned char)*p))
		p++;
	return p;
}

/*
 * Why SYM stays off, from its Kconfig entry: its "depends on" lines, the
 * "if" blocks and "menu ... depends on" around it in the same file, and
 * whether it has a prompt at all (without one only a "select" sets it).
 */
static char *depends_of(const char *src, const char *sym)
{
	struct strbuf out = STRBUF_INIT, r = STRBUF_INIT;
	struct strvec lines = STRVEC_INIT, stack = STRVEC_INIT;
	char *pat = xasprintf("^(menu)?config %s$", sym), *path, *text, *colon;
	size_t entry;
	bool prompt = false, pending_menu = false;

	git(src, true, &out, "grep", "--no-index", "-n", "-E", pat, "--", "*Kconfig*", NULL);
	free(pat);
	/* the same symbol in several architectures' Kconfig: take x86's, or a generic one */
	colon = NULL;
	for (char *p = out.buf; p && *p && !colon;) {
		char *e = strchr(p, '\n');

		if (strncmp(p, "arch/", 5) || !strncmp(p, "arch/x86/", 9)) {
			if (e)
				*e = '\0';
			memmove(out.buf, p, strlen(p) + 1);
			colon = strchr(out.buf, ':');
			break;
		}
		p = e ? e + 1 : NULL;
	}
	if (!colon) {
		sb_release(&out);
		return xasprintf("no Kconfig entry for %s", sym);
	}
	*colon = '\0';
	entry = strtoul(colon + 1, NULL, 10) - 1;
	path = path_join(src, out.buf);
	sb_release(&out);
	if (read_file(path, &text, NULL) < 0) {
		free(path);
		return xasprintf("cannot read its Kconfig");
	}
	free(path);
	for (char *p = text; *p;) {
		char *e = strchr(p, '\n');

		if (e)
			*e = '\0';
		sv_push(&lines, p);
		p = e ? e + 1 : p + strlen(p);
	}
	free(text);
	/* the blocks around the entry */
	for (size_t i = 0; i < entry && i < lines.n; i++) {
		const char *l = lines.v[i], *t = skip_space(l);

		if (!strncmp(l, "if ", 3)) {
			sv_push(&stack, skip_space(l + 3));
		} else if ((!strncmp(l, "endif", 5) || !strncmp(l, "endmenu", 7) || !strncmp(l, "endchoice", 9)) &&
			   stack.n) {
			free(stack.v[--stack.n]);
			stack.v[stack.n] = NULL;
		} else if (!strncmp(l, "menu ", 5) || !strncmp(l, "choice", 6)) {
			sv_push(&stack, "");
			pending_menu = true;
			continue;
		} else if (pending_menu && !strncmp(t, "depends on ", 11) && stack.n) {
			char *d = stack.v[stack.n - 1][0] ? xasprintf("%s && %s", stack.v[stack.n - 1], t + 11)
							   : xstrdup(t + 11);

			free(stack.v[stack.n - 1]);
			stack.v[stack.n - 1] = d;
			continue;
		}
		if (kconfig_keyword(l))
			pending_menu = false;
	}
	for (size_t i = 0; i < stack.n; i++)
		if (stack.v[i][0])
			sb_addf(&r, "%s%s", r.len ? " && " : "", stack.v[i]);
	/* the entry itself */
	for (size_t i = entry + 1; i < lines.n && (!lines.v[i][0] || isspace((unsigned char)lines.v[i][0]) ||
						    !kconfig_keyword(lines.v[i])); i++) {
		const char *t = skip_space(lines.v[i]);

		if (!strncmp(t, "depends on ", 11))
			sb_addf(&r, "%s%s", r.len ? " && " : "", t + 11);
		else if (!strncmp(t, "prompt ", 7) ||
			 ((!strncmp(t, "bool", 4) || !strncmp(t, "tristate", 8) || !strncmp(t, "int", 3) ||
			   !strncmp(t, "hex", 3) || !strncmp(t, "string", 6)) && strchr(t, '"')))
			prompt = true;
		else if (!strncmp(t, "help", 4) || !strncmp(t, "---help---", 10))
			break;
	}
	sv_clear(&lines);
	sv_clear(&stack);
	if (!prompt && r.len) {
		char *d = sb_detach(&r), *m = xasprintf("no prompt (only a select sets it), depends on %s", d);

		free(d);
		return m;
	}
	if (!prompt)
		return xstrdup("no prompt: only a select from another option sets it");
	if (!r.len)
		return xstrdup("its menu or the Kconfig file that sources it is off");
	{
		char *d = sb_detach(&r), *m = xasprintf("depends on %s", d);

		free(d);
		return m;
	}
}

static bool config_has(const char *config, const char *sym)
{
	char *needle = xasprintf("\nCONFIG_%s=y\n", sym);
	bool on = strstr(config, needle) != NULL;

	free(needle);
	return on;
}

static void mk(struct boot_work *w, const char *src, const char *obj, const char *log, const char *target)
{
	char *o = xasprintf("O=%s", obj);
	const char *argv[] = { "nice", "make", "-C", src, o, target, NULL };

	if (run_logged(argv, NULL, log, 0, NULL)) {
		char *tail = log_tail(log, 20);

		die_code(EXIT_TOOL, "'make %s' failed in '%s' (log '%s'):\n%s", target, obj, log, tail);
	}
	free(o);
}

void work_config(struct boot_work *w, const struct series *s)
{
	const char *src = w->k[K_BASE].src;
	char *obj = xasprintf("%s/config", w->root), *cfg = path_join(obj, ".config");
	char *log = xasprintf("%s/logs/config.log", w->root), *text;
	struct strvec enable = STRVEC_INIT;
	struct strvec argv = STRVEC_INIT;

	mkdir_p(obj);
	unlink(log);
	mk(w, src, obj, log, "tinyconfig");
	for (size_t i = 0; i < sizeof(base_symbols) / sizeof(base_symbols[0]); i++)
		sv_push(&enable, base_symbols[i]);
	w->syms = xcalloc(s->files.n, sizeof(*w->syms));
	w->nsyms = s->files.n;
	for (size_t i = 0; i < s->files.n; i++) {
		struct symbol_result *r = &w->syms[i];
		char *cond = NULL, *why = NULL;

		r->file = xstrdup(s->files.v[i]);
		r->symbol = kconfig_symbol_for(src, s->files.v[i], &cond, &why);
		r->reason = why;
		if (r->symbol && strcmp(r->symbol, "y") && !sv_contains(&enable, r->symbol))
			sv_push(&enable, r->symbol);
		if (cond && !sv_contains(&enable, cond))
			sv_push(&enable, cond);
		if (cond && r->symbol) {
			char *both = xasprintf("%s && %s", r->symbol, cond);

			free(r->symbol);
			r->symbol = both;
		}
		free(cond);
	}
	sv_push(&argv, path_join(src, "scripts/config"));
	sv_push(&argv, "--file");
	sv_push(&argv, cfg);
	sv_push(&argv, "--disable");
	sv_push(&argv, "CC_OPTIMIZE_FOR_SIZE");
	for (size_t i = 0; i < enable.n; i++) {
		sv_push(&argv, "--enable");
		sv_push(&argv, enable.v[i]);
	}
	if (run_logged((const char *const *)argv.v, NULL, log, 0, NULL))
		die_code(EXIT_TOOL, "scripts/config failed (log '%s')", log);
	mk(w, src, obj, log, "olddefconfig");
	if (read_file(cfg, &text, NULL) < 0)
		die("cannot read '%s': %s", cfg, strerror(errno));
	w->config = xasprintf("\n%s", text);	/* so that every line starts after a '\n' */
	free(text);

	for (size_t i = 0; i < sizeof(base_symbols) / sizeof(base_symbols[0]); i++) {
		if (config_has(w->config, base_symbols[i]))
			sv_push(&w->base_syms, base_symbols[i]);
		else
			sv_push(&w->base_missing, base_symbols[i]);
	}
	for (size_t i = 0; i < sizeof(critical_symbols) / sizeof(critical_symbols[0]); i++)
		if (!config_has(w->config, critical_symbols[i]))
			die_code(EXIT_INPUT, "CONFIG_%s cannot be enabled in '%s' (%s): no guest can boot",
				 critical_symbols[i], w->tree, depends_of(src, critical_symbols[i]));
	for (size_t i = 0; i < w->nsyms; i++) {
		struct symbol_result *r = &w->syms[i];
		char *sym, *and;

		if (!r->symbol)
			continue;
		r->on = true;
		sym = xstrdup(r->symbol);
		for (char *p = sym; p; p = and ? and + 4 : NULL) {
			and = strstr(p, " && ");
			if (and)
				*and = '\0';
			if (strcmp(p, "y") && !config_has(w->config, p)) {
				r->on = false;
				free(r->reason);
				r->reason = xasprintf("CONFIG_%s stays off: %s", p, depends_of(src, p));
				break;
			}
		}
		free(sym);
	}
	sv_clear(&enable);
	sv_clear(&argv);
	free(obj);
	free(cfg);
	free(log);
}

