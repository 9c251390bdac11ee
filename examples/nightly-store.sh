#!/bin/sh
# nightly-store.sh: the nightly job's store-and-compare step.
#
# usage: nightly-store.sh VERSION RESULTS...
#
# Stores tonight's RESULTS (pv record streams, plain or gzip) under
# VERSION, then compares them with the baseline the rule chooses
# (pv-store(1), "The baseline rule"): pv-store pair writes baseline and
# target as one stream, and the comparison command reads it from standard
# input and exits 1 when it finds a regression.  The command is $PV_COMPARE
# (default: pv-diff).  With no baseline stored yet (the first night of a
# store), there is nothing to compare and the job succeeds.
#
# Exit status: 0 no regression (or no baseline), 1 a regression, 2 trouble.
# The store is $PV_STORE, or .pv at the top of the git work tree.
set -u

if [ $# -lt 2 ]; then
	echo "usage: nightly-store.sh VERSION RESULTS..." >&2
	exit 2
fi
version=$1
shift
compare=${PV_COMPARE:-pv-diff}

[ -f "${PV_STORE:-.pv}/format" ] || pv-store init || exit 2
pv-store add --version="$version" "$@" >/dev/null || exit 2
# add succeeded, so the store is sound: a failing baseline means none
if ! base=$(pv-store baseline "$version" 2>/dev/null); then
	echo "nightly-store: no baseline for $version yet; stored only"
	exit 0
fi
echo "nightly-store: comparing $version with $base"
pv-store pair --baseline="$base" "$version" | $compare
# the comparison's status is the job's
status=$?
[ "$status" -le 2 ] || status=2
exit "$status"
