#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tool/mk/reports-postings.sh - 'make reports-postings' (tool/mk/report.mk):
# the progress a maintainer will live, made with polltax's own commands.
#
# Scans, into one history: the base version (REPORT_BASE), the head
# version (REPORT_HEAD), then the head with each posting of its series
# applied in turn (posting 1, then 1 and 2, ...), each scan labelled
# "HEAD + K/N TOPIC" ('polltax scan --label').  The series is
# REPORT_SERIES (made by 'polltax series' when it has no series.json).
# The postings are applied with patch(1) to a hard-linked copy of the head
# tree, each file a patch touches first copied so that its link to the
# unpacked tree is broken: the tree in the cache is never written.  Every
# scan is dated by SOURCE_DATE_EPOCH (its tree's Makefile; the files a
# posting changes get that date plus K), so a re-run gives the same bytes.
# Writes $REPORTS/postings/history.json; 'make reports-html' draws it.
#
# Env (from tool/mk/report.mk): POLLTAX CACHE REPORTS REPORT_BASE REPORT_HEAD
# REPORT_WORK REPORT_SERIES REPORT_SIGNOFF JOBS.

set -eu

die() { echo "reports-postings: $*" >&2; exit 1; }

BASE_TREE=$CACHE/src/linux-source-$REPORT_BASE
HEAD_TREE=$CACHE/src/linux-source-$REPORT_HEAD
W=$REPORT_WORK/postings
T=$W/tree
[ -f "$BASE_TREE/Makefile" ] && [ -f "$HEAD_TREE/Makefile" ] || die "no unpacked trees in $CACHE/src"

if [ ! -f "$REPORT_SERIES/series.json" ]; then
	echo "reports-postings: making the series of $REPORT_HEAD into $REPORT_SERIES"
	"$POLLTAX" series -q --signoff "$REPORT_SIGNOFF" -o "$REPORT_SERIES" "$HEAD_TREE"
fi
S=$REPORT_SERIES/series.json
N=$(jq '.postings | length' "$S")
[ "$N" -gt 0 ] || die "$S lists no postings"

rm -rf "$W"
mkdir -p "$W"
# what series refused, recorded next to each scan of the head (refused.json, tool/SCHEMA.md)
jq '{ refused: [ .refused[] | { file, function, reason } ] }' "$S" >"$W/refused.json"

epoch_base=$(stat -c %Y "$BASE_TREE/Makefile")
epoch_head=$(stat -c %Y "$HEAD_TREE/Makefile")

scan() {	# EPOCH OUT TREE [LABEL]
	epoch=$1 out=$2 tree=$3
	shift 3
	t0=$(date +%s)
	SOURCE_DATE_EPOCH=$epoch "$POLLTAX" scan -q -j "$JOBS" --arch all ${1:+--label "$1"} -o "$out" "$tree"
	echo "reports-postings: scanned $(basename "$out") ${1:+($1) }in $(( $(date +%s) - t0 )) s"
}

scan "$epoch_base" "$W/scan-0-base" "$BASE_TREE"
mkdir -p "$W/scan-1-head"
cp "$W/scan-0-base/history.json" "$W/refused.json" "$W/scan-1-head/"
scan "$epoch_head" "$W/scan-1-head" "$HEAD_TREE"
v=$(jq -r .tree.version "$W/scan-1-head/polltax.json")
[ "$(jq -r .version "$S")" = "$v" ] || die "$S is a series of $(jq -r .version "$S"), not of $v"

echo "reports-postings: hard-linked copy of $HEAD_TREE in $T"
cp -al "$HEAD_TREE" "$T"
prev=$W/scan-1-head
k=1
while [ "$k" -le "$N" ]; do
	dir=$(jq -r ".postings[$k - 1].dir" "$S")
	# the topic: the infrastructure patch, and the first and last subject prefixes
	topic=$(jq -r ".postings[$k - 1].patches
		| ([ .[] | select(.section != \"\") | .subject | split(\": \")[0] ]) as \$p
		| [ (if any(.[]; .section == \"\") then \"infrastructure\" else empty end),
		    (if (\$p | length) == 0 then empty elif \$p[0] == \$p[-1] then \$p[0]
		     else \$p[0] + \"..\" + \$p[-1] end) ] | join(\", \")" "$S")
	for p in $(jq -r ".postings[$k - 1].patches[].file" "$S"); do
		f=$REPORT_SERIES/$dir/$p
		[ -f "$f" ] || die "no $f"
		for g in $(sed -n 's|^+++ b/||p; s|^--- a/||p' "$f" | sort -u); do
			# break the hard link before patch writes: the unpacked tree stays as it is
			[ -f "$T/$g" ] && cp -p "$T/$g" "$T/$g.polltax-new" && mv -f "$T/$g.polltax-new" "$T/$g"
		done
		patch -p1 -s -N --no-backup-if-mismatch -d "$T" <"$f" || die "$f does not apply"
		for g in $(sed -n 's|^+++ b/||p' "$f" | sort -u); do
			[ "$(stat -c %h "$T/$g")" = 1 ] || die "$T/$g is still linked to the unpacked tree"
			touch -d "@$((epoch_head + k))" "$T/$g"
		done
	done
	out=$W/scan-$((k + 1))-posting-$k
	mkdir -p "$out"
	cp "$prev/history.json" "$W/refused.json" "$out/"
	scan "$epoch_head" "$out" "$T" "$REPORT_HEAD + $k/$N $topic"
	prev=$out
	k=$((k + 1))
done

want=$(jq '[ .postings[].patches[].count ] | add' "$S")
got=$(jq '.counts.by_convertible.converted // 0' "$prev/polltax.json")
[ "$got" = "$want" ] || die "after the $N postings $got implementations are converted, the series converts $want"
echo "reports-postings: $got converted after the $N postings, the series' total"
mkdir -p "$REPORTS/postings"
cp "$prev/history.json" "$REPORTS/postings/history.json"
