// SPDX-License-Identifier: GPL-2.0
/*
 * boot_guest.c - the guest side of the boot test: an initramfs with Debian's
 * static busybox, our /init and the guest program polltest (tool/boot/guest/); one qemu boot per
 * kernel and purpose (the checks, the benchmark); and what the boot said:
 * the TAP lines and benchmark lines of the guest (on the second serial port,
 * so that kernel messages never cut into them) and every panic, oops, WARN,
 * lockdep splat or stall on the console.
 *
 * The checks boot with KVM when /dev/kvm works and with TCG otherwise; a
 * software-only /dev/kvm on which the kernel stops with an emulation
 * failure is detected from qemu's messages and the boot repeated with TCG.
 * The benchmark always boots with TCG and -icount shift=0,sleep=off: one
 * nanosecond of guest time is then one guest instruction.
 */
#define _GNU_SOURCE
#include "boot.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * tinyconfig has no ACPI, so "poweroff -f" only halts the machine: the guest
 * reboots instead, and qemu -no-reboot turns that into an exit.  Extra
 * arguments for polltest come from the kernel command line:
 * polltest_args=-k:eventfd,timerfd (':' for spaces).
 */
static const char init_script[] =
	"#!/bin/busybox sh\n"
	"# /init of the polltax boot test (written by polltax boot-test)\n"
	"export PATH=/bin\n"
	"busybox mount -t proc proc /proc\n"
	"busybox mount -t sysfs sysfs /sys\n"
	"busybox mount -t devtmpfs devtmpfs /dev 2>/dev/null\n"
	"busybox mkdir -p /dev/pts\n"
	"busybox mount -t devpts devpts /dev/pts\n"
	"busybox mount -t tmpfs tmpfs /tmp\n"
	"mode=test\n"
	"args=\n"
	"for a in $(busybox cat /proc/cmdline); do\n"
	"\tcase \"$a\" in\n"
	"\tpolltest=*) mode=${a#polltest=};;\n"
	"\tpolltest_args=*) args=$(echo \"${a#polltest_args=}\" | busybox tr : ' ');;\n"
	"\tesac\n"
	"done\n"
	"out=/dev/ttyS1\n"
	"[ -c $out ] || out=/dev/null\n"
	"{\n"
	"\techo \"polltest-begin $mode\"\n"
	"\t/polltest $mode $args\n"
	"\techo \"polltest-exit $?\"\n"
	"} 2>&1 | busybox tee $out\n"
	"busybox sync\n"
	"busybox reboot -f\n"
	"busybox sleep 5\n"
	"busybox poweroff -f\n";

void guest_kinds(const char *polltest, struct guest_kind **out, size_t *n)
{
	const char *argv[] = { polltest, "list", NULL };
	struct strbuf sb = STRBUF_INIT;

	*out = NULL;
	*n = 0;
	if (run_cmd(argv, NULL, &sb, false))
		die_code(EXIT_TOOL, "'%s list' failed", polltest);
	for (char *p = sb.buf; p && *p;) {
		char *e = strchr(p, '\n'), *f[5] = { 0 };
		int nf = 0;

		if (e)
			*e = '\0';
		for (char *q = p; nf < 5; nf++) {
			f[nf] = q;
			q = strchr(q, '\t');
			if (!q) {
				nf++;
				break;
			}
			*q++ = '\0';
		}
		if (nf >= 4) {	/* the fifth field, the backend, is newer */
			struct guest_kind *k;

			*out = xrealloc(*out, (*n + 1) * sizeof(**out));
			k = &(*out)[(*n)++];
			k->name = xstrdup(f[0]);
			k->source = xstrdup(f[1]);
			k->poll_fn = xstrdup(f[2]);
			k->unconvertible = !strcmp(f[3], "unconvertible");
			k->always_ready = !strcmp(f[3], "always-ready");
			k->teardown = !strcmp(f[3], "teardown");
			k->kconfig = nf == 5 && strcmp(f[4], "-") && *f[4] ? xstrdup(f[4]) : NULL;
		}
		p = e ? e + 1 : NULL;
	}
	sb_release(&sb);
}

