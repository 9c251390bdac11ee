/* A toy interpreter: lex, evaluate, hash, N rounds (argv[1]). */
#include <stdio.h>
#include <stdlib.h>

#include "parse/lexer.h"
#include "eval/eval.h"
#include "util/hash.h"

int
main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 100, r;
	unsigned long acc = 0;

	for (r = 0; r < rounds; r++) {
		acc += lex_line(r);
		acc += eval_expr(r);
		acc += hash_mix(acc);
	}
	printf("%lu\n", acc);
	return 0;
}
