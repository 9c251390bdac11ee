#!/bin/sh
# pv-collect --profile: the stacks of a program with known hot functions
# (tests/tools/pv-collect-hot, built by make check), their agreement with
# perf record -g + perf script + pv-parse on the same program, kernel frames and
# their _[k] mark, a profile past the stack table's limit, and sampling
# refused for lack of privilege.
#
# Agreement: the share of samples whose leaf is hot_one, hot_two or
# hot_four (truth: 1/7, 2/7, 4/7 of the time) must agree between the two
# samplers within sampling noise.  Each count is binomial, so the
# difference of two independent shares has the standard deviation
# sqrt(p(1-p)(1/n1 + 1/n2)); the tolerance is 4 of those (a false failure
# about once in 16,000 comparisons), plus 0.01 for what differs between
# two runs of a machine shared with other work.  The shares are also held
# against the truth with the same rule.
. "${top_srcdir:-.}/tests/lib.sh"

HOT=$top_builddir/tests/tools/pv-collect-hot
[ -x "$HOT" ] || skip_all "$HOT not built"
cd "$T" || exit 99
TMPDIR=/tmp
export TMPDIR
# perf with a build-id cache of its own, not the user's ~/.debug
PERF="perf --buildid-dir $T/buildid"

pv-collect -p --frequency=999 -r 1 -o pv.out -- "$HOT" 100 2>pv.err
st=$?
if [ $st -eq 2 ] && grep -q 'sampling refused' pv.err; then
	skip_all "sampling refused here: $(cat pv.err)"
fi
if [ $st -eq 0 ]; then pass; else fail "profile: status $st"; cat pv.err >&2; fi

# The hot stacks, user part, as they must be named.
awk -F'\t' '$1 == "stack" { print $5 }' pv.out |
	sed -n 's/^pv-collect-hot;.*;\(main;work;hot_[a-z]*\)$/\1/p' |
	sort -u >hot.got
printf 'main;work;hot_four\nmain;work;hot_one\nmain;work;hot_two\n' \
	>hot.want
if test_cmp hot.want hot.got; then pass; else fail "hot stacks"; fi

# leaf_counts: "count count count total" of the leaf functions hot_one,
# hot_two, hot_four and of all samples, from stack records
leaf_counts() {
	awk -F'\t' '$1 == "stack" {
		n = split($5, f, ";"); c[f[n]] += $3; t += $3
	} END {
		printf "%d %d %d %d\n", c["hot_one"], c["hot_two"], c["hot_four"], t
	}'
}
leaf_counts <pv.out >pv.counts

# share_check NAME "a1 a2 a3 ta" "b1 b2 b3 tb": shares agree within 4 sd
share_check() {
	echo "$2 $3" | awk -v name="$1" '{
		split("hot_one hot_two hot_four", fn, " ")
		bad = ($4 == 0 || $8 == 0)
		for (i = 1; i <= 3; i++) {
			p1 = $i / $4; p2 = $(i + 4) / $8
			p = ($i + $(i + 4)) / ($4 + $8)
			tol = 4 * sqrt(p * (1 - p) * (1 / $4 + 1 / $8)) + 0.01
			d = p1 - p2; if (d < 0) d = -d
			printf "%s: %s %.4f vs %.4f, |d| %.4f, tolerance %.4f\n",
				name, fn[i], p1, p2, d, tol
			if (d > tol) bad = 1
		}
		exit bad
	}'
}

# Against the truth: shares among the hot samples, as if from a large n.
set -- $(cat pv.counts)
hot=$(($1 + $2 + $3))
if [ "$hot" -lt 300 ]; then
	fail "too few samples of the hot functions ($hot)"
elif share_check truth "$1 $2 $3 $hot" "1000000 2000000 4000000 7000000" \
	>&2; then
	pass
else
	fail "shares of pv-collect against 1:2:4"
fi

if command -v perf >/dev/null 2>&1 &&
	$PERF record -q -g -F 999 -o perf.data -- "$HOT" 100 >/dev/null \
	2>perf.err; then
	# the same program through perf script and pv-parse
	$PERF script -i perf.data 2>/dev/null | pv-parse | leaf_counts \
		>perf.counts
	if share_check agreement "$(cat pv.counts)" "$(cat perf.counts)" >&2
	then
		pass
	else
		fail "pv-collect and perf record -g disagree"
	fi
else
	printf 'SKIP: agreement with perf: perf record cannot run here\n' >&2
fi

# Kernel frames: names from /proc/kallsyms, marked _[k] with --kernel only.
pv-collect -p --kernel --frequency=999 -r 1 -o k.out -- \
	dd if=/dev/zero of=/dev/null bs=1 count=100000 2>k.err
awk -F'\t' '$1 == "stack" { n = split($5, f, ";");
	for (i = 2; i <= n; i++) print f[i] }' k.out | sort -u >k.frames
