#!/bin/sh
# nightly.sh: the nightly benchmark job, for cron.
#
# Collects a small matrix with profiles on the running kernel (stress-ng
# and sysbench from Debian: apt-get install stress-ng sysbench), stores it
# under the kernel release, and passes it down the pipeline against the
# baseline the store chooses:
#
#   pv-collect  -> DIR/DAY/*.pv (samples, stacks, env), artifacts
#   pv-store add --version RELEASE      keep it with the version measured
#   pv-store pair RELEASE               baseline + target, roles set
#   pv-stat | pv-diff | pv-classify     verdicts on the samples, as text,
#                                       JUnit XML and JSON
#   pv-diff | pv-render --format=html   the profile report
#
# Usage: nightly.sh [DIR]   (default $HOME/pv-nightly)
# A crontab line, at 02:30 each night, mailing the summary:
#   30 2 * * * /usr/share/doc/pv-tools/examples/nightly.sh /var/lib/pv
#
# Settings by environment: PV_LEVELS (default 1, half the CPUs, all the
# CPUs), PV_REPEAT (5), PV_SECONDS per run (10), PV_FREQUENCY (99),
# PV_QUICK=1 for a short trial (level 1, 3 repetitions, the fewest
# pv-classify decides on, 2 s runs; the settings above override these),
# PV_RELEASE the version the night is stored under (default uname -r).
#
# The baseline is the one pv-store's rule chooses for the release
# (pv-store(1)): for a distribution's kernel such as 6.1.0-27-amd64, the
# latest earlier build of its base and flavour stored (6.1.0-26-amd64),
# else the latest stored build of that flavour at the previous release.
# A night on a release already stored adds its streams beside the earlier
# nights' of that release, and compares them all with the same baseline.
#
# Exit status: 0 nothing found, 1 a regression at or above the red band
# (pv-classify --fail-on=red), 2 trouble (a run failed, a tool missing).
# The stages after pv-collect need pv-store, pv-stat, pv-diff and
# pv-classify; where one is not installed the night's data is still
# collected and kept, and the script says which stage was left out.
set -u
LC_ALL=C
export LC_ALL

OUT=${1:-$HOME/pv-nightly}
DAY=$(date -u +%Y-%m-%d)
RELEASE=${PV_RELEASE:-$(uname -r)}
DIR=$OUT/$DAY
NCPU=$(getconf _NPROCESSORS_ONLN)
HALF=$((NCPU / 2 > 1 ? NCPU / 2 : 1))
LEVELS=$(printf '%s\n' 1 "$HALF" "$NCPU" | sort -nu | paste -sd, -)
REPEAT=5 SECONDS_PER_RUN=10
if [ "${PV_QUICK:-0}" = 1 ]; then
	LEVELS=1 REPEAT=3 SECONDS_PER_RUN=2
fi
LEVELS=${PV_LEVELS:-$LEVELS}
REPEAT=${PV_REPEAT:-$REPEAT}
SECONDS_PER_RUN=${PV_SECONDS:-$SECONDS_PER_RUN}
FREQUENCY=${PV_FREQUENCY:-99}

die() {
	printf 'nightly.sh: %s\n' "$*" >&2
	exit 2
}
have() {
	command -v "$1" >/dev/null 2>&1
}

for t in pv-collect stress-ng sysbench; do
	have "$t" || die "'$t' not found (stress-ng and sysbench: apt-get install stress-ng sysbench)"
done
mkdir -p "$DIR" || die "cannot create '$DIR'"
exec 3>&1 >"$DIR/nightly.log" 2>&1
printf 'nightly %s on %s: levels %s, %s runs of %s s\n' "$DAY" "$RELEASE" \
	"$LEVELS" "$REPEAT" "$SECONDS_PER_RUN"

