#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/pipeline.t.sh: "polltax run", the whole job in one command, on a copy of the fixture
# tree: the stages in order into one directory, the same outputs as the commands typed one by
# one, a second run that skips every stage, an edited driver that makes them run again, a
# failing stage that stops the run and is resumed from, --from, --dry-run.  (The boot test
# stage is left to tests/boot.t.sh and check-linux: --until verify here.)
set -u
: "${POLLTAX:?}" "${TOP:?}" "${WORK:?}"
T=$WORK/pipeline
ID="Polly Tax <polly@example.org>"
passed=0
failed=0
pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); printf '  FAIL: %s\n' "$1"; }
check() { # check NAME ok|bad MESSAGE
	printf 'TEST pipeline: %s\n' "$1"
	if [ "$2" = ok ]; then pass; else fail "$3"; fi
}

rm -rf "$T"
mkdir -p "$T"
cp -a "$TOP/tests/fixtures/tree" "$T/linux"
cd "$T" || exit 1

# 0. --dry-run on a new output directory: every stage would run, nothing is made but run.json's directory
"$POLLTAX" run --dry-run --signoff "$ID" -o fresh linux >/dev/null 2>"$T/dry0.err"
rc=$?
[ $rc -eq 0 ] && [ "$(grep -c ': would run' "$T/dry0.err")" -eq 5 ] && [ ! -e fresh/scan ] && r=ok || r=bad
check "--dry-run on a new directory: the five stages would run, none ran" $r "exit $rc: $(cat "$T/dry0.err")"

# 1. every stage up to verify, paths as typed
"$POLLTAX" run --signoff "$ID" --until verify -o out linux >"$T/run1.out" 2>"$T/run1.err"
rc=$?
r=bad
[ $rc -eq 0 ] && [ -f out/scan/polltax.json ] && [ -f out/series/series.json ] && [ -f out/verify/verify.md ] &&
	[ "$(jq -r '.stages | keys | join(",")' out/run.json)" = "scan,series,verify" ] &&
	grep -q '^polltax run: \[3/3\] verify: done' "$T/run1.err" && r=ok
check "run --until verify: scan, series and verify into one directory, run.json records them" $r \
	"exit $rc: $(tail -5 "$T/run1.err")"
