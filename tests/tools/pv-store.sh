#!/bin/sh
# pv-store: adding, listing, showing byte for byte, pairing, the baseline
# rule, rm and gc, corruption found by verify, bad input and usage, a torn
# index line.  Streams come from tests/data/pv-store; times are given with
# --date so that the output is the same on every run.
. "${top_srcdir:-.}/tests/lib.sh"
rc() { return "$1"; }

D=$top_srcdir/tests/data/pv-store
# no git repository around the test directory: names stay free names
GIT_CEILING_DIRECTORIES=$(dirname "$T")
export GIT_CEILING_DIRECTORIES
PV_STORE=$T/store
export PV_STORE
cd "$T" || exit 99

expect_status 0 "init" pv-store init
expect_status 0 "init again" pv-store init
expect_status 0 "add v6.11" pv-store add --version=v6.11 --date=1732000000 \
	"$D/v6.11.pv" >add.out
expect_golden "$D/add.out" add.out "add prints object and version"
expect_status 0 "add v6.12" pv-store add --version=v6.12 --date=1732100000 \
	<"$D/v6.12.pv" >/dev/null
expect_status 0 "add crlf" pv-store add -v kbuild-1 -d 1732200000 \
	"$D/crlf.pv" >/dev/null
# the same stream again under v6.12: one entry; under another name: two
expect_status 0 "add again" pv-store add -v v6.12 -d 1732300000 \
	"$D/v6.12.pv" >/dev/null
# a second, different stream under v6.12 is kept beside the first
printf 'pv-format\t1\nsection\t-\tv6.12\tfutex\nsample\tstress-ng\tfutex\tbogo-ops\tbogo-ops-per-second-real-time\tops/s\thigher\t-\t2\t-\t955\n' >run2.pv
expect_status 0 "add run 2" pv-store add -v v6.12 -d 1732400000 run2.pv \
	>run2.out
pv-store log >log.out
expect_golden "$D/log.out" log.out "log"
pv-store log --experiment=pipe >log-pipe.out
expect_golden "$D/log-pipe.out" log-pipe.out "log --experiment"
pv-store log kbuild-1 v6.11 >log-two.out
expect_golden "$D/log-two.out" log-two.out "log VERSION..."

# log's tests fields: SUITE/TEST:RUNS, runs by LEVEL and RUN, the list's
# separators escaped in names; '-' for a profile, '?' for an entry that a
# pv-store before tests lines stored (an add line without one)
pv-store --store=tests init || exit 99
{
	printf 'pv-format\t1\nsection\t-\t-\tx\n'
	for l in 1 2; do for r in 1 2 3; do
		printf 'sample\ts\tt\to\tm\tu\thigher\t%d\t%d\t-\t1\n' $l $r
	done; done
	printf 'sample\ta,b\tc/d:e\\\\f\to\tm\tu\thigher\t-\t1\t-\t1\n'
	printf 'section\t-\t-\tprof\nstack\tc\t1\t1\tmain\n'
} | pv-store --store=tests add -v t1 -d 1732000000 >/dev/null
h=$(sha256sum <"$D/crlf.pv" | cut -c1-64)
pv-store --store=tests add -v t0 -d 1732000000 "$D/crlf.pv" >/dev/null
grep -v '^tests	t0	' tests/index >tests.index && cat tests.index >tests/index
pv-store --store=tests log | cut -f1,7- >log-tests.out
printf 't1\tx\ts/t:6,a\\,b/c\\/d\\:e\\\\f:1\tprof\t-\nt0\t-\t?\n' \
	>log-tests.want
if test_cmp log-tests.want log-tests.out; then pass; else fail "log: tests"; fi

# show: the stored bytes exactly (CRLF, comments, blank lines too)
pv-store show v6.11 >show.out
if test_cmp "$D/v6.11.pv" show.out; then pass; else fail "show v6.11"; fi
pv-store show kbuild-1 >show-crlf.out
if test_cmp "$D/crlf.pv" show-crlf.out; then pass; else fail "show crlf"; fi
cat "$D/v6.12.pv" run2.pv >want.pv
pv-store show v6.12 >show2.out
if test_cmp want.pv show2.out; then pass; else fail "show two streams"; fi
pv-store show v6.12 "$(cut -c1-10 run2.out)" >show-obj.out
if test_cmp run2.pv show-obj.out; then pass; else fail "show OBJECT"; fi
pv-store show --experiment=pipe v6.12 >show-pipe.out
expect_golden "$D/show-pipe.out" show-pipe.out "show --experiment"

