#!/bin/sh
# pv-render --format=diff-folded, text and svg: the inferno diff-folded
# expectations, and golden outputs for tests/data/pv-render.
. "${top_srcdir:-.}/tests/lib.sh"

D=$top_srcdir/tests/data/pv-render
F=$top_srcdir/tests/data/diff-folded
P=$top_srcdir/tests/data/pv-diff

# inferno-diff-folded's results, after sorting lines (its README)
for c in default: normalize:--normalize strip_hex:--strip-hex; do
	name=${c%%:*} o=${c#*:} po= ro=
	case $o in
	--normalize) ro=$o ;;
	--strip-hex) po=$o ;;
	esac
	pv-diff $po "$F/before.txt" "$F/after.txt" >"$T/$name.pv"
	pv-render --format=diff-folded $ro "$T/$name.pv" | sort >"$T/$name"
	sort "$F/$name.txt" >"$T/$name.want"
	if test_cmp "$T/$name.want" "$T/$name"; then
		pass
	else
		fail "diff-folded $name: differs from inferno's $name.txt"
	fi
done

# case NAME STATUS ARG...: run pv-render in $D, compare with NAME.out/.err
case_() {
	name=$1 want=$2
	shift 2
	(cd "$D" && pv-render "$@") >"$T/$name.out" 2>"$T/$name.err"
	got=$?
	if [ "$got" -ne "$want" ]; then
		fail "$name: exit status $got, expected $want"
	else
		pass
	fi
	expect_golden "$D/$name.out" "$T/$name.out" "$name: stdout"
	expect_golden "$D/$name.err" "$T/$name.err" "$name: stderr"
}

case_ diff-folded 0 --format=diff-folded ../pv-diff/folded.out
case_ diff-folded-event 0 --format=diff-folded --event=instructions \
	../pv-diff/roles.out
case_ text 0 --format=text ../pv-diff/roles.out
case_ text-top 0 --format=text --top=2 --color=always ../pv-diff/suffixes.out
case_ text-lines 0 --format=text --top=4 ../diff-folded/default.txt
case_ svg 0 --format=svg --title='A <b> & "c"' stacks.pv
case_ svg-diff 0 --format=svg ../pv-diff/folded.out
case_ svg-merged 0 --format=svg --width=300 --min-width=40 \
	../pv-diff/folded.out
# pv-diff's group tables, and the butterfly view of its path records
case_ text-groups 0 --format=text --top=3 ../pv-diff/groups-maintainers.out
# several comparisons (pv-diff's both: an experiment's levels): a table each
case_ text-comparisons 0 --format=text --top=3 ../pv-diff/both.out
case_ text-function 0 --format=text --function=schedule ../pv-diff/function.out
case_ text-function-absent 2 --format=text --function=get_page \
	../pv-diff/function.out
case_ text-no-diff 2 --format=text stacks.pv
case_ svg-nothing 2 --format=svg ../pv-diff/nostacks.pv
case_ bad-dstack 2 --format=svg bad-dstack.pv
case_ bad-func 2 --format=text bad-func.pv
case_ bad-format 2 --format=png stacks.pv
case_ bad-top 2 --format=text --top=x stacks.pv

# the same differential flame graph from difffolded.pl-style lines
pv-render --format=svg "$F/default.txt" >"$T/lines.svg"
expect_golden "$D/svg-diff.out" "$T/lines.svg" "svg from diff-folded lines"

# the figures recomputed from the dstack records alone are pv-diff's
for f in folded suffixes roles; do
	pv-render --format=text --top=100 "$P/$f.out" >"$T/$f.func" 2>&1
	grep -v '^func' "$P/$f.out" >"$T/$f.dstack"
	pv-render --format=text --top=100 "$T/$f.dstack" >"$T/$f.re" 2>&1
	if test_cmp "$T/$f.func" "$T/$f.re"; then
		pass
	else
		fail "text of $f: func records and dstack records disagree"
	fi
done

# --color=auto on a terminal (script(1) gives one): colours, unless
# NO_COLOR is set and not empty; then as --color=never
if command -v script >/dev/null 2>&1; then
	S=$P/suffixes.out
	for c in always never; do
		script -qec "pv-render -f text --top=2 --color=$c '$S'" \
			/dev/null >"$T/tty.$c"
	done
	script -qec "pv-render -f text --top=2 '$S'" /dev/null >"$T/tty.auto"
	script -qec "NO_COLOR=1 pv-render -f text --top=2 '$S'" /dev/null \
		>"$T/tty.nocolor"
	script -qec "NO_COLOR= pv-render -f text --top=2 '$S'" /dev/null \
		>"$T/tty.emptynocolor"
	if test_cmp "$T/tty.always" "$T/tty.auto" &&
	    test_cmp "$T/tty.always" "$T/tty.emptynocolor" &&
	    test_cmp "$T/tty.never" "$T/tty.nocolor" &&
	    ! cmp -s "$T/tty.always" "$T/tty.never"; then
		pass
	else
		fail "NO_COLOR on a terminal"
	fi
fi

# --help prints the usage of the man page's SYNOPSIS
pv-render --help >"$T/help" || fail "--help: exit status $?"
sed -n '1,3p' "$T/help" >"$T/usage"
cat >"$T/usage.want" <<'USAGE'
usage: pv-render [--format=FORMAT] [--event=EVENT] [--normalize] [--top=N]
                 [--function=NAME] [--color=WHEN] [--title=TEXT]
                 [--width=PX] [--min-width=PX] [--artifacts=DIR] [FILE ...]
USAGE
if test_cmp "$T/usage.want" "$T/usage"; then pass; else fail "--help"; fi

# every SVG is well-formed XML, the hostile names included
if command -v xmllint >/dev/null 2>&1; then
	for f in svg svg-diff svg-merged; do
		if xmllint --noout "$T/$f.out"; then
			pass
		else
			fail "$f: not well-formed XML"
		fi
	done
fi

# a write error is trouble
if [ -w /dev/full ]; then
	expect_status 2 "/dev/full" pv-render --format=svg \
		"$D/stacks.pv" >/dev/full 2>/dev/null
fi

finish
