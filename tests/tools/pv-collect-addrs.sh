#!/bin/sh
# pv-collect --profile, frames without symbols: named after their module
# ("[hot.s]"), and with --addrs after their module and address
# ("[hot.s <12e5>]"), as perf script + pv-parse --addrs name them.
#
# - A stripped copy of pv-collect-hot: its frames have no symbol.  With
#   --addrs their addresses are file offsets (as perf script prints them),
#   which do not move with address space randomisation; turned back into
#   functions with the symbols of the unstripped program they must give
#   the stacks main;work;hot_* in the shares 1:2:4, and the frames of main
#   and work (return addresses, the same in every run) must be the very
#   frames perf record -g + perf script + pv-parse --addrs give.
# - pv-collect-jit: code in anonymous memory, named "[anon]", and with
#   --addrs by its address in the process, which the program prints.
# - Kernel symbols hidden (a kallsyms of zero addresses, as
#   kernel.kptr_restrict gives, read from PV_COLLECT_SYSROOT): kernel frames
#   are "[[kernel.kallsyms]]", with --addrs their addresses too.
# Without --addrs no address appears, so the output stays comparable from
# run to run.  Needs binutils (strip, nm, readelf); sampling refused: skip.
. "${top_srcdir:-.}/tests/lib.sh"

HOT=$top_builddir/tests/tools/pv-collect-hot
JIT=$top_builddir/tests/tools/pv-collect-jit
[ -x "$HOT" ] || skip_all "$HOT not built"
for t in strip nm readelf; do
	command -v $t >/dev/null 2>&1 || skip_all "$t (binutils) not found"
done
cd "$T" || exit 99
TMPDIR=/tmp
export TMPDIR
unset DEBUGINFOD_URLS
# perf with a build-id cache of its own: in ~/.debug it would find the
# symbols of the unstripped program (one build id) for the stripped one
PERF="perf --buildid-dir $T/buildid"

strip -o hot.s "$HOT" || skip_all "strip cannot strip $HOT"
pv-collect -p --frequency=999 -r 1 -o plain.out -- ./hot.s 100 2>pv.err
st=$?
if [ $st -eq 2 ] && grep -q 'sampling refused' pv.err; then
	skip_all "sampling refused here: $(cat pv.err)"
fi
if [ $st -eq 0 ]; then pass; else fail "plain: status $st"; cat pv.err >&2; fi
pv-collect -p --addrs --frequency=999 -r 1 -o addrs.out -- ./hot.s 100
st=$?
if [ $st -eq 0 ]; then pass; else fail "--addrs: status $st"; fi

# frames FILE: the frames below the root of every stack, one a line
frames() {
	awk -F'\t' '$1 == "stack" { n = split($5, f, ";");
		for (i = 2; i <= n; i++) print f[i] }' "$1"
}

# Without --addrs, the stripped program's frames are all "[hot.s]".
frames plain.out | grep 'hot\.s' | sort -u >plain.got
echo '[hot.s]' >plain.want
if test_cmp plain.want plain.got; then pass; else fail "frames without --addrs"; fi

# With --addrs, each of them is "[hot.s <HEX>]".
frames addrs.out | grep 'hot\.s' | sort -u >addrs.frames
if [ -s addrs.frames ] &&
	! grep -v '^\[hot\.s <[0-9a-f][0-9a-f]*>\]$' addrs.frames >&2; then
	pass
else
	fail "frames with --addrs are not [hot.s <ADDRESS>]"
fi

# The functions of the unstripped program, and its loadable segments, to
# turn a file offset back into a function: "seg OFFSET VADDR FILESZ" and
# "sym VALUE SIZE NAME", in hex.
readelf -lW "$HOT" | awk '$1 == "LOAD" { print "seg", $2, $3, $5 }' >map
nm -S --defined-only "$HOT" |
	awk 'NF == 4 && $3 ~ /^[tT]$/ { print "sym", $1, $2, $4 }' >>map

