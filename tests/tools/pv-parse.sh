#!/bin/sh
# pv-parse: golden cases (tests/data/pv-parse), the same bytes from a file
# folded by threads and from a pipe folded by threads, and output errors.
. "${top_srcdir:-.}/tests/lib.sh"

run_cases pv-parse "$top_srcdir/tests/data/pv-parse"

# Benchmark output: the format told by the first line, or a directory, gives
# the records of the readers' own golden files (tests/data/bench).
B=$top_srcdir/tests/data/bench
pv-parse --role=baseline --subject=v6.18 "$B/sysbench-cpu-t2-r1.txt" >"$T/out" &&
	{ echo "pv-format	1"; cat "$B/sysbench-cpu.pv"; } >"$T/want" &&
	test_cmp "$T/want" "$T/out" && pass || fail "sysbench, detected"
pv-parse --role=baseline --subject=v6.18 <"$B/sysbench-cpu-t2-r1.txt" >"$T/out" &&
	test_cmp "$T/want" "$T/out" && pass || fail "sysbench, from a pipe"
pv-parse "$B/mm/work/log" >"$T/out" &&
	{ echo "pv-format	1"; cat "$B/mmtests.pv"; } >"$T/want" &&
	test_cmp "$T/want" "$T/out" && pass || fail "an MMTests tree"
# Bare benchmark files are runs of their own: the second file's runs are
# numbered on from the first's, so pv-stat does not average them as one.
pv-parse --role=baseline "$B/sysbench-cpu-t2-r1.txt" "$B/sysbench-cpu-t2-r1.txt" \
	"$B/stress-ng-futex-n2-r1.yaml" |
	awk -F'\t' '$1 == "sample" && ($5 == "events-per-second" ||
	    $5 == "bogo-ops-per-second-real-time") { print $2, $9 }' >"$T/out"
printf 'sysbench 1\nsysbench 2\nstress-ng 3\n' >"$T/want"
test_cmp "$T/want" "$T/out" && pass || fail "bare files are separate runs"
pv-parse --run=5 "$B/sysbench-cpu-t2-r1.txt" "$B/sysbench-cpu-t2-r1.txt" |
	awk -F'\t' '$1 == "sample" && $5 == "events-per-second" { print $9 }' >"$T/out"
printf '5\n6\n' >"$T/want"
test_cmp "$T/want" "$T/out" && pass || fail "bare files numbered from --run"
expect_status 2 "--format=perf on sysbench output" \
	pv-parse --format=perf "$B/sysbench-cpu-t2-r1.txt" 2>/dev/null >/dev/null
expect_status 2 "an unknown format" pv-parse --format=nope "$B/generic.txt" 2>/dev/null

# Standard input is cut into blocks at sample boundaries, folded by one
# thread a CPU; PV_TEST_PARSE_BLOCK=BYTES makes the blocks (and the parts
# of a file split between threads) that small, so that small inputs are
# cut as large ones are.  Pipe, file and file in parts give the same
# bytes, for every capture of the conformance suite (gzip ones included)
# and option; the golden cases, their messages as one pass gives them.
for input in "$top_srcdir"/tests/data/conformance/input/*; do
	stem=${input##*/}
	for opt in --pid --all; do
		pv-parse "$opt" "$input" >"$T/file.pv" 2>"$T/file.err" ||
			{ fail "$stem $opt: pv-parse exit $?"; continue; }
		for blk in 97 4096; do
			PV_TEST_PARSE_BLOCK=$blk pv-parse "$opt" <"$input" \
				>"$T/pipe.pv" 2>"$T/pipe.err" &&
				test_cmp "$T/file.pv" "$T/pipe.pv" && pass ||
				fail "$stem $opt: a pipe in blocks of $blk bytes"
			PV_TEST_PARSE_BLOCK=$blk pv-parse "$opt" "$input" \
				>"$T/parts.pv" 2>/dev/null &&
				test_cmp "$T/file.pv" "$T/parts.pv" && pass ||
				fail "$stem $opt: a file in parts of $blk bytes"
		done
	done
done
# all of them in one stream: several events, headers among the samples
for input in "$top_srcdir"/tests/data/conformance/input/*; do
	gzip -dcf "$input"
	echo
done >"$T/mix.txt"
pv-parse "$T/mix.txt" >"$T/file.pv" || fail "the captures in one file"
for blk in 4096 65536; do
	PV_TEST_PARSE_BLOCK=$blk pv-parse <"$T/mix.txt" >"$T/pipe.pv" &&
		test_cmp "$T/file.pv" "$T/pipe.pv" && pass ||
		fail "the captures in one stream, in blocks of $blk bytes"
	gzip -c "$T/mix.txt" >"$T/mix.txt.gz"
	PV_TEST_PARSE_BLOCK=$blk pv-parse "$T/mix.txt.gz" >"$T/gz.pv" &&
		test_cmp "$T/file.pv" "$T/gz.pv" && pass ||
		fail "the captures in one gzip file, in blocks of $blk bytes"
	PV_TEST_PARSE_BLOCK=$blk pv-parse "$T/mix.txt" >"$T/parts.pv" &&
		test_cmp "$T/file.pv" "$T/parts.pv" && pass ||
		fail "the captures in one file, in parts of $blk bytes"
done
D=$top_srcdir/tests/data/pv-parse
for input in "$D"/*.in; do
	case_=${input##*/}
	case_=${case_%.in}
	args=
	[ -f "$D/$case_.args" ] && args=$(cat "$D/$case_.args")
	want=0
	[ -f "$D/$case_.status" ] && want=$(cat "$D/$case_.status")
	: >"$T/want.out"
	[ -f "$D/$case_.out" ] && cp "$D/$case_.out" "$T/want.out"
	: >"$T/want.err"
	[ -f "$D/$case_.err" ] &&
		sed "s/^pv-parse:$case_\.in:/pv-parse:(standard input):/; s/^pv-parse: $case_\.in:/pv-parse: (standard input):/" \
			"$D/$case_.err" >"$T/want.err"
	for blk in 1 64 4096 ""; do
		# shellcheck disable=SC2086
		PV_TEST_PARSE_BLOCK=$blk pv-parse $args <"$input" >"$T/out" 2>"$T/err"
		got=$?
		[ "$got" -eq "$want" ] && test_cmp "$T/want.out" "$T/out" &&
			test_cmp "$T/want.err" "$T/err" && pass ||
			fail "$case_ from a pipe in blocks of '$blk' bytes (exit $got)"
	done
