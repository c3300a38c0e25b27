#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Suite: "polltax series" and "polltax verify" on the fixture tree.
#   - series writes a cover letter, the patches (with To:/Cc: from
#     get_maintainer.pl), README.md and series.json, and never writes into
#     the tree;
#   - the same input gives byte-identical output;
#   - verify builds the users of an ops macro a patch changes in a header;
#   - verify applies every patch in a scratch tree, compiles the touched
#     files with gcc -Werror and sparse before and after each one, runs
#     checkpatch --strict: all pass;
#   - the whole fixture tree, with the series applied, still passes its
#     "make check" (gcc, clang, sparse over every file);
#   - on a git clone of the fixture: the cover letter has base-commit:,
#     --split-per-driver and --max-patches split the series into postings
#     with one cover letter each, and the clone is left as it was;
#   - bad input is refused in git's voice: no identity, a missing
#     infrastructure patch, an output directory that is not ours;
#   - --subject-prefix, --rfc and -v N name the postings as git
#     format-patch does (the patches otherwise the same), --section keeps
#     one MAINTAINERS section (an unknown one: exit 2, the close names).
# Environment: POLLTAX, TOP, WORK (as tests/run.sh sets them).  Prints TEST
# lines and ends with "RESULT <passed> <failed>".

set -u
: "${POLLTAX:?}" "${TOP:?}" "${WORK:?}"
FIX=$TOP/tests/fixtures/tree
T=$WORK/series
ID="Polly Tax <polly@example.org>"
passed=0
failed=0

pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); printf '  FAIL: %s\n' "$1"; }
check() { # check NAME CONDITION-RESULT MESSAGE
	printf 'TEST series: %s\n' "$1"
	if [ "$2" = ok ]; then pass; else fail "$3"; fi
}

# rel PATH: PATH relative to $T, as a person in $T types it
rel() { realpath -m --relative-to="$T" "$1"; }

rm -rf "$T"
mkdir -p "$T"
SCAN=$WORK/fixture
if [ ! -f "$SCAN/polltax.json" ]; then
	SCAN=$T/scan
	"$POLLTAX" scan -q -j 2 -o "$SCAN" "$FIX" 2>"$T/scan.err" || {
		check "scan of the fixture tree" bad "$(cat "$T/scan.err")"
		echo "RESULT $passed $failed"
		exit 0
	}
fi
before=$(cd "$FIX" && find . -type f -newer "$SCAN/polltax.json" | wc -l)

# 1. the series
"$POLLTAX" series -q --scan "$SCAN" --signoff "$ID" -o "$T/out" "$FIX" 2>"$T/series.err"
rc=$?
[ $rc -eq 0 ] && r=ok || r=bad
check "series runs on the fixture tree" $r "exit $rc: $(cat "$T/series.err")"
n=$(ls "$T/out"/0[0-9][0-9][0-9]-*.patch 2>/dev/null | grep -vc /0000-cover-letter.patch)
[ -f "$T/out/0000-cover-letter.patch" ] && [ -f "$T/out/README.md" ] && [ -f "$T/out/series.json" ] && [ "$n" -ge 2 ] &&
	r=ok || r=bad
check "cover letter, $n patches, README.md and series.json" $r "$(ls "$T/out")"
r=ok
for p in "$T/out"/0*.patch; do
	grep -q '^To: ' "$p" && grep -q '^Signed-off-by: Polly Tax <polly@example.org>$' "$p" ||
		{ [ "${p##*/}" = 0000-cover-letter.patch ] && grep -q '^To: ' "$p"; } || r=bad
done
check "every patch has To: and Signed-off-by:" $r "a patch lacks To: or Signed-off-by:"
grep -q 'CHAR and MISC DRIVERS' "$T/out"/0001-*.patch && grep -q 'carl.charson@example.org' "$T/out"/0001-*.patch &&
	r=ok || r=bad
check "patches are grouped per MAINTAINERS section" $r "$(head -8 "$T/out"/0001-*.patch)"
grep -q 'a11e1d432b51' "$T/out/0000-cover-letter.patch" && grep -q '^multi (' "$T/out/0000-cover-letter.patch" &&
	grep -q 'refused by the conversion' "$T/out/0000-cover-letter.patch" && grep -q 'spatch --sp-file' "$T/out/0000-cover-letter.patch" &&
	r=ok || r=bad
