# gen-speed.awk: speed.sh's night, written by awk -v keys=N -f gen-speed.awk:
# KEYS comparisons of 10 runs a side (n), a baseline A and a target B in
# which every 20th key is 5% lower, the runs' noise lognormal (3%), the
# same bytes for the same KEYS on every run (srand(42)).  Keys are
# suite0..6, test0..999 and levels 1.. in an order that is not grouped by
# test (a test comes back after others began).
BEGIN {
	if (n == "")
		n = 10
	srand(42)
	print "pv-format\t1"
	for (side = 0; side < 2; side++) {
		printf "section\t%s\t%s\tspeed\n", side ? "target" : "baseline", side ? "B" : "A"
		for (k = 0; k < keys; k++) for (r = 1; r <= n; r++) {
			z = sqrt(-2 * log(1 - rand())) * cos(6.283185307179586 * rand())
			f = (side && k % 20 == 0) ? 0.95 : 1
			printf "sample\tsuite%d\ttest%d\top\tops\tops/s\thigher\t%d\t%d\t-\t%.6f\n", k % 7, k % 1000, int(k / 1000) + 1, r, 1000 * f * exp(0.03 * z)
		}
	}
}
