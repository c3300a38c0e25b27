# SPDX-License-Identifier: GPL-2.0
# tests/lib.sh: sourced by the suites (tests/*.t.sh) that count with check().
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
