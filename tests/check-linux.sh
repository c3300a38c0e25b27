#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tests/check-linux.sh POLLTAX VERSION CACHE [BASE]
#
# The real-tree check: unpack Debian's linux-source-VERSION into CACHE (once),
# scan it with --arch all (the files only another architecture builds are
# parsed with its flags), and fail unless the scan meets the bar of the scan
# issue:
#   - at least 225 file_operations with a poll are found;
#   - the second layers are found by following the calls;
#   - .poll members that are not file polling are excluded (not-poll);
#   - unknown is at most 2% of the implementations;
#   - no file crashed libclang or timed out;
# then that the scans --no-pch and --trace-bodies give the same outputs,
# and the suites of tests/linux/: the series and verify, then the boot test,
# then metamorphic soundness on a sample of the tree, then
# cocci/classify.cocci through the kernel's own make coccicheck.  BASE (an older
# version, 'make reports' REPORT_BASE): then the same code path on that tree
# as far as the CI time allows: scan, the scan's checks and series (its
# verify and boot test are 'make check-linux-base', a run of this script
# with BASE as VERSION).
# Prints one TEST line per check and "N passed, N failed, N skipped".

set -u
POLLTAX=$1
VER=$2
CACHE=$3
BASE=${4:-}
TOP=$(cd "$(dirname "$0")/.." && pwd)
SRC=$CACHE/src/linux-source-$VER
OUT=$TOP/build/check-linux/$VER
. "$TOP/tests/lib.sh"

# unpack VERSION: Debian's linux-source-VERSION in CACHE/src (once)
unpack() {
	[ -f "$CACHE/src/linux-source-$1/Makefile" ] && return 0
	tarball=/usr/src/linux-source-$1.tar.xz
	[ -f "$tarball" ] || { echo "check-linux: $tarball missing (apt-get install linux-source-$1)"; return 1; }
	echo "check-linux: unpacking $tarball into $CACHE/src"
	rm -rf "$CACHE/src.tmp"
	mkdir -p "$CACHE/src.tmp" && tar -xf "$tarball" -C "$CACHE/src.tmp" &&
		mkdir -p "$CACHE/src" && mv "$CACHE/src.tmp/linux-source-$1" "$CACHE/src/linux-source-$1" &&
		rmdir "$CACHE/src.tmp" ||
		{ echo "check-linux: cannot unpack $tarball"; return 1; }
}
unpack "$VER" || exit 1
# POLLTAX_DEADLINE (seconds since the epoch, set by .ci/run): a long step
# that cannot finish by then is skipped, and one still running then is
# stopped; both are said, and counted apart from passes and failures.
left() { if [ -n "${POLLTAX_DEADLINE:-}" ]; then echo $(( POLLTAX_DEADLINE - $(date +%s) )); else echo 1000000; fi; }
skipped=0
fits() {	# STEP MINUTES: is there time for STEP, which takes up to MINUTES cold?
	l=$(left)
	[ "$l" -ge $(( $2 * 60 )) ] && return 0
	echo "SKIP $1: takes up to $2 min from a cold cache, $(( (l > 0 ? l : 0) / 60 )) min left of the CI time budget"
	skipped=$((skipped + 1))
	return 1
}
stopped() {	# STEP START
	echo "SKIP $1: stopped at the CI deadline after $(( ($(date +%s) - $2) / 60 )) min"
	skipped=$((skipped + 1))
}

# scanned OUT SRC VER: scan SRC into OUT and check the scan's bar
scanned() {
	O=$1 S=$2 V=$3
	mkdir -p "$O"
	start=$(date +%s)
	"$POLLTAX" scan --arch all -o "$O" "$S" || { check "linux-$V: polltax scan" bad "the scan failed"; return 1; }
	echo "check-linux: linux-$V: scan took $(( $(date +%s) - start )) s"
	cat "$O/summary.md"
	"$POLLTAX" list "$O" >"$O/list.tsv"

	J=$O/polltax.json
	nops=$(num file_operations_with_poll)
	[ "${nops:-0}" -ge 225 ] && r=ok || r=bad
	check "linux-$V: at least 225 file_operations with a poll (found ${nops:-0})" $r "only ${nops:-0}"

	for layer in proto_ops.poll v4l2_file_operations.poll snd_hwdep_ops.poll tty_ldisc_ops.poll \
		     kernfs_ops.poll proc_ops.proc_poll; do
		grep -q "\"layer\": \"$layer\"" "$J" && r=ok || r=bad
		check "linux-$V: layer $layer found by following the calls" $r "$layer not found"
	done

	for s in blk_mq_ops rfkill_ops adb_driver; do
		n=$(awk -F '\t' -v s="$s.poll" '$4 == s && $5 != "not-poll"' "$O/list.tsv" | wc -l)
		m=$(awk -F '\t' -v s="$s.poll" '$4 == s && $5 == "not-poll"' "$O/list.tsv" | wc -l)
		[ "$n" -eq 0 ] && [ "$m" -gt 0 ] && r=ok || r=bad
		check "linux-$V: $s.poll is not-poll ($m excluded)" $r "$n of them classified as file polls, $m not-poll"
	done

	# unknown for lack of facts the analysis could have had; a file that
	# did not parse (code for another architecture) or that the
	# configuration does not compile is an honest unknown (issue 18), said
	# in summary.md, and counted apart
	total=$(num implementations)
	unknown=$(awk -F '\t' '$5 == "unknown"' "$O/list.tsv" | wc -l)
	unparsed=$(awk -F '\t' '$5 == "unknown" && ($9 ~ /did not parse/ || $9 ~ /^not compiled by this configuration/)' \
		"$O/list.tsv" | wc -l)
	[ $(((unknown - unparsed) * 100)) -le $((total * 2)) ] && r=ok || r=bad
	check "linux-$V: unknown at most 2% ($((unknown - unparsed)) of $total, and $unparsed in files that did not parse or are not compiled)" \
		$r "$((unknown - unparsed)) unknown of $total"

	# --arch all: a file x86 does not build and another architecture does
	# is parsed with that one's flags (polltax.json "arch"), and every
	# such file parses: no header of that architecture's is missing
	alt=$(grep -c '^   "arch": "' "$J")
	altbad=$(awk '/^  \{/ { a = 0; u = 0 } /^   "arch": "/ { a = 1 } /^   "reason": ".*did not parse/ { u = 1 }
		/^  \}/ { if (a && u) n++ } END { print n + 0 }' "$J")
	[ "$alt" -gt 0 ] && [ "$altbad" -eq 0 ] && r=ok || r=bad
	check "linux-$V: --arch all: $alt implementations parsed with another architecture's flags, all of them parse" \
		$r "$alt with another architecture's flags, $altbad of them did not parse"

	# a file that crashed libclang or timed out, as opposed to one that
	# does not compile here ("errors", listed with its reason)
	crashed=$(awk '/"failed": \[/,/\]/' "$J" | grep '"kind": ' | grep -cv '"kind": "\(errors\|no-function\)"')
	unparsed=$(awk '/"failed": \[/,/\]/' "$J" | grep -c '"kind": "\(errors\|no-function\)"')
	[ "$crashed" -eq 0 ] && r=ok || r=bad
	check "linux-$V: no file crashed or timed out ($crashed; $unparsed did not compile here)" $r "$crashed files crashed or timed out"
}
num() { sed -n "s/^ *\"$1\": \([0-9]*\),\{0,1\}$/\1/p" "$J" | head -n 1; }
scanned "$OUT" "$SRC" "$VER" || { echo "$passed passed, $failed failed"; exit 1; }

