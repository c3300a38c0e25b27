#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Suite: conversion progress across scans (polltax progress, history.json).
#
# A copy of the fixture tree is scanned, two of its convertible drivers are
# converted by hand the way the toolkit's conversion does it (the function
# becomes FOO_poll_mask(file, events) without its poll_wait, the ops point
# .poll_mask at it, open sets file->f_poll_head), and the copy is scanned
# again into the same output directory.  history.json must then hold two
# entries with converted up by 2 and convertible down by 2, and 'polltax
# progress' must print both and write a valid SVG chart.
# Env: POLLTAX, TOP, WORK (from tests/run.sh).

set -u
. "$TOP/tests/lib.sh"

D=$WORK/progress
rm -rf "$D"
mkdir -p "$D"
cp -R "$TOP/tests/fixtures/tree" "$D/tree"
OUT=$D/out

if ! "$POLLTAX" scan -q -j 2 -o "$OUT" "$D/tree" 2>"$D/scan1.err"; then
	check "progress: first scan" bad "$(cat "$D/scan1.err")"
	echo "RESULT $passed $failed"
	exit 0
fi
check "progress: the scan writes report.html" "$([ -s "$OUT/report.html" ] && echo ok)"

# fixrtc: single-static, one global head; open sets f_poll_head to it.
f=$D/tree/drivers/char/single-static-global-wait.c
sed -i -e 's/^static __poll_t fixrtc_poll(struct file \*file, poll_table \*wait)$/static __poll_t fixrtc_poll_mask(struct file *file, __poll_t events)/' \
	-e '/^[[:space:]]*poll_wait(file, &fixrtc_wait, wait);$/d' \
	-e 's/^\t\.poll\t\t= fixrtc_poll,$/\t.poll_mask\t= fixrtc_poll_mask,/' \
	-e '/^static int fixrtc_open(/,/^}/ s/^\treturn 0;$/\tfile->f_poll_head = \&fixrtc_wait;\n\treturn 0;/' "$f"
# fixconst: none, no head; only the signature and the ops change.
g=$D/tree/drivers/char/none-constant-mask.c
sed -i -e 's/^static __poll_t fixconst_poll(struct file \*file, poll_table \*wait)$/static __poll_t fixconst_poll_mask(struct file *file, __poll_t events)/' \
	-e 's/^\t\.poll\t\t= fixconst_poll,$/\t.poll_mask\t= fixconst_poll_mask,/' "$g"
n=$(grep -c 'poll_mask\|f_poll_head' "$f" "$g" | awk -F: '{ s += $2 } END { print s }')
[ "$n" -eq 5 ] && r=ok || r=bad
check "progress: the hand conversion applies to the copy" $r "expected 5 poll_mask/f_poll_head lines, found $n"

if ! "$POLLTAX" scan -q -j 2 -o "$OUT" "$D/tree" 2>"$D/scan2.err"; then
	check "progress: second scan" bad "$(cat "$D/scan2.err")"
	echo "RESULT $passed $failed"
	exit 0
fi
"$POLLTAX" list "$OUT" >"$D/list.tsv"
cls=$(awk -F '\t' '$3 == "fixrtc_poll_mask" || $3 == "fixconst_poll_mask" { print $3 ":" $5 }' "$D/list.tsv" | sort | tr '\n' ' ')
[ "$cls" = "fixconst_poll_mask:converted fixrtc_poll_mask:converted " ] && r=ok || r=bad
check "progress: the converted drivers are class converted" $r "got '$cls'"

# history.json, read with the same jansson-written layout every scan uses
H=$OUT/history.json
entries=$(grep -c '"implementations"' "$H")
[ "$entries" -eq 2 ] && r=ok || r=bad
check "progress: history.json has 2 entries" $r "$entries entries"

"$POLLTAX" progress "$OUT" >"$D/progress.txt" 2>"$D/progress.err" && r=ok || r=bad
check "progress: polltax progress runs" $r "$(cat "$D/progress.err")"
# rows: day version total (implementations) converted convertible refused needs-open review flagged
rows=$(awk 'NR > 1 && NF == 9 && /^[0-9]/' "$D/progress.txt" | wc -l)
[ "$rows" -eq 2 ] && r=ok || r=bad
check "progress: the table prints both scans" $r "$rows rows in: $(cat "$D/progress.txt")"
# a terminal's 80 columns: the version here is 22 characters, the table's widest
wide=$(awk '{ if (length($0) > 82) n++ } END { print n + 0 }' "$D/progress.txt")
[ "$wide" -eq 0 ] && head -1 "$D/progress.txt" | grep -q '^day  *version  *total  *conv  *todo  *refused  *open  *review  *flag$' &&
	grep -q '^(total: implementations; conv: converted; todo: convertible' "$D/progress.txt" && r=ok || r=bad