check "cover letter: the revert, flagged classes, refusals, the commands" $r "see $T/out/0000-cover-letter.patch"
# flat FILE: its text on one line, for sentences the wrapping may break anywhere
flat() { tr '\n' ' ' <"$1" | tr -s ' '; }
# subjects DIR: the summary of every patch under DIR ("Subject:" unfolded, "[PATCH n/m] " cut)
subjects() {
	find "$1" -name '0*.patch' | sort | while read -r p; do
		awk '/^Subject: / { s = $0; while ((getline l) > 0 && l ~ /^[ \t]/) s = s l; print s; exit }' "$p"
	done | sed 's/^Subject: \[PATCH[^]]*\] //'
}
long=$(subjects "$T/out" | awk 'length($0) > 75')
[ -z "$long" ] && [ "$(subjects "$T/out" | wc -l)" -eq $((n + 1)) ] && r=ok || r=bad
check "every subject has at most 75 characters" $r "$long"
p=$(ls "$T/out"/0*-drm-*.patch 2>/dev/null | head -n 1)
flat "$p" | grep -qF 'drm_poll() is exported (EXPORT_SYMBOL in drivers/gpu/drm/drm_file.c): it is renamed drm_poll_mask(), and its export with it' &&
	flat "$p" | grep -qF 'The macro DRM_GEM_FOPS (include/drm/drm_gem.h) builds the file_operations of every driver that uses it' &&
	r=ok || r=bad
check "a renamed export and a shared ops macro are said in the commit message" $r \
	"$(sed -n '/^Converted/,/^Signed-off-by/p' "$p")"
after=$(cd "$FIX" && find . -type f -newer "$SCAN/polltax.json" | wc -l)
[ "$before" = "$after" ] && r=ok || r=bad
check "the fixture tree is not written to" $r "$((after - before)) files changed"

# 2. byte-identical output, from paths typed relative to the cwd (git
# format-patch runs in the scratch tree: they must be resolved first)
(cd "$T" && "$POLLTAX" series -q --scan "$(rel "$SCAN")" --signoff "$ID" -o out2 "$(rel "$FIX")") 2>"$T/series2.err"
rc=$?
[ $rc -eq 0 ] && [ -f "$T/out2/series.json" ] && r=ok || r=bad
check "series with relative --scan, -o and KERNEL_DIR" $r "exit $rc: $(cat "$T/series2.err")"
[ -z "$(ls -d "$T"/out2.tmp-* 2>/dev/null)" ] && r=ok || r=bad
check "no out2.tmp-PID left behind" $r "$(ls -d "$T"/out2.tmp-* 2>/dev/null)"
diff -r "$T/out" "$T/out2" >"$T/determinism.diff" 2>&1 && r=ok || r=bad
check "same input, byte-identical output" $r "$(head -20 "$T/determinism.diff")"

# 2b. run again, the facts of every file it looks into, the files that
# name a function and the conversions come from the cache (the cfacts,
# refs and applied parts): no spatch, no git grep, the same output
mkdir -p "$T/shim"
printf '#!/bin/sh\necho "$*" >>"%s/spatch-calls"\nexec %s "$@"\n' "$T" "$(command -v spatch)" >"$T/shim/spatch"
printf '#!/bin/sh\n[ "$1" = grep ] && echo "$*" >>"%s/grep-calls"\nexec %s "$@"\n' "$T" "$(command -v git)" >"$T/shim/git"
chmod +x "$T/shim/spatch" "$T/shim/git"
# (the memo of the conversions is keyed by the spatch found first in PATH:
# the shim's, which the first of the two runs remembers)
PATH="$T/shim:$PATH" "$POLLTAX" series -q --scan "$SCAN" --signoff "$ID" -o "$T/out3" "$FIX" 2>"$T/series3.err"
rm -rf "$T/out3" "$T/spatch-calls" "$T/grep-calls"
PATH="$T/shim:$PATH" "$POLLTAX" series -q --scan "$SCAN" --signoff "$ID" -o "$T/out3" "$FIX" 2>"$T/series3.err"
rc=$?
[ $rc -eq 0 ] && [ ! -s "$T/spatch-calls" ] && [ ! -s "$T/grep-calls" ] &&
	diff -r "$T/out" "$T/out3" >"$T/determinism3.diff" 2>&1 && r=ok || r=bad
check "a second series runs no spatch (cfacts, applied) and no git grep (refs), byte-identical output" $r \
	"exit $rc: $(cat "$T/series3.err" "$T/spatch-calls" "$T/grep-calls" "$T/determinism3.diff" 2>/dev/null | head -20)"
