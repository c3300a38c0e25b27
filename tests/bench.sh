#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tests/bench.sh POLLTAX KERNEL_DIR JOBS OUT
#
# `make bench`: the scan against the alternatives on the same files, as
# ratios, on a tree whose flags are prepared (the prepared build directory
# is reused, the fact cache is not):
#   parse floor        libclang parses the same translation units with the
#                      same flags, precompiled headers and worker processes
#                      (the candidates, and the files a scan follows beyond
#                      them: parse-floor --scan of a first scan, which is not
#                      measured), and does nothing else (polltax parse-floor; its own
#                      count of the parse, PCH builds included: the process
#                      also finds and reads the files, which is not parsing)
#   parse, no PCH      the same, each file parsed on its own (--no-pch)
#   scan cold          polltax scan --no-cocci with an empty cache (no facts,
#                      no prefilter), the whole process
#   scan warm          nothing changed
#   scan touched       one candidate file's contents changed (a comment added)
#   cocci only         cocci/classify.cocci alone over the same files, same -j,
#                      as the scan runs it (--no-includes: no header read)
#   cocci, includes    the same reading each file's own #includes
#                      (--all-includes), closer to what the scan sees
# The floor, the cold scan and Coccinelle only run in rounds, in turn
# (floor, cold, cocci, floor, cold, cocci, ...; BENCH_ROUNDS, default 3),
# and the median time of each is kept, with its peak: on a shared machine
# times move by 10% to 40% within minutes, a median is not one lucky or
# unlucky run, and each contender gets the same chances.  Each round's
# own ratio of the cold scan to Coccinelle is listed too.  A run's peak
# memory is the largest sum of the resident sizes of all its processes,
# sampled every 0.2 s (shared pages counted in each process, so an upper
# bound).  Writes OUT/bench.md and prints it.
#
# Then the stages after the scan (BENCH_STAGES, default "series verify";
# "" for the scan alone), each beside its floor, in one run:
#   series cold        polltax series --scan (the scan above) with no work
#                      directory in the cache (the tree imported anew)
#   series warm        the same again, nothing changed
#   series floor       what any series of these conversions costs: the two
#                      conversion rules (cocci/poll_mask.cocci,
#                      cocci/f_poll_head.cocci) run once over the files the
#                      series converts (same -j), git format-patch of its
#                      commits, and get_maintainer.pl once per patch (-j
#                      at a time)
#   verify cold        polltax verify of that series, its build directory
#                      configured (allmodconfig) and nothing built yet
#   verify floor       the objects the series touches built once with
#                      sparse (make O= C=2, same -j) on the patched tree,
#                      from the same configured state, and checkpatch.pl
#                      --strict once per patch (-j at a time)
#
# Everything runs on a scratch copy of the tree made of hard links (cp -al:
# seconds, no data copied), so that one file can be changed without writing
# to KERNEL_DIR: the changed file is a new file renamed over its link.

set -eu
POLLTAX=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
KERNEL=$(cd "$2" && pwd)
JOBS=$3
OUT=$4
ROUNDS=${BENCH_ROUNDS:-3}
TOP=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)	# the Coccinelle runs work from inside the tree
W=$(mktemp -d "$OUT/bench.XXXXXX")
trap 'rm -rf "$W"' EXIT

# the scratch copy, then one prepare (make allmodconfig prepare) in the
# scratch directory, shared by every measurement
TREE=$W/$(basename "$KERNEL")
BUILDDIR=$W/build
cp -al "$KERNEL" "$TREE"
echo "bench: preparing the flags of $TREE (make allmodconfig prepare)"
"$POLLTAX" parse-floor --list --build "$BUILDDIR" "$TREE" >"$W/files"
awk '{ print; print "" }' "$W/files" >"$W/groups"
sync	# the copy's and the prepare's writes are not the measurements'

