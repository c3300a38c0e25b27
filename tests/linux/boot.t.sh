#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Suite (make check-linux): the boot test on the real tree.  Environment:
# POLLTAX, SRC (Debian's linux-source, unpacked), OUT, TOP (tests/check-linux.sh).
#
# 1. The series: the one tests/linux/series.t.sh wrote, else "polltax
#    series" on the tree; if that fails, the stand-in
#    (the infrastructure patch made for the tree by "polltax infra", then
#    tests/boot/series-<ver>/: eventfd,
#    timerfd, /dev/kmsg), and the failure is reported.
# 2. polltax boot-test on it: three kernels (and the two KASAN + lockdep
#    ones, when the CI budget leaves the time) build and boot, the guest
#    finishes on each, every converted file type the guest knows runs, every
#    kernel gives the base kernel's results, no splat, the converted files'
#    Kconfig symbols are on or listed with a reason, the benchmark has its
#    rows, boot-test.md its table.
# 3. --mutate, base and patched only: one creation site's f_poll_head line
#    removed, the run must fail and name that file type and its lost
#    wake-ups.  It is also the warm run: the base kernel must not be
#    rebuilt, the patched one only for the mutated file.
# From a cold cache this takes 40-60 minutes on 2 idle cores (three kernel
# builds with the converted drivers' options, six boots); warm, minutes.
set -u
passed=0
failed=0
W=$OUT/boot
VER=$(sed -n 's/^VERSION = //p' "$SRC/Makefile").$(sed -n 's/^PATCHLEVEL = //p' "$SRC/Makefile")

ok() { printf 'TEST %s\n' "$1"; passed=$((passed + 1)); }
ko() { printf 'TEST %s\n  FAIL: %s\n' "$1" "$2"; failed=$((failed + 1)); }
check() { if [ "$2" -eq 0 ]; then ok "$1"; else ko "$1" "$3"; fi; }

"$TOP/tool/ensure-packages" jq qemu-system-x86 busybox-static >/dev/null || { echo "RESULT 0 1"; exit 0; }
rm -rf "$W/out" "$W/mutant" "$W/fixture-series"
mkdir -p "$W"

start=$(date +%s)
if [ -f "$OUT/series/series.json" ]; then
	# written by tests/linux/series.t.sh, which runs first
	S=$OUT/series
	ok "polltax series wrote the series to boot ($S)"
