#!/bin/sh
# pv-store never loses or misreports data: links inside a store lead
# nothing outside it (gc deletes nothing there, add creates nothing
# there); a damaged object is found before a byte of it is written, and a
# re-add over it rewrites it; a failed add leaves no temporary; fsck names
# every damaged index line and --repair keeps every good entry; a store of
# pv-stat -S nights pairs into comparisons; a stream of more experiments
# than the index once took (54) stays readable.
. "${top_srcdir:-.}/tests/lib.sh"

D=$top_srcdir/tests/data/pv-store
GIT_CEILING_DIRECTORIES=$(dirname "$T")
export GIT_CEILING_DIRECTORIES
PV_STORE=$T/store
export PV_STORE
cd "$T" || exit 99

# outside/: what no command on the store may change
mkdir outside && echo keep >outside/a && echo keep >outside/b || exit 99
# its names, kinds and contents
snap() {
	find outside -exec ls -1dF {} + | sort
	find outside -type f -exec cksum {} + | sort
}
snap >outside.before
untouched() {
	snap >outside.after
	if test_cmp outside.before outside.after; then pass
	else fail "$1: outside the store changed"; fi
}
fresh() {
	rm -rf store
	pv-store init &&
	pv-store add -v v6.11 -d 1732000000 "$D/v6.11.pv" >v6.11.out &&
	pv-store add -v v6.12 -d 1732100000 "$D/v6.12.pv" >v6.12.out ||
		exit 99
}
object() {
	h=$(cut -f1 "$1")
	echo "store/objects/$(echo "$h" | cut -c1-2)/$(echo "$h" | cut -c3-)"
}

# DIR/tmp a link: gc refuses and deletes nothing (it once emptied the
# directory the link named, and said "removed 0 objects")
fresh
pv-store rm v6.11
rmdir store/tmp && ln -s "$T/outside" store/tmp
expect_status 2 "gc, tmp a link" pv-store gc >gc.out 2>gc.err
expect_status 0 "gc, tmp a link: nothing printed" test ! -s gc.out
untouched "gc, tmp a link"
expect_status 2 "add, tmp a link" pv-store add -v x "$D/crlf.pv" \
	>/dev/null 2>&1
untouched "add, tmp a link"
expect_status 1 "fsck --repair, tmp a link" pv-store fsck --repair \
	>fsck.out 2>/dev/null
untouched "fsck --repair, tmp a link"
expect_status 0 "tmp is a directory again" test -d store/tmp -a ! -L store/tmp
expect_status 0 "gc after the repair" pv-store gc >/dev/null
untouched "gc after the repair"

# the lock, the index, a fan-out directory, as links: nothing created or
# written through them
fresh
rm store/lock && ln -s "$T/outside/lock" store/lock
expect_status 2 "add, lock a link" pv-store add -v x "$D/crlf.pv" \
	>/dev/null 2>&1
expect_status 0 "add, lock a link: no file made" test ! -e outside/lock
rm store/lock
pv-store --store=other init || exit 99
cp other/index other.index
mv store/index store/index.real && ln -s "$T/other/index" store/index
expect_status 2 "add, index a link" pv-store add -v x "$D/crlf.pv" \
	>/dev/null 2>&1
if test_cmp other.index other/index; then pass
else fail "add, index a link: another store's index written"; fi
rm store/index && mv store/index.real store/index
h=$(sha256sum <"$D/crlf.pv" | cut -c1-2)
mkdir outside/fan && ln -s "$T/outside/fan" "store/objects/$h"
expect_status 2 "add, objects/XX a link" pv-store add -v x "$D/crlf.pv" \
	>/dev/null 2>&1
expect_status 0 "add, objects/XX a link: no object outside" \
	test -z "$(ls outside/fan)"
rm "store/objects/$h" && rmdir outside/fan
untouched "links"
expect_status 0 "no temporary left" test -z "$(ls store/tmp)"

# a damaged object: exit 2 and nothing on standard output, for show,
# show --experiment and pair (pair and show --experiment once wrote it
# with exit 0; show wrote it, then failed)
fresh
o=$(object v6.12.out)
chmod u+w "$o"
printf 'pv-format\t1\nsection\t-\t-\tfutex\n' | gzip >"$o"
for cmd in "show v6.12" "show --experiment=futex v6.12" "pair v6.12" \
    "show v6.12 $(cut -c1-8 v6.12.out)"; do
	# shellcheck disable=SC2086
	expect_status 2 "$cmd, tampered" pv-store $cmd >tampered.out \
		2>/dev/null
	expect_status 0 "$cmd, tampered: nothing written" test ! -s tampered.out
done
# the baseline sound, the target not: still nothing written
expect_status 2 "pair, one side tampered" pv-store pair \
	--baseline=v6.11 v6.12 >tampered.out 2>/dev/null
expect_status 0 "pair, one side tampered: nothing written" \
	test ! -s tampered.out
# adding the stream again rewrites the object (it was acknowledged and
# left unreadable)
expect_status 0 "re-add over a tampered object" pv-store add -v v6.12 \
	"$D/v6.12.pv" >/dev/null
expect_status 0 "verify after the re-add" pv-store verify
pv-store show v6.12 >show.out
if test_cmp "$D/v6.12.pv" show.out; then pass
else fail "re-add: the stream does not read back"; fi
# a cut object, under another version's entry too
head -c 30 "$o" >cut.gz && chmod u+w "$o" && cat cut.gz >"$o"
expect_status 0 "re-add over a cut object, another version" \
	pv-store add -v again "$D/v6.12.pv" >/dev/null
