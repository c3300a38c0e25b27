# SPDX-License-Identifier: GPL-2.0
# tests/metamorphic-lib.sh: sourced by tests/metamorphic.t.sh (the fixture
# tree) and tests/linux/metamorphic.t.sh (a sample of a real tree).
#
# Metamorphic soundness: every fact a 'yes' rests on must have been seen.
# Hiding the body of a function (its prototype kept, followed by ';': a
# declared-only function, the file still compiles) only takes facts away,
# so it may move a verdict toward unknown, never toward yes.  A verdict
# change after the mutation is, in mm_compare's words:
#   VIOLATION   more convertible (yes > needs-open > review > no, unknown,
#               excluded), a multi become single-*, an unknown become
#               known, a convertible verdict of another class (single-*
#               -> none: no poll_wait seen is a fact that was not seen),
#               an implementation appeared convertible;
#   LATERAL     another known class at the same rank (multi -> not-poll);
#   VANISHED    the implementation is no longer in the output, and its
#               name was not in the body removed (.poll = foo_poll in the
#               function that fills the fops goes with that body);
#   REGROUNDED  still convertible, but with other heads, or more creation
#               sites of a kind than before (facts that appeared);
#   change      less convertible, or toward unknown.
# An implementation whose definition was hidden is matched by function and
# layer in whatever file now holds it (split-poll-decl.c, a fops macro).
#
# mm_index ROOT FILE...     'polltax facts' of FILEs: TSV lines
#                           "def FILE NAME LINE END_LINE", "err FILE N"
#                           (its parse errors), "call FILE CALLEE_FILE" (a
#                           poll_table handed to a function there),
#                           "writer FILE FUNCTION" (FUNCTION of FILE assigns
#                           file->private_data or a field on the way to a
#                           head of FILE)
# mm_roots INDEX LIST FILE [callees]  the functions the verdicts of FILE's
#                           implementations rest on, "FILE<TAB>FUNCTION":
#                           the implementations (from LIST, a 'polltax
#                           list' output), their creation sites and the
#                           writers of FILE; with 'callees', the
#                           implementations alone
# mm_defs INDEX ROOTS       the definitions of ROOTS: "FILE NAME LINE END"
# mm_closure ROOT INDEX ROOTS  the definitions reachable from ROOTS: ROOTS,
#                           and every function of INDEX named in the body
#                           of one reached (called, or taken as a callback),
#                           the file's own first, else a header's, else any
#                           other file's; "FILE NAME LINE END"
# mm_mutate SRC LINE END NAME  SRC with NAME's body (LINE: the line of the
#                           name, END: that of the closing brace) cut down
#                           to ';', the line count kept, the preprocessor
#                           lines of the body kept (but #include); fails
#                           when NAME is not on LINE (a function a macro
#                           defines) or no body is found
# mm_compare BEFORE AFTER [REMOVED KEPT]  two 'polltax list' outputs: a
#                           line per change, tagged as above
# mm_run ROOT SCRATCH CACHE OUT MUTANTS BASELIST INDEX LOG [SCANARGS...]
#                           every mutant of MUTANTS (lines "FILE NAME LINE
#                           END ROLE") in turn on SCRATCH (a copy of ROOT:
#                           the mutated file replaced, never written
#                           through, then put back with its mtime, so that
#                           the cache entries that read it hold again),
#                           scanned into OUT with the cache CACHE; appends
#                           to LOG "mutant ROLE FILE NAME", "skip ...",
#                           "broken ..." (a parse error the file had not,
#                           or a failed scan) and mm_compare's lines
# mm_changes LOG            the changes, each after its mutant
# mm_file_check CHANGES FILE NAME CLOSURE  the TEST of one file: no
#                           VIOLATION on its implementations
# mm_summary LOG CHANGES SECONDS WHAT FILE...  the other TESTs: no
#                           VIOLATION elsewhere, no VANISHED, no LATERAL,
#                           no REGROUNDED, every mutant parsed; and a line
#                           of figures
# Needs POLLTAX, jq, and check() (tests/lib.sh).

