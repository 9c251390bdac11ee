#include "eval.h"

static volatile unsigned long eval_acc;

#ifdef INLINED
#define BINOP_INLINE inline __attribute__((always_inline))
#else
#define BINOP_INLINE __attribute__((noinline))
#endif

static BINOP_INLINE unsigned long
eval_binop(unsigned long a, unsigned long b)
{
	long i;

	for (i = 0; i < 15000; i++) {
		a = (a << 1 | a >> 63) + b;
		eval_acc = a;
	}
	return a;
}

unsigned long __attribute__((noinline))
eval_expr(long seed)
{
	return eval_binop((unsigned long)seed, 7) ^
	       eval_binop((unsigned long)seed + 1, 11);
}
