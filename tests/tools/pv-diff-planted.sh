#!/bin/sh
# pv-diff on a real pair with a planted slow function (tests/data/planted,
# see its README): two versions of a program of several source files,
# recorded with perf record -g; pv-parse --debuginfo gives the frames
# their source files from the versions built again here (cc needed), and
# the file holding the planted function comes first in pv-diff's file
# table, with the other files of the program below it.  And the rename
# pair of the same program (two functions renamed, one inlined): its
# match records are the two renames, and no more.  First, a kernel-heavy
# pair, dd from /dev/zero against dd from /dev/urandom: the kernel space
# and the [kernel.kallsyms] module lead their tables.
. "${top_srcdir:-.}/tests/lib.sh"

D=$top_srcdir/tests/data/planted
cd "$T" || exit 99

pv-parse -r baseline "$D/dd-zero.perf.gz" >ddz.pv &&
	pv-parse -r target "$D/dd-urandom.perf.gz" >ddu.pv ||
	fail "pv-parse, the dd pair"
pv-diff ddz.pv ddu.pv >dd.pv
[ $? -eq 1 ] && pass || fail "pv-diff, the dd pair: exit status"
for k in space module; do
	awk -F'\t' -v k=$k '$1 == "group" && $3 == k {
		printf "%s %s %.2f %.2f\n", k, $4, $10, $12; exit }' dd.pv
done >got
cat >want <<'EOT'
space kernel 78.63 98.79
module [kernel.kallsyms] 78.63 98.79
EOT
test_cmp want got && pass || fail "the dd pair: kernel first"

command -v cc >/dev/null 2>&1 || { echo "no C compiler (cc): the" \
	"planted program is not built" >&2; finish; }

for v in v1 v2; do
	mkdir -p "$v"
	cp -R "$D/src" "$v/"
	def=
	[ $v = v2 ] && def=-DPLANTED
	(cd "$v" && cc -g -O1 -fno-omit-frame-pointer $def -o app \
	    src/main.c src/parse/lexer.c src/eval/eval.c src/util/hash.c) ||
		skip_all "cc cannot build with -g"
	gzip -dc "$D/$v.perf.gz" | sed "s|(/tmp/planted/$v/app)|($T/$v/app)|" |
		pv-parse --debuginfo -r "$([ $v = v1 ] && echo baseline ||
		    echo target)" -s "$v" >"$v.pv" || fail "pv-parse $v"
done
pv-diff v1.pv v2.pv >diff.pv
[ $? -eq 1 ] && pass || fail "pv-diff: exit status"

# the file table, as pv-diff ranks it: the first row, and the program's
awk -F'\t' '$1 == "group" && $3 == "file" { print $4; exit }' diff.pv >got
echo src/parse/lexer.c >want
test_cmp want got && pass || fail "the planted function's file first"
awk -F'\t' '$1 == "group" && $3 == "file" && $4 ~ /^src\// {
	printf "%s %.2f %.2f\n", $4, $10, $12 }' diff.pv >got
cat >want <<'EOT'
src/parse/lexer.c 41.46 63.56
src/main.c 0.00 0.00
src/util/hash.c 24.77 15.40
src/eval/eval.c 31.89 20.00
EOT
test_cmp want got && pass || fail "the program's files: exclusive shares"
# the planted function leads the functions, too
awk -F'\t' '$1 == "func" { print $3; exit }' diff.pv >got
echo token_checksum >want
test_cmp want got && pass || fail "the planted function first"

# the rename pair: its match records, exactly
pv-parse -r baseline "$D/rename-a.perf.gz" >ra.pv &&
	pv-parse -r target "$D/rename-b.perf.gz" >rb.pv ||
	fail "pv-parse, the rename pair"
pv-diff ra.pv rb.pv >rdiff.pv
[ $? -eq 1 ] && pass || fail "pv-diff, the rename pair: exit status"
awk -F'\t' '$1 == "match" { print $3, $4 }' rdiff.pv >got
printf 'lex_line tokenize_line\nhash_mix mix_hash\n' >want
test_cmp want got && pass || fail "the rename pair's matches"

finish
