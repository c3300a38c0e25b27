#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Suite (make check-linux): metamorphic soundness on a sample of the real
# tree (tests/metamorphic-lib.sh; tests/metamorphic.t.sh does it on the
# fixture tree).  Environment: POLLTAX, SRC, OUT, TOP (tests/check-linux.sh,
# whose scan wrote OUT/list.tsv).
#
# The sample: the files holding a 'yes' implementation in OUT/list.tsv,
# sorted, every Nth (about SAMPLE of them: 30).  For each, the functions
# its implementations rest on (themselves, every function named in their
# bodies, transitively; their creation sites, the writers of the file's
# fields and what those call) that are defined in a .c file: the sampled
# file, or another one a poll_table is handed to.  Header functions are not
# mutated here (a header's change parses again every file that includes
# it: minutes each); tests/metamorphic.t.sh mutates them on the fixtures.
# Each becomes a mutant, once: its body cut down to ';', on a copy of the
# tree made of hard links (cp -al: the tree is never written, a mutated
# file is replaced, not written through), scanned again with a copy of
# the check-linux scan's cache (only the mutated file is parsed again),
# against the scan of the unmutated copy:
#  - per sampled file: no mutant made one of the tree's implementations
#    more convertible (see tests/metamorphic-lib.sh);
#  - no implementation vanished, verdicts moved only toward unknown;
#  - every mutant parsed without a new error.
# About 150 mutants, 6-10 minutes on 2 cores (a mutant: one file parsed
# without a PCH, and the scan's walk of the tree).
# Prints TEST lines and "RESULT <passed> <failed>".

set -u
: "${POLLTAX:?}" "${SRC:?}" "${OUT:?}" "${TOP:?}"
. "$TOP/tests/lib.sh"
. "$TOP/tests/metamorphic-lib.sh"
SAMPLE=${METAMORPHIC_SAMPLE:-30}

"$TOP/tool/ensure-packages" jq >/dev/null || { echo "RESULT 0 1"; exit 0; }
D=$OUT/metamorphic
rm -rf "$D"
mkdir -p "$D"
start=$(date +%s)

if [ ! -s "$OUT/list.tsv" ]; then
	check "metamorphic: the scan's list ($OUT/list.tsv)" bad "missing: tests/check-linux.sh writes it"
	echo "RESULT $passed $failed"
	exit 0
fi

# the copy, and the check-linux scan's prepared build.  (Its cache would
# not serve the copy: the tree's path is in the flags, hence in the keys.
# The copy's first scan parses every file; then a mutant parses one.)
cp -al "$SRC" "$D/tree"
C=${XDG_CACHE_HOME:-$HOME/.cache}/polltax
build=
for b in "$C"/build/*; do
	[ -f "$b/.polltax-prepared" ] && [ "$(readlink -f "$b/source")" = "$(readlink -f "$SRC")" ] && build=$b
done
[ -n "$build" ] && set -- --build "$build" || echo "metamorphic: no prepared build of $SRC in $C/build: the copy prepares its own"

if ! XDG_CACHE_HOME=$D/cache "$POLLTAX" scan -q --no-cocci -j 2 "$@" -o "$D/base" "$D/tree" 2>"$D/base.err" ||
	! "$POLLTAX" list "$D/base" >"$D/base.tsv"; then
	check "metamorphic: scan of the unmutated copy" bad "$(tail -3 "$D/base.err")"
	echo "RESULT $passed $failed"
	exit 0
fi
echo "metamorphic: the copy scanned in $(( $(date +%s) - start )) s"

# the sample: every Nth file holding a 'yes'
awk -F '\t' '$6 == "yes" { print $1 }' "$OUT/list.tsv" | sort -u >"$D/yes-files"
nyes=$(wc -l <"$D/yes-files")
every=$(( (nyes + SAMPLE - 1) / SAMPLE ))
[ "$every" -ge 1 ] || every=1
awk -v n="$every" '(NR - 1) % n == 0' "$D/yes-files" >"$D/sample"

# the definitions: the sample, then the .c files their poll_tables go to
cp "$D/sample" "$D/indexed"
# shellcheck disable=SC2046
mm_index "$SRC" $(cat "$D/sample") >"$D/index"
for _ in 1 2; do
	awk -F '\t' '$1 == "call" && $3 ~ /\.c$/ { print $3 }' "$D/index" | sort -u |
		comm -23 - "$D/indexed" >"$D/more"
	[ -s "$D/more" ] || break
	# shellcheck disable=SC2046
	mm_index "$SRC" $(cat "$D/more") >>"$D/index"
	sort -u "$D/indexed" "$D/more" -o "$D/indexed"
done

: >"$D/all"
for rel in $(cat "$D/sample"); do
	c=$D/closure.$(printf '%s' "$rel" | tr '/' '_')
	mm_roots "$D/index" "$D/base.tsv" "$rel" callees >"$c.callees"
	mm_closure "$SRC" "$D/index" "$c.callees" | awk '{ print $0 "\tcallee" }' >"$c"
	mm_roots "$D/index" "$D/base.tsv" "$rel" >"$c.roots"
	mm_defs "$D/index" "$c.roots" |
		awk -F '\t' -v c="$c" 'BEGIN { while ((getline t < c) > 0) { split(t, a, "\t"); in_c[a[1], a[2]] = 1 } }
			!(($1, $2) in in_c) { print $0 "\topen-path" }' >>"$c"
	cat "$c" >>"$D/all"
done
sort -t '	' -k1,2 -k5,5 "$D/all" | awk -F '\t' '!seen[$1, $2]++' >"$D/mutants"
echo "metamorphic: $(wc -l <"$D/sample") files of $nyes with a 'yes' (every $every), $(wc -l <"$D/mutants") mutants" \
	"($(grep -c '	callee$' "$D/mutants") callees, $(grep -c '	open-path$' "$D/mutants") on open paths)"

mm_run "$SRC" "$D/tree" "$D/cache" "$D/out" "$D/mutants" "$D/base.tsv" "$D/index" "$D/log" -j 2 "$@"

mm_changes "$D/log" >"$D/changes"
for rel in $(cat "$D/sample"); do
	mm_file_check "$D/changes" "$rel" "$rel" "$D/closure.$(printf '%s' "$rel" | tr '/' '_')"
done
# shellcheck disable=SC2046
mm_summary "$D/log" "$D/changes" $(( $(date +%s) - start )) "the sample" $(cat "$D/sample")
rm -rf "$D/tree"

echo "RESULT $passed $failed"
