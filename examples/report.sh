#!/bin/sh
# examples/report.sh: the report of a real regression, from two bundled
# captures of one program run two ways.
#
# workload.c fills a hash table and looks every word up again; run as
# "workload good" it hashes whole words, as "workload weak" only their
# first two bytes, so chains grow long and lookup() takes over.  The two
# captures are `perf script --header` of `perf record -g` of each run,
# made on this project's development machine (see examples/README).
#
# Writes report.html (open it in a browser; it needs no network) and
# prints the functions whose share of the time grew most.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
PATH=$here/../tools:$PATH
out=${1:-report.html}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pv-report.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

pv-parse --role=baseline --subject=good-hash \
	--meta=command="workload good" "$here/good-hash.perf.txt.gz" >"$tmp/base.pv"
pv-parse --role=target --subject=weak-hash \
	--meta=command="workload weak" "$here/weak-hash.perf.txt.gz" >"$tmp/target.pv"
# pv-diff exits 1 when functions moved: that is the finding, not trouble
pv-diff "$tmp/base.pv" "$tmp/target.pv" >"$tmp/diff.pv" || [ $? -eq 1 ]
pv-render --format=html "$tmp/diff.pv" >"$tmp/report.html"
mv "$tmp/report.html" "$out"
echo "wrote $out: open it in a browser"
pv-render --format=text --top=5 --color=never "$tmp/diff.pv"