# object names are the SHA-256 of the bytes (as sha256sum says)
if command -v sha256sum >/dev/null; then
	h=$(sha256sum <"$D/crlf.pv" | cut -c1-64)
	if [ -f "store/objects/$(echo "$h" | cut -c1-2)/$(echo "$h" | cut -c3-)" ]
	then pass; else fail "object name is not sha256sum's"; fi
	# and objects are gzip: zcat reads them
	if zcat "store/objects/$(echo "$h" | cut -c1-2)/$(echo "$h" | cut -c3-)" |
	    cmp -s - "$D/crlf.pv"; then pass; else fail "zcat of an object"; fi
fi

# gzip input is stored as its uncompressed bytes: the same object
gzip -c "$D/v6.11.pv" >v6.11.pv.gz
pv-store add -v gz-test -d 1732500000 v6.11.pv.gz >gz.out
expect_status 0 "gz input: the same object" \
	test "$(cut -f1 gz.out)" = "$(cut -f1 add.out)"
pv-store show gz-test >gz-show.out
if test_cmp "$D/v6.11.pv" gz-show.out; then pass; else fail "gz show"; fi
expect_status 0 "objects: one per content" \
	test "$(find store/objects -type f | wc -l)" -eq 4

# pair: baseline by the rule, roles set, ready for pv-diff
pv-store pair v6.12 >pair.out
expect_golden "$D/pair.out" pair.out "pair"
pv-store pair --experiment=futex --baseline=v6.11 v6.12 >pair-futex.out
expect_golden "$D/pair-futex.out" pair-futex.out "pair --experiment"
pv-store baseline v6.12 >b1.out
pv-store baseline v6.12-rc3 >>b1.out
pv-store baseline v6.13-rc1 >>b1.out
pv-store baseline v6.12-45-gabc1234 >>b1.out
pv-store baseline --baseline=kbuild-1 v6.13 >>b1.out
printf 'v6.11\nv6.11\nv6.12\nv6.12\nkbuild-1\n' >b1.want
if test_cmp b1.want b1.out; then pass; else fail "baseline"; fi
# unlike with unlike: pair says which experiments have no partner
pv-store pair --baseline=kbuild-1 v6.12 >/dev/null 2>unmatched.err
expect_golden "$D/unmatched.err" unmatched.err "pair: unmatched experiments"
expect_status 2 "pair: no such experiment" pv-store pair -e nosuch v6.12 \
	>nosuch.out 2>/dev/null
expect_status 0 "pair: nothing written" test ! -s nosuch.out
expect_status 2 "no baseline" pv-store baseline v6.11 2>nobase.err
expect_golden "$D/nobase.err" nobase.err "no baseline message"
expect_status 2 "free name without --baseline" pv-store pair kbuild-1 \
	2>free.err
expect_golden "$D/free.err" free.err "free name message"

# pair names the versions it paired, the stored names, whatever VERSION
# the streams' sections give (v6.11, v6.12, none): pv-diff keys a side on
# it and names the comparison after it
pv-store --store=relabel init &&
pv-store --store=relabel add -v base-1 -d 1732000000 "$D/v6.11.pv" \
	>/dev/null &&
pv-store --store=relabel add -v try-2 -d 1732100000 "$D/v6.12.pv" \
	>/dev/null || exit 99
pv-store --store=relabel pair --baseline=base-1 try-2 |
	awk -F'\t' '$1 == "section" { print $2, $3 }' | sort -u >relabel.out
printf 'baseline base-1\ntarget try-2\n' >relabel.want
if test_cmp relabel.want relabel.out; then pass
else fail "pair: sections name the stored versions"; fi

# two collections of one plan under one version both number their runs
# from 1: pair numbers them on, so that pv-stat counts four runs, not two
# runs of two values each
night() {
	printf 'pv-format\t1\nsection\t-\tk\tx\n'
	printf 'sample\ts\tt\to\tm\tu\thigher\t-\t%s\t-\t%s\n' 1 "$1" 2 "$2"
}
pv-store --store=nights init >/dev/null &&
night 100 101 | pv-store --store=nights add -v base -d 1732000000 >/dev/null &&
night 100 101 | pv-store --store=nights add -v tgt -d 1732100000 >/dev/null &&
night 102 103 | pv-store --store=nights add -v tgt -d 1732200000 >/dev/null ||
	exit 99
