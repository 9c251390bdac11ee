#!/bin/sh
# pv-store under system call faults, in the manner of SQLite's crash
# tests.  tests/faults/failsys.so counts the calls of add and gc that
# change files (write, ftruncate, fsync, fchmod, flock, mkdir, mkdirat,
# linkat, renameat, unlinkat, a creating openat), then each is made, one
# run at a time, to fail (ENOSPC, or EIO, ENOLCK), to write half its bytes
# (writes), or to end the process with SIGKILL before it or just after
# it.  After every run:
#   - the status is 0, 2 or a kill, never a crash;
#   - an add that returned 0 and printed its line reads back byte for byte;
#     a failed one (not killed) left no temporary behind it;
#   - every add acknowledged before reads back, a withdrawn entry stays
#     withdrawn;
#   - the next command (verify) accepts the store and leaves tmp/ empty;
#   - another add then works;
#   - nothing outside the store changed, and nothing appeared beside it.
# Prints the number of points and runs.
. "${top_srcdir:-.}/tests/lib.sh"

so=$top_builddir/tests/faults/failsys.so
if [ -n "${pv_sanitizers:-}" ] || [ -n "${pv_valgrind:-}" ]; then
	skip_all "system call faults: not under sanitizers or valgrind"
fi
[ -f "$so" ] || { fail "no $so (make check builds it)"; finish; }

D=$top_srcdir/tests/data/pv-store
GIT_CEILING_DIRECTORIES=$(dirname "$T")
export GIT_CEILING_DIRECTORIES
unset PV_STORE
cd "$T" || exit 99

# streams: A and B stored before, C added under faults, E after; C of
# some 200 KB that compresses badly, so that its object takes several
# writes
cp "$D/v6.11.pv" A.pv && cp "$D/v6.12.pv" B.pv && cp "$D/crlf.pv" E.pv ||
	exit 99
awk 'BEGIN { srand(7); printf "pv-format\t1\nsection\t-\t-\tfaults\n"
	for (i = 0; i < 4000; i++)
		printf "stack\tcycles\t%d\t%d\tmain;f%d;g%d\n", \
		    int(rand() * 1e6), int(rand() * 1e9), int(rand() * 1e9), i
}' >C.pv || exit 99

# the store before each run: v1 withdrawn (for gc to collect), v2 live,
# a temporary a killed writer left
mkdir outside && echo keep >outside/file || exit 99
pv-store --store=S0 init &&
pv-store --store=S0 add -v v1 -d 1 A.pv >/dev/null &&
pv-store --store=S0 add -v v2 -d 2 B.pv >/dev/null &&
pv-store --store=S0 rm -d 3 v1 || exit 99
echo leftover >S0/tmp/obj-999999-0
snap() {
	find outside -exec ls -1dF {} + | sort
	find outside -type f -exec cksum {} + | sort
}
snap >outside.want

# faulty VAR=VALUE...: pv-store --store=box/W $cmdargs, box/W a fresh
# copy of S0, under the injector with those settings (through env:
# assignments before a shell function are not exported by every shell)
faulty() {
	rm -rf box && mkdir box && cp -a S0 box/W || exit 99
	rm -f hit
	# (the shell's own word of a kill goes to /dev/null)
	# shellcheck disable=SC2086
	(env LD_PRELOAD="$so" "$@" pv-store --store=box/W $cmdargs \
		>out 2>err) 2>/dev/null
}

# check CMD N MODE STATUS: what must hold after a run
check() {
	name="$1 at point $2 ($3, $(cat hit 2>/dev/null || echo -))"
	case $4 in
	0 | 2 | 137) ;;
	*)
		fail "$name: status $4: $(head -c 200 err)"
		return
		;;
	esac
	if [ "$1" = add ] && [ "$4" -eq 0 ]; then
		if ! grep -q '	v3$' out; then
			fail "$name: exit 0 without its line"
		elif ! pv-store --store=box/W show v3 2>/dev/null |
		    cmp -s - C.pv; then
			fail "$name: an acknowledged add does not read back"
			return
		fi
	fi
	# (obj-999999-0 is S0's, a killed writer's, not this add's)
	left=$(ls box/W/tmp 2>/dev/null | grep -v '^obj-999999-0$')
	if [ "$1" = add ] && [ "$4" -eq 2 ] && [ "$3" != after ] &&
	    [ "$(cat hit 2>/dev/null)" != unlinkat ] && [ -n "$left" ]; then
		fail "$name: the failed add left $left"
	fi
	if ! pv-store --store=box/W verify >verify.out 2>verify.err; then
		fail "$name: verify after: $(head -c 200 verify.err)"
		return
	fi
	[ -z "$(ls box/W/tmp)" ] ||
		fail "$name: tmp/ not empty after the next command: $(ls box/W/tmp)"
	pv-store --store=box/W show v2 2>/dev/null | cmp -s - B.pv ||
		fail "$name: an earlier add does not read back"
	[ -z "$(pv-store --store=box/W log v1 2>/dev/null)" ] ||
		fail "$name: a withdrawn entry came back"
	pv-store --store=box/W add -v v4 E.pv >/dev/null 2>&1 &&
		pv-store --store=box/W show v4 | cmp -s - E.pv ||
		fail "$name: no add after it"
	snap >outside.got
	cmp -s outside.want outside.got || fail "$name: outside changed"
	[ "$(ls box)" = W ] || fail "$name: beside the store: $(ls box)"
	runs=$((runs + 1))
}

runs=0
total=0
for cmd in add gc; do
	case $cmd in
	add) cmdargs="add -v v3 -d 4 C.pv" ;;
	gc) cmdargs=gc ;;
	esac
	rm -f count trace
	faulty PV_FAULT_COUNT="$T/count" PV_FAULT_TRACE="$T/trace" ||
		fail "$cmd without faults: $(cat err)"
	n=$(cat count)
	total=$((total + n))
	printf '%s: %d points (%s)\n' "$cmd" "$n" \
	    "$(cut -d' ' -f2 trace | sort | uniq -c |
	       awk '{ printf "%s%s %d", (NR > 1 ? ", " : ""), $2, $1 }')"
	for mode in fail short kill after; do
		i=1
		while [ "$i" -le "$n" ]; do
			# a short write is only a write's
			if [ "$mode" = short ] &&
			    [ "$(sed -n "${i}p" trace | cut -d' ' -f2)" != write ]
			then
				i=$((i + 1))
				continue
			fi
			faulty PV_FAULT="$i" PV_FAULT_MODE="$mode" \
				PV_FAULT_HIT="$T/hit" 2>/dev/null
			check "$cmd" "$i" "$mode" $?
			i=$((i + 1))
		done
	done
done
printf 'points: %d (add and gc); runs: %d, each checked\n' "$total" "$runs"
expect_status 0 "points were counted" test "$total" -gt 20
finish
