#!/bin/sh
# pv-parse | pv-render --format=folded against the folded outputs of
# inferno-collapse-perf for 21 real captures and 7 options (147 cases).
. "${top_srcdir:-.}/tests/lib.sh"

data=$top_srcdir/tests/data/conformance
for input in "$data"/input/*; do
	stem=${input##*/}
	stem=${stem%.gz}
	stem=${stem%.txt}
	for opt in none pid tid kernel jit all addrs; do
		if [ "$opt" = none ]; then
			set --
		else
			set -- "--$opt"
		fi
		pv-parse "$@" "$input" >"$T/pv" 2>"$T/parse.err" ||
			{ fail "$stem $opt: pv-parse exit $?"; cat "$T/parse.err" >&2; continue; }
		pv-render --format=folded "$T/pv" >"$T/out" 2>"$T/render.err" ||
			{ fail "$stem $opt: pv-render exit $?"; continue; }
		expect_golden "$data/expected/$stem.$opt.folded" "$T/out" "$stem $opt"
	done
done
finish
