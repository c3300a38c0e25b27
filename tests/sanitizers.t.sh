#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Suite: the fixture cases again, with polltax built with AddressSanitizer
# and UndefinedBehaviorSanitizer ("make asan", build/asan/), parsing every
# file afresh (a cache of its own).  A case fails as usual; any sanitizer
# report (a memory error, undefined behaviour, a leak at exit), from the
# scan or from a worker, fails the suite.  libclang is not instrumented.
set -u
S=$WORK/sanitizers
rm -rf "$S"
mkdir -p "$S/log"
passed=0
failed=0
no() { failed=$((failed + 1)); printf '  FAIL: %s\n' "$1"; }

printf 'TEST asan-build (make asan)\n'
if ! make -s -C "$TOP" asan >"$S/build.log" 2>&1; then
	no "make asan failed:"
	tail -n 20 "$S/build.log" | sed 's/^/    /'
	echo "RESULT $passed $failed"
	exit 0
fi
passed=$((passed + 1))

out=$(ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:log_path=$S/log/asan" \
	UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:log_path=$S/log/ubsan" \
	sh "$TOP/tests/run.sh" "$TOP/build/asan/polltax" fixtures "$S/work" 2>&1)
printf '%s\n' "$out" | grep -v ' passed, .* failed$' | sed 's/^TEST /TEST asan: /'
line=$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed$' | tail -n 1)
p=${line%% passed*}
f=${line#*, }
f=${f%% failed*}
passed=$((passed + ${p:-0}))
failed=$((failed + ${f:-1}))

printf 'TEST asan-reports (no sanitizer report from any process)\n'
if ls "$S"/log/* >/dev/null 2>&1; then
	no "sanitizer reports in $S/log:"
	cat "$S"/log/* | grep -E 'ERROR|SUMMARY|runtime error|#[0-9] ' | head -n 20 | sed 's/^/    /'
else
	passed=$((passed + 1))
fi
echo "RESULT $passed $failed"