pv-store --store=nights pair --baseline=base tgt | pv-stat |
	awk -F'\t' '$1 == "stat" { print $2, $12 }' >nights.out
printf 'baseline 2\ntarget 4\n' >nights.want
if test_cmp nights.want nights.out; then pass
else fail "pair: the runs of two collections stay apart"; fi
# the same two collections stored as one object, cat(1) of the two
# streams: the second's runs are numbered on too, its runstart records
# with them, not merged into the first's as more values of each run
runs() {
	printf 'pv-format\t1\nsection\t-\tk\tx\n'
	printf 'runstart\t%s\t%s\t%s\n' 1 1 "$3" 2 2 "$4"
	printf 'sample\ts\tt\to\tm\tu\thigher\t-\t%s\t-\t%s\n' 1 "$1" 2 "$2"
}
{ runs 100 101 1732300000 1732300010; runs 102 103 1732300020 1732300030
} | pv-store --store=nights add -v cat -d 1732300000 >/dev/null || exit 99
pv-store --store=nights pair --baseline=base cat >cat.pair || exit 99
awk -F'\t' '$1 == "section" { side = $2 }
	side == "target" && $1 == "runstart" { print $1, $2, $4 }
	side == "target" && $1 == "sample" { print $1, $9, $11 }' cat.pair \
	>cat.out
cat >cat.want <<'EOF2'
runstart 1 1732300000
runstart 2 1732300010
sample 1 100
sample 2 101
runstart 3 1732300020
runstart 4 1732300030
sample 3 102
sample 4 103
EOF2
if test_cmp cat.want cat.out; then pass
else fail "pair: the runs of two streams of one object stay apart"; fi
pv-stat cat.pair 2>cat.err | awk -F'\t' '$1 == "stat" { print $2, $12 }' \
	>cat.out
if test_cmp nights.want cat.out && test_cmp /dev/null cat.err; then pass
else fail "pair of one object of two streams: pv-stat's runs"; fi

# series: the kernel versions in release order, whatever the order they
# were stored in and the VERSION their sections give; roles '-', runval
# records and runs set as in a pair; --since, --until, operands and
# --experiment choose the versions
version() {
	printf 'pv-format\t1\nsection\tbaseline\tlabel-%s\t%s\n' "$3" "$2"
	printf 'sample\ts\tt\to\tm\tu\thigher\t-\t1\t-\t%s\n' "$1"
}
pv-store --store=kernels init >/dev/null || exit 99
for v in v6.10 v6.9 v6.11 v6.10-rc2 v6.12; do
	version 100 exp $v | pv-store --store=kernels add -v $v -d 1732000000 \
		>/dev/null || exit 99
done
version 100 other x | pv-store --store=kernels add -v v6.11 -d 1732000000 \
	>/dev/null || exit 99
version 100 exp y | pv-stat -S |
	pv-store --store=kernels add -v v6.12 -d 1732000000 >/dev/null || exit 99
pv-store --store=kernels series >series.out
expect_status 0 "series" rc $?
grep -E '^(section|runval)' series.out | cut -f1-4,12 >series.got
cat >series.want <<'EOF2'
section	-	v6.9	exp
section	-	v6.10-rc2	exp
section	-	v6.10	exp
section	-	v6.11	exp
section	-	v6.11	other
section	-	v6.12	exp
section	-	v6.12	exp
runval	-	v6.12	exp	2
EOF2
if test_cmp series.want series.got; then pass; else fail "series: order"; fi
pv-store --store=kernels series --since=v6.10-rc2 --until=v6.11 \
	--experiment=other | awk -F'\t' '$1 == "section" { print $3, $4 }' \
	>series.got
echo 'v6.11 other' >series.want
if test_cmp series.want series.got; then pass
else fail "series: --since, --until, --experiment"; fi
pv-store --store=kernels series v6.12 v6.9 |
	awk -F'\t' '$1 == "section" { print $3 }' | uniq >series.got
printf 'v6.9\nv6.12\n' >series.want
if test_cmp series.want series.got; then pass; else fail "series: operands"; fi
# the series as pv-series reads it: the same key across versions
pv-store --store=kernels series | pv-series >/dev/null
expect_status 0 "series: pv-series reads it" rc $?
expect_status 2 "series: --since not in it" pv-store --store=kernels series \
	--since=v6.11 v6.9 v6.10 2>/dev/null
