# bad-input-gen.sh: the input generators of tests/tools/bad-input.sh,
# sourced by it.  gen_NAME FILE writes the input NAME to FILE (or, for a
# directory, makes it); perf script text for pv-parse (the perf_* ones)
# and pv records for pv-diff and pv-render.

# a perf script sample: perf_sample COMM PID EVENT FRAME...
perf_sample() {
	printf '%s %s 1.0: 1 %s:\n' "$1" "$2" "$3"
	shift 3
	for f in "$@"; do
		printf '\t    ffff %s+0x1 (/bin/x)\n' "$f"
	done
	printf '\n'
}

# two sections of stacks, the input pv-diff and pv-render expect
pv_pair() {
	printf 'pv-format\t1\n'
	printf 'section\tbaseline\tv1\texp1\n'
	printf 'stack\tcycles\t2\t200\tmain;a;leaf\n'
	printf 'stack\tcycles\t1\t100\tmain;b\n'
	printf 'section\ttarget\tv2\texp1\n'
	printf 'stack\tcycles\t3\t300\tmain;a;leaf\n'
	printf 'stack\tcycles\t1\t100\tmain;c\n'
}

gen_empty() { : >"$1"; }
gen_elf() { cp /bin/true "$1"; }
gen_perfdata() {
	{ printf 'PERFILE2'; head -c 4096 /dev/zero; } >"$1"
}
gen_perf_truncgz() {
	perf_sample app 1 cycles main f g >"$1.plain"
	i=0
	while [ $i -lt 200 ]; do
		perf_sample app $i cycles main "f$i" g
		i=$((i + 1))
	done >>"$1.plain"
	gzip -c "$1.plain" >"$1.gz"
	head -c $(($(wc -c <"$1.gz") / 2)) "$1.gz" >"$1"
	rm -f "$1.plain" "$1.gz"
}
gen_pv_truncgz() {
	i=0
	{
		pv_pair
		while [ $i -lt 300 ]; do
			printf 'stack\tcycles\t1\t1\tmain;f%d\n' $i
			i=$((i + 1))
		done
	} | gzip -c >"$1.gz"
	head -c $(($(wc -c <"$1.gz") / 2)) "$1.gz" >"$1"
	rm -f "$1.gz"
}
gen_perf_nul() {
	{ perf_sample app 1 cycles main f; printf 'app 2 1.0: 1 cyc\000les:\n'; } >"$1"
}
gen_pv_nul() {
	{ pv_pair; printf 'stack\tcycles\t1\t1\tmain;x\000y\n'; } >"$1"
}
gen_perf_crlf() {
	perf_sample app 1 cycles main f | sed 's/$/\r/' >"$1"
}
gen_pv_crlf() { pv_pair | sed 's/$/\r/' >"$1"; }
# a UTF-8 byte order mark first; line ends of CR alone; UTF-16
gen_perf_bom() {
	{ printf '\357\273\277'; perf_sample app 1 cycles main f; } >"$1"
}
gen_pv_bom() { { printf '\357\273\277'; pv_pair; } >"$1"; }
gen_st_bom() { { printf '\357\273\277'; st_pair; } >"$1"; }
gen_perf_cr() { perf_sample app 1 cycles main f | tr '\n' '\r' >"$1"; }
gen_pv_cr() { pv_pair | tr '\n' '\r' >"$1"; }
gen_pv_utf16() { pv_pair | iconv -f UTF-8 -t UTF-16 >"$1"; }
gen_pv_utf16le() { pv_pair | iconv -f UTF-8 -t UTF-16LE >"$1"; }
gen_perf_utf16() { perf_sample app 1 cycles main f | iconv -t UTF-16 >"$1"; }
gen_perf_badutf8() {
	perf_sample app 1 cycles main "$(printf 'bad\377\376name')" >"$1"
}
gen_pv_badutf8() {
	pv_pair >"$1"
	printf 'stack\tcycles\t1\t100\tmain;\377\376<b>&amp;\n' >>"$1"
}
# a 10 MB line that is no record at all
gen_longline() {
	head -c 10485760 /dev/zero | tr '\0' 'x' >"$1"
	printf '\n' >>"$1"
}
# a 10 MB frame name in a good input
gen_perf_longname() {
	{
		printf 'app 1 1.0: 1 cycles:\n\t    ffff '
		head -c 10485760 /dev/zero | tr '\0' 'x'
		printf '+0x1 (/bin/x)\n\n'
	} >"$1"
}
gen_pv_longname() {
	pv_pair >"$1"
	{
		printf 'stack\tcycles\t1\t100\tmain;'
		head -c 10485760 /dev/zero | tr '\0' 'x'
		printf '\n'
	} >>"$1"
}
# one stack of 100,000 frames
gen_perf_deep() {
	{
		printf 'app 1 1.0: 1 cycles:\n'
		seq 1 100000 | sed 's/^/\t    ffff f/; s/$/+0x1 (\/bin\/x)/'
		printf '\n'
	} >"$1"
}
gen_pv_deep() {
	pv_pair >"$1"
	{
		printf 'stack\tcycles\t1\t100\t'
		seq 1 100000 | sed 's/^/f/' | paste -sd';'
	} >>"$1"
}
# a count of 2^64, which does not fit
gen_pv_overflow() {
	pv_pair >"$1"
	printf 'stack\tcycles\t1\t18446744073709551616\tmain;b\n' >>"$1"
}
# counts that fit but whose sum does not
gen_pv_sumoverflow() {
	pv_pair >"$1"
	printf 'stack\tcycles\t1\t18446744073709551615\tmain;b\n' >>"$1"
	printf 'stack\tcycles\t1\t18446744073709551615\tmain;d\n' >>"$1"
}
gen_perf_overflow() {
	printf 'app 1 1.0: 18446744073709551616 cycles:\n\t    ffff f+0x1 (/bin/x)\n\n' >"$1"
}
gen_pv_nan() {
	pv_pair >"$1"
	printf 'sample\ts\tt\to\tm\tns\tlower\t-\t1\t-\tnan\n' >>"$1"
}
gen_pv_inf() {
	pv_pair >"$1"
	printf 'sample\ts\tt\to\tm\tns\tlower\t-\t1\t-\tinf\n' >>"$1"
}
gen_generic_nan() { printf 'latency nan ns lower\n' >"$1"; }
gen_generic_inf() { printf 'latency inf ns lower\n' >"$1"; }
gen_generic_underflow() { printf 'latency 1e-400 ns lower\n' >"$1"; }
# a section header and nothing after it
gen_pv_emptysection() {
	printf 'pv-format\t1\nsection\tbaseline\tv1\texp1\n' >"$1"
}
# the two sections of different experiments
gen_pv_mismatch() { pv_pair | sed '/^section.target/s/exp1/exp2/' >"$1"; }
gen_dir() { mkdir -p "$1"; }
gen_missing() { rm -rf "$1"; }
# a file that opens but cannot be read: chmod 000 does not stop root, so
# as root the stand-in is /proc/self/mem, whose first page read(2) fails
# with EIO
gen_unreadable() {
	if [ "$(id -u)" = 0 ]; then
		ln -sf /proc/self/mem "$1"
	else
		: >"$1"
		chmod 000 "$1"
	fi
}
# a 10 MB line that is neither a record nor a folded stack
gen_longline() {
	yes 'word;' | head -c 10485760 | tr -d '\n' >"$1"
	printf '\n' >>"$1"
}
# two samples whose periods add up to more than 64 bits hold
gen_perf_sumoverflow() {
	{
		printf 'app 1 1.0: 18446744073709551615 cycles:\n'
		printf '\t    ffff f+0x1 (/bin/x)\n\n'
		printf 'app 1 1.0: 18446744073709551615 cycles:\n'
		printf '\t    ffff f+0x1 (/bin/x)\n\n'
	} >"$1"
}
# folded lines with no frames at all, twice (an empty stack)
gen_empty_frames() { printf ' 1\n 2\n' >"$1"; }
# well-formed inputs of three distinct stacks, for the limits of the stack
# table and the call tree (lowered with PV_TEST_MAX_STACKS and
# PV_TEST_MAX_PATHS): perf script text, two sections of stacks, pv-diff's
# output of them, and diff-folded lines
gen_perf_stacks() {
	{
		perf_sample app 1 cycles leaf a main
		perf_sample app 1 cycles b main
		perf_sample app 1 cycles c main
	} >"$1"
}
gen_pv_pair() { pv_pair >"$1"; }
gen_pv_dstacks() { pv_pair | pv-diff >"$1"; [ -s "$1" ]; }
gen_dfold() { printf 'main;a 1 2\nmain;b 3 0\nmain;c 0 4\n' >"$1"; }
# a dstack record whose FRAMES has an unknown escape, after one in order
gen_dstack_badesc() {
	printf 'pv-format\t1\ndstack\tcycles\t1\t2\tmain;a\n' >"$1"
	printf 'dstack\tcycles\t1\t2\tmain;b\\q\n' >>"$1"
}

