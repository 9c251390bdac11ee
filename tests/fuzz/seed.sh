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

# tabs FIELD...: one line of the fields joined by tabs
tabs() {
	(IFS=$(printf '\t'); printf '%s\n' "$*")
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
store)
	# DIR/index, a NUL, then an object filed under the first entry's
	# hash (fuzz_store.c): the streams of the store's tests, plain and
	# gzip, with index lines as pv-store writes them, and damaged ones
	for f in "$d"/pv-store/*.pv; do
		[ -f "$f" ] || continue
		name=$(basename "$f" .pv)
		h=$(sha256sum <"$f" | cut -c1-64)
		sz=$(wc -c <"$f" | tr -d ' ')
		i=0
		for obj in plain gzip; do
			i=$((i + 1))
			{
				tabs pv-format 1
				printf '# a comment\n'
				tabs tests "$name" "$h" futex stress-ng futex 5 \
					- s 't:x' 1
				tabs add "$name" "$h" "$sz" "$sz" 1732000000 \
					sample - main "$name.pv" futex -
				tabs add 'v6.12-rc\t1' "$h" "$sz" 0 1732000001 \
					stack,sample abc123 - -
				tabs rm 'v6.12-rc\t1' "$h" 1732000002
				tabs add v6.10 "$h" 1 1 1 - - - -
				printf 'later\trecord\n'
				# damaged lines, for fsck's reading and repair
				tabs add v6.11 zz 1 1 1 - - - -
				tabs tests v6.11 "$h" futex
				printf 'add\tv9\t0123456789'
				printf '\000'
				case $obj in
				plain) cat "$f" ;;
				gzip) gzip -9nc "$f" ;;
				esac
			} | head -c 16384 >"$out/pv-store_$name.$i"
		done
	done
	printf 'pv-format\t1\n' >"$out/empty-index"
	;;
stats)
	# first byte: bit 0 pv-stat -m, bit 1 the bootstrap (fuzz_stats.c)
	seed '\000 \003' "$d"/pv-stat/*.in "$d"/pv-stat/*.out \
		"$d"/pv-diff/*.pv "$d"/pv-diff/*.in "$d"/pv-diff/*.out \
		"$d"/pv-classify/*.in \
		"$d"/pv-classify/*.out "$d"/pv-store/*.pv "$d"/bench/*.pv
	;;
series)
	# first byte 0: the record streams of pv-series's tests and of the
	# statistics; 1: a state file without its checksum (fuzz_series.c
	# appends one), made by the build's pv-series where there is one
	seed '\000' "$d"/pv-series/*.in "$d"/pv-stat/*.in "$d"/pv-store/*.pv
	pvs=${PV_SERIES:-tools/pv-series}
	if [ -x "$pvs" ]; then
		for f in "$d"/pv-series/*.in; do
			name=$(basename "$f" .in)
			rm -f "$out/state.tmp"
			"$pvs" --state="$out/state.tmp" "$f" >/dev/null 2>&1 ||
				continue
			[ -s "$out/state.tmp" ] || continue
			sz=$(wc -c <"$out/state.tmp" | tr -d ' ')
			{
				printf '\001'
				head -c $((sz - 4)) "$out/state.tmp"
			} | head -c 16384 >"$out/state_$name.1"
		done
		rm -f "$out/state.tmp"
	fi
	;;
mmtests)
	# the files of each test of each iteration of the tree of
	# tests/data/bench/mm as "== PATH" and its lines, after the run's
	# iter-0 directory, which marks a run (fuzz_mmtests.c); first byte:
	# bits 0-2 VERSION, ROLE, EXPERIMENT, bit 3 work/log
	for logs in "$d"/bench/mm/work/log/*/iter-*/*/logs; do
		[ -d "$logs" ] || continue
		rel=${logs#"$d"/bench/mm/}
		name=$(printf '%s' "$rel" | tr '/' '_')
		i=0
		for p in '\000' '\017'; do
			i=$((i + 1))
			{
				printf "$p"
				printf '== %s/iter-0/\n' "${rel%/iter-*}"
				for f in "$logs"/*; do
					[ -f "$f" ] || continue
					printf '== %s/%s\n' "$rel" "${f##*/}"
					cat "$f"
				done
			} | head -c 16384 >"$out/$name.$i"
		done
	done
	;;
*)
	echo "seed.sh: no seeds for harness '$h'" >&2
	exit 2
	;;
esac
