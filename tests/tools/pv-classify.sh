#!/bin/sh
# pv-classify and pv-render --format=text|junit: goldens of every class,
# the --fail-on gate, the corpus examples end to end, change points of a
# series, bad input.
. "${top_srcdir:-.}/tests/lib.sh"
D=$top_srcdir/tests/data/pv-classify
EX=$top_srcdir/examples
rc() { return "$1"; }

pv-diff "$D/mix.in" > "$T/cmp"
pv-classify "$T/cmp" > "$T/v" 2> "$T/err"
expect_status 1 "mix: red found" rc $?
grep -E '^(verdict|systematic|detect)	' "$T/v" > "$T/out"
expect_golden "$D/mix.out" "$T/out" "mix verdicts"
test_cmp /dev/null "$T/err" && pass || fail "mix: stderr not empty"
# the input passes through, in order, before the verdicts
grep -vE '^(verdict|systematic|detect)	' "$T/v" > "$T/a"
test_cmp "$T/cmp" "$T/a" && pass || fail "mix: input passed on"
pv-render --format=text "$T/v" > "$T/out"
expect_golden "$D/mix.text" "$T/out" "mix text"
# pv-diff's output of samples and stacks: the profile comparisons (diff
# sections, total, dstack, func records) pass on, in order
pv-classify "$top_srcdir/tests/data/pv-diff/both.out" > "$T/both" 2> "$T/err"
expect_status 1 "both: a regression found" rc $?
grep -vE '^(verdict|systematic|detect)	' "$T/both" > "$T/a"
test_cmp "$top_srcdir/tests/data/pv-diff/both.out" "$T/a" && pass ||
	fail "both: profile records passed on"
pv-render --format=junit "$T/v" > "$T/out"
expect_golden "$D/mix.junit" "$T/out" "mix junit"
# valid against Jenkins' schema (tests/junit-10.xsd), read by expat
if command -v xmllint > /dev/null 2>&1; then
	xmllint --noout --schema "$top_srcdir/tests/junit-10.xsd" "$T/out" \
		2>"$T/xerr"
	expect_status 0 "junit is valid against junit-10.xsd" rc $?
fi
expat() {
	python3 -c 'import sys, xml.parsers.expat
xml.parsers.expat.ParserCreate().Parse(open(sys.argv[1], "rb").read(), True)' "$1"
}
if command -v python3 > /dev/null 2>&1; then
	expat "$T/out"
	expect_status 0 "junit: expat reads it" rc $?
fi
# names with bytes that are not UTF-8 and control characters: U+FFFD,
# never a character reference; one suite a pair of versions, whatever the
# experiments (two benchmarks of one night) and the levels
{
	awk -F'\t' 'BEGIN { OFS = "\t" } $1 == "section" { $4 = "mixa" }
		$1 != "sample" || $3 != "reg10"' "$D/mix.in"
	awk -F'\t' 'BEGIN { OFS = "\t" } $1 == "section" { $4 = "mixb" }
		$1 == "sample" && $3 != "reg10" { next }
		$1 == "sample" { $3 = "r\001e\377g<&>" } { print }' "$D/mix.in"
} >"$T/hostile.in"
pv-diff "$T/hostile.in" 2>/dev/null | pv-classify 2>/dev/null |
	pv-render --format=junit > "$T/hostile.xml"
if command -v python3 > /dev/null 2>&1; then
	expat "$T/hostile.xml"
	expect_status 0 "junit of hostile names: expat reads it" rc $?
fi
if command -v xmllint > /dev/null 2>&1; then
	xmllint --noout --schema "$top_srcdir/tests/junit-10.xsd" \
		"$T/hostile.xml" 2>"$T/xerr"
	expect_status 0 "junit of hostile names: valid" rc $?
fi
grep -c '&#' "$T/hostile.xml" >"$T/refs"
echo 0 >"$T/zero"
test_cmp "$T/zero" "$T/refs" && pass || fail "junit: character references"
grep -o 'classname="suite\.r[^"]*&lt;[^"]*"' "$T/hostile.xml" | sort -u >"$T/names"
printf 'classname="suite.r\357\277\275e\357\277\275g&lt;&amp;&gt;"\n' \
	>"$T/names.want"
test_cmp "$T/names.want" "$T/names" && pass || fail "junit: hostile names"
grep -c '<testsuite name=' "$T/hostile.xml" >"$T/nsuites"
echo 1 >"$T/one"
test_cmp "$T/one" "$T/nsuites" && pass || fail "junit: one suite a pair"
# nothing to report is no pass
printf 'pv-format\t1\n' | pv-render --format=junit > "$T/empty.xml" 2>"$T/err"
expect_status 2 "junit of nothing" rc $?
printf 'pv-render: no verdict records to render as junit (give it the output of pv-classify)\n' >"$T/want"
test_cmp "$T/want" "$T/err" && pass || fail "junit of nothing: message"
# verdicts of an earlier pv-classify are computed again, not doubled
pv-classify "$T/v" > "$T/b"
test_cmp "$T/v" "$T/b" && pass || fail "idempotent"

