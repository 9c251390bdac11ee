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
