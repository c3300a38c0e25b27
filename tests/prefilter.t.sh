#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Suite: the prefilter (tool/scan/prefilter.c), on a copy of the fixture tree
# with a header of macros that build a poll member and six more .c files:
#
#  - a file that only invokes such a macro is a candidate, whether the
#    names learnt together share a part (one search for it first) or not
#    (a search per name); so is one that invokes a macro built on such a
#    macro (learnt in a second round);
#  - a file that only names a longer identifier containing such a name, or
#    that has the text "poll" but no poll construct, is not;
#  - a warm run (its cache) lists the same files, and so does a cold one
#    after a file changed to invoke a macro, with that file added.
# Env: POLLTAX, TOP, WORK (from tests/run.sh).

set -u
. "$TOP/tests/lib.sh"

D=$WORK/prefilter
rm -rf "$D"
mkdir -p "$D"
cp -R "$TOP/tests/fixtures/tree" "$D/tree"
T=$D/tree
# round 1: two macros that set the member, with no 3 characters in common
# (QX_A_SETS, ZZ_BUILDER); round 2: one built on the first (WITH_QX)
cat >"$T/include/linux/pf_macros.h" <<'EOF'
#define QX_A_SETS(fn) .poll = (fn)
#define ZZ_BUILDER(nm, fn) static const struct file_operations nm = { .poll = (fn) }
#define WITH_QX(nm, fn) static const struct file_operations nm = { QX_A_SETS(fn) }
EOF
c_file() {	# NAME LINE: a .c file whose only interesting line is LINE
	printf '#include <linux/fs.h>\n#include <linux/pf_macros.h>\nstatic int pf_x;\n%s\n' "$2" \
		>"$T/drivers/char/$1.c"
}
c_file pf-qx 'QX_A_SETS(pf_x);'
c_file pf-zz 'ZZ_BUILDER(pf_fops, pf_x);'
c_file pf-with 'WITH_QX(pf_fops, pf_x);'
c_file pf-longer 'int QX_A_SETS_COUNT = 1, MY_ZZ_BUILDER2;'
c_file pf-text '/* we do not pollute: "polling" is only a word here */'
c_file pf-later 'static int pf_later;'

list() {	# CACHE: the candidate files, one per line
	XDG_CACHE_HOME=$1 "$POLLTAX" parse-floor --list "$T" 2>"$D/list.err"
}
in_list() { grep -qx "drivers/char/$2.c" "$1"; }

list "$D/cache" >"$D/cold" || check "prefilter: parse-floor --list" bad "$(tail -3 "$D/list.err")"
for f in pf-qx pf-zz pf-with; do
	in_list "$D/cold" $f && r=ok || r=bad
	check "prefilter: a file that only invokes a learnt macro is a candidate ($f)" $r "$(grep pf- "$D/cold")"
done
for f in pf-longer pf-text pf-later; do
	in_list "$D/cold" $f && r=bad || r=ok
	check "prefilter: $f.c is not a candidate" $r "$(grep pf- "$D/cold")"
done
n=$(grep -c '^drivers/char/single-' "$D/cold")
[ "$n" -ge 5 ] && r=ok || r=bad
check "prefilter: the fixture drivers stay candidates" $r "$n single-* drivers"

list "$D/cache" >"$D/warm"
cmp -s "$D/cold" "$D/warm" && r=ok || r=bad
check "prefilter: a warm run lists the same files" $r "$(diff "$D/cold" "$D/warm" | head -3)"

# the file changes to invoke a macro: listed now, with the same others
c_file pf-later 'ZZ_BUILDER(pf_later_fops, pf_x);'
touch -d '+1 minute' "$T/drivers/char/pf-later.c"
list "$D/cache" >"$D/changed"
{ cat "$D/cold"; echo drivers/char/pf-later.c; } | sort >"$D/want"
sort "$D/changed" | cmp -s - "$D/want" && r=ok || r=bad
check "prefilter: a changed file is read again, the others answered by the cache" $r \
	"$(sort "$D/changed" | diff - "$D/want" | head -3)"
list "$D/cache-cold2" >"$D/cold2"
cmp -s "$D/changed" "$D/cold2" && r=ok || r=bad
check "prefilter: a cold run agrees with the warm one" $r "$(diff "$D/changed" "$D/cold2" | head -3)"

echo "RESULT $passed $failed"