# a dstack, then a meta record short of its value: diff-folded uses no
# meta record but checks it
gen_dstack_badmeta() {
	printf 'pv-format\t1\ndstack\tcycles\t1\t2\tmain;a\n' >"$1"
	printf 'meta\tkernel\n' >>"$1"
}

# Benchmark samples, for pv-stat, pv-diff's sample mode and pv-classify
# (the st_* inputs; rv_* are pv-stat -S output, stat_* pv-stat output,
# cmp_* pv-diff output, each from st_pair through the tools and then
# spoilt).  st_pair: two levels, five runs a side, the target 10% slower.
st_pair() {
	printf 'pv-format\t1\n'
	for side in 'baseline v1 100' 'target v2 90'; do
		# shellcheck disable=SC2086
		set -- $side
		printf 'section\t%s\t%s\texp1\n' "$1" "$2"
		for lev in 1 2; do
			for run in 1 2 3 4 5; do
				printf 'sample\ts\tt\top\tm\tu\thigher\t%s\t%s\t-\t%s\n' \
					$lev $run $(($3 * lev + run))
			done
		done
	done
}
# a sample record appended to st_pair: st_with FILE FIELDS... (TAB-joined)
st_with() {
	f=$1
	shift
	st_pair >"$f"
	(IFS=$(printf '\t'); printf 'sample\t%s\n' "$*") >>"$f"
}
gen_st_nan() { st_with "$1" s t op m u higher 1 6 - nan; }
# a record of another type appended to st_pair: rec_with FILE FIELDS...
rec_with() {
	f=$1
	shift
	st_pair >"$f"
	(IFS=$(printf '\t'); printf '%s\n' "$*") >>"$f"
}
gen_st_runstart_word() { rec_with "$1" runstart 1 1 noon; }
gen_st_runstart_fewfields() { rec_with "$1" runstart 1 1; }
gen_st_runstart_run() { rec_with "$1" runstart -1 1 1700000000; }
gen_st_primary_fewfields() { rec_with "$1" primary s t op; }
gen_st_inf() { st_with "$1" s t op m u higher 1 6 - -inf; }
# a nonzero value that a double holds only as 0; a subnormal one
gen_st_underflow() { st_with "$1" s t op m u higher 1 6 - 1e-400; }
gen_st_subnormal() { st_with "$1" s t op m u higher 1 6 - 5e-324; }
gen_st_word() { st_with "$1" s t op m u higher 1 6 - 12abc; }
# terminal escapes in a value a message quotes, and in a test's name
gen_st_escvalue() {
	st_with "$1" s t op m u higher 1 6 - "$(printf '\033[31m5')"
}
gen_st_escname() { st_pair | sed "s/\tt\top\t/\t$(printf '\033')]0;x\top\t/" >"$1"; }
gen_verdict_escname() {
	gen_st_escname "$1.in" && pv-diff "$1.in" | pv-classify >"$1"
	status=$?
	rm -f "$1.in"
	[ "$status" -le 1 ]
}
gen_st_fewfields() { st_with "$1" s t op m u higher 1 6 99; }
gen_st_direction() { st_with "$1" s t op m u sideways 1 6 - 99; }
gen_st_leveloverflow() {
	st_with "$1" s t op m u higher 18446744073709551616 6 - 99
}
gen_st_runoverflow() {
	st_with "$1" s t op m u higher 1 18446744073709551616 - 99
}
gen_st_seqoverflow() {
	st_with "$1" s t op m u higher 1 6 18446744073709551616 99
}
# finite values whose sum is not: the mean of a run must still be right
gen_st_hugesum() {
	st_pair >"$1"
	for seq in 1 2 3; do
		printf 'sample\ts\tbig\top\tm\tu\thigher\t-\t1\t%s\t1.5e308\n' \
			$seq
	done >>"$1"
}
# runs each finite, too large to add up, their mean a double (1.5e308);
# runs whose standard deviation no double holds (about 2.07e308)
gen_st_bigsum() {
	st_pair >"$1"
	for run in 1 2 3; do
		printf 'sample\ts\tbig\top\tm\tu\thigher\t-\t%s\t-\t1.5e308\n' \
			$run
	done >>"$1"
}
gen_st_hugeruns() {
	st_pair >"$1"
	for v in 1.79e308 -1.79e308 1.79e308; do
		printf 'sample\ts\tbig\top\tm\tu\thigher\t-\t%s\t-\t%s\n' \
			"${run:=1}" "$v"
		run=$((run + 1))
	done >>"$1"
	unset run
}
gen_st_crlf() { st_pair | sed 's/$/\r/' >"$1"; }
gen_st_badutf8() {
	st_pair | sed 's/^\(sample.s.\)t/\1\xff\xfe<b>\&amp;/' >"$1"
}
gen_st_nul() {
	{ st_pair; printf 'sample\ts\tt\top\tm\tu\thigher\t1\t6\t-\t9\0009\n'; } >"$1"
}
gen_st_truncgz() {
	i=0
	{
		st_pair
		while [ $i -lt 400 ]; do
			printf 'sample\ts\tt%d\top\tm\tu\thigher\t-\t1\t-\t%d\n' $i $i
			i=$((i + 1))
		done
	} | gzip -c >"$1.gz"
	head -c $(($(wc -c <"$1.gz") / 2)) "$1.gz" >"$1"
	rm -f "$1.gz"
}
# a 10 MB test name in a good input
gen_st_longname() {
	st_pair >"$1"
	for run in 1 2 3; do
		printf 'sample\ts\t'
		head -c 10485760 /dev/zero | tr '\0' 'x'
		printf '\top\tm\tu\thigher\t-\t%s\t-\t5\n' $run
	done >>"$1"
}
gen_st_emptysection() {
	printf 'pv-format\t1\nsection\tbaseline\tv1\texp1\n' >"$1"
}
gen_st_onlyheaders() {
	st_pair | grep -v '^sample' >"$1"
}
# the target measured another experiment
gen_st_mismatch() { st_pair | sed '/^section.target/s/exp1/exp2/' >"$1"; }
# one run a side
gen_st_n1() { st_pair | awk -F'\t' '$1 != "sample" || $9 == 1' >"$1"; }
# every run of a side the same, the sides apart: no spread at all
gen_st_zerovar() {
	st_pair | awk 'BEGIN { FS = OFS = "\t" }
		$1 == "section" { v = $2 == "baseline" ? 100 : 90 }
		$1 == "sample" { $11 = v } { print }' >"$1"
}
# a key that only the baseline has
gen_st_oneside() {
	st_pair | awk 'BEGIN { FS = OFS = "\t" }
		$1 == "section" { side = $2 }
		$1 == "sample" && side == "baseline" && $8 == 2 { $5 = "only" }
		{ print }' >"$1"
}
# the output of a tool on st_pair, with the field FIELD of the first
# record of type TYPE set to VALUE ("" drops the field):
# derived FILE "TOOL..." TYPE FIELD VALUE
derived() {
	st_pair >"$1.in"
	$2 "$1.in" >"$1.out"
	status=$?
	rm -f "$1.in"
	[ "$status" -le 1 ] || return 1
	awk -v type="$3" -v n="$4" -v v="$5" 'BEGIN { FS = OFS = "\t" }
		$1 == type && !done {
			done = 1
			if (v == "") {
				for (i = n; i < NF; i++)
					$i = $(i + 1)
				NF--
			} else {
				$n = v
			}
		}
		{ print }' "$1.out" >"$1"
	rm -f "$1.out"
}
gen_rv_good() { derived "$1" 'pv-stat -S' runval 1 runval; }
gen_rv_nan() { derived "$1" 'pv-stat -S' runval 14 nan; }
gen_rv_inf() { derived "$1" 'pv-stat -S' runval 14 inf; }
gen_rv_word() { derived "$1" 'pv-stat -S' runval 12 one; }
# a runval of 13 fields: its QUANTUM and VALUE gone
gen_rv_fewfields() {
	derived "$1" 'pv-stat -S' runval 15 '' &&
		awk 'BEGIN { FS = OFS = "\t" }
			$1 == "runval" && !done { done = 1; NF = 13 }
			{ print }' "$1" >"$1.tmp" && mv "$1.tmp" "$1"
}
gen_rv_countoverflow() {
	derived "$1" 'pv-stat -S' runval 13 18446744073709551616
}
gen_rv_leveloverflow() {
	derived "$1" 'pv-stat -S' runval 11 18446744073709551616
}
# the first run given again at the end
gen_rv_dup() {
	gen_rv_good "$1" && first=$(grep -m1 '^runval' "$1") &&
		printf '%s\n' "$first" >>"$1"
}
gen_rv_quantum() { derived "$1" 'pv-stat -S' runval 15 0; }
gen_stat_nan() { derived "$1" pv-stat stat 14 nan; }
gen_stat_inf() { derived "$1" pv-stat stat 14 inf; }
gen_stat_fewfields() { derived "$1" pv-stat stat 14 ''; }
gen_stat_word() { derived "$1" pv-stat stat 12 many; }
gen_cmp_good() { derived "$1" pv-diff cmp 1 cmp; }
gen_cmp_nan() { derived "$1" pv-diff cmp 14 nan; }
gen_cmp_inf() { derived "$1" pv-diff cmp 14 inf; }
gen_cmp_ninf() { derived "$1" pv-diff cmp 14 -inf; }
gen_cmp_hiinf() { derived "$1" pv-diff cmp 16 inf; }
gen_cmp_pnan() { derived "$1" pv-diff cmp 21 nan; }
gen_cmp_word() { derived "$1" pv-diff cmp 12 five; }
gen_cmp_fewfields() { derived "$1" pv-diff cmp 20 ''; }
gen_cmp_countoverflow() { derived "$1" pv-diff cmp 12 18446744073709551616; }
gen_cmp_leveloverflow() { derived "$1" pv-diff cmp 11 18446744073709551616; }
gen_cmp_flag() { derived "$1" pv-diff cmp 29 sideways; }
gen_cmp_honest() { derived "$1" pv-diff cmp 30 x; }
gen_cmp_order() { derived "$1" pv-diff cmp 34 before; }
gen_cmp_quantum() { derived "$1" pv-diff cmp 36 -1; }
# pv-diff's output on another input: diffed FILE INPUT
diffed() {
	"gen_$2" "$1.in" && pv-diff "$1.in" >"$1"
	status=$?
	rm -f "$1.in"
	[ "$status" -le 1 ]
}
gen_cmp_n1() { diffed "$1" st_n1; }
gen_cmp_zerovar() { diffed "$1" st_zerovar; }
gen_cmp_oneside() { diffed "$1" st_oneside; }
# a target 1e110 times the baseline (its percentage once 111 digits), and
# e^1381 times (once "inf%")
gen_st_hugechange() {
	f=$1
	printf 'pv-format\t1\n' >"$f"
	for side in 'baseline v1 e0 t' 'target v2 e110 t' 'baseline v1 e-300 u' \
	    'target v2 e300 u'; do
		# shellcheck disable=SC2086
		set -- $side
		printf 'section\t%s\t%s\texp1\n' "$1" "$2"
		for run in 1 2 3 4 5 6; do
			printf 'sample\ts\t%s\top\tm\tu\thigher\t-\t%s\t-\t1.0%s%s\n' \
				"$4" $run $run "$3"
		done
	done >>"$f"
}
gen_cmp_hugechange() { diffed "$1" st_hugechange; }
gen_verdict_hugechange() {
	gen_cmp_hugechange "$1.in" && pv-classify "$1.in" >"$1"
	status=$?
	rm -f "$1.in"
	[ "$status" -le 1 ]
}

