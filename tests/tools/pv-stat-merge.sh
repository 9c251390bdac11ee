#!/bin/sh
# pv-stat-merge: pv-stat -m on several FILEs reads them side by side
# (issue 19): the outputs of pv-stat -S on run shards, a small night of
# tests/bench/gen-fleet.awk cut by run, give the bytes that the same
# outputs concatenated on standard input give, and the runval, stat and
# statroll records of pv-stat -S on the whole; a file that is not one
# output of pv-stat -S in key order is an error at its line.
. "${top_srcdir:-.}/tests/lib.sh"

gen=$top_srcdir/tests/bench/gen-fleet.awk
# rc N: a command with status N, for expect_status after a redirection
rc() { return "$1"; }

# run_split FILE N OUT: run R of every key to shard (R - 1) mod N
run_split() {
	awk -F '\t' -v n="$2" -v out="$3" '
	$1 != "sample" { for (i = 0; i < n; i++) print > (out "." i); next }
	{ print > (out "." (($9 - 1) % n)) }' "$1"
}

derived() {
	grep -E '^(runval|stat|statroll)	'
}

cd "$T" || exit 99
awk -v keys=200 -f "$gen" >night.pv || fail "gen-fleet.awk"
pv-stat -S night.pv | derived >whole.S
[ -s whole.S ] && pass || fail "pv-stat -S on the whole gives nothing"
run_split night.pv 3 rs
for i in 0 1 2; do
	pv-stat -S rs.$i >rs.$i.S || fail "pv-stat -S rs.$i"
done

# 2 and 3 files: the bytes of the concatenated form, the whole's records
for files in "rs.0.S rs.1.S" "rs.0.S rs.1.S rs.2.S" "rs.2.S rs.0.S rs.1.S"; do
	what="-m -S $files"
	# shellcheck disable=SC2086
	pv-stat -m -S $files >side.out 2>side.err
	expect_status 0 "$what" rc $?
	test_cmp /dev/null side.err && pass || fail "$what: stderr"
	# shellcheck disable=SC2086
	cat $files | pv-stat -m -S >cat.out
	test_cmp cat.out side.out && pass ||
		fail "$what: not the bytes of the files concatenated"
	# shellcheck disable=SC2086
	pv-stat -m $files >side.out
	# shellcheck disable=SC2086
	cat $files | pv-stat -m >cat.out
	test_cmp cat.out side.out && pass ||
		fail "-m $files: not the bytes of the files concatenated"
done
pv-stat -m -S rs.0.S rs.1.S rs.2.S | derived >side.S
test_cmp whole.S side.S && pass || fail "3 files: not the whole's records"
# more sets than a batch (8192): 5,000 keys of two sides, a batch cut
# inside a test
awk -v keys=5000 -f "$gen" >big.pv || fail "gen-fleet.awk, 5000 keys"
pv-stat -S big.pv | derived >big.S
run_split big.pv 2 bs
pv-stat -S bs.0 >bs.0.S
pv-stat -S bs.1 >bs.1.S
pv-stat -m -S bs.0.S bs.1.S >side.out
cat bs.0.S bs.1.S | pv-stat -m -S >cat.out
test_cmp cat.out side.out && pass || fail "5,000 keys: not the bytes of cat"
derived <side.out >side.S
test_cmp big.S side.S && pass || fail "5,000 keys: not the whole's records"

# merged in steps: a merge's output is again one FILE
pv-stat -m -S rs.0.S rs.1.S >rs.01.S
pv-stat -m -S rs.01.S rs.2.S | derived >side.S
test_cmp whole.S side.S && pass || fail "merged in steps"

# keys missing from one file (suite3, and level 5 of every test, have no
# runs in the third), a file with no runval records, standard input
awk -F '\t' '$1 != "sample" || ($2 != "suite3" && $8 != 5)' rs.2 >rs.2m
awk -F '\t' '$1 != "sample" || $9 % 3 || ($2 != "suite3" && $8 != 5)' \
	night.pv | pv-stat -S | derived >part.S
