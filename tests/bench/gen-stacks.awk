# gen-stacks.awk: synthetic folded profiles for the benchmarks.
#
#   awk -v n=50000 -v seed=1 -f gen-stacks.awk
#	n distinct folded stacks, "frame;frame;... COUNT", shaped like a
#	system profile: a few hundred roots, call trees 5 to 60 deep that
#	share their prefixes, 6000 function names (kernel ones marked _[k],
#	some with compiler suffixes).
#   awk -v mode=target -v n=50000 -v seed=2 -f gen-stacks.awk BASE
#	a target profile made from BASE: a third of the counts changed, a
#	sixth of the leaves renamed, topped up to n distinct stacks.
#
# The random numbers are a Park-Miller generator of its own, exact in
# double arithmetic, so that every awk gives the same files.

function rnd(m) {
	state = (state * 16807) % 2147483647
	return state % m
}

function fname(i) {
	if (i % 3 == 0)
		return sprintf("kfunc_%05d_[k]", i)
	if (i % 17 == 0)
		return sprintf("ufunc_%05d.isra.0", i)
	return sprintf("ufunc_%05d", i)
}

function emit(stack, count) {
	if (stack in seen)
		return 0
	seen[stack] = 1
	out[nout++] = stack
	cnt[stack] = count
	return 1
}

# a new stack grown from the prefix of one already made
function grow(   base, k, nf, f, depth, s, j, extra) {
	if (nout > 0 && rnd(10) < 9) {
		base = out[rnd(nout)]
		nf = split(base, f, ";")
		depth = int(nf / 2) + 1 + rnd(nf - int(nf / 2))
		s = f[1]
		for (j = 2; j <= depth; j++)
			s = s ";" f[j]
	} else {
		s = sprintf("proc_%03d", rnd(300))
		depth = 1
	}
	extra = 1 + rnd(8)
	for (j = 0; j < extra && depth < 60; j++) {
		s = s ";" fname(rnd(6000))
		depth++
	}
	return s
}

BEGIN {
	if (n == "")
		n = 50000
	state = seed > 0 ? seed : 1
	if (mode == "target")
		next_file_is_base = 1
	else {
		while (nout < n)
			emit(grow(), 1 + rnd(1000))
		for (i = 0; i < nout; i++)
			print out[i], cnt[out[i]]
		exit
	}
}

mode == "target" {
	count = $NF
	stack = substr($0, 1, length($0) - length($NF) - 1)
	r = rnd(6)
	if (r < 2)
		count = 1 + int(count * (50 + rnd(150)) / 100)
	if (r == 2) {
		sub(/;[^;]*$/, "", stack)
		stack = stack ";" fname(rnd(6000))
	}
	emit(stack, count)
}

END {
	if (mode != "target")
		exit
	while (nout < n)
		emit(grow(), 1 + rnd(1000))
	for (i = 0; i < nout; i++)
		print out[i], cnt[out[i]]
}
