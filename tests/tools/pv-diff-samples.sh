#!/bin/sh
# pv-diff on samples: goldens, refusal of sections that are not comparable,
# runval input, determinism.
. "${top_srcdir:-.}/tests/lib.sh"
D=$top_srcdir/tests/data/pv-diff
rc() { return "$1"; }

(cd "$D" && pv-diff pair.in) > "$T/out" 2> "$T/err"
expect_status 1 "pair: a change found" rc $?
expect_golden "$D/pair.out" "$T/out" "pair"
test_cmp /dev/null "$T/err" && pass || fail "pair: stderr not empty"

# the same from pv-stat -S output (runval records) and through pv-stat
pv-stat -S "$D/pair.in" | pv-diff | grep -E '^(cmp|cmproll)	' > "$T/a"
grep -E '^(cmp|cmproll)	' "$T/out" > "$T/b"
test_cmp "$T/b" "$T/a" && pass || fail "runval input"
pv-stat "$D/pair.in" | pv-diff | grep -E '^(cmp|cmproll)	' > "$T/a"
test_cmp "$T/b" "$T/a" && pass || fail "through pv-stat"
# an earlier pv-diff's records are computed again, not doubled
pv-diff "$D/pair.in" | pv-diff > "$T/a"
test_cmp "$T/out" "$T/a" && pass || fail "idempotent"

# not comparable: refused, every differing key named, exit 2
(cd "$D" && pv-diff refuse.in) > /dev/null 2> "$T/err"
expect_status 2 "refuse" rc $?
expect_golden "$D/refuse.err" "$T/err" "refuse"
pv-diff -i param.threads -i 'env.cpu*' "$D/refuse.in" > "$T/out"
expect_status 1 "refuse: keys ignored" rc $?
pv-diff -i param.threads "$D/refuse.in" > /dev/null 2>&1
expect_status 2 "refuse: one key left" rc $?

# bad values and records
printf 'cmp\ta\tb\n' | pv-diff --samples > "$T/out" 2>&1
expect_status 2 "foreign cmp record dropped" rc $?
printf 'pv-diff: no sample or runval records to compare\n' > "$T/want"
test_cmp "$T/want" "$T/out" && pass || fail "foreign cmp record: output"
printf 'runval\tbaseline\tv\te\ts\tt\to\tm\tu\thigher\t-\t1\t1\tnan\n' |
	pv-diff > /dev/null 2> "$T/err"
expect_status 2 "runval nan" rc $?
printf 'pv-diff:(standard input):1: value '"'"'nan'"'"' is not a finite number\n' > "$T/want"
test_cmp "$T/want" "$T/err" && pass || fail "runval nan message"

# nothing to compare: trouble, with what is missing and what to give
printf 'pv-format\t1\nsection\tbaseline\tv\te\nsample\ts\tt\to\tm\tu\thigher\t-\t1\t-\t1\n' |
	pv-diff > /dev/null 2> "$T/err"
expect_status 2 "no pair" rc $?
printf 'pv-diff: no target section to compare with: give the sections the roles baseline and target (pv-parse --role, pv-collect --role), or name the versions with --baseline and --target\n' > "$T/want"
test_cmp "$T/want" "$T/err" && pass || fail "no pair message"

pv-diff "$D/pair.in" > "$T/a"
pv-diff "$D/pair.in" > "$T/b"
test_cmp "$T/a" "$T/b" && pass || fail "deterministic"
# many comparisons: threads compute them, the output is the same for any
# number (5000 keys, a thread for every 2048; sizes 2 to 9 runs a side)
awk 'BEGIN {
	srand(3)
	print "pv-format\t1"
	for (side = 0; side < 2; side++) {
		printf "section\t%s\tv%d\te\n", side ? "target" : "baseline", side
		for (k = 0; k < 5000; k++) for (r = 1; r <= 2 + k % 8; r++)
			printf "sample\ts%d\tt%d\to\tm\tu\thigher\t-\t%d\t-\t%.4f\n",
			    k % 3, k, r, 100 + 10 * rand() + side * (k % 5)
	}
}' > "$T/many"
pv-diff -j 1 "$T/many" > "$T/j1"
expect_status 1 "5000 keys, one thread" rc $?
[ "$(grep -c '^cmp	' "$T/j1")" -eq 5000 ] && pass || fail "5000 cmp records"
for j in 2 3 7; do
	pv-diff --jobs=$j "$T/many" > "$T/jn"
	test_cmp "$T/j1" "$T/jn" && pass || fail "-j $j differs from -j 1"
done
pv-diff -j 0 "$T/many" > /dev/null 2>&1
expect_status 2 "-j 0" rc $?

# standard input is read once: from a pipe, with CRLF line ends, and
# after 2 MiB of context, where the mode must be given
cat "$T/many" | pv-diff -j 1 > "$T/jn"
test_cmp "$T/j1" "$T/jn" && pass || fail "from a pipe"
sed 's/$/\r/' "$T/many" | pv-diff -j 1 > "$T/jn"
test_cmp "$T/j1" "$T/jn" && pass || fail "from a pipe, CRLF"
awk 'BEGIN { for (i = 0; i < 40000; i++) printf "meta\tk%d\t%050d\n", i, i }' > "$T/ctx"
cat "$T/ctx" "$T/many" | pv-diff > /dev/null 2> "$T/err"
expect_status 2 "2 MiB of context on a pipe" rc $?
grep -q 'say which with --profiles or --samples' "$T/err" && pass ||
	fail "2 MiB of context: message"
# an error met while deciding the mode is the one reported
printf 'pv-format\t1\nsection\tbaseline\tv\te\nsam\000ple\n' |
	pv-diff > /dev/null 2> "$T/err"
expect_status 2 "NUL on standard input" rc $?
printf 'pv-diff:(standard input):3: NUL byte in input (a binary file?)\n' > "$T/want"
test_cmp "$T/want" "$T/err" && pass || fail "NUL on standard input: message"
cat "$T/ctx" "$T/many" | pv-diff -j 1 --samples | grep -v '^meta' > "$T/jn"
test_cmp "$T/j1" "$T/jn" && pass || fail "2 MiB of context, --samples"

pv-diff --help > /dev/null
expect_status 0 "--help" rc $?
pv-diff -b 1 "$D/pair.in" > /dev/null 2>&1
expect_status 2 "bad bootstrap count" rc $?
pv-diff --bogus > /dev/null 2>&1
expect_status 2 "unknown option" rc $?
if [ -w /dev/full ]; then
	pv-diff "$D/pair.in" > /dev/full 2> /dev/null
	expect_status 2 "/dev/full" rc $?
fi
finish