# a changed rule is a new key: the conversions run spatch again
# (polltax finds its cocci/ above its own directory: a copy beside a changed rule)
mkdir -p "$T/alt/build"
for f in "$TOP"/*; do [ "${f##*/}" = cocci ] || ln -s "$f" "$T/alt/${f##*/}"; done
cp -r "$TOP/cocci" "$T/alt/cocci"
cp "$POLLTAX" "$T/alt/build/polltax"
echo '// changed' >>"$T/alt/cocci/poll_mask.cocci"
rm -f "$T/spatch-calls"
PATH="$T/shim:$PATH" "$T/alt/build/polltax" series -q --scan "$SCAN" --signoff "$ID" -o "$T/out4" "$FIX" 2>"$T/series4.err"
rc=$?
[ $rc -eq 0 ] && grep -q 'poll_mask.cocci' "$T/spatch-calls" && diff -r "$T/out" "$T/out4" >/dev/null 2>&1 && r=ok || r=bad
check "a changed conversion rule: the conversions run again (same output for a comment)" $r \
	"exit $rc: $(cat "$T/series4.err" "$T/spatch-calls" 2>/dev/null | head -10)"
rm -rf "$T/out4" "$T/alt"
rm -rf "$T/out3"

# 2c. the tree is recorded by one "git add" per CPU, each into its own
# index; the tree they make is the one a single "git add -A -f" makes, on
# the first import and on the next after files were removed, added, changed
# and moved (an index that had a file of another share must not bring it back)
tree_of() { (cd "$1" && rm -rf "$T/ref.git" && git init -q --bare "$T/ref.git" &&
	GIT_DIR="$T/ref.git" GIT_WORK_TREE=. git add -A -f . && GIT_DIR="$T/ref.git" git write-tree); }
recorded() { git --git-dir="$(ls -d "$XDG_CACHE_HOME"/polltax/work/ftree-*/base.git)" rev-parse 'refs/polltax/pristine^{tree}'; }
rm -rf "$T/ftree" && cp -R "$FIX" "$T/ftree"
mkdir -p "$T/ftree/extra/a" "$T/ftree/extra/b/deep"
echo 'int a;' >"$T/ftree/extra/a/a.c"
echo 'int b;' >"$T/ftree/extra/b/deep/b.c"
"$POLLTAX" series -q --scan "$SCAN" --signoff "$ID" -o "$T/out5" "$T/ftree" 2>"$T/series5.err"
rc=$?
want=$(tree_of "$T/ftree")
got=$(recorded)
[ $rc -eq 0 ] && [ -n "$want" ] && [ "$want" = "$got" ] && r=ok || r=bad
check "the import's tree is the one git add -A -f makes of the whole tree" $r \
	"exit $rc, $got, not $want: $(head -5 "$T/series5.err")"
rm -r "$T/ftree/extra/a"
mv "$T/ftree/extra/b" "$T/ftree/extra/c"
echo '/* new */' >"$T/ftree/new-top.c"
echo '/* changed */' >>"$T/ftree/Makefile"
"$POLLTAX" series -q --scan "$SCAN" --signoff "$ID" -o "$T/out5" "$T/ftree" 2>"$T/series5.err"
rc=$?
want=$(tree_of "$T/ftree")
got=$(recorded)
[ $rc -eq 0 ] && [ "$want" = "$got" ] && r=ok || r=bad
check "imported again after a directory removed, one moved, a file added and one changed: the tree git add makes" $r \
	"exit $rc, $got, not $want: $(head -5 "$T/series5.err")"
rm -rf "$T/ftree" "$T/out5" "$T/ref.git"

# 2d. which files name a function: one GNU grep -F for all the names;
# when it fails, git grep name by name gives the same series; when that
# fails too, the series stops and says so (no answer is not "in no file")
printf '#!/bin/sh\nexit 2\n' >"$T/shim/grep"
printf '#!/bin/sh\n[ "$1" = grep ] && exit 2\nexec %s "$@"\n' "$(command -v git)" >"$T/shim2-git"
chmod +x "$T/shim/grep" "$T/shim2-git"
"$POLLTAX" cache clean refs >/dev/null 2>&1
PATH="$T/shim:$PATH" "$POLLTAX" series -q --scan "$SCAN" --signoff "$ID" -o "$T/out6" "$FIX" 2>"$T/series6.err"
rc=$?
[ $rc -eq 0 ] && grep -q 'one by one' "$T/series6.err" && [ -s "$T/grep-calls" ] &&
	diff -r "$T/out" "$T/out6" >"$T/determinism6.diff" 2>&1 && r=ok || r=bad
check "grep -F failing: git grep name by name, a warning, the same series" $r \
	"exit $rc: $(cat "$T/series6.err" "$T/determinism6.diff" 2>/dev/null | head -10)"
"$POLLTAX" cache clean refs >/dev/null 2>&1
mv "$T/shim2-git" "$T/shim/git"
PATH="$T/shim:$PATH" "$POLLTAX" series -q --scan "$SCAN" --signoff "$ID" -o "$T/out7" "$FIX" 2>"$T/series7.err"
rc=$?
[ $rc -ne 0 ] && grep -q 'cannot search' "$T/series7.err" && [ -z "$(ls -d "$T"/out7* 2>/dev/null)" ] && r=ok || r=bad
check "grep and git grep failing: the series stops, says why, writes nothing" $r \
	"exit $rc: $(head -5 "$T/series7.err")"
rm -rf "$T/out6" "$T/out7" "$T/shim/grep" "$T/shim/git" "$T/grep-calls"

# 3. verify (relative paths too)
(cd "$T" && "$POLLTAX" verify -q -o verify.md out "$(rel "$FIX")") >"$T/verify.out" 2>"$T/verify.err"
rc=$?
[ $rc -eq 0 ] && grep -q '^PASS: ' "$T/verify.out" && r=ok || r=bad
[ -f "$T/verify.md" ] || r=bad
check "verify: git am, gcc -Werror, sparse, checkpatch --strict on every patch" $r \
	"exit $rc: $(cat "$T/verify.out" "$T/verify.err")"
# the drm patch changes DRM_GEM_FOPS in include/drm/drm_gem.h: verify builds
# its users too (series.json names them), which the patch does not touch
users=$(grep -l '^DEFINE_DRM_GEM_FOPS(' $(find "$FIX/drivers" -name '*.c') | wc -l)
touched=$(grep -c '^+++ b/.*\.c$' "$T"/out/0*-drm-*.patch)
built=$(sed -n 's/^| [0-9]* | [^|]*-drm-[^|]* | ok | ok \([0-9]*\) files\{0,1\}.*/\1/p' "$T/verify.out")
[ "${built:-0}" -eq $((users + touched)) ] && [ "$users" -gt 0 ] && r=ok || r=bad
check "verify: the drm patch builds the $users users of the ops macro it changes, not only its $touched .c file" $r \
	"built ${built:-?} files: $(grep -- '-drm-' "$T/verify.out")"

# 4. the whole tree with the series applied still checks
rm -rf "$T/applied" && cp -R "$FIX" "$T/applied"
r=ok
for p in "$T/out"/0*.patch; do
	[ "${p##*/}" = 0000-cover-letter.patch ] && continue
	(cd "$T/applied" && patch -s -p1 <"$p") >>"$T/applied.log" 2>&1 || r=bad
done
[ $r = ok ] && make -s -C "$T/applied" check >>"$T/applied.log" 2>&1 || r=bad
check "the converted fixture tree passes make check (gcc, clang, sparse)" $r "$(tail -20 "$T/applied.log")"

# 5. a git clone, one patch per driver, postings of at most 4
G=$T/clone
rm -rf "$G" && cp -R "$FIX" "$G"
(cd "$G" && git init -q && git add -A && GIT_AUTHOR_DATE=2024-01-01T00:00:00Z GIT_COMMITTER_DATE=2024-01-01T00:00:00Z \
	git -c user.name=Fixture -c user.email=fixture@example.org commit -q -m "fixture: the tree") ||
	fail "cannot make a git clone of the fixture"
head=$(git -C "$G" rev-parse HEAD)
"$POLLTAX" series -q --scan "$SCAN" --signoff "$ID" --split-per-driver --max-patches 4 -o "$T/split" "$G" \
	2>"$T/split.err"
rc=$?
np=$(ls -d "$T/split"/posting-* 2>/dev/null | wc -l)
[ $rc -eq 0 ] && [ "$np" -ge 2 ] && r=ok || r=bad
check "--split-per-driver --max-patches 4: $np postings" $r "exit $rc: $(cat "$T/split.err"); $(ls "$T/split")"
r=ok
for d in "$T/split"/posting-*; do
	[ -f "$d/0000-cover-letter.patch" ] || r=bad
	m=$(ls "$d"/0*.patch | wc -l)
	[ "$m" -le 5 ] || r=bad
	grep -q "^base-commit: $head" "$d/0000-cover-letter.patch" || r=bad
done
grep -q 'posting-2' "$T/split/README.md" || r=bad
check "each posting: a cover letter with base-commit:, at most 4 patches; README maps them" $r "$(ls -R "$T/split")"
long=$(subjects "$T/split" | awk 'length($0) > 75')
[ -z "$long" ] && r=ok || r=bad
check "--split-per-driver: every subject has at most 75 characters" $r "$long"
# what the cover letters say of the postings: --max-patches, and no infrastructure patch to depend on
r=ok
[ "$(jq -r .infra "$T/split/series.json")" = null ] || r=bad
for d in "$T/split"/posting-*; do
	flat "$d/0000-cover-letter.patch" | grep -qF '(at most 4 patches each)' || r=bad
	flat "$d/0000-cover-letter.patch" | grep -q 'at most 15\|infrastructure patch' && r=bad
done
flat "$T/split/README.md" | grep -qF 'postings of at most 4 patches' &&
	! flat "$T/split/README.md" | grep -qF 'infrastructure patch, which' || r=bad
check "cover letters and README: at most 4 patches each, no infrastructure patch to depend on" $r \
	"$(grep -h -A 3 'This is posting' "$T/split"/posting-*/0000-cover-letter.patch | head -n 12)"
[ -z "$(git -C "$G" status --porcelain)" ] && [ "$(git -C "$G" worktree list | wc -l)" -eq 1 ] &&
	[ "$(git -C "$G" rev-parse HEAD)" = "$head" ] && r=ok || r=bad
check "the git clone is left as it was" $r "$(git -C "$G" status --porcelain; git -C "$G" worktree list)"
"$POLLTAX" verify -q "$T/split" "$G" >"$T/split-verify.out" 2>&1 && r=ok || r=bad
check "verify on the postings, in order" $r "$(cat "$T/split-verify.out")"

# the boot test's "Tested" section goes in the first cover letter, a pointer in the others
printf '## Tested\n\nBooted in qemu: 7 checks passed, fixture marker %s.\n' "$$" >"$T/tested.md"
"$POLLTAX" series -q --scan "$SCAN" --signoff "$ID" --split-per-driver --max-patches 4 --tested "$T/tested.md" \
	-o "$T/tested" "$G" 2>"$T/tested.err"
rc=$?
r=ok
[ $rc -eq 0 ] || r=bad
grep -q "fixture marker $$" "$T/tested/posting-1/0000-cover-letter.patch" || r=bad
grep -q '^## Tested' "$T/tested/posting-1/0000-cover-letter.patch" && r=bad
grep -q 'see the cover letter of part 1' "$T/tested/posting-2/0000-cover-letter.patch" || r=bad
grep -q "fixture marker" "$T/tested/posting-2/0000-cover-letter.patch" && r=bad
check "--tested: the Tested section in the first cover letter, a pointer in the others" $r \
	"exit $rc: $(cat "$T/tested.err"); $(grep -n -i tested "$T/tested"/posting-*/0000-cover-letter.patch)"
"$POLLTAX" series -q --scan "$SCAN" --signoff "$ID" --tested "$T/no-such.md" -o "$T/tested2" "$FIX" \
	>/dev/null 2>"$T/tested2.err"
rc=$?
[ $rc -eq 3 ] && grep -q 'no-such.md' "$T/tested2.err" && r=ok || r=bad
check "--tested with a missing file: a clear error" $r "exit $rc: $(cat "$T/tested2.err")"

# 6. bad input
HOME=$T/nohome GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 \
	"$POLLTAX" series -q --scan "$SCAN" -o "$T/noid" "$FIX" >/dev/null 2>"$T/noid.err"
rc=$?
[ $rc -eq 3 ] && grep -q 'fatal: no identity to sign the patches off with' "$T/noid.err" && r=ok || r=bad
check "no identity: a clear error" $r "exit $rc: $(cat "$T/noid.err")"
"$POLLTAX" series -q --scan "$SCAN" --signoff "$ID" --infra "$T/none.patch" -o "$T/noinfra" "$FIX" >/dev/null 2>"$T/noinfra.err"
rc=$?
[ $rc -eq 3 ] && grep -q "cannot read the infrastructure patch" "$T/noinfra.err" && r=ok || r=bad
check "a missing infrastructure patch is refused" $r "exit $rc: $(cat "$T/noinfra.err")"
(cd "$T" && "$POLLTAX" series -q --scan "$(rel "$SCAN")" --signoff "$ID" -o "$(rel "$FIX")/series-out" "$(rel "$FIX")") \
	>/dev/null 2>"$T/intree.err"
rc=$?
[ $rc -eq 2 ] && grep -q "is inside the kernel tree" "$T/intree.err" && [ ! -e "$FIX/series-out" ] && r=ok || r=bad
check "an output directory inside the tree is refused" $r "exit $rc: $(cat "$T/intree.err")"
mkdir -p "$T/notours" && echo keep >"$T/notours/file"
"$POLLTAX" series -q --scan "$SCAN" --signoff "$ID" -o "$T/notours" "$FIX" >/dev/null 2>"$T/notours.err"
rc=$?
[ $rc -eq 2 ] && [ -f "$T/notours/file" ] && r=ok || r=bad
check "an output directory that is not ours is not replaced" $r "exit $rc: $(cat "$T/notours.err")"

# 7. what a posting is called, as git format-patch and b4 name it, and one MAINTAINERS section
# body PATCH: the patch from its "---" on (what the naming options must not change)
body() { sed -n '/^---$/,$p' "$1"; }
# cmdflat FILE: flat, and the command lines' "\" continuations joined
cmdflat() { flat "$1" | sed 's/ *\\ */ /g'; }
"$POLLTAX" series -q --scan "$SCAN" --signoff "$ID" --subject-prefix "PATCH char-misc-next" -o "$T/prefix" "$FIX" \
	2>"$T/prefix.err"
rc=$?
r=ok
[ $rc -eq 0 ] || r=bad
for p in "$T/out"/0*.patch; do
	q="$T/prefix/${p##*/}"
	[ -f "$q" ] || { r=bad; continue; }
	grep -q '^Subject: \[PATCH char-misc-next [0-9]*/[0-9]*\] ' "$q" || r=bad
	[ "${p##*/}" = 0000-cover-letter.patch ] || [ "$(body "$p")" = "$(body "$q")" ] || r=bad
done
cmdflat "$T/prefix/0000-cover-letter.patch" | grep -qF -- '--subject-prefix "PATCH char-misc-next"' || r=bad
[ "$(jq -r .subject_prefix "$T/prefix/series.json")" = "PATCH char-misc-next" ] || r=bad
check "--subject-prefix: [PATCH char-misc-next n/m], the same patches" $r \
	"exit $rc: $(cat "$T/prefix.err"); $(grep -h '^Subject:' "$T/prefix"/0*.patch | head -n 3)"
(cd "$T" && "$POLLTAX" series -q --scan "$(rel "$SCAN")" --signoff "$ID" --rfc -v 2 -o rfc "$(rel "$FIX")") \
	2>"$T/rfc.err"
rc=$?
r=ok
[ $rc -eq 0 ] || r=bad
for p in "$T/out"/0*.patch; do
	# (git cuts a file name at 64 characters, the "v2-" included)
	q=$(ls "$T/rfc/v2-$(basename "$p" | cut -c1-4)"-*.patch 2>/dev/null)
	[ -f "$q" ] || { r=bad; continue; }
	grep -q '^Subject: \[RFC PATCH v2 [0-9]*/[0-9]*\] ' "$q" || r=bad
	[ "${p##*/}" = 0000-cover-letter.patch ] || [ "$(body "$p")" = "$(body "$q")" ] || r=bad
done
[ "$(ls "$T/rfc"/*.patch | wc -l)" -eq "$(ls "$T/out"/*.patch | wc -l)" ] || r=bad
grep -qF 'v2-0000-cover-letter.patch' "$T/rfc/README.md" && ! grep -qF '`0000-cover-letter' "$T/rfc/README.md" || r=bad
cmdflat "$T/rfc/v2-0000-cover-letter.patch" | grep -qF -- '--rfc -v 2' || r=bad
[ "$(jq -r .reroll_count "$T/rfc/series.json")" = 2 ] || r=bad
check "--rfc -v 2: [RFC PATCH v2 n/m], files v2-NNNN-*.patch, README names them" $r \
	"exit $rc: $(cat "$T/rfc.err"); $(ls "$T/rfc"); $(grep -h '^Subject:' "$T/rfc"/*.patch | head -n 3)"
"$POLLTAX" verify -q --no-build "$T/rfc" "$FIX" >"$T/rfc-verify.out" 2>&1 && grep -q "^PASS: $n patches" "$T/rfc-verify.out" &&
	r=ok || r=bad
check "verify reads a v2 series" $r "$(cat "$T/rfc-verify.out")"
r=ok
jq -e 'has("subject_prefix") or has("reroll_count") or has("section")' "$T/out/series.json" >/dev/null && r=bad
[ -z "$(ls "$T/out" | grep '^v[0-9]')" ] && grep -q '^Subject: \[PATCH [0-9]*/[0-9]*\] ' "$T/out"/0001-*.patch || r=bad
check "without them: [PATCH n/m], NNNN-*.patch, series.json as before" $r "$(jq -c 'keys' "$T/out/series.json")"
for bad in "-v 0" "-v x" "--reroll-count 1000"; do
	# shellcheck disable=SC2086
	"$POLLTAX" series -q --scan "$SCAN" --signoff "$ID" $bad -o "$T/badv" "$FIX" >/dev/null 2>"$T/badv.err"
	rc=$?
	[ $rc -eq 2 ] && grep -q 'reroll-count takes a number' "$T/badv.err" && [ ! -e "$T/badv" ] && r=ok || r=bad
	check "series $bad: a usage error" $r "exit $rc: $(cat "$T/badv.err")"
done

"$POLLTAX" series -q --scan "$SCAN" --signoff "$ID" --section "char and misc drivers" -o "$T/section" "$FIX" \
	2>"$T/section.err"
rc=$?
r=ok
[ $rc -eq 0 ] || r=bad
[ "$(ls "$T/section"/*.patch | wc -l)" -eq 2 ] && [ -f "$T/section/0000-cover-letter.patch" ] || r=bad
[ "$(jq -r '[.converted[].section] | unique | join(",")' "$T/section/series.json")" = "CHAR and MISC DRIVERS" ] || r=bad
[ "$(jq '.converted | length' "$T/section/series.json")" -eq \
	"$(jq '[.converted[] | select(.section == "CHAR and MISC DRIVERS")] | length' "$T/out/series.json")" ] || r=bad
[ "$(body "$T/section"/0001-*.patch)" = "$(body "$T/out"/0001-*.patch)" ] || r=bad
cmdflat "$T/section/0000-cover-letter.patch" | grep -qF -- '--section "CHAR and MISC DRIVERS"' || r=bad
check "--section (case aside): that section's conversions only, the same patch" $r \
	"exit $rc: $(cat "$T/section.err"); $(ls "$T/section" | tr '\n' ' '); $(jq -c '[.converted[].section] | unique' "$T/section/series.json")"
"$POLLTAX" series -q --scan "$SCAN" --signoff "$ID" --section "CHAR and MISC DRIVER" -o "$T/nosection" "$FIX" \
	>/dev/null 2>"$T/nosection.err"
rc=$?
[ $rc -eq 2 ] && grep -q "no MAINTAINERS section 'CHAR and MISC DRIVER'" "$T/nosection.err" &&
	grep -q '^	CHAR and MISC DRIVERS$' "$T/nosection.err" && [ ! -e "$T/nosection" ] && r=ok || r=bad
check "--section with an unknown name: exit 2, the close names listed" $r "exit $rc: $(cat "$T/nosection.err")"

# a title said without its parentheses, as people say it; with a typo, the title is suggested
"$POLLTAX" series -q --scan "$SCAN" --signoff "$ID" --section "input drivers" -o "$T/spoken" "$FIX" 2>"$T/spoken.err"
rc=$?
[ $rc -eq 0 ] && [ "$(jq -r '[.converted[].section] | unique | join(",")' "$T/spoken/series.json")" = \
	"INPUT (KEYBOARD, MOUSE, JOYSTICK, TOUCHSCREEN) DRIVERS" ] && r=ok || r=bad
check "--section 'input drivers' is INPUT (KEYBOARD, MOUSE, JOYSTICK, TOUCHSCREEN) DRIVERS" $r \
	"exit $rc: $(cat "$T/spoken.err")"
"$POLLTAX" series -q --scan "$SCAN" --signoff "$ID" --section "input driver" -o "$T/spoken2" "$FIX" \
	>/dev/null 2>"$T/spoken2.err"
rc=$?
[ $rc -eq 2 ] && grep -qF '	INPUT (KEYBOARD, MOUSE, JOYSTICK, TOUCHSCREEN) DRIVERS' "$T/spoken2.err" && r=ok || r=bad
check "--section 'input driver': exit 2, the title with parentheses suggested" $r "exit $rc: $(cat "$T/spoken2.err")"

# 3. the review posting (series --review): the single-cond conversions the scan could not prove
# safe, as an RFC of their own; the ready series keeps the proven one and none of the others
cp "$SCAN/refused.json" "$T/refused.before" 2>/dev/null
"$POLLTAX" series -q --scan "$SCAN" --signoff "$ID" --review -o "$T/review" "$FIX" >/dev/null 2>"$T/review.err"
rc=$?
r=bad
[ $rc -eq 0 ] && grep -q '^Subject: \[RFC PATCH 0/[0-9]*\] poll: ->poll_mask() conversions to review' \
	"$T/review/0000-cover-letter.patch" && flat "$T/review/0000-cover-letter.patch" | grep -qF 'This is the RFC part' &&
	[ "$(jq '.review' "$T/review/series.json")" = true ] && r=ok
check "series --review: an RFC posting of its own, said so in the cover letter" $r \
	"exit $rc: $(cat "$T/review.err"); $(sed -n 1,6p "$T/review/0000-cover-letter.patch" 2>/dev/null)"
conv=$(jq -r '[.converted[].function, .refused[].function] | sort | join(",")' "$T/review/series.json")
want=$(jq -r '[.implementations[] | select(.convertible == "review" and (.plan | length) > 0) | .function] | sort | join(",")' \
	"$SCAN/polltax.json")
case ",$(jq -r '[.converted[].function] | join(",")' "$T/review/series.json")," in
*,fixiof_poll,*) have_freed=1 ;;
*) have_freed=0 ;;
esac
[ -n "$conv" ] && [ "$conv" = "$want" ] && [ $have_freed = 1 ] && r=ok || r=bad
check "series --review takes exactly the review implementations with a plan, converted or refused (fixiof_poll converted)" $r \
	"converted or refused '$conv', the scan's '$want'"
