#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Suite: the libFuzzer harness (tool/fuzz/fuzz_extract.c) of the analyzer.
# First every input that once crashed it (tests/fuzz/*.c) runs once, then
# the fuzzer runs for FUZZ_SECONDS (default 60) from the fixture corpus.
# Any crash, sanitizer report, leak or abort fails the case.
set -u
F=$WORK/fuzz
rm -rf "$F"
mkdir -p "$F"
passed=0
failed=0
ok() { passed=$((passed + 1)); }
no() { failed=$((failed + 1)); printf '  FAIL: %s\n' "$1"; }

# a build directory of the suite's own: a fuzzer running from build/fuzz is not disturbed
B=$WORK/fuzz-build
printf 'TEST fuzz-build (make fuzz-build)\n'
if make -s -C "$TOP" fuzz-build FUZZ_BUILD="$B" >"$F/build.log" 2>&1; then
	ok
else
	no "make fuzz-build failed (libclang-rt-14-dev installed?):"
	sed 's/^/    /' "$F/build.log" | tail -n 20
	echo "RESULT $passed $failed"
	exit 0
fi

for c in "$TOP"/tests/fuzz/*.c; do
	[ -f "$c" ] || continue
	printf 'TEST fuzz-regression (%s)\n' "tests/fuzz/${c##*/}"
	if (cd "$F" && ASAN_OPTIONS=detect_leaks=1 "$B/fuzz_extract" "$c") >"$F/regress.log" 2>&1; then
		ok
	else
		no "tests/fuzz/${c##*/} crashes the analyzer again:"
		grep -E 'ERROR|SUMMARY|#[0-9] ' "$F/regress.log" | head -n 12 | sed 's/^/    /'
	fi
done

secs=${FUZZ_SECONDS:-60}
printf 'TEST fuzz-run (%s s)\n' "$secs"
if make -s -C "$TOP" fuzz FUZZ_BUILD="$B" FUZZ_SECONDS="$secs" FUZZ_CORPUS="$F/corpus" FUZZ_ARTIFACTS="$F" >"$F/run.log" 2>&1; then
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$F/run.log")
	if [ -z "$runs" ] || [ "$runs" -lt 1 ]; then
		no "the fuzzer ran no input"
		tail -n 5 "$F/run.log" | sed 's/^/    /'
	elif ls "$F"/crash-* "$F"/leak-* "$F"/timeout-* "$F"/oom-* >/dev/null 2>&1; then
		no "the fuzzer saved a reproducer in $F"
	else
		printf '  %s executions, no crash\n' "$runs"
		ok
	fi
else
	no "the fuzzer found a problem (reproducer in $F):"
	grep -E 'ERROR|SUMMARY|#[0-9]+ 0x' "$F/run.log" | head -n 15 | sed 's/^/    /'
fi
echo "RESULT $passed $failed"
