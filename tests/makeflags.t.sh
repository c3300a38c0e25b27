#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Suite: the one reader of the tree's Kbuild makefiles (tool/lib/kbuild.c),
# through every query it answers.  First the flags a directory's Kbuild
# or Makefile gives its files (scan), when polltax prepares the tree itself.
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
# Then the other queries, as 'polltax facts --kbuild' prints them, on the
# same tree with a configuration written for it (include/config/auto.conf):
#  - the flags again, as scan asks for them;
#  - is the file built (series, verify): through its directory's line, the
#    parents' "fixmk/" and "kb/" entries, a composite object, its
#    conditional part, and a list continued up to the end of the file;
#    with the bus off, not built, and the reason names the symbol;
#  - the Kconfig symbol and the line that builds the object (boot-test);
#  - the make target (verify): the file's own, or through the sibling
#    directory whose makefile builds "../kfd".
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
cp "$TOP/tests/fixtures/makeflags/drivers/fixmk/Makefile" "$T/drivers/fixmk/Makefile"

# ---- the other queries: polltax facts --kbuild --------------------------------------
export XDG_CACHE_HOME=$D/cache-kbuild
FILES="drivers/fixmk/fixmk.c drivers/fixmk/sub/fixmk-sub.c drivers/fixmk/kb/fixmk-kb.c
drivers/fixmk/fixmk-core.c drivers/fixmk/fixmk-tail.c drivers/fixmk/fixmk-extra.c drivers/fixmk/kfd/kfd.c"
kbuild() {	# CONFIG-LINES: write the configuration, then the answers for $FILES into $D/kbuild.json
	"$POLLTAX" facts --kbuild "$T" drivers/fixmk/fixmk.c >/dev/null 2>"$D/kbuild.err"	# prepares the tree
	b=$(dirname "$(find "$XDG_CACHE_HOME" -name .polltax-prepared | head -n 1)")
	mkdir -p "$b/include/config"
	printf '%s\n' "$@" >"$b/include/config/auto.conf"
	# shellcheck disable=SC2086
	"$POLLTAX" facts --kbuild "$T" $FILES >"$D/kbuild.json" 2>>"$D/kbuild.err"
}
answer() {	# FILE JQ-FILTER: the answer for FILE
	jq -r --arg f "$1" "select(.file == \$f) | $2" "$D/kbuild.json"
}
expect() {	# NAME FILE JQ-FILTER WANT
	got=$(answer "$2" "$3")
	[ "$got" = "$4" ] && r=ok || r=bad
	check "makeflags: $1" $r "$2: $3 is '$got', not '$4'"
}

kbuild CONFIG_FIXMK_BUS=y CONFIG_FIXMK=m CONFIG_FIXMK_MULTI=y
[ -s "$D/kbuild.json" ] && r=ok || r=bad
check "makeflags: polltax facts --kbuild answers" $r "$(tail -3 "$D/kbuild.err")"

# flags (scan)
expect "kbuild flags: fixmk.c has its ccflags-y, the last value of the variable" drivers/fixmk/fixmk.c \
	'[.flags[] | select(startswith("-DFIXMK_WAITQ") or endswith("fixmk/inc"))] | join(" ")' \
	"-I$T/drivers/fixmk/inc -DFIXMK_WAITQ=fixmk_wait"
expect "kbuild flags: sub/fixmk-sub.c has its parent's, which builds sub/fixmk-sub.o" drivers/fixmk/sub/fixmk-sub.c \
	'[.flags[] | select(startswith("-DFIXMK_WAITQ"))] | join(" ")' "-DFIXMK_WAITQ=fixmk_wait"
expect "kbuild flags: kb/fixmk-kb.c has Kbuild's, not the Makefile's" drivers/fixmk/kb/fixmk-kb.c \
	'[.flags[] | select(startswith("-DFIXMK_KB_QUEUE"))] | join(" ")' "-DFIXMK_KB_QUEUE=fixmk_kb_wait"

# is it built (series, verify)
for f in fixmk.c kb/fixmk-kb.c fixmk-core.c fixmk-tail.c; do
	expect "kbuild built: $f is built" "drivers/fixmk/$f" '.built' true
done
expect "kbuild built: a conditional part of a composite object is not, and says why" drivers/fixmk/fixmk-extra.c \
	'"\(.built) \(.built_why)"' "false CONFIG_FIXMK_MULTI_EXTRA is not set"
expect "kbuild built: sub/fixmk-sub.o, named by the parent only: cannot tell" drivers/fixmk/sub/fixmk-sub.c \
	'.built' null

# the Kconfig symbol and the line (boot-test)
expect "kbuild symbol: fixmk.c is FIXMK, from its Makefile's line" drivers/fixmk/fixmk.c \
	'"\(.symbol) \(.line)"' "FIXMK drivers/fixmk/Makefile:20: obj-\$(CONFIG_FIXMK)"
expect "kbuild symbol: kb/fixmk-kb.c is FIXMK, from the Kbuild file's line" drivers/fixmk/kb/fixmk-kb.c \
	'"\(.symbol) \(.line)"' "FIXMK drivers/fixmk/kb/Kbuild:4: obj-\$(CONFIG_FIXMK)"
expect "kbuild symbol: a composite's conditional part: the object's symbol and the part's" \
	drivers/fixmk/fixmk-extra.c '"\(.symbol) \(.symbol_cond) \(.line)"' \
	"FIXMK_MULTI FIXMK_MULTI_EXTRA drivers/fixmk/Makefile:28: fixmk-multi-\$(CONFIG_FIXMK_MULTI_EXTRA)"
expect "kbuild symbol: the last item of a list continued to the end of the file" drivers/fixmk/fixmk-tail.c \
	'"\(.symbol) \(.line)"' "FIXMK_MULTI drivers/fixmk/Makefile:29: fixmk-multi-y"

# the make target (verify)
expect "kbuild target: fixmk.c is built as its own object" drivers/fixmk/fixmk.c '.target' drivers/fixmk/fixmk.o
expect "kbuild target: kfd/kfd.c, whose Makefile has no obj- line, through its sibling" drivers/fixmk/kfd/kfd.c \
	'.target' drivers/fixmk/gpu/../kfd/kfd.o

# the bus off: nothing below drivers/fixmk is built
kbuild CONFIG_FIXMK=m CONFIG_FIXMK_MULTI=y
for f in fixmk.c kb/fixmk-kb.c; do
	expect "kbuild built: without the bus, $f is not built, and says why" "drivers/fixmk/$f" \
		'"\(.built) \(.built_why)"' "false CONFIG_FIXMK_BUS is not set"
done

echo "RESULT $passed $failed"
