#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Suite: reliability (README "Bad inputs" and "Exit codes").
#  - bad input: a clear message, the documented exit code, no output
#    written, the previous outputs intact;
#  - hostile trees: files that do not parse, that crash or stall libclang,
#    that cannot be read, symlink loops, FIFOs, enormous files, bytes that
#    are not UTF-8 in sources, paths and the Makefile: the scan goes on,
#    says what it skipped, and its JSON stays valid;
#  - missing tools (spatch, git, make, libclang) named with their package;
#  - the scanned tree is never modified;
#  - SIGINT / SIGKILL in the middle of a scan, or of one worker: previous
#    outputs intact, no cache entry trusted that should not be, the next
#    run gives the same bytes as a clean one;
#  - determinism: -j 1 / -j 2, warm / cold cache, byte-identical outputs.
set -u
R=$WORK/reliability
FIX=$TOP/tests/fixtures/tree
rm -rf "$R"
mkdir -p "$R"
passed=0
failed=0

t() { printf 'TEST %s\n' "$1"; }
ok() { passed=$((passed + 1)); }
no() { failed=$((failed + 1)); printf '  FAIL: %s\n' "$1"; }

# run NAME ARGS...: polltax ARGS with the cache $CACHE; exit status in $rc,
# stderr in $R/NAME.err
CACHE=$R/cache
run() {
	name=$1
	shift
	runc "$name" "$POLLTAX" "$@"
}
# runc NAME COMMAND ARGS...: the same for another command (env, unshare)
runc() {
	name=$1
	shift
	XDG_CACHE_HOME=$CACHE "$@" >"$R/$name.out" 2>"$R/$name.err"
	rc=$?
}

# expect NAME RC MESSAGE: the last run exited RC and said MESSAGE (a line of stderr, exactly)
expect() {
	if [ "$rc" -ne "$2" ]; then
		no "$1: exit $rc, expected $2"
		sed 's/^/    /' "$R/$1.err" | head -n 5
		return 1
	fi
	if ! grep -qxF -- "$3" "$R/$1.err"; then
		no "$1: expected the message: $3"
		sed 's/^/    got: /' "$R/$1.err" | head -n 5
		return 1
	fi
	return 0
}

# sums DIR: one line per file of DIR: type, mode, size, mtime, name, link target, content hash
sums() {
	(cd "$1" && find . -printf '%y %m %s %T@ %p -> %l\n' | LC_ALL=C sort &&
		find . -type f -print0 | LC_ALL=C sort -z | xargs -0 -r sha256sum)
}

# json_ok FILE...: each FILE is valid JSON (python's parser is strict about UTF-8)
json_ok() {
	python3 -c '
import json, sys
for f in sys.argv[1:]:
    try:
        json.load(open(f, encoding="utf-8"))
    except Exception as e:
        print("%s: %s" % (f, e))
        sys.exit(1)' "$@"
}

# same_outputs A B: polltax.json, polltax.csv and summary.md are byte-identical
same_outputs() {
	for f in polltax.json polltax.csv summary.md; do
		cmp -s "$1/$f" "$2/$f" || { echo "$f differs"; diff "$1/$f" "$2/$f" | head -n 6; return 1; }
	done
	return 0
}

for p in python3 jq; do
	command -v $p >/dev/null 2>&1 || { t "reliability-needs-$p"; no "$p is not installed"; }
done

# ---- bad input ----------------------------------------------------------------

# previous outputs that every bad run must leave as they are
run prev scan -q --no-cocci -j 2 -o "$R/prev" "$FIX"
sums "$R/prev" >"$R/prev.sums"

mkdir -p "$R/bad/empty" "$R/bad/noversion/include/linux" "$R/bad/noinclude"
printf 'all:\n\t@:\n' >"$R/bad/noversion/Makefile"
printf 'VERSION = 6\nPATCHLEVEL = 12\n' >"$R/bad/noinclude/Makefile"
: >"$R/bad/plainfile"
ln -s loop-b "$R/bad/loop-a"
ln -s loop-a "$R/bad/loop-b"

bad() {	# NAME TREE RC MESSAGE
	t "bad-input-$1"
	run "bad-$1" scan -q --no-cocci -o "$R/prev" "$2"
	expect "bad-$1" "$3" "$4" && {
		run "bad-$1-new" scan -q --no-cocci -o "$R/bad-$1-out" "$2"
		if [ -e "$R/bad-$1-out" ]; then
			no "bad-$1: '$R/bad-$1-out' was created"
		else
			ok
		fi
	}
}
bad nonexistent "$R/bad/nonexistent" 3 \
	"polltax: fatal: cannot open the kernel tree '$R/bad/nonexistent': No such file or directory"
