#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Suite: report.html in a real browser (Debian's chromium, headless).
#
# The fixture's report is opened as report.html#selftest:NAME; the page's
# own script then sorts the implementations by function, filters them by
# class, finds NAME with the text box, and follows a section of the view
# by MAINTAINERS section to its rows, and writes each verdict into the
# element #selftest, which --dump-dom shows us.  Any console message (the
# page logs none) is a failure; a page with a deliberate error must be
# caught, so the check itself is checked.  A screenshot is left in
# $WORK/report.png for a person to look at.
# Env: POLLTAX, TOP, WORK (from tests/run.sh).

set -u
. "$TOP/tests/lib.sh"

D=$WORK/browser
rm -rf "$D"
mkdir -p "$D"

if ! command -v chromium >/dev/null 2>&1; then
	"$TOP/tool/ensure-packages" chromium >"$D/install.log" 2>&1
fi
if ! command -v chromium >/dev/null 2>&1; then
	check "browser: chromium is available" bad "cannot install chromium: $(tail -n 2 "$D/install.log")"
	echo "RESULT $passed $failed"
	exit 0
fi

# The fixture scan of tests/run.sh, or our own when the suite runs alone.
SCAN=$WORK/fixture
if [ ! -f "$SCAN/polltax.json" ]; then
	SCAN=$D/scan
	"$POLLTAX" scan -q -j 2 -o "$SCAN" "$TOP/tests/fixtures/tree" 2>"$D/scan.err" ||
		{ check "browser: fixture scan" bad "$(cat "$D/scan.err")"; echo "RESULT $passed $failed"; exit 0; }
fi
PAGE=$D/report.html
"$POLLTAX" report --url 'https://elixir.bootlin.com/linux/v6.12/source/%f#L%l' --html "$PAGE" "$SCAN" &&
	[ -s "$PAGE" ] && r=ok || r=bad
check "browser: polltax report writes the page" $r "polltax report failed"

# The page must not reach out: no external style, script, image or frame.
if grep -Eq '<(link|img|iframe|object|embed)[ >]|<script [^>]*src=|@import|url\(' "$PAGE"; then
	check "browser: the page is self-contained" bad "$(grep -Eo '<(link|img|iframe)[^>]*>|<script [^>]*src=[^>]*>|@import[^;]*|url\([^)]*\)' "$PAGE" | head -n 3)"
else
	check "browser: the page is self-contained" ok
fi
grep -q 'href="https://elixir.bootlin.com/linux/v6.12/source/drivers/char/single-private-helper-other-file.c#L70"' "$PAGE" &&
	r=ok || r=bad
check "browser: locations link through the --url template" $r "no elixir link for fixipmi_poll"

# Without --url, the links open the source in the tree: file://TREE/FILE#LLINE
# ('polltax scan' passes --tree; the path is the tree's real one).
TREE=$(cd "$TOP/tests/fixtures/tree" && pwd -P)
DPAGE=$D/default.html
"$POLLTAX" report --tree "$TOP/tests/fixtures/tree" --html "$DPAGE" "$SCAN" &&
	grep -q "href=\"file://$TREE/drivers/char/single-private-helper-other-file.c#L70\"" "$DPAGE" && r=ok || r=bad
check "browser: by default a location links to file://TREE/FILE#LLINE" $r \
	"$(grep -o 'href="[^"#]*single-private-helper-other-file.c[^"]*"' "$DPAGE" | head -n 1)"
if grep -q 'href="file://' "$PAGE"; then r=bad; else r=ok; fi
check "browser: --url wins over the file:// default" $r "$(grep -o 'href="file://[^"]*"' "$PAGE" | head -n 1)"

# chromium URL: run it headless, in a fresh profile, with nothing that talks to the network
run_chromium() {
	prof=$(mktemp -d "$D/profile.XXXXXX")
	timeout 180 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$prof" --enable-logging=stderr --v=0 "$@"
	rc=$?
	rm -rf "$prof"
	return $rc
}

