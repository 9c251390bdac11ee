# gen-fleet.awk: a night of benchmark samples for tests/bench/fleet.sh.
#
#   awk -v keys=1000000 -v order=grouped -f gen-fleet.awk
#
# keys comparisons of n (10) runs a side: a baseline and a target section,
# each with the same keys: 10 suites, keys / 200 tests in each, 5
# concurrency levels and 4 metrics (two higher-better, two lower-better),
# so that keys is a multiple of 200.  Values are 1000 exp(0.03 z), z
# normal; every 20th key of the target is 5% worse.
#
# order=grouped writes each test's samples together, level by level and
# run by run, its metrics side by side, as pv-collect, pv-parse and
# pv-store write them (a key's runs are together with those of the other
# metrics of its run).  order=runs writes run 1 of every key, then run 2,
# and so on: results gathered run by run (machine by machine), not
# grouped by key.  Both orders hold the same samples.
BEGIN {
	if (n == "")
		n = 10
	if (order == "")
		order = "grouped"
	srand(42)
	ntest = int(keys / 200)
	print "pv-format\t1"
	for (side = 0; side < 2; side++) {
		printf "section\t%s\t%s\tfleet\n", side ? "target" : "baseline",
		       side ? "v2" : "v1"
		if (order == "grouped") {
			for (t = 0; t < ntest * 10; t++)
				for (l = 1; l <= 5; l++)
					for (r = 1; r <= n; r++)
						for (m = 0; m < 4; m++)
							sample(side, t, l, r, m)
		} else {
			for (r = 1; r <= n; r++)
				for (t = 0; t < ntest * 10; t++)
					for (l = 1; l <= 5; l++)
						for (m = 0; m < 4; m++)
							sample(side, t, l, r, m)
		}
	}
}

# the value of a sample is drawn from its key and run alone, so that both
# orders give the same values
function sample(side, t, l, r, m,    k, z, f, u1, u2) {
	k = (t * 5 + l - 1) * 4 + m
	u1 = hashrand(k * 2 + side, r, 1)
	u2 = hashrand(k * 2 + side, r, 2)
	z = sqrt(-2 * log(1 - u1)) * cos(6.283185307179586 * u2)
	f = side && k % 20 == 0 ? 0.95 : 1
	if (m >= 2)
		f = 1 / f
	printf "sample\tsuite%d\ttest%d\t%s\t%s\t%s\t%s\t%d\t%d\t-\t%.6f\n",
	       t % 10, int(t / 10), m % 2 ? "write" : "read",
	       m < 2 ? "ops" : "latency", m < 2 ? "ops/s" : "us",
	       m < 2 ? "higher" : "lower", l, r, 1000 * f * exp(0.03 * z)
}

# a number in [0, 1) from (a, b, c), the same in every awk: a
# Park-Miller step of a mix of them, in exact double arithmetic
function hashrand(a, b, c,    s, i) {
	s = (a * 7919 + b * 104729 + c * 1299709) % 2147483647
	if (s <= 0)
		s += 2147483646
	for (i = 0; i < 3; i++)
		s = (s * 16807) % 2147483647
	return s / 2147483647
}