# symbolize <STACKS: stack records with "[hot.s <OFFSET>]" frames named
# after the function of the unstripped program there ("?" if none)
symbolize() {
	awk -F'\t' -v OFS='\t' '
	function hex(s,    i, c, v) {
		sub(/^0[xX]/, "", s)
		v = 0
		for (i = 1; i <= length(s); i++) {
			c = index("0123456789abcdef", tolower(substr(s, i, 1)))
			v = v * 16 + c - 1
		}
		return v
	}
	FILENAME == "map" && $0 ~ /^seg / {
		split($0, w, " ")
		ns++; so[ns] = hex(w[2]); sv[ns] = hex(w[3]); sz[ns] = hex(w[4])
		next
	}
	FILENAME == "map" {
		split($0, w, " ")
		nf++; fs[nf] = hex(w[2]); fz[nf] = hex(w[3]); fn[nf] = w[4]
		next
	}
	$1 == "stack" {
		n = split($5, f, ";")
		out = f[1]
		for (i = 2; i <= n; i++) {
			name = f[i]
			if (name ~ /^\[hot\.s <[0-9a-f]+>\]$/) {
				a = substr(name, 9, length(name) - 10)
				off = hex(a); name = "?"
				for (j = 1; j <= ns; j++)
					if (off >= so[j] && off < so[j] + sz[j])
						v = off - so[j] + sv[j]
				for (j = 1; j <= nf; j++)
					if (v >= fs[j] && v < fs[j] + fz[j])
						name = fn[j]
			}
			out = out ";" name
		}
		$5 = out
		print
	}' map -
}

symbolize <addrs.out >addrs.sym
if grep -q '^stack.*;?\(;\|$\)' addrs.sym; then
	fail "an address of hot.s in no function of $HOT"
else
	pass
fi

# leaf_counts: "count count count total" of the leaf functions hot_one,
# hot_two, hot_four and of all samples, from stack records
leaf_counts() {
	awk -F'\t' '$1 == "stack" {
		n = split($5, f, ";"); c[f[n]] += $3; t += $3
	} END {
		printf "%d %d %d %d\n", c["hot_one"], c["hot_two"], c["hot_four"], t
	}'
}

# share_check NAME "a1 a2 a3 ta" "b1 b2 b3 tb": shares agree within 4 sd
# (the rule of pv-collect-profile.sh)
share_check() {
	echo "$2 $3" | awk -v name="$1" '{
		split("hot_one hot_two hot_four", fn, " ")
		bad = ($4 == 0 || $8 == 0)
		for (i = 1; i <= 3; i++) {
			p1 = $i / $4; p2 = $(i + 4) / $8
			p = ($i + $(i + 4)) / ($4 + $8)
			tol = 4 * sqrt(p * (1 - p) * (1 / $4 + 1 / $8)) + 0.01
			d = p1 - p2; if (d < 0) d = -d
			printf "%s: %s %.4f vs %.4f, |d| %.4f, tolerance %.4f\n",
				name, fn[i], p1, p2, d, tol
			if (d > tol) bad = 1
		}
		exit bad
	}'
}

# The addresses name the right functions: the hot stacks, and their shares.
awk -F'\t' '$1 == "stack" { print $5 }' addrs.sym |
	sed -n 's/^hot\.s;.*;\(main;work;hot_[a-z]*\)$/\1/p' | sort -u >hot.got
printf 'main;work;hot_four\nmain;work;hot_one\nmain;work;hot_two\n' >hot.want
if test_cmp hot.want hot.got; then pass; else fail "hot stacks by address"; fi
leaf_counts <addrs.sym >pv.counts
set -- $(cat pv.counts)
hot=$(($1 + $2 + $3))
if [ "$hot" -lt 300 ]; then
	fail "too few samples of the hot functions ($hot)"
elif share_check truth "$1 $2 $3 $hot" "1000000 2000000 4000000 7000000" \
	>&2; then
	pass
else
	fail "shares by address against 1:2:4"
fi

# callers FILE: the frames of main and work below the leaf (return
# addresses) in the stacks of FILE, by address
callers() {
	symbolize <"$1" >"$1.sym"
	awk -F'\t' '$1 == "stack" { n = split($5, f, ";");
		for (i = 2; i < n; i++) print f[i] }' "$1" >"$1.f"
	awk -F'\t' '$1 == "stack" { n = split($5, f, ";");
		for (i = 2; i < n; i++) print f[i] }' "$1.sym" >"$1.fs"
	paste "$1.f" "$1.fs" | awk -F'\t' '$2 == "main" || $2 == "work" {
		print $1 }' | sort -u
}
callers addrs.out >callers.pv
if [ "$(wc -l <callers.pv)" -eq 4 ]; then pass
else fail "callers: not 4 frames (main, work's 3 calls)"; cat callers.pv >&2; fi

