#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Suite: polltax report on the fixture scan, without a browser: the
# sections, the headline figures against polltax.json, links through the
# --url template, HTML escaping, the generic "Tested" section of a
# boot-test.json of any shape, and byte-identical output.
# Env: POLLTAX, TOP, WORK (from tests/run.sh).

set -u
. "$TOP/tests/lib.sh"

D=$WORK/report
rm -rf "$D"
mkdir -p "$D"
SCAN=$WORK/fixture
if [ ! -f "$SCAN/polltax.json" ]; then
	SCAN=$D/scan
	"$POLLTAX" scan -q -j 2 -o "$SCAN" "$TOP/tests/fixtures/tree" 2>/dev/null
fi
S=$D/scan-copy
mkdir -p "$S"
cp "$SCAN/polltax.json" "$S/"
P=$S/report.html

"$POLLTAX" report "$S" && [ -s "$P" ] && r=ok || r=bad
check "report: writes OUT_DIR/report.html" $r "no $P"

for id in summary classes subsystems sections implementations disagreements layers files; do
	grep -q "<section id=\"$id\">" "$P" && r=ok || r=bad
	check "report: has the $id section" $r "no section $id"
done
grep -q 'id="progress"' "$P" && r=bad || r=ok
check "report: no progress section without history.json" $r "progress section without a history"
grep -q 'id="tested"' "$P" && r=bad || r=ok
check "report: no Tested section without boot-test.json" $r "Tested section without boot-test.json"

# headline figures are those of polltax.json
num() { sed -n "s/^ *\"$1\": \([0-9]*\),\{0,1\}$/\1/p" "$S/polltax.json" | head -n 1; }
impl=$(num implementations)
grep -q "<div class=\"num\">$impl</div><div class=\"lbl\">implementations</div>" "$P" && r=ok || r=bad
check "report: headline shows $impl implementations" $r "headline does not say $impl"
for c in none single-static single-private single-cond single-dynamic multi busy-poll delegate not-poll unknown converted; do
	grep -q "data-fclass=\"$c\"" "$P" || { r=bad; break; }
	r=ok
done
check "report: every class of TAXONOMY.md and converted is listed" $r "class $c missing"
rows=$(grep -c '^<tr data-class=' "$P")
all=$(grep -c '"subsystem":' "$S/polltax.json")
[ "$rows" -eq "$all" ] && r=ok || r=bad
check "report: one table row per implementation ($rows)" $r "$rows rows for $all implementations"

# the view by MAINTAINERS section: every implementation has its section in
# polltax.json, as 'polltax facts --maintainers' finds it from MAINTAINERS;
# one row per section, the group of no section last; the totals add up
n_sec=$(jq '[ .implementations[] | select(.section | type == "string") ] | length' "$S/polltax.json")
[ "$n_sec" -eq "$all" ] && r=ok || r=bad
check "report: polltax.json gives every implementation its MAINTAINERS section" $r "$n_sec of $all have one"
jq -r '.implementations[] | "\(.file)\t\(.section)"' "$S/polltax.json" | sort -u >"$D/sec.want"
"$POLLTAX" facts --maintainers "$TOP/tests/fixtures/tree" $(cut -f 1 "$D/sec.want") | sort -u >"$D/sec.got"
cmp -s "$D/sec.want" "$D/sec.got" && r=ok || r=bad
check "report: the sections are those of 'polltax facts --maintainers'" $r "$(diff "$D/sec.want" "$D/sec.got" | head -n 4)"
grep -q 'drivers/char/[^	]*	CHAR and MISC DRIVERS$' "$D/sec.got" && grep -q '^fs/dynamic-per-task-signalfd.c	EVENTFD AND SIGNALFD$' "$D/sec.got" &&
	grep -q '^fs/fixfs/[^	]*	$' "$D/sec.got" && r=ok || r=bad
