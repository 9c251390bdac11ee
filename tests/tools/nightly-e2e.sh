#!/bin/sh
# The nightly path end to end, on pv's own data: three nights of a real
# matrix (stress-ng and sysbench from Debian, levels 1 and 2, five runs,
# profiled) collected with pv-collect, stored with pv-store under three
# builds of one distribution kernel, each paired with its baseline by
# pv-store's rule and classified as examples/nightly.sh does.
#
#   night 1 (6.1.0-26-amd64) and night 2 (6.1.0-27-amd64): night 2
#   against night 1 finds nothing, exit 0;
#   night 3 (6.1.0-28-amd64), slowed at every level, by a CPU bandwidth
#   limit on the collection (cgroup v2 cpu.max, or cgroup v1's
#   cpu.cfs_quota_us where the cpu controller is only there) where one
#   can be made, else by a co-runner (stress-ng --cpu): night 3 against
#   night 2 is exit 1 under the default --fail-on, with its systematic
#   regressions in the text summary, a JUnit report valid against
#   junit-10.xsd, a JSON document valid against its schema and the HTML
#   report.
#
# Nights 1 and 2 are the A/A check, so they are collected in turns:
# after a warmup collection that is not kept, ten collections of one run
# a level, night 1's and night 2's alternating (1 2 2 1 1 2 2 1 1 2); a
# night is its five concatenated, which pv-stat merges.  A machine that
# changes under the test for some seconds (a neighbour's burst, steal,
# vCPUs packed on one core: in one CI run all five level-2 runs of night
# 2 lost 40 %, at a load average below 3) then slows runs of both nights
# alike, noise rather than a change between them.  Night 3 is collected
# in the same shape (pv-diff compares only collections of one shape).
#
# A shared machine's load makes wall-clock throughputs unstable (a robust
# CV past pv-classify's 10 %, so Uncertain by its rules), so where the
# test may (root) it collects at nice -20, the co-runner with it: the
# nights are then measured as on a quiet machine.
#
# Skips (77) without stress-ng or sysbench, or where sampling is refused.
# About two minutes.  The A/A check (night 2) is not asserted where the
# load average passed twice the CPUs plus one during nights 1 and 2, nor
# the systematic group of night 3 where it did so during nights 1 to 3
# (slowed by the cgroup; a co-runner loads the machine by design).  It
# runs alone under make -j: the other tests wait (tests/lib.sh).
pv_test_alone=1
. "${top_srcdir:-.}/tests/lib.sh"

for t in stress-ng sysbench; do
	command -v $t >/dev/null 2>&1 || skip_all "$t not installed"
done
cd "$T" || exit 99
unset PV_STORE
pv-collect -p -r 1 -o probe.pv -- true 2>probe.err
if [ $? -eq 2 ]; then
	skip_all "sampling refused here: $(cat probe.err)"
fi

# collect DIR LABEL [OPTION ...]: the matrix into DIR/stress-ng.pv and
# DIR/sysbench.pv, with pv-collect's OPTIONs (words without blanks)
collect() {
	dir=$1 label=$2
	shift 2
	opts=$*
	mkdir -p "$dir" || return 2
	for b in stress-ng sysbench; do
		case $b in
		stress-ng) set -- --parser=stress-ng -- stress-ng \
			--cpu '{N}' --cpu-method=int64 --timeout 1s \
			--metrics-brief ;;
		sysbench) set -- --parser=sysbench -- sysbench cpu \
			--threads='{N}' --time=1 run ;;
		esac
		# shellcheck disable=SC2086
		$prio pv-collect -p --frequency=99 --concurrency=1,2 \
			--timeout=60 --artifacts="$dir/art" --role=target \
			--label="$label" $opts -o "$dir/$b.pv" "$@" \
			2>>"$dir/collect.err" || return $?
	done
}

# night DIR PART ...: DIR/night.pv.gz, the PARTs' collections in turn
night() {
	d=$1
	shift
	for b in stress-ng sysbench; do
		for p; do cat "$p/$b.pv" || return 2; done
	done >"$d/night.pv" && gzip -n "$d/night.pv"
}

# Collections run at the highest priority the test may give.
prio=
if nice -n -20 true 2>/dev/null; then
	prio="nice -n -20"
fi

# The slowdown of night 3: 20 % of one CPU for the collection, by a
# cgroup v2 with cpu.max where the cpu controller can be enabled, else by
# a cgroup v1 cpu hierarchy's CFS quota; else a co-runner of eight CPU
# hogs for the time of the collection.
cgroup=
for root in /sys/fs/cgroup /sys/fs/cgroup/unified; do
	[ "$(stat -fc %T "$root" 2>/dev/null)" = cgroup2fs ] || continue
	grep -qw cpu "$root/cgroup.controllers" 2>/dev/null || continue
	grep -qw cpu "$root/cgroup.subtree_control" 2>/dev/null ||
		echo +cpu >"$root/cgroup.subtree_control" 2>/dev/null ||
		continue
	cg=$root/pv-nightly-e2e.$$
	mkdir "$cg" 2>/dev/null || continue
	if echo '20000 100000' >"$cg/cpu.max" 2>/dev/null; then
		cgroup=$cg how="cgroup v2 cpu.max"
		break
	fi
	rmdir "$cg"