bad plain-file "$R/bad/plainfile" 3 "polltax: fatal: '$R/bad/plainfile' is not a directory"
bad empty-dir "$R/bad/empty" 3 \
	"polltax: fatal: '$R/bad/empty' is not a kernel tree: cannot read '$R/bad/empty/Makefile': No such file or directory"
bad no-version "$R/bad/noversion" 3 \
	"polltax: fatal: '$R/bad/noversion' is not a kernel tree: its Makefile has no VERSION/PATCHLEVEL"
bad no-include-linux "$R/bad/noinclude" 3 \
	"polltax: fatal: '$R/bad/noinclude' is not a kernel tree: no include/linux directory"
bad symlink-loop "$R/bad/loop-a" 3 \
	"polltax: fatal: cannot open the kernel tree '$R/bad/loop-a': Too many levels of symbolic links"
for c in ccdb-broken ccdb-elsewhere; do
	mkdir -p "$R/bad/$c/include/linux"
	cp "$FIX/Makefile" "$R/bad/$c/"
done
printf '[{"directory": "/x", "file": \n' >"$R/bad/ccdb-broken/compile_commands.json"
printf '[{"directory": "/elsewhere", "file": "a.c", "arguments": ["cc"]}]\n' >"$R/bad/ccdb-elsewhere/compile_commands.json"
real=$(cd "$R/bad" && pwd -P)	# these messages name the tree by its real path
bad ccdb-broken "$R/bad/ccdb-broken" 3 \
	"polltax: fatal: cannot read '$real/ccdb-broken/compile_commands.json': unexpected token near end of file (line 2)"
bad ccdb-elsewhere "$R/bad/ccdb-elsewhere" 3 \
	"polltax: fatal: '$real/ccdb-elsewhere/compile_commands.json' names no file inside '$real/ccdb-elsewhere'"

# a tree without compile_flags.txt whose "make prepare" fails
badprep=$R/bad/prepare-fails
cp -R "$FIX" "$badprep"
rm -f "$badprep/compile_flags.txt"
sed -i 's/^prepare:$/prepare:\n\t@echo "fixture: prepare fails on purpose" >\&2; exit 1\nprepare-was:/' "$badprep/Makefile"
CACHE=$R/cache-prepare
t "bad-input-prepare-fails"
run bad-prepare scan -q --no-cocci -o "$R/prev" "$badprep"
build=$(echo "$CACHE"/polltax/build/prepare-fails-*-allmodconfig)
expect bad-prepare 3 "polltax: fatal: make allmodconfig prepare failed for '$badprep' (exit 2): fixture: prepare fails on purpose; see '$build/polltax-prepare.log'" && ok
t "missing-tool-make (prepare needs it)"
runc bad-nomake env PATH=/nonexistent "$POLLTAX" scan -q --no-cocci -o "$R/prev" "$badprep"
expect bad-nomake 4 "polltax: fatal: preparing '$badprep' needs make, gcc, flex, bison and bc; not found: make gcc flex bison bc (apt-get install make gcc flex bison bc libelf-dev libssl-dev)" && ok
CACHE=$R/cache

# an output directory inside the tree, typed as a person in the tree types
# it: refused before anything is written, the tree is only read
IN=$R/bad/intree
cp -R "$FIX" "$IN"
ln -s intree "$R/bad/intree-link"
inreal=$(cd "$IN" && pwd -P)
here=$(pwd)
sums "$IN" >"$R/intree.sums"
t "bad-input-output-in-tree (polltax scan . in the tree: the default -o)"
cd "$IN" && runc out-in-tree "$POLLTAX" scan -q --no-cocci .
cd "$here" || exit 1
expect out-in-tree 2 "polltax: fatal: the default output directory 'polltax-out' is inside the kernel tree '$inreal', which polltax never writes to: pass -o DIR outside the tree" && ok
t "bad-input-output-in-tree (-o out .. from a directory of the tree)"
cd "$IN/drivers" && runc out-in-tree2 "$POLLTAX" scan -q --no-cocci -o out ..
cd "$here" || exit 1
expect out-in-tree2 2 "polltax: fatal: -o 'out' is inside the kernel tree '$inreal', which polltax never writes to: give -o a path outside the tree" && ok
t "bad-input-output-in-tree (-o through a symbolic link to the tree)"
run out-in-tree3 scan -q --no-cocci -o "$R/bad/intree-link/new/out" "$IN"
expect out-in-tree3 2 "polltax: fatal: -o '$R/bad/intree-link/new/out' is inside the kernel tree '$inreal', which polltax never writes to: give -o a path outside the tree" && ok
t "bad-input-output-in-tree (the tree is left as it was)"
if sums "$IN" | cmp -s - "$R/intree.sums"; then ok; else no "a refused run wrote into '$IN'"; fi
t "output next to the tree (-o ../intree-out . from the tree)"
cd "$IN" && runc out-beside "$POLLTAX" scan -q --no-cocci -j 2 -o ../intree-out .
cd "$here" || exit 1
if [ "$rc" -eq 0 ] && [ -f "$R/bad/intree-out/polltax.json" ]; then ok; else no "exit $rc: $(cat "$R/out-beside.err")"; fi