grep '_\[k\]$' k.frames | sed 's/_\[k\]$//' >k.kernel
if [ -s k.kernel ]; then pass; else fail "no kernel frames marked _[k]"; fi
if [ "$(awk '$2 != "0000000000000000" { n++ } END { print n + 0 }' \
	/proc/kallsyms)" -gt 0 ]; then
	awk '{ print $3 }' /proc/kallsyms | sort -u >kallsyms.names
	grep -v '^\[kernel.kallsyms\]$' k.kernel | sort -u >k.named
	comm -23 k.named kallsyms.names >k.unknown
	if [ -s k.named ] && [ ! -s k.unknown ]; then pass; else
		fail "kernel frames not in /proc/kallsyms: $(head -3 k.unknown)"
	fi
fi
pv-collect -p --frequency=999 -r 1 -o nok.out -- \
	dd if=/dev/zero of=/dev/null bs=1 count=50000 2>/dev/null
if grep -q '^stack.*_\[k\]' nok.out; then fail "_[k] without --kernel"
else pass; fi
pv-collect -p --user-only --kernel --frequency=999 -r 1 -o user.out -- \
	dd if=/dev/zero of=/dev/null bs=1 count=50000 2>/dev/null
if grep -q '^stack.*_\[k\]' user.out; then fail "kernel frames with --user-only"
elif grep -q '^stack' user.out; then pass
else fail "no stacks with --user-only"; fi

# Events: task-clock samples under its own name; a hardware event the
# machine does not count is trouble (exit 2) with a clear message.
pv-collect -p --event=task-clock --frequency=999 -r 1 -o task.out -- \
	"$HOT" 20 2>/dev/null
if grep -q '^stack	task-clock	.*hot_four$' task.out; then pass
else fail "task-clock stacks"; fi
pv-collect -p --event=cycles -r 1 -o cycles.out -- true 2>cycles.err
st=$?
if [ $st -eq 0 ]; then
	pass	# this machine counts cycles
else
	printf 'pv-collect: event '"'cycles'"' is not supported here: %s\n' \
		"$(sed -n 's/.*here: \(.*\) (cpu-clock always is)$/\1/p' \
		cycles.err) (cpu-clock always is)" >cycles.want
	if [ $st -eq 2 ] && [ ! -e cycles.out ]; then pass
	else fail "cycles unsupported: status $st"; fi
	expect_golden cycles.want cycles.err cycles-stderr
fi

# More distinct stacks than the stack table holds (its limit lowered by
# PV_TEST_MAX_STACKS): trouble, with the message, and no output file.
PV_TEST_MAX_STACKS=1 pv-collect -p --frequency=999 -r 1 -o many.out -- \
	"$HOT" 20 2>many.err
st=$?
echo 'pv-collect: too many distinct stacks (more than 1)' >many.want
if [ $st -eq 2 ] && [ ! -e many.out ]; then pass
else fail "too many stacks: status $st"; fi
expect_golden many.want many.err too-many-stacks-stderr

# Refused: an unprivileged user at perf_event_paranoid 2 (not changed
# here: a test must not lower the machine's guard for others).
par=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null)
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null &&
	[ -n "$par" ] && [ "$par" -ge 2 ]; then
	TOOL=$(command -v pv-collect)
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		"$TOOL" -p -- true >refused.out 2>refused.err
	st=$?
	cat >refused.want <<EOF
pv-collect: sampling refused: perf_event_paranoid is $par; kernel call chains need it at 1 or less (sysctl kernel.perf_event_paranoid=1) or CAP_PERFMON; --user-only samples without them at 2
EOF
	if [ $st -eq 2 ]; then pass; else fail "refused: status $st"; fi
	expect_golden refused.want refused.err refused-stderr
	if [ -s refused.out ]; then fail "output after refusal"; else pass; fi
	# the program sampled must be reachable by nobody: a build tree in
	# a directory of mode 700 (mktemp -d) is not, so it runs from a
	# copy in a directory of mode 755
	hot=$HOT hotdir=
	if ! setpriv --reuid=65534 --regid=65534 --clear-groups \
	    --inh-caps=-all sh -c 'test -x "$1"' sh "$HOT"; then
		hotdir=$(mktemp -d "${TMPDIR:-/tmp}/pv-hot.XXXXXX") &&
			chmod 755 "$hotdir" && cp "$HOT" "$hotdir/" &&
			hot=$hotdir/${HOT##*/}
	fi
	if [ "$par" -eq 2 ] && setpriv --reuid=65534 --regid=65534 \
	    --clear-groups --inh-caps=-all sh -c 'test -x "$1"' sh "$hot"
	then
		setpriv --reuid=65534 --regid=65534 --clear-groups \
			--inh-caps=-all "$TOOL" -p --user-only \
			--frequency=999 -r 1 -- "$hot" 20 >nobody.out \
			2>nobody.err
		st=$?
		if [ $st -eq 0 ] && grep -q '^stack.*hot_four' nobody.out
		then pass
		else fail "--user-only unprivileged: status $st"; fi
	elif [ "$par" -eq 2 ]; then
		printf 'SKIP: nobody reaches no copy of %s\n' "$HOT" >&2
	fi
	if [ -n "$hotdir" ]; then rm -rf "$hotdir"; fi
else
	printf 'SKIP: refusal test needs root, setpriv, paranoid >= 2\n' >&2
fi

finish