p=$(grep -l 'fixiof_poll' "$T/review"/0*-usb-*.patch 2>/dev/null | head -1)
flat "$p" | grep -qF 'fixiof_poll() returned EPOLLERR | EPOLLHUP (drivers/usb/misc/single-cond-freed-on-disconnect.c:' &&
	flat "$p" | grep -qF 'To confirm before this is applied: that the object holding &dev->read_wait lives as long as the file' &&
	r=ok || r=bad
check "a review patch names the path that skipped the queue and the fact to confirm" $r \
	"$(sed -n '/^The queue/,/^Signed-off-by/p' "$p" 2>/dev/null)"
p=$(grep -l 'fixcec_poll' "$T/review"/0*.patch 2>/dev/null | grep -v cover | head -1)
flat "$p" | grep -qF 'where the answer is not final (neither an error nor a hang-up) changes no answer' && r=ok || r=bad
check "a review patch whose skipped path answers 'not ready' asks to confirm that registering there changes nothing" $r \
	"$(sed -n '/^The queue/,/^Signed-off-by/p' "$p" 2>/dev/null)"
ready=$(jq -r '[.converted[].function] | join(",")' "$T/out/series.json")
p=$(grep -l 'fixsmi_poll()' "$T/out"/0*.patch 2>/dev/null | grep -v cover | head -1)
case ",$ready," in *,fixiof_poll,*|*,fixiow_poll,*|*,fixcec_poll,*) r=bad ;; *,fixsmi_poll,*) r=ok ;; *) r=bad ;; esac
[ $r = ok ] && flat "$p" | grep -qF 'That is safe: the queue is a static object, never freed' || r=bad
check "the ready series: the proven single-cond (fixsmi_poll) with why it is safe, no review one" $r \
	"ready: $ready"