pv-store show v6.12 >show.out
if test_cmp "$D/v6.12.pv" show.out; then pass
else fail "re-add over a cut object"; fi
# the modes a git checkout gives (writable objects) are not damage
chmod -R u+w store/objects
expect_status 0 "writable objects are sound" pv-store verify
expect_status 0 "writable objects: fsck" pv-store fsck

# an add that fails writing its object (here the file size limit; a full
# disk is tests/tools/pv-store-faults.sh's) leaves no temporary
awk 'BEGIN { print "pv-format\t1"
	for (i = 0; i < 100000; i++) printf "stack\tc\t1\t1\tmain;f%d\n", i
}' >big.pv
expect_status 2 "add past the file size limit" sh -c \
	'trap "" XFSZ; ulimit -f 64; exec pv-store add -v big big.pv' \
	>/dev/null 2>big.err
expect_status 0 "failed add: no temporary left" test -z "$(ls store/tmp)"
expect_status 0 "failed add: not stored" test "$(pv-store log big | wc -l)" -eq 0

# fsck: every damaged line named, past the first; --repair drops those and
# keeps every other line as it was (a later pv-store's line, withdrawn
# entries); nothing good is lost
fresh
pv-store rm v6.11
pv-store add -v v7 -d 1732200000 "$D/crlf.pv" >/dev/null
pv-store log >log.before
cp store/index index.before
{
	printf 'add\tv9\tzz\t1\t1\t1\t-\t-\t-\t-\n'
	printf 'frob\ta later record type\n'
	printf 'rm\tv1\n'
} >>store/index
pv-store add -v v8 -d 1732300000 "$D/crlf.pv" >/dev/null 2>&1 &&
	fail "add past a damaged line"
expect_status 1 "fsck" pv-store fsck >fsck.out 2>fsck.err
printf 'damaged\t9\t%s\ndamaged\t11\t%s\n' \
	"'zz' is not an object name (64 hex digits)" \
	"an 'rm' line has 4 fields, not 2" >fsck.want
if test_cmp fsck.want fsck.out; then pass; else fail "fsck lists"; fi
expect_status 1 "fsck --repair" pv-store fsck --repair >/dev/null 2>&1
{ cat index.before; printf 'frob\ta later record type\n'; } >index.want
if test_cmp index.want store/index; then pass
else fail "fsck --repair: the good lines, as they were"; fi
pv-store log >log.after
if test_cmp log.before log.after; then pass; else fail "repair lost an entry"; fi
expect_status 0 "fsck after the repair" pv-store fsck
expect_status 0 "add after the repair" pv-store add -v v8 "$D/crlf.pv" \
	>/dev/null

# two nights summarised by pv-stat -S, stored, paired: the pair compares
# them (its runval records once kept their ROLE '-', and pv-diff found
# nothing to compare)
night() {
	printf 'pv-format\t1\nsection\t-\t-\tx\n'
	for r in 1 2 3 4 5; do
		printf 'sample\ts\tt\to\tm\tu\thigher\t-\t%d\t-\t%d\n' "$r" \
		    $(($1 + r))
	done
}
pv-store --store=nights init >/dev/null || exit 99
night 100 | pv-stat -S | pv-store --store=nights add -v base >/dev/null &&
night 130 | pv-stat -S | pv-store --store=nights add -v tgt >/dev/null ||
	exit 99
pv-store --store=nights pair --baseline=base tgt >pair.pv
awk -F'\t' '$1 == "runval" { print $2, $3, $12 }' pair.pv | sort -u \
	>runval.out
printf '%s\n' 'baseline base 1' 'baseline base 2' 'baseline base 3' \
	'baseline base 4' 'baseline base 5' 'target tgt 1' 'target tgt 2' \
	'target tgt 3' 'target tgt 4' 'target tgt 5' >runval.want
if test_cmp runval.want runval.out; then pass
else fail "pair: runval roles and versions"; fi
pv-diff pair.pv >diff.out
expect_status 0 "pair of summarised nights: a comparison" \
	test "$(awk -F'\t' '$1 == "cmp" { print $2, $3, $12, $13 }' diff.out)" = \
	"base tgt 5 5"
# two summarised collections under one version: their runs stay apart
night 140 | pv-stat -S | pv-store --store=nights add -v tgt >/dev/null
pv-store --store=nights pair --baseline=base tgt | pv-diff |
	awk -F'\t' '$1 == "cmp" { print $12, $13 }' >runs.out
echo '5 10' >runs.want
if test_cmp runs.want runs.out; then pass
else fail "pair: the runval runs of two streams"; fi

# a stream of 60 experiments: the add line of 70 fields reads back
awk 'BEGIN { print "pv-format\t1"
	for (i = 0; i < 60; i++)
		printf "section\t-\t-\tx%d\nstack\tc\t1\t%d\tmain\n", i, i + 1
}' >many.pv
pv-store --store=many init >/dev/null || exit 99
expect_status 0 "add 60 experiments" pv-store --store=many add -v v1 \
	many.pv >/dev/null
expect_status 0 "log after" pv-store --store=many log >many.log
expect_status 0 "log: 60 experiments" \
	test "$(awk -F'\t' '{ print (NF - 6) / 2 }' many.log)" -eq 60
pv-store --store=many add -v v2 many.pv >/dev/null
pv-store --store=many pair --baseline=v1 v2 | pv-diff | grep -c '^func' \
	>/dev/null || fail "pair of 60 experiments"
expect_status 0 "verify 60 experiments" pv-store --store=many verify
finish
