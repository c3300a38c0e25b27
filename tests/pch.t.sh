#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Suite: precompiled headers and worker processes of the scan (tool/scan/pch.c,
# tool/scan/scan.c), on a copy of the fixture tree with more drivers (over 80
# files to parse: enough for precompiled headers to be built).
#
#  - the outputs of a cold scan with precompiled headers are byte-identical
#    to those of --no-pch, and so are the cache entries' facts;
#  - --times says how each file was parsed: with a PCH; without one when
#    the file defines, before an #include, a macro the precompiled headers
#    test (a copy of a fixture driver does so here; a copy whose macro the
#    headers only name in a comment and a string keeps the PCH), unless
#    only an X-macro list or headers it read already follow the #define
#    (copies that read a list after their #includes keep the PCH; one that
#    then includes a header it had not read does not), or has an #include
#    that cannot be found; again without one when the parse with it
#    reported an error (a copy with an error);
#  - the X-macro list (no include guard) is not precompiled, though three
#    files include it: the PCH is built;
#  - no PCH file is left in the cache after the scan, and a stale PCH
#    directory of a scan that no longer runs is removed by the next run,
#    warm or cold;
#  - parse-floor parses the same files the same ways;
#  - a warm run parses nothing; one changed file is parsed alone, without
#    a PCH (too few files to be worth one), with the same outputs as cold;
#  - the PCH's headers are stored once, as a dependency set; changing one
#    of them makes the files that used it parse again.
# Env: POLLTAX, TOP, WORK (from tests/run.sh).

set -u
. "$TOP/tests/lib.sh"
facts_of() {	# CACHE: every entry's facts, one line each, sorted
	find "$1/polltax/facts" -path '*/sets' -prune -o -name '*.json' -exec jq -c '.facts // .failure' {} + | sort
}

D=$WORK/pch
rm -rf "$D"
mkdir -p "$D"
cp -R "$TOP/tests/fixtures/tree" "$D/tree"
T=$D/tree
# a header the precompiled headers hold tests a macro ...
h=$T/include/linux/fs.h
# (after a character literal on the same line: the literal ends there)
printf "#if 'a' && defined(POLLTAX_PCH_KNOB) /* it's tested */\nstruct polltax_pch_knob { int x; };\n#endif\n" >>"$h"
# and names another only in prose: a comment, a string; and one only as
# a macro's parameter, while the body of that macro names one more
printf '/* POLLTAX_PCH_PROSE: only said here */\n#define POLLTAX_PCH_SAID "POLLTAX_PCH_PROSE" // POLLTAX_PCH_PROSE\n' >>"$h"
printf '#define POLLTAX_PCH_USE(a, POLLTAX_PCH_PARAM) \\\n\t((POLLTAX_PCH_PARAM) + POLLTAX_PCH_BODY)\n' >>"$h"
# ... which a copy of a driver defines before its #includes
src=$T/drivers/char/single-static-global-wait.c
{ echo '#define POLLTAX_PCH_KNOB 1'; sed 's/fixrtc/fixknob/g' "$src"; } >"$T/drivers/char/pch-knob.c"
{ printf '#define POLLTAX_PCH_PROSE 1\n#define POLLTAX_PCH_PARAM 2\n'; sed 's/fixrtc/fixprose/g' "$src"; } \
	>"$T/drivers/char/pch-prose.c"
{ echo '#define POLLTAX_PCH_BODY 1'; sed 's/fixrtc/fixbody/g' "$src"; } >"$T/drivers/char/pch-body.c"
# an X-macro list (no include guard, no #include) that fs.h reads with
# its own POLLTAX_LIST_ITEM, and copies that define the macro after their
# #includes and read the list again: then nothing else (the PCH stays),
# then a header they had included already (stays), then one they had not
# (goes: it could be a header that tests the macro)
printf 'POLLTAX_LIST_ITEM(one)\nPOLLTAX_LIST_ITEM(two)\n' >"$T/include/linux/polltax_list.h"
printf '#ifndef POLLTAX_LIST_ENUM\n#define POLLTAX_LIST_ENUM\n#define POLLTAX_LIST_ITEM(x) polltax_list_##x,\nenum polltax_list {\n#include <linux/polltax_list.h>\n\tpolltax_list_end\n};\n#undef POLLTAX_LIST_ITEM\n#endif\n' >>"$h"
xmacro() {	# NAME TAG [HEADER]: a copy that reads the list after its #includes
	{ sed "s/fixrtc/$2/g" "$src"
	  printf '#define POLLTAX_LIST_ITEM(x) static int %s_##x __attribute__((unused));\n' "$2"
	  echo '#include <linux/polltax_list.h>'
	  [ -n "${3:-}" ] && echo "#include <$3>"
	  echo '#undef POLLTAX_LIST_ITEM'; } >"$T/drivers/char/$1.c"
}
xmacro pch-xmacro fixxm
xmacro pch-xagain fixxa linux/poll.h
xmacro pch-xlate fixxl linux/cdev.h
# and a copy with an error of its own
{ sed 's/fixrtc/fixerr/g' "$src"; echo 'static int fixerr_broken = undeclared_name;'; } >"$T/drivers/char/pch-error.c"
# and one that includes a header this architecture does not have
{ echo '#include <asm/polltax-other-arch.h>'; sed 's/fixrtc/fixarch/g' "$src"; } >"$T/drivers/char/pch-arch.c"

