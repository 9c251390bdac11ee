#!/bin/sh
# tests/bench/verdict-sim (the simulator of tests/bench/verdict.sh) on a
# few small nights: every table it prints is the same as the golden's, and
# it exits 1 where an acceptance line is missed (the quantised model's
# Welch line, tests/bench/futex-bound.md).  It reads every verdict's
# reason through the classifier, so a reason it cannot have is a crash
# here, not only in the benchmark.
. "${top_srcdir:-.}/tests/lib.sh"

sim=$top_builddir/tests/bench/verdict-sim
D=$top_srcdir/tests/data/verdict-sim
cd "$T" || exit 99

"$sim" -N 25 -n 3,10 ln5 quant >models.out
st=$?
[ $st -eq 1 ] && pass || fail "verdict-sim ln5 quant: exit status $st"
expect_golden "$D/models.out" models.out "verdict-sim ln5 quant"
"$sim" -N 25 runs >runs.out
st=$?
[ $st -eq 0 ] && pass || fail "verdict-sim runs: exit status $st"
expect_golden "$D/runs.out" runs.out "verdict-sim runs"
finish
