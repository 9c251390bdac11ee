#!/bin/sh
# collect.sh: make the bundled night again (examples/night/README): two
# versions of hashbench, v1 and v2, each measured by pv-collect with
# profiles, beside a stress-ng benchmark that the change does not touch.
#
#   examples/night/collect.sh [DIR]
#
# Writes DIR/night.pv.gz (default: examples/night) and the runs' output
# under DIR/artifacts/VERSION.  Needs gcc and stress-ng; the tools from
# the build tree.  A run on a busy machine gives a noisy night: that is
# what the classifier is for.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
PATH=$here/../../tools:$PATH
out=${1:-$here}
levels=${PV_LEVELS:-1,2}
repeat=${PV_REPEAT:-5}
rounds=${PV_ROUNDS:-30}
work=$(mktemp -d "${TMPDIR:-/tmp}/pv-night.XXXXXX")
trap 'rm -rf "$work"' EXIT

for t in gcc stress-ng pv-collect; do
	command -v "$t" >/dev/null || { echo "collect.sh: no $t" >&2; exit 2; }
done
mkdir -p "$work/v1" "$work/v2" "$out/artifacts/v1" "$out/artifacts/v2"
cc="gcc -O2 -g -fno-omit-frame-pointer"
$cc -o "$work/v1/hashbench" "$here/hashbench.c"
$cc -DHASH_BYTES=2 -o "$work/v2/hashbench" "$here/hashbench.c"

# collect VERSION ROLE NAME PARSER COMMAND...: one benchmark, profiled;
# the command the same for both versions, the version's build first in
# PATH, so that both collections are one experiment; run in DIR, so that
# the artifacts' directory is recorded as the relative path
# "artifacts/VERSION" (one each: pv-collect names the files by experiment
# and run only)
collect() {
	version=$1 role=$2 name=$3 parser=$4
	shift 4
	(cd "$out" && PATH=$work/$version:$PATH pv-collect --profile \
		--frequency=499 --warmup=1 --repeat="$repeat" \
		--concurrency="$levels" --experiment="$name" \
		--parser="$parser" --role="$role" --label="$version" \
		--artifacts="artifacts/$version" --meta=night=bundled -- "$@") \
		>"$work/$version-$name.pv"
}

# the versions interleaved, benchmark by benchmark
for bench in hashbench stress-ng; do
	for v in v1 v2; do
		role=baseline
		[ "$v" = v2 ] && role=target
		case $bench in
		hashbench)
			collect "$v" "$role" hashbench generic \
				hashbench '{N}' "$rounds" ;;
		stress-ng)
			collect "$v" "$role" stress-ng-cpu stress-ng \
				stress-ng --cpu '{N}' --cpu-method int64 \
				--timeout 1 --metrics-brief ;;
		esac
	done
done
cat "$work"/v1-*.pv "$work"/v2-*.pv | gzip -9n >"$out/night.pv.gz"
echo "wrote $out/night.pv.gz"
