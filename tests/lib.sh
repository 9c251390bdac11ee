# tests/lib.sh: helpers for the shell tests, sourced by tests/tools/*.sh.
#
# Each test runs in a fresh temporary directory ($T) with LC_ALL=C and the
# built tools first on PATH.  Exit 0 passes, 1 fails, 77 skips (automake).
# PV_UPDATE_GOLDEN=1 makes expect_golden rewrite the golden files instead
# of comparing, for review with git diff.

set -u
LC_ALL=C
export LC_ALL
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
top_srcdir=$(cd "$top_srcdir" && pwd)
top_builddir=$(cd "$top_builddir" && pwd)
PATH=$top_builddir/tools:$PATH
export PATH top_srcdir top_builddir

# A test that times wall-clock throughputs (one that sets pv_test_alone,
# nightly-e2e.sh) runs alone: it holds a lock exclusively, every other test
# shared, so that under make -j it waits for the tests running and the
# tests after it wait for it.  (fd 9, which children inherit; after five
# minutes of waiting, or without flock(1), a test goes on without it.)
pv_lock=${TMPDIR:-/tmp}/pv-tests.$(id -u).lock
if command -v flock >/dev/null 2>&1 && [ -w "${TMPDIR:-/tmp}" ] &&
    { [ ! -e "$pv_lock" ] || [ -w "$pv_lock" ]; }; then
	exec 9>>"$pv_lock"
	if [ -n "${pv_test_alone:-}" ]; then pv_mode=-x; else pv_mode=-s; fi
	flock $pv_mode -w 300 9 ||
		echo "lib.sh: waited 5 minutes for $pv_lock; going on" >&2
fi

T=$(mktemp -d "${TMPDIR:-/tmp}/pv-test.XXXXXX") || exit 99
trap 'rm -rf "$T"' EXIT
failures=0
passes=0

fail() {
	printf 'FAIL: %s\n' "$*" >&2
	failures=$((failures + 1))
}

pass() {
	passes=$((passes + 1))
}

skip_all() {
	printf 'SKIP: %s\n' "$*" >&2
	exit 77
}

# test_cmp EXPECTED ACTUAL: compare files, show a diff when they differ.
test_cmp() {
	if cmp -s "$1" "$2"; then
		return 0
	fi
	diff -u "$1" "$2" | head -40 >&2
	return 1
}

# expect_status WANT NAME CMD...: run CMD, check its exit status.
expect_status() {
	want=$1 name=$2
	shift 2
	"$@"
	got=$?
	if [ "$got" -ne "$want" ]; then
		fail "$name: exit status $got, expected $want"
		return 1
	fi
	pass
	return 0
}

# expect_golden GOLDEN ACTUAL NAME: compare with (or update) a golden file.
expect_golden() {
	if [ "${PV_UPDATE_GOLDEN:-0}" = 1 ]; then
		cp "$2" "$1"
		pass
		return 0
	fi
	if test_cmp "$1" "$2"; then
		pass
	else
		fail "$3: output differs from $1"
	fi
}

# finish: report and exit with the automake status.
finish() {
	printf '%d passed, %d failed\n' "$passes" "$failures"
	[ "$failures" -eq 0 ]
	exit $?
}

# run_cases TOOL DIR: the golden cases of a tool.  Each case NAME in DIR
# has NAME.in (the input, given to the tool as the file NAME.in, from $T),
# and optionally NAME.args (the options, one line, split by the shell),
# NAME.out and NAME.err (stdout and stderr, empty when absent) and
# NAME.status (the exit status, 0 when absent).
run_cases() {
	tool=$1 dir=$2
	for input in "$dir"/*.in; do
		[ -e "$input" ] || continue
		case_=${input##*/}
		case_=${case_%.in}
		cp "$input" "$T/$case_.in"
		args=
		[ -f "$dir/$case_.args" ] && args=$(cat "$dir/$case_.args")
		want=0
		[ -f "$dir/$case_.status" ] && want=$(cat "$dir/$case_.status")
		# shellcheck disable=SC2086
		(cd "$T" && "$tool" $args "$case_.in" >"$T/out" 2>"$T/err")
		got=$?
		for stream in out err; do
			exp=$dir/$case_.$stream
			[ -f "$exp" ] || exp=/dev/null
			if [ "${PV_UPDATE_GOLDEN:-0}" = 1 ]; then
				if [ -s "$T/$stream" ]; then
					cp "$T/$stream" "$dir/$case_.$stream"
				else
					rm -f "$dir/$case_.$stream"
				fi
			elif ! test_cmp "$exp" "$T/$stream"; then
				fail "$tool $case_: std$stream differs"
				continue
			fi
			pass
		done
		if [ "${PV_UPDATE_GOLDEN:-0}" = 1 ]; then
			if [ "$got" -ne 0 ]; then
				echo "$got" >"$dir/$case_.status"
			else
				rm -f "$dir/$case_.status"
			fi
		elif [ "$got" -ne "$want" ]; then
			fail "$tool $case_: exit status $got, expected $want"
		else
			pass
		fi
	done
}
