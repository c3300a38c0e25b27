// SPDX-License-Identifier: GPL-2.0
/*
 * arch.c - the architectures of arch.h.
 */
#define _GNU_SOURCE
#include "arch.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

static const struct arch_info arches[] = {
	{ "x86", "", "x86_64-linux-gnu", "gcc" },
	{ "powerpc", "powerpc64le-linux-gnu-", "powerpc64le-linux-gnu", "gcc-powerpc64le-linux-gnu" },
	{ "s390", "s390x-linux-gnu-", "s390x-linux-gnu", "gcc-s390x-linux-gnu" },
	{ "arm64", "aarch64-linux-gnu-", "aarch64-linux-gnu", "gcc-aarch64-linux-gnu" },
	{ "arm", "arm-linux-gnueabihf-", "arm-linux-gnueabihf", "gcc-arm-linux-gnueabihf" },
	/* User-mode Linux: the host's compiler, x86_64 underneath */
	{ "um", "", "x86_64-linux-gnu", "gcc" },
};
#define NARCH (sizeof(arches) / sizeof(arches[0]))

const struct arch_info *arch_host(void)
{
	return &arches[0];
}

const struct arch_info *arch_find(const char *name)
{
	for (size_t i = 0; i < NARCH; i++)
		if (!strcmp(arches[i].name, name))
			return &arches[i];
	return NULL;
}

const struct arch_info *arch_next(const struct arch_info *a)
{
	size_t i = a ? (size_t)(a - arches) + 1 : 1;

	return i < NARCH ? &arches[i] : NULL;
}

const char *arch_names(void)
{
	return "powerpc,s390,arm64,arm,um";
}

int arch_parse(const char *spec, const struct arch_info **out, char **err)
{
	char *s = xstrdup(spec), *save = NULL;
	int n = 0;

	*err = NULL;
	if (!strcmp(spec, "all")) {
		free(s);
		s = xstrdup(arch_names());
	}
	for (char *w = strtok_r(s, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		const struct arch_info *a = arch_find(w);
		bool dup = false;

		if (!a || a == arch_host()) {
			*err = xasprintf("--arch: '%s' is not one of %s (or all)%s", w, arch_names(),
					 a ? ": x86 is always scanned first" : "");
			break;
		}
		for (int i = 0; i < n; i++)
			dup |= out[i] == a;
		if (!dup && n < ARCH_MAX)
			out[n++] = a;
	}
	free(s);
	return *err ? -1 : n;
}

bool arch_dir_of(const char *rel, const struct arch_info *a)
{
	size_t l = strlen(a->name);

	return !strncmp(rel, "arch/", 5) && !strncmp(rel + 5, a->name, l) && rel[5 + l] == '/';
}

void arch_require_compiler(const struct arch_info *a, const char *what)
{
	char *gcc = xasprintf("%sgcc", a->cross);

	if (!have_program(gcc))
		die_code(EXIT_TOOL, "%s needs the cross compiler %s: apt-get install %s", what, gcc, a->pkg);
	free(gcc);
}

void arch_make_args(const struct arch_info *a, struct strvec *out)
{
	if (a == arch_host())
		return;
	sv_pushf(out, "ARCH=%s", a->name);
	sv_pushf(out, "CROSS_COMPILE=%s", a->cross);
}

char *arch_target(const struct arch_info *a, const char *build)
{
	char *p = path_join(build, "include/generated/autoconf.h"), *text;
	bool big = false;

	if (read_file(p, &text, NULL) == 0) {
		big = strstr(text, "#define CONFIG_CPU_BIG_ENDIAN 1") != NULL;
		free(text);
	}
	free(p);
	if (big && !strcmp(a->name, "powerpc"))
		return xstrdup("powerpc64-linux-gnu");
	if (big && !strcmp(a->name, "arm64"))
		return xstrdup("aarch64_be-linux-gnu");
	return xstrdup(a->target);
}
