#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Suite: tracepoints parse as calls that wait on nothing (tool/lib/tree.c,
# trace_remap()).  On a copy of the fixture tree with the model of the
# kernel's include/linux/tracepoint.h and a driver whose ->poll hands its
# poll_table to a tracepoint (tests/fixtures/trace):
#  - the driver is classified as its check- tags say: the tracepoint's
#    probes are not a lower layer that may wait;
#  - with --trace-bodies, which parses the tree's own __DO_TRACE, the
#    poll_table reaches the event's iterator, a function without a body:
#    "unknown" (what the tracepoint.h libclang is given changes);
#  - every other file's facts and verdicts are the same either way;
#  - the tree's tracepoint.h is neither written nor replaced by a file of
#    ours: the facts depend on it by its own name;
#  - a changed tracepoint.h makes every file parse again, to the same
#    verdicts.
# Env: POLLTAX, TOP, WORK (from tests/run.sh).

set -u
. "$TOP/tests/lib.sh"
facts_of() {	# CACHE: every entry's facts, one line each, sorted
	find "$1/polltax/facts" -path '*/sets' -prune -o -name '*.json' -exec jq -c '.facts // .failure' {} + | sort
}
entry_of() {	# CACHE REL: the cache entry of file REL
	grep -l "\"file\":\"$2\"" -r "$1/polltax/facts" --include='*.json' | head -n 1
}

D=$WORK/trace
rm -rf "$D"
mkdir -p "$D"
cp -R "$TOP/tests/fixtures/tree" "$D/tree"
cp -R "$TOP/tests/fixtures/trace/." "$D/tree/"
T=$D/tree
DRV=drivers/char/single-static-tracepoint.c
cp "$T/include/linux/tracepoint.h" "$D/tracepoint.h.orig"

run() {	# NAME CACHE ARGS...: scan, stderr to $D/NAME.err
	n=$1 c=$2
	shift 2
	XDG_CACHE_HOME=$c "$POLLTAX" scan -q --no-cocci -j 2 "$@" -o "$D/$n" "$T" 2>"$D/$n.err"
}

if ! run slim "$D/cache-slim" --times "$D/slim.times"; then
	check "trace: scan" bad "$(tail -3 "$D/slim.err")"
	echo "RESULT $passed $failed"
	exit 0
fi
run bodies "$D/cache-bodies" --trace-bodies || check "trace: scan --trace-bodies" bad "$(tail -3 "$D/bodies.err")"

cmp -s "$T/include/linux/tracepoint.h" "$D/tracepoint.h.orig" && r=ok || r=bad
check "trace: the tree's tracepoint.h is left as it was" $r
n=$(find "$D/cache-slim" -name tracepoint.h | wc -l)
[ "$n" -eq 0 ] && r=ok || r=bad
check "trace: no copy of it in the cache" $r "$(find "$D/cache-slim" -name tracepoint.h)"
e=$(entry_of "$D/cache-slim" "$DRV")
jq -e --arg t "$T/include/linux/tracepoint.h" '.deps | has($t)' "$e" >/dev/null && r=ok || r=bad
check "trace: the driver's facts depend on the tree's tracepoint.h" $r "$(jq -c .deps "$e" 2>&1 | cut -c1-300)"

# the driver's verdict, as its tags say; the tree's own bodies say otherwise
verdict() {	# OUT: class, convertible and heads of fixtp_poll
	"$POLLTAX" list "$1" | awk -F '\t' -v f="$DRV" '$1 == f && $3 == "fixtp_poll" { print $5 " " $6 " " $7 }'
}
want=$(sed -n 's/^[ *]*check-poll: *fixtp_poll *//p' "$T/$DRV")
wantc=$(sed -n 's/^[ *]*check-convertible: *fixtp_poll *//p' "$T/$DRV")
wanth=$(sed -n 's/^[ *]*check-heads: *fixtp_poll *//p' "$T/$DRV")
got=$(verdict "$D/slim")
[ -n "$want" ] && [ "$got" = "$want $wantc $wanth" ] && r=ok || r=bad
check "trace: a tracepoint handed the poll_table: $want, convertible $wantc" $r "got '$got'"
got=$(verdict "$D/bodies")
why=$("$POLLTAX" list "$D/bodies" | awk -F '\t' -v f="$DRV" '$1 == f && $3 == "fixtp_poll" { print $9 }')
case "$got $why" in
unknown*__traceiter_fixtp_poll*) r=ok ;;
*) r=bad ;;
esac
check "trace: with --trace-bodies, unknown (the poll_table reaches the event's iterator)" $r "got '$got' ($why)"

same=ok
grep -v "^$DRV," "$D/slim/polltax.csv" >"$D/slim.polltax.csv"
grep -v "^$DRV," "$D/bodies/polltax.csv" >"$D/bodies.polltax.csv"
cmp -s "$D/slim.polltax.csv" "$D/bodies.polltax.csv" || same=bad
[ "$(wc -l <"$D/slim.polltax.csv")" -ge 20 ] || same=bad
check "trace: every other verdict is the same as with --trace-bodies" $same \
	"$(diff "$D/slim.polltax.csv" "$D/bodies.polltax.csv" | head -3)"
facts_of "$D/cache-slim" | grep -v "\"file\":\"$DRV\"" >"$D/facts-slim"
facts_of "$D/cache-bodies" | grep -v "\"file\":\"$DRV\"" >"$D/facts-bodies"
cmp -s "$D/facts-slim" "$D/facts-bodies" && [ "$(wc -l <"$D/facts-slim")" -ge 20 ] && r=ok || r=bad
check "trace: and so are every other file's facts" $r \
	"$(wc -l <"$D/facts-slim") entries; $(diff "$D/facts-slim" "$D/facts-bodies" 2>&1 | head -3 | cut -c1-200)"

# a changed tracepoint.h: every file parses again, to the same verdicts
total=$(wc -l <"$D/slim.times")
echo '/* changed */' >>"$T/include/linux/tracepoint.h"
run changed "$D/cache-slim" --times "$D/changed.times" || check "trace: scan after a change" bad "$(tail -3 "$D/changed.err")"
[ "$(wc -l <"$D/changed.times")" -eq "$total" ] && [ "$total" -gt 20 ] && r=ok || r=bad
check "trace: a changed tracepoint.h: every file parsed again" $r "$(wc -l <"$D/changed.times") of $total files parsed"
cmp -s "$D/slim/polltax.csv" "$D/changed/polltax.csv" && r=ok || r=bad
check "trace: with the same verdicts" $r

echo "RESULT $passed $failed"
