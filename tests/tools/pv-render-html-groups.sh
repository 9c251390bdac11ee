#!/bin/sh
# pv-render --format=html: the roll-ups in a real browser.  The report of
# the real pair with a planted slow function (tests/data/planted: built
# again here with cc, parsed with pv-parse --debuginfo, compared by pv-diff
# --subsystems) is opened in headless Chromium and checked from the page
# by tests/html/check-groups.js: a table for each kind of group, sorting,
# the treemap, and a click on the planted function's file that filters the
# flame graphs to its stacks (token_checksum drawn, eval_binop not; each
# graph's total the file's inclusive count as pv-diff wrote it).  Skipped
# (77) without cc, chromium or node.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"

D=$top_srcdir/tests/data/planted
CHROMIUM=${CHROMIUM:-$(command -v chromium || command -v chromium-browser)}
[ -n "$CHROMIUM" ] || skip_all "no chromium"
command -v node >/dev/null || skip_all "no node"
command -v cc >/dev/null 2>&1 || skip_all "no C compiler (cc)"
cd "$T" || exit 99

for v in v1 v2; do
	mkdir -p "$v"
	cp -R "$D/src" "$v/"
	def=
	[ $v = v2 ] && def=-DPLANTED
	(cd "$v" && cc -g -O1 -fno-omit-frame-pointer $def -o app \
	    src/main.c src/parse/lexer.c src/eval/eval.c src/util/hash.c) ||
		skip_all "cc cannot build with -g"
	gzip -dc "$D/$v.perf.gz" | sed "s|(/tmp/planted/$v/app)|($T/$v/app)|" |
		pv-parse --debuginfo -s "$v" -r "$([ $v = v1 ] && echo baseline ||
		    echo target)" >"$v.pv" || fail "pv-parse $v"
done
pv-diff --subsystems="$D/subsystems.map" v1.pv v2.pv >diff.pv
[ $? -eq 1 ] || fail "pv-diff: exit status"
expect_status 0 "report" pv-render --format=html diff.pv >report.html

node "$top_srcdir/tests/html/check-groups.js" "$CHROMIUM" report.html \
	src/parse/lexer.c token_checksum eval_binop >browser.out 2>&1
st=$?
cat browser.out
np=$(grep -c '^ok ' browser.out)
nf=$(grep -c '^not ok ' browser.out)
passes=$((passes + np))
failures=$((failures + nf))
[ "$st" -eq 0 ] || [ "$nf" -gt 0 ] || fail "browser: exit status $st"
finish
