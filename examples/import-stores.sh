#!/bin/sh
# import-stores.sh: collect in one central store what many test machines
# measured.
#
# usage: import-stores.sh CENTRAL STORE...
#
# Each STORE is a copy of a machine's store (rsync -a host:.pv/ machines/host/).
# Every stream of it is added to the CENTRAL store under its version and
# date.  Streams keep their object names, and adding a stored stream again
# changes nothing, so the import can run after every copy.  Needs GNU date.
set -u

if [ $# -lt 2 ]; then
	echo "usage: import-stores.sh CENTRAL STORE..." >&2
	exit 2
fi
central=$1
shift
[ -f "$central/format" ] || pv-store --store="$central" init || exit 2
list=$(mktemp) || exit 2
trap 'rm -f "$list"' EXIT
status=0
tab=$(printf '\t')
for m in "$@"; do
	pv-store --store="$m" log >"$list" || { status=2; continue; }
	while IFS=$tab read -r version date object rest; do
		seconds=$(date -u -d "$date" +%s) || { status=2; continue; }
		pv-store --store="$m" show "$version" "$object" |
		    pv-store --store="$central" add --version="$version" \
		    --date="$seconds" >/dev/null || status=2
	done <"$list"
done
exit "$status"
