#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Suite: the infrastructure patch made for the tree at hand (issue 19,
# tool/series/infra.c), on tests/fixtures/infra: a small tree with the files the
# patch touches, cut down to its anchors, and one anon_inode_getfd() driver.
#   - "polltax infra" writes one patch touching the ten files; it applies,
#     and the patched tree still passes its "make check" (gcc -Werror and
#     sparse over every file); the same tree gives the same bytes;
#   - --two-call writes the boot test's two patches, which apply in order
#     and build after each;
#   - "polltax series" puts it first, before the conversion that needs its
#     anon_inode_getfd_poll(), and "polltax verify" passes every patch
#     (git am, gcc -Werror, sparse, checkpatch --strict); --infra PATCH
#     still takes a hand-written one;
#   - a vfs_poll() the generator does not know, a struct file without f_ep:
#     exit status 3, a message that names the file and the anchor, and
#     nothing written;
#   - a tree that has the infrastructure already gets no patch, and its
#     series has the conversions only.
# Environment: POLLTAX, TOP, WORK (as tests/run.sh sets them).  Prints TEST
# lines and ends with "RESULT <passed> <failed>".

set -u
: "${POLLTAX:?}" "${TOP:?}" "${WORK:?}"
. "$TOP/tests/lib.sh"
FIX=$TOP/tests/fixtures/infra
T=$WORK/infra
ID="Polly Tax <polly@example.org>"
SUBJECT="fs: add f_poll_head and ->poll_mask() to avoid the poll tax"
rm -rf "$T"
mkdir -p "$T"
export XDG_CACHE_HOME="${XDG_CACHE_HOME:-$T/cache}"

