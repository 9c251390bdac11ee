#!/bin/sh
# pv-collect --profile writes frame records with its stacks, as pv-parse
# does: the module and address space of each frame, and the source file
# of each function from the DWARF of the program, here one built with -g
# from several source files (cc needed).  The frames of the program are
# the same as perf record -g, perf script and pv-parse --debuginfo give
# on it, where perf is there.
. "${top_srcdir:-.}/tests/lib.sh"

command -v cc >/dev/null 2>&1 || skip_all "no C compiler (cc)"
cd "$T" || exit 99
TMPDIR=/tmp
export TMPDIR

mkdir -p prog/src/a prog/src/b
cat >prog/src/a/spin.c <<'EOT'
volatile unsigned long sink_a;
void spin_a(long n) { long i; for (i = 0; i < n; i++) sink_a += i; }
EOT
cat >prog/src/b/spin.c <<'EOT'
volatile unsigned long sink_b;
void spin_b(long n) { long i; for (i = 0; i < n; i++) sink_b ^= i; }
EOT
cat >prog/src/work.c <<'EOT'
void spin_a(long), spin_b(long);
void work(long n) { long r; for (r = 0; r < n; r++) { spin_a(200000); spin_b(400000); } }
EOT
cat >prog/src/main.c <<'EOT'
#include <stdlib.h>
void work(long);
int main(int argc, char **argv) { work(argc > 1 ? atol(argv[1]) : 1); return 0; }
EOT
(cd prog && cc -g -O0 -fno-omit-frame-pointer -o app src/main.c \
    src/work.c src/a/spin.c src/b/spin.c) ||
	skip_all "cc cannot build with -g"

pv-collect -p --frequency=499 -r 1 -o pv.out -- "$T/prog/app" 300 2>pv.err
st=$?
if [ $st -eq 2 ] && grep -q 'sampling refused' pv.err; then
	skip_all "sampling refused here: $(cat pv.err)"
fi
if [ $st -eq 0 ]; then pass; else fail "profile: status $st"; cat pv.err >&2; fi

# the program's frames, with their files relative to the build directory
printf 'frame\t%s\tuser\t%s\t%s\t-\n' main "$T/prog/app" src/main.c \
	spin_a "$T/prog/app" src/a/spin.c spin_b "$T/prog/app" src/b/spin.c \
	work "$T/prog/app" src/work.c >want
awk -F'\t' -v m="$T/prog/app" '$1 == "frame" && $4 == m' pv.out >got
test_cmp want got && pass || fail "the program's frame records"
# with --source, relative to it (a relative one, from here)
pv-collect -p --frequency=499 -r 1 --source=prog/src -o src.out -- \
	"$T/prog/app" 100 2>src.err
printf 'frame\t%s\tuser\t%s\t%s\t-\n' main "$T/prog/app" main.c \
	spin_a "$T/prog/app" a/spin.c spin_b "$T/prog/app" b/spin.c \
	work "$T/prog/app" work.c >want.src
awk -F'\t' -v m="$T/prog/app" '$1 == "frame" && $4 == m' src.out >got
test_cmp want.src got && pass || fail "--source: files relative to it"
# every frame of the stacks has a record but the root (the command's
# name); they come before the stacks, sorted by name, one a name
awk -F'\t' '$1 == "frame" { if (seen_stack) bad = 1; print $2 }
	$1 == "stack" { seen_stack = 1 }
	END { exit bad }' pv.out >names && pass ||
	fail "frame records after a stack record"
LC_ALL=C sort -u names | test_cmp - names && pass ||
	fail "frame records not sorted or not unique"
awk -F'\t' '$1 == "stack" { n = split($5, f, ";")
	for (i = 2; i <= n; i++) print f[i] }' pv.out | LC_ALL=C sort -u >used
test_cmp used names && pass || fail "the frames of the stacks"
# the space: kernel for [kernel.kallsyms] and modules, else user
awk -F'\t' '$1 == "frame" && (($3 == "kernel") != ($4 ~ /^\[/ &&
	$4 != "[unknown]" && $4 != "[vdso]")) { print }' pv.out >bad
test_cmp /dev/null bad && pass || fail "the space of frame records"

# The same program through perf: the same frame records for its functions.
if command -v perf >/dev/null 2>&1 &&
    perf --buildid-dir "$T/buildid" record -q -F 499 -e cpu-clock -g \
	-o perf.data -- "$T/prog/app" 100 >/dev/null 2>&1; then
	perf --buildid-dir "$T/buildid" script -i perf.data 2>/dev/null |
		pv-parse --debuginfo >parse.out
	awk -F'\t' -v m="$T/prog/app" '$1 == "frame" && $4 == m' \
		parse.out >got
	test_cmp want got && pass || fail "pv-parse --debuginfo on perf's"
else
	echo "perf record not usable here: pv-parse not compared" >&2
fi

finish
