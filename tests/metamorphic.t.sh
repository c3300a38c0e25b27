#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Suite: metamorphic soundness (tests/metamorphic-lib.sh) on the fixture
# tree.  Every fact a 'yes' rests on must have been seen: hiding the body
# of a function may only move a verdict toward unknown, never toward yes.
#
# For each fixture driver (a .c file with a check-name: tag), the functions
# its implementations rest on ('polltax facts' gives their lines):
#  - callees: the implementations, and every function of the tree named in
#    the body of one of them, transitively (helpers, accessors the heads
#    are derived through, header inlines, helpers in other files);
#  - open-path: their creation sites, and the functions that assign
#    file->private_data or a field on the way to a head (open, ioctl,
#    open helpers), themselves only.
# Each such function, once, becomes a mutant: its body cut down to ';', on
# a copy of the tree, scanned again (--no-cocci, one cache kept across the
# mutants: only what the mutation touches is parsed again), and compared
# with the scan of the unmutated copy over every implementation of the tree.
#  - one TEST per fixture driver: no mutant made one of its implementations
#    more convertible (VIOLATION: tests/metamorphic-lib.sh);
#  - no implementation elsewhere more convertible, none vanished, verdicts
#    moved only toward unknown, none still convertible on other grounds,
#    every mutant parsed without a new error; the figures.
# About 225 mutants, a minute on 2 cores.  METAMORPHIC_SCOPE=callees: the
# callees alone.
# Env: POLLTAX, TOP, WORK (from tests/run.sh).

set -u
. "$TOP/tests/lib.sh"
. "$TOP/tests/metamorphic-lib.sh"

D=$WORK/metamorphic
T=$TOP/tests/fixtures/tree
rm -rf "$D"
mkdir -p "$D"
cp -Rp "$T" "$D/tree"	# -p: a file put back after its mutant is as it was
start=$(date +%s)

if ! XDG_CACHE_HOME=$D/cache "$POLLTAX" scan -q --no-cocci -j 2 -o "$D/base" "$D/tree" 2>"$D/base.err" ||
	! "$POLLTAX" list "$D/base" >"$D/base.tsv"; then
	check "metamorphic: scan of the unmutated copy" bad "$(tail -3 "$D/base.err")"
	echo "RESULT $passed $failed"
	exit 0
fi

(cd "$T" && find . -name '*.[ch]' | sed 's|^\./||' | sort) >"$D/files"
# shellcheck disable=SC2046
mm_index "$T" $(cat "$D/files") >"$D/index"

# each fixture driver's functions: the closure of its implementations
# (callees), then their creation sites and the writers of the fields their
# heads hang off (open-path; not what those call); every function of them
# a mutant, once.  METAMORPHIC_SCOPE=callees: the callees alone.
scope=${METAMORPHIC_SCOPE:-all}
drivers=$(cd "$T" && grep -rl 'check-name:' --include='*.c' . | sed 's|^\./||' | sort)
: >"$D/all"
for rel in $drivers; do
	c=$D/closure.$(printf '%s' "$rel" | tr '/' '_')
	mm_roots "$D/index" "$D/base.tsv" "$rel" callees >"$c.callees"
	mm_closure "$T" "$D/index" "$c.callees" | awk '{ print $0 "\tcallee" }' >"$c"
	if [ "$scope" != callees ]; then
		mm_roots "$D/index" "$D/base.tsv" "$rel" >"$c.roots"
		mm_defs "$D/index" "$c.roots" |
			awk -F '\t' -v c="$c" 'BEGIN { while ((getline t < c) > 0) { split(t, a, "\t"); in_c[a[1], a[2]] = 1 } }
				!(($1, $2) in in_c) { print $0 "\topen-path" }' >>"$c"
	fi
	cat "$c" >>"$D/all"
done
# a function both a callee (of a file) and on an open path (of another) is a callee
sort -t '	' -k1,2 -k5,5 "$D/all" | awk -F '\t' '!seen[$1, $2]++' >"$D/mutants"

mm_run "$T" "$D/tree" "$D/cache" "$D/out" "$D/mutants" "$D/base.tsv" "$D/index" "$D/log" -j 2

mm_changes "$D/log" >"$D/changes"
for rel in $drivers; do
	name=$(sed -n 's/^[ */]*check-name:[ ]*//p' "$T/$rel" | head -n 1)
	mm_file_check "$D/changes" "$rel" "$name ($rel)" "$D/closure.$(printf '%s' "$rel" | tr '/' '_')"
done
# shellcheck disable=SC2086
mm_summary "$D/log" "$D/changes" $(( $(date +%s) - start )) "the fixture drivers" $drivers

echo "RESULT $passed $failed"