t "bad-input-previous-outputs-intact"
if sums "$R/prev" | cmp -s - "$R/prev.sums"; then ok; else no "a bad run changed '$R/prev'"; fi

# ---- hostile tree -------------------------------------------------------------

H=$R/hostile
cp -R "$FIX" "$H"
hd=$H/drivers/hostile
mkdir -p "$hd"
cat >"$hd/parse-error.c" <<'EOF'
// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/poll.h>

static DECLARE_WAIT_QUEUE_HEAD(brk_wait);

static __poll_t brk_poll(struct file *file, poll_table *wait)
{
	poll_wait(file, &brk_wait, wait)
	return EPOLLIN;
}

static const struct file_operations brk_fops = {
	.owner		= THIS_MODULE,
	.poll		= brk_poll,
};
EOF
# doubling N SEP: macros X0 (its argument, then SEP) to XN, each twice the one
# before: XN(a) expands to 2^N copies (a file that keeps libclang busy)
doubling() {
	echo '#include <linux/poll.h>'
	echo "#define X0(a) a$2"
	i=1
	while [ $i -le "$1" ]; do echo "#define X$i(a) X$((i - 1))(a) X$((i - 1))(a)"; i=$((i + 1)); done
}
# 131072 nested additions: libclang's parser overflows its stack (clang 14)
{ doubling 17 ''; echo 'static int crash_poll_table_sink = X17(1+) 0;'; } >"$hd/libclang-crash.c"
ln -s /nonexistent/target.c "$hd/dangling.c"
mkfifo "$hd/fifo.c"
ln -s loop2.c "$hd/loop.c"
ln -s loop.c "$hd/loop2.c"
ln -s . "$hd/dirloop"
truncate -s 65M "$hd/huge.c"
truncate -s 65M "$H/include/linux/hostile-huge.h"	# a header too: the macro pass reads headers
latin=$(printf 'caf\351')
sed 's/fixrtc/latin/g' "$FIX/drivers/char/single-static-global-wait.c" >"$hd/$latin.c"
sed 's/fixrtc/latbody/g' "$FIX/drivers/char/single-static-global-wait.c" |
	sed "s|^static __poll_t latbody_poll|/* $(printf 'na\357ve \351t\351') */\nstatic __poll_t latbody_poll|" |
	sed "s|poll_wait(file, &latbody_wait, wait);|poll_wait(file, \&(/* $(printf '\351') */latbody_wait), wait);|" >"$hd/latin1-body.c"
sums "$H" >"$R/hostile.sums"

t "hostile-tree-scan-goes-on"
run hostile scan -q -j 2 -o "$R/hostile-out" "$H"
if [ "$rc" -ne 0 ]; then
	no "scan of the hostile tree: exit $rc"
	head -n 5 "$R/hostile.err" | sed 's/^/    /'
else
	ok
fi
hj=$R/hostile-out/polltax.json

t "hostile-json-valid (python3 json, UTF-8 csv and summary)"
if json_ok "$hj" && json_ok "$R/hostile-out/history.json" &&
   iconv -f UTF-8 -t UTF-8 "$R/hostile-out/polltax.csv" >/dev/null 2>&1 &&
   iconv -f UTF-8 -t UTF-8 "$R/hostile-out/summary.md" >/dev/null 2>&1; then
	ok
else
	no "an output of the hostile scan is not valid JSON / UTF-8"
fi

# skipped MESSAGE: listed in files.skipped and warned about on stderr
for m in \
	"drivers/hostile/dangling.c: symbolic link to nothing readable (No such file or directory), not followed" \
	"drivers/hostile/fifo.c: not a regular file, not read" \
	"drivers/hostile/huge.c: larger than 64 MiB, not read" \
	"drivers/hostile/loop.c: symbolic link to nothing readable (Too many levels of symbolic links), not followed"; do
	t "hostile-skipped (${m%%:*})"
	if ! jq -e --arg m "$m" '.files.skipped | index($m)' "$hj" >/dev/null 2>&1; then
		no "not in files.skipped: $m"
	elif ! grep -qxF "polltax: warning: not read: $m" "$R/hostile.err"; then
		no "no warning: polltax: warning: not read: $m"
	else
		ok
	fi
