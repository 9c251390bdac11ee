#!/bin/sh
# examples/report.sh: the joined report of a real night, the bundled
# examples/night/night.pv.gz (see examples/night/README): benchmarks and
# call-stack profiles of two versions of hashbench, v1 and v2, the second
# with a weak hash, and a stress-ng benchmark beside them.
#
# The samples go through pv-stat, pv-diff and pv-classify; each
# experiment's profiles are compared by pv-diff --profiles on their own, so
# that a regression links to the functions that moved in its experiment
# and level.  Writes report.html (open it in a browser; it needs no
# network) and prints the night's verdicts.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
PATH=$here/../tools:$PATH
out=${1:-report.html}
night=$here/night/night.pv.gz
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pv-report.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# pv-diff and pv-classify exit 1 when something moved: that is the
# finding, not trouble
pv-stat "$night" | pv-diff --samples | pv-classify >"$tmp/classified.pv" ||
	[ $? -eq 1 ]
# one stream per experiment (the fourth field of its section records),
# each with the format's header, for one profile comparison each
mkdir "$tmp/exp"
gzip -dc "$night" | awk -F '\t' -v dir="$tmp/exp" '
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
	{ print >out }'
for f in "$tmp"/exp/*.pv; do
	pv-diff --profiles "$f" >"${f%.pv}.diff" || [ $? -eq 1 ]
done
pv-render --format=html "$tmp/classified.pv" "$tmp"/exp/*.diff \
	>"$tmp/report.html"
mv "$tmp/report.html" "$out"
echo "wrote $out: open it in a browser"
pv-render --format=text --color=never "$tmp/classified.pv"
