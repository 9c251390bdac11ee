#include "lexer.h"

static volatile unsigned long lex_state;

#ifdef PLANTED
/* the planted slow function: a checksum of every token, done again */
static unsigned long __attribute__((noinline))
token_checksum(unsigned long t)
{
	volatile unsigned long s = t;
	long i;

	for (i = 0; i < 30000; i++)
		s = s * 1099511628211UL ^ (unsigned long)i;
	return s;
}
#endif

unsigned long __attribute__((noinline))
lex_line(long seed)
{
	unsigned long t = (unsigned long)seed;
	long i;

	for (i = 0; i < 20000; i++) {
		t = t * 6364136223846793005UL + 1442695040888963407UL;
		lex_state = t;
	}
#ifdef PLANTED
	t ^= token_checksum(t);
#endif
	return t;
}
