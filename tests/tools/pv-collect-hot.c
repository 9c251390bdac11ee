/*
 * pv-collect-hot: a deterministic CPU-bound program with known hot
 * functions, for the agreement test and benchmark of pv-collect --profile.
 *
 * main() calls work() ROUNDS times (argument, default 100); work() spends
 * its time in three leaf functions in the ratio 1:2:4 (hot_one, hot_two,
 * hot_four), so that the expected shares of samples are 1/7, 2/7 and 4/7
 * and the stacks are main;work;hot_*.  With a second argument "-t" it
 * prints its own elapsed time and CPU time (user + system) in seconds on
 * standard error, "elapsed E cpu C", for the overhead benchmark: what the
 * sampled program itself experiences, without the sampler's start and end.
 * The functions are kept apart (noinline) and each hot function calls
 * tick() first, so that it is not a leaf: compilers leave out the
 * frame pointer of leaves even with -fno-omit-frame-pointer, and the
 * caller of a function without a frame is lost to frame-pointer unwinding
 * (perf's and ours alike).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static volatile unsigned long sink;

/*
 * Kept apart whatever the optimisation level (make passes CFLAGS such as
 * -O2 last): no inlining, no cloning or other interprocedural changes.
 */
#if defined(__clang__)
#define APART __attribute__((noinline))
#else
#define APART __attribute__((noipa))
#endif

/*
 * The same loop in each hot function, so that the time spent is in
 * proportion to n; the empty asm keeps the compiler from folding it.
 */
#define SPIN(n, x) do { \
	unsigned long i_; \
	for (i_ = 0; i_ < (n); i_++) { \
		(x) = (x) * 6364136223846793005UL + 1442695040888963407UL; \
		__asm__ volatile("" : "+r"(x)); \
	} \
} while (0)

/* called by each hot function, so that none is a leaf without a frame */
APART static void
tick(unsigned long x)
{
	sink += x;
}

APART static void
hot_one(unsigned long n)
{
	unsigned long x = 1;

	tick(x);
	SPIN(n, x);
	sink += x;
}

APART static void
hot_two(unsigned long n)
{
	unsigned long x = 2;

	tick(x);
	SPIN(2 * n, x);
	sink += x;
}

APART static void
hot_four(unsigned long n)
{
	unsigned long x = 3;

	tick(x);
	SPIN(4 * n, x);
	sink += x;
}

APART static void
work(unsigned long n)
{
	hot_one(n);
	hot_two(n);
	hot_four(n);
	sink++;		/* no tail call: work stays on the stack */
}

int
main(int argc, char **argv)
{
	unsigned long rounds = argc > 1 ? strtoul(argv[1], NULL, 10) : 100;
	struct timespec t0, t1;
	struct rusage ru;
	unsigned long i;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < rounds; i++)
		work(1000000);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("%lu\n", (unsigned long)sink & 1);
	if (argc > 2 && strcmp(argv[2], "-t") == 0 &&
	    getrusage(RUSAGE_SELF, &ru) == 0)
		fprintf(stderr, "elapsed %.6f cpu %.6f\n",
			(double)(t1.tv_sec - t0.tv_sec) +
			(double)(t1.tv_nsec - t0.tv_nsec) / 1e9,
			(double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec +
			(double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) /
			1e6);
	return 0;
}
