#!/bin/sh
# classify.sh FILE...: benchmark samples (pv-format(5)) to a ranked summary
# of verdicts; exits 1 when pv-classify found a red regression.
#   sh examples/classify.sh examples/mmtests-aa.pv       # A/A: nothing red
#   sh examples/classify.sh examples/mmtests-planted.pv  # 20% planted: red
set -eu
t=$(mktemp "${TMPDIR:-/tmp}/classify.XXXXXX")
trap 'rm -f "$t"' EXIT
status=0
cat "$@" | pv-stat | pv-diff | pv-classify > "$t" || status=$?
pv-render --format=text "$t"
exit $status
