#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Suite (make check-linux): cocci/classify.cocci through the kernel's own
# 'make coccicheck' (issue 21), as README "The second opinion in the
# kernel's make coccicheck" gives it:
#   make coccicheck COCCI=$TOP/cocci/classify.cocci MODE=report M=drivers/char
# and MODE=org, run in a copy of the tree made of hard links (cp -al:
# coccicheck only reads, but make and spatch may touch the top directory).
#  - both exit 0 and print one line per implementation (report: "file:line:
#    col: WARNING: fn(): class: reason", org: "* TODO [[view:...]]"), the
#    same number in both;
#  - every implementation of drivers/char that the check-linux scan
#    (OUT/polltax.csv) has a Coccinelle verdict for is in the report, with
#    the same class: coccicheck and polltax run the same rule.
# About 1 minute on 2 cores.  Environment: POLLTAX, SRC, OUT, TOP
# (tests/check-linux.sh).  Prints TEST lines and "RESULT <passed> <failed>".

set -u
. "$TOP/tests/lib.sh"

D=$OUT/coccicheck
DIR=drivers/char
rm -rf "$D"
mkdir -p "$D"

if ! [ -f "$SRC/scripts/coccicheck" ] || ! command -v spatch >/dev/null 2>&1; then
	check "coccicheck: the tree has scripts/coccicheck and spatch is installed" bad "no $SRC/scripts/coccicheck or no spatch"
	echo "RESULT $passed $failed"
	exit 0
fi
cp -al "$SRC" "$D/tree" || { check "coccicheck: a hard-linked copy of the tree" bad "cp -al failed"; echo "RESULT $passed $failed"; exit 0; }

for m in report org; do
	(cd "$D/tree" && nice -n 10 make coccicheck COCCI="$TOP/cocci/classify.cocci" MODE=$m M=$DIR J=2) \
		>"$D/$m.out" 2>"$D/$m.err"
	rc=$?
	[ $rc -eq 0 ] && r=ok || r=bad
	check "coccicheck: make coccicheck COCCI=cocci/classify.cocci MODE=$m M=$DIR exits 0" $r \
		"exit $rc: $(tail -n 5 "$D/$m.err")"
done
rm -rf "$D/tree"

nr=$(grep -c "^$DIR/[^:]*:[0-9]*:[0-9-]*: WARNING: [A-Za-z0-9_]*(): [a-z-]*: " "$D/report.out")
no=$(grep -c "^\* TODO \[\[view:$DIR/" "$D/org.out")
[ "$nr" -gt 10 ] && [ "$nr" -eq "$no" ] && r=ok || r=bad
check "coccicheck: one line per implementation in report ($nr) and org ($no) modes" $r \
	"report $nr lines, org $no; report: $(head -n 8 "$D/report.out")"

if [ -f "$OUT/polltax.csv" ]; then
	miss=$(cocci_not_reported "$OUT/polltax.csv" "$D/report.out" "$DIR/")
	n=$(cocci_verdicts "$OUT/polltax.csv" "$DIR/")
	[ -z "$miss" ] && [ "$n" -gt 10 ] && r=ok || r=bad
	check "coccicheck: the $n Coccinelle verdicts of the scan under $DIR are in the report, same class" $r \
		"not in the report: $miss"
else
	check "coccicheck: the check-linux scan (OUT/polltax.csv) to compare with" bad "no $OUT/polltax.csv"
fi

echo "RESULT $passed $failed"