check "progress: the table fits a terminal (60 columns + the version), its short names explained" $r \
	"$(awk '{ print length($0) ": " $0 }' "$D/progress.txt")"
c1=$(awk 'NR == 2 { print $4 }' "$D/progress.txt")
c2=$(awk 'NR == 3 { print $4 }' "$D/progress.txt")
y1=$(awk 'NR == 2 { print $5 }' "$D/progress.txt")
y2=$(awk 'NR == 3 { print $5 }' "$D/progress.txt")
i1=$(awk 'NR == 2 { print $3 }' "$D/progress.txt")
i2=$(awk 'NR == 3 { print $3 }' "$D/progress.txt")
[ "$((c2 - c1))" -eq 2 ] && r=ok || r=bad
check "progress: converted moved up by 2 ($c1 -> $c2)" $r "converted $c1 -> $c2"
[ "$((y1 - y2))" -eq 2 ] && r=ok || r=bad
check "progress: convertible moved down by 2 ($y1 -> $y2)" $r "convertible $y1 -> $y2"
[ "$i1" -eq "$i2" ] && r=ok || r=bad
check "progress: implementations unchanged ($i1)" $r "implementations $i1 -> $i2"

S=$OUT/progress.svg
if command -v xmllint >/dev/null 2>&1; then
	xmllint --noout "$S" 2>"$D/xmllint.err" && r=ok || r=bad
	check "progress: progress.svg is well-formed XML (xmllint)" $r "$(cat "$D/xmllint.err")"
else
	grep -q '^<svg ' "$S" && r=ok || r=bad
	check "progress: progress.svg is an SVG" $r "no <svg in $S"
fi
pts=$(grep -c '<circle ' "$S")
[ "$pts" -eq 6 ] && r=ok || r=bad
check "progress: the chart has 3 series x 2 scans" $r "$pts points"
grep -q '>converted<' "$S" && grep -q '>implementations<' "$S" && r=ok || r=bad
check "progress: the chart's axes and legend are labelled" $r "labels missing in $S"

cp "$S" "$D/first.svg"
"$POLLTAX" progress --svg "$D/again.svg" "$OUT" >/dev/null && cmp -s "$D/first.svg" "$D/again.svg" && r=ok || r=bad
check "progress: the chart is byte-identical for the same history" $r "$D/first.svg and $D/again.svg differ"

# The report embeds the chart once a history exists; the report is byte-identical.
grep -q 'id="progress"' "$OUT/report.html" && grep -q '<svg ' "$OUT/report.html" && r=ok || r=bad
check "progress: report.html embeds the chart" $r "no chart in $OUT/report.html"
# (scan writes its page with --tree: links to file://TREE/FILE)
"$POLLTAX" report --tree "$D/tree" --html "$D/r1.html" "$OUT" && "$POLLTAX" report --tree "$D/tree" --html "$D/r2.html" "$OUT" &&
	cmp -s "$D/r1.html" "$D/r2.html" && cmp -s "$D/r1.html" "$OUT/report.html" && r=ok || r=bad
check "progress: report.html is byte-identical for the same input" $r "reports differ"

# Movement between the two scans: the two drivers are reclassified, nothing added.
cp -R "$OUT" "$D/before"
"$POLLTAX" progress --since "$D/before" "$OUT" >/dev/null 2>&1 && r=ok || r=bad
check "progress: --since the same scan runs" $r "polltax progress --since failed"
"$POLLTAX" scan -q -j 2 -o "$D/first" "$TOP/tests/fixtures/tree" 2>/dev/null
"$POLLTAX" progress --since "$D/first" --markdown "$D/progress.md" --svg "$D/p.svg" "$OUT" >"$D/since.txt" 2>&1
grep -q '0 added, 0 removed, 0 moved to another file, 2 reclassified' "$D/since.txt" && r=ok || r=bad
check "progress: --since reports 2 reclassified, nothing added" $r "$(grep 'From ' "$D/since.txt")"
grep -q '| `single-static` | `converted` | 1 |' "$D/progress.md" && grep -q '](p.svg)' "$D/progress.md" && r=ok || r=bad
check "progress: --markdown writes the movement and links the chart" $r "$(cat "$D/progress.md")"

"$POLLTAX" progress "$D/tree" >/dev/null 2>&1
[ $? -eq 3 ] && r=ok || r=bad
check "progress: no history.json is exit status 3" $r "wrong exit status"

