#!/bin/sh
# pv-diff on stacks: golden stdout, stderr and exit status for each case
# of tests/data/pv-diff (and the inferno diff-folded inputs).
. "${top_srcdir:-.}/tests/lib.sh"

D=$top_srcdir/tests/data/pv-diff

# case NAME STATUS ARG...: run pv-diff in $D, compare with NAME.out/.err
case_() {
	name=$1 want=$2
	shift 2
	(cd "$D" && pv-diff "$@") >"$T/$name.out" 2>"$T/$name.err"
	got=$?
	if [ "$got" -ne "$want" ]; then
		fail "$name: exit status $got, expected $want"
	else
		pass
	fi
	expect_golden "$D/$name.out" "$T/$name.out" "$name: stdout"
	expect_golden "$D/$name.err" "$T/$name.err" "$name: stderr"
}

case_ folded 1 ../diff-folded/before.txt ../diff-folded/after.txt
case_ threshold 0 --threshold=20 ../diff-folded/before.txt \
	../diff-folded/after.txt
case_ suffixes 1 base.folded target.folded
case_ keep-suffixes 1 --keep-suffixes base.folded target.folded
case_ strip-hex 1 -x base.folded target.folded
case_ raw 1 --raw base.folded target.folded
case_ roles 1 roles.pv
case_ order 1 order.pv
case_ event-pair 1 -t 50 base.folded target-event.pv
case_ same 0 base.folded base.folded
case_ swapped 0 roles.pv roles.pv
case_ bad-line 2 ../diff-folded/bad_before.txt ../diff-folded/after.txt
case_ one-section 2 one.pv
case_ three-sections 2 three.pv
case_ no-stacks 2 nostacks.pv nostacks.pv
case_ diff-folded-input 2 ../diff-folded/default.txt base.folded
case_ bad-threshold 2 -t -1 base.folded target.folded
# groups from frame records; subsystems from the MAINTAINERS excerpt
# (see MAINTAINERS.README) and from a plain map
case_ groups-maintainers 1 --maintainers=MAINTAINERS.excerpt \
	groups-base.pv groups-target.pv
case_ groups-subsystems 1 --subsystems=subsystems.map \
	groups-base.pv groups-target.pv
case_ no-groups 1 --no-groups groups-base.pv groups-target.pv
case_ function 1 --no-groups --function=schedule groups-base.pv \
	groups-target.pv
case_ function-absent 1 --no-groups --function=nosuch groups-base.pv \
	groups-target.pv
# one program's root frames under two names: merged, or kept
case_ roots 1 roots-base.folded roots-target.folded
case_ keep-roots 1 --keep-roots roots-base.folded roots-target.folded
case_ maintainers-missing 2 --maintainers=nosuch groups-base.pv \
	groups-target.pv
case_ operands 2 base.folded target.folded base.folded
case_ missing 2 base.folded no-such-file

# gzip-compressed input and standard input give the same output
gzip -c "$top_srcdir/tests/data/diff-folded/before.txt" >"$T/before.txt.gz"
pv-diff "$T/before.txt.gz" "$top_srcdir/tests/data/diff-folded/after.txt" \
	>"$T/gz.out"
expect_golden "$D/folded.out" "$T/gz.out" "gzip input"
pv-diff <"$D/roles.pv" >"$T/stdin.out"
expect_golden "$D/roles.out" "$T/stdin.out" "standard input"
pv-diff - <"$D/roles.pv" >"$T/dash.out"
expect_golden "$D/roles.out" "$T/dash.out" "'-' operand"

# a write error is trouble
if [ -w /dev/full ]; then
	expect_status 2 "/dev/full" pv-diff "$D/base.folded" \
		"$D/target.folded" >/dev/full 2>/dev/null
fi

# --help prints the usage of the man page's SYNOPSIS
pv-diff --help >"$T/help" || fail "--help: exit status $?"
sed -n '1,2p' "$T/help" >"$T/usage"
cat >"$T/usage.want" <<'USAGE'
usage: pv-diff [--raw] [--keep-suffixes] [--strip-hex] [--threshold=PP] BASE TARGET
       pv-diff [--raw] [--keep-suffixes] [--strip-hex] [--threshold=PP] [FILE]
USAGE
if test_cmp "$T/usage.want" "$T/usage"; then pass; else fail "--help"; fi

finish
