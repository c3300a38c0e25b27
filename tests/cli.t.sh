#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Suite: the command line in one voice (issue 21, "Uneven").
#  - a missing or extra argument is named, with the usage line, not the
#    whole help page; 'polltax help CMD' is 'polltax CMD --help';
#  - 'facts TREE nosuch.c' says the file does not exist (exit 3);
#  - 'scan -o DIR' that cannot be written fails before the scan starts;
#  - a --scan made from another tree is refused (its sources differ);
#  - series with nothing to send says so (exit 3, not 128);
#  - -o names a directory for every command; the file options have names
#    of their own (--html, --svg, --diff, --table) and the old '-o FILE'
#    is still taken, with a deprecation warning;
#  - list --help and facts --help show their options and exit statuses;
#  - list --json prints the CSV's columns, which tool/SCHEMA.md documents;
#  - polltax cache: the parts and their sizes; cache clean [PART...];
#  - scan TREE/DIR (or --only-dir DIR): only DIR's implementations, decided
#    with the whole tree's flags and helpers.
# Env: POLLTAX, TOP, WORK (from tests/run.sh); WORK/fixture holds the scan
# of the fixture tree (tests/run.sh fixtures).  Prints TEST lines and
# "RESULT <passed> <failed>".
set -u
: "${POLLTAX:?}" "${TOP:?}" "${WORK:?}"
. "$TOP/tests/lib.sh"
D=$WORK/cli
FIX=$TOP/tests/fixtures/tree
rm -rf "$D"
mkdir -p "$D"
export XDG_CACHE_HOME=$D/cache

# usage NAME EXPECTED ARGS...: exit 2, stderr names EXPECTED, and is short
usage() {
	name=$1 want=$2
	shift 2
	"$POLLTAX" "$@" >"$D/u.out" 2>"$D/u.err"
	rc=$?
	lines=$(wc -l <"$D/u.err")
	[ $rc -eq 2 ] && grep -qxF -- "$want" "$D/u.err" && [ "$lines" -le 3 ] && r=ok || r=bad
	check "usage: $name" $r "exit $rc, $lines lines: $(head -n 4 "$D/u.err")"
}
usage "scan without a tree names KERNEL_DIR" "polltax scan: missing KERNEL_DIR" scan
usage "verify with one operand names KERNEL_DIR" "polltax verify: missing KERNEL_DIR" verify somedir
usage "boot-test without operands names both" "polltax boot-test: missing SERIES_DIR and KERNEL_DIR" boot-test
usage "series without -o names -o DIR" "polltax series: missing -o DIR, the directory to write to" series "$FIX"
usage "facts without FILE names FILE" "polltax facts: missing FILE" facts "$FIX"
usage "list with two operands names the extra one" "polltax list: unexpected argument 'b' (it takes OUT_DIR)" list a b
usage "an unknown option is named by its command" "polltax scan: unrecognized option '--bogus'" scan --bogus "$FIX"
grep -qxF "usage: polltax scan [options] KERNEL_DIR" "$D/u.err" && grep -qF "'polltax scan --help' tells more" "$D/u.err" &&
	r=ok || r=bad
check "usage: the usage line and where the help is" $r "$(cat "$D/u.err")"
usage "scan --arch of no architecture names the ones it knows" \
	"polltax: fatal: --arch: 'sparc' is not one of powerpc,s390,arm64,arm,um (or all)" scan --arch sparc "$FIX"
usage "series --arch x86: x86 is always the first" \
	"polltax: fatal: --arch: 'x86' is not one of powerpc,s390,arm64,arm,um (or all): x86 is always scanned first" \
	series --arch powerpc,x86 -o "$D/arch" "$FIX"
usage "scan --arch without a kernel build (compile_flags.txt): refused" \
	"polltax: fatal: --arch needs a kernel build of the tree, but its flags come from compile_flags.txt" \
	scan --arch all -o "$D/arch" "$FIX"