# The maintainer's loop on a git tree without tags: scan, series --scan,
# git am the series, scan again into the same -o, progress.
E=$D/loop
mkdir -p "$E"
cp -R "$TOP/tests/fixtures/tree" "$E/tree"
export GIT_AUTHOR_NAME='A U Thor' GIT_AUTHOR_EMAIL=a@example.org GIT_COMMITTER_NAME='A U Thor' \
	GIT_COMMITTER_EMAIL=a@example.org GIT_AUTHOR_DATE='2026-11-30T12:00:00Z' GIT_COMMITTER_DATE='2026-11-30T12:00:00Z'
(cd "$E/tree" && git init -q && git add -A -f && git commit -q -m base) >"$E/git.log" 2>&1
"$POLLTAX" scan -q -j 2 -o "$E/out" "$E/tree" 2>"$E/scan1.err" &&
	"$POLLTAX" series -q --signoff 'A U Thor <a@example.org>' --scan "$E/out" -o "$E/series" "$E/tree" \
		>/dev/null 2>"$E/series.err" && r=ok || r=bad
check "progress: scan and series --scan on a git tree without tags" $r "$(cat "$E/git.log" "$E/scan1.err" "$E/series.err")"
nref=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["refused"]))' "$E/series/series.json" 2>/dev/null)
[ -s "$E/out/refused.json" ] && [ "${nref:-0}" -gt 0 ] && r=ok || r=bad
check "progress: series records its $nref refusals next to the scan (refused.json)" $r "$(ls "$E/out")"
cp -R "$E/out" "$E/before"
(cd "$E/tree" && git am -q $(ls "$E"/series/0*.patch | grep -v '/0000-cover-letter.patch$')) >"$E/am.log" 2>&1 &&
	"$POLLTAX" scan -q -j 2 -o "$E/out" "$E/tree" 2>"$E/scan2.err" && r=ok || r=bad
check "progress: the series applies (git am) and the tree scans again into the same -o" $r \
	"$(cat "$E/am.log" "$E/scan2.err")"
"$POLLTAX" list "$E/out" >"$E/list.tsv"
drm=$(awk -F '\t' '$3 == "drm_poll_mask" { print $1 ":" $3 ":" $5 }' "$E/list.tsv")
[ "$drm" = "drivers/gpu/drm/drm_file.c:drm_poll_mask:converted" ] && r=ok || r=bad
check "progress: drm_poll(), whose fops DRM_GEM_FOPS builds, is converted in its own file" $r "got '$drm'"
"$POLLTAX" progress --since "$E/before" "$E/out" >"$E/progress.txt" 2>"$E/progress.err"
grep -q ' 0 added, 0 removed, 0 moved to another file, ' "$E/progress.txt" && r=ok || r=bad
check "progress: after the series nothing is removed (every conversion is reclassified)" $r \
	"$(grep -A 4 '^### Removed' "$E/progress.txt")"
# date version implementations converted convertible refused needs-open review flagged
last=$(awk 'NR > 1 && NF == 9 && /^[0-9]/' "$E/progress.txt" | tail -n 1)
set -- $last
[ "${5:-x}" = 0 ] && [ "${6:-x}" = "$nref" ] && r=ok || r=bad
check "progress: convertible reaches 0 once the series is applied, refused ($nref) is its own figure" $r \
	"last row: $last"
grep -qxF "$nref refused by polltax series, with the reason:" "$E/progress.txt" &&
	grep -q '^  drivers/misc/fops-local-macro.c: fixdsp_data_poll(): fixdsp_data_poll is still referenced' "$E/progress.txt" &&
	r=ok || r=bad
check "progress: each refusal is listed with its reason" $r "$(sed -n '1,/^## /p' "$E/progress.txt")"
echo "${2:-}" | grep -qx '[0-9a-f]\{7,40\}@2026-11-30' && r=ok || r=bad
check "progress: without a tag, the version is git describe --always and the commit's date" $r "version '${2:-}'"

# scan --label names a scan (a tree with part of a series applied), and
# SOURCE_DATE_EPOCH dates it: the same inputs, the same history
L=$D/label
mkdir -p "$L"
SOURCE_DATE_EPOCH=86400 "$POLLTAX" scan -q -j 2 --label "6.12 + 1/2 infrastructure, char..fs" -o "$L/a" "$D/tree" 2>"$D/label.err" &&
	grep -q '"label": "6.12 + 1/2 infrastructure, char..fs"' "$L/a/history.json" &&
	grep -q '"date": "1970-01-02T00:00:00Z"' "$L/a/history.json" && r=ok || r=bad