# the gate
pv-classify -f red "$T/cmp" > /dev/null
expect_status 1 "--fail-on=red" rc $?
pv-classify -f yellow -d 0.2 "$T/cmp" > /dev/null
expect_status 0 "--fail-on=yellow, 20% threshold" rc $?
pv-classify --fail-on=any -d 0.2 "$T/cmp" > /dev/null
expect_status 0 "--fail-on=any, 20% threshold" rc $?
grep -v 'reg10\|	lat	' "$T/cmp" > "$T/cmp2"
pv-classify "$T/cmp2" > /dev/null
expect_status 0 "only a yellow: red passes" rc $?
pv-classify --fail-on=yellow "$T/cmp2" > /dev/null
expect_status 1 "only a yellow: yellow fails" rc $?
pv-classify --fail-on=pink "$T/cmp" > /dev/null 2>&1
expect_status 2 "bad --fail-on" rc $?
# a metric's own threshold: every key here is of metric m
pv-classify -f yellow -d m=0.2 "$T/cmp" > /dev/null
expect_status 0 "--delta=m=0.2: as --delta=0.2 for m" rc $?
pv-classify -f yellow -d other=0.2 "$T/cmp" > /dev/null
expect_status 1 "--delta=other=0.2: m keeps 2%" rc $?
pv-classify -d =0.2 "$T/cmp" > /dev/null 2>&1
expect_status 2 "--delta without a metric before =" rc $?
# No change inside +-delta at most: a wider band is refused
pv-classify -e 0.05 "$T/cmp" > /dev/null 2> "$T/err"
expect_status 2 "-e wider than -d" rc $?
sed 1q "$T/err" > "$T/out"
expect_golden "$D/band.err" "$T/out" "-e wider than -d: the message"
pv-classify -e 0.001 "$T/cmp" | grep -c '	no-change	' > "$T/out"
printf '0\n' | test_cmp - "$T/out" && pass ||
	fail "-e 0.001: no interval is that narrow"

# the corpus examples, end to end
for ex in mmtests-aa mmtests-planted; do
	sh "$EX/classify.sh" "$EX/$ex.pv" > "$T/out"
	status=$?
	expect_golden "$D/$ex.text" "$T/out" "$ex"
	case $ex in
	mmtests-aa) expect_status 0 "$ex: nothing red" rc $status ;;
	*) expect_status 1 "$ex: the planted regression is red" rc $status ;;
	esac
done

# change points (pv-series): a change for the worse at the newest version
# fails unless known; the levels changed between the same versions are
# grouped; the text summary ranks them, with the ranges to bisect
S=$top_srcdir/tests/data/pv-series
pv-series "$S/newest.in" > "$T/series"
pv-classify "$T/series" > "$T/v" 2> "$T/err"
expect_status 1 "series: a new change for the worse" rc $?
test_cmp /dev/null "$T/err" && pass || fail "series: stderr not empty"
grep -E '^cpgroup	' "$T/v" > "$T/out"
expect_golden "$D/newest.cpgroup" "$T/out" "series: grouped levels"
grep -vE '^cpgroup	' "$T/v" > "$T/a"
test_cmp "$T/series" "$T/a" && pass || fail "series: input passed on"
pv-render --format=text "$T/v" > "$T/out"
expect_golden "$D/newest.text" "$T/out" "series: text"
pv-classify "$T/v" > "$T/b"
test_cmp "$T/v" "$T/b" && pass || fail "series: idempotent"
printf 'v6.11 v6.12\n' > "$T/known"
pv-series --known="$T/known" "$S/newest.in" | pv-classify > "$T/v"
expect_status 0 "series: known" rc $?
pv-series "$S/series.in" | pv-classify > "$T/v"
expect_status 0 "series: changes before the newest version" rc $?
pv-render --format=text "$T/v" > "$T/out"
expect_golden "$D/series.text" "$T/out" "series: text, outliers"
printf 'changepoint\tx\n' | pv-classify > /dev/null 2>&1
expect_status 2 "series: bad changepoint" rc $?
# an outlier fails the job as a change point does: for the worse, at the
# newest version, not known (pv-series's records of series.in, the
# outlier moved to the newest version, made better, known)
for c in worse:1 better:0 known:0 older:0; do
	pv-classify "$D/outlier-${c%:*}.in" > "$T/v" 2> "$T/err"
	expect_status "${c#*:}" "series: outlier ${c%:*}" rc $?
	test_cmp /dev/null "$T/err" && pass || fail "outlier ${c%:*}: stderr"
	pv-render --format=text "$T/v" > "$T/out"
	expect_golden "$D/outlier-${c%:*}.text" "$T/out" \
		"series: outlier ${c%:*}: text"
