#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Suite: the stat() memo of the worker processes (tool/scan/statmemo.c).  A cold
# scan of the fixture tree with one worker (-j 1, no PCH), under strace:
#  - the worker parses several files, and reads linux/fs.h for more than
#    one of them (so that without the memo it would ask about it again);
#  - yet it asks the kernel about each absolute path once: every stat() of
#    the worker and of the threads libclang parses on is answered from the
#    memo the second time;
#  - the outputs are those of the same scan without strace, and of a scan
#    with -j 2 (the memo changes no fact).
# Env: POLLTAX, TOP, WORK (from tests/run.sh).

set -u
. "$TOP/tests/lib.sh"

D=$WORK/statmemo
rm -rf "$D"
mkdir -p "$D"
T=$TOP/tests/fixtures/tree

XDG_CACHE_HOME=$D/cache strace -f -qq -e trace=clone,clone3,newfstatat -o "$D/trace" \
	"$POLLTAX" scan -q --no-cocci --no-pch -j 1 -o "$D/traced" "$T" 2>"$D/traced.err" &&
	r=ok || r=bad
check "statmemo: a scan under strace" $r "$(tail -3 "$D/traced.err")"

# one line per stat() of an absolute path by a thread of a worker:
# "PROCESS PATH"; the first process traced is the scan's own, the others
# are its workers (no PCH builder, no Coccinelle here)
awk '
	function result(l) { return l ~ /= [0-9]+$/ ? $NF : "" }
	NR == FNR {
		if ($0 ~ /clone/ && $0 !~ /resumed>/)
			thread[$1] = $0 ~ /CLONE_THREAD/
		if ($0 ~ /clone/ && (n = result($0)) != "")
			tg[n] = thread[$1] ? $1 : n
		next
	}
	FNR == 1 { main = $1 }
	$0 ~ /^[0-9]+ +newfstatat\(AT_FDCWD, "\// && $0 ~ /, 0\) = / {
		p = $1
		while (p in tg && tg[p] != p)
			p = tg[p]
		if (p == main)
			next
		split($0, q, "\"")
		print p, q[2]
	}' "$D/trace" "$D/trace" >"$D/worker-stats"
procs=$(cut -d' ' -f1 "$D/worker-stats" | sort -u | wc -l)
fs=$(grep -c '/include/linux/fs\.h$' "$D/worker-stats")
files=$(grep -c '\.c$' "$D/worker-stats")
[ "$procs" -ge 1 ] && [ "$files" -ge 3 ] && r=ok || r=bad
check "statmemo: the worker parses several files" $r "$procs worker processes, $files .c files asked about"
again=$(sort "$D/worker-stats" | uniq -d | head -n 5)
[ -n "$(cat "$D/worker-stats")" ] && [ -z "$again" ] && [ "$fs" -ge 1 ] && r=ok || r=bad
check "statmemo: a worker asks the kernel about a path once" $r \
	"asked again: ${again:-none}; linux/fs.h asked $fs times"

XDG_CACHE_HOME=$D/cache2 "$POLLTAX" scan -q --no-cocci --no-pch -j 1 -o "$D/plain" "$T" 2>"$D/plain.err"
XDG_CACHE_HOME=$D/cache3 "$POLLTAX" scan -q --no-cocci --no-pch -j 2 -o "$D/two" "$T" 2>"$D/two.err"
same_outputs "$D/traced" "$D/plain" >/dev/null && same_outputs "$D/plain" "$D/two" >/dev/null && r=ok || r=bad
check "statmemo: the same outputs with and without strace, at -j 1 and -j 2" $r "$(diff "$D/traced/polltax.csv" "$D/two/polltax.csv" | head -5)"
echo "RESULT $passed $failed"
