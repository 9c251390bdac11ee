#!/bin/sh
# examples/nightly.sh on two nights: the first stores and finds no
# baseline; the second, a later build of one distribution kernel
# (PV_RELEASE 6.1.0-26-amd64, then 6.1.0-27-amd64), gets the first as its
# baseline from pv-store's rule, without --baseline, and goes down the
# whole pipeline: pair, pv-stat, pv-diff, pv-classify, the text summary
# and the HTML profile report.  Quick mode (PV_QUICK=1: one level, three
# runs, the fewest pv-classify decides on) with runs of 1 s.
# Needs stress-ng and sysbench, and sampling; skips without them.
. "${top_srcdir:-.}/tests/lib.sh"

for t in stress-ng sysbench; do
	command -v $t >/dev/null 2>&1 || skip_all "$t not installed"
done
cd "$T" || exit 99
GIT_CEILING_DIRECTORIES=$(dirname "$T")
PV_QUICK=1 PV_SECONDS=1
export GIT_CEILING_DIRECTORIES PV_QUICK PV_SECONDS
unset PV_STORE PV_LEVELS PV_REPEAT
DAY=$(date -u +%Y-%m-%d)

PV_RELEASE=6.1.0-26-amd64 sh "$top_srcdir/examples/nightly.sh" "$T/n" \
	>night1.out 2>night1.err
st=$?
if [ $st -eq 2 ] && grep -q 'sampling refused' "n/$DAY/nightly.log"; then
	skip_all "sampling refused here"
fi
if [ $st -eq 0 ]; then pass; else
	fail "first night: status $st"; cat night1.err "n/$DAY/nightly.log" >&2
fi
tail -n 1 "n/$DAY/nightly.log" >night1.last
echo 'no baseline for 6.1.0-26-amd64 in the store yet: tonight'"'"'s data is the first' \
	>night1.want
if test_cmp night1.want night1.last; then pass; else fail "first night log"; fi

PV_RELEASE=6.1.0-27-amd64 sh "$top_srcdir/examples/nightly.sh" "$T/n" \
	>night2.out 2>night2.err
st=$?
# 0 or 1 (a regression found): the pipeline ran; 2 is trouble
if [ $st -le 1 ]; then pass; else
	fail "second night: status $st"; cat night2.err "n/$DAY/nightly.log" >&2
fi
if grep -qx 'baseline of 6.1.0-27-amd64: 6.1.0-26-amd64' \
	"n/$DAY/nightly.log"; then pass
else fail "second night: no baseline by the rule"; fi
awk -F'\t' '$1 == "section" { print $2, $3 }' "n/$DAY/pair.pv" | sort -u \
	>pair.got
printf 'baseline 6.1.0-26-amd64\ntarget 6.1.0-27-amd64\n' >pair.want
if test_cmp pair.want pair.got; then pass; else fail "pair sections"; fi
# a verdict for each key of the three benchmarks, named by both versions
awk -F'\t' '$1 == "verdict" { print $2, $3, $6 }' "n/$DAY/verdicts.pv" |
	sort -u >verdicts.got
printf '6.1.0-26-amd64 6.1.0-27-amd64 %s\n' cpu futex switch >verdicts.want
if test_cmp verdicts.want verdicts.got; then pass; else fail "verdicts"; fi
# quick mode runs as many times as pv-classify needs to decide
grep -c 'too few runs' "n/$DAY/verdicts.pv" >fewruns.got
echo 0 >fewruns.want
if test_cmp fewruns.want fewruns.got; then pass; else
	fail "quick mode: too few runs to decide"; fi
head -n 1 night2.out >night2.first
printf 'pv nightly %s, kernel 6.1.0-27-amd64: %s\n' "$DAY" "$T/n/$DAY" \
	>night2.want
if test_cmp night2.want night2.first; then pass; else fail "summary head"; fi
if grep -q '^[0-9]* comparisons: ' night2.out; then pass
else fail "no summary of the comparisons"; fi
if command -v xmllint >/dev/null 2>&1; then
	if xmllint --noout --schema "$top_srcdir/tests/junit-10.xsd" \
		"n/$DAY/junit.xml" 2>/dev/null; then pass
	else fail "the night's JUnit report is not valid"; fi
fi
if python3 -c 'import json, sys; json.load(open(sys.argv[1]))' \
	"n/$DAY/verdicts.json" 2>/dev/null; then pass
else fail "the night's JSON document"; fi
if grep -q '<title>' "n/$DAY/profile.html"; then pass
else fail "no profile report"; fi
finish
