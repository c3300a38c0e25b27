#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Suite: paths as a person types them.  Every command takes its paths
# relative to the directory it is run in, although it runs git, make,
# spatch and qemu elsewhere: scan (-o, --times), report (-o, --since,
# the scan), progress (-o, --markdown, --since, the scan), convert
# (--scan, -o), boot-test (-o, SERIES_DIR, KERNEL_DIR).  series and
# verify are checked with relative paths in tests/series.t.sh.
# Environment: POLLTAX, TOP, WORK (as tests/run.sh sets them).  Prints
# TEST lines and ends with "RESULT <passed> <failed>".

set -u
: "${POLLTAX:?}" "${TOP:?}" "${WORK:?}"
. "$TOP/tests/lib.sh"
D=$WORK/paths
rm -rf "$D"
mkdir -p "$D/here"
cp -R "$TOP/tests/fixtures/tree" "$D/tree"
cd "$D/here" || exit 1

# scan: -o and --times relative to the cwd, the tree too
"$POLLTAX" scan -q -j 2 --times times.tsv -o out ../tree 2>scan.err
rc=$?
[ $rc -eq 0 ] && [ -f out/polltax.json ] && [ -s times.tsv ] && r=ok || r=bad
check "paths: scan -o out --times times.tsv ../tree" $r "exit $rc: $(cat scan.err)"

# report and progress read and write relative paths
cp -R out old
"$POLLTAX" report --html page.html --since old out 2>report.err && [ -s page.html ] &&
	grep -q '^polltax: wrote page.html ' report.err && r=ok || r=bad
check "paths: report --html page.html --since old out" $r "$(cat report.err)"
"$POLLTAX" progress --svg chart.svg --markdown progress.md --since old out >progress.out 2>progress.err &&
	[ -s chart.svg ] && grep -q '(chart.svg)' progress.md && r=ok || r=bad
check "paths: progress --svg chart.svg --markdown progress.md --since old out" $r "$(cat progress.err)"

# convert: --scan and -o
"$POLLTAX" convert -q --scan out -o . ../tree 2>convert.err && grep -q '^+++ b/' convert.diff &&
	r=ok || r=bad
check "paths: convert --scan out -o . ../tree (-o DIR: ./convert.diff)" $r "$(cat convert.err)"

# boot-test --plan: the series and the tree relative, -o relative (--mutate writes there)
mkdir -p series ktree
cp "$TOP"/tests/boot/series-6.12/*.patch series/
printf 'config PCI\n\tbool "PCI"\n' >ktree/Kconfig
"$POLLTAX" boot-test --plan --mutate -o plan series ktree >plan.tsv 2>plan.err &&
	grep -q '^mutate	' plan.tsv && [ -d plan/mutated-series ] && r=ok || r=bad
check "paths: boot-test --plan --mutate -o plan series ktree" $r "$(cat plan.err)"

echo "RESULT $passed $failed"
