#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Suite: README.md is what a newcomer needs (issue 21), and says what the
# program says:
#  - its sections: what it does, quick start, the maintainer's workflow
#    (scan, series, verify, boot-test, series --tested, send, rescan into
#    the same -o, progress), what each output means (report.html, report,
#    progress, --url, reports/), flag sources (compile_flags.txt too),
#    classes (TAXONOMY.md), exit codes, bad inputs, the cache;
#  - every command of 'polltax help' is named, every exit code of
#    tool/lib/util.h is in its table, every part of 'polltax cache' too;
#  - history.json is described one way, as 'polltax scan --help' does;
#  - the dated benchmark notes are in CONTRIBUTING.md, the current table
#    once in README.
# Env: POLLTAX, TOP, WORK (from tests/run.sh).
set -u
: "${POLLTAX:?}" "${TOP:?}" "${WORK:?}"
. "$TOP/tests/lib.sh"
RM=$TOP/README.md
CT=$TOP/CONTRIBUTING.md

for s in "Quick start" "The maintainer's workflow" "What each output means" "Scanning: flags and options" \
	 "Classes" "Exit codes" "Bad inputs" "The cache"; do
	grep -q "^## $s" "$RM" && r=ok || r=bad
	check "README has a section '$s'" $r "no '## $s' in README.md"
done

# the workflow, in order, as commands
wf=$(sed -n "/^## The maintainer's workflow/,/^## /p" "$RM")
prev=0
miss=
for c in "polltax scan -o out" "polltax series --scan out" "polltax verify" "polltax boot-test" "--tested" \
	 "git send-email" "polltax scan -o out linux  .*rescan" "polltax progress out"; do
	n=$(printf '%s\n' "$wf" | grep -n -- "$c" | head -n 1 | cut -d: -f1)
	if [ -z "$n" ] || [ "$n" -lt "$prev" ]; then miss="$miss [$c]"; else prev=$n; fi
done
[ -z "$miss" ] && r=ok || r=bad
check "the workflow: scan, series, verify, boot-test, series --tested, send, rescan into the same -o, progress" $r \
	"missing or out of order:$miss"

out=$(sed -n "/^## What each output means/,/^## Scanning/p" "$RM")
miss=
for w in report.html '`polltax report' '`polltax progress' -- --url '`reports/`' refused.json verify.md boot-test.md \
	 '`polltax list' '--json'; do
	printf '%s\n' "$out" | grep -qF -- "$w" || miss="$miss $w"
done
[ -z "$miss" ] && r=ok || r=bad
check "what each output means: report.html, report, progress, --url, reports/, ..." $r "not said:$miss"

sed -n "/^## Scanning: flags and options/,/^## /p" "$RM" | grep -q 'compile_commands.json' &&
	sed -n "/^## Scanning: flags and options/,/^## /p" "$RM" | grep -q 'compile_flags.txt' && r=ok || r=bad
check "the flag sources include compile_flags.txt" $r "README 'Scanning' lacks a flag source"
sed -n "/^## Classes/,/^## /p" "$RM" | grep -q 'tool/TAXONOMY.md' && r=ok || r=bad
check "the classes point to tool/TAXONOMY.md" $r "no link"

miss=
for c in $("$POLLTAX" help | sed -n 's/^  \([a-z-]*\)  .*/\1/p'); do
	grep -q "polltax $c\b" "$RM" || miss="$miss $c"
done
[ -z "$miss" ] && r=ok || r=bad
check "every command of 'polltax help' is in README" $r "not in README:$miss"

miss=
for c in $(sed -n 's/^\tEXIT_[A-Z]* = \([0-9]*\),.*/\1/p' "$TOP/tool/lib/util.h"); do
	sed -n "/^## Exit codes/,/^## /p" "$RM" | grep -q "^| $c |" || miss="$miss $c"
done
[ -z "$miss" ] && r=ok || r=bad
check "every exit code of tool/lib/util.h is in README's table" $r "missing:$miss"

miss=
for p in $(XDG_CACHE_HOME=$WORK/readme-cache "$POLLTAX" cache | sed -n '2,$s/^  \([a-z-]*\) .*/\1/p' | grep -v '^total$'); do
	sed -n "/^## The cache/,/^## /p" "$RM" | grep -q "^| \`$p\` |" || miss="$miss $p"
done
rm -rf "$WORK/readme-cache"
[ -z "$miss" ] && r=ok || r=bad
check "every part of 'polltax cache' is in README's cache table" $r "missing:$miss"

"$POLLTAX" scan --help | grep -q 'history.json   one entry per scan whose counts changed' &&
	grep -q '| `history.json` | one entry per scan whose counts changed' "$RM" &&
	! grep -qi 'history.json.*one entry appended per scan\|appends a row to history' "$RM" && r=ok || r=bad
check "history.json is described one way (README and scan --help)" $r "they differ"

# the benchmark: the current table once in README, the dated notes in CONTRIBUTING
n=$(grep -c '^| polltax scan, cold |' "$RM")
[ "$n" -eq 1 ] && grep -q '^| polltax scan, cold |' "$CT" && ! grep -q 'The three rounds, in turn' "$RM" &&
	grep -q 'The three rounds, in turn' "$CT" && grep -q '^## Benchmarks' "$CT" && r=ok || r=bad
check "README quotes the bench table once; the dated notes are in CONTRIBUTING.md" $r "$n tables in README"

# CONTRIBUTING's map of tool/ names every file of tool/ (its folders by stage)
miss=
for f in $(cd "$TOP" && git ls-files tool 2>/dev/null || find tool -type f); do
	b=${f##*/}
	sed -n '/^## Map of tool/,/^## The pipeline/p' "$CT" | grep -q "\`$b\`" || miss="$miss $f"
done
[ -z "$miss" ] && r=ok || r=bad
check "CONTRIBUTING's map of tool/ names every file of tool/" $r "not in the map:$miss"

echo "RESULT $passed $failed"
