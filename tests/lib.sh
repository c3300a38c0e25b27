# SPDX-License-Identifier: GPL-2.0
# tests/lib.sh: sourced by the suites (tests/*.t.sh) that count with check(),
# and by tests/check-linux.sh.
# A suite prints a TEST line per check, "  FAIL: ..." under a failed one,
# and "RESULT $passed $failed" at the end (tests/run.sh adds them up).

passed=0
failed=0
check() {	# NAME ok|bad [WHY]
	printf 'TEST %s\n' "$1"
	if [ "$2" = ok ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		printf '  FAIL: %s\n' "${3:-$1}"
	fi
}
same_outputs() {	# DIR1 DIR2: polltax.json, polltax.csv, summary.md identical; else say which differs
	for f in polltax.json polltax.csv summary.md; do
		cmp -s "$1/$f" "$2/$f" || { echo "$f differs"; return 1; }
	done
}
