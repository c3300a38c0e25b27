#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Suite: the convert stage on Coccinelle-style pairs in
# tests/fixtures/convert/: NAME.c (a small driver on the fixture tree's
# headers) and NAME.res (the expected result, byte for byte).  All the
# cases go into one small tree (the fixture's include/ plus the cases in
# drivers/convert/), which is scanned once and converted once with
# "polltax convert"; then, per case:
#   - the file after the conversion must equal NAME.res;
#   - it must compile with gcc -Werror and be silent under sparse (the
#     fixture's compile_flags.txt);
#   - its "check-convert: FUNC converted" / "check-convert: FUNC refused:
#     TEXT" tags must hold (TEXT is part of the reason polltax gives).
# A case whose .res equals its .c is one the conversion must refuse.
#
# Environment: POLLTAX, TOP, WORK (as tests/run.sh sets them).
#   sh tests/convert.t.sh            run every case
#   sh tests/convert.t.sh format     rewrite every NAME.res from today's
#                                    output (review with git diff)
# Prints TEST lines and ends with "RESULT <passed> <failed>".

set -u
: "${POLLTAX:?}" "${TOP:?}" "${WORK:?}"
CASES=$TOP/tests/fixtures/convert
FIX=$TOP/tests/fixtures/tree
T=$WORK/convert
mode=${1:-run}
passed=0
failed=0

pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); printf '  FAIL: %s\n' "$1"; }

rm -rf "$T"
mkdir -p "$T/tree/drivers/convert" "$T/out"
cp -R "$FIX/include" "$FIX/compile_flags.txt" "$FIX/Makefile" "$T/tree/"
# the library methods the drivers name (.llseek = noop_llseek): a head is fixed only once every method was seen
mkdir -p "$T/tree/fs" && cp "$FIX/fs/read_write.c" "$FIX/fs/open.c" "$FIX/fs/libfs.c" "$T/tree/fs/"
cp "$CASES"/*.c "$T/tree/drivers/convert/"
cp -R "$T/tree/." "$T/out/"

if ! "$POLLTAX" scan -q --no-cocci -j 2 -o "$T/scan" "$T/tree" 2>"$T/scan.err"; then
	echo "TEST convert: scan of the cases"
	fail "polltax scan failed: $(cat "$T/scan.err")"
	echo "RESULT $passed $failed"
	exit 0
fi
"$POLLTAX" convert --scan "$T/scan" -o "$T" "$T/tree" 2>"$T/convert.err"
rc=$?
echo "TEST convert: polltax convert runs"
if [ $rc -ne 0 ]; then
	fail "polltax convert exited $rc: $(cat "$T/convert.err")"
else
	pass
fi
echo "TEST convert: the diff applies"
if (cd "$T/out" && patch -s -p1 <"$T/convert.diff"); then
	pass
else
	fail "patch -p1 failed on $T/convert.diff"
fi

flags=$(cat "$FIX/compile_flags.txt")
for c in "$CASES"/*.c; do
	name=$(basename "$c" .c)
	got=$T/out/drivers/convert/$name.c
	if [ "$mode" = format ]; then
		cp "$got" "$CASES/$name.res"
		echo "wrote $name.res"
		continue
	fi
	echo "TEST convert: $name"
	errs=
	if [ ! -f "$CASES/$name.res" ]; then
		errs="no $name.res (sh tests/convert.t.sh format)"
	elif ! cmp -s "$CASES/$name.res" "$got"; then
		errs="differs from $name.res:
$(diff -u "$CASES/$name.res" "$got" | sed -n '3,40p')"
	fi
	# shellcheck disable=SC2086
	out=$(cd "$T/out" && gcc -std=gnu11 -Wall -Wextra -Wno-unused-parameter -Werror -fsyntax-only $flags \
		"drivers/convert/$name.c" 2>&1 && sparse $flags "drivers/convert/$name.c" 2>&1)
	[ -z "$out" ] || errs="$errs${errs:+
}does not compile cleanly: $out"
	tags=$(sed -n 's/^[ */]*check-convert:[ ]*//p' "$c")
	while [ -n "$tags" ] && IFS= read -r tag; do
		fn=${tag%% *}
		want=${tag#* }
		case $want in
		converted)
			grep -q "$fn(): not converted" "$T/convert.err" &&
				errs="$errs${errs:+
}$fn was refused: $(grep "$fn(): not converted" "$T/convert.err")"
			grep -q "${fn}_mask\|$(echo "$fn" | sed 's/_poll_/_poll_mask_/')" "$got" ||
				errs="$errs${errs:+
}$fn was not converted"
			;;
		refused:*)
			text=${want#refused: }
			grep "$fn(): not converted" "$T/convert.err" | grep -qF "$text" ||
				errs="$errs${errs:+
}$fn: no refusal containing \"$text\" (got: $(grep "$fn()" "$T/convert.err"))"
			;;
		esac
	done <<EOT
$tags
EOT
	if [ -n "$errs" ]; then
		fail "$name"
		printf '%s\n' "$errs" | sed 's/^/    /'
	else
		pass
	fi
done
echo "RESULT $passed $failed"
