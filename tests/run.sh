#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tests/run.sh POLLTAX [single FILE]
#
# The test runner, in the style of sparse's validation/test-suite: every
# fixture driver under tests/fixtures/tree carries its expected verdicts in a
# trailing comment block of tags:
#   check-name: NAME                  the case
#   check-poll: FUNCTION CLASS        one line per implementation in the file
#   check-heads: FUNCTION H [;; H]    the heads as written (spaces ignored)
#   check-convertible: FUNCTION V     yes | needs-open | review | no | excluded | converted
#   check-creation: FUNCTION KIND:FN  a creation site that must be found
#   check-reason: FUNCTION TEXT       TEXT is part of the one-line reason
#   check-parsed-through: INCLUDER    the file is compiled only by being
#                                     #included: polltax.json says it was
#                                     parsed through INCLUDER
#   check-parse-error: TEXT           the file does not compile (code for
#                                     another kernel): polltax.json lists it
#                                     in files.failed, the reason has TEXT
#   check-known-to-fail               the case is expected to fail (it is an
#                                     error when it passes)
# The fixture tree is scanned once; each file is one TEST line.  Then the
# other suites (tests/*.t.sh) run, each printing its own TEST lines.  The
# last line is "N passed, N failed"; the exit status is non-zero on failure.
#
# single FILE: only that fixture file (path relative to the fixture tree).
# fixtures [DIR]: only the fixture files, no other suite; scan into DIR
# (default build/test) with its own cache (tests/sanitizers.t.sh uses it).

set -u
POLLTAX=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
shift
TOP=$(cd "$(dirname "$0")/.." && pwd)
TREE=$TOP/tests/fixtures/tree
WORK=$TOP/build/test
mode=all
only=
if [ "${1:-}" = single ]; then
	mode=single
	only=$2
elif [ "${1:-}" = fixtures ]; then
	mode=fixtures
	[ -n "${2:-}" ] && WORK=$2
fi

mkdir -p "$WORK"
export XDG_CACHE_HOME="$WORK/cache"
passed=0
failed=0

pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); printf '  FAIL: %s\n' "$1"; }

"$POLLTAX" scan -q -j 2 -o "$WORK/fixture" "$TREE" 2>"$WORK/fixture.err" || {
	echo "polltax scan failed on the fixture tree:"; cat "$WORK/fixture.err"; echo "0 passed, 1 failed"; exit 1; }
"$POLLTAX" list "$WORK/fixture" >"$WORK/fixture.tsv"

# check_file REL: compare one fixture file's tags with the scan
check_file() {
	rel=$1
	f=$TREE/$rel
	name=$(sed -n 's/^[ */]*check-name:[ ]*//p' "$f" | head -n 1)
	known=$(grep -c 'check-known-to-fail' "$f")
	printf 'TEST %s (%s)\n' "$name" "$rel"
	errs=$(awk -F '\t' -v rel="$rel" -v tsv="$WORK/fixture.tsv" '
		function nospace(s) { gsub(/[ \t]/, "", s); return s }
		function sortset(s,   n, a, i, j, t, r) {
			n = split(s, a, /;;/)
			for (i = 1; i <= n; i++) a[i] = nospace(a[i])
			for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
			r = ""; for (i = 1; i <= n; i++) r = r (i > 1 ? ";;" : "") a[i]
			return r
		}
		BEGIN {
			while ((getline line < tsv) > 0) {
				split(line, c, "\t")
				if (c[1] != rel) continue
				k = c[3]
				cls[k] = c[5]; conv[k] = c[6]; heads[k] = c[7]; sites[k] = c[8]; reason[k] = c[9]
			}
		}
		/check-(poll|heads|convertible|creation|reason):/ {
			sub(/^[ *\/]*/, "")
			tag = $0; sub(/:.*/, "", tag)
			rest = $0; sub(/^[^:]*:[ ]*/, "", rest)
			fn = rest; sub(/[ ].*/, "", fn)
			val = rest; sub(/^[^ ]*[ ]*/, "", val); sub(/[ ]*$/, "", val)
			if (!(fn in cls)) { print "no implementation " fn " found in " rel; next }
			if (tag == "check-poll" && cls[fn] != val)
				print fn ": class " cls[fn] ", expected " val " (" reason[fn] ")"
			if (tag == "check-convertible" && conv[fn] != val)
				print fn ": convertible " conv[fn] ", expected " val " (" reason[fn] ")"
			if (tag == "check-heads" && sortset(heads[fn]) != sortset(val))
				print fn ": heads \"" heads[fn] "\", expected \"" val "\""
			if (tag == "check-creation" && index(nospace(sites[fn]), nospace(val)) == 0)
				print fn ": creation site " val " not in \"" sites[fn] "\""
			if (tag == "check-reason" && index(reason[fn], val) == 0)
				print fn ": reason \"" reason[fn] "\" does not say \"" val "\""
		}' "$f")
	# what polltax.json "files" says of the file itself
	want=$(sed -n 's/^[ */]*check-parsed-through:[ ]*//p' "$f" | head -n 1)
	if [ -n "$want" ]; then
		got=$(jq -r --arg f "$rel" '.files.through_includer[]? | select(.file == $f) | .includer' \
			"$WORK/fixture/polltax.json")
		[ "$got" = "$want" ] || errs="${errs:+$errs
}parsed through '$got', expected $want ($(jq -r --arg f "$rel" \
			'.files.failed[]? | select(.file == $f) | .reason' "$WORK/fixture/polltax.json"))"
	fi
	want=$(sed -n 's/^[ */]*check-parse-error:[ ]*//p' "$f" | head -n 1)
	if [ -n "$want" ]; then
		got=$(jq -r --arg f "$rel" '.files.failed[]? | select(.file == $f) | .reason' "$WORK/fixture/polltax.json")
		case $got in
		*"$want"*) ;;
		*) errs="${errs:+$errs
}not in files.failed with '$want' (reason '$got')" ;;
		esac
	fi
	if [ -n "$errs" ] && [ "$known" -eq 0 ]; then
		fail "$rel"
		printf '%s\n' "$errs" | sed 's/^/    /'
	elif [ -z "$errs" ] && [ "$known" -ne 0 ]; then
		fail "$rel: known to fail, but passes"
	else
		pass
	fi
}

if [ "$mode" = single ]; then
	check_file "$only"
else
	for rel in $(cd "$TREE" && grep -rl 'check-name:' --include='*.c' . | sed 's|^\./||' | sort); do
		check_file "$rel"
	done
	[ "$mode" = fixtures ] || for t in "$TOP"/tests/*.t.sh; do
		[ -f "$t" ] || continue
		out=$(POLLTAX="$POLLTAX" TOP="$TOP" WORK="$WORK" sh "$t" 2>&1)
		printf '%s\n' "$out" | grep -v '^RESULT '
		p=$(printf '%s\n' "$out" | sed -n 's/^RESULT \([0-9]*\) \([0-9]*\)$/\1/p')
		q=$(printf '%s\n' "$out" | sed -n 's/^RESULT \([0-9]*\) \([0-9]*\)$/\2/p')
		if [ -z "$p" ]; then
			fail "$t did not finish"
		else
			passed=$((passed + p))
			failed=$((failed + q))
		fi
	done
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