# collect NAME PARSER COMMAND...: one benchmark, every level interleaved,
# one warmup run per level, profiled; NAME.pv in the night's directory.
# A run that hangs is ended at three times its length and a minute, and
# counts as failed; the night goes on.
failed=0
collect() {
	name=$1 parser=$2
	shift 2
	pv-collect --profile --frequency="$FREQUENCY" --warmup=1 \
		--repeat="$REPEAT" --concurrency="$LEVELS" \
		--artifacts="$DIR/artifacts" --parser="$parser" \
		--role=target --label="$RELEASE" --meta="nightly=$DAY" \
		--timeout=$((SECONDS_PER_RUN * 3 + 60)) \
		--output="$DIR/$name.pv" -- "$@"
	st=$?
	case $st in
	0) ;;
	1) printf '%s: some runs failed (see the meta run records)\n' \
		"$name"; failed=1 ;;
	*) die "$name: pv-collect failed (status $st)" ;;
	esac
}

collect stress-ng-futex stress-ng \
	stress-ng --futex '{N}' --timeout "${SECONDS_PER_RUN}s" --metrics-brief
collect stress-ng-switch stress-ng \
	stress-ng --switch '{N}' --timeout "${SECONDS_PER_RUN}s" --metrics-brief
collect sysbench-cpu sysbench \
	sysbench cpu --threads='{N}' --time="$SECONDS_PER_RUN" run
cat "$DIR"/stress-ng-futex.pv "$DIR"/stress-ng-switch.pv \
	"$DIR"/sysbench-cpu.pv | gzip -n >"$DIR/night.pv.gz" ||
	die "cannot write '$DIR/night.pv.gz'"

# Down the pipeline: store, pair with the baseline, decide, report.
status=0
if have pv-store; then
	export PV_STORE="$OUT/store"
	[ -d "$PV_STORE" ] || pv-store init || die "pv-store init failed"
	pv-store add --version "$RELEASE" "$DIR/night.pv.gz" ||
		die "pv-store add failed"
	if base=$(pv-store baseline "$RELEASE") &&
		echo "baseline of $RELEASE: $base" &&
		pv-store pair --baseline="$base" "$RELEASE" >"$DIR/pair.pv"
	then
		if have pv-stat && have pv-diff && have pv-classify; then
			# one file a stage: a pipeline would hide a stage's trouble
			pv-stat "$DIR/pair.pv" >"$DIR/stat.pv" ||
				die "pv-stat failed"
			# What may differ between the baseline's nights and
			# tonight's beyond what pv-diff ignores by default (the
			# kernel's release and build, the facts of one
			# collection): the kernel's configuration and
			# mitigations, the number of runs, the night.  The
			# compiler and the C library stay checked: after an
			# upgrade of either the night says so rather than
			# blaming the kernel.
			pv-diff --samples -i 'env.kernel-config-*' \
				-i 'env.vulnerability.*' -i meta.repeat \
				-i meta.nightly \
				"$DIR/stat.pv" >"$DIR/cmp.pv"
			[ $? -le 1 ] || die "pv-diff failed"
			pv-classify --fail-on=red "$DIR/cmp.pv" >"$DIR/verdicts.pv"
			status=$?
			[ $status -le 1 ] || die "pv-classify failed"
			pv-render --format=text "$DIR/verdicts.pv" \
				>"$DIR/summary.txt"
			# for the CI server and for bots
			pv-render --format=junit "$DIR/verdicts.pv" \
				>"$DIR/junit.xml"
			pv-render --format=json "$DIR/verdicts.pv" \
				>"$DIR/verdicts.json"
			pv-diff --profiles "$DIR/pair.pv" | pv-render --format=html \
				>"$DIR/profile.html"
		else
			echo "pv-stat, pv-diff or pv-classify missing:" \
				"no verdicts tonight"
		fi
	else
		echo "no baseline for $RELEASE in the store yet:" \
			"tonight's data is the first"
	fi
else
	echo "pv-store missing: the data stays in $DIR only"
fi

# The summary on the original standard output (cron mails it).
exec 1>&3
printf 'pv nightly %s, kernel %s: %s\n' "$DAY" "$RELEASE" "$DIR"
[ -f "$DIR/summary.txt" ] && cat "$DIR/summary.txt"
[ $failed -eq 0 ] || { echo "some runs failed: $DIR/nightly.log"; exit 2; }
exit "$status"
