#!/bin/sh
# pv-collect: the run matrix (interleaved order, artifacts, failed runs),
# env records from a fake system tree (unavailable where unreadable),
# interruption, options and errors.  Timings vary from run to run: the
# golden files hold the output with the measured numbers replaced by X.
. "${top_srcdir:-.}/tests/lib.sh"

D=$top_srcdir/tests/data/pv-collect
cd "$T" || exit 99

# A fake system: what pv-collect reads from /proc and /sys, some missing.
R=$T/root
mkdir -p "$R/proc/sys/kernel" "$R/sys/devices/system/node" \
	"$R/sys/devices/system/cpu/vulnerabilities" \
	"$R/sys/devices/system/cpu/smt" "$R/boot"
printf '6.99.0-test\n' >"$R/proc/sys/kernel/osrelease"
printf '#1 SMP PREEMPT_DYNAMIC Thu Jan  1 00:00:00 UTC 2026\n' \
	>"$R/proc/sys/kernel/version"
printf 'x86_64\n' >"$R/proc/sys/kernel/arch"
printf 'testhost\n' >"$R/proc/sys/kernel/hostname"
printf 'BOOT_IMAGE=/vmlinuz root=/dev/sda1 mitigations=off\n' \
	>"$R/proc/cmdline"
printf 'MemTotal:       16315000 kB\nMemFree:  1 kB\n' >"$R/proc/meminfo"
for c in 0 1 2 3; do
	mkdir -p "$R/sys/devices/system/cpu/cpu$c/topology" \
		"$R/sys/devices/system/cpu/cpu$c/cpufreq"
	printf '%d\n' $((c / 2)) \
		>"$R/sys/devices/system/cpu/cpu$c/topology/physical_package_id"
	printf '%d\n' $((c % 2)) \
		>"$R/sys/devices/system/cpu/cpu$c/topology/core_id"
	printf 'performance\n' \
		>"$R/sys/devices/system/cpu/cpu$c/cpufreq/scaling_governor"
	printf 'acpi-cpufreq\n' \
		>"$R/sys/devices/system/cpu/cpu$c/cpufreq/scaling_driver"
	printf 'processor\t: %d\nmodel name\t: Test CPU @ 2.00GHz\n\n' $c \
		>>"$R/proc/cpuinfo"
done
printf 'powersave\n' >"$R/sys/devices/system/cpu/cpu3/cpufreq/scaling_governor"
printf 'off\n' >"$R/sys/devices/system/cpu/smt/control"
printf '0-1\n' >"$R/sys/devices/system/node/online"
printf 'Mitigation: PTI\n' >"$R/sys/devices/system/cpu/vulnerabilities/meltdown"
printf 'Vulnerable\n' \
	>"$R/sys/devices/system/cpu/vulnerabilities/spec_store_bypass"
printf 'Not affected\n' >"$R/sys/devices/system/cpu/vulnerabilities/mds"
# unreadable even for root: a directory where a file is expected
mkdir "$R/sys/devices/system/cpu/vulnerabilities/retbleed"
printf '# comment\nCONFIG_A=y\n# CONFIG_B is not set\nCONFIG_C="x"\n' |
	gzip >"$R/proc/config.gz"
printf 'CONFIG_A=m\nCONFIG_B=y\nCONFIG_C="x"\nCONFIG_D=1\n' >ref.config
PV_COLLECT_SYSROOT=$R
export PV_COLLECT_SYSROOT

# Replace what is measured (times, sizes, the start times) by X, and the
# start time in the name of the directory of artifacts by TIME.
normalize() {
	sed -e 's/\(wall\|user\|sys\|maxrss\)=[0-9.]*/\1=X/g' \
	    -e 's/^\(sample\t.*\t\)[-0-9.e]*$/\1X/' \
	    -e 's/^\(meta\tstarted\t\).*/\1X/' \
	    -e 's/^\(meta\tartifacts\t.*-\)[0-9]\{8\}T[0-9]\{6\}Z/\1TIME/' \
	    -e 's/^\(runstart\t[0-9]*\t[0-9]*\t\)[0-9.]*$/\1X/'
}

# 1. The matrix: two levels, a warmup and two runs, in interleaved order;
# artifacts in a directory of the collection's own (meta artifacts),
# named after level, kind and number.
expect_status 0 matrix pv-collect -w 1 -r 2 -c 1,4 -a art --role baseline \
	--meta nightly=yes --config-ref ref.config \
	-- sh -c 'echo "level {N}" >>order.log; echo out{N}; echo err{N} >&2' \
	>matrix.raw 2>matrix.err