done

t "hostile-warm-run-same-outputs (what was not read is said again)"
run hostile-warm scan -q -j 2 -o "$R/hostile-warm" "$H"
m="include/linux/hostile-huge.h: larger than 64 MiB, not read"
if [ "$rc" -ne 0 ] || ! cmp -s "$hj" "$R/hostile-warm/polltax.json"; then
	no "warm run: exit $rc, polltax.json $(cmp "$hj" "$R/hostile-warm/polltax.json" 2>&1)"
elif ! jq -e --arg m "$m" '.files.skipped | index($m)' "$R/hostile-warm/polltax.json" >/dev/null 2>&1 ||
     ! grep -qxF "polltax: warning: not read: $m" "$R/hostile-warm.err"; then
	no "the warm run does not say: $m"
else
	ok
fi

# impl FILE FUNCTION: "class<TAB>reason" of one implementation
impl() {
	jq -r --arg f "$1" --arg fn "$2" \
		'.implementations[] | select(.file == $f and .function == $fn) | .class + "\t" + .reason' "$hj"
}
t "hostile-parse-error-unknown-with-reason"
got=$(impl drivers/hostile/parse-error.c brk_poll)
case $got in
unknown*"drivers/hostile/parse-error.c:10: expected ';' after expression"*) ok ;;
*) no "brk_poll: '$got', expected unknown with the parse error" ;;
esac

t "hostile-non-utf8-path"
got=$(impl 'drivers/hostile/caf\xe9.c' latin_poll)
case $got in
single-static*) ok ;;
*) no "latin_poll in caf\\xe9.c: '$got', expected single-static" ;;
esac

t "hostile-non-utf8-source"
got=$(jq -r '.implementations[] | select(.function == "latbody_poll") | .class + " " + .heads[0].expr' "$hj")
if [ "$got" = 'single-static &(/* \xe9 */latbody_wait)' ]; then
	ok
else
	no "latbody_poll: '$got'"
fi

t "hostile-libclang-crash-costs-one-file"
got=$(jq -r '.files.failed[] | select(.file == "drivers/hostile/libclang-crash.c") | .reason' "$hj")
if [ "$got" = "libclang crashed (Segmentation fault)" ]; then ok; else no "libclang-crash.c: '$got'"; fi

t "hostile-other-verdicts-unchanged"
XDG_CACHE_HOME=$CACHE "$POLLTAX" list "$R/prev" >"$R/prev.tsv"
XDG_CACHE_HOME=$CACHE "$POLLTAX" list "$R/hostile-out" | grep -v '^drivers/hostile/' >"$R/hostile.tsv"
if [ -s "$R/prev.tsv" ] && cmp -s "$R/prev.tsv" "$R/hostile.tsv"; then
	ok
else
	no "the fixture's verdicts changed next to the hostile files"
	diff "$R/prev.tsv" "$R/hostile.tsv" | head -n 6 | sed 's/^/    /'
fi

t "hostile-tree-unmodified"
if sums "$H" | cmp -s - "$R/hostile.sums"; then ok; else no "the scan changed the hostile tree"; fi

t "hostile-version-not-utf8 (Makefile bytes)"
V8=$R/$(printf 'tree-\377')
cp -R "$FIX" "$V8"
sed -i "s/^EXTRAVERSION = .*/EXTRAVERSION = -$latin/" "$V8/Makefile"
run version8 scan -q --no-cocci -j 2 -o "$R/version8-out" "$V8"
got=$(jq -r .tree.version "$R/version8-out/polltax.json" 2>/dev/null)
if [ "$rc" -eq 0 ] && json_ok "$R/version8-out/polltax.json" && [ "$got" = '6.12.0-caf\xe9' ]; then
	ok
else
	no "tree at a non-UTF-8 path with a Latin-1 EXTRAVERSION: exit $rc, version '$got'"
fi

# a file that keeps libclang busy past --timeout; the scan goes on
t "hostile-timeout"
S=$R/slow
mkdir -p "$S/drivers/char"
cp -R "$FIX/include" "$FIX/Makefile" "$FIX/compile_flags.txt" "$S/"
cp "$FIX/drivers/char/single-static-global-wait.c" "$S/drivers/char/"
{ doubling 21 ,; echo 'static int slow_poll_table_sink[] = { X21(1) };'; } >"$S/drivers/char/slow.c"
CACHE=$R/cache-slow
run slow scan -q --no-cocci -j 2 --timeout 1 -o "$R/slow-out" "$S"
got=$(jq -r '.files.failed[] | .file + ": " + .reason' "$R/slow-out/polltax.json" 2>/dev/null)
cls=$(jq -r '.implementations[] | select(.function == "fixrtc_poll") | .class' "$R/slow-out/polltax.json" 2>/dev/null)
tmp=$(find "$CACHE" -name '*.tmp.*' | head -n 1)
if [ "$rc" -eq 0 ] && [ "$got" = "drivers/char/slow.c: libclang did not finish within 1 s" ] &&
   [ "$cls" = single-static ] && [ -z "$tmp" ]; then
	ok
