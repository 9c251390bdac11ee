#!/bin/sh
# pv-store with git: the store at the top of the work tree, add without
# --version files HEAD's commit with its branch, names git knows resolve
# to stored commits, a commit's baseline is its nearest stored ancestor
# (git rev-list), not a newer commit on another branch, and a series of
# commits is in git's order of descent.
. "${top_srcdir:-.}/tests/lib.sh"

command -v git >/dev/null || skip_all "git is not installed"
unset PV_STORE GIT_DIR GIT_WORK_TREE
GIT_CEILING_DIRECTORIES=$(dirname "$T")
GIT_AUTHOR_NAME=test GIT_AUTHOR_EMAIL=test@example.org
GIT_COMMITTER_NAME=test GIT_COMMITTER_EMAIL=test@example.org
GIT_AUTHOR_DATE='2024-01-01T00:00:00Z' GIT_COMMITTER_DATE=$GIT_AUTHOR_DATE
export GIT_CEILING_DIRECTORIES GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL \
	GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL GIT_AUTHOR_DATE \
	GIT_COMMITTER_DATE
cd "$T" || exit 99

# outside a work tree and without --store or PV_STORE: trouble
expect_status 2 "no work tree" pv-store log 2>nowt.err
expect_golden "$top_srcdir/tests/data/pv-store/nowt.err" nowt.err \
	"no work tree message"

mkdir repo && cd repo || exit 99
git init -q -b main . 2>/dev/null || { git init -q . && git checkout -q -b main; }
commit() {
	echo "$1" >file && git add file && git commit -q -m "$1" || exit 99
	git rev-parse HEAD
}
A=$(commit a)
B=$(commit b)
git tag v6.11
git checkout -q -b side
S=$(commit side)
git checkout -q main
C=$(commit c)
mkdir sub && cd sub || exit 99

prof() {
	printf 'pv-format\t1\nsection\t-\t-\texp\nstack\t-\t%d\t%d\tmain;f\n' \
	    "$1" "$1"
}
expect_status 0 "init in a subdirectory" pv-store init
expect_status 0 "store at the top" test -f ../.pv/format
prof 1 | pv-store add -d 1 | cut -f2 >addc.out
echo "$C" >addc.want
if test_cmp addc.want addc.out; then pass; else fail "add HEAD"; fi
prof 2 | pv-store add -v "$A" -d 2 >/dev/null
prof 3 | pv-store add -v side -d 3 >/dev/null
prof 4 | pv-store add -v v6.11 -d 4 >/dev/null
pv-store log | cut -f1,6 >log.out
printf '%s\tmain\n%s\t-\n%s\t-\nv6.11\t-\n' "$C" "$A" "$S" >log.want
if test_cmp log.want log.out; then pass; else fail "log: branch"; fi
# the kernel tag keeps its name and records its commit
if grep -q "^add	v6.11	.*	$B	-	-	exp\$" ../.pv/index; then pass; else
	fail "tag: commit not recorded"; fi
# names git knows
pv-store show HEAD | cmp -s - "$(prof 1 >p1; echo p1)" && pass ||
	fail "show HEAD"
pv-store show main~2 >/dev/null && pass || fail "show main~2"
# the nearest stored ancestor: C's is the tag's commit B, not S (newer,
# on another branch) nor A (further)
expect_status 0 "baseline of C" sh -c "test \"\$(pv-store baseline $C)\" = v6.11"
expect_status 0 "baseline of side" sh -c "test \"\$(pv-store baseline side)\" = v6.11"
expect_status 0 "baseline of B's child" sh -c "test \"\$(pv-store baseline HEAD)\" = v6.11"
expect_status 2 "no ancestor stored" pv-store baseline "$A" 2>/dev/null
pv-store pair HEAD >pair.out
printf 'pv-format\t1\nsection\tbaseline\tv6.11\texp\nstack\t-\t4\t4\tmain;f\nsection\ttarget\t%s\texp\nstack\t-\t1\t1\tmain;f\n' "$C" >pair.want
if test_cmp pair.want pair.out; then pass; else fail "pair HEAD"; fi
# series: commits in git's order of descent, ancestors first, whatever
# the order they were stored in
pv-store --store="$T/commits" init >/dev/null || exit 99
prof 5 | pv-store --store="$T/commits" add -v "$C" -d 5 >/dev/null
prof 6 | pv-store --store="$T/commits" add -v "$A" -d 6 >/dev/null
pv-store --store="$T/commits" series |
	awk -F'\t' '$1 == "section" { print $3 }' >series.out
printf '%s\n%s\n' "$A" "$C" >series.want
if test_cmp series.want series.out; then pass; else fail "series: descent"; fi
# a name that is neither stored nor a commit
expect_status 2 "unknown name" pv-store show nosuchref 2>/dev/null

# the store committed and cloned, as pv-store(1) suggests for sharing: the
# clone has no tmp/ (git keeps no empty directory) and writable objects;
# add, gc and verify work there, and init makes what is missing
cd .. || exit 99
printf 'index merge=union\n' >.pv/.gitattributes
git add .pv && git commit -q -m store || exit 99
cd "$T" && git clone -q repo clone 2>/dev/null && cd clone || exit 99
expect_status 0 "clone: no tmp" test ! -e .pv/tmp
expect_status 0 "clone: verify" pv-store verify
expect_status 0 "clone: fsck" pv-store fsck
prof 5 | pv-store add -v clone-1 -d 5 >/dev/null
expect_status 0 "clone: add" test "$(pv-store log clone-1 | wc -l)" -eq 1
expect_status 0 "clone: gc" pv-store gc >/dev/null
expect_status 0 "clone: verify after" pv-store verify
pv-store show clone-1 >clone.out
prof 5 >clone.want
if test_cmp clone.want clone.out; then pass; else fail "clone: show"; fi
rm -rf .pv/tmp
expect_status 0 "clone: init makes tmp again" pv-store init
expect_status 0 "clone: tmp" test -d .pv/tmp
finish
