#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# check-linux step: "polltax series" and "polltax verify" on the real tree
# (issue 3).  The infrastructure patch is the one polltax makes for the tree
# (issue 19).  Checks:
#   - on linux-source-6.12 (6.12.118), that patch makes the changes of the
#     hand-written patch it replaced, verified in its day (kernel-patches/
#     MEASUREMENTS.md): its diff, index lines aside, has the sha256 below;
#     the one difference from the hand-written patch is a kernel-doc line
#     of anon_inode_create_getfd_poll() filled to 80 columns (the
#     hand-written one broke a word earlier).  A change of the generator or
#     its templates that changes the patch must update INFRA_SHA256_6_12_118 after
#     verify and the boot test have passed with it;
#   - series converts at least MIN_CONVERTED implementations (100: the
#     issue's bar, which polltax reaches on 6.12; the cover letter lists
#     every refusal);
#   - no posting has more than 15 patches;
#   - the files only another architecture builds (the scan's --arch) are
#     converted, their patches say ARCH=, and verify builds them with
#     that architecture's cross compiler;
#   - verify: every patch applies with git am, its objects build with
#     allmodconfig, sparse adds no warning, checkpatch --strict has no
#     error and no warning (not with VERIFY=0: check-linux's base
#     version within the CI time, which 'make check-linux-base' runs in
#     full).
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
full=$v.$(sed -n 's/^SUBLEVEL = //p' "$SRC/Makefile" | head -n 1)
INFRA_SHA256_6_12_118=37d7df7dc47d1781efbfa0b7d4647d0aafb285616395d80a80c3f0f885036241

"$POLLTAX" infra -q -o "$OUT/infra" "$SRC" >"$OUT/infra.out" 2>"$OUT/infra.log"
rc=$?
[ $rc -eq 0 ] && [ -s "$OUT/infra.out" ] && r=ok || r=bad
check "infra: the infrastructure patch made for linux-$full" $r "exit $rc: $(cat "$OUT/infra.log")"
if [ "$full" = 6.12.118 ] && [ $r = ok ]; then
	sum=$(sed -n '/^diff --git/,/^-- $/p' "$(cat "$OUT/infra.out")" | grep -v '^index ' | sha256sum | cut -d ' ' -f 1)
	[ "$sum" = "$INFRA_SHA256_6_12_118" ] && r=ok || r=bad
	check "infra: on 6.12.118, the changes that were verified (sha256 of the diff)" $r \
		"sha256 $sum, expected $INFRA_SHA256_6_12_118: see the comment at the top of tests/linux/series.t.sh"
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
[ "$(jq -r .infra "$S/series.json" 2>/dev/null)" = 0001-fs-add-f_poll_head-and-poll_mask.patch ] && r=ok || r=bad
check "series: its first patch is the infrastructure patch made for the tree" $r "$(jq .infra "$S/series.json" 2>&1)"

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

# the scan was made with --arch all (tests/check-linux.sh): a file only
# another architecture builds is converted, and its commit message says
# how it was build-tested (make ARCH=... CROSS_COMPILE=...)
# (the patch of each: the one whose conversions include it; a user of a
# header's ops macro is named in the patch that changes the macro)
jq -r '[.postings[] | (.dir // "") as $d | .patches[] | {path: (if $d == "" then .file else $d + "/" + .file end),
	fns: [.functions[]? | "\(.file):\(.function)"]}] as $P
	| .converted[] | "\(.file):\(.function)" as $k | ((.arch_built // []) + (.built_alone // []))[]
	| select(.arch != "x86") | . as $a | ($P[] | select(.fns | index($k)) | .path) + " " + $a.file + " " + $a.arch' \
	"$S/series.json" 2>/dev/null | sort -u >"$OUT/series-arch.txt"
narch=$(awk '{ print $2 }' "$OUT/series-arch.txt" | sort -u | wc -l)
miss=
while read -r p f a; do
	# the commit message is wrapped for the mail: "make ARCH=x" may end a line
	tr '\n' ' ' <"$S/$p" | grep -q "ARCH=$a CROSS_COMPILE=" && tr '\n' ' ' <"$S/$p" | grep -qF "$f" ||
		miss="$miss $f"
done <"$OUT/series-arch.txt"
[ "$narch" -gt 0 ] && [ -z "$miss" ] && r=ok || r=bad
check "series: $narch files only another architecture builds are converted, their patches say ARCH=" $r \
	"$narch such files; no ARCH= in the patch of:$miss"

refused=$(sed -n 's/.*; \([0-9]*\) refused by the conversion.*/\1/p' "$S/README.md" 2>/dev/null)
echo "check-linux: linux-$full: ${conv:-0} implementations converted, ${refused:-?} refused (see $S/0000-cover-letter.patch)"
if [ "${VERIFY:-1}" = 0 ]; then
	echo "RESULT $passed $failed"
	exit 0
fi
start=$(date +%s)
"$POLLTAX" verify -o "$OUT" "$S" "$SRC" >"$OUT/verify.out" 2>"$OUT/verify.log"
rc=$?
echo "check-linux: verify took $(( $(date +%s) - start )) s"
cat "$OUT/verify.out"
[ $rc -eq 0 ] && r=ok || r=bad
check "verify: git am, allmodconfig build, sparse, checkpatch --strict on every patch" $r \
	"exit $rc: $(grep 'FAIL' "$OUT/verify.out" | head -n 5)"
nx=$(grep -c '(ARCH=[a-z0-9,]*)' "$OUT/verify.out")
[ "$nx" -gt 0 ] && grep -q 'and for the files only they build, ARCH=' "$OUT/verify.out" && r=ok || r=bad
check "verify: $nx patches built (also) with another architecture's cross compiler" $r \
	"no patch built with ARCH=: $(tail -n 1 "$OUT/verify.out")"

echo "RESULT $passed $failed"
