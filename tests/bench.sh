#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tests/bench.sh POLLTAX KERNEL_DIR JOBS OUT
#
# `make bench`: the scan against the alternatives on the same files, as
# ratios, on a tree whose flags are prepared (the prepared build directory
# is reused, the fact cache is not):
#   parse floor   libclang parses the same translation units, nothing else
#   scan cold     polltax scan --no-cocci with an empty fact cache
#   scan warm     nothing changed
#   scan touched  one candidate file's contents changed (a comment added)
#   cocci only    cocci/classify.cocci alone over the same files, same -j
# with the peak memory (max RSS of the largest process) of each.  Writes
# OUT/bench.md and prints it.
#
# Everything runs on a scratch copy of the tree made of hard links (cp -al:
# seconds, no data copied), so that one file can be changed without writing
# to KERNEL_DIR: the changed file is a new file renamed over its link.

set -eu
POLLTAX=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
KERNEL=$(cd "$2" && pwd)
JOBS=$3
OUT=$4
TOP=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$OUT"
W=$(mktemp -d "$OUT/bench.XXXXXX")
trap 'rm -rf "$W"' EXIT

# the scratch copy, then one prepare shared by every measurement
TREE=$W/$(basename "$KERNEL")
cp -al "$KERNEL" "$TREE"
"$POLLTAX" scan -q --no-cocci -j "$JOBS" -o "$W/prep" "$TREE" >/dev/null 2>&1 || true
BUILDDIR=$(ls -d "${XDG_CACHE_HOME:-$HOME/.cache}"/polltax/build/"$(basename "$KERNEL")"-*-allmodconfig 2>/dev/null |
	while read -r d; do [ "$(readlink -f "$d/source" 2>/dev/null)" = "$TREE" ] && echo "$d"; done | head -n 1)
[ -n "$BUILDDIR" ] || { echo "bench: no prepared build directory for $TREE"; exit 1; }

measure() {	# NAME CMD...: seconds and peak KiB into $W/NAME
	name=$1; shift
	/usr/bin/time -f '%e %M' -o "$W/$name.time" "$@" >"$W/$name.log" 2>&1 || { echo "bench: $name failed:"; tail -5 "$W/$name.log"; exit 1; }
}

export XDG_CACHE_HOME="$W/cache"
measure floor "$POLLTAX" parse-floor -j "$JOBS" --build "$BUILDDIR" "$TREE"
measure cold "$POLLTAX" scan -q --no-cocci -j "$JOBS" --build "$BUILDDIR" -o "$W/out" "$TREE"
measure warm "$POLLTAX" scan -q --no-cocci -j "$JOBS" --build "$BUILDDIR" -o "$W/out" "$TREE"
one=$("$POLLTAX" list "$W/out" | awk -F '\t' '$6 == "yes" { print $1; exit }')
{ cat "$TREE/$one"; echo "/* polltax bench */"; } >"$TREE/$one.new" && mv "$TREE/$one.new" "$TREE/$one"
measure touched "$POLLTAX" scan -q --no-cocci -j "$JOBS" --build "$BUILDDIR" -o "$W/out" "$TREE"
"$POLLTAX" parse-floor --list --build "$BUILDDIR" "$TREE" | awk '{ print; print "" }' >"$W/groups"
cd "$TREE"
measure cocci spatch --sp-file "$TOP/cocci/classify.cocci" -D facts --very-quiet --no-show-diff \
	--no-includes --ifdef-to-if --macro-file "$TOP/cocci/classify-macros.h" --timeout 60 \
	--jobs "$JOBS" --chunksize 1 --file-groups "$W/groups"

sec() { cut -d' ' -f1 "$W/$1.time"; }
mib() { awk '{ printf "%.0f", $2 / 1024 }' "$W/$1.time"; }
ratio() { awk -v a="$(sec "$1")" -v b="$(sec "$2")" 'BEGIN { printf "%.2f", a / b }'; }
{
	echo "| run | seconds | peak MiB | ratio |"
	echo "|---|---:|---:|---|"
	echo "| parse floor (libclang only) | $(sec floor) | $(mib floor) | 1.00 |"
	echo "| polltax scan, cold | $(sec cold) | $(mib cold) | $(ratio cold floor) x floor |"
	echo "| polltax scan, warm (nothing changed) | $(sec warm) | $(mib warm) | $(ratio warm cold) x cold |"
	echo "| polltax scan, one file touched | $(sec touched) | $(mib touched) | $(ratio touched cold) x cold |"
	echo "| Coccinelle only (classify.cocci) | $(sec cocci) | $(mib cocci) | $(ratio cold cocci): scan cold / cocci |"
	echo
	echo "$(uname -m), $(nproc) CPUs, -j $JOBS, $(basename "$KERNEL"), $(date -u +%Y-%m-%d)"
} >"$OUT/bench.md"
cat "$OUT/bench.md"
