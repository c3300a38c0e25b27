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
cocci_not_reported() {	# CSV REPORT PREFIX: the Coccinelle verdicts of polltax.csv under PREFIX missing from a coccicheck report
	python3 - "$1" "$2" "$3" <<'PY'
import csv, re, sys
rep = set()
for l in open(sys.argv[2]):
    m = re.match(r'(?:\./)?(\S+?):\d+:\S+: WARNING: (\w+)\(\): ([\w-]+): ', l)
    if m:
        rep.add(m.groups())
for r in csv.DictReader(open(sys.argv[1])):
    k = (r['file'], r['function'], r['cocci_class'])
    if r['file'].startswith(sys.argv[3]) and r['cocci_class'] and k not in rep:
        print('%s:%s():%s' % k)
PY
}
cocci_verdicts() {	# CSV PREFIX: how many implementations under PREFIX polltax.csv has a Coccinelle verdict for
	python3 -c 'import csv, sys; print(sum(1 for r in csv.DictReader(open(sys.argv[1])) if r["file"].startswith(sys.argv[2]) and r["cocci_class"]))' "$1" "$2"
}