"$POLLTAX" help scan >"$D/help.out" 2>&1 && "$POLLTAX" scan --help >"$D/help2.out" 2>&1 &&
	cmp -s "$D/help.out" "$D/help2.out" && grep -q '^usage: polltax scan' "$D/help.out" && r=ok || r=bad
check "help scan prints scan's help" $r "$(head -n 2 "$D/help.out")"
"$POLLTAX" help nosuch >/dev/null 2>"$D/help.err"
[ $? -eq 2 ] && grep -qF "'nosuch' is not a polltax command" "$D/help.err" && r=ok || r=bad
check "help of no command: exit 2" $r "$(head -n 2 "$D/help.err")"

for c in list facts; do
	"$POLLTAX" $c --help >"$D/$c.help" 2>&1
	[ $? -eq 0 ] && grep -q '^options:' "$D/$c.help" && grep -q -- '-h, --help' "$D/$c.help" &&
		grep -q '^exit status: 0 done, .*2 usage' "$D/$c.help" && r=ok || r=bad
	check "$c --help shows its options and exit statuses" $r "$(cat "$D/$c.help")"
done

# facts: a file that is not in the tree
"$POLLTAX" facts "$FIX" nosuch.c >/dev/null 2>"$D/facts.err"
rc=$?
[ $rc -eq 3 ] && grep -qxF "polltax: fatal: 'nosuch.c' does not exist in the kernel tree '$FIX' (FILE is relative to it)" "$D/facts.err" &&
	! grep -q libclang "$D/facts.err" && r=ok || r=bad
check "facts TREE nosuch.c: the file does not exist, exit 3" $r "exit $rc: $(cat "$D/facts.err")"
# and a path as typed, inside the tree, is taken
"$POLLTAX" facts "$FIX" "$FIX/drivers/char/none-constant-mask.c" >"$D/facts.json" 2>"$D/facts.err" &&
	grep -q fixconst_poll "$D/facts.json" && r=ok || r=bad
check "facts TREE TREE/drivers/x.c: a path inside the tree as typed" $r "$(cat "$D/facts.err")"

# scan -o that cannot be written: before the scan (no cache made, no prepare)
: >"$D/afile"
for o in "$D/afile/out" /proc/polltax-out; do
	"$POLLTAX" scan -o "$o" "$FIX" >/dev/null 2>"$D/unw.err"
	rc=$?
	[ $rc -eq 2 ] && grep -qF "polltax: fatal: -o '$o' cannot be written" "$D/unw.err" &&
		[ ! -d "$D/cache/polltax/facts" ] && r=ok || r=bad
	check "scan -o $o: refused before the scan, exit 2" $r "exit $rc: $(cat "$D/unw.err")"
done

# a --scan of another tree: a copy with one driver changed has the same
# version, not the same sources
S=$WORK/fixture
if [ -f "$S/polltax.json" ] && command -v spatch >/dev/null 2>&1; then
	cp -R "$FIX" "$D/same"
	"$POLLTAX" convert -q --plan --scan "$S" "$D/same" >/dev/null 2>"$D/same.err"
	rc=$?
	[ $rc -eq 0 ] && ! grep -q 'another tree' "$D/same.err" && r=ok || r=bad
	check "--scan of a copy of the same tree is taken" $r "exit $rc: $(cat "$D/same.err")"
	cp -R "$FIX" "$D/other"
	printf '/* another tree */\n' >>"$D/other/drivers/char/none-constant-mask.c"
	"$POLLTAX" convert -q --plan --scan "$S" "$D/other" >/dev/null 2>"$D/other.err"
	rc=$?
	[ $rc -eq 3 ] && grep -qF "polltax: fatal: the scan '$S' was made from another tree" "$D/other.err" && r=ok || r=bad
	check "--scan made from another tree is refused, exit 3" $r "exit $rc: $(cat "$D/other.err")"
	mkdir -p "$D/sv"
	"$POLLTAX" series -q --no-infra --signoff 'A U Thor <a@example.org>' --scan "$S" -o "$D/sv/out" "$D/other" \
		>/dev/null 2>"$D/series.err"
	rc=$?
	[ $rc -eq 3 ] && grep -qF "was made from another tree" "$D/series.err" && [ ! -e "$D/sv/out" ] && r=ok || r=bad
	check "series --scan made from another tree is refused, nothing written" $r "exit $rc: $(cat "$D/series.err")"