# identity OPTION MINUTES OPTION...: a scan with the OPTIONs (within the
# budget: it takes up to MINUTES) gives the outputs of the first scan
identity() {
	name=$1 minutes=$2
	shift 2
	start=$(date +%s)
	fits "scan $name identity" "$minutes" || return 0
	timeout --kill-after=30 "$(left)" "$POLLTAX" scan -q --arch all "$@" -o "$OUT-${name#--}" "$SRC"
	rc=$?
	if [ $rc -eq 0 ]; then
		msg=$(same_outputs "$OUT" "$OUT-${name#--}") && r=ok || r=bad
		check "scan $name: the same outputs ($(( $(date +%s) - start )) s)" $r "$msg"
	elif [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
		stopped "scan $name identity" "$start"
	else
		check "scan $name" bad "the scan failed"
	fi
}
# precompiled headers change no fact: every file parsed again on its own
# (--no-pch --no-cache, into the same cache) gives the same outputs
identity --no-pch 8 --no-pch --no-cache
# nor do tracepoints parsed as calls that wait on nothing: every file
# parsed again with the tree's own tracepoint.h gives the same outputs
identity --trace-bodies 3 --trace-bodies

# Then the series (tests/linux/series.t.sh: series and verify), then the
# boot test, which boots the series just written, then metamorphic
# soundness (bodies hidden on a copy of the tree, rescanned).  MINUTES:
# about what each takes from a cold cache on 2 cores.
# step T MINUTES OUT SRC [VAR=VALUE...]: run the suite tests/linux/T.t.sh
step() {
	t=$TOP/tests/linux/$1.t.sh m=$2 O=$3 S=$4
	shift 4
	[ -f "$t" ] || return 0
	fits "$(basename "$t") on $(basename "$S")" "$m" || return 0
	start=$(date +%s)
	log=$O/$(basename "$t" .sh).log
	env "$@" POLLTAX="$POLLTAX" SRC="$S" OUT="$O" TOP="$TOP" timeout --kill-after=60 "$(left)" sh "$t" >"$log" 2>&1
	rc=$?
	grep -v '^RESULT ' "$log"
	p=$(sed -n 's/^RESULT \([0-9]*\) \([0-9]*\)$/\1/p' "$log")
	q=$(sed -n 's/^RESULT \([0-9]*\) \([0-9]*\)$/\2/p' "$log")
	passed=$((passed + ${p:-0}))
	if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
		stopped "$(basename "$t")" "$start"
		return 0
	fi
	failed=$((failed + ${q:-1}))
	echo "check-linux: $(basename "$t") on $(basename "$S") took $(( $(date +%s) - start )) s"
}
step series 35 "$OUT" "$SRC"
step boot 45 "$OUT" "$SRC"
step metamorphic 12 "$OUT" "$SRC"
step coccicheck 5 "$OUT" "$SRC"

# The base version (issue 19: the same code path on an older tree): its
# scan and its series, without verify (make check-linux-base runs it all).
if [ -n "$BASE" ] && [ "$BASE" != "$VER" ] && fits "linux-$BASE: scan and series" 20 && unpack "$BASE"; then
	BOUT=$TOP/build/check-linux/$BASE
	scanned "$BOUT" "$CACHE/src/linux-source-$BASE" "$BASE" &&
		step series 15 "$BOUT" "$CACHE/src/linux-source-$BASE" VERIFY=0 MIN_CONVERTED="${MIN_CONVERTED_BASE:-90}"
fi

echo "$passed passed, $failed failed, $skipped skipped (CI time budget)"
[ "$failed" -eq 0 ]
