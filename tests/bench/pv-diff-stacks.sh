#!/bin/sh
# Benchmark (issue 4, section 4): pv-diff of two profiles of 50,000
# distinct stacks each must take at most the time of inferno-diff-folded
# on the same inputs, and its memory must grow with the distinct stacks,
# not with the input.  With $PV_ANCHORS set (issue 12), the pipelines
# pv-diff | pv-render --format=diff-folded and --format=svg must take at
# most the time of inferno-diff-folded (| inferno-flamegraph).  inferno-diff-folded and FlameGraph's difffolded.pl
# are measured when on PATH; otherwise the figure the issue quotes for
# inferno-diff-folded on this machine, 0.11 s, is the anchor.  Every
# test against a measured anchor is on the median of the ratios of
# rounds that time both in turns (median() in stacks-lib.sh).
. "${top_srcdir:-.}/tests/lib.sh"
. "$top_srcdir/tests/bench/stacks-lib.sh"

# the anchors of $PV_ANCHORS first, for the figures of pv-diff alone too
A=${PV_ANCHORS:-}
[ -z "$A" ] || PATH=$A:$PATH

gen_stacks "$T/base" 50000 1
gen_stacks "$T/target" 50000 2 "$T/base"
# the same distinct stacks, each line five times: five times the input
for i in 1 2 3 4 5; do cat "$T/base"; done >"$T/base5"
for i in 1 2 3 4 5; do cat "$T/target"; done >"$T/target5"

echo "pv-diff: two profiles of 50000 distinct stacks" \
	"($(wc -c <"$T/base") + $(wc -c <"$T/target") bytes)"
load_average
anchor=0.11 anchor_name="inferno-diff-folded (quoted in the issue)"
if command -v inferno-diff-folded >/dev/null 2>&1; then
	measure inferno-diff-folded "$T/base" "$T/target"
	printf '  inferno-diff-folded: %s s wall, %s s CPU, %s KiB\n' \
		"$wall" "$cpu" "$rss"
	anchor=$wall anchor_name="inferno-diff-folded (measured)"
fi
if command -v difffolded.pl >/dev/null 2>&1; then
	measure difffolded.pl "$T/base" "$T/target"
	printf '  difffolded.pl: %s s wall, %s s CPU, %s KiB\n' \
		"$wall" "$cpu" "$rss"
fi
measure pv-diff "$T/base" "$T/target"
printf '  pv-diff: %s s wall, %s s CPU, %s KiB peak RSS (best of %s)\n' \
	"$wall" "$cpu" "$rss" "$BENCH_RUNS"
printf '  against %s s: wall x%s, CPU x%s\n' "$anchor" \
	"$(ratio "$wall" "$anchor")" "$(ratio "$cpu" "$anchor")"
pv_wall=$wall pv_cpu=$cpu pv_rss=$rss
measure pv-diff "$T/base5" "$T/target5"
printf '  pv-diff, inputs x5: %s s wall, %s s CPU, %s KiB\n' \
	"$wall" "$cpu" "$rss"

if [ "$anchor_name" = "inferno-diff-folded (measured)" ]; then
	# against the anchor measured here: both in turns, BENCH_RUNS
	# rounds of ten runs a figure, tested on the medians of the rounds'
	# ratios (median() in stacks-lib.sh says why)
	rw= rc=
	r=0
	while [ $r -lt "$BENCH_RUNS" ]; do
		runs 10 'inferno-diff-folded "$1" "$2"' "$T/base" "$T/target"
		aw=$w ac=$c
		runs 10 'pv-diff "$1" "$2"' "$T/base" "$T/target"
		rw="$rw $(ratio3 "$w" "$aw")" rc="$rc $(ratio3 "$c" "$ac")"
		r=$((r + 1))
	done
	printf '  in turns, ten runs a figure: the rounds'"'"' ratios, wall:%s;'\
' CPU:%s\n' "$rw" "$rc"
	# shellcheck disable=SC2086
	at_most "pv-diff wall time against $anchor_name, median of the \
rounds' ratios" "$(median $rw)" 1
	# shellcheck disable=SC2086
	at_most "pv-diff CPU time against $anchor_name, median of the \
rounds' ratios" "$(median $rc)" 1
else
	at_most "pv-diff wall time against $anchor_name" "$pv_wall" "$anchor"
	at_most "pv-diff CPU time against $anchor_name" "$pv_cpu" "$anchor"
fi
# memory bounded by distinct stacks: five times the input, at most 10%
# more memory
at_most "peak RSS, inputs x5 (KiB)" "$rss" \
	"$(awk -v r="$pv_rss" 'BEGIN { printf "%d", r * 1.1 }')"

# Group tables (issue 17): the same pair as pv-parse writes it, stack
# records after a frame record (space, module, source file) for each
# name (folded-frames.awk).  pv-diff with its group records within 1.2x
# of it with --no-groups, and no slower than inferno-diff-folded on the
# folded pair: CPU time of a run, from ten in a row (well above the
# clock's resolution), the three commands in turns for BENCH_RUNS rounds,
# each keeping its best, so that a change of the load falls on all.  Both
# tests are on the median of the rounds' ratios (median() in stacks-lib.sh
# says why); the best of each is shown too.
awk -f "$top_srcdir/tests/bench/folded-frames.awk" "$T/base" >"$T/base.pv"
awk -f "$top_srcdir/tests/bench/folded-frames.awk" "$T/target" >"$T/target.pv"
echo "pv-diff with group records: the pair with" \
	"$(grep -c '^frame' "$T/base.pv") + $(grep -c '^frame' "$T/target.pv")" \
	"frame records, CPU of a run, ten runs a figure"
