#!/bin/sh
# pv-render --format=folded: golden cases (tests/data/pv-render-folded)
# and output errors.
. "${top_srcdir:-.}/tests/lib.sh"

run_cases pv-render "$top_srcdir/tests/data/pv-render-folded"

# standard input, and - for it
printf 'x;y 2\n' | pv-render >"$T/out" && printf 'x;y 2\n' >"$T/want" &&
	test_cmp "$T/want" "$T/out" && pass || fail "standard input"
printf 'x;y 2\n' | pv-render - >"$T/out" && test_cmp "$T/want" "$T/out" &&
	pass || fail "- as standard input"
if [ -w /dev/full ]; then
	expect_status 2 "write to /dev/full" \
		pv-render "$top_srcdir/tests/data/pv-render-folded/folded.in" >/dev/full 2>/dev/null
fi
finish
