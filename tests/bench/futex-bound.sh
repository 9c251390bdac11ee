#!/bin/sh
# tests/bench/futex-bound.sh [nights]: the tables of
# tests/bench/futex-bound.md, the power that level-controlled tests reach
# on issue 13's futex pools at 20%, n = 10, and on its quantised latency
# (tests/bench/futex-bound, built by make check; the pools as
# tests/bench/verdict.sh makes them).  About 25 minutes of one CPU at
# 1000 nights.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
bound=$top_builddir/tests/bench/futex-bound
if [ ! -x "$bound" ]; then
	echo "futex-bound.sh: $bound is not built (make check builds it)" >&2
	exit 2
fi
nights=${1:-1000}
T=$(mktemp -d "${TMPDIR:-/tmp}/pv-futex-bound.XXXXXX")
trap 'rm -rf "$T"' EXIT
top_srcdir=$top_srcdir top_builddir=$top_builddir \
	sh "$top_srcdir/tests/bench/verdict.sh" --pools "$T/pools"
"$bound" -p "$T/pools" -N "$nights" \
	pool:corpus-mmtests-wis-futex1_processes-2 \
	pool:corpus-wis-futex1_threads-t2 \
	pool:local-stress-ng-futex-L1@13 ln13 ln15
"$bound" -N "$((nights / 2))" quant
