#!/bin/sh
# tests/bench/fleet.sh: a fleet's night (issue 19): a million comparisons,
# their memory, and the night cut into shards.
#
# usage: tests/bench/fleet.sh [CAPTURE]
#
# 1. Scale: FLEET_SIZES comparisons (default 10000 100000 1000000) of 10
#    runs a side (tests/bench/gen-fleet.awk), grouped by key as pv-collect,
#    pv-parse and pv-store write them, and not grouped (run by run):
#    pv-stat | pv-diff | pv-classify, wall and CPU time (best of
#    FLEET_RUNS, default 3), and the peak resident memory of each tool
#    (tests/maxrss, each tool on the file the one before wrote); then the
#    global step alone, pv-classify on the cmp records of each size.
# 2. Key shards: FLEET_SHARD_SIZE comparisons (default 100000) cut by key
#    into 1, 2 and 4 shards (every shard has whole keys, both sides);
#    pv-stat | pv-diff on each shard under xargs -P2 and GNU parallel -j2,
#    then the global step, pv-classify, on the shards' outputs
#    concatenated.  The CPU time of the shards against the whole's, and
#    the records against the whole's: verdict, systematic and detect
#    records as pv-classify writes them, cmp records sorted (diff).
# 3. Run shards: the same comparisons cut by run into 2 and 4 shards (one
#    a machine: every key in every shard, its runs spread);
#    pv-stat -S on each, then pv-stat -m -S on the shards' outputs given
#    as FILEs (read side by side, as pv-stat(1) recommends) and
#    concatenated into one file (every key held), against pv-stat -S on
#    the whole: the merge's time, CPU time and peak memory, and the
#    records it derives (runval, stat, statroll) against the whole's
#    (diff).
# 4. pv-parse on a capture (CAPTURE, or FLEET_CAPTURE_MIB MiB, default
#    470, of the conformance captures repeated): from a pipe (cat FILE |
#    pv-parse), from the file, and the pipe floor (cat FILE | wc -l), in
#    FLEET_RUNS interleaved rounds; the peak memory of both, and whether
#    their bytes are the same.
#
# FLEET_PARTS (default "1 2 3 4") runs only the parts it names:
# FLEET_PARTS=4 FLEET_RUNS=5 tests/bench/fleet.sh CAPTURE, pv-parse alone.
#
# Inputs are kept in FLEET_DIR (default /tmp/pv-fleet) for the next run.
# The machine may be shared: the load average is printed beside the
# figures, which are best of FLEET_RUNS; peak memory does not depend on
# the load.  GNU parallel (Debian's parallel) is used where present; the
# rows that need it say so when it is not.
set -eu
LC_ALL=C
export LC_ALL
here=$(cd "$(dirname "$0")" && pwd)
top_srcdir=${top_srcdir:-$(cd "$here/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
PATH=$top_builddir/tools:$PATH
export PATH
maxrss=$top_builddir/tests/maxrss
dir=${FLEET_DIR:-/tmp/pv-fleet}
runs=${FLEET_RUNS:-3}
sizes=${FLEET_SIZES:-10000 100000 1000000}
shard_size=${FLEET_SHARD_SIZE:-100000}
parts=${FLEET_PARTS:-1 2 3 4}
for part in $parts; do
	case $part in
	1 | 2 | 3 | 4) ;;
	*) echo "fleet.sh: FLEET_PARTS: $part is no part (1 to 4)" >&2; exit 2 ;;
	esac
done
[ -x /usr/bin/time ] || { echo "fleet.sh: GNU time (/usr/bin/time) is needed" >&2; exit 77; }
[ -x "$maxrss" ] || { echo "fleet.sh: build tests/maxrss first (make check or make bench)" >&2; exit 77; }
mkdir -p "$dir"
T=$(mktemp -d "${TMPDIR:-/tmp}/pv-fleet.XXXXXX")
trap 'rm -rf "$T"' EXIT
have_parallel=0
command -v parallel >/dev/null 2>&1 && have_parallel=1

load() {
	cut -d' ' -f1-3 /proc/loadavg
}