else
	no "timeout: exit $rc, failed '$got', fixrtc_poll '$cls', temporary file '$tmp'"
fi
CACHE=$R/cache

# an unreadable file and directory (as root everything is readable: run as nobody)
t "hostile-unreadable (as nobody)"
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
	U=$(mktemp -d /tmp/polltax-unreadable.XXXXXX)
	chmod 755 "$U"
	cp -R "$FIX" "$U/tree"
	cp "$FIX/drivers/char/single-static-global-wait.c" "$U/tree/drivers/char/unreadable.c"
	mkdir "$U/tree/drivers/secret"
	chmod 000 "$U/tree/drivers/char/unreadable.c" "$U/tree/drivers/secret"
	cp "$POLLTAX" "$U/polltax"
	mkdir "$U/home"
	chown nobody "$U/home"
	setpriv --reuid=nobody --regid=nogroup --clear-groups env XDG_CACHE_HOME="$U/home/cache" \
		"$U/polltax" scan -q --no-cocci -j 2 -o "$U/home/out" "$U/tree" 2>"$R/unreadable.err"
	rc=$?
	if [ "$rc" -eq 0 ] &&
	   grep -qxF "polltax: warning: not read: drivers/char/unreadable.c: cannot read: Permission denied" "$R/unreadable.err" &&
	   grep -qxF "polltax: warning: not read: drivers/secret: cannot read directory: Permission denied" "$R/unreadable.err" &&
	   jq -e '.files.skipped | length == 2' "$U/home/out/polltax.json" >/dev/null; then
		ok
	else
		no "unreadable file as nobody: exit $rc"
		head -n 5 "$R/unreadable.err" | sed 's/^/    /'
	fi
	chmod 755 "$U/tree/drivers/secret"
	rm -rf "$U"
else
	echo "  (skipped: needs root and setpriv)"
	ok
fi

# ---- missing tools ------------------------------------------------------------

mkdir -p "$R/bin-git"
ln -s "$(command -v git)" "$R/bin-git/git"
t "missing-tool-spatch"
runc nospatch env PATH="$R/bin-git" "$POLLTAX" scan -q -j 2 -o "$R/nospatch-out" "$FIX"
expect nospatch 0 "polltax: warning: spatch not found: no Coccinelle second opinion (apt-get install coccinelle)" &&
	if json_ok "$R/nospatch-out/polltax.json"; then ok; else no "no valid polltax.json without spatch"; fi

t "missing-tool-git (a git tree)"
G=$R/gittree
cp -R "$FIX" "$G"
git -C "$G" init -q && git -C "$G" add -A &&
	git -C "$G" -c user.email=t@example.org -c user.name=t commit -qm fixture
sums "$G" >"$R/gittree.sums"
runc nogit env PATH=/nonexistent "$POLLTAX" scan -q --no-cocci -j 2 -o "$R/nogit-out" "$G"
expect nogit 0 "polltax: warning: git not found: '$G' is a git tree but its describe and HEAD are not recorded (apt-get install git)" && ok

t "missing-tool-libclang (hidden in a mount namespace)"
cat >"$R/nolibclang.sh" <<'EOF'
set -e
d=$(mktemp -d)
mkdir -p $d/orig $d/fake
mount --bind /usr/lib/x86_64-linux-gnu $d/orig
mount -t tmpfs none $d/fake
for f in $d/orig/* $d/orig/.??*; do
	n=${f##*/}
	case $n in libclang-*.so*|libclang.so*) continue ;; esac
	ln -s "$f" "$d/fake/$n"
done
mount --bind $d/fake /usr/lib/x86_64-linux-gnu
exec "$@"
EOF
if [ -e /usr/lib/x86_64-linux-gnu/libclang-14.so.13 ] && unshare -m true 2>/dev/null; then
	runc nolibclang unshare -m sh "$R/nolibclang.sh" "$POLLTAX" scan -q -o "$R/nolibclang-out" "$FIX"
	expect nolibclang 127 "$POLLTAX: error while loading shared libraries: libclang-14.so.13: cannot open shared object file: No such file or directory" && ok
else
	echo "  (skipped: needs unshare -m and Debian's libclang-14.so.13)"
	ok