NAME=fixipmi_poll
run_chromium --dump-dom "file://$PAGE#selftest:$NAME" >"$D/dom.html" 2>"$D/chromium.err"
st=$(grep -o '<div id="selftest"[^>]*>[^<]*' "$D/dom.html")
[ -n "$st" ] && r=ok || r=bad
check "browser: the page's script ran (chromium --dump-dom)" $r "no #selftest in the DOM; chromium said: $(tail -n 3 "$D/chromium.err")"
for t in sort sort-descending filter-class filter-text; do
	case $t in
	sort) what="clicking the function header changes the row order to sorted" ;;
	sort-descending) what="clicking it again reverses the order" ;;
	filter-class) what="filtering by class leaves fewer rows, all of that class" ;;
	filter-text) what="the text box finds $NAME" ;;
	esac
	printf '%s\n' "$st" | grep -q "data-$t=\"pass\"" && r=ok || r=bad
	check "browser: $what" $r "$st"
done
for t in filter-section sort-sections; do
	case $t in
	filter-section) what="a section's link in the view by MAINTAINERS section shows as many rows as it counts" ;;
	sort-sections) what="the view by MAINTAINERS section sorts by its total" ;;
	esac
	printf '%s\n' "$st" | grep -q "data-$t=\"pass\"" && r=ok || r=bad
	check "browser: $what" $r "$st"
done
printf '%s\n' "$st" | grep -q 'data-filter-text-rows="1"' && r=ok || r=bad
check "browser: the text box leaves exactly the one driver" $r "$st"
if grep -q ':CONSOLE' "$D/chromium.err"; then
	check "browser: no console messages" bad "$(grep ':CONSOLE' "$D/chromium.err" | head -n 3)"
else
	printf '%s\n' "$st" | grep -q 'data-errors=""' && r=ok || r=bad
	check "browser: no console messages" $r "$st"
fi

# The filters are read back from the hash: a link to a filtered view shows it.
rows_of() {	# DOM: "shown total" of the implementations table
	awk '/<table[^>]*id="impl"/{t=1} t&&/<\/table>/{t=0} t' "$1" | grep -o '<tr [^>]*data-class="[^"]*"[^>]*>' >"$1.rows"
	echo "$(grep -vc ' hidden' "$1.rows") $(wc -l <"$1.rows")"
}
run_chromium --dump-dom "file://$PAGE#q=$NAME" >"$D/hash-q.html" 2>/dev/null
set -- $(rows_of "$D/hash-q.html")
[ "${1:-0}" = 1 ] && [ "${2:-0}" -gt 1 ] && grep -q "value=\"$NAME\"\|f-count[^>]*>1 of" "$D/hash-q.html" && r=ok || r=bad
check "browser: #q=$NAME in the URL shows that one driver" $r "shown/total: $*; $(grep -o '<span id="f-count"[^<]*' "$D/hash-q.html")"
CLASS=unknown
want=$(grep -c "<tr data-class=\"$CLASS\"" "$PAGE")
run_chromium --dump-dom "file://$PAGE#class=$CLASS&sub=" >"$D/hash-class.html" 2>/dev/null
set -- $(rows_of "$D/hash-class.html")
[ "$want" -gt 0 ] && [ "${1:-0}" = "$want" ] && [ "$2" -gt "$want" ] && r=ok || r=bad
check "browser: #class=$CLASS in the URL shows the $want rows of that class" $r "shown/total: $*"
grep '<tr ' "$D/hash-class.html.rows" | grep -v ' hidden' | grep -vq "data-class=\"$CLASS\"" && r=bad || r=ok
check "browser: and only rows of that class" $r "$(grep -v ' hidden' "$D/hash-class.html.rows" | grep -v "$CLASS" | head -n 2)"

