#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Suite: nothing vanishes (TAXONOMY.md; tool/scan/census.c, tool/scan/unity.c).
# On a copy of the fixture tree with one more driver (a member compiled
# out by an #ifdef, a parameter given to a struct's poll member, a
# function given at run time to the poll member of a struct that is no
# poll layer):
#  - polltax.json "census": its members are those a grep of the text
#    finds (less the values that are no function), matched + missing;
#    the initializer libclang dropped (a member the struct lacks) and the
#    compiled-out member are missing, unknown with their reasons, and in
#    the implementations; the run-time assignment is not-poll;
#  - "files": every candidate is parsed, parsed through its includer,
#    failed or not compiled, once; the unity build's part is parsed
#    through its includer, and parse-floor parses the includer too;
#  - summary.md and report.html say the figures and name each one;
#  - the unity build's part without its includer: unknown with its first
#    parse error, its file failed;
#  - a file the configuration does not build (compile_commands.json
#    leaves it out): its proc_ops.proc_poll is unknown "not compiled"
#    without the Coccinelle pass, and classified by it with the pass.
# Env: POLLTAX, TOP, WORK (from tests/run.sh).

set -u
. "$TOP/tests/lib.sh"

D=$WORK/census
rm -rf "$D"
mkdir -p "$D"
cp -R "$TOP/tests/fixtures/tree" "$D/tree"
T=$D/tree
cat >"$T/drivers/char/census-extras.c" <<'EOF'
// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/module.h>
#include <linux/poll.h>

struct fixcx_timer {
	void (*poll)(struct fixcx_timer *t);
	int period;
};

static struct fixcx_timer fixcx_timer;

static void fixcx_tick(struct fixcx_timer *t)
{
	t->period++;
}

static void fixcx_setup(void (*poll)(struct fixcx_timer *t))
{
	fixcx_timer.poll = poll;
}

#ifdef CONFIG_FIXCX_LEGACY
static DECLARE_WAIT_QUEUE_HEAD(fixcx_wait);

static __poll_t fixcx_legacy_poll(struct file *file, poll_table *wait)
{
	poll_wait(file, &fixcx_wait, wait);
	return 0;
}

static const struct file_operations fixcx_legacy_fops = {
	.poll		= fixcx_legacy_poll,
};
#endif

static int __init fixcx_init(void)
{
	fixcx_timer.poll = fixcx_tick;
	fixcx_setup(fixcx_tick);
	return 0;
}
module_init(fixcx_init);
EOF

run() {	# NAME TREE [OPTION...]: scan TREE into $D/NAME, stderr to $D/NAME.err
	n=$1 tree=$2
	shift 2
	XDG_CACHE_HOME=$D/cache "$POLLTAX" scan -q -j 2 "$@" -o "$D/$n" "$tree" 2>"$D/$n.err"
}
J() {	# NAME FILTER: jq -r FILTER on $D/NAME/polltax.json
	jq -r "$2" "$D/$1/polltax.json" 2>/dev/null
}
N() {	# NAME FILTER: a number from $D/NAME/polltax.json, -1 when there is none
	v=$(J "$1" "$2")
	case $v in
	'' | *[!0-9]*) echo -1 ;;
	*) echo "$v" ;;
	esac
}
impl() {	# NAME FILE FUNCTION: "class convertible layer|reason" of that implementation
	J "$1" ".implementations[] | select(.file == \"$2\" and .function == \"$3\") |
		.class + \" \" + .convertible + \" \" + .layer + \"|\" + .reason"
}

if ! run scan "$T" --no-cocci; then
	check "census: scan of the fixture tree" bad "$(tail -3 "$D/scan.err")"
	echo "RESULT $passed $failed"
	exit 0
fi

# the members a grep finds: ".M = f" or "->M = f" on one line, M a poll
# member of the layers, f a name; no comment, no macro body, no constant
members=$(J scan '[.layers[].layer | sub(".*\\."; "")] + ["poll", "proc_poll", "poll_mask"] | unique | join("|")')
grepped=$(cd "$T" && grep -rhE --include='*.c' \
	"(\\.|->)[[:space:]]*($members)[[:space:]]*=[[:space:]]*&?[A-Za-z_][A-Za-z0-9_]*[[:space:]]*[,;]?[[:space:]]*\$" . |
	grep -vE '^[[:space:]]*(\*|/)|\\$|=[[:space:]]*(NULL|true|false)[[:space:]]*[,;]?[[:space:]]*$' | wc -l | tr -d ' ')