else
	check "--scan of another tree" bad "no scan in $S (run tests/run.sh fixtures first) or no spatch"
fi

# nothing to send: a tree with the infrastructure and nothing convertible
# (the fixture's headers and its one converted driver)
mkdir -p "$D/none/t/drivers/char"
(cd "$FIX" && cp -R Makefile MAINTAINERS compile_flags.txt include "$D/none/t/" &&
	cp drivers/char/converted-poll-mask.c "$D/none/t/drivers/char/")
(cd "$D/none" && "$POLLTAX" series -q --signoff 'A U Thor <a@example.org>' -o out t >/dev/null 2>series.err)
rc=$?
[ $rc -eq 3 ] && grep -qxF "polltax: fatal: nothing to send: the tree already has the infrastructure (f_poll_head) and the scan found nothing auto-convertible; no series written to 'out'" "$D/none/series.err" &&
	[ ! -e "$D/none/out" ] && [ -z "$(ls "$D/none" | grep tmp)" ] && r=ok || r=bad
check "series with nothing to send: exit 3, a clear message naming -o as typed, nothing left behind" $r "exit $rc: $(cat "$D/none/series.err")"

# -o is a directory everywhere; the file options have their own names
if [ -f "$S/polltax.json" ]; then
	cp -R "$S" "$D/scan"
	"$POLLTAX" report -o "$D/rep" "$D/scan" 2>"$D/rep.err" && [ -s "$D/rep/report.html" ] &&
		[ "$(cat "$D/rep.err")" = "polltax: wrote $D/rep/report.html (its source links are paths in the tree: --tree DIR makes them open the file, --url TEMPLATE a web view)" ] &&
		r=ok || r=bad
	check "report -o DIR writes DIR/report.html, says so, and how to get links that open" $r "$(cat "$D/rep.err")"
	"$POLLTAX" report --tree "$TOP/tests/fixtures/tree" --html "$D/page.html" "$D/scan" 2>"$D/rep.err" &&
		[ -s "$D/page.html" ] && [ "$(cat "$D/rep.err")" = "polltax: wrote $D/page.html" ] && r=ok || r=bad
	check "report --tree DIR --html FILE: says which file it wrote, nothing more" $r "$(cat "$D/rep.err")"
	"$POLLTAX" report -o "$D/old.html" "$D/scan" 2>"$D/rep.err" && [ -s "$D/old.html" ] &&
		grep -qF "polltax: warning: 'polltax report -o FILE' is deprecated: -o names a directory (it gets report.html); write '--html $D/old.html' for a file" "$D/rep.err" &&
		r=ok || r=bad
	check "report -o FILE.html: still written, with a deprecation warning" $r "$(cat "$D/rep.err")"
	"$POLLTAX" progress -o "$D/chart" "$D/scan" >/dev/null 2>"$D/pr.err" && [ -s "$D/chart/progress.svg" ] &&
		"$POLLTAX" progress --svg "$D/c.svg" "$D/scan" >/dev/null 2>>"$D/pr.err" && [ -s "$D/c.svg" ] &&
		[ ! -s "$D/pr.err" ] && r=ok || r=bad
	check "progress -o DIR writes DIR/progress.svg, --svg FILE the file" $r "$(cat "$D/pr.err")"
	"$POLLTAX" progress -o "$D/old.svg" "$D/scan" >/dev/null 2>"$D/pr.err" && [ -s "$D/old.svg" ] &&
		grep -qF -- "write '--svg $D/old.svg' for a file" "$D/pr.err" && r=ok || r=bad
	check "progress -o FILE.svg: still written, with a deprecation warning" $r "$(cat "$D/pr.err")"