# The view by MAINTAINERS section (the fixture's MAINTAINERS): its sections
# and counts, and the filter by section kept in the URL (#sec=NAME).
grep -q '<section id="sections">' "$PAGE" && grep -q '<table class="grid sortable" id="secs">' "$PAGE" && r=ok || r=bad
check "browser: the page has the view by MAINTAINERS section" $r "no #sections with its table"
sec_total() {	# PAGE SECTION: the total the view shows for SECTION
	grep -o "<tr data-sec=\"$2\"><td[^>]*><a [^>]*>[^<]*</a></td><td class=\"n\">[0-9]*" "$1" | sed 's/.*>//'
}
# EVENTFD AND SIGNALFD names two files, fs/dynamic-per-task-signalfd.c and
# fs/single-private-anon-getfd.c, each with one ->poll
SEC='EVENTFD AND SIGNALFD'
[ "$(sec_total "$PAGE" "$SEC")" = 2 ] && r=ok || r=bad
check "browser: the view counts 2 implementations in $SEC" $r "total shown: '$(sec_total "$PAGE" "$SEC")'"
# a file below fs/fixfs/ is claimed by no section but THE REST ("F: fs/*" does not go below fs/)
grep -q '<tr data-class="[^"]*" data-conv="[^"]*" data-sub="fs/fixfs" data-sec="(no MAINTAINERS section)"' "$PAGE" &&
	[ -n "$(sec_total "$PAGE" '(no MAINTAINERS section)')" ] && r=ok || r=bad
check "browser: files only THE REST claims are in the group (no MAINTAINERS section)" $r \
	"$(grep -o '<tr [^>]*data-sub="fs/fixfs"[^>]*>' "$PAGE" | head -n 1)"
SEC='CHAR and MISC DRIVERS'
want=$(jq --arg s "$SEC" '[ .implementations[] | select(.section == $s) ] | length' "$SCAN/polltax.json")
[ "${want:-0}" -gt 2 ] && [ "$(sec_total "$PAGE" "$SEC")" = "$want" ] && r=ok || r=bad
check "browser: the view counts the $want implementations polltax.json puts in $SEC" $r \
	"total shown: '$(sec_total "$PAGE" "$SEC")', polltax.json: $want"
run_chromium --dump-dom "file://$PAGE#sec=CHAR%20and%20MISC%20DRIVERS" >"$D/hash-sec.html" 2>/dev/null
set -- $(rows_of "$D/hash-sec.html")
[ "${1:-0}" = "$want" ] && [ "${2:-0}" -gt "$want" ] && r=ok || r=bad
check "browser: #sec=$SEC in the URL shows its $want rows" $r "shown/total: $*"
grep -v ' hidden' "$D/hash-sec.html.rows" | grep -vq "data-sec=\"$SEC\"" && r=bad || r=ok
check "browser: and only rows of that section" $r "$(grep -v ' hidden' "$D/hash-sec.html.rows" | grep -v "$SEC" | head -n 2)"

# The check of the check: a page that throws must be caught.
sed 's|</body>|<script>polltax_no_such_function();</script></body>|' "$PAGE" >"$D/broken.html"
run_chromium --dump-dom "file://$D/broken.html" >/dev/null 2>"$D/broken.err"
grep -q 'Uncaught.*polltax_no_such_function' "$D/broken.err" && r=ok || r=bad
check "browser: a script error on the page would be seen" $r "chromium did not log the deliberate error"

rm -f "$WORK/report.png"
run_chromium --screenshot="$WORK/report.png" --window-size=1400,1000 "file://$PAGE" >/dev/null 2>"$D/shot.err"
magic=$(od -An -c -N4 "$WORK/report.png" 2>/dev/null | tr -d ' ')
[ "$magic" = '211PNG' ] && r=ok || r=bad
check "browser: screenshot in $WORK/report.png" $r "no PNG written: $(tail -n 2 "$D/shot.err")"

echo "RESULT $passed $failed"