# Stores (for pv-store --store={}): v6.1 and v6.2, one stream each, the
# second's target 10% slower; then spoilt.  good_store DIR
good_store() {
	rm -rf "$1"
	st_pair | sed '/^section/s/\t[a-z]*\tv[12]\t/\t-\t-\t/' >"$1.pv"
	pv-store --store="$1" init &&
		pv-store --store="$1" add --version=v6.1 --date=1000 \
			"$1.pv" >/dev/null &&
		pv-store --store="$1" add --version=v6.2 --date=2000 \
			"$1.pv" >/dev/null
	status=$?
	rm -f "$1.pv"
	return $status
}
gen_store_good() { good_store "$1"; }
# an index line whose object name is not one
gen_store_badhash() {
	good_store "$1" && printf 'add\tv6.3\tzz\t1\t1\t1\t-\t-\t-\t-\n' >>"$1/index"
}
# an index line with too few fields
gen_store_fewfields() {
	good_store "$1" &&
		printf 'add\tv6.3\t%064d\t1\t1\n' 0 >>"$1/index"
}
# a size of 2^64
gen_store_bignum() {
	good_store "$1" &&
		printf 'add\tv6.3\t%064d\t18446744073709551616\t1\t1\t-\t-\t-\t-\n' 0 \
			>>"$1/index"
}
gen_store_nulindex() {
	good_store "$1" && printf 'add\tv6.3\0\n' >>"$1/index"
}
gen_store_cutindex() {
	good_store "$1" && printf 'add\tv6.3\t' >>"$1/index"
}
gen_store_index2() {
	good_store "$1" && sed -i '1s/\t1$/\t2/' "$1/index"
}
gen_store_emptyindex() { good_store "$1" && : >"$1/index"; }
gen_store_elfindex() { good_store "$1" && cp /bin/true "$1/index"; }
gen_store_noindex() { good_store "$1" && rm "$1/index"; }
gen_store_badformat() { good_store "$1" && echo 'pv-store 2' >"$1/format"; }
# the first stream's object: cut short, overwritten, gone
store_object() {
	set -- "$1"/objects/*/*
	chmod u+w "$1"
	printf '%s\n' "$1"
}
gen_store_cutobject() {
	good_store "$1" && o=$(store_object "$1") &&
		head -c 40 "$o" >"$o.tmp" && mv "$o.tmp" "$o"
}
gen_store_badobject() {
	good_store "$1" && o=$(store_object "$1") &&
		gzip -c /bin/true >"$o"
}
gen_store_noobject() {
	good_store "$1" && o=$(store_object "$1") && rm "$o"
}
# replaced by another stream, whole and well compressed: only its hash
# tells
gen_store_tampered() {
	good_store "$1" && o=$(store_object "$1") &&
		printf 'pv-format\t1\nsection\t-\t-\texp1\n' | gzip >"$o"
}
# links in the store, each to a directory or file outside it ($1.out)
outside() {
	rm -rf "$1.out" && mkdir "$1.out" && echo keep >"$1.out/keep"
}
gen_store_linktmp() {
	good_store "$1" && outside "$1" && rmdir "$1/tmp" &&
		ln -s "$PWD/$1.out" "$1/tmp"
}
gen_store_linklock() {
	good_store "$1" && outside "$1" && rm "$1/lock" &&
		ln -s "$PWD/$1.out/lock" "$1/lock"
}
gen_store_linkindex() {
	good_store "$1" && outside "$1" && mv "$1/index" "$1.out/index" &&
		ln -s "$PWD/$1.out/index" "$1/index"
}
gen_store_linkfanout() {
	good_store "$1" && outside "$1" && o=$(store_object "$1") &&
		d=${o%/*} && mv "$d" "$1.out/fanout" &&
		ln -s "$PWD/$1.out/fanout" "$d"
}
gen_store_linkobject() {
	good_store "$1" && outside "$1" && o=$(store_object "$1") &&
		mv "$o" "$1.out/object" && ln -s "$PWD/$1.out/object" "$o"
}
# a FIFO for the index: refused, not waited on
gen_store_fifoindex() {
	good_store "$1" && rm "$1/index" && mkfifo "$1/index"
}
# as a git clone has it: no tmp/ (git keeps no empty directory), objects
# writable (a checkout's mode)
gen_store_clone() {
	good_store "$1" && rmdir "$1/tmp" && chmod -R u+w "$1/objects"
}
# a stream of 60 experiments: its add line has 70 fields (the index once
# read 64 at most, after add had written them)
gen_store_manyexp() {
	rm -rf "$1"
	awk 'BEGIN { print "pv-format\t1"
		for (i = 0; i < 60; i++)
			printf "section\t-\t-\tx%d\nstack\tc\t1\t1\tmain\n", i
	}' >"$1.pv"
	pv-store --store="$1" init &&
		pv-store --store="$1" add --version=v1 --date=1000 \
			"$1.pv" >/dev/null
	status=$?
	rm -f "$1.pv"
	return $status
}

# Kernel configurations for pv-collect --config-ref, and benchmark output
# for its --parser (the run's output is the file, by cat)
gen_kconfig_crlf() {
	printf '# a kernel configuration\r\nCONFIG_PV_TEST=y\r\n# CONFIG_PV_OFF is not set\r\n' >"$1"
}
gen_kconfig_truncgz() {
	i=0
	while [ $i -lt 2000 ]; do
		printf 'CONFIG_PV_OPTION_%d=y\n' $i
		i=$((i + 1))
	done | gzip -c >"$1.gz"
	head -c $(($(wc -c <"$1.gz") / 2)) "$1.gz" >"$1"
	rm -f "$1.gz"
}
gen_generic_good() { printf 'latency 5 ns lower\n' >"$1"; }
gen_generic_word() { printf 'latency 5x ns lower\n' >"$1"; }
gen_generic_overflow() {
	printf 'latency 5 ns lower 18446744073709551616\n' >"$1"
}
# benchmark outputs cut short, their summaries missing: sysbench in its
# latency lines, will-it-scale in its measurement
gen_sysbench_cut() {
	head -n 21 "$top_srcdir/tests/data/bench/sysbench-cpu-t2-r1.txt" >"$1"
}
gen_wis_cut() {
	head -n 12 "$top_srcdir/tests/data/bench/wis-futex1_processes-t2-r2.out" \
		>"$1"
}
# st_pair without roles (pv-parse of an MMTests tree), and with a third
# version
gen_st_noroles() { st_pair | sed 's/^section\t[a-z]*\t/section\t-\t/' >"$1"; }
gen_st_threeversions() {
	{ st_pair; st_pair | sed -n '/^section\ttarget/,$p' |
		sed 's/^section\ttarget\tv2/section\ttarget\tv3/'; } |
		sed 's/^section\t[a-z]*\t/section\t-\t/' >"$1"
}
# the same night twice, as cat(1) of two streams gives it: the same keys
# and RUN numbers, other runs
gen_st_twostreams() { { st_pair; st_pair; } >"$1"; }
# stacks of both sides after an extension record of a type no tool knows
gen_pv_extfirst() {
	pv_pair | sed '2a\
x-note\tsomething a later tool reads' >"$1"
}
gen_st_roles() { st_pair >"$1"; }
# pv-series' records, one malformed, for pv-render's trend marks; and a
# stream of samples with stacks of three versions of one experiment
gen_cp_badchange() {
	printf 'changepoint\texp1\ts\tt\top\tm\tu\thigher\t1\tv1\tv2\tx\t-\t-\t-\t1\t1\t-\n' >"$1"
}
gen_st_stacks3() {
	{ st_pair | sed 's/^section\t[a-z]*\t/section\t-\t/'
	  printf 'section\t-\tv3\texp1\nstack\tcycles\t1\t1\tmain\n'
	  printf 'section\t-\tv1\texp1\nstack\tcycles\t1\t1\tmain\n'
	  printf 'section\t-\tv2\texp1\nstack\tcycles\t1\t1\tmain\n'; } >"$1"
}
