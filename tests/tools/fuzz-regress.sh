#!/bin/sh
# The fuzz harnesses (tests/fuzz), built without libFuzzer, replay their
# seed corpus and the inputs that once broke a reader
# (tests/data/fuzz-regress/NAME/): every one must run to its end, which
# under --enable-sanitizers also means with no memory error or leak.
. "${top_srcdir:-.}/tests/lib.sh"

n=0
for prog in "$top_builddir"/tests/fuzz/replay_*; do
	[ -x "$prog" ] || continue
	h=${prog##*/replay_}
	n=$((n + 1))
	corpus=$T/seed-$h
	if ! PV_SERIES=$top_builddir/tools/pv-series \
	    sh "$top_srcdir/tests/fuzz/seed.sh" "$h" "$top_srcdir" \
	    "$corpus" 2>"$T/err"; then
		fail "$h: no seed corpus: $(cat "$T/err")"
		continue
	fi
	set -- "$corpus"
	[ -d "$top_srcdir/tests/data/fuzz-regress/$h" ] &&
		set -- "$@" "$top_srcdir/tests/data/fuzz-regress/$h"
	"$prog" "$@" >"$T/out" 2>"$T/err"
	st=$?
	if [ "$st" -ne 0 ]; then
		tail -30 "$T/err" >&2
		fail "replay_$h: exit status $st"
	elif ! grep -q ' inputs replayed$' "$T/out"; then
		fail "replay_$h: did not finish"
	else
		pass
	fi
done
[ "$n" -gt 0 ] || skip_all "no replay programs built"
finish