# best CMD...: the best wall time of FLEET_RUNS runs of a shell command
# line, in $wall, and the CPU time (user + system, its children's too) of
# that run, in $cpu
best() {
	wall= cpu=
	i=0
	while [ "$i" -lt "$runs" ]; do
		/usr/bin/time -f '%e %U %S' -o "$T/time" sh -c "$1" >/dev/null
		read -r w u s <"$T/time"
		if [ -z "$wall" ] || awk -v a="$w" -v b="$wall" 'BEGIN { exit !(a < b) }'; then
			wall=$w
			cpu=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }')
		fi
		i=$((i + 1))
	done
}

# rounds NAME=CMD...: FLEET_RUNS rounds of the shell command lines, one
# after the other in each round, so that each sees the load the others
# see: the best wall time of each in $wall_NAME, and the CPU time of that
# run in $cpu_NAME
rounds() {
	for spec in "$@"; do
		eval "wall_${spec%%=*}= cpu_${spec%%=*}="
	done
	i=0
	while [ "$i" -lt "$runs" ]; do
		for spec in "$@"; do
			name=${spec%%=*}
			/usr/bin/time -f '%e %U %S' -o "$T/time" sh -c "${spec#*=}" >/dev/null
			read -r w u s <"$T/time"
			eval "b=\$wall_$name"
			if [ -z "$b" ] || awk -v a="$w" -v b="$b" 'BEGIN { exit !(a < b) }'; then
				eval "wall_$name=\$w"
				eval "cpu_$name=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }')"
			fi
		done
		i=$((i + 1))
	done
}

# rss CMD...: the peak resident memory of a command, in MB
rss() {
	"$maxrss" "$@" | awk '{ printf "%d", $1 / 1024 + 0.5 }'
}

# gen KEYS ORDER: the input, made once
gen() {
	f=$dir/fleet-$1-$2.pv
	if [ ! -s "$f" ]; then
		awk -v keys="$1" -v order="$2" -f "$here/gen-fleet.awk" >"$f.tmp"
		mv "$f.tmp" "$f"
	fi
	echo "$f"
}

ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else printf "-" }'
}

part1() {
	echo
	echo "1. pv-stat | pv-diff | pv-classify, 10 runs a side"
	printf '%-10s %-8s %8s %8s %8s %8s %8s %10s\n' comparisons order "wall s" "cpu s" \
		"stat MB" "diff MB" "cls MB" "us/cmp"
	for order in grouped runs; do
		for k in $sizes; do
			in=$(gen "$k" "$order")
			best "pv-stat '$in' | pv-diff | pv-classify; exit 0"
			pv-stat "$in" >"$T/stat.pv"
			pv-diff "$T/stat.pv" >"$T/diff.pv" || :
			r1=$(rss pv-stat "$in")
			r2=$(rss pv-diff "$T/stat.pv" || :)
			r3=$(rss pv-classify "$T/diff.pv" || :)
			grep '^cmp	' "$T/diff.pv" >"$dir/cmp-$k.pv" || :
			rm -f "$T/stat.pv" "$T/diff.pv"
			printf '%-10s %-8s %8s %8s %8s %8s %8s %10s\n' "$k" "$order" "$wall" \
				"$cpu" "$r1" "$r2" "$r3" \
				"$(awk -v w="$wall" -v k="$k" 'BEGIN { printf "%.1f", w * 1e6 / k }')"
			eval "wall_${order}_$k=\$wall"
		done
	done
	for k in $sizes; do
		best "pv-classify '$dir/cmp-$k.pv'; exit 0"
		echo "the global step, pv-classify on the $k cmp records alone: $wall s wall, $cpu s cpu, $(rss pv-classify "$dir/cmp-$k.pv" || :) MB"
	done
	for order in grouped runs; do
		eval "a=\${wall_${order}_1000000:-} b=\${wall_${order}_100000:-}"
		[ -n "$a" ] && [ -n "$b" ] &&
			echo "$order: 1,000,000 / 100,000 wall: $(ratio "$a" "$b")x (target 11x at most)"
	done
	echo "load average: $(load)"
}

