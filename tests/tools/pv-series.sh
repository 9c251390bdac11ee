#!/bin/sh
# pv-series: goldens (a step, a change for the worse of a lower-is-better
# metric, an outlier, a flat key; a change at the newest version; bad
# input), samples and runval records giving the same records, known
# change points, and the state: a version added to it gives what the
# whole series gives, and a failed run leaves it as it was.
. "${top_srcdir:-.}/tests/lib.sh"
D=$top_srcdir/tests/data/pv-series
rc() { return "$1"; }
# the records of pv-series, without the input passed on
ours() { grep -E '^(changepoint|outlier|trend)	' "$@" || true; }

run_cases pv-series "$D"

# runval records (pv-stat -S) give the records the samples give
pv-series "$D/series.in" | ours > "$T/want"
test -s "$T/want" && pass || fail "series.in: no records"
pv-stat -S "$D/series.in" | pv-series | ours > "$T/got"
test_cmp "$T/want" "$T/got" && pass || fail "runval records"
# and gzip-compressed input too
gzip -c "$D/series.in" > "$T/series.in.gz"
pv-series "$T/series.in.gz" | ours > "$T/got"
test_cmp "$T/want" "$T/got" && pass || fail "gzip input"
# its own records in the input are computed again, not repeated
pv-series "$D/series.in" | pv-series | ours > "$T/got"
test_cmp "$T/want" "$T/got" && pass || fail "records computed again"

# a change for the worse at the newest version fails, unless known
printf '# acknowledged\nv6.11\tv6.12  stress-ng\n' > "$T/known"
pv-series --known="$T/known" "$D/newest.in" > "$T/out"
expect_status 0 "known" rc $?
ours "$T/out" | cut -f 9,10,11,18 > "$T/got"
printf '1\tv6.11\tv6.12\tnewest,known\n2\tv6.11\tv6.12\tnewest,known\n' \
	> "$T/want"
test_cmp "$T/want" "$T/got" && pass || fail "known: flags"
printf 'v6.11 v6.12 stress-ng pipe\n' > "$T/known"
pv-series -k "$T/known" "$D/newest.in" > /dev/null
expect_status 1 "known for another test" rc $?
# a later section without runs (a profile) is not the newest version
{ cat "$D/newest.in"; printf 'section\t-\tv6.13\tnightly\n'
  printf 'stack\tcycles\t1\t1\tmain;f\n'; } > "$T/profiled"
pv-series "$T/profiled" > /dev/null
expect_status 1 "newest: a section alone is not a version of the series" \
	rc $?
# an outlier is known by its version, alone or twice (as BEFORE and AFTER)
for k in 'v6.9' 'v6.9 v6.9 wis' 'v6.9 v6.9 wis getppid1' 'v6.9 v6.9 wis x'; do
	printf '%s\n' "$k" > "$T/known"
	pv-series -k "$T/known" "$D/series.in" > "$T/out"
	expect_status 0 "known outlier: $k" rc $?
	grep '^outlier	' "$T/out" | cut -f 10,13 > "$T/got"
	case $k in *x) f=- ;; *) f=known ;; esac
	printf 'v6.9\t%s\n' $f > "$T/want"
	test_cmp "$T/want" "$T/got" && pass || fail "known outlier: $k: flags"
done
printf 'v6.11 v6.12 stress-ng futex x\n' > "$T/known"
pv-series -k "$T/known" "$D/newest.in" > /dev/null 2> "$T/err"
expect_status 2 "bad known file" rc $?
echo "pv-series:$T/known:1: a known change point is BEFORE AFTER [SUITE [TEST]], an outlier VERSION, not 5 words" \
	> "$T/want"
test_cmp "$T/want" "$T/err" && pass || fail "bad known file: message"

# the state: versions 1 to 11, then 12, give what all 12 give
n=$(grep -n '	v6.12	' "$D/series.in" | head -n 1 | cut -d: -f1)
head -n $((n - 1)) "$D/series.in" > "$T/first"
tail -n +$n "$D/series.in" > "$T/last"
pv-series --state="$T/state" "$T/first" > /dev/null
expect_status 0 "state: first" rc $?
test -s "$T/state" && pass || fail "state: not written"
pv-series --state="$T/state" "$T/last" > "$T/out"
expect_status 0 "state: last" rc $?
ours "$T/out" > "$T/got"
ours "$D/series.out" > "$T/want"
test_cmp "$T/want" "$T/got" && pass || fail "state: one version more"
# the version again: refused, the state left as it was
cp "$T/state" "$T/state.before"
pv-series -s "$T/state" "$T/last" > /dev/null 2> "$T/err"
expect_status 2 "state: a version again" rc $?
echo "pv-series:$T/last:2: version 'v6.12' is in the state already" \
	> "$T/want"
test_cmp "$T/want" "$T/err" && pass || fail "state: a version again"
cmp -s "$T/state" "$T/state.before" && pass || fail "state: changed"
# a full disk: exit 2, the state left as it was, no temporary file
if [ -w /dev/full ]; then
	rm -f "$T/state"
	pv-series -s "$T/state" "$T/first" > /dev/null
	cp "$T/state" "$T/state.before"
	pv-series -s "$T/state" "$T/last" > /dev/full 2> /dev/null
	expect_status 2 "state: /dev/full" rc $?
	cmp -s "$T/state" "$T/state.before" && pass ||
		fail "state: changed by a failed run"
	ls "$T" | grep -q '^state\.tmp' && fail "state: temporary file left" ||
		pass
fi
# a damaged state is refused
head -c 100 "$T/state" > "$T/cut"
pv-series -s "$T/cut" "$T/last" > /dev/null 2> "$T/err"
expect_status 2 "state: cut short" rc $?
echo "pv-series: '$T/cut' is not a pv-series state: its checksum does not match (damaged or cut short)" \
	> "$T/want"
test_cmp "$T/want" "$T/err" && pass || fail "state: cut short: message"
printf 'pv-format\t1\n' > "$T/notstate"
pv-series -s "$T/notstate" "$T/last" > /dev/null 2> "$T/err"
expect_status 2 "state: not a state" rc $?
# other options than the state's: the same result
pv-series -w 8 "$D/series.in" | ours > "$T/want"
pv-series -s "$T/state2" -w 50 "$T/first" > /dev/null
pv-series -s "$T/state2" -w 8 "$T/last" | ours > "$T/got"
test_cmp "$T/want" "$T/got" && pass || fail "state: other options"

# same input, same bytes
pv-series "$D/series.in" > "$T/a"
pv-series "$D/series.in" > "$T/b"
test_cmp "$T/a" "$T/b" && pass || fail "deterministic"

# usage, help, version, a full disk
pv-series --help > "$T/out"
expect_status 0 "--help" rc $?
pv-series --bogus > /dev/null 2>&1
expect_status 2 "unknown option" rc $?
pv-series -t -1 "$D/series.in" > /dev/null 2>&1
expect_status 2 "bad threshold" rc $?
pv-series -w 3 "$D/series.in" > /dev/null 2>&1
expect_status 2 "bad window" rc $?
pv-series --version > /dev/null
expect_status 0 "--version" rc $?
if [ -w /dev/full ]; then
	pv-series "$D/series.in" > /dev/full 2> /dev/null
	expect_status 2 "/dev/full" rc $?
fi
finish