p=$(grep -l 'fixline_req_poll()' "$T/out"/0*.patch 2>/dev/null | grep -v cover | head -1)
flat "$p" | grep -qF 'That is safe: the queue is in a struct fixline_req, which only drivers/gpio/single-cond-own-object-release.c can name and which it frees only from ->release() or where the file is made' &&
	! ls "$T/out"/0*.patch | grep -v /0000-cover-letter.patch | xargs grep -q 'fixlinr_req_poll()' && r=ok || r=bad
check "the ready series: the single-cond whose object lives as long as the file, with the proof; not its twin" $r \
	"$(sed -n '/^The queue/,/^Signed-off-by/p' "$p" 2>/dev/null)"
cmp -s "$SCAN/refused.json" "$T/refused.before" && r=ok || r=bad
check "series --review leaves the ready series' refused.json of the scan as it was" $r "refused.json changed"
p=$(grep -l 'fixmon_poll()' "$T/review"/0*.patch 2>/dev/null | grep -v cover | head -1)
r=bad
[ -n "$p" ] && ! grep -q '^+[[:space:]]*{}[[:space:]]*$' "$T/review"/0*.patch &&
	sed -n '/^-static __poll_t fixmon_poll/,/^ }/p' "$p" | grep -q '^-	if (file->f_mode & FMODE_READ)$' &&
	"$POLLTAX" verify -q "$T/review" "$FIX" >"$T/review-verify.out" 2>&1 && r=ok