fi

# list --json: the columns of polltax.csv, documented in tool/SCHEMA.md
if [ -f "$S/polltax.json" ]; then
	"$POLLTAX" list --json "$S" >"$D/list.json" 2>"$D/list.err"
	rc=$?
	"$POLLTAX" list "$S" >"$D/list.tsv"
	python3 - "$D/list.json" "$S/polltax.csv" "$D/list.tsv" >"$D/list.check" 2>&1 <<'PY'
import csv, json, sys
rows = json.load(open(sys.argv[1]))
with open(sys.argv[2], newline="") as f:
    c = list(csv.reader(f))
head, body = c[0], c[1:]
tsv = open(sys.argv[3]).read().splitlines()
assert len(rows) == len(body) == len(tsv), (len(rows), len(body), len(tsv))
for r, b in zip(rows, body):
    assert list(r) == head, (list(r), head)
    assert r["file"] == b[0] and str(r["line"]) == b[1] and r["function"] == b[2], (r, b)
    assert " ;; ".join(r["heads"]) == b[6] and "; ".join(r["creation_sites"]) == b[8], (r, b)
    assert r["compiled"] == (b[10] == "yes") and r["reason"] == b[12], (r, b)
print("ok")
PY
	[ $rc -eq 0 ] && grep -qx ok "$D/list.check" && r=ok || r=bad
	check "list --json: one object per implementation, the CSV's columns in its order" $r "exit $rc: $(cat "$D/list.err" "$D/list.check" | tail -n 3)"
	miss=
	for col in $(head -n 1 "$S/polltax.csv" | tr ',' ' '); do
		sed -n '/^## polltax.csv/,/^## history.json/p' "$TOP/tool/SCHEMA.md" | grep -q "^| \`$col\` |" || miss="$miss $col"
	done
	[ -z "$miss" ] && r=ok || r=bad
	check "every column of polltax.csv is documented in tool/SCHEMA.md" $r "not documented:$miss"
fi

# scan one part of a tree: TREE/drivers/char, or --only-dir; the same
# verdicts as the whole tree's scan there (its flags and helpers)
if [ -f "$S/polltax.json" ]; then
	mkdir -p "$D/part"
	(cd "$D/part" && "$POLLTAX" scan -q -j 2 -o one "$FIX/drivers/char" 2>one.err)
	rc=$?
	"$POLLTAX" list "$D/part/one" >"$D/part/one.tsv" 2>/dev/null
	grep '^drivers/char/' "$WORK/fixture.tsv" >"$D/part/whole.tsv"
	n=$(wc -l <"$D/part/one.tsv")
	[ $rc -eq 0 ] && [ "$n" -gt 20 ] && cmp -s "$D/part/one.tsv" "$D/part/whole.tsv" && r=ok || r=bad
	check "scan TREE/drivers/char: only its $n implementations, as the whole tree's scan decides them" $r \
		"exit $rc: $(cat "$D/part/one.err"; diff "$D/part/whole.tsv" "$D/part/one.tsv" | head -n 6)"
	grep -qF 'Only the implementations under `drivers/char/` are reported' "$D/part/one/summary.md" &&
		grep -q '"only_dir": "drivers/char"' "$D/part/one/polltax.json" && r=ok || r=bad
	check "scan of a part: summary.md and polltax.json say so" $r "$(head -n 6 "$D/part/one/summary.md")"
	(cd "$D/part" && "$POLLTAX" scan -q -j 2 --only-dir drivers/char -o two "$FIX" 2>two.err) &&
		cmp -s "$D/part/one/polltax.json" "$D/part/two/polltax.json" && r=ok || r=bad
	check "scan --only-dir drivers/char TREE: the same polltax.json" $r "$(cat "$D/part/two.err")"
	"$POLLTAX" scan -q --only-dir drivers/nosuch -o "$D/part/three" "$FIX" 2>"$D/part/three.err"
	rc=$?
	[ $rc -eq 2 ] && grep -qxF "polltax: fatal: --only-dir 'drivers/nosuch' is no directory of the kernel tree '$FIX'" \
		"$D/part/three.err" && [ ! -e "$D/part/three" ] && r=ok || r=bad
	check "scan --only-dir of no directory of the tree: exit 2" $r "exit $rc: $(cat "$D/part/three.err")"
	(cd "$FIX/drivers/char" && "$POLLTAX" scan -q . 2>"$D/part/four.err")
	rc=$?
	[ $rc -eq 2 ] && grep -qF "the default output directory 'polltax-out' is inside the kernel tree '$FIX'" \
		"$D/part/four.err" && [ ! -e "$FIX/drivers/char/polltax-out" ] && r=ok || r=bad
	check "scan . in a directory of the tree: the default output is refused there too" $r "exit $rc: $(cat "$D/part/four.err")"
