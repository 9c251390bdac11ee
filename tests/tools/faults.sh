#!/bin/sh
# Faults: every tool exits 2 with a message when its output cannot be
# written (/dev/full), ends quietly on a closed pipe (| head -1), and
# fails with "out of memory" and exit 2 (or succeeds with the right
# output) when any one allocation fails (tests/faults/failmalloc.so, an
# LD_PRELOAD injector, failing the Nth malloc/calloc/realloc for every N
# the run makes, or for 400 of them spread over the range).  A failure
# inside libc (opendir(3)) is reported with its strerror, "Cannot allocate
# memory".
. "${top_srcdir:-.}/tests/lib.sh"
. "$top_srcdir/tests/tools/bad-input-gen.sh"

d=$top_srcdir/tests/data
pv_pair >"$T/pair.pv"
pv-diff "$T/pair.pv" >"$T/diff.pv"
gen_pv_deep "$T/deep.pv"
gen_perf_deep "$T/deep.perf"

# the commands: TOOL ARGS INPUT, one a line
cat >"$T/cmds" <<EOC
pv-parse $d/pv-parse/events.in
pv-parse $d/pv-parse/gzip.in
pv-parse -f generic $d/bench/generic.txt
pv-parse -f stress-ng $d/bench/stress-ng-cpu-matrixprod-n2-r1.yaml
pv-parse $d/bench/mm
pv-diff $T/pair.pv
pv-render -f folded $T/pair.pv
pv-render -f diff-folded $T/diff.pv
pv-render -f text $T/diff.pv
pv-render -f svg $T/pair.pv
pv-render -f html $T/pair.pv
pv-series $d/pv-series/series.in
EOC

# /dev/full
while read -r cmd; do
	# shellcheck disable=SC2086
	$cmd >/dev/full 2>"$T/err"
	st=$?
	if [ "$st" -ne 2 ]; then
		fail "$cmd >/dev/full: exit status $st, expected 2"
	elif ! grep -q 'write error on standard output: No space left' \
	    "$T/err"; then
		fail "$cmd >/dev/full: message: $(cat "$T/err")"
	else
		pass
	fi
done <"$T/cmds"
for tool in pv-parse pv-diff pv-render pv-series; do
	for opt in --help --version; do
		expect_status 2 "$tool $opt >/dev/full" \
			sh -c "$tool $opt >/dev/full 2>/dev/null"
	done
done

# | head -1: no message, status 0 or SIGPIPE (141); outputs of many
# pipe buffers
for cmd in "pv-parse $T/deep.perf" "pv-diff $T/deep.pv" \
    "pv-render -f folded $T/deep.pv" "pv-render -f svg $T/deep.pv" \
    "pv-render -f html $T/deep.pv"; do
	# shellcheck disable=SC2086
	{ $cmd 2>"$T/err"; echo $? >"$T/st"; } | head -1 >/dev/null
	st=$(cat "$T/st")
	if [ "$st" -ne 0 ] && [ "$st" -ne 141 ]; then
		fail "$cmd | head -1: exit status $st"
	elif [ -s "$T/err" ]; then
		fail "$cmd | head -1: message: $(head -c 200 "$T/err")"
	else
		pass
	fi
done

# allocation failures
so=$top_builddir/tests/faults/failmalloc.so
if [ -n "${pv_sanitizers:-}" ] || [ -n "${pv_valgrind:-}" ]; then
	echo "allocation faults: skipped (sanitizers, valgrind: their own malloc)"
elif [ ! -f "$so" ]; then
	fail "no $so (make check builds it)"
else
	while read -r cmd; do
		# shellcheck disable=SC2086
		$cmd >"$T/ref" 2>/dev/null
		refst=$?
		# shellcheck disable=SC2086
		PV_FAILMALLOC_COUNT=$T/count LD_PRELOAD=$so $cmd >/dev/null \
			2>&1
		total=$(cat "$T/count" 2>/dev/null || echo 0)
		if [ "$total" -lt 1 ]; then
			fail "$cmd: the injector counted no allocations"
			continue
		fi
		step=$(( (total + 399) / 400 ))
		n=1 bad=0 runs=0 oom=0
		while [ "$n" -le "$total" ]; do
			# shellcheck disable=SC2086
			PV_FAILMALLOC=$n LD_PRELOAD=$so $cmd >"$T/out" \
				2>"$T/err"
			st=$?
			runs=$((runs + 1))
			if [ "$st" -eq 2 ] && grep -Eq \
			    'out of memory|Cannot allocate memory' "$T/err"
			then
				oom=$((oom + 1))
			elif [ "$st" -eq "$refst" ] && cmp -s "$T/ref" "$T/out"
			then
				:
			else
				fail "$cmd with allocation $n failing: exit status $st: $(head -c 200 "$T/err")"
				bad=1
				break
			fi
			n=$((n + step))
		done
		[ "$bad" -eq 0 ] && pass
		echo "$cmd: $total allocations, $runs runs, $oom out of memory"
	done <"$T/cmds"
fi
finish