check "a review conversion of a poll_wait() under a condition drops the whole if, and the posting passes verify" $r \
	"$(sed -n '/^diff/,$p' "$p" 2>/dev/null | head -30); $(tail -5 "$T/review-verify.out" 2>/dev/null)"
"$POLLTAX" series -q --scan "$SCAN" --signoff "$ID" --review -o "$T/review2" "$FIX" >/dev/null 2>&1
diff -r "$T/review" "$T/review2" >/dev/null && r=ok || r=bad
check "series --review twice: byte-identical" $r "$(diff -r "$T/review" "$T/review2" | head -5)"

# a file no section claims but THE REST, whose maintainer get_maintainer.pl does not name (as in
# the kernel's MAINTAINERS, where it prints only linux-kernel@): the patch is addressed To: the list
rm -rf "$T/rest"
mkdir -p "$T/rest"
cp -a "$FIX" "$T/rest/tree"
sed -i '/^THE REST$/,/^$/{/^M:/d}' "$T/rest/tree/MAINTAINERS"
"$POLLTAX" series -q --signoff "$ID" -o "$T/rest/out" "$T/rest/tree" >/dev/null 2>"$T/rest.err"
rc=$?
rest=$(grep -l '^Subject: .*fixsmc_poll' "$T/rest/out"/0*.patch 2>/dev/null | head -1)
r=bad
[ $rc -eq 0 ] && [ -n "$rest" ] && ! grep -q '^M:.*Rest Maintainer' "$T/rest/tree/MAINTAINERS" &&
	sed -n '/^To:/,/^$/p' "$rest" | grep -q '^To: fixture-kernel@lists.example.org' &&
	! grep -q '^Cc:' "$rest" &&
	sed -n '/^To:/,/^Subject:/p' "$T/rest/out/0000-cover-letter.patch" | grep -q 'fixture-kernel@lists.example.org' &&
	r=ok
check "a THE REST patch with no maintainer to name is sent To: its list, not only Cc'd" $r \
	"exit $rc: $(cat "$T/rest.err"); $(sed -n 1,8p "$rest" 2>/dev/null)"

echo "RESULT $passed $failed"