# apply DIR PATCH...: git apply each patch to DIR, a copy of a tree (not a
# git work tree: the ceiling keeps git from taking the repository around it)
apply() {
	d=$1
	shift
	for p in "$@"; do
		(cd "$d" && export GIT_CEILING_DIRECTORIES="${d%/*}" && git apply --check "$p" && git apply "$p") ||
			return 1
	done
	[ $# -gt 0 ]
}

# 1. the patch, made for the fixture
"$POLLTAX" infra -o "$T/one" "$FIX" >"$T/one.out" 2>"$T/one.err"
rc=$?
P=$T/one/0001-fs-add-f_poll_head-and-poll_mask.patch
[ $rc -eq 0 ] && [ "$(cat "$T/one.out")" = "$P" ] && [ -f "$P" ] && r=ok || r=bad
check "infra: one patch written, its path printed" $r "exit $rc: $(cat "$T/one.out" "$T/one.err")"
n=$(grep -c '^diff --git' "$P" 2>/dev/null)
grep -q "^Subject: \[PATCH\] $SUBJECT" "$P" && [ "$n" = 10 ] &&
	grep -q '^Made by polltax for linux-6.12.0-polltax-infra-fixture, from that tree' "$P" &&
	grep -q '^Signed-off-by: polltax <polltax@localhost>$' "$P" && r=ok || r=bad
check "infra: the ten files, the subject, which tree it was made for, Signed-off-by" $r "$n files; $(head -5 "$P")"
grep -q '^+	struct wait_queue_head		\*f_poll_head;$' "$P" &&
	grep -q '^+ \* @f_poll_head: the one wait queue vfs_poll() waits on' "$P" &&
	grep -q '^+int anon_inode_create_getfd_poll(const char \*name,$' "$P" &&
	grep -q '^+	return __vfs_poll(file, file->f_op, pt);$' "$P" && r=ok || r=bad
check "infra: placed and aligned as the tree writes (f_ep's column, kernel-doc, 80 columns)" $r \
	"$(grep '^+' "$P" | head -40)"
rm -rf "$T/applied" && cp -R "$FIX" "$T/applied"
make -s -C "$T/applied" check >"$T/applied.log" 2>&1 && apply "$T/applied" "$P" >>"$T/applied.log" 2>&1 &&
	make -s -C "$T/applied" check >>"$T/applied.log" 2>&1 && r=ok || r=bad
grep -q 'f_poll_head' "$T/applied/include/linux/fs.h" || r=bad
check "infra: the patch applies and the tree still builds (gcc -Werror, sparse)" $r "$(tail -20 "$T/applied.log")"
"$POLLTAX" infra -q -o "$T/again" "$FIX" >/dev/null 2>&1
cmp -s "$P" "$T/again/${P##*/}" && r=ok || r=bad
check "infra: same tree, same bytes" $r "$(diff "$P" "$T/again/${P##*/}" | head -20)"
"$POLLTAX" infra --signoff "$ID" --date "@1700000000 +0000" -o "$T/id" "$FIX" >/dev/null 2>&1
grep -q '^From: Polly Tax <polly@example.org>$' "$T/id/${P##*/}" &&
	grep -q '^Date: Tue, 14 Nov 2023 22:13:20 +0000$' "$T/id/${P##*/}" &&
	grep -q '^Signed-off-by: Polly Tax <polly@example.org>$' "$T/id/${P##*/}" && r=ok || r=bad
check "infra --signoff --date: author, date and Signed-off-by" $r "$(head -4 "$T/id/${P##*/}")"

# 2. the two-call variant
"$POLLTAX" infra --two-call -o "$T/two" "$FIX" >"$T/two.out" 2>"$T/two.err"
rc=$?
[ $rc -eq 0 ] && [ "$(wc -l <"$T/two.out")" = 2 ] && r=ok || r=bad
check "infra --two-call: two patches" $r "exit $rc: $(cat "$T/two.out" "$T/two.err")"
rm -rf "$T/two-applied" && cp -R "$FIX" "$T/two-applied"
r=ok
for p in $(cat "$T/two.out"); do
	apply "$T/two-applied" "$p" >>"$T/two-applied.log" 2>&1 &&
		make -s -C "$T/two-applied" check >>"$T/two-applied.log" 2>&1 || r=bad
done
grep -q 'get_poll_head' "$T/two-applied/include/linux/fs.h" &&
	grep -q 'file_get_poll_head(struct file \*file, __poll_t events)' "$T/two-applied/fs/select.c" || r=bad
check "infra --two-call: each applies in order and the tree builds after each" $r "$(tail -20 "$T/two-applied.log")"

# 3. the series: the patch made for the tree first, then the conversion that uses it
"$POLLTAX" series -q --signoff "$ID" -o "$T/series" "$FIX" 2>"$T/series.err"
rc=$?
first=$(ls "$T/series"/0001-*.patch 2>/dev/null)
[ $rc -eq 0 ] && grep -q "^Subject: \[PATCH 1/2\] ${SUBJECT% the poll tax}" "$first" &&
	grep -q 'anon_inode_getfd_poll(' "$T/series"/0002-*.patch &&
	grep -q '^Signed-off-by: Polly Tax <polly@example.org>$' "$first" &&
	[ "$(jq -r .infra "$T/series/series.json")" = "${P##*/}" ] && r=ok || r=bad
check "series: the infrastructure patch made for the tree, then the conversion" $r \
	"exit $rc: $(cat "$T/series.err"); $(ls "$T/series")"
grep -q 'kernel-patches/MEASUREMENTS.md of polltax, measured on linux' "$T/series/0000-cover-letter.patch" &&
	r=ok || r=bad
check "series: the cover letter's struct file figures say where they were measured" $r \
	"$(grep -n 'size of struct file' "$T/series/0000-cover-letter.patch")"
"$POLLTAX" verify -q "$T/series" "$FIX" >"$T/verify.out" 2>"$T/verify.err"
rc=$?
[ $rc -eq 0 ] && [ "$(grep -c '^PASS' "$T/verify.out")" -ge 1 ] && r=ok || r=bad
check "verify: git am, gcc -Werror, sparse, checkpatch --strict on both patches" $r \
	"exit $rc: $(cat "$T/verify.out" "$T/verify.err")"
cp "$P" "$T/hand-written.patch"
"$POLLTAX" series -q --scan "$T/series/scan" --signoff "$ID" --infra "$T/hand-written.patch" -o "$T/hand" "$FIX" \
	2>"$T/hand.err"
rc=$?
[ $rc -eq 0 ] && [ "$(jq -r .infra "$T/hand/series.json")" = hand-written.patch ] &&
	grep -q "^Subject: \[PATCH 1/2\] ${SUBJECT% the poll tax}" "$T/hand"/0001-*.patch && r=ok || r=bad
check "series --infra PATCH: a hand-written patch still goes first" $r "exit $rc: $(cat "$T/hand.err")"

# 4. what the generator does not know: exit 3, the file and the anchor named, nothing written
rm -rf "$T/odd" && cp -R "$FIX" "$T/odd"
sed -i 's/return DEFAULT_POLLMASK;/return DEFAULT_POLLMASK | EPOLLHUP;/' "$T/odd/include/linux/poll.h"
"$POLLTAX" infra -o "$T/odd-out" "$T/odd" >/dev/null 2>"$T/odd.err"
rc=$?
[ $rc -eq 3 ] && grep -q "fatal: '$T/odd/include/linux/poll.h': vfs_poll() is not the one polltax knows" "$T/odd.err" &&
	grep -q 'pass it with --infra PATCH' "$T/odd.err" && [ ! -e "$T/odd-out" ] && r=ok || r=bad
check "a vfs_poll() the generator does not know: exit 3, names include/linux/poll.h and vfs_poll()" $r \
	"exit $rc: $(cat "$T/odd.err")"
"$POLLTAX" series -q --signoff "$ID" -o "$T/odd-series" "$T/odd" >/dev/null 2>"$T/odd-series.err"
rc=$?
[ $rc -eq 3 ] && grep -q "vfs_poll() is not the one polltax knows" "$T/odd-series.err" && [ ! -e "$T/odd-series" ] &&
	r=ok || r=bad
check "series on that tree: the same error, exit 3, no output" $r "exit $rc: $(cat "$T/odd-series.err")"
rm -rf "$T/noep" && cp -R "$FIX" "$T/noep"
sed -i '/f_ep;$/d' "$T/noep/include/linux/fs.h"
"$POLLTAX" infra -o "$T/noep-out" "$T/noep" >/dev/null 2>"$T/noep.err"
rc=$?
[ $rc -eq 3 ] && grep -q "'$T/noep/include/linux/fs.h': struct file has no 'struct hlist_head \*f_ep;' member" \
	"$T/noep.err" && [ ! -e "$T/noep-out" ] && r=ok || r=bad
check "a struct file without f_ep: exit 3, names include/linux/fs.h and the member" $r "exit $rc: $(cat "$T/noep.err")"
rm -rf "$T/nodebugfs" && cp -R "$FIX" "$T/nodebugfs"
sed -i 's/r = real_fops->poll(filp, wait);/r = real_fops->poll ? real_fops->poll(filp, wait) : 0;/' \
	"$T/nodebugfs/fs/debugfs/file.c"
"$POLLTAX" infra -o "$T/nodebugfs-out" "$T/nodebugfs" >/dev/null 2>"$T/nodebugfs.err"
rc=$?
[ $rc -eq 3 ] && grep -q "fs/debugfs/file.c': full_proxy_poll() has not one" "$T/nodebugfs.err" && r=ok || r=bad
check "a debugfs proxy the generator does not know: exit 3, names fs/debugfs/file.c" $r \
	"exit $rc: $(cat "$T/nodebugfs.err")"

# 5. a tree with the infrastructure (the fixture with the patch applied): no patch
"$POLLTAX" infra -o "$T/has-out" "$T/applied" >"$T/has.out" 2>"$T/has.err"
rc=$?
[ $rc -eq 0 ] && [ ! -s "$T/has.out" ] && [ ! -e "$T/has-out" ] &&
	grep -q 'has f_poll_head already: no infrastructure patch' "$T/has.err" && r=ok || r=bad
check "a tree with f_poll_head: no infrastructure patch" $r "exit $rc: $(cat "$T/has.out" "$T/has.err")"
"$POLLTAX" series -q --signoff "$ID" -o "$T/has-series" "$T/applied" 2>"$T/has-series.err"
rc=$?
[ $rc -eq 0 ] && [ "$(jq -r .infra "$T/has-series/series.json")" = null ] &&
	[ "$(ls "$T/has-series"/0*.patch | grep -vc 0000-cover-letter)" = 1 ] &&
	grep -q 'anon_inode_getfd_poll(' "$T/has-series"/0001-*.patch && r=ok || r=bad
check "its series: the conversion only, no infrastructure patch" $r \
	"exit $rc: $(cat "$T/has-series.err"); $(ls "$T/has-series")"

echo "RESULT $passed $failed"
