#!/bin/sh
# pv-store: ten adds at once lose nothing.  Ten writers add ten different
# streams (and three more add one stream that another also adds, under the
# same version) at the same moment; then verify accepts the store, the
# index has exactly the expected entries, and each stream reads back.
# Then ten more adds run while rm withdraws and gc collects: gc must never
# take an object whose index line is still to come.
. "${top_srcdir:-.}/tests/lib.sh"

GIT_CEILING_DIRECTORIES=$(dirname "$T")
export GIT_CEILING_DIRECTORIES
PV_STORE=$T/store
export PV_STORE
cd "$T" || exit 99

pv-store init || exit 99
# streams of some 300 KB each, so that the writers overlap
awk 'BEGIN {
	for (w = 1; w <= 10; w++) {
		f = "s" w ".pv"
		printf "pv-format\t1\nsection\t-\tc%d\texp%d\n", w, w % 3 > f
		for (i = 0; i < 6000; i++)
			printf "stack\tcycles\t%d\t%d\tmain;f%d;g%d;leaf%d\n", \
			    i + w, i * w, i % 97, w, i > f
		close(f)
	}
}' || exit 99

pids=
for w in 1 2 3 4 5 6 7 8 9 10; do
	pv-store add --version="c$w" "s$w.pv" >"add$w.out" 2>"add$w.err" &
	pids="$pids $!"
done
for w in 1 2 3; do
	pv-store add --version=c1 s1.pv >"dup$w.out" 2>"dup$w.err" &
	pids="$pids $!"
done
status=0
for p in $pids; do
	wait "$p" || status=1
done
expect_status 0 "all adds succeeded" test "$status" -eq 0
expect_status 0 "no messages" test -z "$(cat add*.err dup*.err)"
expect_status 0 "verify" pv-store verify
pv-store log | cut -f1 | sort >versions.out
printf 'c%d\n' 1 10 2 3 4 5 6 7 8 9 >versions.want
if test_cmp versions.want versions.out; then pass; else fail "log"; fi
expect_status 0 "index lines" test "$(grep -c '^add	' store/index)" -ge 10
ok=0
for w in 1 2 3 4 5 6 7 8 9 10; do
	pv-store show "c$w" | cmp -s - "s$w.pv" && ok=$((ok + 1))
done
expect_status 0 "all ten read back" test "$ok" -eq 10
expect_status 0 "ten objects" \
	test "$(find store/objects -type f | wc -l)" -eq 10
expect_status 0 "no temporaries" test -z "$(ls store/tmp)"

pids=
for w in 1 2 3 4 5 6 7 8 9 10; do
	{ echo "meta	round	2"; cat "s$w.pv"; } >"r$w.pv"
	pv-store add --version="d$w" "r$w.pv" >/dev/null 2>"d$w.err" &
	pids="$pids $!"
	if [ "$w" -le 5 ]; then
		pv-store rm "c$w" 2>"rm$w.err" &
		pids="$pids $!"
	fi
	if [ "$w" -eq 3 ] || [ "$w" -eq 7 ]; then
		pv-store gc >/dev/null 2>"gc$w.err" &
		pids="$pids $!"
	fi
done
status=0
for p in $pids; do
	wait "$p" || status=1
done
expect_status 0 "adds, rm and gc succeeded" test "$status" -eq 0
expect_status 0 "no messages (2)" test -z "$(cat d*.err rm*.err gc*.err)"
expect_status 0 "verify (2)" pv-store verify
pv-store gc >/dev/null
expect_status 0 "verify after gc" pv-store verify
ok=0
for w in 1 2 3 4 5 6 7 8 9 10; do
	pv-store show "d$w" | cmp -s - "r$w.pv" && ok=$((ok + 1))
done
expect_status 0 "all ten of round 2 read back" test "$ok" -eq 10
pv-store log | cut -f1 | sort >versions2.out
printf '%s\n' c10 c6 c7 c8 c9 d1 d10 d2 d3 d4 d5 d6 d7 d8 d9 >versions2.want
if test_cmp versions2.want versions2.out; then pass; else fail "log (2)"; fi
expect_status 0 "objects after gc" \
	test "$(find store/objects -type f | wc -l)" -eq 15
finish
