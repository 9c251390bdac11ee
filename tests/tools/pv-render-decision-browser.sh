#!/bin/sh
# pv-render's decision report in a real browser: the bundled night
# (examples/night/README) classified and joined with the profile
# comparison of each experiment and level, as examples/report.sh makes it, opened in headless
# Chromium and checked from the page by tests/html/check-decision.js; an
# older version v0 (the baseline's runs renamed) gives the trend a third
# point.
# The target's meta record 'night' is made a hostile value (ignored by
# pv-diff -i) and its 'artifacts' directory a hostile path; stress-ng's
# test, an uncertain one, a hostile name.  Skipped (77)
# without chromium or node; the screenshots are kept as
# tests/decision-PAGE.png in the build tree.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"

CHROMIUM=${CHROMIUM:-$(command -v chromium || command -v chromium-browser)}
[ -n "$CHROMIUM" ] || skip_all "no chromium"
command -v node > /dev/null || skip_all "no node"

gzip -dc "$top_srcdir/examples/night/night.pv.gz" | awk -F '\t' '
	BEGIN { OFS = "\t" }
	$1 == "section" { target = $2 == "target" }
	target && $1 == "meta" && $2 == "night" {
		$3 = "<img src=x onerror=alert(1)>"
	}
	target && $1 == "meta" && $2 == "artifacts" {
		$3 = "javascript:alert(1)/\"><img src=x onerror=alert(2)>"
	}
	$1 == "sample" && $2 == "stress-ng" {
		$3 = "<img src=x onerror=alert(3)>"
	}
	{ print }' > "$T/night.pv" || exit 99
pv-stat "$T/night.pv" | pv-diff -i meta.night | pv-classify \
	> "$T/classified.pv"
[ $? -le 1 ] || { fail "pv-stat | pv-diff | pv-classify"; finish; }
# an older version, v0, for the trend: pv-stat of the baseline's runs
# named v0 (not compared: only its medians and intervals are drawn)
awk -F '\t' 'BEGIN { OFS = "\t" }
	$1 == "section" { base = $2 == "baseline"; $3 = "v0" }
	$1 == "pv-format" || base { print }' "$T/night.pv" | pv-stat |
	grep -v '^stack' > "$T/v0.pv" || exit 99
expect_status 0 "report" pv-render --format=html "$T/v0.pv" \
	"$T/classified.pv" > "$T/report.html"

shot=$top_builddir/tests/decision
node "$top_srcdir/tests/html/check-decision.js" "$CHROMIUM" \
	"$T/report.html" "$shot" > "$T/browser.out" 2>&1
st=$?
cat "$T/browser.out"
np=$(grep -c '^ok ' "$T/browser.out")
nf=$(grep -c '^not ok ' "$T/browser.out")
passes=$((passes + np))
failures=$((failures + nf))
[ "$st" -eq 0 ] || [ "$nf" -gt 0 ] || fail "browser: exit status $st"
[ -s "$shot-summary.png" ] && pass || fail "browser: no screenshot"
finish
