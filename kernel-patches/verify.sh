#!/bin/bash
# Check an infrastructure patch against a pristine kernel tree.
#
#   kernel-patches/verify.sh <pristine-kernel-src> <patch> [<scratch-dir>]
#
# <patch> is what "polltax infra -o DIR <pristine-kernel-src>" writes (or a
# hand-written one); the objects below that the tree does not have are left
# out.
#
# The pristine tree is never written to: it is copied to the scratch directory
# (default ~/.cache/polltax/verify/<patch-name>), made a git repository, and
# the patch is applied there with "git am".  Then:
#   1. scripts/checkpatch.pl --strict on the patch: 0 errors, 0 warnings
#   2. x86_64 defconfig: sparse (make C=2) on the touched objects, before and
#      after the patch; the patch must add no sparse warning, and the objects
#      must build
#   3. x86_64 allmodconfig: the touched objects build (allmodconfig has
#      CONFIG_WERROR=y, so a new compiler warning fails too)
#   4. tinyconfig + 64BIT: a whole vmlinux builds
# Everything runs under nice with -j$JOBS (default 2).  Exit status 0 only if
# every check passed; a summary is printed at the end.
set -u

src=${1:?usage: verify.sh <pristine-kernel-src> <patch> [<scratch-dir>]}
patch=${2:?usage: verify.sh <pristine-kernel-src> <patch> [<scratch-dir>]}
patch=$(realpath "$patch")
src=$(realpath "$src")
name=$(basename "$patch" .patch)
scratch=${3:-$HOME/.cache/polltax/verify/$name}
jobs=${JOBS:-2}

# Objects that contain the changed code or inline vfs_poll()/file_can_poll().
objs="fs/select.o fs/eventpoll.o fs/debugfs/file.o fs/open.o fs/file_table.o
      io_uring/poll.o io_uring/io_uring.o io_uring/rw.o io_uring/kbuf.o
      io_uring/net.o fs/aio.o"
allmod_extra="mm/memcontrol-v1.o drivers/vhost/vhost.o drivers/vfio/virqfd.o
      drivers/xen/privcmd.o drivers/virt/acrn/irqfd.o net/9p/trans_fd.o"

tree=$scratch/src
results=()
fail=0
record() { # record <name> <rc>
	if [ "$2" -eq 0 ]; then results+=("PASS $1"); else results+=("FAIL $1"); fail=1; fi
}
mk() { # mk <objdir> <args...>
	local o=$1; shift
	nice make -C "$tree" O="$o" "$@"
}

rm -rf "$scratch"
mkdir -p "$scratch"
echo "== copying $src to $tree"
cp -a "$src" "$tree" || exit 1
cd "$tree" || exit 1
git init -q
git add -f -A                   # Debian's top-level .gitignore ignores "/*"
git -c user.name=verify -c user.email=verify@localhost \
	commit -q -m "pristine $(make -s kernelversion)" || exit 1

# The patch's own .c files, plus the fixed lists, for the sources this tree has
touched=$(grep '^+++ b/.*\.c$' "$patch" | sed 's#^+++ b/##; s#\.c$#.o#')
have() { for o in "$@"; do [ -f "${o%.o}.c" ] && echo "$o"; done; }
objs=$(have $(printf '%s\n' $objs $touched | sort -u))
allmod_extra=$(have $allmod_extra)

# sparse baseline on the pristine tree (defconfig)
def=$scratch/defconfig
mk "$def" defconfig >/dev/null
mk "$def" -j"$jobs" C=2 $objs >"$scratch/sparse-before.log" 2>&1
record "defconfig build, pristine" $?

echo "== git am $patch"
git am -q "$patch"
record "git am" $?
[ "$fail" -eq 0 ] || { printf '%s\n' "${results[@]}"; exit 1; }

echo "== checkpatch --strict"
./scripts/checkpatch.pl --strict "$patch" | tee "$scratch/checkpatch.log"
grep -q '^total: 0 errors, 0 warnings' "$scratch/checkpatch.log"
record "checkpatch --strict: 0 errors, 0 warnings" $?

echo "== defconfig: build + sparse"
mk "$def" -j"$jobs" C=2 $objs >"$scratch/sparse-after.log" 2>&1
record "defconfig build of $(echo $objs | wc -w) objects" $?
norm() { # warning lines without line numbers: "file: warning: text"
	grep -E ': (warning|error):' "$1" | sed -E "s#^$tree/##; s#:[0-9]+:[0-9]+:#:#" | sort
}
norm "$scratch/sparse-before.log" >"$scratch/sparse-before.txt"
norm "$scratch/sparse-after.log" >"$scratch/sparse-after.txt"
new=$(comm -13 "$scratch/sparse-before.txt" "$scratch/sparse-after.txt")
[ -z "$new" ]
record "sparse: no new warnings ($(wc -l <"$scratch/sparse-before.txt") before, $(wc -l <"$scratch/sparse-after.txt") after)" $?
[ -z "$new" ] || printf 'new sparse warnings:\n%s\n' "$new"

echo "== allmodconfig: touched objects"
am=$scratch/allmodconfig
mk "$am" allmodconfig >/dev/null
mk "$am" -j"$jobs" $objs $allmod_extra >"$scratch/allmodconfig.log" 2>&1
record "allmodconfig build of $(echo $objs $allmod_extra | wc -w) objects" $?

echo "== tinyconfig + 64BIT: vmlinux"
tiny=$scratch/tiny
mk "$tiny" tinyconfig >/dev/null
./scripts/config --file "$tiny/.config" --enable 64BIT
mk "$tiny" olddefconfig >/dev/null
mk "$tiny" -j"$jobs" vmlinux >"$scratch/tiny.log" 2>&1
record "tinyconfig+64BIT vmlinux" $?

echo
echo "== summary ($patch)"
printf '%s\n' "${results[@]}"
echo "logs: $scratch"
exit $fail
