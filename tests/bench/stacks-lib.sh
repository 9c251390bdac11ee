# stacks-lib.sh: helpers of the stack benchmarks (pv-diff-stacks.sh,
# pv-render-svg.sh), sourced after tests/lib.sh.
#
# Figures are the best of several runs: wall-clock seconds, CPU seconds
# (user + system) and the peak resident set in KiB, from GNU time.  The
# machine may be shared, so each script prints the load average beside
# its figures.

BENCH_RUNS=${BENCH_RUNS:-5}

command -v /usr/bin/time >/dev/null 2>&1 ||
	skip_all "GNU time (Debian package 'time') is needed"

# gen_stacks FILE N SEED [BASE]: a synthetic profile (gen-stacks.awk),
# sorted as stackcollapse-perf.pl and inferno-collapse-perf write theirs
gen_stacks() {
	if [ $# -ge 4 ]; then
		awk -v mode=target -v n="$2" -v seed="$3" \
			-f "$top_srcdir/tests/bench/gen-stacks.awk" "$4"
	else
		awk -v n="$2" -v seed="$3" \
			-f "$top_srcdir/tests/bench/gen-stacks.awk"
	fi | LC_ALL=C sort >"$1"
}

# measure CMD...: best wall, CPU and peak RSS over BENCH_RUNS runs of CMD
# (stdout discarded), in $wall, $cpu (seconds) and $rss (KiB)
measure() {
	wall= cpu= rss=
	i=0
	while [ $i -lt "$BENCH_RUNS" ]; do
		/usr/bin/time -f '%e %U %S %M' -o "$T/time" "$@" >/dev/null
		read -r w u s m <"$T/time"
		c=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }')
		if [ -z "$wall" ] || awk -v a="$w" -v b="$wall" \
		    'BEGIN { exit !(a < b) }'; then
			wall=$w
		fi
		if [ -z "$cpu" ] || awk -v a="$c" -v b="$cpu" \
		    'BEGIN { exit !(a < b) }'; then
			cpu=$c
		fi
		if [ -z "$rss" ] || [ "$m" -lt "$rss" ]; then
			rss=$m
		fi
		i=$((i + 1))
	done
}

# runs N SCRIPT [ARG...]: N runs in a row of the shell script SCRIPT
# (its $1... the ARGs, stdout discarded) timed as one; the wall and CPU
# seconds of one run, three decimals, in $w and $c
runs() {
	/usr/bin/time -f '%e %U %S' -o "$T/time" sh -c 'n=$1 s=$2; shift 2
		i=0; while [ $i -lt "$n" ]; do eval "$s" || exit 2
		i=$((i + 1)); done' sh "$@" >/dev/null
	read -r w u s <"$T/time"
	c=$(awk -v u="$u" -v s="$s" -v n="$1" \
	    'BEGIN { printf "%.3f", (u + s) / n }')
	w=$(awk -v w="$w" -v n="$1" 'BEGIN { printf "%.3f", w / n }')
}

# least A B: the smaller of two numbers, B when A is empty
least() {
	awk -v a="$1" -v b="$2" \
	    'BEGIN { print (a != "" && a + 0 <= b + 0) ? a : b }'
}

# at_most NAME VALUE LIMIT: pass when VALUE <= LIMIT
at_most() {
	if awk -v a="$2" -v b="$3" 'BEGIN { exit !(a <= b) }'; then
		printf '  ok   %s: %s <= %s\n' "$1" "$2" "$3"
		pass
	else
		printf '  FAIL %s: %s > %s\n' "$1" "$2" "$3"
		fail "$1: $2 > $3"
	fi
}

# ratio VALUE ANCHOR: VALUE / ANCHOR, two decimals
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'
}

# ratio3 VALUE ANCHOR: the same, three decimals: a round's ratio, for
# the lists that median() reads
ratio3() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }'
}

# median NUMBER...: the middle one (the mean of the middle two), three
# decimals: of the ratios of the rounds of a comparison.  Each round
# measures the two sides one after the other, so that a change of the
# load falls on both; the best of each side may come from two different
# rounds, and on a virtual machine whose rounds differ by a tenth that
# decides more than the programs do.
median() {
	printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 }
		END { if (NR % 2) printf "%.3f", v[(NR + 1) / 2]
		      else printf "%.3f", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

load_average() {
	printf 'load average: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
}