/* a program with a PT_INTERP header needs a dynamic loader the guest lacks */
static bool is_static_elf(const char *path)
{
	Elf64_Ehdr eh;
	bool ok = true;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	if (pread(fd, &eh, sizeof(eh), 0) != sizeof(eh) || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64) {
		close(fd);
		return false;
	}
	for (int i = 0; i < eh.e_phnum; i++) {
		Elf64_Phdr ph;

		if (pread(fd, &ph, sizeof(ph), (off_t)(eh.e_phoff + (Elf64_Off)i * eh.e_phentsize)) != sizeof(ph))
			ok = false;
		else if (ph.p_type == PT_INTERP)
			ok = false;
	}
	close(fd);
	return ok;
}

char *guest_initramfs(const struct boot_work *w, const struct guest_opts *o)
{
	char *gen = xasprintf("%s/usr/gen_init_cpio", w->k[K_BASE].obj);
	char *dir = xasprintf("%s/initramfs", w->root);
	char *init = path_join(dir, "init"), *list = path_join(dir, "list");
	char *cpio = xasprintf("%s/initramfs.cpio", w->root);
	struct strbuf spec = STRBUF_INIT, out = STRBUF_INIT;
	const char *argv[] = { gen, list, NULL };

	if (!is_file(gen))
		die_code(EXIT_TOOL, "'%s' is missing: the base kernel build should have made it", gen);
	if (!is_static_elf(o->busybox))
		die_code(EXIT_TOOL, "'%s' is missing or not a static x86_64 program: install busybox-static",
			 o->busybox);
	if (!is_static_elf(o->guest))
		die_code(EXIT_TOOL, "'%s' is missing or not a static x86_64 program: run 'make' (it builds "
			 "the guest program with gcc -static)", o->guest);
	mkdir_p(dir);
	if (write_file_atomic(init, init_script, strlen(init_script)) < 0)
		die("cannot write '%s'", init);
	sb_adds(&spec, "dir /dev 0755 0 0\n"
		       "nod /dev/console 0600 0 0 c 5 1\n"
		       "dir /bin 0755 0 0\n"
		       "dir /proc 0755 0 0\n"
		       "dir /sys 0755 0 0\n"
		       "dir /tmp 01777 0 0\n");
	sb_addf(&spec, "file /bin/busybox %s 0755 0 0\n", o->busybox);
	sb_adds(&spec, "slink /bin/sh busybox 0777 0 0\n");
	sb_addf(&spec, "file /init %s 0755 0 0\n", init);
	sb_addf(&spec, "file /polltest %s 0755 0 0\n", o->guest);
	if (write_file_atomic(list, spec.buf, spec.len) < 0)
		die("cannot write '%s'", list);
	if (run_cmd(argv, NULL, &out, false))
		die_code(EXIT_TOOL, "'%s %s' failed", gen, list);
	if (write_file_atomic(cpio, out.buf ? out.buf : "", out.len) < 0)
		die("cannot write '%s'", cpio);
	sb_release(&spec);
	sb_release(&out);
	free(gen);
	free(dir);
	free(init);
	free(list);
	return cpio;
}

const char *guest_accel_for_test(const struct guest_opts *o)
{
	int fd;

	if (strcmp(o->accel, "auto"))
		return o->accel;
	fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return "tcg";
	close(fd);
	return "kvm";
}

/* ---- reading the logs ---- */

static const struct {
	const char *needle;
	const char *kind;
} problems[] = {
	{ "Kernel panic", "panic" },
	{ "Oops", "oops" },
	{ "BUG: KASAN: ", "kasan" },
	{ "BUG: ", "oops" },
	{ "general protection fault", "oops" },
	{ "Unable to handle", "oops" },
	{ "------------[ cut here ]------------", "warn" },
	{ "WARNING: ", "warn" },
	{ "possible recursive locking", "lockdep" },
	{ "possible circular locking", "lockdep" },
	{ "inconsistent lock state", "lockdep" },
	{ "DEBUG_LOCKS_WARN_ON", "lockdep" },
	{ "INFO: lockdep", "lockdep" },
	{ "blocked for more than", "hang" },
	{ "soft lockup", "hang" },
	{ "hard LOCKUP", "hang" },
	{ "rcu_sched self-detected stall", "hang" },
	{ "rcu: INFO:", "hang" },
};

