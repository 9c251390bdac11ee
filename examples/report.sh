#!/bin/sh
# examples/report.sh: the joined report of a real night, the bundled
# examples/night/night.pv.gz (see examples/night/README): benchmarks and
# call-stack profiles of two versions of hashbench, v1 and v2, the second
# with a weak hash, and a stress-ng benchmark beside them.
#
# One pipeline: pv-stat summarises the runs, pv-diff compares the samples
# and, per experiment and level, the profiles of the same stream,
# pv-classify judges the comparisons and passes the profiles on, and
# pv-render joins them: each regression links to the functions that moved
# in its experiment and level.  Writes report.html (open it in a browser;
# it needs no network) and prints the night's verdicts.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
PATH=$here/../tools:$PATH
out=${1:-report.html}
night=$here/night/night.pv.gz
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pv-report.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# pv-diff and pv-classify exit 1 when something moved: that is the
# finding, not trouble
pv-stat "$night" | pv-diff | pv-classify >"$tmp/classified.pv" ||
	[ $? -eq 1 ]
pv-render --format=html "$tmp/classified.pv" >"$tmp/report.html"
mv "$tmp/report.html" "$out"
echo "wrote $out: open it in a browser"
pv-render --format=text --color=never "$tmp/classified.pv"