# the key shards: each distinct key (SUITE to LEVEL: the same key on both
# sides) to shard (its number in order of appearance) mod N, the other
# records to every shard
key_split() {
	awk -F '\t' -v n="$2" -v out="$3" '
	$1 != "sample" { for (i = 0; i < n; i++) print > (out "." i); next }
	{
		k = $2 FS $3 FS $4 FS $5 FS $6 FS $7 FS $8
		if (!(k in s))
			s[k] = nk++ % n
		print > (out "." s[k])
	}' "$1"
}

# the run shards: run R of every key to shard (R - 1) mod N
run_split() {
	awk -F '\t' -v n="$2" -v out="$3" '
	$1 != "sample" { for (i = 0; i < n; i++) print > (out "." i); next }
	{ print > (out "." (($9 - 1) % n)) }' "$1"
}

# the records that must not depend on the cut: pv-classify's own, as
# written, and the cmp records, sorted
verdicts() {
	grep -E '^(verdict|systematic|detect)	' "$1" >"$2.v" || :
	grep '^cmp	' "$1" | sort >"$2.c" || :
	cat "$2.v" "$2.c" >"$2"
	rm -f "$2.v" "$2.c"
}

part2() {
	echo
	echo "2. key shards of $shard_size comparisons: pv-stat | pv-diff a shard, then pv-classify"
	in=$(gen "$shard_size" grouped)
	best "pv-stat '$in' | pv-diff; exit 0"
	whole_wall=$wall whole_cpu=$cpu
	pv-stat "$in" | pv-diff | pv-classify >"$T/whole.out" || :
	verdicts "$T/whole.out" "$T/whole.v"
	printf '%-26s %8s %8s %10s %s\n' "" "wall s" "cpu s" "cpu/whole" "records"
	printf '%-26s %8s %8s %10s\n' "whole" "$whole_wall" "$whole_cpu" 1.00
	for n in 1 2 4; do
		key_split "$in" "$n" "$T/ks"
		ls "$T"/ks.* >"$T/shards"
		for engine in xargs parallel; do
			if [ "$engine" = xargs ]; then
				cmd="xargs -P2 -I{} sh -c 'pv-stat {} | pv-diff > {}.out; exit 0' <'$T/shards'"
			elif [ "$have_parallel" = 1 ]; then
				cmd="parallel -j2 'pv-stat {} | pv-diff > {}.out; exit 0' <'$T/shards'"
			else
				printf '%-26s %s\n' "x$n $engine" "skipped: GNU parallel is not installed"
				continue
			fi
			best "$cmd"
			sh -c "$cmd"
			# shellcheck disable=SC2046
			cat $(sed 's/$/.out/' "$T/shards") | pv-classify >"$T/shards.out" || :
			verdicts "$T/shards.out" "$T/shards.v"
			if cmp -s "$T/whole.v" "$T/shards.v"; then same=identical; else same=DIFFERENT; fi
			printf '%-26s %8s %8s %10s %s\n' "x$n $engine -P2" "$wall" "$cpu" \
				"$(ratio "$cpu" "$whole_cpu")" "$same"
			rm -f "$T"/ks.*.out
		done
		rm -f "$T"/ks.*
	done
	echo "load average: $(load)"

}
# what pv-stat derives (the records passed on come once a shard)
derived() {
	grep -E '^(runval|stat|statroll)	' || :
}