have_inferno=0
command -v inferno-diff-folded >/dev/null 2>&1 && have_inferno=1
g_cpu= ng_cpu= i_cpu= gi= gng=
r=0
while [ $r -lt "$BENCH_RUNS" ]; do
	runs 10 'pv-diff --no-groups "$1" "$2"' "$T/base.pv" "$T/target.pv"
	ng_cpu=$(least "$ng_cpu" "$c") ngc=$c
	runs 10 'pv-diff "$1" "$2"' "$T/base.pv" "$T/target.pv"
	g_cpu=$(least "$g_cpu" "$c") gc=$c
	gng="$gng $(ratio3 "$gc" "$ngc")"
	if [ $have_inferno = 1 ]; then
		runs 10 'inferno-diff-folded "$1" "$2"' "$T/base" "$T/target"
		i_cpu=$(least "$i_cpu" "$c")
		gi="$gi $(ratio3 "$gc" "$c")"
	fi
	r=$((r + 1))
done
printf '  %s s CPU with groups, %s s with --no-groups (x%s, best of each)\n' \
	"$g_cpu" "$ng_cpu" "$(ratio "$g_cpu" "$ng_cpu")"
printf '  the rounds'"'"' ratios:%s\n' "$gng"
# shellcheck disable=SC2086
at_most "CPU with groups against --no-groups, median of the rounds' \
ratios" "$(median $gng)" 1.2
if [ $have_inferno = 1 ]; then
	printf '  inferno-diff-folded on the folded pair: %s s CPU (x%s, best'\
' of each)\n' "$i_cpu" "$(ratio "$g_cpu" "$i_cpu")"
	printf '  the rounds'"'"' ratios:%s\n' "$gi"
	# shellcheck disable=SC2086
	at_most "CPU with groups against inferno-diff-folded, median of \
the rounds' ratios" "$(median $gi)" 1
fi

# The renderers draw pv-diff's records and compare nothing again: the
# pipelines from the two profiles to diff-folded lines and to a
# differential flame graph against inferno's on the same pair, in the same
# run, wall time (both sides are pipelines of two programs but the first).
# Each figure is the time of ten runs in a row, over ten: the clock's
# 10 ms becomes 1 ms a run, fine enough to tell a few percent.  The four
# commands take turns, BENCH_RUNS rounds, so that a change of the load
# falls on all of them; each keeps its best, and the tests are of the
# medians of the rounds' ratios (median() in stacks-lib.sh says why).
# The anchors are taken
# from $PV_ANCHORS, the directory that holds inferno-diff-folded and
# inferno-flamegraph.
if [ -n "$A" ] && [ -x "$A/inferno-diff-folded" ] &&
    [ -x "$A/inferno-flamegraph" ]; then
	echo "pipelines on the same pair, against \$PV_ANCHORS ($A)," \
		"ten runs a figure:"
	a_df= p_df= a_svg= p_svg= a_dfc= p_dfc= rdf= rsvg=
	r=0
	while [ $r -lt "$BENCH_RUNS" ]; do
		runs 10 '"$1/inferno-diff-folded" "$2" "$3"' \
			"$A" "$T/base" "$T/target"
		a_df=$(least "$a_df" "$w") a_dfc=$(least "$a_dfc" "$c") aw=$w
		runs 10 'pv-diff "$2" "$3" | pv-render --format=diff-folded' \
			"$A" "$T/base" "$T/target"
		p_df=$(least "$p_df" "$w") p_dfc=$(least "$p_dfc" "$c")
		rdf="$rdf $(ratio3 "$w" "$aw")"
		runs 10 '"$1/inferno-diff-folded" "$2" "$3" |
			"$1/inferno-flamegraph"' "$A" "$T/base" "$T/target"
		a_svg=$(least "$a_svg" "$w") aw=$w
		runs 10 'pv-diff "$2" "$3" | pv-render --format=svg' \
			"$A" "$T/base" "$T/target"
		p_svg=$(least "$p_svg" "$w")
		rsvg="$rsvg $(ratio3 "$w" "$aw")"
		r=$((r + 1))
	done
	printf '  inferno-diff-folded: %s s; pv-diff | pv-render '\
'--format=diff-folded: %s s (x%s, best of each)\n' "$a_df" "$p_df" \
		"$(ratio "$p_df" "$a_df")"
	printf '  the rounds'"'"' ratios:%s\n' "$rdf"
	printf '  CPU: inferno-diff-folded %s s; pv-diff | pv-render '\
'--format=diff-folded %s s (x%s)\n' "$a_dfc" "$p_dfc" \
		"$(ratio "$p_dfc" "$a_dfc")"
	printf '  inferno-diff-folded | inferno-flamegraph: %s s; '\
'pv-diff | pv-render --format=svg: %s s (x%s, best of each)\n' \
		"$a_svg" "$p_svg" "$(ratio "$p_svg" "$a_svg")"
	printf '  the rounds'"'"' ratios:%s\n' "$rsvg"
	# shellcheck disable=SC2086
	at_most "diff-folded pipeline wall time against inferno-diff-folded, \
median of the rounds' ratios" "$(median $rdf)" 1
	# shellcheck disable=SC2086
	at_most "svg pipeline wall time against inferno's, median of the \
rounds' ratios" "$(median $rsvg)" 1
else
	echo "pipelines against inferno: skipped (set PV_ANCHORS to the" \
		"directory of inferno-diff-folded and inferno-flamegraph)"
fi
finish