done
if [ -z "$cgroup" ]; then
	for root in /sys/fs/cgroup/cpu /sys/fs/cgroup/cpu,cpuacct; do
		[ "$(stat -fc %T "$root" 2>/dev/null)" = cgroupfs ] || continue
		[ -f "$root/cpu.cfs_quota_us" ] || continue
		cg=$root/pv-nightly-e2e.$$
		mkdir "$cg" 2>/dev/null || continue
		if echo 100000 >"$cg/cpu.cfs_period_us" 2>/dev/null &&
		    echo 20000 >"$cg/cpu.cfs_quota_us" 2>/dev/null; then
			cgroup=$cg how="cgroup v1 cpu.cfs_quota_us"
			break
		fi
		rmdir "$cg"
	done
fi

# the highest one-minute load average seen while nights are collected
# (read every second by a sampler in the background): past twice the
# CPUs (plus one) others load the machine, which a wall-clock throughput
# measures as a change between nights that no kernel made
maxload=0 sampler=
start_sampler() {
	(while :; do head -c 8 /proc/loadavg 2>/dev/null; echo; sleep 1
	done) >>"$T/loads" &
	sampler=$!
}
stop_sampler() {
	[ -z "$sampler" ] && return
	kill "$sampler" 2>/dev/null
	wait "$sampler" 2>/dev/null
	sampler=
}
sample_load() {
	head -c 8 /proc/loadavg >>"$T/loads" 2>/dev/null; echo >>"$T/loads"
	maxload=$(awk -v m="$maxload" '$1 + 0 > m + 0 { m = $1 }
		END { print m }' "$T/loads")
}
trap 'stop_sampler; rm -rf "$T"; [ -n "$cgroup" ] && rmdir "$cgroup" 2>/dev/null' EXIT
ncpu=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)

# night 3: a warmup and five collections of a run, as nights 1 and 2
collect3() {
	for i in w 1 2 3 4 5; do
		collect n3/p$i 6.1.0-28-amd64 --repeat=1 || return $?
	done
	night n3 n3/p1 n3/p2 n3/p3 n3/p4 n3/p5
}

# nights 1 and 2 in turns, after a warmup that is not kept
start_sampler
s1=0 s2=0
collect n1/pw 6.1.0-26-amd64 --repeat=1 || s1=$?
for i in 1 2 3 4 5 6 7 8 9 10; do
	case $i in 1|4|5|8|9) n=1 ;; *) n=2 ;; esac
	collect n$n/p$i 6.1.0-2$((5 + n))-amd64 --repeat=1 || eval "s$n=\$?"
done
sample_load
if [ $s1 -eq 0 ] && [ $s2 -eq 0 ]; then pass; else
	fail "nights 1 and 2: pv-collect status $s1, $s2"
	cat n1/*/collect.err n2/*/collect.err >&2
	finish
fi
night n1 n1/p1 n1/p4 n1/p5 n1/p8 n1/p9
night n2 n2/p2 n2/p3 n2/p6 n2/p7 n2/p10
# night 3, slowed
if [ -n "$cgroup" ]; then
	# a subshell joins the cgroup (sh's $PPID is its pid), its runs
	# with it
	(sh -c 'echo $PPID' >"$cgroup/cgroup.procs" &&
		collect3)
	s3=$?
	sample_load
	stop_sampler
else
	stop_sampler
	how="co-runner"
	$prio stress-ng --cpu 8 --timeout 600s >/dev/null 2>&1 &
	hog=$!
	sleep 1
	collect3
	s3=$?
	kill $hog
	wait $hog 2>/dev/null
