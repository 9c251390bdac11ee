# folded-frames.awk: a folded profile of gen-stacks.awk as a pv-format
# stream with frame records, for the group tables of pv-diff.
#
#   awk -f folded-frames.awk FOLDED
#
# Every frame name gets a space, a module and a source file made from
# its number: kernel functions (the _[k] ones) go to [kernel.kallsyms]
# and kernel/dirNN/fileMM.c, user ones to one of 20 libraries and
# src/dirNN/fileMM.c, 50 functions a file.  The frame records come
# first, sorted by name, as pv-parse writes them; then the stacks, as
# cpu-clock stack records of 1 ms a sample.

function frame(name,    n, k) {
	if (name in seen)
		return
	seen[name] = 1
	n = name
	gsub(/[^0-9]/, "", n)
	n += 0
	k = int(n / 50)
	if (name ~ /_\[k\]$/)
		line[name] = sprintf("frame\t%s\tkernel\t[kernel.kallsyms]\t" \
		    "kernel/dir%02d/file%02d.c\t-", name, k % 40, k)
	else
		line[name] = sprintf("frame\t%s\tuser\tlibu%02d.so\t" \
		    "src/dir%02d/file%02d.c\t-", name, n % 20, k % 40, k)
}

{
	count = $NF
	stack = $0
	sub(/ [0-9]+$/, "", stack)
	nf = split(stack, f, ";")
	for (i = 1; i <= nf; i++)
		frame(f[i])
	out[++nout] = sprintf("stack\tcpu-clock\t%d\t%d\t%s", count,
	    count * 1000000, stack)
}

END {
	print "pv-format\t1"
	sort = "LC_ALL=C sort"
	for (name in line)
		print line[name] | sort
	close(sort)
	for (i = 1; i <= nout; i++)
		print out[i]
}
