#!/bin/sh
# pv-store: add and show stream.  The peak memory (maximum resident set
# size, from wait4(2) by tests/maxrss) of adding and showing a 32 MB
# stream must be within 4 MB of that for a 2 MB stream.
. "${top_srcdir:-.}/tests/lib.sh"

# under make check-valgrind the peak would be valgrind's, not pv-store's
[ -n "${pv_valgrind:-}" ] && skip_all "memory is not measured under valgrind"

GIT_CEILING_DIRECTORIES=$(dirname "$T")
export GIT_CEILING_DIRECTORIES
PV_STORE=$T/store
export PV_STORE
cd "$T" || exit 99

# maxrss ARGS...: run pv-store ARGS, print its peak RSS in KB.  git is
# kept out of PATH: a git run by pv-store would be counted with it.
maxrss() {
	PATH=$top_builddir/tools "$top_builddir/tests/maxrss" \
	    "$top_builddir/tools/pv-store" "$@" || echo -1
}

pv-store init || exit 99
gen() {
	awk -v n="$1" 'BEGIN {
		printf "pv-format\t1\nsection\t-\t-\tmem\n"
		for (i = 0; i < n; i++)
			printf "stack\tcycles\t%d\t%d\tmain;f%d;g%d;h%d;leaf\n", \
			    i, i, i % 100003, i % 1009, i
	}'
}
gen 40000 >small.pv
gen 600000 >big.pv
ls -l small.pv big.pv | awk '{ print $5, $NF }'
a_small=$(maxrss add -v small small.pv)
a_big=$(maxrss add -v big big.pv)
s_small=$(maxrss show small)
s_big=$(maxrss show big)
printf 'peak RSS (KB): add %s / %s, show %s / %s (2 MB / 32 MB)\n' \
	"$a_small" "$a_big" "$s_small" "$s_big"
expect_status 0 "add ran" test "$a_small" -gt 0 -a "$a_big" -gt 0
expect_status 0 "show ran" test "$s_small" -gt 0 -a "$s_big" -gt 0
expect_status 0 "add streams" test "$a_big" -le $((a_small + 4096))
expect_status 0 "show streams" test "$s_big" -le $((s_small + 4096))
pv-store show big | cmp -s - big.pv && pass || fail "big round trip"
finish