run() {	# NAME CACHE ARGS...: scan, stderr to $D/NAME.err
	n=$1 c=$2
	shift 2
	XDG_CACHE_HOME=$c "$POLLTAX" scan --no-cocci -j 2 "$@" -o "$D/$n" "$T" 2>"$D/$n.err"
}

if ! run pch "$D/cache-pch" --times "$D/pch.times"; then
	check "pch: cold scan" bad "$(tail -3 "$D/pch.err")"
	echo "RESULT $passed $failed"
	exit 0
fi
run nopch "$D/cache-nopch" --no-pch --times "$D/nopch.times" || check "pch: --no-pch scan" bad "$(tail -3 "$D/nopch.err")"

grep -Eq 'precompiled headers? for' "$D/pch.err" && r=ok || r=bad
check "pch: the cold scan builds precompiled headers" $r "$(cat "$D/pch.err")"
if msg=$(same_outputs "$D/pch" "$D/nopch"); then r=ok; else r=bad; fi
check "pch: outputs byte-identical to --no-pch" $r "$msg"
facts_of "$D/cache-pch" >"$D/facts-pch"
facts_of "$D/cache-nopch" >"$D/facts-nopch"
if cmp -s "$D/facts-pch" "$D/facts-nopch" && [ "$(wc -l <"$D/facts-pch")" -ge 70 ]; then r=ok; else r=bad; fi
check "pch: every cache entry's facts identical to --no-pch" $r \
	"$(wc -l <"$D/facts-pch") entries; $(diff "$D/facts-pch" "$D/facts-nopch" 2>&1 | head -3 | cut -c1-200)"

how() { awk -F '\t' -v f="$2" '$3 == f { print $2 }' "$1"; }
why() { awk -F '\t' -v f="$2" '$3 == f { print $4 }' "$1"; }
npch=$(awk -F '\t' '$2 == "pch"' "$D/pch.times" | wc -l)
[ "$npch" -ge 60 ] && r=ok || r=bad
check "pch: most files parse with a precompiled header ($npch)" $r "$(cut -f2 "$D/pch.times" | sort | uniq -c)"
k=$(how "$D/pch.times" drivers/char/pch-knob.c)
[ "$k" = plain ] && r=ok || r=bad
check "pch: a file defining a macro the headers test before its #includes parses without" $r "pch-knob.c: '$k'"
k=$(how "$D/pch.times" drivers/char/pch-prose.c)
[ "$k" = pch ] && r=ok || r=bad
check "pch: a macro the headers name only in a comment, a string or as a parameter keeps the PCH" $r \
	"pch-prose.c: '$k'"
k=$(how "$D/pch.times" drivers/char/pch-body.c)
[ "$k" = plain ] && r=ok || r=bad
check "pch: a macro named in the body of a header's macro does not" $r "pch-body.c: '$k'"
k=$(how "$D/pch.times" drivers/char/pch-xmacro.c)/$(how "$D/pch.times" drivers/char/pch-xagain.c)
[ "$k" = pch/pch ] && r=ok || r=bad
check "pch: a macro defined after the #includes for an X-macro list, or a header read already, keeps the PCH" $r \
	"pch-xmacro.c/pch-xagain.c: '$k'"
k=$(how "$D/pch.times" drivers/char/pch-xlate.c)/$(why "$D/pch.times" drivers/char/pch-xlate.c)
[ "$k" = "plain/#defines POLLTAX_LIST_ITEM before an #include" ] && r=ok || r=bad
check "pch: ... but not when a header not read yet follows" $r "pch-xlate.c: '$k'"
e=$(how "$D/pch.times" drivers/char/pch-error.c)
[ "$e" = again ] && r=ok || r=bad
check "pch: a parse with an error is done again without the PCH" $r "pch-error.c: '$e'"
w=$(why "$D/pch.times" drivers/char/pch-knob.c)/$(why "$D/pch.times" drivers/char/pch-error.c)
[ "$w" = "#defines POLLTAX_PCH_KNOB before an #include/an error with the PCH" ] && r=ok || r=bad
check "pch: --times says why a file parsed without the PCH" $r "'$w'"
a=$(how "$D/pch.times" drivers/char/pch-arch.c)/$(why "$D/pch.times" drivers/char/pch-arch.c)
[ "$a" = "plain/<asm/polltax-other-arch.h> not found" ] && r=ok || r=bad
check "pch: a file with an #include that cannot be found goes without the PCH at once" $r "pch-arch.c: '$a'"
o=$(awk -F '\t' '$2 != "plain"' "$D/nopch.times" | wc -l)
[ "$o" -eq 0 ] && r=ok || r=bad
check "pch: --no-pch parses every file on its own" $r "$o files otherwise"

