#!/bin/sh
# seed.sh HARNESS SRCDIR OUTDIR: make the seed corpus of a fuzz harness
# from the test data: each input cut to its first 16 KiB (libFuzzer
# mutates small inputs faster), gzip data decompressed, and prefixed with
# the byte of options the harness reads first, where it reads one.
#
# A new harness adds a case here naming its seed files and its prefix.
set -eu
h=$1 src=$2 out=$3
d=$src/tests/data
mkdir -p "$out"

# seed PREFIX FILE...: one corpus file per input (and per prefix byte,
# given as octal escapes separated by spaces)
seed() {
	prefixes=$1
	shift
	for f in "$@"; do
		[ -f "$f" ] || continue
		name=$(printf '%s' "${f#"$d"/}" | tr '/' '_')
		i=0
		for p in $prefixes; do
			i=$((i + 1))
			{
				[ "$p" = none ] || printf "$p"
				case $f in
				*.gz) gzip -dc "$f" 2>/dev/null || true ;;
				*) cat "$f" ;;
				esac
			} | head -c 16384 >"$out/$name.$i"
		done
	done
}

case $h in
record)
	seed none "$d"/*/*.pv "$d"/pv-parse/*.out "$d"/pv-parse/*.in \
		"$d"/pv-diff/*.out "$d"/pv-diff/*.folded \
		"$d"/pv-render-folded/* "$d"/diff-folded/*.txt \
		"$d"/conformance/expected/*
	;;
perfscript)
	seed '\000 \047 \074' "$d"/conformance/input/* "$d"/pv-parse/*.in
	;;
bench)
	# format index: 0 stress-ng, 1 will-it-scale, 2 sysbench,
	# 3 unixbench, 4 generic (fuzz_bench.c)
	seed '\000 \200' "$d"/bench/stress-ng-*.stderr \
		"$d"/bench/stress-ng-*.yaml "$d"/bench/stress-ng-*.err
	seed '\001 \201' "$d"/bench/wis-*.out "$d"/bench/wis-*.csv \
		"$d"/bench/wis-*.err
	seed '\002 \202' "$d"/bench/sysbench-*.txt
	seed '\003 \203' "$d"/bench/unixbench-*.txt "$d"/bench/unixbench-*.log
	seed '\004 \204' "$d"/bench/generic.txt
	;;
folded)
	seed none "$d"/pv-render-folded/* "$d"/diff-folded/*.txt \
		"$d"/html/diff-folded.txt "$d"/pv-diff/*.folded
	;;
stackdiff)
	seed '\000 \007' "$d"/pv-diff/*.pv "$d"/pv-diff/*.out \
		"$d"/pv-render/*.pv "$d"/html/*.pv
	;;
html)
	seed '\000 \003' "$d"/html/*.pv "$d"/pv-diff/*.out \
		"$d"/html/diff-folded.txt "$d"/pv-render/*.pv
	;;
*)
	echo "seed.sh: no seeds for harness '$h'" >&2
	exit 2
	;;
esac
