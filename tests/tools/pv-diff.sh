#!/bin/sh
# pv-diff on stacks: golden stdout, stderr and exit status for each case
# of tests/data/pv-diff (and the inferno diff-folded inputs).
. "${top_srcdir:-.}/tests/lib.sh"

D=$top_srcdir/tests/data/pv-diff
rc_() { return "$1"; }

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
# a stream of samples and stacks (pv-collect --profile): the cmp records,
# then a profile comparison per experiment and level; or one of the two
case_ both 1 -b 0 both.pv
case_ both-samples 1 -b 0 --samples both.pv
case_ both-profiles 1 --profiles both.pv
case_ both-versions 1 -b 0 --baseline=v1 --target=v2 both.pv
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

pv-diff -b 0 <"$D/both.pv" >"$T/both-stdin.out" 2>/dev/null
expect_golden "$D/both.out" "$T/both-stdin.out" "both: standard input"
# read again, it compares nothing twice: the same lines, the profile
# comparisons passed on ahead of the cmp records written again
pv-diff -b 0 "$T/both-stdin.out" 2>/dev/null | sort >"$T/both-again.out"
sort "$D/both.out" >"$T/both-sorted.out"
test_cmp "$T/both-sorted.out" "$T/both-again.out" && pass ||
	fail "both: read again"
# stacks of a third version of one experiment and level, with no roles
sed 's/^section\t[a-z]*\t/section\t-\t/' "$D/both.pv" >"$T/noroles.pv"
printf 'section\t-\tv3\tbench\nmeta\tlevel\t1\nstack\tcpu-clock\t1\t1\ta;b\n' \
	>>"$T/noroles.pv"
(cd "$T" && pv-diff --profiles noroles.pv) >/dev/null 2>"$T/third.err"
expect_status 2 "both: a third version" rc_ $?
expect_golden "$D/both-third.err" "$T/third.err" "both: a third version"

# --profiles of samples whose stacks are of one side only: nothing compared
printf 'section\tbaseline\tv1\te\nsample\ts\tt\to\tm\tu\thigher\t-\t1\t-\t1\nstack\tc\t1\t1\ta;b\nsection\ttarget\tv2\te\nsample\ts\tt\to\tm\tu\thigher\t-\t1\t-\t1\n' |
	pv-diff --profiles >/dev/null 2>"$T/oneside.err"
expect_status 2 "both: stacks of one side" rc_ $?
cat >"$T/oneside.want" <<'EOF'
pv-diff: warning: the stacks of experiment 'e' have no target side: no profile comparison of it
pv-diff: no experiment and level has stacks of both sides to compare
EOF
test_cmp "$T/oneside.want" "$T/oneside.err" && pass ||
	fail "both: stacks of one side: message"

# With --jobs=2 two files are read at once, the target in a thread of its
# own, and merged; --jobs=1 (and the default) reads them in turn.  Both give the same bytes, errors
# and warnings included: a bad line of the second input at its line, a
# bad or missing first input before anything of the second, a warning of
# the second, and a tree limit passed where reading in turn passes it.
F=$top_srcdir/tests/data/diff-folded
awk '{ print "x" NR ";" $0 }' "$F/before.txt" "$F/after.txt" \
	"$F/before.txt" >"$T/long.folded"
cp "$F/bad_before.txt" "$T/bad.folded"
printf 'main;a 1\nmain;b 2\nmain;c -3\nmain;d 4\n' >"$T/bad3.folded"
n=0
while read -r env args; do
	n=$((n + 1))
	# shellcheck disable=SC2086
	(cd "$D" && env $env pv-diff -j 2 $args) >"$T/at-once.out" \
		2>"$T/at-once.err"
	s1=$?
	# shellcheck disable=SC2086
	(cd "$D" && env $env pv-diff -j 1 $args) >"$T/in-turn.out" \
		2>"$T/in-turn.err"
	s2=$?
	if [ "$s1" -ne "$s2" ]; then
		fail "at once, in turn ($n: $args): status $s1, $s2"
	else
		pass
	fi
	test_cmp "$T/in-turn.out" "$T/at-once.out" && pass ||
		fail "at once, in turn ($n: $args): stdout"
	test_cmp "$T/in-turn.err" "$T/at-once.err" && pass ||
		fail "at once, in turn ($n: $args): stderr"
done <<EOF
- base.folded target.folded
- --raw -x base.folded target.folded
- groups-base.pv groups-target.pv
- --subsystems=subsystems.map groups-base.pv groups-target.pv
- --function=schedule groups-base.pv groups-target.pv
- roots-base.folded roots-target.folded
- --keep-roots roots-base.folded roots-target.folded
- base.folded target-event.pv
- nostacks.pv base.folded
- $T/long.folded $T/bad3.folded
- $T/bad.folded $T/long.folded
- no-such-file $T/long.folded
- $T/long.folded no-such-file
- base.folded roles.pv
- roles.pv base.folded
PV_TEST_MAX_PATHS=10 base.folded target.folded
PV_TEST_MAX_PATHS=8 base.folded target.folded
PV_TEST_MAX_STACKS=2 base.folded target.folded
PV_TEST_MAX_PATHS=12 $T/long.folded base.folded
EOF
# the error of the second input is said at its line
pv-diff "$T/long.folded" "$T/bad3.folded" >/dev/null 2>"$T/bad3.err"
expect_status 2 "bad line of the second input" rc_ $?
printf 'pv-diff:%s:3: %s\n' "$T/bad3.folded" "not a pv record or a folded stack (count '-3' is not a whole number in range)" >"$T/bad3.want"
test_cmp "$T/bad3.want" "$T/bad3.err" && pass ||
	fail "bad line of the second input: message"

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
