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

# Replace what is measured (times, sizes, the start time) by X.
normalize() {
	sed -e 's/\(wall\|user\|sys\|maxrss\)=[0-9.]*/\1=X/g' \
	    -e 's/^\(sample\t.*\t\)[-0-9.e]*$/\1X/' \
	    -e 's/^\(meta\tstarted\t\).*/\1X/'
}

# 1. The matrix: two levels, a warmup and two runs, in interleaved order;
# artifacts named after experiment, kind and number.
expect_status 0 matrix pv-collect -w 1 -r 2 -c 1,4 -a art --role baseline \
	--meta nightly=yes --config-ref ref.config \
	-- sh -c 'echo "level {N}" >>order.log; echo out{N}; echo err{N} >&2' \
	>matrix.raw 2>matrix.err
normalize <matrix.raw >matrix.out
expect_golden "$D/matrix.out" matrix.out matrix
expect_golden "$D/empty" matrix.err matrix-stderr
printf 'level 1\nlevel 4\nlevel 1\nlevel 4\nlevel 1\nlevel 4\n' >order.want
if test_cmp order.want order.log; then pass; else fail "interleaved order"; fi
(cd art && for f in *; do printf '%s: ' "$f"; cat "$f"; done) >art.out
expect_golden "$D/artifacts.out" art.out artifacts

# 2. The same plan again gives the same experiment identity; another
# command or another level list does not change a level's identity.
pv-collect -r 1 -c 4 -- sh -c \
	'echo "level {N}" >>order.log; echo out{N}; echo err{N} >&2' \
	>again.out 2>&1
a=$(awk -F'\t' '$1 == "section" { print $4 }' again.out)
b=$(awk -F'\t' '$1 == "section" { print $4 }' matrix.raw | tail -1)
if [ "$a" = "$b" ]; then pass; else fail "experiment identity: $a != $b"; fi
pv-collect -r 1 -- true >other.out 2>&1
a=$(awk -F'\t' '$1 == "section" { print $4 }' other.out)
case $a in
"${b%-4}"*) fail "another command, the same identity $a" ;;
*) pass ;;
esac

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

# 4. Interrupted: the runs done are written, marked incomplete, and
# pv-collect ends by the signal (SIGINT: status 130 in the shell).
# Under make check-valgrind valgrind takes seconds to start, and a SIGINT
# before pv-collect's handler is lost (ignored in a background job).
delay=1
[ -n "${pv_valgrind:-}" ] && delay=5
pv-collect -r 1000 -o int.raw -- sleep 0.1 2>int.err &
pid=$!
sleep $delay
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
