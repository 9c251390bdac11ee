#!/bin/sh
# pv-render --format=html: the report of a real profile pair, the escaping
# of names and the errors, against golden files.  The same report is
# checked in a browser by pv-render-html-browser.sh.
#
# The pair: examples/{good,weak}-hash.perf.txt.gz, `perf script --header`
# of two `perf record -g` runs of examples/workload.c ("good" and
# "weak" hashing).  One symbol of the target is renamed to a hostile frame
# name, '<img src=x onerror=alert(1)>'.  The comparison is made by the real
# pipeline, pv-parse then pv-diff.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"

D=$top_srcdir/tests/data/html

# page_data HTML: the page's data, pv-data and each profile's pv-prof-K
page_data() {
	sed -n 's/^<script type="application\/json" id="\(pv-data\|pv-prof-[0-9]*\)">\(.*\)<\/script>$/\1 \2/p' \
		"$1"
}

# The report of the real pair
gzip -dc "$top_srcdir/examples/good-hash.perf.txt.gz" > "$T/base.perf" || exit 99
gzip -dc "$top_srcdir/examples/weak-hash.perf.txt.gz" |
	sed 's/cmp_word/<img src=x onerror=alert(1)>/' > "$T/target.perf" ||
	exit 99
pv-parse "$T/base.perf" > "$T/base.pv" &&
	pv-parse "$T/target.perf" > "$T/target.pv" &&
	pv-diff "$T/base.pv" "$T/target.pv" > "$T/diff.pv"
[ $? -le 1 ] || { fail "pv-parse | pv-diff"; finish; }
expect_status 0 "report" pv-render --format=html "$T/diff.pv" \
	> "$T/report.html"
size=$(wc -c < "$T/report.html")
[ "$size" -gt 1000 ] && pass || fail "report: only $size bytes"

# No markup from the input: the hostile name is escaped where written
if grep -q '<img' "$T/report.html"; then
	fail "report: '<img' appears unescaped"
else
	pass
fi

# The page's script, joined from the parts of lib/html/report/, is one
# well-formed program (node --check parses without running it)
if command -v node > /dev/null; then
	sed -n '/^<script>/,/^<\/script>$/p' "$T/report.html" |
		sed -e '1s/^<script>//' -e '$d' > "$T/report.js"
	if node --check "$T/report.js" 2> "$T/node.err"; then
		pass
	else
		fail "report: the script does not parse: $(cat "$T/node.err")"
	fi
fi

# The same bytes for the same input
pv-render --format=html "$T/diff.pv" > "$T/again.html"
test_cmp "$T/report.html" "$T/again.html" && pass ||
	fail "report: output differs between two runs"

# Escaping, exactly: the context table and the data of a small input
pv-render --format=html "$D/escape.pv" > "$T/escape.html" 2> "$T/err" ||
	fail "escape: pv-render failed: $(cat "$T/err")"
sed -n '/<div class="pcontext" data-prof="0"/,/^<\/div>/p' \
	"$T/escape.html" > "$T/context.out"
expect_golden "$D/escape-context.out" "$T/context.out" "escape context"
page_data "$T/escape.html" > "$T/data.out"
expect_golden "$D/escape-data.out" "$T/data.out" "escape data"

# Without pv-diff: stacks in baseline and target sections (every event;
# sections of other roles left out), and diff-folded lines
# (merge.pv: call paths under 0.01% of both totals merged per parent, their
# weight kept; every function still in the table)
for c in stacks diff-folded merge; do
	f=$D/$c.pv
	[ -f "$f" ] || f=$D/$c.txt
	pv-render --format=html "$f" > "$T/$c.html" ||
		fail "$c: pv-render failed"
	page_data "$T/$c.html" > "$T/$c.out"
	expect_golden "$D/$c-data.out" "$T/$c.out" "$c"
done

# --event keeps one event
pv-render --format=html --event=instructions "$D/stacks.pv" \
	> "$T/event.html"
page_data "$T/event.html" > "$T/event.out"
expect_golden "$D/event-data.out" "$T/event.out" "--event"
expect_status 2 "--event absent" pv-render --format=html --event=nope \
	"$D/stacks.pv" > "$T/nope.html" 2> "$T/nope.err"
printf "pv-render: no stacks of event 'nope' to show\n" > "$T/nope.want"
test_cmp "$T/nope.want" "$T/nope.err" && pass || fail "--event absent"

# The roll-ups: pv-diff's group and frame records, as the page's data
# (the groups of every kind, each name's groups, lib/html/report/groups.js)
pv-render --format=html "$top_srcdir/tests/data/pv-diff/groups-maintainers.out" \
	> "$T/groups.html"
page_data "$T/groups.html" | grep '^pv-prof-' > "$T/groups.out"
expect_golden "$D/groups-data.out" "$T/groups.out" "groups"

# A write error is trouble
if [ -w /dev/full ]; then
	expect_status 2 "/dev/full" pv-render --format=html "$D/stacks.pv" \
		> /dev/full 2> /dev/null
fi

# Errors: exit 2 and "pv-render:FILE:LINE: message", no output
for c in bad-dstack bad-escape bad-func bad-group no-stacks; do
	(cd "$D" && pv-render --format=html "$c.pv") > "$T/$c.html" \
		2> "$T/$c.err"
	st=$?
	[ "$st" -eq 2 ] && pass || fail "$c: exit status $st, expected 2"
	[ -s "$T/$c.html" ] && fail "$c: wrote output" || pass
	expect_golden "$D/$c.err" "$T/$c.err" "$c"
done

finish
