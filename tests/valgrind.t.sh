#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Suite: valgrind finds no memory error and no definite leak of ours
# (tests/valgrind.supp holds libclang's own) in
#  - a cold scan of a small tree cut from the fixture (every worker parses
#    with libclang under valgrind: too slow for the whole fixture in CI),
#  - a warm scan of the whole fixture tree (join, classify, outputs),
#  - polltax list and polltax facts.
# Every process is checked, the forked workers too (one log each).
set -u
V=$WORK/valgrind
FIX=$TOP/tests/fixtures/tree
rm -rf "$V"
mkdir -p "$V/log"
passed=0
failed=0
no() { failed=$((failed + 1)); printf '  FAIL: %s\n' "$1"; }

# vg NAME ARGS...: polltax ARGS under valgrind, logs in $V/log/NAME.PID.
# polltax links tcmalloc: valgrind replaces its functions (--soname-synonyms)
# but then takes libLLVM's operator delete[] for free(), so mismatched
# frees (C++ only: none of ours) are not reported
vg() {
	name=$1
	shift
	XDG_CACHE_HOME=$V/cache valgrind -q --leak-check=full --errors-for-leak-kinds=definite \
		--error-exitcode=99 --soname-synonyms=somalloc='*tcmalloc*' \
		--show-mismatched-frees=no --suppressions="$TOP/tests/valgrind.supp" \
		--log-file="$V/log/$name.%p" "$POLLTAX" "$@" >"$V/$name.out" 2>"$V/$name.err"
}

# check NAME RC: the case passes when polltax succeeded and every log is empty
check() {
	if [ "$2" -ne 0 ]; then
		no "$1: exit $2"
		tail -n 5 "$V/$1.err" | sed 's/^/    /'
	elif [ -n "$(cat "$V"/log/"$1".* 2>/dev/null)" ]; then
		no "$1: valgrind reports (in $V/log/$1.*):"
		cat "$V"/log/"$1".* | head -n 30 | sed 's/^/    /'
	else
		passed=$((passed + 1))
	fi
}

if ! command -v valgrind >/dev/null 2>&1; then
	printf 'TEST valgrind\n'
	no "valgrind is not installed (apt-get install valgrind)"
	echo "RESULT $passed $failed"
	exit 0
fi

mini=$V/mini
mkdir -p "$mini/drivers"
cp -R "$FIX/include" "$FIX/Makefile" "$FIX/compile_flags.txt" "$mini/"
for f in drivers/char/single-static-global-wait.c drivers/char/multi-read-write-queues.c \
	 drivers/char/single-private-container-of.c drivers/misc/delegate-vfs-poll.c \
	 drivers/misc/single-cond-if-guard.c drivers/misc/multi-ifdef-second-head.c; do
	mkdir -p "$mini/${f%/*}"
	cp "$FIX/$f" "$mini/$f"
done

printf 'TEST valgrind-cold-scan (6 files, workers under valgrind)\n'
vg cold scan -q --no-cocci -j 2 -o "$V/cold" "$mini"
check cold $?

printf 'TEST valgrind-warm-scan (the fixture tree)\n'
XDG_CACHE_HOME=$V/cache "$POLLTAX" scan -q -j 2 -o "$V/warmup" "$FIX" 2>"$V/warmup.err"
vg warm scan -q -j 2 -o "$V/warm" "$FIX"
check warm $?

printf 'TEST valgrind-list\n'
vg list list "$V/warm"
check list $?

printf 'TEST valgrind-facts (libclang in process)\n'
vg facts facts "$mini" drivers/char/single-private-container-of.c drivers/misc/multi-ifdef-second-head.c
check facts $?
echo "RESULT $passed $failed"