pv-stat -S rs.2m >rs.2m.S
: >empty
pv-stat -m -S rs.0.S empty rs.2m.S - <rs.1.S >side.out
expect_status 0 "keys missing from one file" rc $?
cat rs.0.S rs.2m.S rs.1.S | pv-stat -m -S >cat.out
test_cmp cat.out side.out && pass ||
	fail "keys missing from one file: not the bytes concatenated"
derived <side.out >side.S
test_cmp part.S side.S && pass ||
	fail "keys missing from one file: not the records of their runs"

# keys with escaped fields (a backslash, a TAB in a name), compared field
# by field: suite1 becomes 'su\ite1', the metric 'ops' of suite2
# 'o<TAB>ps'
sed -e 's/^sample	suite1	/sample	su\\\\ite1	/' \
	-e 's/^\(sample	suite2	[^	]*	[^	]*\)	ops	/\1	o\\tps	/' \
	night.pv >esc.pv
grep 'su\\\\ite1' esc.pv >esc.1 && grep 'o\\tps' esc.pv >esc.2 &&
	pass || fail "esc.pv has no escaped names"
pv-stat -S esc.pv | derived >esc.S
run_split esc.pv 2 es
pv-stat -S es.0 >es.0.S
pv-stat -S es.1 >es.1.S
pv-stat -m -S es.0.S es.1.S | derived >side.S
test_cmp esc.S side.S && pass || fail "escaped keys side by side"

# --shard: the tests of a key shard alone, as from the concatenation
pv-stat -m -S --shard=1/3 rs.2m.S rs.0.S >side.out
cat rs.2m.S rs.0.S | pv-stat -m -S --shard=1/3 >cat.out
test_cmp cat.out side.out && pass || fail "--shard=1/3 side by side"

# a key's runs split in two places of one file: out of key order
awk '/^runval/ && !done && n < 5 { n++; held = held $0 "\n"; next }
	{ print }
	n == 5 && !done && /^runval/ { printf "%s", held; done = 1 }' \
	rs.1.S >swapped.S
cmp -s rs.1.S swapped.S && fail "swapped.S is rs.1.S"
pv-stat -m -S rs.0.S swapped.S >/dev/null 2>err
expect_status 2 "a file out of key order" rc $?
cat >want <<'EOF'
pv-stat:swapped.S:6: runval records out of key order: with several FILEs, -m reads each in the order pv-stat -S writes (give others concatenated, on standard input)
EOF
test_cmp want err && pass || fail "a file out of key order: message"
# which the concatenated form takes, as before
cat rs.0.S swapped.S | pv-stat -m -S | derived >cat.S
pv-stat -m -S rs.0.S rs.1.S | derived >side.S
test_cmp side.S cat.S && pass || fail "swapped.S on standard input"

# two outputs concatenated in one FILE: an error at the second's start
cat rs.0.S rs.1.S >both.S
pv-stat -m -S both.S rs.2.S >/dev/null 2>err
expect_status 2 "two outputs in one of several FILEs" rc $?
printf "pv-stat:both.S:%d: a 'pv-format' record after runval records: with several FILEs, -m takes each as one output of pv-stat -S (give others concatenated, on standard input)\n" \
	$(($(wc -l <rs.0.S) + 1)) >want
test_cmp want err && pass || fail "two outputs in one FILE: message"

# a folded line after the runvals: named so, not by the record before
{ cat rs.0.S; printf 'main;foo 3\n'; } >folded.S
pv-stat -m -S folded.S rs.2.S >/dev/null 2>err
expect_status 2 "a folded line in one of several FILEs" rc $?
printf "pv-stat:folded.S:%d: a 'folded stack' record after runval records: with several FILEs, -m takes each as one output of pv-stat -S (give others concatenated, on standard input)\n" \
	$(($(wc -l <rs.0.S) + 1)) >want
test_cmp want err && pass || fail "a folded line in one FILE: message"

# a run in two files is refused, as in one
pv-stat -m -S rs.0.S rs.0.S >/dev/null 2>err
expect_status 2 "a run in two files" rc $?
cat >want <<'EOF'
pv-stat:rs.0.S:4: run 1 of this key is given twice (a run cut across inputs?)
EOF
test_cmp want err && pass || fail "a run in two files: message"

finish