check "progress: scan --label is recorded, SOURCE_DATE_EPOCH is the date" $r "$(cat "$D/label.err" "$L/a/history.json" 2>/dev/null | head -n 5)"
mkdir -p "$L/b"
cp "$L/a/history.json" "$L/b/" 2>/dev/null
SOURCE_DATE_EPOCH=86400 "$POLLTAX" scan -q -j 2 --label "6.12 + 2/2 input..usb" -o "$L/b" "$D/tree" 2>>"$D/label.err"
"$POLLTAX" progress --svg "$L/chart.svg" "$L/b" >"$L/progress.txt" 2>>"$D/label.err"
grep -q '6.12 + 1/2 infrastructure, char..fs' "$L/progress.txt" && grep -q '6.12 + 2/2 input..usb' "$L/progress.txt" &&
	r=ok || r=bad
check "progress: the table shows the labels" $r "$(cat "$L/progress.txt")"
# a label too long for the space between two points (eight scans) is wrapped, the chart widened, no text lost
jq '[ range(8) as $i | .[$i % 2] | .label = "6.12 + \($i)/7 infrastructure, char..fs" ]' "$L/b/history.json" >"$L/eight.json"
"$POLLTAX" progress --history "$L/eight.json" --svg "$L/eight.svg" "$L/b" >/dev/null 2>>"$D/label.err"
w=$(sed -n 's/^<svg [^>]* width="\([0-9]*\)".*/\1/p' "$L/eight.svg")
grep -q '>6.12 + 7/7<' "$L/eight.svg" && grep -q '>infrastructure,<' "$L/eight.svg" && grep -q '>char..fs<' "$L/eight.svg" &&
	[ "${w:-0}" -gt 760 ] && grep -q '<svg [^>]* width="760"' "$L/chart.svg" && r=ok || r=bad
check "progress: a long label is wrapped in the chart, which widens; short ones keep 760 units" $r \
	"width $w; $(grep -o '<text[^>]*fill="#222">[^<]*' "$L/eight.svg" | sed -n '4,9p')"
SOURCE_DATE_EPOCH=86400 "$POLLTAX" scan -q -j 2 --label "6.12 + 2/2 input..usb" -o "$L/b" "$D/tree" 2>>"$D/label.err"
"$POLLTAX" progress --svg "$L/chart2.svg" "$L/b" >/dev/null 2>&1
cmp -s "$L/chart.svg" "$L/chart2.svg" && [ "$(grep -c '"implementations"' "$L/b/history.json")" -eq 2 ] && r=ok || r=bad
check "progress: a re-run with the same date and label adds nothing and draws the same bytes" $r \
	"$(grep -c '"implementations"' "$L/b/history.json") entries"
# progress --history FILE: the history of FILE, with the scan of OUT_DIR
"$POLLTAX" progress --history "$L/b/history.json" --svg "$L/h.svg" "$OUT" >"$L/h.txt" 2>>"$D/label.err" &&
	grep -q 'input..usb' "$L/h.txt" && cmp -s "$L/h.svg" "$L/chart.svg" && r=ok || r=bad
check "progress: --history FILE draws that history" $r "$(cat "$L/h.txt")"

# one -o per tree: a scan of another directory into this history says so, once; a --label says the mix is meant
! grep -q 'note:' "$D/scan2.err" && r=ok || r=bad
check "progress: a rescan of the same tree into its -o adds no note" $r "$(cat "$D/scan2.err")"
cp -R "$OUT" "$D/mixed"
(cd "$D" && "$POLLTAX" scan -q -j 2 -o mixed "$TOP/tests/fixtures/tree") 2>"$D/mixed.err"
rc=$?
[ $rc -eq 0 ] && [ "$(grep -c 'note:' "$D/mixed.err")" -eq 1 ] &&
	grep -qF "polltax: note: the last scan in 'mixed/history.json' (linux 6.12.0-polltax-fixture, " "$D/mixed.err" &&
	grep -qF "was of another directory than '$TOP/tests/fixtures/tree'" "$D/mixed.err" &&
	[ "$(jq '[.[].where] | unique | length' "$D/mixed/history.json")" -eq 2 ] &&
	! grep -qF "$D/tree" "$D/mixed/history.json" && r=ok || r=bad
check "progress: a scan of another tree into the same -o is kept, with one note (the history keeps no path)" $r \
	"exit $rc: $(cat "$D/mixed.err")"
cp -R "$OUT" "$D/labelled"
"$POLLTAX" scan -q -j 2 --label "pristine fixture" -o "$D/labelled" "$TOP/tests/fixtures/tree" 2>"$D/labelled.err"
rc=$?
[ $rc -eq 0 ] && ! grep -q 'note:' "$D/labelled.err" && r=ok || r=bad
check "progress: with --label the mix is meant: no note" $r "exit $rc: $(cat "$D/labelled.err")"

echo "RESULT $passed $failed"
