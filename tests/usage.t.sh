#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Suite: each command's --help and its option table agree.  The options of
# a command are its getopt_long table (static const struct option opts[]
# in tool/cmd/cmd_NAME.c); its --help is the usage text beside it.  The two
# are kept by hand side by side, so this suite holds them together:
#  - every long option of the table is in the help's option list;
#  - every option the help's option list names is in the table.
# Env: POLLTAX, TOP, WORK (from tests/run.sh).  Prints TEST lines and
# "RESULT <passed> <failed>".
set -u
: "${POLLTAX:?}" "${TOP:?}" "${WORK:?}"
. "$TOP/tests/lib.sh"
D=$WORK/usage
rm -rf "$D"
mkdir -p "$D"

n=0
for src in "$TOP"/tool/cmd/cmd_*.c; do
	cmd=$(basename "$src" .c | sed 's/^cmd_//; s/_/-/g')
	# the long names of the table: the lines between 'struct option' and '};'
	sed -n '/static const struct option/,/^[[:space:]]*};/p' "$src" |
		sed -n 's/^[[:space:]]*{[[:space:]]*"\([a-z0-9-]*\)".*/\1/p' | sort -u >"$D/$cmd.table"
	"$POLLTAX" "$cmd" --help >"$D/$cmd.help" 2>&1
	# the help's option list: lines that start with blanks, then -x, or --name
	grep -E '^[[:space:]]+(-[a-zA-Z0-9], )?--[a-z]' "$D/$cmd.help" |
		sed -E 's/^[[:space:]]+(-[a-zA-Z0-9], )?--([a-z0-9-]*).*/\2/' | sort -u >"$D/$cmd.listed"
	[ -s "$D/$cmd.table" ] && r=ok || r=bad
	check "$cmd: the option table is read from $(basename "$src")" $r "no 'struct option' entries found"
	missing=$(comm -23 "$D/$cmd.table" "$D/$cmd.listed" | tr '\n' ' ')
	[ -z "$missing" ] && r=ok || r=bad
	check "$cmd --help lists every option of its table" $r "not in --help: $missing"
	extra=$(comm -13 "$D/$cmd.table" "$D/$cmd.listed" | tr '\n' ' ')
	[ -z "$extra" ] && r=ok || r=bad
	check "$cmd --help lists no option its table lacks" $r "not in the table: $extra"
	n=$((n + 1))
done
# where the cache is: the help names the one this run uses
for cmd in series boot-test infra cache; do
	XDG_CACHE_HOME=$D/xdg "$POLLTAX" "$cmd" --help >"$D/$cmd.xdg" 2>&1
	grep -q "$D/xdg/polltax" "$D/$cmd.xdg" && ! grep -q '~/.cache/polltax' "$D/$cmd.xdg" && r=ok || r=bad
	check "$cmd --help with XDG_CACHE_HOME set names \$XDG_CACHE_HOME/polltax, not ~/.cache" $r \
		"$(grep -n 'cache' "$D/$cmd.xdg" | head -3)"
	env -u XDG_CACHE_HOME "$POLLTAX" "$cmd" --help 2>&1 | grep -q '~/.cache/polltax' && r=ok || r=bad
	check "$cmd --help without XDG_CACHE_HOME names ~/.cache/polltax" $r
done
[ "$n" -ge 12 ] && r=ok || r=bad
check "every command of tool/cmd/ was checked ($n)" $r "only $n commands"
echo "RESULT $passed $failed"
