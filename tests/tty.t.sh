#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Suite: the live progress line on a terminal.  A scan on a terminal
# rewrites one status line ("\r\033[K" and the text) per file; a line
# wider than the terminal wraps, and the next "\r" goes back to the start
# of its last row only: on an 80-column terminal the rows pile up.  So
# every status line must fit in the terminal's width less one column,
# asked of the terminal (TIOCGWINSZ), else $COLUMNS, else 80.  script(1)
# gives the scan a pseudo-terminal whose size stty sets.
# Environment: POLLTAX, TOP, WORK (as tests/run.sh sets them).  Prints
# TEST lines and ends with "RESULT <passed> <failed>".

set -u
: "${POLLTAX:?}" "${TOP:?}" "${WORK:?}"
. "$TOP/tests/lib.sh"
D=$WORK/tty
rm -rf "$D"
mkdir -p "$D"
cd "$D" || exit 1
cp -R "$TOP/tests/fixtures/tree" tree

if ! command -v script >/dev/null 2>&1; then
	check "tty: script(1) is installed (bsdutils)" bad "script not found"
	echo "RESULT $passed $failed"
	exit 0
fi

# widest WIDTH TYPESCRIPT: "N OVER LONGEST": how many status lines (those
# rewritten by the next "\r", not ended by a newline), how many are wider
# than WIDTH-1 columns, the widest of those
widest() {
	python3 - "$1" "$2" <<'EOF'
import re, sys
w, data = int(sys.argv[1]), open(sys.argv[2], 'rb').read().decode('utf-8', 'replace')
lines = [m.group(1) for m in re.finditer(r'\x1b\[K([^\r\n]*)\r(?!\n)', data)]
over = [l for l in lines if len(l) > w - 1]
print(len(lines), len(over), max(over, key=len) if over else '-')
EOF
}

# scan_on_tty NAME STTY-SIZE [ENV...]: a scan that parses every file, on a pseudo-terminal
scan_on_tty() {
	name=$1
	size=$2
	shift 2
	env "$@" XDG_CACHE_HOME="$D/cache" script -qfec \
		"stty $size; '$POLLTAX' scan --no-cache --no-cocci -j 2 -o out tree" /dev/null >"$name.typescript" 2>&1
}

scan_on_tty cols40 "cols 40 rows 24"
widest 40 cols40.typescript >cols40.widest
read -r n over longest <cols40.widest
[ "${n:-0}" -gt 10 ] && [ "${over:-1}" -eq 0 ] && r=ok || r=bad
check "tty: a 40-column terminal: every status line fits in 39 columns" $r \
	"$n status lines, $over wider, such as: $longest"

# a terminal that does not know its size (0 columns): $COLUMNS
scan_on_tty columns "cols 0 rows 0" COLUMNS=30
widest 30 columns.typescript >columns.widest
read -r n over longest <columns.widest
[ "${n:-0}" -gt 10 ] && [ "${over:-1}" -eq 0 ] && r=ok || r=bad
check "tty: no size from the terminal, COLUMNS=30: every status line fits in 29 columns" $r \
	"$n status lines, $over wider, such as: $longest"

# neither: 80
scan_on_tty eighty "cols 0 rows 0" -u COLUMNS
widest 80 eighty.typescript >eighty.widest
read -r n over longest <eighty.widest
[ "${n:-0}" -gt 10 ] && [ "${over:-1}" -eq 0 ] && r=ok || r=bad
check "tty: no size and no COLUMNS: 80 columns" $r "$n status lines, $over wider, such as: $longest"

echo "RESULT $passed $failed"