expect_status 2 "series: empty" pv-store --store=kernels series \
	--experiment=nosuch 2>/dev/null
# a damaged object: nothing written, exit 2
h=$(pv-store --store=kernels log v6.10 | cut -f3)
obj=$(ls kernels/objects/$(echo "$h" | cut -c1-2)/$(echo "$h" | cut -c3-)*)
chmod u+w "$obj"
printf 'X' | dd of="$obj" bs=1 seek=30 conv=notrunc 2>/dev/null
pv-store --store=kernels series >series.out 2>series.err
expect_status 2 "series: damaged object" rc $?
test -s series.out && fail "series: written before the damage was found" ||
	pass
grep -q "^pv-store: object $h of 'v6.10': object [0-9a-f]* is corrupt" \
	series.err && pass || fail "series: message $(cat series.err)"
# commits git here does not know: in the order they were stored, said so
pv-store --store=imports init >/dev/null || exit 99
for c in 2222222222222222222222222222222222222222 \
    1111111111111111111111111111111111111111; do
	version 100 exp $c | pv-store --store=imports add -v $c -d 1732000000 \
		>/dev/null || exit 99
done
pv-store --store=imports series 2>series.err |
	awk -F'\t' '$1 == "section" { print substr($3, 1, 4) }' >series.got
printf '2222\n1111\n' >series.want
if test_cmp series.want series.got; then pass; else fail "series: imports"; fi
echo "pv-store: warning: git cannot order the stored commits (not in this repository?): they are in the order they were stored" \
	>series.want
if test_cmp series.want series.err; then pass
else fail "series: imports warning"; fi

# rm withdraws, gc removes what nothing names
expect_status 0 "rm" pv-store rm -d 1732600000 gz-test
expect_status 2 "rm: no such object" pv-store rm v6.12 0000 2>rm0.err
expect_golden "$D/rm0.err" rm0.err "rm: no such object message"
expect_status 2 "rm unknown" pv-store rm nosuch 2>rm.err
expect_golden "$D/rm.err" rm.err "rm unknown message"
expect_status 0 "rm kbuild" pv-store rm kbuild-1
pv-store gc >gc.out
expect_golden "$D/gc.out" gc.out "gc"
pv-store log >log2.out
expect_golden "$D/log2.out" log2.out "log after rm and gc"
expect_status 0 "verify clean" pv-store verify
expect_status 2 "show removed" pv-store show kbuild-1 2>/dev/null

# corruption: one flipped byte is found and named; the rest stays readable
h=$(cut -f1 add.out)
obj=store/objects/$(echo "$h" | cut -c1-2)/$(echo "$h" | cut -c3-)
chmod u+w "$obj"
printf 'X' | dd of="$obj" bs=1 seek=30 conv=notrunc 2>/dev/null
expect_status 1 "verify corrupt" pv-store verify >verify.out 2>verify.tmp
# zlib's own words for the damage vary between versions: leave them out
sed 's/ ([^()]*)$//' verify.tmp >verify.err
expect_golden "$D/verify.out" verify.out "verify names the object"
expect_golden "$D/verify.err" verify.err "verify message"
expect_status 2 "show corrupt" pv-store show v6.11 >/dev/null 2>/dev/null
pv-store show v6.12 >show3.out
if test_cmp want.pv show3.out; then pass; else fail "others readable"; fi
rm -f "$obj"
expect_status 1 "verify missing" pv-store verify >verify2.out 2>/dev/null
expect_golden "$D/verify-missing.out" verify2.out "verify missing"
pv-store rm v6.11
expect_status 0 "verify after rm" pv-store verify
# a cut object is corrupt too
pv-store --store=s2 init
h2=$(pv-store --store=s2 add -v x "$D/v6.12.pv" | cut -f1)
obj2=s2/objects/$(echo "$h2" | cut -c1-2)/$(echo "$h2" | cut -c3-)
chmod u+w "$obj2"
head -c 40 "$obj2" >cut && cat cut >"$obj2"
expect_status 1 "verify cut object" pv-store --store=s2 verify \
	>verify3.out 2>/dev/null
printf 'corrupt\t%s\tx\n' "$h2" >verify3.want
if test_cmp verify3.want verify3.out; then pass; else fail "cut object"; fi

