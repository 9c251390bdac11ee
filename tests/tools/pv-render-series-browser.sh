#!/bin/sh
# pv-render's report of a series of versions in a real browser: the store
# of examples/series.sh (12 nightly versions, a step at v6.7) and pv-series'
# test series (tests/data/pv-series/series.in: two change points and an
# outlier; a trend added), each through pv-stat, pv-series and pv-classify, opened in
# headless Chromium and checked from the page by tests/html/check-series.js:
# the marks listed as text on the summary, and drawn on the trend plot at
# the right versions.  Skipped (77) without chromium or node; the
# screenshot is kept as tests/series-trend.png in the build tree.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"

CHROMIUM=${CHROMIUM:-$(command -v chromium || command -v chromium-browser)}
[ -n "$CHROMIUM" ] || skip_all "no chromium"
command -v node > /dev/null || skip_all "no node"

sh "$top_srcdir/examples/series.sh" "$T/ex" > "$T/series.out" 2>&1 ||
	{ fail "examples/series.sh"; finish; }
[ -s "$T/ex/report.html" ] && pass || fail "series.sh: no report.html"
# and a trend record of unixbench's key (made here: the test series has
# none), for its line
{ pv-stat "$top_srcdir/tests/data/pv-series/series.in" | pv-series |
	pv-classify
  printf 'trend\tnightly\tunixbench\tpipe\tthroughput\tlps\tlps\thigher\t1\tv6.3\tv6.10\t-0.005\t-0.006\t-0.004\t0.001\n'
} > "$T/series.pv"
expect_status 0 "series report" pv-render --format=html "$T/series.pv" \
	> "$T/series.html"

shot=$top_builddir/tests/series-trend.png
node "$top_srcdir/tests/html/check-series.js" "$CHROMIUM" \
	"$T/ex/report.html" "$T/series.html" "$shot" > "$T/browser.out" 2>&1
st=$?
cat "$T/browser.out"
np=$(grep -c '^ok ' "$T/browser.out")
nf=$(grep -c '^not ok ' "$T/browser.out")
passes=$((passes + np))
failures=$((failures + nf))
[ "$st" -eq 0 ] || [ "$nf" -gt 0 ] || fail "browser: exit status $st"
[ -s "$shot" ] && pass || fail "browser: no screenshot"
finish