fi

# ---- the tree is never modified -----------------------------------------------

t "tree-unmodified (the fixture tree, cold scan with Coccinelle)"
sums "$FIX" >"$R/fixture.sums"
CACHE=$R/cache-untouched
run untouched scan -q -j 2 -o "$R/untouched-out" "$FIX"
if [ "$rc" -ne 0 ]; then
	no "scan failed: exit $rc"
elif sums "$FIX" | cmp -s - "$R/fixture.sums"; then
	ok
else
	no "scanning changed the fixture tree:"
	sums "$FIX" | diff "$R/fixture.sums" - | head -n 6 | sed 's/^/    /'
fi

t "tree-unmodified (a git tree, .git included)"
run untouched-git scan -q -j 2 -o "$R/untouched-git-out" "$G"
if [ "$rc" -eq 0 ] && sums "$G" | cmp -s - "$R/gittree.sums"; then
	ok
else
	no "scanning changed the git tree (exit $rc)"
	sums "$G" | diff "$R/gittree.sums" - | head -n 6 | sed 's/^/    /'
fi

t "tree-unmodified (make prepare in the cache)"
P=$R/prepared
cp -R "$FIX" "$P"
rm -f "$P/compile_flags.txt"
sums "$P" >"$R/prepared.sums"
run untouched-prepare scan -q --no-cocci -j 2 -o "$R/untouched-prepare-out" "$P"
if [ "$rc" -eq 0 ] && sums "$P" | cmp -s - "$R/prepared.sums"; then
	ok
else
	no "preparing and scanning changed the tree (exit $rc)"
	sums "$P" | diff "$R/prepared.sums" - | head -n 6 | sed 's/^/    /'
fi
CACHE=$R/cache

# ---- interruptions --------------------------------------------------------------

# a tree slow enough to interrupt: the fixture, 2 more copies of drivers/char,
# and two files that keep both workers busy for seconds (as slow.c above,
# within the time limit) after the first files are parsed, however fast
# the rest goes
B=$R/big
cp -R "$FIX" "$B"
for k in 1 2; do
	mkdir -p "$B/drivers/copy$k"
	cp "$FIX"/drivers/char/*.c "$FIX"/drivers/char/*.h "$B/drivers/copy$k/"
done
mkdir -p "$B/drivers/zz-slow"
for k in 1 2; do
	{ doubling 21 ,; echo "static int slow${k}_poll_table_sink[] = { X21(1) };"; } >"$B/drivers/zz-slow/slow$k.c"
done
nfacts() { find "$1/polltax/facts" -path '*/sets' -prune -o -name '*.json' -print 2>/dev/null | wc -l; }
cache_ok() {	# every cache entry is whole JSON
	find "$1/polltax/facts" -name '*.json' -exec python3 -c '
import json, sys
for f in sys.argv[1:]:
    try:
        json.load(open(f, encoding="utf-8"))
    except Exception as e:
        print("bad cache entry %s: %s" % (f, e))
        sys.exit(1)' {} +
}