fi

# polltax cache: the parts and their sizes, and clean (this suite's own cache)
C=$XDG_CACHE_HOME/polltax
"$POLLTAX" cache >"$D/cache.out" 2>"$D/cache.err"
rc=$?
[ $rc -eq 0 ] && [ "$(head -n 1 "$D/cache.out")" = "$C" ] && [ -d "$C/facts" ] &&
	grep -q '^  facts  *[0-9.]* [KMG]iB  ' "$D/cache.out" && grep -q '^  boot  *-  ' "$D/cache.out" &&
	grep -q '^  total  *[0-9.]* [KMG]iB  ' "$D/cache.out" && r=ok || r=bad
check "cache: where it is, each part with its size, the total" $r "exit $rc: $(cat "$D/cache.out" "$D/cache.err")"
# --help and README's table name the parts 'polltax cache' lists, in its order
listed=$(sed -n '2,$s/^  \([a-z-]*\) .*/\1/p' "$D/cache.out" | grep -vx total | tr '\n' ' ')
helped=$("$POLLTAX" cache --help | sed -n '/^parts:/,/^$/p' | sed 's/^parts://' | tr '\n' ' ' | tr -s ' ')
readme=$(sed -n '/^## The cache/,/^## /s/^| `\([a-z-]*\)` |.*/\1/p' "$TOP/README.md" | tr '\n' ' ')
[ -n "$listed" ] && [ " $listed" = "$helped" ] && [ "$listed" = "$readme" ] && r=ok || r=bad
check "cache --help and README name every part polltax cache lists" $r \
	"listed: $listed; --help:$helped; README: $readme"
"$POLLTAX" cache clean facts >"$D/clean.out" 2>&1 && [ ! -e "$C/facts" ] && [ -d "$C/prefilter" ] &&
	grep -q "^removed facts .*$C/facts\$" "$D/clean.out" && r=ok || r=bad
check "cache clean facts: only that part" $r "$(cat "$D/clean.out"; ls "$C")"
"$POLLTAX" cache clean nosuch >/dev/null 2>"$D/clean.err"
[ $? -eq 2 ] && grep -qxF "polltax cache: 'nosuch' is not a part of the cache" "$D/clean.err" && [ -d "$C/prefilter" ] &&
	r=ok || r=bad
check "cache clean PART that is not one: exit 2, nothing removed" $r "$(cat "$D/clean.err")"
"$POLLTAX" cache clean >"$D/clean.out" 2>&1 && [ -z "$(ls "$C")" ] && "$POLLTAX" cache >"$D/cache.out" &&
	grep -q '^  total  *0 B  ' "$D/cache.out" && r=ok || r=bad
check "cache clean: every part" $r "$(cat "$D/clean.out"; ls "$C"; cat "$D/cache.out")"

echo "RESULT $passed $failed"
