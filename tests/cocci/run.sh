#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Test runner for cocci/classify.cocci.  Each case is a pair NAME.c (a
# small kernel-like input) and NAME.res (the exact "-D facts" lines that
# classify.cocci prints for it, FILE written as NAME.c).
#
#   run.sh                 run every case
#   run.sh single NAME     run one case (NAME or NAME.c)
#   run.sh format NAME     rewrite NAME.res from today's output, for review
#
# Overridable: SPATCH (default spatch).  Exit status 0 when every case
# passes, 1 when one fails, 2 on a usage error.

SPATCH=${SPATCH:-spatch}

here=$(cd "$(dirname "$0")" && pwd) || exit 2
top=$(cd "$here/../.." && pwd) || exit 2

# The options the scanner uses (see the header of classify.cocci),
# minus --jobs and --file-groups: one file here.
run_case() {
	"$SPATCH" --sp-file "$top/cocci/classify.cocci" -D facts \
		--very-quiet --no-show-diff --no-includes --ifdef-to-if \
		--macro-file "$top/cocci/classify-macros.h" --timeout 60 \
		"$1.c"
}

usage() {
	echo "usage: run.sh [single NAME | format NAME]" >&2
	exit 2
}

cd "$here" || exit 2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM

passed=0
failed=0

check() {
	name=$1
	echo "TEST $name"
	if [ ! -f "$name.res" ]; then
		echo "error: no $name.res (run.sh format $name)" >&2
		failed=$((failed + 1))
		return
	fi
	if ! run_case "$name" >"$tmp/out" 2>"$tmp/err"; then
		echo "error: spatch failed on $name.c:" >&2
		cat "$tmp/err" >&2
		failed=$((failed + 1))
		return
	fi
	if [ -s "$tmp/err" ]; then
		cat "$tmp/err" >&2
	fi
	if diff -u "$name.res" "$tmp/out" >"$tmp/diff"; then
		passed=$((passed + 1))
	else
		cat "$tmp/diff"
		failed=$((failed + 1))
	fi
}

case $1 in
format)
	[ $# -eq 2 ] || usage
	name=${2%.c}
	[ -f "$name.c" ] || { echo "error: no test '$name.c'" >&2; exit 2; }
	run_case "$name" >"$tmp/out" || exit 1
	mv "$tmp/out" "$name.res" || exit 1
	echo "wrote $name.res:"
	cat "$name.res"
	exit 0
	;;
single)
	[ $# -eq 2 ] || usage
	name=${2%.c}
	[ -f "$name.c" ] || { echo "error: no test '$name.c'" >&2; exit 2; }
	check "$name"
	;;
"")
	for c in *.c; do
		[ -f "$c" ] || continue
		check "${c%.c}"
	done
	;;
*)
	usage
	;;
esac

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
