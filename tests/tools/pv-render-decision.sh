#!/bin/sh
# pv-render --format=html on pv-classify's output: the decision report of
# the bundled real night (examples/night/README) joined with the profile
# comparison of each experiment and level, against golden files: the first
# screen's ranked regressions with their top suspects, the counts, the
# systematic section, the links to the runs' files under --artifacts, no
# http(s) URL, the same bytes twice.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"

D=$top_srcdir/tests/data/html
night=$top_srcdir/examples/night/night.pv.gz

# the simple pipeline: pv-diff compares the samples and, per experiment
# and level, the profiles of the same stream
pv-stat "$night" | pv-diff | pv-classify > "$T/classified.pv"
[ $? -le 1 ] || { fail "pv-stat | pv-diff | pv-classify"; finish; }
mkdir "$T/moved" || exit 99
moved=$(cd "$T/moved" && pwd -P)
expect_status 0 "report" pv-render --format=html --artifacts="$T/moved" \
	"$T/classified.pv" > "$T/report.html"

# The first screen, as HTML text: counts, regressions, systematic
sed -n '/<table id="counts"/,/<\/table>/p
	/<table id="regression-table"/,/<\/table>/p
	/<h3 id="systematic"/,/<h3 id="improvements"/p' "$T/report.html" |
	sed 's/<[^>]*>/ /g; s/  */ /g; s/^ //; s/ $//' | grep -v '^$' \
	> "$T/first.out"
test_cmp "$D/night-first.out" "$T/first.out" && pass ||
	fail "the first screen"

# The verdicts' FLAGS beside the ranked regressions and the uncertain
# keys, as text, from the verdict records themselves (no cmp record here)
grep -v '^cmp	' "$T/classified.pv" | pv-render --format=html > "$T/flags.html"
[ $? -eq 0 ] || fail "flags: pv-render"
sed -n '/<table id="regression-table"/,/<\/table>/p
	/<ul id="uncertain-list"/,/<\/ul>/p' "$T/flags.html" |
	grep -o '<a class="key"[^>]*>[^<]*</a>[^<]*<span class="flags">[^<]*</span>\|<a class="key"[^>]*>[^<]*</a> ([^<]*): <span class="reason">[^<]*</span> <span class="flags">[^<]*</span>' |
	sed 's/<[^>]*>//g' > "$T/flags.out"
test_cmp "$D/night-flags.out" "$T/flags.out" && pass ||
	fail "the verdicts' flags"

# Each regression links to the profile comparison of its own experiment
# and level: pv-diff's output of one experiment at two levels
pv-classify "$top_srcdir/tests/data/pv-diff/both.out" |
	pv-render --format=html > "$T/both.html"
[ $? -eq 0 ] || fail "both: pv-render"
{ sed -n '/<table id="regression-table"/,/<\/table>/p' "$T/both.html" |
	grep -o '>[^<]* level [0-9]*<\|#profile=[0-9]*'
  grep -o '"level":[0-9][0-9]*' "$T/both.html"; } > "$T/both-links.out"
test_cmp "$D/both-links.out" "$T/both-links.out" && pass ||
	fail "both: a regression's profile is of its level"

# A series of versions (pv-series' test series through pv-stat, pv-series
# and pv-classify): the decision pages appear without verdicts, titled by
# the first and last versions; the marks as the summary lists them, and as the page's data holds them (kind, key,
# versions, figures, their trend's index, their text)
pv-stat "$top_srcdir/tests/data/pv-series/series.in" | pv-series |
	pv-classify > "$T/series.pv"
expect_status 0 "series: report" pv-render --format=html "$T/series.pv" \
	> "$T/series.html"
{ grep -o '<title>[^<]*' "$T/series.html" | sed 's/<title>//'
  sed -n '/<h3 id="series"/,/<\/ul>/p' "$T/series.html" |
	sed 's/<[^>]*>//g' | grep -v '^$'
  grep -o '"tkey":.*],"sect"' "$T/series.html" |
	sed 's/},{/},\n{/g'; } > "$T/series.out"
test_cmp "$D/series-marks.out" "$T/series.out" && pass ||
	fail "series: the marks"

# Each run's files under --artifacts, by the directory's last part
grep -o '"[^"]*-run-00[0-9]\.std\(out\|err\)"' "$T/report.html" |
	sed "s|$moved|DIR|" | sort -u > "$T/artifacts.out"
test_cmp "$D/night-artifacts.out" "$T/artifacts.out" && pass ||
	fail "the artifacts' paths"

# No URL to the network in any src or href
if grep -Eio '(src|href)=["'"'"']?https?:' "$T/report.html"; then
	fail "an http(s) URL in a src or href"
else
	pass
fi

# The same bytes for the same input
pv-render --format=html --artifacts="$T/moved" "$T/classified.pv" \
	> "$T/again.html"
test_cmp "$T/report.html" "$T/again.html" && pass ||
	fail "output differs between two runs"

# A directory that is not there is trouble, and nothing is written
expect_status 2 "--artifacts of no directory" pv-render --format=html \
	--artifacts="$T/none" "$T/classified.pv" > "$T/none.html" 2> "$T/err"
[ -s "$T/none.html" ] && fail "--artifacts of no directory: output" ||
	pass
finish