static void scan_console(const char *text, struct boot_result *r)
{
	const char *last = NULL;

	for (const char *p = text; p && *p;) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);

		for (size_t i = 0; i < sizeof(problems) / sizeof(problems[0]); i++) {
			if (!memmem(p, len, problems[i].needle, strlen(problems[i].needle)))
				continue;
			/* one excerpt per splat: the first matching line and the 15 after it */
			if (last && p - last < 2000)
				break;
			{
				struct strbuf ex = STRBUF_INIT;
				const char *q = p;

				sb_addf(&ex, "%s: ", problems[i].kind);
				for (int n = 0; n < 16 && q && *q; n++) {
					const char *qe = strchr(q, '\n');

					sb_add(&ex, q, qe ? (size_t)(qe - q) + 1 : strlen(q));
					q = qe ? qe + 1 : NULL;
				}
				sv_push(&r->problems, ex.buf);
				sb_release(&ex);
			}
			last = p;
			break;
		}
		p = e ? e + 1 : NULL;
	}
}

static char *field(const char *line, const char *key)
{
	char *k = xasprintf(" %s=", key);
	const char *p = strstr(line, k);
	size_t n;

	if (!p) {
		free(k);
		return NULL;
	}
	p += strlen(k);
	free(k);
	if (*p == '"') {
		n = strcspn(p + 1, "\"");
		return xstrndup(p + 1, n);
	}
	n = strcspn(p, " \r\n");
	return xstrndup(p, n);
}

static void add_check(struct boot_result *r, const char *name, const char *status, const char *detail)
{
	struct check_result *c;

	r->checks = xrealloc(r->checks, (r->nchecks + 1) * sizeof(*r->checks));
	c = &r->checks[r->nchecks++];
	c->name = xstrdup(name);
	c->status = xstrdup(status);
	c->detail = detail ? xstrdup(detail) : NULL;
}

/* TAP and bench lines of the guest, from the serial log (\r\n line ends) */
static void parse_tap(char *text, struct boot_result *r)
{
	for (char *p = text; p && *p;) {
		char *e = strchr(p, '\n'), *cr;

		if (e)
			*e = '\0';
		while ((cr = strchr(p, '\r')))
			memmove(cr, cr + 1, strlen(cr));
		if (!strncmp(p, "ok ", 3) || !strncmp(p, "not ok ", 7)) {
			bool ok = p[0] == 'o';
			char *name = strstr(p, " - "), *dir;
			const char *status = ok ? "ok" : "fail";

			if (name) {
				name += 3;
				dir = strstr(name, " # ");
				if (dir) {
					*dir = '\0';
					if (!strncmp(dir + 3, "SKIP", 4))
						status = "skip";
					else if (!strncmp(dir + 3, "TODO", 4))
						status = "todo";
				}
				add_check(r, name, status, dir && dir[7] ? dir + 8 : NULL);
			}
		} else if (!strncmp(p, "#   ", 4) && r->nchecks && !r->checks[r->nchecks - 1].detail) {
			r->checks[r->nchecks - 1].detail = xstrdup(p + 4);
		} else if (!strncmp(p, "# bench clocksource=", 20)) {
			free(r->clocksource);
			r->clocksource = xstrdup(p + 20);
		} else if (!strncmp(p, "# bench kind=", 13) && strstr(p, " ns_per_call=")) {
			struct bench_row *b;
			char *kind = field(p + 7, "kind"), *op = field(p, "op"), *fds = field(p, "fds");
			char *ns = field(p, "ns_per_call"), *tsc = field(p, "tsc_per_call");

			r->bench = xrealloc(r->bench, (r->nbench + 1) * sizeof(*r->bench));
			b = &r->bench[r->nbench++];
			b->kind = kind ? kind : xstrdup("?");
			b->op = op ? op : xstrdup("?");
			b->fds = fds ? atoi(fds) : 0;
			b->per_call = ns ? strtod(ns, NULL) : 0;
			b->tsc = tsc ? strtod(tsc, NULL) : 0;
			free(fds);
			free(ns);
			free(tsc);
		} else if (!strncmp(p, "polltest-exit ", 14)) {
			r->finished = true;
			r->guest_exit = atoi(p + 14);
		}
		p = e ? e + 1 : NULL;
	}
}

