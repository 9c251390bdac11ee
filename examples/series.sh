#!/bin/sh
# series.sh: where along twelve nightly kernels a benchmark changed.
#
# usage: series.sh [DIR [REPORT]]
#
# Makes a store of 12 nightly versions, v6.1 to v6.12, in DIR (default: a
# temporary directory, removed at the end): each night's results are runs
# drawn (with a fixed seed) from the real values of the first kernel of
# examples/mmtests-aa.pv (will-it-scale futex1, stress-ng futex and
# sysbench cpu at 1 and 2 processes, on a shared VM: robust CVs of 3 % to
# 45 %), with will-it-scale futex1 at 1 process (CV 3.5 %) made 8 %
# slower from v6.7 on.  Then the series of the store, as
# pv-store series writes it, goes through pv-series, which finds the
# change once, at v6.7, where a fixed baseline would report it at every
# later version; pv-classify judges it (not at the newest version: the
# job passes) and pv-render prints the report, the change points with the
# range to bisect, and writes REPORT (default DIR/report.html, or
# series.html without DIR), each key's trend across the versions with the
# change point marked.  Last, the nightly job: the state
# of the first eleven nights, then the twelfth night alone.
set -eu
E=$(cd "$(dirname "$0")" && pwd)
out=${2:-${1:+$1/report.html}}
out=${out:-series.html}
if [ $# -gt 0 ]; then
	dir=$1
	mkdir -p "$dir"
else
	dir=$(mktemp -d "${TMPDIR:-/tmp}/pv-series.XXXXXX")
	trap 'rm -rf "$dir"' EXIT
fi
PV_STORE=$dir/store
export PV_STORE
[ -f "$PV_STORE/format" ] || pv-store init

# night N: 5 runs of each key, resampled from the real ones
night() {
	awk -v night="$1" '
	function rnd() { seed = (seed * 1103515245 + 12345) % 2147483648
		return seed / 2147483648 }
	$1 == "section" { first = $2 == "baseline" }
	$1 == "sample" && first {
		k = $2 "\t" $3 "\t" $4 "\t" $5 "\t" $6 "\t" $7 "\t" $8
		if (!(k in n)) key[nk++] = k
		v[k, n[k]++] = $11
	}
	END {
		seed = night * 7919
		print "pv-format\t1"
		printf "section\t-\tv6.%d\tnightly\n", night
		for (i = 0; i < nk; i++) {
			k = key[i]
			f = k ~ /^will-it-scale.*\t1$/ && night >= 7 ? 0.92 : 1
			for (r = 1; r <= 5; r++)
				printf "sample\t%s\t%d\t-\t%.6g\n", k, r,
				    f * v[k, int(rnd() * n[k])]
		}
	}' "$E/mmtests-aa.pv"
}
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
	night "$i" | pv-store add -v "v6.$i" -d $((1733000000 + 86400 * i)) \
		>/dev/null
done

echo "== the change points of the 12 nights"
pv-store series | pv-series | pv-classify > "$dir/series.pv"
pv-render --format=text "$dir/series.pv"

# the HTML report: pv-stat's median of each version beside the runs, so
# that each key's trend is drawn, the change point marked on it
pv-store series | pv-stat | pv-series | pv-classify |
	pv-render --format=html > "$out.tmp"
mv "$out.tmp" "$out"
echo "== wrote $out"

echo "== the nightly job: eleven nights kept, the twelfth added"
rm -f "$dir/state"
pv-store series --until=v6.11 | pv-series --state="$dir/state" > /dev/null
pv-store show v6.12 | pv-series --state="$dir/state" |
	grep '^changepoint' | cut -f3,4,9-12,18
