#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Suite: the committed reports/ are current with the code, checked cheaply
# (no kernel is scanned here; 'make reports' does that):
#   - every file 'make reports' commits is there, and the pages are small;
#   - the facts were made by this tool and schema (polltax.json "tool" and
#     "schema" against 'polltax --version' and the fixture scan);
#   - the classifier sources are those recorded in reports/sources.sha256
#     (the list is tool/mk/report.mk's REPORT_SOURCES);
#   - the history goes from the base version to the head version, and
#     the one of the chart (postings/history.json, 'make reports-postings')
#     on to the head with each posting of its series applied, converted
#     rising to the series' total and convertible falling to 0;
#   - the pages, the chart and progress.md rebuilt from the committed facts
#     ('make reports-html') are byte-identical to the committed ones.
# A failure here means: run 'make reports' (or 'make reports-html' when
# only the page changed) and commit reports/.
# Env: POLLTAX, TOP, WORK (from tests/run.sh).

set -u
. "$TOP/tests/lib.sh"

R=$TOP/reports
D=$WORK/reports
rm -rf "$D"
mkdir -p "$D"
set -- $(make -s --no-print-directory -C "$TOP" report-versions)
BASE=${1:-6.1}
HEAD=${2:-6.12}

missing=
for f in README.md progress.md progress.svg sources.sha256 \
	 linux-$BASE/polltax.json linux-$BASE/polltax.csv linux-$BASE/summary.md linux-$BASE/report.html \
	 linux-$HEAD/polltax.json linux-$HEAD/polltax.csv linux-$HEAD/summary.md linux-$HEAD/report.html \
	 linux-$HEAD/history.json postings/history.json; do
	[ -s "$R/$f" ] || missing="$missing $f"
done
[ -z "$missing" ] && r=ok || r=bad
check "reports: every committed file is there" $r "missing in reports/:$missing (run 'make reports')"
if [ -n "$missing" ]; then
	echo "RESULT $passed $failed"
	exit 0
fi

big=
for f in "$R"/linux-*/report.html; do
	[ "$(wc -c <"$f")" -lt 2097152 ] || big="$big $f"
done
[ -z "$big" ] && r=ok || r=bad
check "reports: each report.html is under 2 MiB" $r "too big:$big"

# top-level keys of a polltax.json (indent 1, as write_json() writes them)
top() { sed -n "s/^ \"$2\": \"\{0,1\}\([^\",]*\)\"\{0,1\},\{0,1\}$/\1/p" "$1" | head -n 1; }
tool=$("$POLLTAX" --version)
schema=$(top "$WORK/fixture/polltax.json" schema)
for v in $BASE $HEAD; do
	t=$(top "$R/linux-$v/polltax.json" tool)
	s=$(top "$R/linux-$v/polltax.json" schema)
	[ "$t" = "$tool" ] && r=ok || r=bad
	check "reports: linux-$v was made by $tool" $r "made by '$t' (run 'make reports')"
	if [ -n "$schema" ]; then
		[ "$s" = "$schema" ] && r=ok || r=bad
		check "reports: linux-$v has schema $schema" $r "schema '$s' (run 'make reports')"
	fi
done

recorded=$(awk '{ print $2 }' "$R/sources.sha256" | tr '\n' ' ' | sed 's/ $//')
listed=$(make -s --no-print-directory -C "$TOP" report-sources)
[ "$recorded" = "$listed" ] && r=ok || r=bad
check "reports: sources.sha256 covers tool/mk/report.mk's REPORT_SOURCES" $r \
	"recorded: $recorded; REPORT_SOURCES: $listed (run 'make reports')"
changed=$(cd "$TOP" && sha256sum -c "$R/sources.sha256" 2>/dev/null | grep -v ': OK$' | sed 's/:.*//' | tr '\n' ' ')
[ -z "$changed" ] && r=ok || r=bad
check "reports: the classifier sources are those the reports were made with" $r \
	"changed since 'make reports': $changed(run 'make reports')"

H=$R/linux-$HEAD/history.json
first=$(sed -n 's/^  "version": "\(.*\)",\{0,1\}$/\1/p' "$H" | head -n 1)
last=$(sed -n 's/^  "version": "\(.*\)",\{0,1\}$/\1/p' "$H" | tail -n 1)
case "$first/$last" in
"$BASE".*/"$HEAD".*|"$BASE"/"$HEAD"|"$BASE".*/"$HEAD"|"$BASE"/"$HEAD".*) r=ok ;;
*) r=bad ;;
esac
check "reports: the history goes from $BASE to $HEAD ($first -> $last)" $r "history from '$first' to '$last'"

# the chart's history: base, head, then "HEAD + K/N TOPIC" for K = 1..N
P=$R/postings/history.json
labels=$(jq -r '.[] | .label // .version' "$P")
n=$(jq 'length - 2' "$P")
want=$(printf '%s\n' "$labels" | sed -n '3,$p' | awk -v h="$HEAD" -v n="$n" '
	{ if (index($0, h " + " NR "/" n " ") != 1) bad = 1 } END { print bad ? "bad" : "ok" }')
case $(printf '%s\n' "$labels" | sed -n 1p)/$(printf '%s\n' "$labels" | sed -n 2p) in
"$BASE".*/"$HEAD".*) ;;
*) want=bad ;;
esac
[ "$n" -ge 1 ] && check "reports: the chart goes $BASE, $HEAD, then $HEAD + 1/$n ... $HEAD + $n/$n, one posting each" $want \
	"labels: $(printf '%s\n' "$labels" | tr '\n' ';')" ||
	check "reports: the chart has the postings of the series" bad "$P has no posting (run 'make reports-postings')"
conv=$(jq -r '[ .[] | .by_convertible.converted // 0 ] | map(tostring) | join(" ")' "$P")
rising=$(jq '[ .[] | .by_convertible.converted // 0 ] | . as $c | [ range(2; length) | $c[.] > $c[. - 1] ] | all' "$P")
left=$(jq '.[-1] | (.by_convertible.yes // 0) - (.refused // 0)' "$P")
[ "$rising" = true ] && [ "$left" = 0 ] && r=ok || r=bad
check "reports: each posting converts more ($conv), and after the last none convertible is left" $r \
	"converted: $conv; convertible after the last posting: $left"

if make -s --no-print-directory -C "$TOP" reports-html POLLTAX="$POLLTAX" REPORTS_OUT="$D" \
	>"$D/make.out" 2>&1; then
	for f in linux-$BASE/report.html linux-$HEAD/report.html progress.svg progress.md; do
		cmp -s "$R/$f" "$D/$f" && r=ok || r=bad
		check "reports: $f is what this code makes of the committed facts" $r \
			"reports/$f differs from $D/$f (run 'make reports-html')"
	done
else
	check "reports: make reports-html" bad "$(tail -n 3 "$D/make.out")"
fi

# The committed pages link to a web tree browser (make reports-html passes
# --url), never to a file:// path of the machine that made them.
for f in linux-$BASE/report.html linux-$HEAD/report.html; do
	if grep -q 'href="file:' "$R/$f"; then r=bad; else r=ok; fi
	check "reports: $f has no file:// link (no machine's path)" $r "$(grep -o 'href="file:[^"]*"' "$R/$f" | head -n 1)"
done

echo "RESULT $passed $failed"
