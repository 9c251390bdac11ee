#!/bin/sh
# pv-stat: goldens, bad input, and shards that merge to the same bytes.
. "${top_srcdir:-.}/tests/lib.sh"
D=$top_srcdir/tests/data/pv-stat
EX=$top_srcdir/examples
# rc N: a command with status N, for expect_status after a redirection
rc() { return "$1"; }

pv-stat "$D/small.in" > "$T/out" 2> "$T/err"
expect_status 0 "small" rc $?
expect_golden "$D/small.out" "$T/out" "small"
test_cmp /dev/null "$T/err" && pass || fail "small: stderr not empty"

pv-stat -S -c 0.9 "$D/small.in" > "$T/out"
expect_golden "$D/small-S.out" "$T/out" "small -S -c 0.9"

# every value its own unit: the samples renumbered, REPLICATE 'sample'
pv-stat -u sample "$D/small.in" > "$T/out"
expect_golden "$D/small-u.out" "$T/out" "small -u sample"
# which pv-diff then counts as runs: what pv-stat -S -u sample wrote
pv-stat -S -u sample "$D/small.in" | pv-stat -m -u sample > "$T/a"
grep -v '^sample	' "$T/out" > "$T/b"
grep -v '^runval	' "$T/a" > "$T/c"
test_cmp "$T/b" "$T/c" && pass || fail "-u sample: -S and -m agree"
pv-stat -u repetition "$D/small.in" > /dev/null 2> "$T/err"
expect_status 2 "bad -u" rc $?

# NaN, infinities and words are FILE:LINE errors, exit 2
for f in nan word inf; do
	(cd "$D" && pv-stat "$f.in") > /dev/null 2> "$T/err"
	expect_status 2 "$f" rc $?
	expect_golden "$D/$f.err" "$T/err" "$f"
done

# shards: pv-stat on each, then on the concatenation == pv-stat on all
in=$EX/mmtests-aa.pv
pv-stat "$in" > "$T/whole"
n=$(grep -n '^section	target' "$in" | cut -d: -f1)
head -n $((n - 1)) "$in" > "$T/s1"
tail -n +$n "$in" > "$T/s2"
# a cut inside a run is fine too: samples pass through in order
head -n 40 "$in" > "$T/c1"
tail -n +41 "$in" > "$T/c2"
pv-stat "$T/s1" > "$T/o1"
pv-stat "$T/s2" > "$T/o2"
cat "$T/o1" "$T/o2" | pv-stat > "$T/merged"
test_cmp "$T/whole" "$T/merged" && pass || fail "shards by section"
pv-stat "$T/c1" > "$T/o1"
pv-stat "$T/c2" > "$T/o2"
cat "$T/o1" "$T/o2" | pv-stat > "$T/merged"
test_cmp "$T/whole" "$T/merged" && pass || fail "shards inside a run"
# partial aggregates without samples: -S shards, -m -S merge
pv-stat -S "$in" > "$T/whole"
pv-stat -S "$T/s1" > "$T/o1"
pv-stat -S "$T/s2" > "$T/o2"
cat "$T/o2" "$T/o1" | pv-stat -m -S > "$T/merged"
sort "$T/whole" > "$T/a"
sort "$T/merged" > "$T/b"
test_cmp "$T/a" "$T/b" && pass || fail "-S shards merged with -m"
grep -v '^[a-z-]*	' "$T/whole" > "$T/a" || true
grep -E '^(runval|stat|statroll)	' "$T/whole" > "$T/a"
grep -E '^(runval|stat|statroll)	' "$T/merged" > "$T/b"
test_cmp "$T/a" "$T/b" && pass || fail "-m statistics in the same order"
# a run in two inputs of a merge is refused
cat "$T/o1" "$T/o1" | pv-stat -m > /dev/null 2> "$T/err"
expect_status 2 "run given twice" rc $?

# same input, same bytes
pv-stat "$in" > "$T/a"
pv-stat "$in" > "$T/b"
test_cmp "$T/a" "$T/b" && pass || fail "deterministic"

# 20,000 keys (several threads compute them): a key whose runs are too
# large to summarise in the middle stops the output after the records of
# the keys before it, as one thread would, and exits 2
awk 'BEGIN { print "pv-format\t1"; print "section\tbaseline\tA\tx"
	for (k = 0; k < 20000; k++) for (r = 1; r <= 3; r++)
		printf "sample\ts\tt%05d\top\tm\tu\thigher\t-\t%d\t-\t%s\n",
		    k, r, k == 12345 ? (r == 2 ? "-1.79e308" : "1.79e308") : \
		    100 + r }' \
	> "$T/huge.pv"
pv-stat "$T/huge.pv" > "$T/out" 2> "$T/err"
expect_status 2 "a huge key among many" rc $?
grep -q "test 't12345'.*too large" "$T/err" && pass ||
	fail "huge key: $(cat "$T/err")"
# the samples, then per key before it a stat and its test's roll-up
test "$(wc -l < "$T/out")" -eq $((2 + 60000 + 2 * 12345)) && pass ||
	fail "huge key: $(wc -l < "$T/out") lines written"
tail -n 2 "$T/out" |
	awk -F '\t' '{ printf "%s %s:", $1, $1 == "stat" ? $6 : $7 }' \
	> "$T/tail"
test "$(cat "$T/tail")" = "stat t12344:statroll t12344:" && pass ||
	fail "huge key: the output ends with '$(cat "$T/tail")'"

# usage, help, version, a full disk
pv-stat --help > "$T/out"
expect_status 0 "--help" rc $?
pv-stat --bogus > /dev/null 2>&1
expect_status 2 "unknown option" rc $?
pv-stat -c 2 "$in" > /dev/null 2>&1
expect_status 2 "bad confidence" rc $?
pv-stat --version > /dev/null
expect_status 0 "--version" rc $?
if [ -w /dev/full ]; then
	pv-stat "$in" > /dev/full 2> /dev/null
	expect_status 2 "/dev/full" rc $?
fi
finish
