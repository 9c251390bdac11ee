#!/bin/sh
# pv-store: a kill -9 at any moment leaves a store that verify accepts and
# that holds every add that returned success.  Each round starts an add of
# a stream of a few megabytes, kills it after a random delay, and notes
# whether the add had finished first; a small add after each kill must
# work (locks die with their holder; a cut index line is repaired).
. "${top_srcdir:-.}/tests/lib.sh"

GIT_CEILING_DIRECTORIES=$(dirname "$T")
export GIT_CEILING_DIRECTORIES
PV_STORE=$T/store
export PV_STORE
cd "$T" || exit 99
rounds=${PV_KILL_ROUNDS:-20}

pv-store init || exit 99
awk 'BEGIN {
	for (i = 0; i < 60000; i++)
		printf "stack\tcycles\t%d\t%d\tmain;work%d;inner%d;leaf\n", \
		    i, i * 7, i % 1013, i % 7
}' >bulk || exit 99
printf 'pv-format\t1\nmeta\tsmall\t1\n' >small.pv

# the time one add takes, to spread the kills over it
start=$(date +%s%N)
{ printf 'pv-format\t1\nsection\t-\t-\ttiming\n'; cat bulk; } >timing.pv
pv-store add -v timing timing.pv >/dev/null || exit 99
ms=$((($(date +%s%N) - start) / 1000000 + 20))

: >succeeded
killed=0
r=1
while [ "$r" -le "$rounds" ]; do
	{ printf 'pv-format\t1\nsection\t-\t-\tround%d\n' "$r"; cat bulk; } \
	    >"big$r.pv"
	pv-store add -v "k$r" "big$r.pv" >/dev/null 2>&1 &
	pid=$!
	delay=$(awk -v s="$r" -v ms="$ms" \
	    'BEGIN { srand(s * 7919); printf "%.3f", rand() * ms / 1000 }')
	sleep "$delay"
	kill -9 "$pid" 2>/dev/null
	if { wait "$pid"; } 2>/dev/null; then
		echo "k$r" >>succeeded
	else
		killed=$((killed + 1))
		rm -f "big$r.pv"
	fi
	pv-store add -v "s$r" small.pv >/dev/null 2>"small$r.err" ||
		fail "round $r: an add after the kill failed: $(cat small$r.err)"
	r=$((r + 1))
done
printf 'rounds %d, killed %d, finished %d\n' "$rounds" "$killed" \
	"$(wc -l <succeeded)"
expect_status 0 "verify after kills" pv-store verify
lost=0
while read -r v; do
	n=${v#k}
	pv-store show "$v" 2>/dev/null | cmp -s - "big$n.pv" || lost=$((lost + 1))
done <succeeded
expect_status 0 "no finished add lost" test "$lost" -eq 0
expect_status 0 "the small adds" \
	test "$(pv-store log | cut -f1 | grep -c '^s')" -eq "$rounds"
# gc clears what the killed adds left behind
pv-store gc >/dev/null
expect_status 0 "verify after gc" pv-store verify
expect_status 0 "gc empties tmp" test -z "$(ls store/tmp)"
finish