done

# The errors that end a stream in the middle, at the line one pass names:
# a line past the limit (the line after those read), truncated gzip data
# (the last line read whole); the reading thread counts no lines.
gzip -dc "$top_srcdir/tests/data/conformance/input/example-perf-stacks.txt.gz" |
	head -3000 >"$T/head.txt"
{ cat "$T/head.txt"; awk 'BEGIN { while (i++ < 5000) printf "x"; print "" }'
	cat "$T/head.txt"; } >"$T/long.txt"
echo "pv-parse:(standard input):3001: a line of more than 4000 bytes (the limit; PV_MAX_LINE=BYTES sets another)" >"$T/want"
gzip -c "$T/head.txt" "$T/head.txt" "$T/head.txt" >"$T/three.gz"
head -c $(($(wc -c <"$T/three.gz") / 2)) "$T/three.gz" >"$T/trunc.gz"
echo "pv-parse:(standard input):$(gzip -dc <"$T/trunc.gz" 2>/dev/null | wc -l): truncated gzip data" >"$T/want.gz"
for blk in 97 4096 ""; do
	PV_TEST_PARSE_BLOCK=$blk PV_MAX_LINE=4000 pv-parse <"$T/long.txt" \
		>/dev/null 2>"$T/err"
	got=$?
	grep -v ': warning: ' "$T/err" >"$T/err.last"
	[ "$got" -eq 2 ] && test_cmp "$T/want" "$T/err.last" && pass ||
		fail "a line too long from a pipe in blocks of '$blk' bytes"
	PV_TEST_PARSE_BLOCK=$blk pv-parse <"$T/trunc.gz" >/dev/null 2>"$T/err"
	got=$?
	grep -v ': warning: ' "$T/err" >"$T/err.last"
	[ "$got" -eq 2 ] && test_cmp "$T/want.gz" "$T/err.last" && pass ||
		fail "truncated gzip data from a pipe in blocks of '$blk' bytes"
done

# A capture large enough to be split between threads (over 32 MiB) gives
# the same bytes as the same capture read from a pipe, in one piece.
big=$T/big.txt
i=0
while [ "$i" -lt 16 ]; do
	gzip -dc "$top_srcdir/tests/data/conformance/input/example-perf-stacks.txt.gz"
	i=$((i + 1))
done >"$big"
pv-parse "$big" >"$T/threads.pv" || fail "pv-parse on a file"
pv-parse <"$big" >"$T/pipe.pv" || fail "pv-parse on standard input"
test_cmp "$T/pipe.pv" "$T/threads.pv" && pass ||
	fail "threads and standard input differ"
# a real pipe (its buffer made larger where the system allows)
cat "$big" | pv-parse >"$T/fifo.pv" || fail "pv-parse on a pipe"
test_cmp "$T/fifo.pv" "$T/threads.pv" && pass || fail "threads and pipe differ"
# and the warnings of a later part carry the file's line numbers
printf 'x 1 1.0: 1 cpu-clock:\n\tno frame here\n' >>"$big"
lines=$(wc -l <"$big")
pv-parse "$big" 2>"$T/err" >/dev/null
echo "pv-parse:$big:$lines: warning: weird stack line: no frame here" >"$T/want"
test_cmp "$T/want" "$T/err" && pass || fail "line number of a warning"

# gzip data whose first read is larger than the inflate buffer (256 KiB):
# the same stacks as the plain file
awk 'BEGIN { srand(7); for (i = 0; i < 20000; i++) {
	printf "app %d %d.0: 1 cpu-clock:\n", i, i
	for (k = 0; k < 3; k++)
		printf "\t%x f%08x%08x+0x1 (/opt/app)\n", i, rand() * 2^31, rand() * 2^31
	print "" } }' >"$T/random.txt"
gzip -1 -c "$T/random.txt" >"$T/random.txt.gz"
[ "$(wc -c <"$T/random.txt.gz")" -gt 300000 ] || fail "random.txt.gz too small"
pv-parse "$T/random.txt" >"$T/plain.pv" &&
	pv-parse "$T/random.txt.gz" >"$T/gz.pv" &&
	test_cmp "$T/plain.pv" "$T/gz.pv" && pass || fail "a large gzip input"

# output errors: a full disk is trouble, a closed pipe is not
if [ -w /dev/full ]; then
	expect_status 2 "write to /dev/full" \
		pv-parse "$top_srcdir/tests/data/pv-parse/events.in" >/dev/full 2>/dev/null
fi
(pv-parse "$big"; echo $? >"$T/status") | head -1 >/dev/null
status=$(cat "$T/status")
[ "$status" = 141 ] || [ "$status" = 0 ] && pass ||
	fail "a closed pipe gives exit status $status"
expect_status 2 "a missing file" pv-parse "$T/no-such-file" 2>/dev/null
expect_status 2 "a directory" pv-parse "$T" 2>/dev/null
finish
