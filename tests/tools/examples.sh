#!/bin/sh
# The examples run, and give what they should.
. "${top_srcdir:-.}/tests/lib.sh"

cd "$T" || exit 99
"$top_srcdir/examples/profile.sh" out.folded >stdout 2>stderr ||
	fail "examples/profile.sh exit status"
pv-parse "$top_srcdir/examples/pv-parse.perf.txt.gz" |
	pv-render --format=folded >want
test_cmp want out.folded && pass || fail "profile.sh output"
[ -s stderr ] && fail "profile.sh wrote to stderr" || pass
"$top_srcdir/examples/report.sh" report.html >stdout 2>stderr ||
	fail "examples/report.sh exit status"
grep -q '<title>' report.html && pass || fail "report.sh wrote no report"
grep -q '^12 comparisons: 6 regressions' stdout && pass ||
	fail "report.sh printed no verdicts"
[ -s stderr ] && fail "report.sh wrote to stderr" || pass
"$top_srcdir/examples/series.sh" >stdout 2>stderr ||
	fail "examples/series.sh exit status"
expect_golden "$top_srcdir/tests/data/pv-series/example.out" stdout \
	"series.sh output"
[ -s stderr ] && fail "series.sh wrote to stderr" || pass
# the change point, and the version of sysbench's bimodal p95 latency
# whose five runs all fell in the fast mode, an outlier
grep -c '<li data-mark=' series.html > marks 2>&1
echo 2 > marks.want
test_cmp marks.want marks && pass || fail "series.sh: the report's marks"

# the gates flag and never veto: an unstable but certain regression, and
# drift (a false regression of sides run apart left Uncertain; a real drop
# interleaved decided, flagged)
rc() { return "$1"; }
for ex in unstable drift; do
	sh "$top_srcdir/examples/classify.sh" "$top_srcdir/examples/$ex.pv" \
		>out 2>stderr
	expect_status 1 "classify.sh $ex.pv: red found" rc $?
	expect_golden "$top_srcdir/tests/data/examples/$ex.text" out \
		"classify.sh $ex.pv"
	[ -s stderr ] && fail "classify.sh $ex.pv wrote to stderr" || pass
done
# drift.pv is what drift-from-pool.sh makes of the real pool
(printf 'pv-format\t1\n' && sh "$top_srcdir/examples/drift-from-pool.sh" \
	"$top_srcdir/tests/bench/data/pool-sysbench-cpu.pv") >drift.pv
test_cmp "$top_srcdir/examples/drift.pv" drift.pv && pass ||
	fail "drift-from-pool.sh output"

# the fleet's night: make -j and GNU parallel give the same night and
# report, and the night's decisions are those of the whole night at once
fleet=$top_srcdir/examples/fleet
# (a make of its own, not a part of make check's: no jobserver of that)
MAKEFLAGS= MFLAGS= MAKELEVEL= make -s -j2 -f "$fleet/Makefile" OUT="$T/mk" \
	>stdout 2>stderr ||
	fail "examples/fleet/Makefile exit status"
[ -s stderr ] && fail "examples/fleet/Makefile wrote to stderr" || pass
gzip -dc "$fleet"/results/*.pv.gz | pv-stat | pv-diff | pv-classify \
	>whole.pv
[ $? -le 1 ] || fail "the fleet's whole night"
grep -E '^(verdict|systematic|detect)	' whole.pv >whole.v
grep -E '^(verdict|systematic|detect)	' "$T/mk/night.pv" >mk.v
[ -s whole.v ] && test_cmp whole.v mk.v && pass ||
	fail "examples/fleet: the shards' decisions are not the whole's"
test -s "$T/mk/report.html" && pass || fail "examples/fleet: no report"
if command -v parallel >/dev/null 2>&1; then
	"$fleet/fleet-parallel.sh" -j 2 "$fleet/results" "$T/par" \
		>stdout 2>stderr || fail "fleet-parallel.sh exit status"
	[ -s stderr ] && fail "fleet-parallel.sh wrote to stderr" || pass
	test_cmp "$T/mk/night.pv" "$T/par/night.pv" && pass ||
		fail "fleet-parallel.sh: another night than make's"
	test_cmp "$T/mk/report.html" "$T/par/report.html" && pass ||
		fail "fleet-parallel.sh: another report than make's"
else
	echo "# skipped fleet-parallel.sh: GNU parallel is not installed"
fi
finish
