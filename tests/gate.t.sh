#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Suite: polltax gate, the check for a subsystem's CI or a pre-commit hook
# (issue 21).
#
# A copy of the fixture tree is scanned into a saved scan; the gate on the
# unchanged copy exits 0 and prints nothing.  Then a new fixture-style
# driver with a single global wait queue (fixrtc renamed: convertible
# "yes") is added to the copy: the gate must exit 1 and print exactly one
# line, "file:line: function(): could be ->poll_mask: reason", for it.
# The saved scan and the kernel tree are given as relative paths.  Bad
# inputs: no --scan (2), a directory without a scan (3).
# Env: POLLTAX, TOP, WORK (from tests/run.sh).

set -u
. "$TOP/tests/lib.sh"

D=$WORK/gate
rm -rf "$D"
mkdir -p "$D"
cp -R "$TOP/tests/fixtures/tree" "$D/tree"
cd "$D" || exit 1

if ! "$POLLTAX" scan -q -j 2 -o saved tree 2>scan.err; then
	check "gate: the saved scan" bad "$(cat scan.err)"
	echo "RESULT $passed $failed"
	exit 0
fi

"$POLLTAX" gate -q -j 2 --scan saved tree >same.out 2>same.err
rc=$?
[ $rc -eq 0 ] && r=ok || r=bad
check "gate: an unchanged tree exits 0" $r "exit $rc: $(cat same.err)"
[ ! -s same.out ] && r=ok || r=bad
check "gate: an unchanged tree prints nothing" $r "$(cat same.out)"

# a new driver: fixrtc renamed gatenew, in a file of its own
sed -e 's/fixrtc/gatenew/g' -e 's/FIXRTC/GATENEW/g' -e '/check-/d' \
	tree/drivers/char/single-static-global-wait.c >tree/drivers/char/gate-new.c
line=$(grep -n '^static __poll_t gatenew_poll(' tree/drivers/char/gate-new.c | cut -d: -f1)

"$POLLTAX" gate -j 2 --scan saved -o new tree >new.out 2>new.err
rc=$?
[ $rc -eq 1 ] && r=ok || r=bad
check "gate: a new convertible ->poll exits 1" $r "exit $rc: $(cat new.err)"
n=$(wc -l <new.out)
[ "$n" -eq 1 ] && r=ok || r=bad
check "gate: one line for the one new ->poll" $r "$n lines: $(cat new.out)"
case "$(cat new.out)" in
"drivers/char/gate-new.c:$line: gatenew_poll(): could be ->poll_mask: "?*) r=ok ;;
*) r=bad ;;
esac
check "gate: the line is file:line: function(): could be ->poll_mask: reason" $r "got '$(cat new.out)'"
grep -q '1 new ->poll' new.err && r=ok || r=bad
check "gate: the summary on stderr counts it" $r "$(cat new.err)"
[ -s new/polltax.json ] && r=ok || r=bad
check "gate: -o keeps the new scan" $r "no new/polltax.json"

# the new scan saved, the same tree passes again
"$POLLTAX" gate -q -j 2 --scan new tree >again.out 2>&1
rc=$?
[ $rc -eq 0 ] && r=ok || r=bad
check "gate: against a scan that has it, exit 0" $r "exit $rc: $(cat again.out)"

# a new driver that cannot be converted (two queues) does not trip the gate
sed -e 's/fixpipe/gatemulti/g' -e '/check-/d' \
	tree/drivers/char/multi-read-write-queues.c >tree/drivers/char/gate-multi.c
"$POLLTAX" gate -q -j 2 --scan new tree >multi.out 2>&1
rc=$?
[ $rc -eq 0 ] && r=ok || r=bad
check "gate: a new ->poll that is not convertible passes" $r "exit $rc: $(cat multi.out)"

"$POLLTAX" gate tree >nos.out 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q -- '--scan' nos.out && r=ok || r=bad
check "gate: no --scan is a usage error (2) that names it" $r "exit $rc: $(cat nos.out)"
mkdir -p empty
"$POLLTAX" gate --scan empty tree >empty.out 2>&1
rc=$?
[ $rc -eq 3 ] && r=ok || r=bad
check "gate: a --scan without a scan is bad input (3)" $r "exit $rc: $(cat empty.out)"

echo "RESULT $passed $failed"