left=$(find "$D/cache-pch/polltax" -name '*.pch' | head -n 3)
[ -z "$left" ] && r=ok || r=bad
check "pch: no precompiled header left in the cache" $r "$left"

# a stale directory (a pid that does not run) goes, even on a warm run
mkdir -p "$D/cache-pch/polltax/pch/999999999"
touch "$D/cache-pch/polltax/pch/999999999/g0.pch"
run pch-again "$D/cache-pch" >/dev/null || true
[ ! -e "$D/cache-pch/polltax/pch/999999999" ] && same_outputs "$D/pch-again" "$D/pch" >/dev/null && r=ok || r=bad
check "pch: a stale PCH directory is removed by the next run" $r

if XDG_CACHE_HOME=$D/cache-floor "$POLLTAX" parse-floor -j 2 --times "$D/floor.times" "$T" >"$D/floor.out" 2>&1; then
	cut -f2,3 "$D/floor.times" | sort >"$D/floor.how"
	# the floor parses the candidates; the scan also the files that define
	# what a head is derived from (polltax.json files.definers)
	tr -d ' \n' <"$D/pch/polltax.json" | sed -n 's/.*"definers":\[\([^]]*\)\].*/\1/p' | tr ',' '\n' |
		tr -d '"' | sed '/^$/d' >"$D/definers"
	cut -f2,3 "$D/pch.times" | awk -F '\t' -v d="$D/definers" '
		BEGIN { while ((getline l < d) > 0) def[l] = 1 } !($2 in def)' | sort >"$D/pch.how"
	n=$(wc -l <"$D/pch.how" | tr -d ' ')
	cmp -s "$D/floor.how" "$D/pch.how" && grep -q "^$n files parsed in" "$D/floor.out" && r=ok || r=bad
	check "pch: parse-floor parses the same $n files the same ways as the scan (definers aside)" $r \
		"$(cat "$D/floor.out"; diff "$D/floor.how" "$D/pch.how" | head -5)"
else
	check "pch: parse-floor" bad "$(cat "$D/floor.out")"
fi
# with --scan, the files that scan followed too: the floor of the same work
if XDG_CACHE_HOME=$D/cache-floor2 "$POLLTAX" parse-floor -j 2 --scan "$D/pch" --times "$D/floor2.times" "$T" \
	>"$D/floor2.out" 2>&1; then
	cut -f3 "$D/floor2.times" | sort >"$D/floor2.files"
	cut -f3 "$D/pch.times" | sort >"$D/pch.files"
	n=$(wc -l <"$D/pch.files" | tr -d ' ')
	[ -s "$D/definers" ] && cmp -s "$D/floor2.files" "$D/pch.files" && grep -q "^$n files parsed in" "$D/floor2.out" &&
		r=ok || r=bad
	check "pch: parse-floor --scan parses the scan's $n files, its $(wc -l <"$D/definers" | tr -d ' ') definers included" $r \
		"$(cat "$D/floor2.out"; diff "$D/floor2.files" "$D/pch.files" | head -5)"
else
	check "pch: parse-floor --scan" bad "$(cat "$D/floor2.out")"
fi

run warm "$D/cache-pch" --times "$D/warm.times" || true
[ ! -s "$D/warm.times" ] && same_outputs "$D/warm" "$D/pch" >/dev/null && r=ok || r=bad
check "pch: a warm run parses nothing, same outputs" $r "$(cat "$D/warm.times")"

echo '/* changed */' >>"$T/drivers/char/pch-knob.c"
run touched "$D/cache-pch" --times "$D/touched.times" || true
t=$(cut -f2,3 "$D/touched.times")
run touched-cold "$D/cache-cold" --times /dev/null || true
[ "$t" = "$(printf 'plain\tdrivers/char/pch-knob.c')" ] && same_outputs "$D/touched" "$D/touched-cold" >/dev/null &&
	r=ok || r=bad
check "pch: one changed file is parsed alone, outputs as a cold scan's" $r "parsed: '$t'"

# the headers of a PCH are one dependency set shared by its files' entries:
# a change to one of them makes every file that used it parse again
nsets=$(find "$D/cache-pch/polltax/facts/sets" -name '*.json' 2>/dev/null | wc -l)
echo '/* changed */' >>"$h"
run header "$D/cache-pch" --times "$D/header.times" || true
run header-cold "$D/cache-cold2" --times /dev/null || true
np=$(wc -l <"$D/header.times")
[ "$nsets" -ge 1 ] && [ "$np" -ge 70 ] && same_outputs "$D/header" "$D/header-cold" >/dev/null && r=ok || r=bad
check "pch: a changed precompiled header makes its files parse again ($np parsed, $nsets sets)" $r \
	"$nsets dependency sets, $np files parsed"

echo "RESULT $passed $failed"
