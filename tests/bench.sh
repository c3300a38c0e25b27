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
#   scan touched  one candidate file's mtime changed (a scratch copy of the tree)
#   cocci only    cocci/classify.cocci alone over the same files, same -j
# with the peak memory (max RSS of the largest process) of each.  Writes
# OUT/bench.md and prints it.

set -eu
POLLTAX=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
KERNEL=$(cd "$2" && pwd)
JOBS=$3
OUT=$4
TOP=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$OUT"
W=$(mktemp -d "$OUT/bench.XXXXXX")
trap 'rm -rf "$W"' EXIT

# one prepare, shared by every measurement
"$POLLTAX" scan -q --no-cocci -j "$JOBS" -o "$W/prep" "$KERNEL" >/dev/null 2>&1 || true
BUILDDIR=$(ls -d "${XDG_CACHE_HOME:-$HOME/.cache}"/polltax/build/"$(basename "$KERNEL")"-*-allmodconfig 2>/dev/null | head -n 1)

measure() {	# NAME CMD...: seconds and peak KiB into $W/NAME
	name=$1; shift
	/usr/bin/time -f '%e %M' -o "$W/$name.time" "$@" >"$W/$name.log" 2>&1 || { echo "bench: $name failed:"; tail -5 "$W/$name.log"; exit 1; }
}

export XDG_CACHE_HOME="$W/cache"
measure floor "$POLLTAX" parse-floor -j "$JOBS" --build "$BUILDDIR" "$KERNEL"
measure cold "$POLLTAX" scan -q --no-cocci -j "$JOBS" --build "$BUILDDIR" -o "$W/out" "$KERNEL"
measure warm "$POLLTAX" scan -q --no-cocci -j "$JOBS" --build "$BUILDDIR" -o "$W/out" "$KERNEL"
one=$(awk -F, 'NR == 2 { print $1 }' "$W/out/polltax.csv")
touch "$KERNEL/$one"
measure touched "$POLLTAX" scan -q --no-cocci -j "$JOBS" --build "$BUILDDIR" -o "$W/out" "$KERNEL"
"$POLLTAX" parse-floor --list --build "$BUILDDIR" "$KERNEL" | awk '{ print; print "" }' >"$W/groups"
cd "$KERNEL"
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