fi
if [ $s3 -eq 0 ]; then pass; else
	fail "night 3 ($how): pv-collect status $s3"; cat n3/*/collect.err >&2
fi

export PV_STORE=$T/store
pv-store init >/dev/null || fail "pv-store init"
for n in 1 2 3; do
	pv-store add --version "6.1.0-$((25 + n))-amd64" "n$n/night.pv.gz" \
		>/dev/null || fail "pv-store add night $n"
done

# classify NIGHT RELEASE: pair with the baseline by the rule, then down
# the pipeline as examples/nightly.sh goes; the status of pv-classify
classify() {
	d=$1 rel=$2
	base=$(pv-store baseline "$rel") || { echo 2; return; }
	echo "$base" >"$d/baseline"
	pv-store pair --baseline="$base" "$rel" >"$d/pair.pv" &&
	pv-stat "$d/pair.pv" >"$d/stat.pv" &&
	pv-diff --samples -i 'env.kernel-config-*' -i 'env.vulnerability.*' \
		"$d/stat.pv" >"$d/cmp.pv" 2>"$d/diff.err"
	st=$?
	[ $st -le 1 ] || { cat "$d/diff.err" >&2; echo 2; return; }
	pv-classify "$d/cmp.pv" >"$d/verdicts.pv"
	st=$?
	pv-render --format=text "$d/verdicts.pv" >"$d/summary.txt"
	pv-render --format=junit "$d/verdicts.pv" >"$d/junit.xml"
	pv-render --format=json "$d/verdicts.pv" >"$d/verdicts.json"
	pv-diff --profiles "$d/pair.pv" 2>/dev/null |
		pv-render --format=html >"$d/report.html"
	echo $st
}

# night 2 against night 1: nothing
st=$(classify n2 6.1.0-27-amd64)
# what it found, for the log
sed -n '1,2p' n2/summary.txt | sed 's/^/night 2 against night 1: /' >&2
echo 6.1.0-26-amd64 >want
if test_cmp want n2/baseline; then pass; else fail "night 2's baseline"; fi
if [ "$st" = 0 ]; then pass
elif [ "$st" = 1 ] && awk -v l="$maxload" -v n="$ncpu" \
    'BEGIN { exit !(l > 2 * n + 1) }'; then
	# not asserted: the machine, not the kernel, changed between nights
	echo "night 2 against night 1: exit 1 at a load average of" \
		"$maxload on $ncpu CPUs; not checked" >&2
	pass
else
	fail "night 2 against night 1: exit $st, expected 0"
	sed -n '1,40p' n2/summary.txt >&2
fi

# night 3 against night 2: a regression at every level, systematic
st=$(classify n3 6.1.0-28-amd64)
echo 6.1.0-27-amd64 >want
if test_cmp want n3/baseline; then pass; else fail "night 3's baseline"; fi
if [ "$st" = 1 ]; then pass; else
	fail "night 3 ($how) against night 2: exit $st, expected 1"
	sed -n '1,40p' n3/summary.txt >&2
fi
# the systematic groups: at least one (on a quiet machine both benchmarks'
# throughputs; on a noisy one an unstable key is Uncertain, by the rules),
# each printed in the text summary as its record says
awk -F'\t' '$1 == "systematic" && $13 == "1,2" { print $5, $6, $7, $8 }' \
	n3/verdicts.pv | sort -u >sys.keys
sed -n '/^Systematic regressions/,/^$/p' n3/summary.txt |
	awk '/^  [^ ]/ { print $1, $2, $3, $4 }' | sort -u >sys.got
if [ -s sys.keys ] && test_cmp sys.keys sys.got; then pass
elif [ ! -s sys.keys ] && [ ! -s sys.got ] && awk -v l="$maxload" \
    -v n="$ncpu" 'BEGIN { exit !(l > 2 * n + 1) }'; then
	# not asserted: others' load made every level's throughput unstable
	echo "night 3: no systematic group at a load average of $maxload" \
	    "on $ncpu CPUs; not checked" >&2
	pass
else
	fail "night 3: no systematic regression printed"
	cat n3/summary.txt >&2
fi
# the reports: JUnit (Jenkins' schema), JSON (its schema), HTML
if command -v xmllint >/dev/null 2>&1; then
	for n in n2 n3; do
		if xmllint --noout --schema "$top_srcdir/tests/junit-10.xsd" \
			"$n/junit.xml" 2>"$n/xmllint.err"; then pass; else
			fail "$n: JUnit not valid"; cat "$n/xmllint.err" >&2; fi
	done
fi
# a JUnit failure for each regression
awk -F'\t' '$1 == "verdict" && $12 == "regression"' n3/verdicts.pv |
	wc -l >regs
grep -c '<failure type="regression"' n3/junit.xml >fails
if [ "$(cat regs)" -ge 1 ] && test_cmp regs fails; then pass; else
	fail "night 3: $(cat fails) JUnit failures, $(cat regs) regressions"; fi
if python3 -c 'import jsonschema' 2>/dev/null; then
	for n in n2 n3; do
		if python3 - "$top_srcdir/man/pv-render-json.schema.json" \
			"$n/verdicts.json" <<'PY'
import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[2], encoding="utf-8")),
                    json.load(open(sys.argv[1])))
PY
		then pass; else fail "$n: JSON not valid against its schema"; fi
	done
	# its systematic groups are the records'
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
for k in sorted({(s["suite"], s["test"], s["operation"], s["metric"])
                 for s in d["systematic"] if s["level_list"] == [1, 2]}):
    print(*k)' n3/verdicts.json >json.sys
	test_cmp sys.keys json.sys && pass ||
		fail "night 3: the JSON's systematic groups"
fi
for n in n2 n3; do
	if grep -q '<title>' "$n/report.html" &&
	    grep -q 'Differential' "$n/report.html"; then pass; else
		fail "$n: no HTML report"; fi
done
finish
