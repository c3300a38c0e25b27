#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Suite: the flags a directory's Kbuild or Makefile gives its files
# (tool/tree.c, makefile_flags()), when polltax prepares the tree itself.
# On a copy of the fixture tree without compile_flags.txt, with the
# drivers of tests/fixtures/makeflags (each names its wait queue through
# a header and a -D that only its ccflags-y gives):
#  - a ccflags-y line continued over two lines, made of the Makefile's
#    variables, one of them set again after the line: the header is found
#    and the wait queue is the last value's;
#  - a file in a directory without a Makefile, built by the one above
#    ("sub/fixmk-sub.o"), takes that Makefile's ccflags-y;
#  - a directory with a Kbuild file and a Makefile: Kbuild's flags, with
#    an older tree's "$(srctree)/$(src)";
#  - each driver is classified as its check- tags say, its facts have no
#    parse error, and the reason names the wait queue the flags choose;
#  - a commented-out ccflags-y line does not count; uncommented, it does.
# Env: POLLTAX, TOP, WORK (from tests/run.sh).

set -u
. "$TOP/tests/lib.sh"

D=$WORK/makeflags
rm -rf "$D"
mkdir -p "$D"
cp -R "$TOP/tests/fixtures/tree" "$D/tree"
cp -R "$TOP/tests/fixtures/makeflags/." "$D/tree/"
rm -f "$D/tree/compile_flags.txt"	# polltax prepares the tree: flags from the Makefiles
T=$D/tree

run() {	# NAME: scan into $D/NAME with its own cache, stderr to $D/NAME.err
	XDG_CACHE_HOME=$D/cache-$1 "$POLLTAX" scan -q --no-cocci -j 2 -o "$D/$1" "$T" 2>"$D/$1.err"
}
row() {	# OUT FILE FN: class convertible heads, then the reason on a line of its own
	"$POLLTAX" list "$1" | awk -F '\t' -v f="$2" -v fn="$3" '$1 == f && $3 == fn { print $5 " " $6 " " $7; print $9 }'
}
errors() {	# NAME FILE: the parse errors of FILE's facts
	e=$(grep -l "\"file\":\"$2\"" -r "$D/cache-$1/polltax/facts" --include='*.json' | head -n 1)
	if [ -z "$e" ]; then
		echo "no cache entry"
	else
		jq -r '.facts.errors[]? | "\(.line): \(.msg)"' "$e"
	fi
}

if ! run scan; then
	check "makeflags: scan of the fixture, flags from its Makefiles" bad "$(tail -3 "$D/scan.err")"
	echo "RESULT $passed $failed"
	exit 0
fi
for spec in drivers/fixmk/fixmk.c:fixmk_poll:fixmk_wait \
	    drivers/fixmk/sub/fixmk-sub.c:fixmk_sub_poll:fixmk_wait \
	    drivers/fixmk/kb/fixmk-kb.c:fixmk_kb_poll:fixmk_kb_wait; do
	f=${spec%%:*} rest=${spec#*:}
	fn=${rest%%:*} queue=${rest#*:}
	want=$(sed -n "s/^[ *]*check-poll: *$fn *//p" "$T/$f")
	wantc=$(sed -n "s/^[ *]*check-convertible: *$fn *//p" "$T/$f")
	wanth=$(sed -n "s/^[ *]*check-heads: *$fn *//p" "$T/$f")
	got=$(row "$D/scan" "$f" "$fn")
	[ -n "$want" ] && [ "$(echo "$got" | head -n 1)" = "$want $wantc $wanth" ] && r=ok || r=bad
	check "makeflags: $f: $want, convertible $wantc, as its tags say" $r "got '$got'"
	err=$(errors scan "$f")
	case "$got" in
	*"the global $queue,"*) [ -z "$err" ] && r=ok || r=bad ;;
	*) r=bad ;;
	esac
	check "makeflags: $f: parsed without an error, its wait queue $queue" $r "reason '$(echo "$got" | tail -n 1)'; errors: $err"
done

# the commented-out line, uncommented: FIXMK_DEBUG_QUEUE makes the
# header name a wait queue the driver does not have
sed 's/^#ccflags-y += -DFIXMK_DEBUG_QUEUE/ccflags-y += -DFIXMK_DEBUG_QUEUE/' "$T/drivers/fixmk/Makefile" >"$D/Makefile"
cp "$D/Makefile" "$T/drivers/fixmk/Makefile"
run uncommented || check "makeflags: scan with the line uncommented" bad "$(tail -3 "$D/uncommented.err")"
err=$(errors uncommented drivers/fixmk/fixmk.c)
case "$err" in
*fixmk_debug_wait*) r=ok ;;
*) r=bad ;;
esac
check "makeflags: the commented-out ccflags-y line, uncommented, counts" $r "errors: $err"

echo "RESULT $passed $failed"
