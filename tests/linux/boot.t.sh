#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Suite (make check-linux): the boot test on the real tree.  Environment:
# POLLTAX, SRC (Debian's linux-source, unpacked), OUT, TOP (tests/check-linux.sh).
#
# 1. polltax boot-test on the fixture series (kernel-patches/<ver>/0001 then
#    tests/boot/series-<ver>/: eventfd, timerfd, /dev/kmsg): three kernels
#    build and boot, the guest finishes on each, the converted file types
#    run, every kernel gives the base kernel's results, no splat, and the
#    benchmark has its rows.
# 2. --mutate (eventfd's f_poll_head line removed), base and patched only:
#    the run must fail and name eventfd; it is also the warm run, so the base
#    kernel must not be rebuilt and the patched one only for fs/eventfd.c.
# Takes about 30 minutes from a cold cache on 2 idle cores (three kernel
# builds, six boots), a few minutes warm.
set -u
passed=0
failed=0
W=$OUT/boot
VER=$(sed -n 's/^VERSION = //p' "$SRC/Makefile").$(sed -n 's/^PATCHLEVEL = //p' "$SRC/Makefile")

ok() { printf 'TEST %s\n' "$1"; passed=$((passed + 1)); }
ko() { printf 'TEST %s\n  FAIL: %s\n' "$1" "$2"; failed=$((failed + 1)); }
check() { if [ "$2" -eq 0 ]; then ok "$1"; else ko "$1" "$3"; fi; }

"$TOP/tool/ensure-packages" jq qemu-system-x86 busybox-static >/dev/null || { echo "RESULT 0 1"; exit 0; }
rm -rf "$W/series" "$W/out" "$W/mutant"
mkdir -p "$W/series"
cp "$TOP"/kernel-patches/"$VER"/0001-*.patch "$TOP"/tests/boot/series-"$VER"/*.patch "$W/series/" ||
	{ ko "fixture series for $VER" "missing"; echo "RESULT $passed $failed"; exit 0; }

start=$(date +%s)
"$POLLTAX" boot-test -o "$W/out" "$W/series" "$SRC" >"$W/run.log" 2>&1
status=$?
echo "boot-test: first run took $(( $(date +%s) - start )) s"
J=$W/out/boot-test.json
check "boot-test on the fixture series: exit 0" "$status" "exit $status: $(grep -A 12 'error:\|fatal:' "$W/run.log" | head -n 40)"
[ -f "$J" ] || { echo "RESULT $passed $((failed + 1))"; exit 0; }
q() { jq -r "$1" "$J"; }

for k in base patched two-call; do
	[ "$(q ".kernels[\"$k\"].test.finished")" = true ] && [ "$(q ".kernels[\"$k\"].test.problems | length")" = 0 ]
	check "$k kernel: built, booted, the guest finished, no panic/oops/WARN/lockdep/hang" $? \
		"$(q ".kernels[\"$k\"].test | {finished, timed_out, problems}")"
	[ "$(q ".kernels[\"$k\"].bench.finished")" = true ]
	check "$k kernel: the benchmark boot finished" $? "$(q ".kernels[\"$k\"].bench | {finished, timed_out, problems}")"
done
[ "$(q '.failures | length')" = 0 ] && [ "$(q .result)" = pass ]
check "every kernel gives the base kernel's results" $? "$(q '.failures[]' | head -n 30)"
for t in eventfd timerfd kmsg; do
	[ "$(q ".file_types[] | select(.name == \"$t\") | .converted")" = true ] &&
		[ "$(q ".file_types[] | select(.name == \"$t\") | .checks_passed")" -gt 5 ]
	check "converted file type $t ran in the guest" $? "$(q ".file_types[] | select(.name == \"$t\")")"
done
[ "$(q '[.config.converted_files[] | select(.enabled | not)] | length')" = 0 ]
check "the converted files' Kconfig symbols are enabled" $? "$(q '.config.converted_files')"
[ "$(q '.kernels["two-call"].note' | grep -c 'adding 3 .get_poll_head')" = 1 ]
check "two-call: the conversions got .get_poll_head = file_get_poll_head" $? "$(q '.kernels["two-call"].note')"
for row in 'eventfd poll 1' 'eventfd poll 128' 'eventfd epoll_wait 128' 'pipe poll 128' 'tmpfs poll 128'; do
	set -- $row
	n=$(q "[.benchmark.rows[] | select(.kind == \"$1\" and .op == \"$2\" and .fds == $3) | .instructions_per_call | keys[]] | length")
	[ "$n" = 3 ]
	check "benchmark: $row on all three kernels" $? "$n kernels: $(q ".benchmark.rows[] | select(.kind == \"$1\")")"
done
grep -q '^## Tested' "$W/out/boot-test.md" && grep -q '^| eventfd (converted) | poll, 1 fd | [0-9]* |' "$W/out/boot-test.md"
check "boot-test.md: the Tested section with the benchmark table" $? "$(head -n 20 "$W/out/boot-test.md")"
[ "$(ls "$W/out/logs" | wc -l)" -eq 6 ]
check "the six console logs are kept" $? "$(ls "$W/out/logs")"

# ---- the mutation, which is also the warm run ----
start=$(date +%s)
"$POLLTAX" boot-test --mutate --kernels base,patched --no-bench -o "$W/mutant" "$W/series" "$SRC" >"$W/mutant.log" 2>&1
status=$?
echo "boot-test: mutation run took $(( $(date +%s) - start )) s"
J=$W/mutant/boot-test.json
[ "$status" -eq 1 ]
check "--mutate: the run fails (exit 1)" $? "exit $status: $(tail -n 20 "$W/mutant.log")"
grep -q "error: patched kernel: eventfd (fs/eventfd.c, converted by the series): [0-9]* checks differ from base" "$W/mutant.log" &&
	grep -q "blocking poll() woken by another process: ok on base, fail here" "$W/mutant.log"
check "--mutate: the failure names the file type and the lost wake-ups" $? "$(grep 'error:' "$W/mutant.log" | head -n 10)"
[ "$(q '.mutation.file')" = fs/eventfd.c ]
check "--mutate: boot-test.json records the removed line" $? "$(q '.mutation')"
[ "$(q '.kernels.base.rebuilt')" = false ]
check "warm run: the base kernel is not rebuilt" $? "$(q '.kernels.base')"
log=$(q .work_dir)/logs/build-patched.log
n=$(grep -c '^  CC ' "$log" 2>/dev/null)
grep -q '^  CC      fs/eventfd.o' "$log" && [ "$n" -le 3 ]
check "warm run: the patched kernel recompiles only fs/eventfd.o (and the version)" $? "$n files: $(grep '^  CC ' "$log" | head)"

echo "RESULT $passed $failed"