done
printf 'outlier\tx\n' | pv-classify > /dev/null 2>&1
expect_status 2 "series: bad outlier" rc $?
# a series searched without a change point (a quiet night) found nothing:
# exit 0; one version alone compared nothing: exit 2
grep -E '^(pv-format|section|env)	|	getppid1	' "$S/series.in" > "$T/quiet"
pv-series "$T/quiet" | pv-classify > "$T/v" 2> "$T/err"
expect_status 0 "series: no change point" rc $?
test_cmp /dev/null "$T/err" && pass || fail "series: no change point: stderr"
grep -c '^changepoint	' "$T/v" > "$T/out"
echo 0 > "$T/want"
test_cmp "$T/want" "$T/out" && pass || fail "series: no change point expected"
pv-render --format=text "$T/v" > "$T/out"
expect_status 0 "series: no change point: text" rc $?
printf '%s\n' "1 key searched along 12 versions" \
	"0 change points (0 for the worse, 0 at the newest version and not known), 1 outlier, 0 trends" \
	> "$T/want"
head -2 "$T/out" > "$T/head"
test_cmp "$T/want" "$T/head" && pass || fail "series: no change point: text"
pv-render --format=json "$T/v" > /dev/null
expect_status 0 "series: no change point: json" rc $?
awk '/^section/ { n++ } n <= 1' "$T/quiet" | pv-series |
	pv-classify > /dev/null 2>&1
expect_status 2 "series: one version compares nothing" rc $?
printf 'scanned\t1\n' | pv-classify > /dev/null 2>&1
expect_status 2 "series: bad scanned" rc $?
printf 'cpgroup\tx\n' | pv-render --format=text > /dev/null 2>&1
expect_status 2 "render: bad cpgroup" rc $?

# one run, no spread, keys on one side only: explained, never a verdict
pv-diff "$top_srcdir/tests/data/pv-diff/pair.in" | pv-classify |
	grep -E '^verdict	' > "$T/out"
expect_golden "$D/pair.out" "$T/out" "degenerate keys"

# bad input: FILE:LINE, exit 2
printf 'cmp\ta\tb\n' > "$T/bad1"
printf 'cmp\tv1\tv2\te\ts\tt\to\tm\tu\thigher\t-\t5\t5\tx\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t0\t0\t-\n' > "$T/bad2"
printf 'cmp\tv1\tv2\te\ts\tt\to\tm\tu\tsideways\t-\t5\t5\t0\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t0\t0\t-\n' > "$T/bad3"
printf 'cmp\tv1\tv2\te\ts\tt\to\tm\tu\thigher\t-\t5\t5\t0\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t0\t0\tweird\n' > "$T/bad4"
: > "$T/want"
for b in bad1 bad2 bad3 bad4; do
	(cd "$T" && pv-classify $b) > /dev/null 2>> "$T/errs"
	expect_status 2 "$b" rc $?
done
expect_golden "$D/bad.err" "$T/errs" "bad cmp records"
printf 'verdict\tx\n' | pv-render --format=text > /dev/null 2>&1
expect_status 2 "render: bad verdict" rc $?

# nothing to classify: trouble, not a pass (CI reads 0 as no regression)
printf 'pv-format\t1\n' | pv-classify > /dev/null 2> "$T/err"
expect_status 2 "empty" rc $?
printf 'pv-classify: no cmp records to classify, nor changepoint records: nothing was compared (give pv-classify the output of pv-diff on samples, or of pv-series)\n' >"$T/want"
test_cmp "$T/want" "$T/err" && pass || fail "empty: message"

# a profile comparison in the stream (pv-diff's diff section: total,
# func and dstack records) is passed on unchanged, for pv-render to join
pv-diff "$top_srcdir/tests/data/pv-diff/roles.pv" > "$T/prof" 2> /dev/null
cat "$T/cmp" "$T/prof" | pv-classify > "$T/both" 2> /dev/null
grep -E '^(total|func|dstack)	' "$T/prof" > "$T/want"
grep -E '^(total|func|dstack)	' "$T/both" > "$T/got"
if [ -s "$T/want" ] && test_cmp "$T/want" "$T/got"; then
	pass
else
	fail "profile records not passed on"
fi

pv-classify --help > /dev/null
expect_status 0 "--help" rc $?
pv-classify -q 2 "$T/cmp" > /dev/null 2>&1
expect_status 2 "bad rate" rc $?
if [ -w /dev/full ]; then
	pv-classify "$T/cmp" > /dev/full 2> /dev/null
	expect_status 2 "/dev/full" rc $?
	pv-render --format=junit "$T/v" > /dev/full 2> /dev/null
	expect_status 2 "render /dev/full" rc $?
fi
finish