normalize <matrix.raw >matrix.out
expect_golden "$D/matrix.out" matrix.out matrix
expect_golden "$D/empty" matrix.err matrix-stderr
printf 'level 1\nlevel 4\nlevel 1\nlevel 4\nlevel 1\nlevel 4\n' >order.want
if test_cmp order.want order.log; then pass; else fail "interleaved order"; fi
# each measured run's order in the collection, and its start time, later
# than the run before's
awk -F'\t' '$1 == "runstart" { print $3, $4 }' matrix.raw | sort -n |
	awk 'NR > 1 && $2 < last { bad = 1 } { last = $2; n++ }
	     END { print n, bad ? "backwards" : "in order" }' >starts.got
printf '4 in order\n' >starts.want
if test_cmp starts.want starts.got; then pass; else fail "run start times"; fi
adir=$(awk -F'\t' '$2 == "artifacts" { print $3; exit }' matrix.raw)
(cd "$adir" && for f in *; do printf '%s: ' "$f"; cat "$f"; done) >art.out
expect_golden "$D/artifacts.out" art.out artifacts
ls art | wc -l >art.count
echo 1 >one
if test_cmp one art.count; then pass; else fail "artifacts: one directory"; fi

# 1b. The directory of artifacts used again by the same plan (the next
# night): a directory of its own for the new collection, the first
# collection's files as they were.
X=first pv-collect -r 1 -c 1,4 -a art2 -- sh -c 'echo ${X}{N}' >reuse1.raw
X=second pv-collect -r 1 -c 1,4 -a art2 -- sh -c 'echo ${X}{N}' >reuse2.raw
d1=$(awk -F'\t' '$2 == "artifacts" { print $3; exit }' reuse1.raw)
d2=$(awk -F'\t' '$2 == "artifacts" { print $3; exit }' reuse2.raw)
cat "$d1/level-1-run-001.stdout" "$d1/level-4-run-001.stdout" \
	"$d2/level-1-run-001.stdout" "$d2/level-4-run-001.stdout" >reuse.got
printf '%s\n' first1 first4 second1 second4 >reuse.want
if [ "$d1" != "$d2" ] && test_cmp reuse.want reuse.got; then pass; else
	fail "artifacts of a directory used again: '$d1', '$d2'"; fi

# 2. The same plan again gives the same experiment identity, whatever its
# levels: one identity for all of them (the level is a field of the
# samples' key); another command, another identity.
pv-collect -r 1 -c 4 -- sh -c \
	'echo "level {N}" >>order.log; echo out{N}; echo err{N} >&2' \
	>again.out 2>&1
a=$(awk -F'\t' '$1 == "section" { print $4 }' again.out)
b=$(awk -F'\t' '$1 == "section" { print $4 }' matrix.raw | tail -1)
if [ "$a" = "$b" ]; then pass; else fail "experiment identity: $a != $b"; fi
awk -F'\t' '$1 == "section" { print $4 }' matrix.raw | sort -u | wc -l \
	>ids.count
if test_cmp one ids.count; then pass; else fail "an identity a level"; fi
pv-collect -r 1 -- true >other.out 2>&1
a=$(awk -F'\t' '$1 == "section" { print $4 }' other.out)
if [ "$a" != "$b" ]; then pass; else
	fail "another command, the same identity $a"; fi

# 2c. A regression planted at every level (19 %, the runs' spread 0.4 %)
# is one systematic regression: the levels are compared as one set.
cmd='n=$(($(cat n 2>/dev/null || echo 0) + 1)); echo $n >n; awk -v n=$n -v f=$F "BEGIN { split(\"1000 1004 998 1002 996 1001 999 1003 997 1000\", j, \" \"); printf \"bench/ops/throughput %.1f ops/s higher\n\", j[n] * f }"'
F=1 pv-collect -r 5 -c 1,2 --parser=generic --role=baseline --label=v1 \
	-o lv-base.pv -- sh -c "$cmd" 2>lv.err
rm -f n
F=0.81 pv-collect -r 5 -c 1,2 --parser=generic --role=target --label=v2 \
	-o lv-target.pv -- sh -c "$cmd" 2>>lv.err
