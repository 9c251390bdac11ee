#!/bin/sh
# pv-render --format=html on pv-classify's output: the decision report of
# the bundled real night (examples/night/README) joined with the profile
# comparison of each experiment, against golden files: the first screen's
# ranked regressions with their top suspects, the counts, the systematic
# section, the links to the runs' files under --artifacts, no http(s) URL,
# the same bytes twice.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"

D=$top_srcdir/tests/data/html
night=$top_srcdir/examples/night/night.pv.gz

pv-stat "$night" | pv-diff --samples | pv-classify > "$T/classified.pv"
[ $? -le 1 ] || { fail "pv-stat | pv-diff | pv-classify"; finish; }
mkdir "$T/exp" || exit 99
gzip -dc "$night" | awk -F '\t' -v dir="$T/exp" '
	$1 == "pv-format" { if (hdr == "") hdr = $0; next }
	$1 == "section" {
		out = dir "/" ++n ".pv"
		if ($4 in file)
			out = file[$4]
		else {
			file[$4] = out
			print hdr >out
		}
	}
	{ print >out }' || exit 99
for f in "$T"/exp/*.pv; do
	pv-diff --profiles "$f" > "${f%.pv}.diff"
	[ $? -le 1 ] || fail "pv-diff --profiles $(basename "$f")"
done
mkdir "$T/moved" || exit 99
moved=$(cd "$T/moved" && pwd -P)
expect_status 0 "report" pv-render --format=html --artifacts="$T/moved" \
	"$T/classified.pv" "$T"/exp/*.diff > "$T/report.html"

# The first screen, as HTML text: counts, regressions, systematic
sed -n '/<table id="counts"/,/<\/table>/p
	/<table id="regression-table"/,/<\/table>/p
	/<h3 id="systematic"/,/<h3 id="improvements"/p' "$T/report.html" |
	sed 's/<[^>]*>/ /g; s/  */ /g; s/^ //; s/ $//' | grep -v '^$' \
	> "$T/first.out"
test_cmp "$D/night-first.out" "$T/first.out" && pass ||
	fail "the first screen"

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
	"$T"/exp/*.diff > "$T/again.html"
test_cmp "$T/report.html" "$T/again.html" && pass ||
	fail "output differs between two runs"

# A directory that is not there is trouble, and nothing is written
expect_status 2 "--artifacts of no directory" pv-render --format=html \
	--artifacts="$T/none" "$T/classified.pv" > "$T/none.html" 2> "$T/err"
[ -s "$T/none.html" ] && fail "--artifacts of no directory: output" ||
	pass
finish