if command -v perf >/dev/null 2>&1 &&
	$PERF record -q -g -F 999 -o perf.data -- ./hot.s 100 >/dev/null \
	2>perf.err; then
	$PERF script -i perf.data 2>/dev/null >perf.txt
	pv-parse --addrs perf.txt >perf.out
	callers perf.out >callers.perf
	if test_cmp callers.perf callers.pv; then pass
	else fail "frames of main and work differ from perf's"; fi
	symbolize <perf.out | leaf_counts >perf.counts
	if share_check agreement "$(cat pv.counts)" "$(cat perf.counts)" >&2
	then
		pass
	else
		fail "shares by address: pv-collect and perf disagree"
	fi
	pv-parse perf.txt | frames /dev/stdin | grep 'hot\.s' | sort -u \
		>perf.plain
	if test_cmp plain.want perf.plain; then pass
	else fail "perf + pv-parse without --addrs"; fi
else
	printf 'SKIP: agreement with perf: perf record cannot run here\n' >&2
fi

# Code in anonymous memory: "[anon]", with --addrs its address in the
# process, within the code the program says it ran.
st=77
[ -x "$JIT" ] && { "$JIT" 1 >/dev/null; st=$?; }
if [ $st -eq 77 ]; then
	printf 'SKIP: no code in anonymous memory here\n' >&2
else
	pv-collect -p --addrs -a art --frequency=999 -r 1 -o jit.out -- \
		"$JIT" 20 2>jit.err
	st=$?
fi
if [ $st -eq 77 ]; then
	:
elif [ $st -ne 0 ]; then
	fail "jit: status $st"
else
	range=$(cat art/*/run-001.stdout)
	frames jit.out | grep '^\[anon' | sort | uniq -c >jit.frames
	if [ -s jit.frames ] && awk -v r="$range" '
		function hex(s,    i, v) {
			v = 0
			for (i = 1; i <= length(s); i++)
				v = v * 16 + index("0123456789abcdef",
						   substr(s, i, 1)) - 1
			return v
		}
		BEGIN { split(r, w, " "); lo = hex(w[1]); hi = hex(w[2]) }
		{
			if ($2 !~ /^\[anon$/ || $3 !~ /^<[0-9a-f]+>\]$/) bad = 1
			a = hex(substr($3, 2, length($3) - 3))
			if (a >= lo && a <= hi) inside += $1
			total += $1
		}
		END { exit bad || inside * 2 < total }' jit.frames
	then
		pass
	else
		fail "anonymous code not named [anon <ADDRESS>] in $range"
		cat jit.frames >&2
	fi
	pv-collect -p --frequency=999 -r 1 -o jit0.out -- "$JIT" 5 \
		>/dev/null 2>&1
	frames jit0.out | grep '^\[anon' | sort -u >jit0.got
	echo '[anon]' >jit0.want
	if test_cmp jit0.want jit0.got; then pass
	else fail "anonymous code without --addrs"; fi
fi

# Kernel symbols hidden: kernel frames named after the kernel's module,
# with --addrs by a kernel address.
R=$T/root
mkdir -p "$R/proc/sys/kernel"
printf '0000000000000000 T _stext\n0000000000000000 T _etext\n' \
	>"$R/proc/kallsyms"
echo x86_64 >"$R/proc/sys/kernel/arch"
PV_COLLECT_SYSROOT=$R pv-collect -p --kernel -r 1 --frequency=999 \
	-o k0.out -- dd if=/dev/zero of=/dev/null bs=1 count=100000 2>/dev/null
PV_COLLECT_SYSROOT=$R pv-collect -p --kernel --addrs -r 1 --frequency=999 \
	-o k1.out -- dd if=/dev/zero of=/dev/null bs=1 count=100000 2>/dev/null
frames k0.out | grep '_\[k\]$' | sort -u >k0.got
echo '[[kernel.kallsyms]]_[k]' >k0.want
if test_cmp k0.want k0.got; then pass
else fail "kernel frames without symbols"; fi
frames k1.out | grep '_\[k\]$' | sort -u >k1.got
if [ -s k1.got ] && ! grep -v \
	'^\[\[kernel\.kallsyms\] <[0-9a-f]\{8,\}>\]_\[k\]$' k1.got >&2
then
	pass
else
	fail "kernel frames without symbols, --addrs"
fi

finish