static bool kvm_failed(const char *console, const char *qemu_log)
{
	static const char *const marks[] = { "KVM internal error", "emulation failure", "failed to initialize kvm",
					     "Could not access KVM", "kvm run failed", "KVM: entry failed",
					     "failed to set MSR" };

	for (size_t i = 0; i < sizeof(marks) / sizeof(marks[0]); i++)
		if ((console && strstr(console, marks[i])) || (qemu_log && strstr(qemu_log, marks[i])))
			return true;
	return false;
}

static void boot_once(const struct guest_opts *o, const char *vmlinux, const char *initrd, const char *dir,
		      const char *name, bool bench, const char *accel, struct boot_result *r)
{
	char *console = xasprintf("%s/%s.console.log", dir, name), *tap = xasprintf("%s/%s.tap.log", dir, name);
	char *qlog = xasprintf("%s/%s.qemu.log", dir, name), *fifo = xasprintf("%s/%s.vport", dir, name);
	char *s0 = xasprintf("file:%s", console), *s1 = xasprintf("file:%s", tap);
	/*
	 * Under -icount shift=0 the TSC counts guest nanoseconds, i.e. runs at
	 * 1 GHz; without ACPI there is no HPET or PM timer to calibrate it
	 * against, so say so, or CLOCK_MONOTONIC falls back to jiffies.
	 */
	char *append = xasprintf("console=ttyS0 panic=-1 polltest=%s%s%s%s", bench ? "bench" : "test",
				 bench ? " tsc_early_khz=1000000 tsc=reliable clocksource=tsc" :
				 /*
				  * the BMC below; and an oops or a KASAN report ends
				  * the boot at once: it is already a failure, and a
				  * kernel that goes on after one can hang until the
				  * timeout, holding the lock it died with
				  */
				 " ipmi_si.type=kcs ipmi_si.ports=0xca2 oops=panic kasan.fault=panic"
				 /* gpio-mockup's one chip of 8 lines (guest/gpiokinds.c) */
				 " gpio_mockup.gpio_mockup_ranges=-1,8"
				 /* the parallel port's interrupt line, which parport_pc does not probe (guest/qemukinds.c) */
				 " parport=0x378,7",
				 o->args ? " polltest_args=" : "", o->args ? o->args : "");
	struct strvec argv = STRVEC_INIT;
	char *text = NULL, *qtext = NULL;
	double t0;
	int rc;

	unlink(console);
	unlink(tap);
	unlink(qlog);
	sv_push(&argv, o->qemu);
	sv_push(&argv, "-M");
	sv_push(&argv, "pc");
	sv_push(&argv, "-cpu");
	sv_push(&argv, strcmp(accel, "kvm") ? "max" : "host");
	sv_push(&argv, "-m");
	sv_push(&argv, "256M");
	sv_push(&argv, "-smp");
	sv_push(&argv, "1");
	sv_push(&argv, "-accel");
	sv_push(&argv, accel);
	if (bench) {
		sv_push(&argv, "-icount");
		sv_push(&argv, "shift=0,sleep=off");
	}
	if (!bench) {
		/*
		 * The devices of the kinds in tool/boot/guest/qemukinds.c; the
		 * benchmark keeps its machine.  qemu's BMC simulator (ipmi), an
		 * xHCI controller (usbfs), and a virtio-serial port whose
		 * backend is a FIFO qemu opens for reading and writing: what the
		 * guest writes to the port comes back to it (virtio-console).
		 */
		sv_push(&argv, "-device");
		sv_push(&argv, "ipmi-bmc-sim,id=bmc0");
		sv_push(&argv, "-device");
		sv_push(&argv, "isa-ipmi-kcs,bmc=bmc0,ioport=0xca2");
		sv_push(&argv, "-device");
		sv_push(&argv, "qemu-xhci,id=xhci");
		unlink(fifo);
		if (mkfifo(fifo, 0600) != 0) {
			warning("cannot make the FIFO '%s' for the virtio-serial port (%s): the virtio-console kinds "
				"are skipped", fifo, strerror(errno));
		} else {
			sv_push(&argv, "-chardev");
			sv_pushf(&argv, "pipe,id=vport,path=%s", fifo);
			sv_push(&argv, "-device");
			sv_push(&argv, "virtio-serial-pci");
			sv_push(&argv, "-device");
			sv_push(&argv, "virtserialport,chardev=vport,name=polltest.0");
		}
	}
	sv_push(&argv, "-no-reboot");
	sv_push(&argv, "-nographic");
	sv_push(&argv, "-monitor");
	sv_push(&argv, "none");
	sv_push(&argv, "-serial");
	sv_push(&argv, s0);
	sv_push(&argv, "-serial");
	sv_push(&argv, s1);
	sv_push(&argv, "-kernel");
	sv_push(&argv, vmlinux);
	sv_push(&argv, "-initrd");
	sv_push(&argv, initrd);
	sv_push(&argv, "-append");
	sv_push(&argv, append);

	free(r->accel);
	r->accel = xstrdup(accel);
	free(r->log);
	r->log = xstrdup(console);
	r->ran = true;
	r->guest_exit = -1;
	t0 = now_seconds();
	rc = run_logged((const char *const *)argv.v, NULL, qlog, o->timeout, &r->timed_out);
	r->seconds = now_seconds() - t0;
	if (read_file(console, &text, NULL) < 0)
		text = xstrdup("");
	read_file(qlog, &qtext, NULL);
	if (!strcmp(accel, "kvm") && kvm_failed(text, qtext)) {
		free(r->kvm_note);
		r->kvm_note = xstrdup("KVM stopped the guest (emulation failure, an MSR it cannot set, or no usable KVM): booted with TCG");
	} else {
		char *taptext;

		scan_console(text, r);
		if (rc && !r->timed_out && !r->finished)
			sv_pushf(&r->problems, "qemu: exit status %d: %s", rc, qtext ? qtext : "");
		if (read_file(tap, &taptext, NULL) == 0 && strstr(taptext, "polltest-begin")) {
			parse_tap(taptext, r);
			free(taptext);
		} else {
			free(taptext);
			parse_tap(text, r);	/* no second serial port: the console has a copy */
		}
	}
	free(text);
	free(qtext);
	sv_clear(&argv);
	free(console);
	free(tap);
	unlink(fifo);
	free(fifo);
	free(qlog);
	free(s0);
	free(s1);
	free(append);
}

void guest_boot(const struct guest_opts *o, const char *vmlinux, const char *initrd, const char *dir,
		const char *name, bool bench, struct boot_result *r)
{
	const char *accel = bench ? "tcg" : guest_accel_for_test(o);

	memset(r, 0, sizeof(*r));
	boot_once(o, vmlinux, initrd, dir, name, bench, accel, r);
	if (r->kvm_note)
		boot_once(o, vmlinux, initrd, dir, name, bench, "tcg", r);
}

void boot_result_free(struct boot_result *r)
{
	for (size_t i = 0; i < r->nchecks; i++) {
		free(r->checks[i].name);
		free(r->checks[i].status);
		free(r->checks[i].detail);
	}
	for (size_t i = 0; i < r->nbench; i++) {
		free(r->bench[i].kind);
		free(r->bench[i].op);
	}
	free(r->checks);
	free(r->bench);
	free(r->accel);
	free(r->log);
	free(r->clocksource);
	free(r->kvm_note);
	sv_clear(&r->problems);
	memset(r, 0, sizeof(*r));
}