# interrupt SIG WHO NAME: start a scan of the big tree into $R/int-out
# (which holds the fixture's outputs), send SIG to the process group (WHO=group)
# or to polltax only (WHO=parent) once some files are parsed
interrupt() {
	# a background job of a script ignores SIGINT: give it back its default, as a terminal job has
	XDG_CACHE_HOME=$CACHE env --default-signal=INT setsid "$POLLTAX" scan -q --no-cocci -j 2 -o "$R/int-out" "$B" \
		>/dev/null 2>"$R/$3.err" &
	pid=$!
	base=$(nfacts "$CACHE")
	n=0
	while [ "$(nfacts "$CACHE")" -lt $((base + 6)) ] && [ $n -lt 600 ] && kill -0 $pid 2>/dev/null; do
		sleep 0.1
		n=$((n + 1))
	done
	if ! kill -0 $pid 2>/dev/null; then
		wait $pid
		echo "the scan ended before it could be interrupted"
		return 1
	fi
	if [ "$2" = group ]; then kill -s "$1" -- "-$pid"; else kill -s "$1" "$pid"; fi
	wait $pid 2>/dev/null
	rc=$?
	# orphaned workers finish their file; wait for them
	n=0
	while [ -n "$(ps -o pid= --sid "$pid" 2>/dev/null)" ] && [ $n -lt 600 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	[ "$rc" -ne 0 ] || { echo "the interrupted scan exited 0"; return 1; }
	return 0
}

CACHE=$R/cache-int
run int-prev scan -q --no-cocci -j 2 -o "$R/int-out" "$FIX"
sums "$R/int-out" >"$R/int-out.sums"
for case in "INT group" "KILL group" "KILL parent" "INT parent"; do
	set -- $case
	t "interrupt-$1-$2 (previous outputs intact, cache valid)"
	msg=$(interrupt "$1" "$2" "int-$1-$2")
	if [ -n "$msg" ]; then
		no "$msg"
	elif ! sums "$R/int-out" | cmp -s - "$R/int-out.sums"; then
		no "SIG$1 to the $2 changed the previous outputs:"
		sums "$R/int-out" | diff "$R/int-out.sums" - | head -n 6 | sed 's/^/    /'
	elif ! msg=$(cache_ok "$CACHE"); then
		no "$msg"
	else
		ok
	fi
done

t "interrupt-next-run-identical (to a clean scan)"
run int-after scan -q --no-cocci -j 2 -o "$R/int-out" "$B"
CACHE=$R/cache-int-ref
run int-ref scan -q --no-cocci -j 2 -o "$R/int-ref" "$B"
if [ "$rc" -ne 0 ] || ! [ -s "$R/int-out/polltax.json" ]; then
	no "scan after the interruptions failed"
elif ! msg=$(same_outputs "$R/int-out" "$R/int-ref"); then
	no "after interruptions: $msg"
else
	ok
fi

t "interrupt-one-worker-killed (its file fails, no temporary file, the next run parses it)"
# the slow tree of hostile-timeout, one worker at a time: once the first
# file (single-static-global-wait.c) has its entry, the worker is slow.c's
CACHE=$R/cache-worker
XDG_CACHE_HOME=$CACHE "$POLLTAX" scan -q --no-cocci -j 1 --timeout 60 -o "$R/worker-out" "$S" \
	>/dev/null 2>"$R/worker.err" &
pid=$!
n=0
victim=
while [ -z "$victim" ] && [ $n -lt 600 ] && kill -0 $pid 2>/dev/null; do
	[ "$(nfacts "$CACHE")" -ge 1 ] &&
		victim=$(ps -o pid=,etimes=,stat= --ppid $pid | awk '$2 >= 1 && $3 !~ /^Z/ { print $1; exit }')
	[ -n "$victim" ] || sleep 0.1
	n=$((n + 1))
done
[ -n "$victim" ] && kill -KILL "$victim"
wait $pid
rc=$?
got=$(jq -r '.files.failed[] | .file + ": " + .reason' "$R/worker-out/polltax.json" 2>/dev/null)
tmp=$(find "$CACHE" -name '*.tmp.*' | head -n 1)
if [ -z "$victim" ]; then
	no "no worker to kill"
elif [ "$rc" -ne 0 ] || [ "$got" != "drivers/char/slow.c: libclang crashed (Killed)" ] || [ -n "$tmp" ]; then
	no "worker $victim killed: exit $rc, failed '$got', temporary file '$tmp'"
else
	# parsed again (not taken from the cache): now it times out, as in hostile-timeout
	run worker-next scan -q --no-cocci -j 2 --timeout 1 -o "$R/worker-out" "$S"
	if msg=$(same_outputs "$R/worker-out" "$R/slow-out"); then ok; else no "next run: $msg"; fi
fi
CACHE=$R/cache

# ---- a cache that cannot be written -------------------------------------------------
# One warning, whatever the number of entries, and the scan goes on: with
# a temporary cache when the cache cannot be written at all (the same
# outputs as with a cache), without the entries it cannot write when the
# disk fills up in the middle (those files are listed as failed).

# cache_case NAME: the run's stderr is one warning (MATCHING $2), its outputs prev's, its temporary cache gone
cache_case() {
	if [ "$rc" -ne 0 ]; then
		no "$1: exit $rc: $(head -n 5 "$R/$1.err")"
	elif [ "$(wc -l <"$R/$1.err")" -ne 1 ] || ! grep -q "$2" "$R/$1.err"; then
		no "$1: not one warning: $(head -n 5 "$R/$1.err") ($(wc -l <"$R/$1.err") lines)"
	elif ! msg=$(same_outputs "$R/prev" "$R/$1-out"); then
		no "$1: not the outputs of a scan with a cache: $msg"
	elif [ -n "$(ls -A "$R/tmp-$1")" ]; then
		no "$1: the temporary cache is left: $(ls "$R/tmp-$1")"
	else
		ok
	fi
}
t "cache-unwritable (a file where its facts directory should be)"
mkdir -p "$R/cache-file/polltax" "$R/tmp-cache-file"
: >"$R/cache-file/polltax/facts"
XDG_CACHE_HOME=$R/cache-file TMPDIR=$R/tmp-cache-file "$POLLTAX" scan -q --no-cocci -j 2 -o "$R/cache-file-out" "$FIX" \
	>/dev/null 2>"$R/cache-file.err"
rc=$?
cache_case cache-file "^polltax: warning: the cache '$R/cache-file/polltax' cannot be written (cannot create '$R/cache-file/polltax/facts/sets': Not a directory): this run uses '$R/tmp-cache-file/polltax-cache-[^']*' instead, removed at the end, and reuses nothing\$"

mkdir -p "$R/cache-ro" "$R/tmp-cache-ro"
if unshare -m true 2>/dev/null; then
	t "cache-unwritable (a read-only file system)"
	XDG_CACHE_HOME=$R/cache-ro TMPDIR=$R/tmp-cache-ro unshare -m sh -c 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" &&
		exec "$2" scan -q --no-cocci -j 2 -o "$3" "$4"' sh "$R/cache-ro" "$POLLTAX" "$R/cache-ro-out" "$FIX" \
		>/dev/null 2>"$R/cache-ro.err"
	rc=$?
	cache_case cache-ro "^polltax: warning: the cache '$R/cache-ro/polltax' cannot be written (cannot create '$R/cache-ro/polltax/facts/sets': Read-only file system): this run uses '$R/tmp-cache-ro/polltax-cache-[^']*' instead"

	t "cache-full (the disk fills up during the scan)"
	mkdir -p "$R/cache-full"
	XDG_CACHE_HOME=$R/cache-full unshare -m sh -c 'mount -t tmpfs -o size=300k polltax-full "$1" &&
		exec "$2" scan -q --no-cocci -j 2 -o "$3" "$4"' sh "$R/cache-full" "$POLLTAX" "$R/cache-full-out" "$FIX" \
		>/dev/null 2>"$R/cache-full.err"
	rc=$?
	nf=$(jq '[.files.failed[] | select(.reason == "its facts could not be written to the cache")] | length' \
		"$R/cache-full-out/polltax.json" 2>/dev/null)
	if [ "$rc" -ne 0 ]; then
		no "cache-full: exit $rc: $(head -n 5 "$R/cache-full.err")"
	elif [ "$(wc -l <"$R/cache-full.err")" -ne 1 ] ||
		! grep -q "^polltax: warning: the cache cannot be written (.*No space left on device): going on without it" "$R/cache-full.err"; then
		no "cache-full: not one warning: $(head -n 5 "$R/cache-full.err") ($(wc -l <"$R/cache-full.err") lines)"
	elif [ "${nf:-0}" -eq 0 ] || ! json_ok "$R/cache-full-out/polltax.json"; then
		no "cache-full: no file listed as failed for its cache entry ($nf)"
	else
		ok
	fi
else
	t "cache-unwritable (a read-only file system)"
	echo "  (skipped: needs unshare -m)"
	ok
fi

# ---- determinism ------------------------------------------------------------------

t "deterministic (-j 1 cold, -j 2 warm, -j 2 cold, --no-cache -j 1)"
CACHE=$R/cache-det1
run det1 scan -q -j 1 -o "$R/det1" "$FIX"
run det2 scan -q -j 2 -o "$R/det2" "$FIX"
CACHE=$R/cache-det2
run det3 scan -q -j 2 -o "$R/det3" "$FIX"
run det4 scan -q --no-cache -j 1 -o "$R/det4" "$FIX"
CACHE=$R/cache
res=
for d in det2 det3 det4; do
	msg=$(same_outputs "$R/det1" "$R/$d") || res="$res $d: $msg;"
done
if [ -z "$res" ] && [ -s "$R/det1/polltax.json" ]; then ok; else no "outputs differ:$res"; fi

# --no-cache reads no cache entry, the Coccinelle pass's included: with
# every one of them emptied (spatch found nothing), it gives det1's bytes
t "--no-cache reads no cache entry (the Coccinelle cache emptied)"
n=0
for f in "$R"/cache-det2/polltax/cocci/*.tsv; do
	[ -s "$f" ] && n=$((n + 1))
	: >"$f"
done
CACHE=$R/cache-det2
cd "$R" && run det5 scan -j 1 --no-cache -o det5 "$FIX"
cd "$here" || exit 1
CACHE=$R/cache
if [ "$n" -eq 0 ]; then
	no "no Coccinelle cache entry with a result in $R/cache-det2"
elif ! msg=$(same_outputs "$R/det1" "$R/det5"); then
	no "--no-cache read the emptied Coccinelle cache: $msg"
elif ! grep -q '^polltax: Coccinelle second opinion on [0-9]* files$' "$R/det5.err"; then
	no "--no-cache did not run spatch: $(cat "$R/det5.err")"
else
	ok
fi

echo "RESULT $passed $failed"