else
	"$POLLTAX" series -q --signoff "polltax check-linux <polltax@localhost>" -o "$W/series" "$SRC" >"$W/series.log" 2>&1
	status=$?
	check "polltax series writes the series to boot" "$status" "exit $status: $(tail -n 20 "$W/series.log")"
	if [ "$status" -eq 0 ]; then
		S=$W/series
		echo "boot: polltax series took $(( $(date +%s) - start )) s"
	else
		S=$W/fixture-series
		mkdir -p "$S"
		{ "$POLLTAX" infra -q -o "$S" "$SRC" >/dev/null && cp "$TOP"/tests/boot/series-"$VER"/*.patch "$S/"; } ||
			{ ko "stand-in series for $VER" "missing"; echo "RESULT $passed $failed"; exit 0; }
		echo "boot: using the stand-in series $S"
	fi
fi

# the KASAN + lockdep kernels (base-kasan, patched-kasan) need about 35
# minutes more from a cold cache (two builds of 12-13 min, two check boots
# of 3), after the plain ones' 45: under the CI deadline
# (tests/check-linux.sh) they are left out when that time is not there,
# and said so
KERNELS=base,patched,two-call,base-kasan,patched-kasan
if [ -n "${POLLTAX_DEADLINE:-}" ] && [ $(( POLLTAX_DEADLINE - $(date +%s) )) -lt $(( 80 * 60 )) ]; then
	echo "SKIP boot: the KASAN + lockdep kernels (about 35 min from a cold cache): $(( (POLLTAX_DEADLINE - $(date +%s)) / 60 )) min left of the CI time budget"
	KERNELS=base,patched,two-call
fi
start=$(date +%s)
"$POLLTAX" boot-test --kernels "$KERNELS" -o "$W/out" "$S" "$SRC" >"$W/run.log" 2>&1
status=$?
echo "boot: boot-test took $(( $(date +%s) - start )) s"
J=$W/out/boot-test.json
check "boot-test on the series: exit 0" "$status" "exit $status: $(grep -A 12 'error:\|fatal:' "$W/run.log" | head -n 60)"
[ -f "$J" ] || { echo "RESULT $passed $((failed + 1))"; exit 0; }
q() { jq -r "$1" "$J"; }

for k in base patched two-call; do
	[ "$(q ".kernels[\"$k\"].test.finished")" = true ] && [ "$(q ".kernels[\"$k\"].test.problems | length")" = 0 ]
	check "$k kernel: built, booted, the guest finished, no panic/oops/WARN/lockdep/hang" $? \
		"$(q ".kernels[\"$k\"].test | {finished, timed_out, problems}")"
	[ "$(q ".kernels[\"$k\"].bench.finished")" = true ]
	check "$k kernel: the benchmark boot finished" $? "$(q ".kernels[\"$k\"].bench | {finished, timed_out, problems}")"
done
nlogs=6
case $KERNELS in *kasan*)
	for k in base-kasan patched-kasan; do
		[ "$(q ".kernels[\"$k\"].test.finished")" = true ] && [ "$(q ".kernels[\"$k\"].test.problems | length")" = 0 ] &&
			grep -q '^CONFIG_KASAN=y$' "$(q .work_dir)/build/$k/.config" &&
			grep -q '^CONFIG_PROVE_LOCKING=y$' "$(q .work_dir)/build/$k/.config"
		check "$k kernel: KASAN and lockdep on, booted, the guest finished, no KASAN or lockdep report" $? \
			"$(q ".kernels[\"$k\"] | {note, test: (.test | {finished, timed_out, problems})}")"
	done
	# a file type whose driver lockdep faults on every kernel (K_NO_DEBUG) is skipped there with that reason, and said
	nd=$(q '[.kernels["patched-kasan"].test.checks | to_entries[] | select(.value.status == "skip" and ((.value.detail // "") | startswith("not run on a lockdep kernel"))) | .key | split(":")[0]] | unique | join(", ")')
	if [ -n "$nd" ]; then
		tr '\n' ' ' <"$W/out/boot-test.md" | grep -q "Not run on the KASAN and lockdep kernels.*: *$nd\."
		check "the file types not run on the lockdep kernels ($nd) are named in boot-test.md" $? \
			"$(grep -A 3 'Not run on' "$W/out/boot-test.md")"
	fi
	nlogs=8
esac
[ "$(q '.failures | length')" = 0 ] && [ "$(q .result)" = pass ]
check "every kernel gives the base kernel's results" $? "$(q '.failures[]' | head -n 40)"
conv=$(q '[.file_types[] | select(.converted)] | map(.name) | join(" ")')
[ -n "$conv" ]
check "the series converts file types the guest knows ($conv)" $? "none"
for t in $conv; do
	# a file this configuration cannot build (a bus, a subsystem too big) is said with its reason, and checked below
	src=$(q ".file_types[] | select(.name == \"$t\") | .source")
	if [ "$(q "[.config.converted_files[] | select(.file == \"$src\") | .enabled] | any")" = false ]; then
		echo "boot: converted file type $t is not built: $(q ".config.converted_files[] | select(.file == \"$src\") | .reason")"
		continue
	fi
	[ "$(q ".file_types[] | select(.name == \"$t\") | .checks_passed")" -gt 5 ]
	check "converted file type $t ran in the guest" $? "$(q ".file_types[] | select(.name == \"$t\")")"
done
[ "$(q '[.config.converted_files[] | select((.enabled | not) and (.reason == null))] | length')" = 0 ]
check "every converted file's Kconfig symbol is on, or listed with the reason" $? "$(q '.config.converted_files')"
echo "boot: $(q '[.config.converted_files[] | select(.enabled)] | length') of $(q '.config.converted_files | length') converted files built; not exercised: $(q '.not_exercised | length')"
n=$(q '.series.conversions | length')
[ "$(q '.kernels["two-call"].note' | grep -c "adding $n .get_poll_head")" = 1 ]
check "two-call: every conversion got .get_poll_head = file_get_poll_head ($n)" $? "$(q '.kernels["two-call"].note')"
for row in 'eventfd poll 1' 'eventfd poll 128' 'eventfd epoll_wait 128' 'pipe poll 128' 'tmpfs poll 128'; do
	set -- $row
	n=$(q "[.benchmark.rows[] | select(.kind == \"$1\" and .op == \"$2\" and .fds == $3) | .instructions_per_call | keys[]] | length")
	[ "$n" = 3 ]
	check "benchmark: $row on all three kernels" $? "$n kernels: $(q ".benchmark.rows[] | select(.kind == \"$1\")")"
done
grep -q '^## Tested' "$W/out/boot-test.md" && grep -q '^| pipe | poll, 1 fd | [0-9]* |' "$W/out/boot-test.md"
check "boot-test.md: the Tested section with the benchmark table" $? "$(head -n 30 "$W/out/boot-test.md")"
[ "$(ls "$W/out/logs" | wc -l)" -eq $nlogs ]
check "the $nlogs console logs are kept" $? "$(ls "$W/out/logs")"
# how far the guest got with each conversion: built, opened, woken, torn down while polled
[ "$(q '.reach | length')" = "$(q '.series.conversions | length')" ] &&
	[ "$(q '[.reach[] | select(.torn_down)] | length')" -gt 0 ] &&
	[ "$(q '[.reach[] | select((.torn_down | not) and .why_not == null)] | length')" = 0 ]
check "reach: every conversion, some torn down while polled, a reason wherever one stops" $? \
	"$(q '[.reach[] | select(.opened)]' | head -n 40)"
echo "boot: reach: $(q '[.reach[] | select(.built)] | length') built, $(q '[.reach[] | select(.opened)] | length') opened, $(q '[.reach[] | select(.woken)] | length') woken, $(q '[.reach[] | select(.torn_down)] | length') torn down"

# ---- the mutation, which is also the warm run ----
start=$(date +%s)
"$POLLTAX" boot-test --mutate --kernels base,patched --no-bench -o "$W/mutant" "$S" "$SRC" >"$W/mutant.log" 2>&1
status=$?
echo "boot: the mutation run took $(( $(date +%s) - start )) s"
J=$W/mutant/boot-test.json
[ "$status" -eq 1 ]
check "--mutate: the run fails (exit 1)" $? "exit $status: $(tail -n 20 "$W/mutant.log")"
file=$(q '.mutation.file')
kind=$(q ".file_types[] | select(.source == \"$file\" and .converted) | .name" | head -n 1)
echo "boot: the mutation removed \"$(q '.mutation.removed')\" from $file ($kind)"
grep -q "error: patched kernel: $kind ($file, converted by the series): [0-9]* checks\{0,1\} differs\{0,1\} from base" "$W/mutant.log" &&
	grep -q "blocking poll() woken by another process: ok on base, fail here" "$W/mutant.log"
check "--mutate: the failure names the file type and the lost wake-ups" $? "$(grep 'error:' "$W/mutant.log" | head -n 10)"
[ "$(q '.kernels.base.rebuilt')" = false ]
check "warm run: the base kernel is not rebuilt" $? "$(q '.kernels.base')"
log=$(q .work_dir)/logs/build-patched.log
obj=${file%.c}.o
n=$(grep -c '^  CC ' "$log" 2>/dev/null)
grep -q "^  CC      $obj" "$log" && [ "$n" -le 3 ]
check "warm run: the patched kernel recompiles only $obj (and the version)" $? "$n files: $(grep '^  CC ' "$log" | head)"

# ---- the lifetime mutation: the head points at a queue freed before the file ----
# on the KASAN kernel it is a use-after-free report; on the plain one the
# wake-ups go to the real queue and are lost (when the CI budget left the
# KASAN kernels out above, only the plain ones run here, and say so)
case $KERNELS in *kasan*) LK=base,patched,patched-kasan ;; *) LK=base,patched
	echo "SKIP boot: the lifetime mutation on the KASAN kernel (left out for the CI time budget)" ;; esac
start=$(date +%s)
"$POLLTAX" boot-test --mutate --lifetime --kernels "$LK" --no-bench -o "$W/lifetime" "$S" "$SRC" >"$W/lifetime.log" 2>&1
status=$?
echo "boot: the lifetime mutation run took $(( $(date +%s) - start )) s"
J=$W/lifetime/boot-test.json
file=$(q '.mutation.file')
kind=$(q ".file_types[] | select(.source == \"$file\" and .converted) | .name" | head -n 1)
echo "boot: the lifetime mutation replaced \"$(q '.mutation.replaced')\" in $file ($kind)"
# lost wake-ups ("N checks differ"), or a crash while it checked that type ("during ...")
[ "$status" -eq 1 ] && [ "$(q '.mutation.kind')" = lifetime ] &&
	q '.failures[]' | grep -q "^patched kernel.*$kind ($file, converted by the series)"
check "--mutate --lifetime: the run fails and names the file type ($kind)" $? "exit $status: $(grep 'error:' "$W/lifetime.log" | head -n 10)"
case $LK in *kasan*)
	q '.kernels["patched-kasan"].test.problems[]' | grep -q '^kasan: .*BUG: KASAN: .*use-after-free'
	check "--mutate --lifetime: KASAN reports the use after free on the patched-kasan kernel" $? \
		"$(q '.kernels["patched-kasan"].test.problems' | head -n 20)" ;;
esac

echo "RESULT $passed $failed"
