#!/bin/sh
# examples/fleet/fleet-parallel.sh: a fleet's night with GNU parallel, the
# same steps and the same bytes as the Makefile beside it.
#
#   fleet-parallel.sh [-j JOBS] [RESULTS [OUT]]
#
# RESULTS (default results/, beside this script) holds one file a
# machine, NAME.pv or NAME.pv.gz, each a key shard (the tests that machine
# ran).  pv-stat | pv-diff on each, JOBS at a time (default: one per CPU),
# then pv-classify on their outputs concatenated in name order, the one
# global step, and pv-render.  Writes OUT/NAME.diff, OUT/night.pv and
# OUT/report.html (OUT default out).  Across machines, give parallel
# --sshloginfile and --transferfile/--return (or copy the files with rsync
# or git): what moves is plain files.  See pv(7), Scaling out.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
jobs=0
if [ "${1:-}" = -j ]; then
	jobs=$2
	shift 2
fi
results=${1:-$here/results}
out=${2:-out}
command -v parallel >/dev/null 2>&1 ||
	{ echo "fleet-parallel.sh: GNU parallel is not installed" >&2; exit 77; }
mkdir -p "$out"
ls "$results" | grep -E '\.pv(\.gz)?$' | LC_ALL=C sort >"$out/machines"
# {= s/\.gz$//; s/\.pv$// =}: NAME; pv-diff exits 1 when something moved
parallel --will-cite -j "$jobs" --halt now,fail=1 \
	"pv-stat '$results'/{} | pv-diff >'$out'/{= s/\\.gz\$//; s/\\.pv\$// =}.diff.tmp || [ \$? -eq 1 ]" \
	<"$out/machines"
sed -e 's/\.gz$//' -e 's/\.pv$//' "$out/machines" | while read -r name; do
	mv "$out/$name.diff.tmp" "$out/$name.diff"
	echo "$out/$name.diff"
done >"$out/diffs"
# shellcheck disable=SC2046
cat $(cat "$out/diffs") | pv-classify >"$out/night.pv.tmp" || [ $? -eq 1 ]
mv "$out/night.pv.tmp" "$out/night.pv"
pv-render --format=html "$out/night.pv" >"$out/report.html.tmp"
mv "$out/report.html.tmp" "$out/report.html"
rm -f "$out/machines" "$out/diffs"