part3() {
	echo
	echo "3. run shards of $shard_size comparisons: pv-stat -S a shard, then pv-stat -m -S"
	in=$(gen "$shard_size" grouped)
	best "pv-stat -S '$in'"
	whole_wall=$wall whole_cpu=$cpu
	pv-stat -S "$in" | derived >"$T/whole.S"
	printf '%-30s %8s %8s %6s %10s %9s %s\n' "" "wall s" "cpu s" "MB" "wall/whole" \
		"cpu/whole" "output"
	printf '%-30s %8s %8s %6s %10s %9s\n' "pv-stat -S whole" "$whole_wall" "$cpu" \
		"$(rss pv-stat -S "$in")" 1.00 1.00
	for n in 2 4; do
		run_split "$in" "$n" "$T/rs"
		ls "$T"/rs.* >"$T/shards"
		if [ "$have_parallel" = 1 ]; then
			cmd="parallel -j2 'pv-stat -S {} > {}.S' <'$T/shards'"
		else
			cmd="xargs -P2 -I{} sh -c 'pv-stat -S {} > {}.S' <'$T/shards'"
		fi
		best "$cmd"
		printf '%-30s %8s %8s %6s %10s %9s\n' "x$n shards, -j2" "$wall" "$cpu" - \
			"$(ratio "$wall" "$whole_wall")" "$(ratio "$cpu" "$whole_cpu")"
		sh -c "$cmd"
		files=$(sed 's/$/.S/' "$T/shards" | tr '\n' ' ')
		# the outputs as FILEs, read side by side (the man page's
		# form), then concatenated into one file (held keys)
		for form in files cat; do
			if [ "$form" = files ]; then
				args=$files
				what="x$n merge, -m -S FILE..."
			else
				# shellcheck disable=SC2086
				cat $files >"$T/parts.S"
				args=$T/parts.S
				what="x$n merge, -m -S cat-file"
			fi
			best "pv-stat -m -S $args"
			# shellcheck disable=SC2086
			pv-stat -m -S $args 2>/dev/null | derived >"$T/merged.S" || :
			if cmp -s "$T/whole.S" "$T/merged.S"; then same=identical; else same=DIFFERENT; fi
			# shellcheck disable=SC2086
			printf '%-30s %8s %8s %6s %10s %9s %s\n' "$what" "$wall" "$cpu" \
				"$(rss pv-stat -m -S $args)" "$(ratio "$wall" "$whole_wall")" \
				"$(ratio "$cpu" "$whole_cpu")" "$same"
		done
		rm -f "$T"/rs.* "$T/parts.S" "$T/merged.S"
	done
	echo "load average: $(load)"
}

# (rounds sets $wall_NAME and $cpu_NAME)
# shellcheck disable=SC2154
part4() {
	echo
	capture=${1:-}
	if [ -z "$capture" ]; then
		capture=$dir/capture-${FLEET_CAPTURE_MIB:-470}.txt
		if [ ! -s "$capture" ]; then
			for f in "$top_srcdir"/tests/data/conformance/input/*; do
				case $f in
				*.gz) gzip -dc "$f" ;;
				*) cat "$f" ;;
				esac
				echo
			done >"$T/mix"
			copies=$(( ${FLEET_CAPTURE_MIB:-470} * 1048576 / $(wc -c <"$T/mix") + 1 ))
			i=0
			while [ "$i" -lt "$copies" ]; do
				cat "$T/mix"
				i=$((i + 1))
			done >"$capture.tmp"
			mv "$capture.tmp" "$capture"
		fi
	fi
	echo "4. pv-parse on $capture ($(( $(wc -c <"$capture") / 1048576 )) MiB), best of $runs interleaved rounds"
	printf '%-30s %8s %8s %8s %10s\n' "" "wall s" "cpu s" "MB" "wall/file"
	rounds "floor=cat '$capture' | wc -l" "file=pv-parse '$capture'" \
		"pipe=cat '$capture' | pv-parse"
	pv-parse "$capture" >"$T/file.pv"
	cat "$capture" | pv-parse >"$T/pipe.pv"
	if cmp -s "$T/file.pv" "$T/pipe.pv"; then same=identical; else same=DIFFERENT; fi
	printf '%-30s %8s %8s %8s %10s\n' "cat FILE | wc -l (floor)" "$wall_floor" "$cpu_floor" - \
		"$(ratio "$wall_floor" "$wall_file")"
	printf '%-30s %8s %8s %8s %10s\n' "pv-parse FILE" "$wall_file" "$cpu_file" \
		"$(rss pv-parse "$capture")" 1.00
	printf '%-30s %8s %8s %8s %10s %s\n' "cat FILE | pv-parse" "$wall_pipe" "$cpu_pipe" \
		"$(rss sh -c "cat '$capture' | pv-parse")" "$(ratio "$wall_pipe" "$wall_file")" "$same"
	echo "pipe / floor: $(ratio "$wall_pipe" "$wall_floor")x; pipe / file: $(ratio "$wall_pipe" "$wall_file")x (target 1.3x at most)"
	echo "load average: $(load)"
}

echo "load average: $(load) ($(nproc) CPUs)"
for part in $parts; do
	"part$part" "$@"
done
