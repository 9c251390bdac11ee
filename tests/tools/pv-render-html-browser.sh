#!/bin/sh
# pv-render --format=html in a real browser: the report of a real profile
# pair opened in headless Chromium and checked from the page itself by
# tests/html/check-report.js (the profile's summary, flame graphs, search,
# zoom, units, sorting, the Sankey graph, notes, the context's user
# metrics, no request, no console error, a hostile name shown as text; a
# comparison whose roots pv-diff merged says so).
# Skipped (77) without chromium or node; the screenshot is kept as
# tests/html-report.png in the build tree.
#
# The pair: examples/{good,weak}-hash.perf.txt.gz, `perf script --header`
# of two `perf record -g` runs of examples/workload.c ("good" and
# "weak" hashing; the target ran 4 rounds to the baseline's 10, so it has
# fewer samples, as a throttled capture would).  One symbol of the target
# is renamed to a hostile frame name, '<img src=x onerror=alert(1)>'; on
# both sides insert() and run() are renamed __proto__ and constructor,
# names that a plain JavaScript object would lose.  Each side is given a
# user metric with --meta.  The comparison is made by the real pipeline,
# pv-parse then pv-diff.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"

D=$top_srcdir/tests/data/html
CHROMIUM=${CHROMIUM:-$(command -v chromium || command -v chromium-browser)}
[ -n "$CHROMIUM" ] || skip_all "no chromium"
command -v node > /dev/null || skip_all "no node"

# The report of the real pair
rename='s/ insert+/ __proto__+/; s/ run+/ constructor+/'
gzip -dc "$top_srcdir/examples/good-hash.perf.txt.gz" | sed "$rename" \
	> "$T/base.perf" || exit 99
gzip -dc "$top_srcdir/examples/weak-hash.perf.txt.gz" | sed "$rename" |
	sed 's/cmp_word/<img src=x onerror=alert(1)>/' > "$T/target.perf" ||
	exit 99
pv-parse --meta=throughput=1520 "$T/base.perf" > "$T/base.pv" &&
	pv-parse --meta=throughput=1210 "$T/target.perf" > "$T/target.pv" &&
	pv-diff "$T/base.pv" "$T/target.pv" > "$T/diff.pv"
[ $? -le 1 ] || { fail "pv-parse | pv-diff"; finish; }
expect_status 0 "report" pv-render --format=html "$T/diff.pv" \
	> "$T/report.html"
size=$(wc -c < "$T/report.html")
[ "$size" -gt 1000 ] && pass || fail "report: only $size bytes"

# A comparison whose root frames pv-diff merged (myapp-1.0, myapp-2.0)
expect_status 0 "roots report" pv-render --format=html \
	"$top_srcdir/tests/data/pv-diff/roots.out" > "$T/roots.html"

# In the browser
shot=$top_builddir/tests/html-report.png
node "$top_srcdir/tests/html/check-report.js" "$CHROMIUM" \
	"$T/report.html" "$shot" "$T/roots.html" > "$T/browser.out" 2>&1
st=$?
cat "$T/browser.out"
np=$(grep -c '^ok ' "$T/browser.out")
nf=$(grep -c '^not ok ' "$T/browser.out")
passes=$((passes + np))
failures=$((failures + nf))
[ "$st" -eq 0 ] || [ "$nf" -gt 0 ] || fail "browser: exit status $st"
[ -s "$shot" ] && pass || fail "browser: no screenshot"
finish