check "report: a directory's F: claims the files below it, a file's F: that file, fs/* not fs/fixfs/" $r "$(head -n 3 "$D/sec.got")"
nsec=$(jq -r '.implementations[] | .section' "$S/polltax.json" | sort -u | wc -l)
rows_sec=$(grep -c '^<tr data-sec=' "$P")
[ "$rows_sec" -eq "$nsec" ] && r=ok || r=bad
check "report: one row per MAINTAINERS section ($nsec, the group of no section included)" $r "$rows_sec rows"
grep '^<tr data-sec=' "$P" | tail -n 1 | grep -q '^<tr data-sec="(no MAINTAINERS section)">' && r=ok || r=bad
check "report: the group (no MAINTAINERS section) comes last" $r "$(grep -o '^<tr data-sec="[^"]*"' "$P" | tail -n 1)"
sum=$(grep '^<tr data-sec=' "$P" | sed 's|^.*</a></td><td class="n">\([0-9]*\)</td>.*$|\1|' | awk '{ s += $1 } END { print s + 0 }')
[ "$sum" -eq "$all" ] && r=ok || r=bad
check "report: the sections' totals add up to the $all implementations" $r "they add up to $sum"
grep -q '<select id="f-sec">' "$P" && r=ok || r=bad
check "report: the table of implementations has a filter by section" $r "no #f-sec"
jq 'del(.implementations[].section)' "$S/polltax.json" >"$D/old.json" && mkdir -p "$D/old" && mv "$D/old.json" "$D/old/polltax.json" &&
	"$POLLTAX" report "$D/old" && grep -q 'records no MAINTAINERS section' "$D/old/report.html" &&
	! grep -q 'id="f-sec"' "$D/old/report.html" && r=ok || r=bad
check "report: a scan without sections (an older polltax) says so, with no section filter" $r "$(grep -o '<section id="sections">.\{0,200\}' "$D/old/report.html")"

# links: relative paths by default, the template otherwise
grep -q '<a href="drivers/char/single-private-helper-other-file.c">drivers/char/single-private-helper-other-file.c:70</a>' "$P" &&
	r=ok || r=bad
check "report: locations link to relative paths by default" $r "no relative link for fixipmi_poll"
"$POLLTAX" report --url 'https://x.example/v%v/%f?l=%l&p=100%%' --html "$D/url.html" "$S"
grep -q 'href="https://x.example/v6.12.0-polltax-fixture/drivers/char/single-private-helper-other-file.c?l=70&amp;p=100%"' "$D/url.html" &&
	r=ok || r=bad
check "report: --url expands %f %l %v %% and escapes the attribute" $r "$(grep -o 'href="https://x.example[^"]*other-file[^"]*"' "$D/url.html" | head -n 1)"

# boot-test.json of unknown shape, with text that must be escaped
cat >"$S/boot-test.json" <<'EOF'
{ "kernel": "6.12.0-polltax <b>test</b>", "passed": true, "boots": 3,
  "cases": [ { "name": "fixrtc & co", "result": "ok" }, { "name": "fixconst", "result": "fail", "log": "x<y" } ],
  "qemu": { "args": [ "-m", "512" ], "script": "<script>alert(1)</script>" } }
EOF
"$POLLTAX" report "$S" && r=ok || r=bad
check "report: reads boot-test.json" $r "polltax report failed with a boot-test.json"
grep -q '<section id="tested">' "$P" && grep -q '<th>boots</th><td>3</td>' "$P" &&
	grep -q '<td>fixrtc &amp; co</td>' "$P" && grep -q '<th>log</th>' "$P" && r=ok || r=bad
check "report: Tested shows boot-test.json as key/value tables" $r "$(sed -n '/id="tested"/,/<\/section>/p' "$P" | head -c 600)"
grep -q '<script>alert' "$P" || grep -q '<b>test</b>' "$P" && r=bad || r=ok
check "report: text from the data is HTML-escaped" $r "unescaped markup from boot-test.json"
grep -q '&lt;script&gt;alert(1)&lt;/script&gt;' "$P" && r=ok || r=bad
check "report: escaped text is still shown" $r "the escaped script text is missing"
echo '{ "broken": ' >"$S/boot-test.json"
"$POLLTAX" report "$S" 2>"$D/broken.err" && grep -q 'boot-test.json cannot be read' "$P" &&
	grep -q 'warning:' "$D/broken.err" && r=ok || r=bad
check "report: a broken boot-test.json is a warning and a note, not a failure" $r "$(cat "$D/broken.err")"
rm -f "$S/boot-test.json"

"$POLLTAX" report --html "$D/a.html" "$S" && "$POLLTAX" report --html "$D/b.html" "$S" && cmp -s "$D/a.html" "$D/b.html" &&
	r=ok || r=bad
check "report: byte-identical for the same input" $r "two runs differ"
grep -Eq '20[0-9][0-9]-[0-9][0-9]-[0-9][0-9]' "$D/a.html" && r=bad || r=ok
check "report: no date without a history" $r "a date in the page"

"$POLLTAX" report "$D/nothing" 2>/dev/null
[ $? -eq 3 ] && r=ok || r=bad
check "report: a directory without a scan is exit status 3" $r "wrong exit status"
"$POLLTAX" report 2>/dev/null
[ $? -eq 2 ] && r=ok || r=bad
check "report: no OUT_DIR is exit status 2" $r "wrong exit status"

echo "RESULT $passed $failed"
