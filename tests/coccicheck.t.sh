#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Suite: cocci/classify.cocci as a rule of the kernel's 'make coccicheck'
# (issue 21), on the fixture tree (which has no scripts/coccicheck: the
# real one runs in make check-linux, tests/linux/coccicheck.t.sh).
#  - what scripts/coccicheck needs of a rule: 'virtual report' and
#    'virtual org', one '// Options:' line (it greps the file for
#    "Options:" and passes what follows), a '// Requires:' the installed
#    spatch meets;
#  - spatch run as scripts/coccicheck runs it (-D report or -D org,
#    --no-show-diff --very-quiet, the Options line, --dir, --jobs 2
#    --chunksize 1) prints, for every implementation polltax's own
#    Coccinelle pass classified (polltax.csv's cocci_class), a report line
#    with the same class, and as many org TODO items;
#  - README gives the make coccicheck command, and check-linux runs the
#    real one.
# Env: POLLTAX, TOP, WORK (from tests/run.sh).

set -u
. "$TOP/tests/lib.sh"

C=$TOP/cocci/classify.cocci
D=$WORK/coccicheck
rm -rf "$D"
mkdir -p "$D"

grep -q '^virtual report$' "$C" && grep -q '^virtual org$' "$C" && r=ok || r=bad
check "coccicheck: classify.cocci declares virtual report and virtual org" $r
n=$(grep -c "Options:" "$C")
[ "$n" -eq 1 ] && r=ok || r=bad
check "coccicheck: one 'Options:' line, as scripts/coccicheck greps it" $r "$n lines contain 'Options:'"
OPT=$(grep "Options:" "$C" | cut -d':' -f2)
REQ=$(grep "Requires:" "$C" | cut -d':' -f2 | sed "s| ||")
have=$(spatch --version 2>/dev/null | sed -n 's/^spatch version \([^ ]*\).*/\1/p')
[ -n "$have" ] && { echo "$REQ"; echo "$have"; } | sort -CV && r=ok || r=bad
check "coccicheck: 'Requires: $REQ' is met by spatch $have (else coccicheck skips the rule)" $r

grep -q 'make coccicheck COCCI=.*cocci/classify.cocci MODE=report' "$TOP/README.md" && r=ok || r=bad
check "coccicheck: README gives the make coccicheck command" $r
grep -q '^step coccicheck ' "$TOP/tests/check-linux.sh" && [ -f "$TOP/tests/linux/coccicheck.t.sh" ] && r=ok || r=bad
check "coccicheck: make check-linux runs tests/linux/coccicheck.t.sh" $r

if ! "$POLLTAX" scan -q -j 2 -o "$D/out" "$TOP/tests/fixtures/tree" 2>"$D/scan.err"; then
	check "coccicheck: the fixture scan" bad "$(cat "$D/scan.err")"
	echo "RESULT $passed $failed"
	exit 0
fi
for m in report org; do
	# shellcheck disable=SC2086 # $OPT is split as scripts/coccicheck splits it
	(cd "$TOP/tests/fixtures/tree" && spatch -D $m --no-show-diff --very-quiet --cocci-file "$C" $OPT \
		--dir . --jobs 2 --chunksize 1) >"$D/$m.out" 2>"$D/$m.err"
	rc=$?
	[ $rc -eq 0 ] && r=ok || r=bad
	check "coccicheck: spatch -D $m as scripts/coccicheck runs it exits 0" $r "exit $rc: $(tail -n 5 "$D/$m.err")"
done
nr=$(grep -c ': WARNING: [A-Za-z0-9_]*(): [a-z-]*: ' "$D/report.out")
no=$(grep -c '^\* TODO \[\[view:' "$D/org.out")
[ "$nr" -gt 20 ] && [ "$nr" -eq "$no" ] && r=ok || r=bad
check "coccicheck: one line per implementation in report ($nr) and org ($no)" $r
miss=$(cocci_not_reported "$D/out/polltax.csv" "$D/report.out" "")
n=$(cocci_verdicts "$D/out/polltax.csv" "")
[ -z "$miss" ] && [ "$n" -gt 50 ] && r=ok || r=bad
check "coccicheck: the $n Coccinelle verdicts of polltax.csv are in the report, same class" $r "not in the report: $miss"

echo "RESULT $passed $failed"
