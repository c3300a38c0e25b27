#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Suite: the boot test (issue 8), the parts that need no kernel build.
#
# Building and booting three kernels takes far longer than "make test" may
# (a tinyconfig kernel is 2-5 minutes on 2 idle cores, and there are three,
# plus the mutation rebuild and six qemu boots), so the boots run in
# "make check-linux" (tests/linux/boot.t.sh).  Here:
#   - the guest program builds clean (C11, -Wall -Wextra -Werror) with gcc
#     (static, as in the guest) and clang;
#   - it runs natively on the host: every file type the host offers passes,
#     and the unconverted kinds (pipe, pty, unix socket, tmpfs file,
#     signalfd) are never skipped;
#   - its benchmark runs and prints a row per call;
#   - boot-test's command line, the series reader (--plan), the Kconfig
#     lookup on a small fake tree, and --mutate on the fixture series.
# Environment: POLLTAX, TOP, WORK (tests/run.sh).
set -u
passed=0
failed=0
W=$WORK/boot
rm -rf "$W"
mkdir -p "$W"

ok() { printf 'TEST %s\n' "$1"; passed=$((passed + 1)); }
ko() { printf 'TEST %s\n  FAIL: %s\n' "$1" "$2"; failed=$((failed + 1)); }
check() { # check NAME CONDITION-STATUS MESSAGE
	if [ "$2" -eq 0 ]; then ok "$1"; else ko "$1" "$3"; fi
}