expect_status 1 levels-systematic sh -c 'cat lv-base.pv lv-target.pv |
	pv-stat | pv-diff | pv-classify >lv.out'
awk -F'\t' '$1 == "systematic" || $1 == "verdict" {
	print $1, $2, $3, $5, $6, $7, $8, $11, $12, $13, $14 }' lv.out >lv.got
cat >lv.want <<'EOF'
verdict v1 v2 generic bench ops throughput 1 regression 100 red
verdict v1 v2 generic bench ops throughput 2 regression 100 red
systematic v1 v2 generic bench ops throughput 2 2 1,2 2
EOF
if test_cmp lv.want lv.got && test_cmp /dev/null lv.err; then pass; else
	fail "a regression at every level is not systematic"; fi

# 2b. --source: the commit, branch and state of a git tree (made here
# with fixed dates, so its commit is always the same), the commit as the
# section's version; --label and --experiment override.
if command -v git >/dev/null 2>&1; then
	git init -q -b main src && (
		cd src && printf 'x\n' >f && git add f &&
		GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' \
		GIT_COMMITTER_DATE='2026-01-01T00:00:00Z' \
		git -c user.name=pv -c user.email=pv@example.org \
			commit -q -m one && printf 'y\n' >f)
	pv-collect -r 1 --source src -- true >src.raw 2>&1
	pv-collect -r 1 --source src --label v1 --experiment plan-a \
		--role target -- true >>src.raw 2>&1
	pv-collect -r 1 --source none -- true >>src.raw 2>&1
	grep -E '^(section|meta	source)' src.raw >src.out
	expect_golden "$D/source.out" src.out source
fi

# 3. A failing run is recorded as failed, never as a measurement: exit 1.
expect_status 1 failed pv-collect -r 2 -c 1,2 -o failed.raw \
	-- sh -c 'test {N} -ne 2' 2>failed.err
normalize <failed.raw | grep -v '^env' >failed.out
expect_golden "$D/failed.out" failed.out failed
expect_golden "$D/failed.err" failed.err failed-stderr

# 3b. --timeout: a run that hangs is ended (TERM) at its timeout and
# recorded as timed out; the collection goes on, exit 1.  One that ignores
# TERM gets KILL after the grace time.
expect_status 1 timeout pv-collect -r 2 --timeout=0.5 -o timeout.raw \
	-- sh -c 'sleep 60' 2>timeout.err
normalize <timeout.raw | grep '^meta	run	' >timeout.out
printf 'meta\trun\t%s timed out after 0.5 s wall=X user=X sys=X maxrss=X\n' \
	1 2 >timeout.want
if test_cmp timeout.want timeout.out; then pass; else fail "timed out runs"; fi
expect_golden "$D/timeout.err" timeout.err timeout-stderr
start=$(date +%s)
expect_status 1 timeout-deaf pv-collect -r 1 --timeout=0.2 -o deaf.raw \
	-- sh -c "trap '' TERM; sleep 60" 2>/dev/null
if [ $(($(date +%s) - start)) -lt 30 ]; then pass; else
	fail "a run ignoring TERM was not killed"; fi

# 3c. A daemon started by a run (setsid, its parent gone) does not outlive
# the run: pv-collect is the subreaper of its runs and ends every process
# they leave (TERM, then KILL), with a warning; the run itself is ok.
# (setsid execs sleep; the subshell has started its sleep when it exits)
expect_status 0 leftover pv-collect -r 1 -o left.raw -- sh -c \
	'setsid sleep 60 </dev/null >/dev/null 2>&1 & echo $! >daemon.pid
	 (sleep 60 </dev/null >/dev/null 2>&1 &)' 2>left.err
normalize <left.raw | grep '^meta	run	' >left.out
printf 'meta\trun\t1 ok left=2 wall=X user=X sys=X maxrss=X\n' >left.want
if test_cmp left.want left.out; then pass; else fail "leftover count"; fi
expect_golden "$D/leftover.err" left.err leftover-stderr
if kill -0 "$(cat daemon.pid)" 2>/dev/null; then
	fail "the daemon outlived its run"; kill "$(cat daemon.pid)"
else
	pass
fi

# 4. Interrupted: the runs done are written, marked incomplete, and
# pv-collect ends by the signal (SIGINT: status 130 in the shell).
# A SIGINT before pv-collect's handler is lost (ignored in a background
# job), and a loaded machine or valgrind may take seconds to start it: the
# signal goes when the third run has begun (a sleep that notes its runs),
# so two are done, whatever the load.
mkdir -p bin
printf '#!/bin/sh\necho >>"%s/runs.log"\nexec /bin/sleep "$@"\n' "$T" \
	>bin/sleep
chmod +x bin/sleep
: >runs.log
pv-collect -r 1000 -o int.raw -- "$T/bin/sleep" 0.1 2>int.err &
pid=$!
i=0
while [ "$(wc -l <runs.log)" -lt 3 ] && [ $i -lt 1200 ]; do
	sleep 0.1
	i=$((i + 1))
done
kill -INT $pid
wait $pid
st=$?
if [ $st -eq 130 ]; then pass; else fail "interrupted: status $st"; fi
grep -c '^meta	collection	incomplete$' int.raw >int.count
printf '1\n' >one
if test_cmp one int.count; then pass; else fail "incomplete mark"; fi
ok=$(awk -F'\t' '$2 == "runs-ok" { print $3 }' int.raw)
ns=$(grep -c '^sample	pv-collect	sleep	run	wall-time' int.raw)
if [ "$ok" -ge 2 ] && [ "$ok" -lt 1000 ] && [ "$ns" -eq "$ok" ]; then
	pass
else
	fail "interrupted: runs-ok '$ok', wall-time samples $ns"
fi
sed 's/after [0-9]* of/after N of/' int.err >int.err2
expect_golden "$D/interrupted.err" int.err2 interrupted-stderr

# 5. Trouble: exit 2, no output file.
expect_status 2 no-command pv-collect -r 1 -o none.out \
	-- /nonexistent/command 2>missing.err
expect_golden "$D/missing.err" missing.err missing-stderr
if [ -e none.out ]; then fail "output written after trouble"; else pass; fi
# ... and no temporary directory left behind (nor a temporary output)
mkdir tmp
TMPDIR=$T/tmp pv-collect -r 1 -o none.out -- /nonexistent/command \
	2>/dev/null
TMPDIR=$T/tmp pv-collect -r 1 -- true >/dev/full 2>/dev/null
ls -A tmp . | grep -E 'pv-collect|none\.out' >leak.out
if test_cmp /dev/null leak.out; then pass; else fail "temporary files left"; fi
expect_status 2 bad-level pv-collect -c 1,x -- true 2>bad.err
expect_status 2 bad-repeat pv-collect -r 0 -- true 2>>bad.err
expect_status 2 bad-meta pv-collect --meta novalue -- true 2>>bad.err
expect_status 2 bad-event pv-collect -p --event nosuch -- true 2>>bad.err
expect_status 2 bad-ref pv-collect --config-ref /nonexistent -- true \
	2>>bad.err
expect_status 2 no-cmd pv-collect -r 1 2>>bad.err
expect_golden "$D/bad.err" bad.err bad-stderr
expect_status 2 full pv-collect -r 1 -- true >/dev/full 2>full.err
expect_golden "$D/full.err" full.err full-stderr

# 5b. -o makes a file as any other: 0666 less the umask, not 0600.
(umask 022 && pv-collect -r 1 -o mode022.pv -- true) &&
(umask 077 && pv-collect -r 1 -o mode077.pv -- true) &&
(umask 002 && pv-collect -r 1 -o mode002.pv -- true)
for f in mode022.pv mode077.pv mode002.pv; do ls -l $f; done | cut -c1-10 >mode.out
printf '%s\n' -rw-r--r-- -rw------- -rw-rw-r-- >mode.want
if test_cmp mode.want mode.out; then pass; else fail "-o file mode"; fi

# 6. --help is the man page's SYNOPSIS (spacing aside).
pv-collect --help >help.out
sed -n '/^usage: /,/^$/p' help.out | sed 's/^usage: //' | tr -s ' \n' '  ' |
	sed 's/ *$//' >usage.got
if command -v mandoc >/dev/null; then
	mandoc -T ascii "$top_srcdir/man/pv-collect.1" | sed 's/.\x08//g' |
		sed -n '/^SYNOPSIS/,/^DESCRIPTION/p' | sed '1d;$d' |
		tr -s ' \n' '  ' | sed 's/^ *//; s/ *$//' >usage.want
	if test_cmp usage.want usage.got; then pass; else
		fail "--help usage differs from the SYNOPSIS"; fi
fi

finish