m=$(N scan .census.members)
mt=$(N scan .census.matched)
nf=$(N scan .census.not_functions)
nm=$(N scan '.census.missing | length')
[ "$m" -ge 0 ] && [ "$((m + nf))" -eq "$grepped" ] && [ "$m" -eq "$((mt + nm))" ] && [ "$nf" -ge 1 ] && r=ok || r=bad
check "census: $m members of the text ($grepped by grep, less $nf values that are no function) = $mt matched + $nm missing" \
	$r "members '$m', matched '$mt', missing '$nm', not functions '$nf', grep $grepped"

got=$(J scan '.census.missing[] | select(.function == "fixold_poll_mask") | .kind + " " + .class + " " + .layer + "|" + .reason')
case $got in
"errors unknown file_operations.poll_mask|libclang dropped its initializer: drivers/char/unknown-initializer-other-version.c:"*"get_poll_head"*) r=ok ;;
*) r=bad ;;
esac
check "census: the initializer with a member the struct lacks is missing, with the error in it" $r "'$got'"
got=$(impl scan drivers/char/unknown-initializer-other-version.c fixold_poll_mask)
case $got in
"unknown no file_operations.poll_mask|libclang dropped its initializer"*) r=ok ;;
*) r=bad ;;
esac
check "census: ... and it is an implementation, unknown with that reason" $r "'$got'"

got=$(J scan '.census.missing[] | select(.function == "fixcx_legacy_poll") | .kind + "|" + .reason')
case $got in
"compiled-out|"*"under the #if of drivers/char/census-extras.c:24"*) r=ok ;;
*) r=bad ;;
esac
check "census: a member an #ifdef compiles out is missing, with the #if" $r "'$got'"
got=$(impl scan drivers/char/census-extras.c fixcx_legacy_poll)
case $got in "unknown no file_operations.poll|"*) r=ok ;; *) r=bad ;; esac
check "census: ... and it is an implementation, unknown" $r "'$got'"

got=$(impl scan drivers/char/census-extras.c fixcx_tick)
case $got in "not-poll excluded fixcx_timer.poll|"*) r=ok ;; *) r=bad ;; esac
check "census: a function given at run time to a struct that is no poll layer is not-poll" $r "'$got'"

got=$(J scan '[.census.missing[].function] | join(" ")')
[ "$got" = "fixold_poll_mask fixcx_legacy_poll" ] || [ "$got" = "fixcx_legacy_poll fixold_poll_mask" ] && r=ok || r=bad
check "census: nothing else is missing" $r "missing: '$got'"

got=$(J scan '.files | [.candidates, .parsed, (.through_includer | length), (.failed | length), (.not_compiled | length)] | map(tostring) | join(" ")')
set -- $got
case $got in
*[!0-9\ ]* | '') r=bad ;;
*) [ $# -eq 5 ] && [ "$1" -eq "$(($2 + $3 + $4 + $5))" ] && r=ok || r=bad ;;
esac
check "census: every candidate parsed, through its includer, failed or not compiled, once" $r "candidates parsed through failed not_compiled: $got"

got=$(J scan '.files.through_includer[] | .file + " " + .includer')
[ "$got" = "drivers/misc/fixunity/fixunity_events.c drivers/misc/fixunity/fixunity_build.c" ] &&
	[ -z "$(J scan '.files.failed[] | select(.file | test("fixunity")) | .file')" ] && r=ok || r=bad
check "census: the unity build's part is parsed through its includer, not failed" $r "through: '$got'"
got=$(impl scan drivers/misc/fixunity/fixunity_events.c fixunity_poll)
case $got in "single-private yes file_operations.poll|"*) r=ok ;; *) r=bad ;; esac
check "census: ... and its poll is single-private, convertible" $r "'$got'"

if XDG_CACHE_HOME=$D/cache-floor "$POLLTAX" parse-floor -j 2 --times "$D/floor.times" "$T" >"$D/floor.out" 2>&1 &&
   grep -q 'fixunity/fixunity_build.c' "$D/floor.times" && ! grep -q 'fixunity/fixunity_events.c' "$D/floor.times"; then
	r=ok
else
	r=bad
fi
check "census: parse-floor parses the unity build's includer, not its part" $r "$(grep fixunity "$D/floor.times")"

