#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# check-linux step: "polltax series" and "polltax verify" on the real tree
# (issue 3).  Needs the infrastructure patch kernel-patches/V/0001-*.patch
# for the tree's VERSION.PATCHLEVEL; without it the step says so and is
# skipped.  Checks:
#   - series converts at least MIN_CONVERTED implementations (100: the
#     issue's bar, which polltax reaches on 6.12; the cover letter lists
#     every refusal);
#   - no posting has more than 15 patches;
#   - verify: every patch applies with git am, its objects build with
#     allmodconfig, sparse adds no warning, checkpatch --strict has no
#     error and no warning.
# Environment (from tests/check-linux.sh): POLLTAX, SRC, OUT, TOP.
# Prints TEST lines and "RESULT <passed> <failed>".

set -u
: "${POLLTAX:?}" "${SRC:?}" "${OUT:?}" "${TOP:?}"
MIN_CONVERTED=${MIN_CONVERTED:-100}
passed=0
failed=0
check() {
	printf 'TEST %s\n' "$1"
	if [ "$2" = ok ]; then passed=$((passed + 1)); else failed=$((failed + 1)); printf '  FAIL: %s\n' "$3"; fi
}

v=$(sed -n 's/^VERSION = //p' "$SRC/Makefile" | head -n 1).$(sed -n 's/^PATCHLEVEL = //p' "$SRC/Makefile" | head -n 1)
infra=$(ls "$TOP"/kernel-patches/"$v"/0001-*.patch 2>/dev/null | head -n 1)
if [ -z "$infra" ]; then
	echo "check-linux: no kernel-patches/$v/0001-*.patch: series and verify skipped"
	echo "RESULT $passed $failed"
	exit 0
fi

S=$OUT/series
start=$(date +%s)
"$POLLTAX" series --scan "$OUT" --signoff "polltax check-linux <check-linux@polltax.invalid>" -o "$S" "$SRC" \
	2>"$OUT/series.log"
rc=$?
echo "check-linux: series took $(( $(date +%s) - start )) s"
tail -n 1 "$OUT/series.log"
[ $rc -eq 0 ] && r=ok || r=bad
check "series: runs on linux-$v" $r "exit $rc: $(tail -n 5 "$OUT/series.log")"

conv=$(sed -n 's/^\([0-9]*\) implementations converted in .*/\1/p' "$S/README.md" 2>/dev/null)
[ "${conv:-0}" -ge "$MIN_CONVERTED" ] && r=ok || r=bad
check "series: at least $MIN_CONVERTED implementations converted (${conv:-0})" $r "only ${conv:-0}"

r=ok
for d in "$S" "$S"/posting-*; do
	[ -d "$d" ] || continue
	n=$(ls "$d"/0*.patch 2>/dev/null | grep -cv 0000-cover-letter)
	[ "$n" -le 15 ] || r=bad
done
check "series: at most 15 patches per posting" $r "a posting has more than 15 patches"

start=$(date +%s)
"$POLLTAX" verify -o "$OUT/verify.md" "$S" "$SRC" >"$OUT/verify.out" 2>"$OUT/verify.log"
rc=$?
echo "check-linux: verify took $(( $(date +%s) - start )) s"
cat "$OUT/verify.out"
[ $rc -eq 0 ] && r=ok || r=bad
check "verify: git am, allmodconfig build, sparse, checkpatch --strict on every patch" $r \
	"exit $rc: $(grep 'FAIL' "$OUT/verify.out" | head -n 5)"

echo "RESULT $passed $failed"
