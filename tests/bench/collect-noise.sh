#!/bin/sh
# collect-noise.sh REPS > noise.tsv: repeated short runs of sysbench and
# stress-ng on this machine, interleaved per repetition so that slow drift
# spreads over every configuration.  One line per run:
#   SUITE TEST OPERATION LEVEL REP VALUE   (higher is better)
# Used once to make tests/bench/data/noise-local.tsv, the local part of the
# real noise that tests/bench/verdict.sh resamples.
set -eu
reps=${1:-40}
r=1
while [ "$r" -le "$reps" ]; do
	for t in 1 2; do
		v=$(sysbench cpu --threads=$t --time=1 run |
		    awk '/events per second:/ { print $4 }')
		printf 'sysbench\tcpu\tevents\t%s\t%s\t%s\n' "$t" "$r" "$v"
		v=$(stress-ng --futex $t --timeout 1s --metrics-brief 2>&1 |
		    awk '$4 == "futex" { print $9 }')
		printf 'stress-ng\tfutex\tbogo-ops\t%s\t%s\t%s\n' "$t" "$r" "$v"
	done
	v=$(sysbench memory --threads=1 --time=1 --memory-total-size=100G run |
	    awk '/MiB\/sec/ { gsub(/[(]/, "", $4); print $4 }')
	printf 'sysbench\tmemory\tMiB/s\t1\t%s\t%s\n' "$r" "$v"
	r=$((r + 1))
done
