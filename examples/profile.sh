#!/bin/sh
# examples/profile.sh: fold a bundled real capture and show where the time
# went.
#
# The capture, pv-parse.perf.txt.gz, is `perf script --header` of
# `perf record --call-graph dwarf -F 499` taken while pv-parse folded a
# 124 MiB capture of its own (see examples/README).  The script writes
# the folded stacks, the input of flame graph tools, to profile.folded in
# the current directory and prints the five heaviest stacks.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
PATH=$here/../tools:$PATH
out=${1:-profile.folded}

pv-parse "$here/pv-parse.perf.txt.gz" | pv-render --format=folded >"$out.tmp"
mv "$out.tmp" "$out"
echo "wrote $out ($(wc -l <"$out") stacks); the heaviest:"
sort -t ' ' -k2,2nr "$out" | head -5 | cut -c1-160
