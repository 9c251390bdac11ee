#!/bin/sh
# pv-parse --debuginfo: the source files of the frames, from the DWARF of
# programs built here with -g from several source files (cc needed), and
# pv-diff's file and subsystem groups on them with the MAINTAINERS excerpt
# of tests/data/pv-diff (overlapping patterns: the most specific wins).
# The captures are perf script text written here, naming the built files.
. "${top_srcdir:-.}/tests/lib.sh"

D=$top_srcdir/tests/data/pv-parse-debuginfo
command -v cc >/dev/null 2>&1 || skip_all "no C compiler (cc)"

# A kernel-like tree, built into "vmlinux" (the --vmlinux file), and a
# user program with a function inlined from a header.
mkdir -p "$T/linux/kernel/sched" "$T/linux/mm" "$T/prog/src/util"
for f in kernel/sched/core.c:schedule kernel/sched/ext.c:scx_tick \
    kernel/sched/membarrier.c:membarrier_exec kernel/fork.c:copy_process \
    mm/balloon.c:balloon_page_alloc mm/page_alloc.c:alloc_pages; do
	printf 'int %s(int x) { return x + 1; }\n' "${f#*:}" \
		>"$T/linux/${f%%:*}"
done
echo 'int main(void) { return 0; }' >"$T/linux/init.c"
cat >"$T/prog/src/util/mix.h" <<'EOT'
static inline __attribute__((always_inline)) int
mix(int x)
{
	return x * 31 + 7;
}
EOT
cat >"$T/prog/src/util/hash.c" <<'EOT'
#include "mix.h"
int hash(int x) { return mix(x) ^ mix(x >> 3); }
EOT
cat >"$T/prog/src/main.c" <<'EOT'
int hash(int);
int main(int argc, char **argv) { (void)argv; return hash(argc); }
EOT
(cd "$T/linux" && cc -g -O0 -o ../vmlinux init.c kernel/sched/core.c \
    kernel/sched/ext.c kernel/sched/membarrier.c kernel/fork.c \
    mm/balloon.c mm/page_alloc.c) || skip_all "cc cannot build with -g"
(cd "$T/prog" && cc -g -O2 -o ../app src/main.c src/util/hash.c) ||
	skip_all "cc cannot build with -g"
# the same program without its debug information
cp "$T/app" "$T/app-nodebug" && strip --strip-debug "$T/app-nodebug" 2>/dev/null ||
	objcopy --strip-debug "$T/app-nodebug" 2>/dev/null ||
	skip_all "no strip or objcopy"

# sample COUNT FRAME... (leaf first): perf script samples; a frame is
# NAME@MODULE, the module k for the kernel, a for the program, n for the
# program without debug information, c for a libc that is not there
sample() {
	n=$1
	shift
	while [ "$n" -gt 0 ]; do
		echo "app 42 1.0: 1 cpu-clock:"
		for f in "$@"; do
			case ${f#*@} in
			k) m="[kernel.kallsyms]" a=ffffffff81000010 ;;
			a) m=$T/app a=1130 ;;
			n) m=$T/app-nodebug a=1130 ;;
			c) m=$T/lib/libc.so.6 a=27000 ;;	# not there
			esac
			printf '\t%16s %s+0x10 (%s)\n' "$a" "${f%@*}" "$m"
		done
		echo
		n=$((n - 1))
	done
}

{
	sample 4 scx_tick@k schedule@k mix@a hash@a main@a
	sample 2 membarrier_exec@k main@a __libc_start_main@c
	sample 2 alloc_pages@k copy_process@k _start@n
	sample 2 balloon_page_alloc@k hash@a main@a
} >"$T/base.txt"
{
	sample 1 scx_tick@k schedule@k mix@a hash@a main@a
	sample 2 membarrier_exec@k main@a __libc_start_main@c
	sample 6 alloc_pages@k copy_process@k _start@n
	sample 1 balloon_page_alloc@k hash@a main@a
	sample 3 schedule@k main@a
} >"$T/target.txt"

# The files relative to the compilation directories; the frames of the
# program without DWARF, libc and a kernel without --vmlinux have none.
parse() {
	pv-parse "$@" | sed "s|$T|T|g" | awk -F'\t' '$1 == "frame"'
}
parse --debuginfo "$T/base.txt" >"$T/out" 2>"$T/err"
expect_golden "$D/frames.out" "$T/out" "--debuginfo"
test_cmp /dev/null "$T/err" && pass || fail "--debuginfo: stderr"
parse --vmlinux="$T/vmlinux" "$T/base.txt" >"$T/out"
expect_golden "$D/frames-vmlinux.out" "$T/out" "--vmlinux"
parse --vmlinux="$T/vmlinux" --source-root="$T" "$T/base.txt" >"$T/out"
expect_golden "$D/frames-root.out" "$T/out" "--source-root"
# a relative root is taken from the working directory
(cd "$T" && pv-parse --vmlinux=vmlinux --source-root=. base.txt) |
	sed "s|$T|T|g" | awk -F'\t' '$1 == "frame"' >"$T/out"
test_cmp "$D/frames-root.out" "$T/out" && pass || fail "--source-root=."
# the stacks are those of pv-parse without --debuginfo
pv-parse "$T/base.txt" | grep -v '^frame' >"$T/plain"
pv-parse --vmlinux="$T/vmlinux" "$T/base.txt" | grep -v '^frame' >"$T/out"
test_cmp "$T/plain" "$T/out" && pass || fail "the stacks are unchanged"

# pv-diff's file and subsystem groups: kernel/fork.c and the files of
# kernel/sched/ go to their most specific MAINTAINERS entries
pv-parse --vmlinux="$T/vmlinux" -r baseline "$T/base.txt" >"$T/base.pv"
pv-parse --vmlinux="$T/vmlinux" -r target "$T/target.txt" >"$T/target.pv"
pv-diff --maintainers="$top_srcdir/tests/data/pv-diff/MAINTAINERS.excerpt" \
	"$T/base.pv" "$T/target.pv" >"$T/diff" 2>"$T/err"
[ $? -eq 1 ] && pass || fail "pv-diff --maintainers: exit status"
awk -F'\t' '$1 == "group" && ($3 == "file" || $3 == "subsystem")' \
	"$T/diff" >"$T/out"
expect_golden "$D/groups.out" "$T/out" "file and subsystem groups"
sed "s|$T|T|g" "$T/diff" | awk -F'\t' '$1 == "frame"' >"$T/out"
expect_golden "$D/diff-frames.out" "$T/out" "pv-diff's frame records"

finish