measure() {	# NAME CMD...: seconds and peak KiB into $W/NAME.time
	name=$1; shift
	t0=$(date +%s.%N)
	setsid "$@" >"$W/$name.log" 2>&1 &
	pid=$!
	peak=0
	while kill -0 "$pid" 2>/dev/null; do
		kb=$(ps -o rss= -s "$pid" 2>/dev/null | awk '{ s += $1 } END { print s + 0 }')
		[ "$kb" -gt "$peak" ] && peak=$kb
		sleep 0.2
	done
	wait "$pid" || { echo "bench: $name failed:"; tail -5 "$W/$name.log"; exit 1; }
	echo "$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }') $peak" >"$W/$name.time"
}

parse_only() {	# NAME: a parse-floor run's time is its own count of the parse ("N files parsed in S s")
	awk 'NR == FNR { if ($3 == "parsed" && $4 == "in") s = $5; next } s != "" { print s, $2 }' \
		"$W/$1.log" "$W/$1.time" >"$W/$1.t"
	[ -s "$W/$1.t" ] || { echo "bench: $1 did not say how long it parsed:"; tail -3 "$W/$1.log"; exit 1; }
	mv "$W/$1.t" "$W/$1.time"
}

export XDG_CACHE_HOME="$W/cache"
# the files the scan follows beyond the candidates, for the floor (not measured)
"$POLLTAX" scan -q --no-cocci -j "$JOBS" --build "$BUILDDIR" -o "$W/first" "$TREE" >/dev/null
load=$(cut -d' ' -f1-3 /proc/loadavg)
cd "$TREE"	# the Coccinelle runs work from inside the tree (every other path is absolute)
set -- --sp-file "$TOP/cocci/classify.cocci" -D facts --very-quiet --no-show-diff --ifdef-to-if \
	--macro-file "$TOP/cocci/classify-macros.h" --timeout 60 --jobs "$JOBS" --chunksize 1 --file-groups "$W/groups"
# the floor, the cold scan and Coccinelle alone, in rounds, in turn: the
# median of each (times move by 10% to 40% on a shared machine)
for round in $(seq 1 "$ROUNDS"); do
	rm -rf "$XDG_CACHE_HOME/polltax"	# facts, prefilter: all of the cache (the build is --build)
	measure floor$round "$POLLTAX" parse-floor -j "$JOBS" --build "$BUILDDIR" --scan "$W/first" "$TREE"
	parse_only floor$round
	rm -rf "$XDG_CACHE_HOME/polltax"
	measure cold$round "$POLLTAX" scan -q --no-cocci -j "$JOBS" --build "$BUILDDIR" -o "$W/out" "$TREE"
	measure cocci$round spatch "$@" --no-includes
done
for r in floor cold cocci; do
	for round in $(seq 1 "$ROUNDS"); do cat "$W/$r$round.time"; done |
		sort -n | sed -n "$(((ROUNDS + 1) / 2))p" >"$W/$r.time"
done
rounds() {	# NAME: its times, round by round ("32.1, 33.0 and 31.9 s")
	for round in $(seq 1 "$ROUNDS"); do cut -d' ' -f1 "$W/$1$round.time"; done |
		awk '{ t[NR] = $1 } END { for (i = 1; i <= NR; i++) printf "%s%s", t[i], i == NR ? " s" : i == NR - 1 ? " and " : ", " }'
}
measure floor_nopch "$POLLTAX" parse-floor --no-pch -j "$JOBS" --build "$BUILDDIR" --scan "$W/first" "$TREE"
parse_only floor_nopch
measure warm "$POLLTAX" scan -q --no-cocci -j "$JOBS" --build "$BUILDDIR" -o "$W/out" "$TREE"
one=$("$POLLTAX" list "$W/out" | awk -F '\t' '$6 == "yes" { print $1; exit }')
{ cat "$TREE/$one"; echo "/* polltax bench */"; } >"$TREE/$one.new" && mv "$TREE/$one.new" "$TREE/$one"
measure touched "$POLLTAX" scan -q --no-cocci -j "$JOBS" --build "$BUILDDIR" -o "$W/out" "$TREE"
measure cocci_inc spatch "$@" --all-includes -I include -I arch/x86/include -I "$BUILDDIR/arch/x86/include/generated" \
	-I include/uapi -I arch/x86/include/uapi -I "$BUILDDIR/arch/x86/include/generated/uapi" -I "$BUILDDIR/include"

