/*
 * pv-collect-hot: a deterministic CPU-bound program with known hot
 * functions, for the agreement test and benchmark of pv-collect --profile.
 *
 * main() calls work() ROUNDS times (argument, default 100); work() spends
 * its time in three leaf functions in the ratio 1:2:4 (hot_one, hot_two,
 * hot_four), so that the expected shares of samples are 1/7, 2/7 and 4/7
 * and the stacks are main;work;hot_*.
 * The functions are kept apart (noinline) and the frame pointer kept, so
 * that user stacks unwind.
 */
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long sink;

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

__attribute__((noinline)) static void
hot_one(unsigned long n)
{
	unsigned long x = 1;

	SPIN(n, x);
	sink += x;
}

__attribute__((noinline)) static void
hot_two(unsigned long n)
{
	unsigned long x = 2;

	SPIN(2 * n, x);
	sink += x;
}

__attribute__((noinline)) static void
hot_four(unsigned long n)
{
	unsigned long x = 3;

	SPIN(4 * n, x);
	sink += x;
}

__attribute__((noinline)) static void
work(unsigned long n)
{
	hot_one(n);
	hot_two(n);
	hot_four(n);
}

int
main(int argc, char **argv)
{
	unsigned long rounds = argc > 1 ? strtoul(argv[1], NULL, 10) : 100;
	unsigned long i;

	for (i = 0; i < rounds; i++)
		work(1000000);
	printf("%lu\n", (unsigned long)sink & 1);
	return 0;
}