# (to the second: a series whose conversions come from the cache can end
# in the second the scan ended in; each time is also no earlier than the
# stage's last output, which a time taken at the start would be)
mtime() { date -u -r "$1" '+%Y-%m-%d %H:%M:%S UTC'; }
[ "$(jq -r --arg scan "$(mtime out/scan/polltax.json)" --arg series "$(mtime out/series/series.json)" \
	--arg verify "$(mtime out/verify/verify.md)" '.stages.series.finished >= .stages.scan.finished and
	.stages.verify.finished > .stages.series.finished and .stages.scan.finished >= $scan and
	.stages.series.finished >= $series and .stages.verify.finished >= $verify' out/run.json)" = true ] &&
	r=ok || r=bad
check "run.json: each stage's time is when it finished (series after scan, verify after series)" $r \
	"$(cat out/run.json; ls -l --time-style=+%T out/scan/polltax.json out/series/series.json out/verify/verify.md)"
[ -s "$T/run1.out" ] && r=bad || r=ok
check "the stages' tables go to stderr, with the progress; stdout stays empty" $r "$(head -3 "$T/run1.out")"

# 2. the same outputs as the commands of README's workflow typed one by one
"$POLLTAX" series -q --scan out/scan --signoff "$ID" -o by-hand linux 2>"$T/hand.err"
diff -r out/series by-hand >"$T/hand.diff" 2>&1 && r=ok || r=bad
check "its series is byte-identical to 'polltax series --scan' typed by hand" $r "$(head -5 "$T/hand.diff") $(cat "$T/hand.err")"

# 3. again: nothing changed, every stage skipped, nothing rewritten
cp out/run.json "$T/run.json.1"
ls -l --time-style=+%s.%N out/series >"$T/ls.1"
"$POLLTAX" run --signoff "$ID" --until verify -o out linux >/dev/null 2>"$T/run2.err"
rc=$?
[ $rc -eq 0 ] && [ "$(grep -c ': up to date (inputs unchanged since ' "$T/run2.err")" -eq 3 ] &&
	cmp -s out/run.json "$T/run.json.1" && ls -l --time-style=+%s.%N out/series | cmp -s - "$T/ls.1" && r=ok || r=bad
check "a second run skips the three stages, says so, and rewrites nothing" $r "exit $rc: $(cat "$T/run2.err")"

# 4. --dry-run after an edit of one driver: what would run; nothing runs
printf '/* an edit */\n' >>linux/drivers/char/multi-read-write-queues.c
"$POLLTAX" run --dry-run --signoff "$ID" --until verify -o out linux >/dev/null 2>"$T/dry.err"
rc=$?
[ $rc -eq 0 ] && [ "$(grep -c ': would run$' "$T/dry.err")" -eq 3 ] && cmp -s out/run.json "$T/run.json.1" && r=ok || r=bad
check "--dry-run after a driver edit: the three stages would run, none did" $r "exit $rc: $(cat "$T/dry.err")"

# 5. a failing stage stops the run with its status; the next run resumes from it
"$POLLTAX" run --signoff "nobody" --until verify -o out linux >/dev/null 2>"$T/fail.err"
rc=$?
r=bad
[ $rc -eq 2 ] && grep -q 'series: FAILED' "$T/fail.err" && grep -q 'stopped at series (exit status 2)' "$T/fail.err" &&
	! grep -q 'verify ...' "$T/fail.err" && [ "$(jq -r '.stages | keys | join(",")' out/run.json)" = "scan,verify" ] && r=ok
check "a stage that fails stops the run with its exit status, and is not recorded as done" $r \
	"exit $rc: $(cat "$T/fail.err"); $(jq -c '.stages | keys' out/run.json)"
"$POLLTAX" run --signoff "$ID" --until verify -o out linux >/dev/null 2>"$T/resume.err"
rc=$?
[ $rc -eq 0 ] && grep -q 'scan: up to date' "$T/resume.err" && grep -q 'series: done' "$T/resume.err" &&
	grep -q 'verify: done' "$T/resume.err" && r=ok || r=bad
check "the next run resumes: the scan of the edited tree kept, series and verify run on it" $r \
	"exit $rc: $(cat "$T/resume.err")"

# 6. --from redoes a stage whose inputs did not change
"$POLLTAX" run --signoff "$ID" --until verify --from verify -o out linux >/dev/null 2>"$T/from.err"
rc=$?
[ $rc -eq 0 ] && grep -q 'scan: up to date' "$T/from.err" && grep -q 'series: up to date' "$T/from.err" &&
	grep -q 'verify: done' "$T/from.err" && r=ok || r=bad
check "--from verify: scan and series skipped, verify run again" $r "exit $rc: $(cat "$T/from.err")"

# 7. bad invocations: usage errors, before any work
"$POLLTAX" run --until nothing -o out2 linux >/dev/null 2>"$T/bad1.err"
rc1=$?
"$POLLTAX" run --from report --until series -o out2 linux >/dev/null 2>"$T/bad2.err"
rc2=$?
"$POLLTAX" run -o linux/out linux >/dev/null 2>"$T/bad3.err"
rc3=$?
"$POLLTAX" run linux >/dev/null 2>"$T/bad4.err"
rc4=$?
[ $rc1 -eq 2 ] && grep -q "no stage 'nothing'" "$T/bad1.err" && [ $rc2 -eq 2 ] && [ $rc3 -eq 2 ] && [ $rc4 -eq 2 ] &&
	grep -q -- '-o DIR is required' "$T/bad4.err" && [ ! -e out2 ] && [ ! -e linux/out ] && r=ok || r=bad
check "an unknown stage, --from after --until, -o inside the tree, no -o: exit 2, nothing made" $r \
	"$rc1 $rc2 $rc3 $rc4: $(cat "$T/bad1.err" "$T/bad2.err" "$T/bad3.err" "$T/bad4.err")"

echo "RESULT $passed $failed"
