#!/bin/sh
# The line limit of lib/input (64 MiB, or PV_MAX_LINE) in every tool: a
# gzip bomb of one 1 GiB line, made here (1,024 concatenated gzip members
# of 1 MiB each, about 1 MB; gzip readers take them as one stream), stops
# each tool at the limit with "TOOL:FILE:LINE: a line of more than ..."
# and exit 2 (pv-collect: the run fails, exit 1, its reason the same), at
# a peak resident set under 256 MB (tests/maxrss); pv-store stores
# nothing of it.  PV_MAX_LINE sets another limit; a line at the limit is
# read.
. "${top_srcdir:-.}/tests/lib.sh"

[ -n "${pv_valgrind:-}" ] && skip_all "memory is not measured under valgrind"
# under the sanitizers the peak is theirs (shadow memory, a quarantine of
# freed buffers): the limits and messages are checked, the peaks not
max_kb=262144
[ -n "${pv_sanitizers:-}" ] && max_kb=9999999999
GIT_CEILING_DIRECTORIES=$(dirname "$T")
export GIT_CEILING_DIRECTORIES
unset PV_MAX_LINE PV_STORE
cd "$T" || exit 99

# one member of 1 MiB of 'a', no newline; 1,024 of them
awk 'BEGIN { s = "a"; for (i = 0; i < 20; i++) s = s s; printf "%s", s }' |
	gzip -9 >member.gz || exit 99
cp member.gz bomb.gz || exit 99
i=0
while [ "$i" -lt 10 ]; do
	cat bomb.gz bomb.gz >bomb2.gz && mv bomb2.gz bomb.gz || exit 99
	i=$((i + 1))
done
members=$(($(wc -c <bomb.gz) / $(wc -c <member.gz)))
expect_status 0 "the bomb: 1,024 members" test "$members" -eq 1024
printf 'bomb.gz: %d bytes, one line of %d bytes\n' "$(wc -c <bomb.gz)" \
	$((members * 1048576))
# a line before it, so that the line at fault is line 2
{ printf 'pv-format\t1\n' | gzip; cat bomb.gz; } >bomb2.gz

limit="a line of more than 67108864 bytes (the limit; PV_MAX_LINE=BYTES sets another)"
# run TOOL FILE LINE ARGS...: TOOL ARGS FILE under tests/maxrss, exit 2,
# the message at FILE:LINE, a peak under 256 MB
run() {
	tool=$1 file=$2 line=$3
	shift 3
	"$top_builddir/tests/maxrss" "$top_builddir/tools/$tool" "$@" "$file" \
		>rss 2>err
	st=$?
	kb=$(cat rss)
	printf '%s %s: exit %d, peak %s KB\n' "$tool" "$*" "$st" "$kb"
	expect_status 0 "$tool: exit 2" test "$st" -eq 2
	echo "$tool:$file:$line: $limit" >err.want
	if test_cmp err.want err; then pass
	else fail "$tool: the message"; fi
	expect_status 0 "$tool: peak under 256 MB" test "$kb" -lt "$max_kb"
}
run pv-parse bomb.gz 1
run pv-stat bomb2.gz 2
run pv-diff bomb2.gz 2
run pv-classify bomb2.gz 2
run pv-render bomb2.gz 2 -f folded
run pv-render bomb2.gz 2 -f html

# pv-store add: nothing stored, nothing left
pv-store --store=store init || exit 99
run pv-store bomb2.gz 2 --store=store add -v bomb
expect_status 0 "pv-store: not in the index" \
	test -z "$(pv-store --store=store log)"
expect_status 0 "pv-store: no object" \
	test -z "$(find store/objects -type f)"
expect_status 0 "pv-store: no temporary" test -z "$(ls store/tmp)"

# pv-collect --parser: the run's output cannot be read, so the run failed
"$top_builddir/tests/maxrss" "$top_builddir/tools/pv-collect" -r 1 \
	--parser=generic -- cat bomb.gz >rss 2>err
st=$?
kb=$(cat rss)
printf 'pv-collect --parser: exit %d, peak %s KB\n' "$st" "$kb"
expect_status 0 "pv-collect: the run failed" test "$st" -eq 1
if grep -q "run-001\.stdout:1: $limit)\$" err; then pass
else fail "pv-collect: the message: $(head -c 300 err)"; fi
expect_status 0 "pv-collect: peak under 256 MB" test "$kb" -lt "$max_kb"

# PV_MAX_LINE: another limit, and a line at the limit is read
PV_MAX_LINE=1M "$top_builddir/tests/maxrss" "$top_builddir/tools/pv-stat" \
	bomb2.gz >rss 2>err
[ -z "${pv_sanitizers:-}" ] &&
	expect_status 0 "PV_MAX_LINE=1M: peak under 32 MB" test "$(cat rss)" -lt 32768
echo "pv-stat:bomb2.gz:2: a line of more than 1048576 bytes (the limit; PV_MAX_LINE=BYTES sets another)" >err.want
if test_cmp err.want err; then pass; else fail "PV_MAX_LINE=1M"; fi
awk 'BEGIN { printf "pv-format\t1\nmeta\tk\t"
	for (i = 0; i < 1000; i++) printf "x"
	printf "\n" }' >at.pv
expect_status 0 "a line at the limit" env PV_MAX_LINE=1007 pv-stat at.pv \
	>/dev/null
expect_status 2 "a line past the limit" env PV_MAX_LINE=1006 pv-stat at.pv \
	>/dev/null 2>err
echo "pv-stat:at.pv:2: a line of more than 1006 bytes (the limit; PV_MAX_LINE=BYTES sets another)" >err.want
if test_cmp err.want err; then pass; else fail "a line past the limit"; fi
expect_status 2 "PV_MAX_LINE not a number" env PV_MAX_LINE=lots pv-stat \
	at.pv >/dev/null 2>err
echo "pv-stat:at.pv:0: PV_MAX_LINE 'lots' is not a number of bytes (such as 1048576 or 64M)" >err.want
if test_cmp err.want err; then pass; else fail "PV_MAX_LINE not a number"; fi
finish