B=$TOP/tests/boot
# the guest program: every .c of tool/boot/guest/ (as tool/mk/boot-test.mk builds it)
SRCS=$(ls "$TOP"/tool/boot/guest/*.c)
PT=$W/polltest

# shellcheck disable=SC2086
gcc -std=c11 -O2 -Wall -Wextra -Werror -static -o "$PT" $SRCS -lpthread >"$W/gcc.log" 2>&1
check "polltest: gcc -std=c11 -Wall -Wextra -Werror -static" $? "$(head -n 20 "$W/gcc.log")"
if command -v clang >/dev/null 2>&1; then
	# shellcheck disable=SC2086
	clang -std=c11 -O2 -Wall -Wextra -Werror -fsyntax-only $SRCS >"$W/clang.log" 2>&1
	check "polltest: clang -std=c11 -Wall -Wextra -Werror" $? "$(head -n 20 "$W/clang.log")"
fi
[ -x "$PT" ] || { echo "RESULT $passed $((failed + 1))"; exit 0; }

"$PT" list >"$W/kinds.tsv"
n=$(awk -F '\t' 'NF == 5' "$W/kinds.tsv" | wc -l)
[ "$n" -ge 15 ] && [ "$n" -eq "$(wc -l <"$W/kinds.tsv")" ]
check "polltest list: one kind per line, 5 fields ($n kinds)" $? "$(cat "$W/kinds.tsv")"

# The host run.  /dev/kmsg is left out: its trigger writes to the host's
# kernel log; so are the device kinds, which would create input, HID, LED,
# Bluetooth, TPM and serio devices on the host, run its timers, mount
# debugfs or inject machine checks; and dm-control, snd-disconnected and
# ipmi, which would make device-mapper devices, unbind a sound card or add
# an IPMI interface.  Everything else the host (or its sandbox) lacks is
# skipped by polltest itself.
NOT_ON_HOST=kmsg,hidraw,evdev,mousedev,joydev,uinput,uleds,snd-timer,vhci,rfkill,rtc
NOT_ON_HOST=$NOT_ON_HOST,sync_file,vtpm-proxy,tpm-dev,tpmrm-dev,lirc,pps,qrtr-tun,userio,serio_raw,hid-debug,mcelog
NOT_ON_HOST=$NOT_ON_HOST,dm-control,snd-disconnected,ipmi
NOT_ON_HOST=$NOT_ON_HOST,hidraw-unplugged,evdev-unplugged,mousedev-unplugged,joydev-unplugged
NOT_ON_HOST=$NOT_ON_HOST,vhci-event,rfkill-event,serio_raw-unplugged,cec,cec-unplugged,ppdev
NOT_ON_HOST=$NOT_ON_HOST,roccat,roccat-unplugged
"$PT" test -x $NOT_ON_HOST -t 3000 >"$W/host.tap" 2>&1
status=$?
grep -q '^1\.\.[0-9]' "$W/host.tap"
check "polltest test on the host: a complete TAP stream" $? "$(tail -n 5 "$W/host.tap")"
for kind in $(cut -f 1 "$W/kinds.tsv"); do
	case ,$NOT_ON_HOST, in *,"$kind",*) continue ;; esac
	bad=$(grep "^not ok [0-9]* - $kind: " "$W/host.tap" | grep -v '# TODO')
	total=$(grep -c "^\(not \)\{0,1\}ok [0-9]* - $kind: " "$W/host.tap")
	skipped=$(grep -c "^ok [0-9]* - $kind: .*# SKIP not available" "$W/host.tap")
	case $kind in
	pipe|pty|unix|tmpfs|signalfd) must=1 ;;
	*) must=0 ;;
	esac
	if [ -n "$bad" ]; then
		ko "polltest on the host: $kind" "$(grep -A 1 "^not ok [0-9]* - $kind: " "$W/host.tap" | grep -v '# TODO' | head -n 10)"
	elif [ "$total" -eq 0 ]; then
		ko "polltest on the host: $kind" "no checks ran"
	elif [ "$must" -eq 1 ] && [ "$skipped" -gt 0 ]; then
		ko "polltest on the host: $kind" "an unconverted kind must run everywhere: $(grep -m 1 "$kind: .*# SKIP" "$W/host.tap")"
	else
		ok "polltest on the host: $kind"
	fi
done
[ "$status" -eq 0 ]
check "polltest test on the host: exit status 0" $? "exit status $status"

"$PT" bench -k pipe,eventfd,tmpfs >"$W/bench.txt" 2>&1
rows=$(grep -c '^# bench kind=.* ns_per_call=' "$W/bench.txt")
[ "$rows" -eq 11 ] && grep -q '^# bench done' "$W/bench.txt"
check "polltest bench: syscall + pipe, eventfd (4 calls) + tmpfs (2 calls) = 11 rows" $? "$rows rows: $(cat "$W/bench.txt")"

# ---- the command line ----
"$POLLTAX" boot-test --help >"$W/help.txt" 2>&1
check "boot-test --help" $? "$(cat "$W/help.txt")"
"$POLLTAX" boot-test >/dev/null 2>&1
[ $? -eq 2 ]
check "boot-test without arguments: exit 2" $? "wrong exit status"
"$POLLTAX" boot-test --kernels base,nonsense a b >"$W/err.txt" 2>&1
[ $? -eq 2 ] && grep -q "fatal: --kernels: 'nonsense' is not one of" "$W/err.txt"
check "boot-test --kernels with an unknown kernel: exit 2, says which" $? "$(cat "$W/err.txt")"
mkdir -p "$W/empty"
"$POLLTAX" boot-test --plan "$W/empty" "$W" >"$W/err.txt" 2>&1
[ $? -eq 3 ] && grep -q "fatal: no patches in" "$W/err.txt"
check "boot-test on a directory without patches: exit 3" $? "$(cat "$W/err.txt")"

# make boot-test checks its arguments when it reads the makefiles, before
# any prerequisite runs (deps, boot-deps: apt-get install qemu-system-x86)
mk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -n -s -C "$TOP" boot-test "$@"; }
mk KERNEL="$W/no-such-tree" >"$W/mk1.out" 2>"$W/mk1.err"
rc=$?
[ $rc -eq 2 ] && grep -q "make boot-test: KERNEL=$W/no-such-tree is not a kernel tree: no Kconfig" "$W/mk1.err" &&
	! grep -q ensure-packages "$W/mk1.out"
check "make boot-test KERNEL=<not a tree>: exit 2 before any install" $? "exit $rc: $(cat "$W/mk1.err" "$W/mk1.out" | head -n 5)"
mk >"$W/mk2.out" 2>"$W/mk2.err"
rc=$?
[ $rc -eq 2 ] && grep -q "make boot-test needs the kernel tree to build: no KERNEL= given" "$W/mk2.err" &&
	! grep -q ensure-packages "$W/mk2.out"
check "make boot-test without KERNEL=: exit 2 before any install" $? "exit $rc: $(cat "$W/mk2.err" "$W/mk2.out" | head -n 5)"
mkdir -p "$W/mktree" && : >"$W/mktree/Kconfig"
mk KERNEL="$W/mktree" SERIES="$W/no-such-series" >"$W/mk3.out" 2>"$W/mk3.err"
rc=$?
[ $rc -eq 2 ] && grep -q "make boot-test: SERIES=$W/no-such-series is not a directory" "$W/mk3.err" &&
	! grep -q ensure-packages "$W/mk3.out"
check "make boot-test SERIES=<not a directory>: exit 2 before any install" $? "exit $rc: $(cat "$W/mk3.err" "$W/mk3.out" | head -n 5)"

# ---- the series reader, on the fixture series and a small fake tree ----
S=$W/series
mkdir -p "$S"
# patch 1: an infrastructure patch, the one polltax makes for its infra fixture
"$POLLTAX" infra -q -o "$S" "$TOP/tests/fixtures/infra" >/dev/null
cp "$B"/series-6.12/*.patch "$S"/
printf 'Subject: [PATCH 0/3] cover\n\nno diff here\n' >"$S/0000-cover-letter.patch"
T=$W/tree
mkdir -p "$T/fs/fuse" "$T/kernel/printk" "$T/kernel/events" "$T/drivers/misc"
printf 'obj-y += kernel/ fs/ drivers/\n' >"$T/Kbuild"
printf 'obj-$(CONFIG_TIMERFD)\t\t+= timerfd.o\nobj-$(CONFIG_EVENTFD)\t\t+= eventfd.o\nobj-$(CONFIG_FUSE_FS) += fuse/\n' >"$T/fs/Makefile"
printf 'obj-$(CONFIG_FUSE_FS) += fuse.o\nfuse-y := dev.o \\\n\tdir.o\n' >"$T/fs/fuse/Makefile"
printf 'obj-y += printk/\nobj-$(CONFIG_PERF_EVENTS) += events/\n' >"$T/kernel/Makefile"
printf 'obj-y\t= printk.o\n' >"$T/kernel/printk/Makefile"
printf 'obj-y := core.o ring_buffer.o\n' >"$T/kernel/events/Makefile"
printf 'obj-$(CONFIG_FOO) += foo.o\nfoo-$(CONFIG_FOO_EXTRA) += extra.o\nobj-$(CONFIG_QUUX) += quux.o\nobj-$(CONFIG_ZORK) += zork.o\nobj-$(CONFIG_BIG) += big/\n' \
	>"$T/drivers/misc/Makefile"
printf 'source "drivers/misc/Kconfig"\nsource "drivers/usb/gadget/Kconfig"\nconfig PCI\n\tbool "PCI"\nconfig I2C\n\tbool "I2C"\n' >"$T/Kconfig"
# a driver of 41 objects, and FunctionFS: its option without a prompt has two selectors
mkdir -p "$T/drivers/misc/big" "$T/drivers/usb/gadget/function"
{ printf 'obj-y += core.o\n'; for i in $(seq 1 40); do printf 'obj-y += part%d.o\n' "$i"; done; } >"$T/drivers/misc/big/Makefile"
printf 'obj-$(CONFIG_USB_F_FS) += f_fs.o\n' >"$T/drivers/usb/gadget/function/Makefile"
cat >"$T/drivers/usb/gadget/Kconfig" <<'EOF'
config USB_F_FS
	tristate
config USB_FUNCTIONFS
	tristate "legacy FunctionFS gadget"
	select USB_F_FS
config USB_CONFIGFS
	tristate "gadgets through configfs"
config USB_CONFIGFS_F_FS
	bool "FunctionFS in configfs gadgets"
	depends on USB_CONFIGFS
	select USB_F_FS
config USB_DUMMY_HCD
	tristate "dummy HCD"
EOF
cat >"$T/drivers/misc/Kconfig" <<'EOF'
menuconfig MISC_STUFF
	bool "misc"

if MISC_STUFF
config FOO
	tristate "foo"
	depends on BAR || PCI
config FOO_EXTRA
	bool
config FOO_EXTRA_USER
	bool "user"
	select FOO_EXTRA
config QUUX
	tristate "quux"
	depends on PCI
config ZORK
	tristate "zork"
	depends on I2C
config BIG
	tristate "big"
endif

config BAR
	bool "bar"
	depends on BAZ || !BAZ
EOF
# polltax boot-test: the tree is checked before the tools (qemu), paths as typed
(cd "$W" && "$POLLTAX" boot-test --qemu ./no-qemu series no-such-tree) >"$W/order.out" 2>"$W/order.err"
rc=$?
[ $rc -eq 3 ] && grep -q "fatal: cannot open the kernel tree 'no-such-tree': No such file or directory" "$W/order.err"
check "boot-test on a missing tree says so first (exit 3), not that qemu is missing" $? "exit $rc: $(cat "$W/order.err")"
fake=$S/0005-fake-more-conversions.patch
{
	printf 'From 0 Mon Sep 17 00:00:00 2001\nSubject: [PATCH 5/5] fake: more\n\n---\n'
	for f in fs/fuse/dev.c kernel/events/core.c drivers/misc/extra.c drivers/misc/nowhere.c drivers/misc/quux.c \
		drivers/misc/zork.c drivers/misc/big/core.c; do
		printf 'diff --git a/%s b/%s\n--- a/%s\n+++ b/%s\n@@ -1,2 +1,2 @@\n' "$f" "$f" "$f" "$f"
		printf -- '-\t.poll = fake_poll,\n+\t.poll_mask = fake_poll_mask,\n'
	done
	f=drivers/usb/gadget/function/f_fs.c
	printf 'diff --git a/%s b/%s\n--- a/%s\n+++ b/%s\n@@ -1,2 +1,2 @@\n' "$f" "$f" "$f" "$f"
	printf -- '-\t.poll = ffs_ep0_poll,\n+\t.poll_mask = ffs_ep0_poll_mask,\n'
	# drm_poll() is drm_file.c's, its file_operations a header's macro: the
	# guest's card of vkms (drm-card, source drm_file.c) is converted
	f=drivers/gpu/drm/drm_file.c
	printf 'diff --git a/%s b/%s\n--- a/%s\n+++ b/%s\n@@ -1,2 +1,2 @@\n' "$f" "$f" "$f" "$f"
	printf -- '-__poll_t drm_poll(struct file *filp, struct poll_table_struct *wait)\n'
	printf -- '+__poll_t drm_poll_mask(struct file *filp, __poll_t events)\n'
	f=include/drm/drm_gem.h
	printf 'diff --git a/%s b/%s\n--- a/%s\n+++ b/%s\n@@ -1,2 +1,2 @@\n' "$f" "$f" "$f" "$f"
	printf -- '-\t.poll\t\t= drm_poll,\\\n+\t.poll_mask\t= drm_poll_mask,\\\n'
} >"$fake"
"$POLLTAX" boot-test --plan -o "$W/plan" "$S" "$T" >"$W/plan.tsv" 2>"$W/plan.err"
check "boot-test --plan on the fixture series" $? "$(cat "$W/plan.err")"
grep -q '^cover	0000-cover-letter.patch$' "$W/plan.tsv" && [ "$(grep -c '^patch	' "$W/plan.tsv")" -eq 5 ]
check "the cover letter is left out, the 5 patches kept in order" $? "$(grep '^patch\|^cover' "$W/plan.tsv")"
exp='conversion	fs/eventfd.c	eventfd_poll	eventfd_poll_mask	2
conversion	fs/timerfd.c	timerfd_poll	timerfd_poll_mask	3
conversion	kernel/printk/printk.c	devkmsg_poll	devkmsg_poll_mask	4'
[ "$(grep '^conversion	' "$W/plan.tsv" | head -n 3)" = "$exp" ]
check "conversions: file, .poll replaced, .poll_mask, patch" $? "$(grep '^conversion' "$W/plan.tsv")"
exp='site	fs/eventfd.c	2	file->f_poll_head = &ctx->wqh;
site	fs/timerfd.c	3	file->f_poll_head = &ctx->wqh;
site	kernel/printk/printk.c	4	file->f_poll_head = &log_wait;'
[ "$(grep '^site	' "$W/plan.tsv")" = "$exp" ]
check "creation sites: every added f_poll_head line, not the infrastructure's = NULL" $? "$(grep '^site' "$W/plan.tsv")"
[ "$(grep '	converted$' "$W/plan.tsv" | cut -f 2 | tr '\n' ' ')" = "eventfd timerfd kmsg drm-card functionfs " ]
check "file types the guest exercises: eventfd, timerfd, kmsg, drm-card (drm_poll() of drm_file.c, its fops in a header), functionfs" \
	$? "$(grep '^kind' "$W/plan.tsv")"
exp='config	fs/eventfd.c	EVENTFD	
config	fs/fuse/dev.c	FUSE_FS	
config	fs/timerfd.c	TIMERFD	
config	kernel/events/core.c	PERF_EVENTS	
config	kernel/printk/printk.c	y	'
[ "$(grep '^config	' "$W/plan.tsv" | grep -v 'drivers/misc\|drivers/usb\|include/drm')" = "$exp" ]
check "Kconfig symbols: obj-\$(CONFIG_X), composite objects, obj-y under a conditional directory" $? \
	"$(grep '^config' "$W/plan.tsv")"
grep -q '^config	drivers/misc/extra.c	FOO && FOO_EXTRA	$' "$W/plan.tsv"
check "Kconfig symbols: a conditional part of a composite object needs both" $? "$(grep 'extra.c' "$W/plan.tsv")"
grep -q '^config	drivers/misc/nowhere.c	-	no line of drivers/misc/Makefile builds nowhere.o$' "$W/plan.tsv"
check "Kconfig symbols: a file no Makefile builds says so" $? "$(grep 'nowhere' "$W/plan.tsv")"
grep -q '^needs	drivers/misc/extra.c	MISC_STUFF BAR FOO FOO_EXTRA_USER FOO_EXTRA	$' "$W/plan.tsv"
check "Kconfig dependencies: an enclosing if, the software side of an ||, a selector for a symbol with no prompt" \
	$? "$(grep '^needs' "$W/plan.tsv")"
grep -q '^needs	drivers/misc/zork.c		it needs CONFIG_I2C, a bus or platform this guest does not have$' "$W/plan.tsv"
check "Kconfig dependencies: what depends on a bus is hardware, not enabled" $? "$(grep '^needs' "$W/plan.tsv")"
grep -q '^needs	drivers/misc/quux.c	MISC_STUFF PCI QUUX	$' "$W/plan.tsv"
check "Kconfig dependencies: the bus of the guest's machine (PCI) is enabled for what needs it" $? \
	"$(grep '^needs' "$W/plan.tsv")"
grep -q '^needs	drivers/misc/big/core.c		CONFIG_BIG would add about 41 objects to the boot kernels, for a file the guest has no test for$' "$W/plan.tsv"
check "a converted file the guest has no test for is not built when its option adds over 40 objects" $? \
	"$(grep 'big' "$W/plan.tsv")"
grep -q '^backend	functionfs	USB_CONFIGFS_F_FS	USB_CONFIGFS USB_CONFIGFS_F_FS	$' "$W/plan.tsv" &&
	grep -q '^needs	drivers/usb/gadget/function/f_fs.c	USB_F_FS	$' "$W/plan.tsv"
check "a backend is the selector of choice: configfs FunctionFS selects USB_F_FS, not the legacy gadget (fewer options)" $? \
	"$(grep 'f_fs\|^backend' "$W/plan.tsv")"

# ---- --mutate: one creation site's f_poll_head line removed, nothing else ----
rm "$fake"
"$POLLTAX" boot-test --plan --mutate -o "$W/mut" "$S" "$T" >"$W/mut.tsv" 2>"$W/mut.err"
grep -q '^mutate	fs/eventfd.c	2	file->f_poll_head = &ctx->wqh;	' "$W/mut.tsv"
check "--mutate picks the first creation site of a file type the guest exercises" $? "$(cat "$W/mut.tsv" "$W/mut.err" | tail -n 3)"
diff "$S/0002-eventfd-convert-to-poll_mask.patch" "$W/mut/mutated-series/0002-eventfd-convert-to-poll_mask.patch" >"$W/mut.diff"
exp='43,50d42
< @@ -414,6 +412,7 @@ static int do_eventfd(unsigned int count, int flags)
<  	}
<  
<  	file->f_mode |= FMODE_NOWAIT;
< +	file->f_poll_head = &ctx->wqh;
<  	fd_install(fd, file);
<  	return fd;
<  err:'
[ "$(cat "$W/mut.diff")" = "$exp" ]
check "--mutate removes the line, and its hunk when nothing else changes there (git apply calls such a hunk corrupt)" $? "$(cat "$W/mut.diff")"
n=$(ls "$W/mut/mutated-series" | wc -l)
[ "$n" -eq 4 ] && cmp -s "$S/0003-timerfd-convert-to-poll_mask.patch" "$W/mut/mutated-series/0003-timerfd-convert-to-poll_mask.patch"
check "--mutate copies the other patches unchanged, without the cover letter" $? "$n files"
# --lifetime: the head pointed at a queue freed at once, in a file whose includes declare kmalloc()
printf '#include <linux/slab.h>\n' >"$T/fs/timerfd.c"
"$POLLTAX" boot-test --plan --mutate --lifetime -o "$W/life" "$S" "$T" >"$W/life.tsv" 2>"$W/life.err"
diff "$S/0003-timerfd-convert-to-poll_mask.patch" "$W/life/mutated-series/0003-timerfd-convert-to-poll_mask.patch" >"$W/life.diff"
exp='47c47
< +	file->f_poll_head = &ctx->wqh;
---
> +	file->f_poll_head = ({ wait_queue_head_t *polltax_q = kmalloc(sizeof(*polltax_q), GFP_KERNEL); if (polltax_q) { init_waitqueue_head(polltax_q); kfree(polltax_q); } polltax_q; });'
grep -q '^mutate	fs/timerfd.c	3	file->f_poll_head = &ctx->wqh;	' "$W/life.tsv" && [ "$(cat "$W/life.diff")" = "$exp" ]
check "--mutate --lifetime: in the first exercised file that includes <linux/slab.h>, the head line alone becomes a freed queue" $? \
	"$(cat "$W/life.tsv" "$W/life.err" "$W/life.diff" | tail -n 8)"
rm "$T/fs/timerfd.c"
"$POLLTAX" boot-test --plan --mutate --lifetime -o "$W/life2" "$S" "$T" >/dev/null 2>"$W/life2.err"
rc=$?
[ $rc -eq 3 ] && grep -q 'no file type the guest exercises is converted in a file that includes <linux/slab.h>' "$W/life2.err"
check "--mutate --lifetime with no such file: exit 3, why" $? "exit $rc: $(cat "$W/life2.err")"
"$POLLTAX" boot-test --lifetime "$S" "$T" >/dev/null 2>"$W/life3.err"
rc=$?
[ $rc -eq 2 ] && grep -q -- '--lifetime is a kind of --mutate' "$W/life3.err"
check "--lifetime without --mutate: a usage error" $? "exit $rc: $(cat "$W/life3.err")"
"$POLLTAX" boot-test --plan --mutate=kernel/printk/printk.c -o "$W/mut2" "$S" "$T" >"$W/mut2.tsv" 2>&1
grep -q '^mutate	kernel/printk/printk.c	4	file->f_poll_head = &log_wait;' "$W/mut2.tsv"
check "--mutate=FILE picks that file's creation site" $? "$(cat "$W/mut2.tsv" | tail -n 2)"
mkdir -p "$W/S3"
cp "$S"/0001-*.patch "$W/S3/"
cat >"$W/S3/0002-mut.patch" <<'EOF'
From 0 Mon Sep 17 00:00:00 2001
Subject: [PATCH 2/2] mut: convert

---
diff --git a/drivers/misc/mut.c b/drivers/misc/mut.c
--- a/drivers/misc/mut.c
+++ b/drivers/misc/mut.c
@@ -10,3 +10,4 @@ static int mut_open(struct inode *inode, struct file *file)
 	x = 1;
-	y = 2;
+	y = 3;
+	file->f_poll_head = &mut_wait;
 	return 0;
@@ -20,2 +21,2 @@ static const struct file_operations mut_fops = {
-	.poll = mut_poll,
+	.poll_mask = mut_poll_mask,
 };
-- 
2.39.5
EOF
"$POLLTAX" boot-test --plan --mutate -o "$W/mut3" "$W/S3" "$T" >"$W/mut3.tsv" 2>&1
diff "$W/S3/0002-mut.patch" "$W/mut3/mutated-series/0002-mut.patch" >"$W/mut3.diff"
exp='8c8
< @@ -10,3 +10,4 @@ static int mut_open(struct inode *inode, struct file *file)
---
> @@ -10,3 +10,3 @@ static int mut_open(struct inode *inode, struct file *file)
12d11
< +	file->f_poll_head = &mut_wait;'
[ "$(cat "$W/mut3.diff")" = "$exp" ]
check "--mutate in a hunk with other changes: the line goes, the new-side count shrinks" $? "$(cat "$W/mut3.diff" "$W/mut3.tsv")"

echo "RESULT $passed $failed"