STAGES=${BENCH_STAGES-series verify}
has_stage() { case " $STAGES " in *" $1 "*) return 0 ;; esac; return 1; }
sum_times() {	# OUT NAME...: the sum of the seconds, the largest peak
	o=$1; shift
	for n in "$@"; do cat "$W/$n.time"; done |
		awk '{ s += $1; if ($2 > p) p = $2 } END { printf "%.2f %d\n", s, p }' >"$W/$o.time"
}
if has_stage series || has_stage verify; then
	SIGN="polltax bench <bench@polltax.invalid>"
	rm -rf "$XDG_CACHE_HOME/polltax/work"
	measure series_cold "$POLLTAX" series -q --scan "$W/out" --signoff "$SIGN" -o "$W/series" "$TREE"
	measure series_warm "$POLLTAX" series -q --scan "$W/out" --signoff "$SIGN" -o "$W/series2" "$TREE"
	jq -r '.converted[] | select(.ok) | (.files[], (.sites[]?.file // empty))' "$W/series/series.json" |
		sort -u >"$W/conv_files"
	SWORK=$(ls -d "$XDG_CACHE_HOME"/polltax/work/*/series | head -1)
	ls "$W"/series/posting-*/*.patch | grep -v '/0000-' >"$W/patches"
	nconv=$(jq '[.converted[] | select(.ok)] | length' "$W/series/series.json")
	npatch=$(wc -l <"$W/patches")
fi
if has_stage series; then
	# shellcheck disable=SC2046
	measure floor_rule1 spatch --sp-file "$TOP/cocci/poll_mask.cocci" -D patch -D fn=polltax_bench_none \
		-D mask_fn=polltax_bench_mask -D ev=events --no-includes --keep-comments --very-quiet \
		--jobs "$JOBS" $(cat "$W/conv_files")
	# shellcheck disable=SC2046
	measure floor_rule2 spatch --sp-file "$TOP/cocci/f_poll_head.cocci" -D anchor_first \
		-D site=polltax_bench_none -D head=polltax_bench_head -D filevar=file --no-includes \
		--keep-comments --very-quiet --jobs "$JOBS" $(cat "$W/conv_files")
	rm -rf "$W/fp"
	measure floor_fp git -C "$SWORK" format-patch -q -o "$W/fp" refs/polltax/pristine..HEAD
	measure floor_gm sh -c 'cd "$1" && PERL_HASH_SEED=0 PERL_PERTURB_KEYS=0 xargs -P "$2" -I{} \
		perl scripts/get_maintainer.pl --nogit --nogit-fallback {} <"$3" >/dev/null' sh "$SWORK" "$JOBS" "$W/patches"
	sum_times series_floor floor_rule1 floor_rule2 floor_fp floor_gm
fi
if has_stage verify; then
	VB=$W/verify-floor-build
	VWORK=$(dirname "$SWORK")
	# verify's own build directory and the floor's, configured and nothing
	# built (the state a cold run meets); verify's marker says which
	# configuration it holds.  The other architectures' (a file only they
	# build) verify configures itself, inside its time.
	echo "bench: configuring the verify builds (make allmodconfig, not measured)"
	rm -rf "$VWORK/build-allmodconfig" "$VB"
	for b in "$VWORK/build-allmodconfig" "$VB"; do
		mkdir -p "$b" && make -s -C "$SWORK" O="$b" allmodconfig >/dev/null
	done
	echo allmodconfig >"$VWORK/build-allmodconfig/.polltax-config"
	measure verify_cold "$POLLTAX" verify -q -j "$JOBS" "$W/series" "$TREE"
	objs=$(git -C "$SWORK" diff --name-only refs/polltax/pristine HEAD -- '*.c' | sed 's/\.c$/.o/' | tr '\n' ' ')
	# (-k, and its status not taken: an object only a file's own make builds is verify's to say)
	# shellcheck disable=SC2086
	measure floor_build sh -c 'd=$1 b=$2 j=$3; shift 3; make -s -C "$d" O="$b" C=2 -j "$j" -k "$@" || :' \
		sh "$SWORK" "$VB" "$JOBS" $objs
	measure floor_cp sh -c 'cd "$1" && xargs -P "$2" -I{} perl scripts/checkpatch.pl --strict -q {} <"$3" >/dev/null' \
		sh "$SWORK" "$JOBS" "$W/patches"
	sum_times verify_floor floor_build floor_cp
fi

sec() { cut -d' ' -f1 "$W/$1.time"; }
mib() { awk '{ printf "%.0f", $2 / 1024 }' "$W/$1.time"; }
ratio() { awk -v a="$(sec "$1")" -v b="$(sec "$2")" 'BEGIN { printf "%.2f", a / b }'; }
{
	echo "| run | seconds | peak MiB | ratio |"
	echo "|---|---:|---:|---|"
	echo "| parse floor (libclang only, same PCHs and workers) | $(sec floor) | $(mib floor) | 1.00 |"
	echo "| parse floor without PCHs (each file on its own) | $(sec floor_nopch) | $(mib floor_nopch) | $(ratio floor_nopch floor) x floor |"
	echo "| polltax scan, cold | $(sec cold) | $(mib cold) | $(ratio cold floor) x floor |"
	echo "| polltax scan, warm (nothing changed) | $(sec warm) | $(mib warm) | $(ratio warm cold) x cold |"
	echo "| polltax scan, one file touched | $(sec touched) | $(mib touched) | $(ratio touched cold) x cold |"
	echo "| Coccinelle only (classify.cocci, --no-includes) | $(sec cocci) | $(mib cocci) | scan cold = $(ratio cold cocci) x this |"
	echo "| Coccinelle only, reading #includes (--all-includes) | $(sec cocci_inc) | $(mib cocci_inc) | scan cold = $(ratio cold cocci_inc) x this |"
	if has_stage series; then
		echo "| series floor: both rules once over the $(wc -l <"$W/conv_files") converted files, format-patch, get_maintainer.pl per patch | $(sec series_floor) | $(mib series_floor) | 1.00 |"
		echo "| polltax series, cold ($nconv conversions, $npatch patches) | $(sec series_cold) | $(mib series_cold) | $(ratio series_cold series_floor) x floor |"
		echo "| polltax series, warm (nothing changed) | $(sec series_warm) | $(mib series_warm) | $(ratio series_warm series_floor) x floor |"
	fi
	if has_stage verify; then
		echo "| verify floor: the touched objects built once with sparse (C=2), checkpatch.pl per patch | $(sec verify_floor) | $(mib verify_floor) | 1.00 |"
		echo "| polltax verify, cold (configured, nothing built) | $(sec verify_cold) | $(mib verify_cold) | $(ratio verify_cold verify_floor) x floor |"
	fi
	echo
	echo "$(uname -m), $(nproc) CPUs, -j $JOBS, $(basename "$KERNEL"), $(wc -l <"$W/files") candidate files," \
		"$(date -u +%Y-%m-%d); load average before: $load; the median of $ROUNDS runs, in turn:" \
		"floor $(rounds floor), cold $(rounds cold), Coccinelle $(rounds cocci)."
	faster=0
	for round in $(seq 1 "$ROUNDS"); do
		printf '%s' "$(ratio "cold$round" "cocci$round")" >"$W/ratio$round"
		awk -v r="$(cat "$W/ratio$round")" 'BEGIN { exit !(r < 1) }' && faster=$((faster + 1))
	done
	echo "Scan cold against Coccinelle only, round by round: $(for round in $(seq 1 "$ROUNDS"); do
		printf '%s x%s' "$(cat "$W/ratio$round")" "$([ "$round" -lt "$ROUNDS" ] && echo ', ')"; done);" \
		"the scan was faster in $faster of $ROUNDS."
} >"$OUT/bench.md"
cat "$OUT/bench.md"