mm_index() {	# ROOT FILE...
	_ix=$1
	shift
	"$POLLTAX" facts "$_ix" "$@" 2>/dev/null | jq -r '
		.file as $f
		| ((.defs // {}) | to_entries[] | ["def", $f, .key, (.value[0] | tostring), (.value[1] | tostring)]),
		  ["err", $f, ((.errors // []) | map(select(.file == $f)) | length | tostring)],
		  ((.functions // [])[] | (.events // [])[] | select(.k == "call" and (.callee_file // "") != "")
		   | ["call", $f, .callee_file]),
		  (([(.functions // [])[] | .. | objects | (.field // empty), (.fields // [])[]]
		    + ["file.private_data"]) as $heads
		   | (.field_sets // {}) | to_entries[] | select(.key as $k | $heads | index([$k]))
		   | .value[] | ["writer", $f, .])
		| @tsv'
}

mm_roots() {	# INDEX LIST FILE [callees]
	awk -F '\t' -v x="$3" -v only="${4:-}" -v list="$2" '
		function root(n,   j, nd, d) {
			if ((x, n) in def) { print x "\t" n; return }
			nd = split(substr(files[n], 2), d, SUBSEP)
			for (j = 1; j <= nd; j++)
				print d[j] "\t" n
		}
		$1 == "def" { def[$2, $3] = 1; files[$3] = files[$3] SUBSEP $2; next }
		$1 == "writer" && $2 == x { writer[$3] = 1 }
		END {
			while ((getline t < list) > 0) {
				split(t, c, "\t")
				if (c[1] != x)
					continue
				print x "\t" c[3]
				if (only == "callees")
					continue
				ns = split(c[8], s, / ; /)
				for (i = 1; i <= ns; i++)
					if (sub(/^[^:]*:/, "", s[i]) && s[i] != "")
						root(s[i])
			}
			if (only != "callees")
				for (n in writer)
					root(n)
		}' "$1" | sort -u
}

mm_defs() {	# INDEX ROOTS: the definitions of ROOTS, "FILE NAME LINE END_LINE"
	awk -F '\t' 'NR == FNR { if ($1 == "def") d[$2, $3] = $4 "\t" $5; next }
		($1, $2) in d { print $1 "\t" $2 "\t" d[$1, $2] }' "$1" "$2"
}

mm_closure() {	# ROOT INDEX ROOTS
	awk -F '\t' -v root="$1" -v index_file="$2" '
		function body(f, l, e,   i, s, out, t, p) {
			# the text of lines l..e of f, without comments, strings, characters
			if (!(f in nlines)) {
				nlines[f] = 0
				while ((getline t < (root "/" f)) > 0)
					text[f, ++nlines[f]] = t
				close(root "/" f)
			}
			out = ""
			incomment = 0
			for (i = l; i <= e && i <= nlines[f]; i++) {
				s = text[f, i]
				t = ""
				while (s != "") {
					if (incomment) {
						p = index(s, "*/")
						if (!p) { s = ""; break }
						s = substr(s, p + 2)
						incomment = 0
						continue
					}
					if (match(s, /\/\*|\/\/|"|\047/) == 0) { t = t s; break }
					t = t substr(s, 1, RSTART - 1)
					p = substr(s, RSTART, RLENGTH)
					s = substr(s, RSTART + RLENGTH)
					if (p == "/*") incomment = 1
					else if (p == "//") s = ""
					else {
						# a literal: up to its unescaped closing quote
						while (s != "" && substr(s, 1, 1) != p)
							s = substr(s, substr(s, 1, 1) == "\\" ? 3 : 2)
						s = substr(s, 2)
						t = t " "
					}
				}
				out = out " " t
			}
			return out
		}
		function add(f, n) {
			if ((f, n) in seen || !((f, n) in line))
				return
			seen[f, n] = 1
			queue[++qn] = f SUBSEP n
		}
		BEGIN {
			while ((getline t < index_file) > 0) {
				split(t, c, "\t")
				if (c[1] != "def")
					continue
				line[c[2], c[3]] = c[4]
				end[c[2], c[3]] = c[5]
				files[c[3]] = files[c[3]] SUBSEP c[2]
			}
		}
		{ add($1, $2) }
		END {
			for (q = 1; q <= qn; q++) {
				split(queue[q], k, SUBSEP)
				f = k[1]; n = k[2]
				print f "\t" n "\t" line[f, n] "\t" end[f, n]
				nt = split(body(f, line[f, n], end[f, n]), tok, /[^A-Za-z0-9_]+/)
				for (i = 1; i <= nt; i++) {
					t = tok[i]
					if (t == "" || t == n || !(t in files) || (f, t) in done)
						continue
					done[f, t] = 1
					if ((f, t) in line) {	# the file'"'"'s own first
						add(f, t)
						continue
					}
					nd = split(substr(files[t], 2), d, SUBSEP)
					hdr = 0
					for (j = 1; j <= nd; j++)
						if (d[j] ~ /\.h$/) { add(d[j], t); hdr = 1 }
					if (!hdr)
						for (j = 1; j <= nd; j++)
							add(d[j], t)
				}
			}
		}' "$3"
}

mm_mutate() {	# SRC LINE END NAME
	awk -v L="$2" -v E="$3" -v name="$4" '
		function lastbrace(s,   i) {
			for (i = length(s); i > 0; i--)
				if (substr(s, i, 1) == "}")
					return i
			return 0
		}
		# where NAME starts on s as a word followed by "(", or 0
		function namepos(s,   p, off, rest) {
			off = 0
			while ((p = index(substr(s, off + 1), name)) > 0) {
				p += off
				rest = substr(s, p + length(name))
				if ((p == 1 || substr(s, p - 1, 1) !~ /[A-Za-z0-9_]/) && rest ~ /^[ \t]*(\(|$)/)
					return p
				off = p
			}
			return 0
		}
		NR < L || NR > E { print; next }
		state == 0 {
			off = 0
			if (NR == L) {
				p = namepos($0)
				if (!p) { bad = "the name is not on its line"; exit 1 }
				off = p - 1 + length(name)
			}
			i = index(substr($0, off + 1), "{")
			if (!i) {
				if (NR == E) { bad = "no body"; exit 1 }
				print
				next
			}
			c = off + i
			pre = substr($0, 1, c - 1)
			if (NR == E) {
				j = lastbrace($0)
				if (j <= c) { bad = "no closing brace"; exit 1 }
				print pre ";" substr($0, j + 1)
				state = 2
				next
			}
			print pre ";"
			state = 1
			next
		}
		state == 1 && NR < E {
			# the preprocessor lines stay (but #include), the rest goes
			if (cont || $0 ~ /^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif|define|undef|pragma)([^A-Za-z0-9_]|$)/) {
				print
				cont = $0 ~ /\\$/
			} else
				print ""
			next
		}
		state == 1 && NR == E {
			j = lastbrace($0)
			if (!j) { bad = "no closing brace"; exit 1 }
			print substr($0, j + 1)
			state = 2
		}
		END {
			if (bad == "" && state != 2)
				bad = "the body was not found"
			if (bad != "") {
				print "mm_mutate: " name ": " bad > "/dev/stderr"
				exit 1
			}
		}' "$1"
}

mm_compare() {	# BEFORE AFTER [REMOVED KEPT]
	awk -F '\t' -v removed="${3:-}" -v kept="${4:-}" '
		function rank(v) { return v == "yes" ? 3 : v == "needs-open" ? 2 : v == "review" ? 1 : 0 }
		# the tag and the reason of a verdict change: VIOLATION (more
		# convertible), LATERAL (to another known class), or change
		function judge(c0, v0, c1, v1) {
			if (rank(v1) > rank(v0)) return "VIOLATION\tmore convertible"
			if (c0 == "multi" && c1 ~ /^single-/) return "VIOLATION\tmulti became single"
			if (c0 == "unknown" && c1 != "unknown") return "VIOLATION\tunknown became known"
			if (rank(v1) > 0 && c1 != c0) return "VIOLATION\tconvertible on other grounds"
			if (c1 != "unknown" && c1 != c0) return "LATERAL\tnot toward unknown"
			if (rank(v1) < rank(v0)) return "change\tless convertible"
			return "change\ttoward unknown"
		}
		function say(k0, c0, v0, c1, v1, extra,   j) {
			split(judge(c0, v0, c1, v1), j, "\t")
			printf "%s %s: %s/%s -> %s/%s (%s%s)\n", j[1], k0, c0, v0, c1, v1, j[2], extra
		}
		function sorted(s, sep,   a, n, i, j, t, r) {
			n = split(s, a, sep)
			for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
			r = ""
			for (i = 1; i <= n; i++) r = r (i > 1 ? sep : "") a[i]
			return r
		}
		# more creation sites of a kind after than before?  (One that
		# only changes its name, the function that registered the fops
		# hidden, is no gain; one that is lost leaves fewer.)
		function gained(s0, s1,   a, n, i, c, kd) {
			n = split(s0, a, / ; /)
			for (i = 1; i <= n; i++) { kd = a[i]; sub(/:[^:]*$/, "", kd); c[kd]-- }
			n = split(s1, a, / ; /)
			for (i = 1; i <= n; i++) { kd = a[i]; sub(/:[^:]*$/, "", kd); if (++c[kd] > 0) return 1 }
			return 0
		}
		function key(   k) { k = $1 " " $3 " " $4; n[FILENAME, k]++; return k "#" n[FILENAME, k] }
		function words(f, v,   t, nw, w, i) {
			while (f != "" && (getline t < f) > 0) {
				nw = split(t, w, /[^A-Za-z0-9_]+/)
				for (i = 1; i <= nw; i++)
					if (v) word[w[i]] = 1
					else delete word[w[i]]
			}
		}
		BEGIN {
			# the words of the body removed (not those of the prototype
			# kept): an implementation named there (.poll = foo_poll in
			# the function that fills the fops) may go with it
			words(removed, 1)
			words(kept, 0)
		}
		NR == FNR {
			k = key(); bc[k] = $5; bv[k] = $6; fl[k] = $3 " " $4; fn[k] = $3
			bh[k] = sorted($7, " ;; "); bs[k] = sorted($8, " ; ")
			next
		}
		{ k = key(); ac[k] = $5; av[k] = $6; fl[k] = $3 " " $4; ah[k] = sorted($7, " ;; "); as[k] = sorted($8, " ; ") }
		END {
			for (k in bc) {
				split(k, p, "#")
				if (k in ac) {
					if (bc[k] != ac[k] || bv[k] != av[k])
						say(p[1], bc[k], bv[k], ac[k], av[k], "")
					else if (rank(av[k]) > 0 && (bh[k] != ah[k] || gained(bs[k], as[k])))
						printf "REGROUNDED %s: %s/%s, heads \"%s\" -> \"%s\", sites \"%s\" -> \"%s\"\n",
							p[1], ac[k], av[k], bh[k], ah[k], bs[k], as[k]
					continue
				}
				# hidden, a definition leaves its file: the same
				# function and layer now elsewhere is the same one
				moved = ""
				for (m in ac)
					if (!(m in bc) && !(m in paired) && fl[m] == fl[k]) { moved = m; break }
				if (moved == "") {
					printf "%s %s: %s/%s -> (none) (%s)\n", (fn[k] in word) ? "change" : "VANISHED", p[1], bc[k], bv[k],
						(fn[k] in word) ? "gone with the body that registered it" : "vanished"
					continue
				}
				paired[moved] = 1
				split(moved, q, " ")
				say(p[1], bc[k], bv[k], ac[moved], av[moved], ", now in " q[1])
			}
			for (m in ac)
				if (!(m in bc) && !(m in paired)) {
					split(m, p, "#")
					say(p[1], "(none)", "", ac[m], av[m], ", appeared")
				}
		}' "$1" "$2"
}

mm_run() {	# ROOT SCRATCH CACHE OUT MUTANTS BASELIST INDEX LOG [SCANARGS...]
	_root=$1 _scr=$2 _cache=$3 _out=$4 _mut=$5 _base=$6 _idx=$7 _log=$8
	shift 8
	while IFS='	' read -r _f _n _l _e _tag; do
		[ -n "$_f" ] || continue
		if ! mm_mutate "$_root/$_f" "$_l" "$_e" "$_n" >"$_out.mutant" 2>"$_out.why"; then
			printf 'skip %s %s %s: %s\n' "${_tag:--}" "$_f" "$_n" "$(cat "$_out.why")" >>"$_log"
			continue
		fi
		rm -f "$_scr/$_f"
		cp "$_out.mutant" "$_scr/$_f"
		touch "$_out.stamp"
		printf 'mutant %s %s %s\n' "${_tag:--}" "$_f" "$_n" >>"$_log"
		if XDG_CACHE_HOME=$_cache "$POLLTAX" scan -q --no-cocci "$@" -o "$_out" "$_scr" 2>"$_out.err" </dev/null &&
			"$POLLTAX" list "$_out" >"$_out.tsv"; then
			# the files parsed again: any parse error they had not?
			find "$_cache/polltax/facts" -path '*/sets' -prune -o -name '*.json' -newer "$_out.stamp" \
				-exec jq -r '.facts.file as $f | select($f) | [$f, ((.facts.errors // []) | map(select(.file == $f)) | length)] | @tsv' {} + |
				awk -F '\t' -v idx="$_idx" '
					BEGIN { while ((getline t < idx) > 0) { split(t, c, "\t"); if (c[1] == "err") err[c[2]] = c[3] } }
					$2 > err[$1] + 0 { print "broken " $1 ": " $2 " parse errors, " err[$1] + 0 " before" }' >>"$_log"
			sed -n "${_l},${_e}p" "$_root/$_f" >"$_out.removed"
			sed -n "${_l},${_e}p" "$_out.mutant" >"$_out.kept"
			mm_compare "$_base" "$_out.tsv" "$_out.removed" "$_out.kept" >>"$_log" || echo "broken $_f: the comparison failed" >>"$_log"
		else
			printf 'broken %s: the scan failed: %s\n' "$_f" "$(tail -n 1 "$_out.err")" >>"$_log"
		fi
		# back as it was, mtime too: the cache entries that read it hold again
		rm -f "$_scr/$_f"
		cp -p "$_root/$_f" "$_scr/$_f"
	done <"$_mut"
}

mm_changes() {	# LOG: its verdict changes, each after its mutant: "FILE FUNCTION (ROLE)<TAB>CHANGE"
	awk '/^mutant / { m = $3 " " $4 " (" $2 ")"; next }
		/^(VIOLATION|LATERAL|VANISHED|REGROUNDED|change) / { print m "\t" $0 }' "$1"
}

mm_file_check() {	# CHANGES FILE NAME CLOSURE: the TEST of one file
	_v=$(awk -F '\t' -v f="VIOLATION $2 " 'index($2, f) == 1 { print "removed " $1 ": " substr($2, 11) }' "$1")
	[ -z "$_v" ] && _r=ok || _r=bad
	check "metamorphic: no mutant of $3 is more convertible ($(grep -c '	callee$' "$4") callees, $(grep -c '	open-path$' "$4") on open paths)" \
		"$_r" "$_v"
}

mm_summary() {	# LOG CHANGES SECONDS WHAT FILE...: the checks of the whole run
	_log=$1 _ch=$2 _sec=$3 _what=$4
	shift 4
	_files=" $* "
	_tagged() {	# TAG
		awk -F '\t' -v t="$1 " 'index($2, t) == 1 { print "removed " $1 ": " substr($2, length(t) + 1) }' "$_ch"
	}
	_v=$(awk -F '\t' -v d="$_files" '$2 ~ /^VIOLATION / { split($2, a, " "); if (index(d, " " a[2] " ") == 0)
		print "removed " $1 ": " substr($2, 11) }' "$_ch")
	[ -z "$_v" ] && _r=ok || _r=bad
	check "metamorphic: no mutant makes an implementation outside $_what more convertible" "$_r" "$_v"
	_v=$(_tagged VANISHED)
	[ -z "$_v" ] && _r=ok || _r=bad
	check "metamorphic: no implementation vanishes under a mutant" "$_r" "$_v"
	_v=$(_tagged LATERAL)
	[ -z "$_v" ] && _r=ok || _r=bad
	check "metamorphic: verdicts move only toward unknown (to no other known class)" "$_r" "$_v"
	_v=$(_tagged REGROUNDED)
	[ -z "$_v" ] && _r=ok || _r=bad
	check "metamorphic: a verdict still convertible keeps its heads, and gains no creation site" "$_r" "$_v"

	_n=$(grep -c '^mutant ' "$_log")
	_c() { grep -c "	$1" "$_ch"; }
	echo "metamorphic: $_n mutants ($(grep -c '^skip ' "$_log") functions not mutable) in $_sec s;" \
		"$(grep -vc '	REGROUNDED ' "$_ch") verdicts changed: $(_c 'change .*(less convertible') less convertible," \
		"$(_c 'change .*(toward unknown') toward unknown at the same rank," \
		"$(_c 'change .*(gone with the body') gone with the body that registered them," \
		"$(_c 'LATERAL ') to another known class, $(_c 'VANISHED ') vanished, $(_c 'VIOLATION ') more convertible;" \
		"$(_c 'REGROUNDED ') still convertible with other heads or more creation sites"
	grep '^skip ' "$_log" | sed 's/^/  /'
	_b=$(grep -c '^broken ' "$_log")
	[ "$_n" -gt 0 ] && [ "$_b" -eq 0 ] && _r=ok || _r=bad
	check "metamorphic: $_n mutants scanned, each parses without a new error" "$_r" "$(grep '^broken ' "$_log" | head -n 5)"
}