S=$D/scan/summary.md
f=$(N scan '.files.failed | length')
grep -q "^$m \`.poll\`-like members in the text of the $(J scan .files.candidates) candidate files" "$S" &&
	grep -q "$mt in the implementations as classified, $nm in no fact" "$S" &&
	grep -q "Files that did not parse: $f;" "$S" && grep -q "^### Files that did not parse ($f)" "$S" &&
	grep -q '^- `drivers/char/unknown-initializer-other-version.c`: ' "$S" &&
	grep -q '^- `fixold_poll_mask` (`drivers/char/unknown-initializer-other-version.c:[0-9]*`, `.poll_mask`): ' "$S" &&
	grep -q '^- `fixcx_legacy_poll` (`drivers/char/census-extras.c:[0-9]*`, `.poll`): not seen by libclang' "$S" &&
	grep -q "^### Implementations made unknown by missing facts ($nm)" "$S" && r=ok || r=bad
check "census: summary.md gives the figures and names each file and implementation" $r "$(sed -n '/^## Census/,$p' "$S")"

if XDG_CACHE_HOME=$D/cache "$POLLTAX" report "$D/scan" 2>"$D/report.err"; then
	P=$D/scan/report.html
	grep -q '<section id="census">' "$P" && grep -q "<h3>Files that did not parse ($f)</h3>" "$P" &&
		grep -q "Files that did not parse: $f; implementations <code>unknown</code> for missing facts: $nm " "$P" &&
		grep -q '<code>fixcx_legacy_poll</code>' "$P" && r=ok || r=bad
	check "census: report.html gives the figures, the files and the implementations" $r "see $P"
else
	check "census: polltax report" bad "$(cat "$D/report.err")"
fi

# the unity build's part alone: what a tree without its includer gives
cp -R "$T" "$D/orphan-tree"
rm "$D/orphan-tree/drivers/misc/fixunity/fixunity_build.c"
if run orphan "$D/orphan-tree" --no-cocci; then
	got=$(impl orphan drivers/misc/fixunity/fixunity_events.c fixunity_poll)
	fail=$(J orphan '.files.failed[] | select(.file == "drivers/misc/fixunity/fixunity_events.c") | .kind + "|" + .reason')
	case "$got/$fail" in
	"unknown no file_operations.poll|"*"drivers/misc/fixunity/fixunity_events.c:"*"/errors|drivers/misc/fixunity/fixunity_events.c:"*) r=ok ;;
	*) r=bad ;;
	esac
	check "census: the unity build's part with no includer: unknown with its parse error, its file failed" $r \
		"'$got', failed '$fail'"
else
	check "census: scan without the includer" bad "$(tail -3 "$D/orphan.err")"
fi

# a file the configuration does not build: compile_commands.json leaves it out
N=$D/notcomp-tree
mkdir -p "$N/fs/proc"
cp -R "$T/include" "$T/Makefile" "$T/compile_flags.txt" "$N/"
cp "$T/fs/proc/inode.c" "$T/fs/proc/internal.h" "$T/fs/proc/proc-poll-single-static.c" "$N/fs/proc/"
make -s -C "$N" compile_commands.json >/dev/null 2>&1
jq '[.[] | select(.file != "fs/proc/proc-poll-single-static.c")]' "$N/compile_commands.json" >"$N/ccdb" &&
	mv "$N/ccdb" "$N/compile_commands.json"
rm -f "$N/compile_flags.txt"
if run notcomp "$N" --no-cocci; then
	got=$(impl notcomp fs/proc/proc-poll-single-static.c fixkmsg_poll)
	kind=$(J notcomp '.census.missing[] | select(.function == "fixkmsg_poll") | .kind')
	case "$got/$kind" in
	"unknown no proc_ops.proc_poll|not compiled by this configuration"*/not-compiled) r=ok ;;
	*) r=bad ;;
	esac
	check "census: a proc_poll of a file the configuration does not build is unknown, not compiled" $r \
		"'$got', kind '$kind'"
else
	check "census: scan with compile_commands.json" bad "$(tail -3 "$D/notcomp.err")"
fi
if command -v spatch >/dev/null 2>&1; then
	if run notcomp-cocci "$N"; then
		got=$(J notcomp-cocci '.implementations[] | select(.function == "fixkmsg_poll") |
			.class + " " + .layer + " " + (.compiled | tostring) + "|" + .reason')
		case $got in
		"single-static proc_ops.proc_poll false|not compiled by this configuration; classified by the Coccinelle pass"*) r=ok ;;
		*) r=bad ;;
		esac
		check "census: ... and the Coccinelle pass classifies it as proc_ops.proc_poll" $r "'$got'"
	else
		check "census: scan with compile_commands.json and the Coccinelle pass" bad "$(tail -3 "$D/notcomp-cocci.err")"
	fi
fi

echo "RESULT $passed $failed"