# a torn last index line: ignored by readers, cut by the next writer
pv-store log >before.out
printf 'add\tv9\t0123456789' >>store/index
pv-store log >torn.out
if test_cmp before.out torn.out; then pass; else fail "torn: log"; fi
expect_status 0 "verify torn" pv-store verify 2>torn.err
expect_golden "$D/torn.err" torn.err "torn warning"
pv-store add -v after-torn -d 1732700000 "$D/v6.12.pv" >/dev/null
if tail -n 1 store/index | grep -q '^add	after-torn	' &&
    ! grep -q 0123456789 store/index; then pass; else fail "torn: repair"; fi

# bad input: named with its line, nothing stored, exit 2
cp "$D/bad.pv" bad.pv
n0=$(find store/objects -type f | wc -l)
expect_status 2 "bad stream" pv-store add -v v7.0 bad.pv 2>bad.err
expect_golden "$D/bad.err" bad.err "bad stream message"
expect_status 0 "bad: nothing stored" \
	test "$(find store/objects -type f | wc -l)" -eq "$n0"
expect_status 0 "bad: no temporary left" test -z "$(ls store/tmp)"
expect_status 2 "bad: not in the index" pv-store show v7.0 2>/dev/null
printf '\037\213garbage' >bad.gz
expect_status 2 "corrupt gzip input" pv-store add -v v7.0 bad.gz 2>/dev/null
printf 'pv-format\t1\nmeta\ta\tb\n' | gzip | head -c 25 >trunc.gz
expect_status 2 "truncated gzip input" pv-store add -v v7.0 trunc.gz \
	2>trunc.err
expect_golden "$D/trunc.err" trunc.err "truncated gzip message"
# bytes after the gzip data: refused, as every pv tool refuses them
{ gzip -c "$D/v6.12.pv"; printf 'junk\n'; } >trail.gz
expect_status 2 "bytes after gzip data" pv-store add -v v7.0 trail.gz \
	2>trail.tmp
# zlib's own words for the damage vary between versions: leave them out
sed 's/: invalid gzip data: .*/: invalid gzip data/' trail.tmp >trail.err
expect_golden "$D/trail.err" trail.err "bytes after gzip data message"
expect_status 2 "empty input" pv-store add -v v7.0 </dev/null 2>empty.err
expect_golden "$D/empty.err" empty.err "empty input message"
expect_status 2 "missing file" pv-store add -v v7.0 nosuch.pv 2>missing.err
expect_golden "$D/missing.err" missing.err "missing file message"
expect_status 2 "bad version name" pv-store add -v 'a b' "$D/v6.12.pv" \
	2>/dev/null

# usage, options, unknown versions, not a store, write errors
expect_status 2 "no command" pv-store 2>/dev/null
expect_status 2 "unknown command" pv-store frob 2>frob.err
expect_golden "$D/frob.err" frob.err "unknown command message"
expect_status 2 "option not taken" pv-store log --baseline=x 2>/dev/null
expect_status 2 "show: no version" pv-store show 2>/dev/null
expect_status 2 "show unknown" pv-store show v1.0 2>unknown.err
expect_golden "$D/unknown.err" unknown.err "unknown version message"
# the usage and help, made from the table of commands
expect_status 0 "help" pv-store --help >help.out
expect_golden "$D/help.out" help.out "--help"
expect_status 0 "add --help" pv-store add --help >/dev/null
expect_status 0 "version" pv-store --version >/dev/null
expect_status 2 "not a store" pv-store --store="$T" log 2>notstore.tmp
sed "s|$T|T|g" notstore.tmp >notstore.err
expect_golden "$D/notstore.err" notstore.err "not a store message"
# --help's usage is the man page's SYNOPSIS; the page is lint-clean
if command -v mandoc >/dev/null; then
	mandoc -T ascii -O width=200 "$top_srcdir/man/pv-store.1" |
	    sed 's/.\x08//g' |
	    awk '/^SYNOPSIS/ { on = 1; next } /^[A-Z]/ { on = 0 }
		on && NF { sub(/^ +/, ""); print }' >synopsis.out
	pv-store --help | awk '/^$/ { exit } { sub(/^usage: +/, "");
		sub(/^ +/, ""); print }' >usage.out
	if test_cmp synopsis.out usage.out; then pass; else
		fail "--help differs from the SYNOPSIS"; fi
	expect_status 0 "man page lint" mandoc -T lint -W warning \
		"$top_srcdir/man/pv-store.1"
fi
if [ -w /dev/full ]; then
	expect_status 2 "write error" pv-store show v6.12 >/dev/full 2>/dev/null
fi
finish
