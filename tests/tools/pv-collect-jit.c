/*
 * pv-collect-jit: code in anonymous memory, as a JIT compiler makes it,
 * for the test of pv-collect --addrs: frames there have no file and no
 * symbol, and are named with their address as it is in the process.
 *
 * It copies a counting loop into an anonymous page, makes the page
 * executable and calls the loop ROUNDS times (argument, default 20), then
 * prints the first and the last address of the loop's code in hex
 * ("START END") on standard output.  On a machine whose code it does not
 * carry, or where anonymous memory cannot be made executable, it exits
 * with 77.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#if defined(__x86_64__)
/* mov %rdi,%rcx; 1: dec %rcx; jnz 1b; ret */
static const unsigned char code[] = {
	0x48, 0x89, 0xf9, 0x48, 0xff, 0xc9, 0x75, 0xfb, 0xc3
};
#elif defined(__aarch64__)
/* 1: subs x0, x0, #1; b.ne 1b; ret (little-endian words) */
static const unsigned char code[] = {
	0x00, 0x04, 0x00, 0xf1, 0xe1, 0xff, 0xff, 0x54, 0xc0, 0x03, 0x5f, 0xd6
};
#else
#define NO_CODE 1
#endif

int
main(int argc, char **argv)
{
#ifdef NO_CODE
	(void)argc;
	(void)argv;
	return 77;
#else
	unsigned long rounds = argc > 1 ? strtoul(argv[1], NULL, 10) : 20;
	void (*loop)(unsigned long);
	unsigned long i;
	void *p;

	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 77;
	memcpy(p, code, sizeof(code));
	__builtin___clear_cache((char *)p, (char *)p + sizeof(code));
	if (mprotect(p, 4096, PROT_READ | PROT_EXEC) != 0)
		return 77;
	/* an object pointer to a function pointer, as JIT compilers do */
	memcpy(&loop, &p, sizeof(loop));
	for (i = 0; i < rounds; i++)
		loop(10000000);
	printf("%jx %jx\n", (uintmax_t)(uintptr_t)p,
	       (uintmax_t)(uintptr_t)p + sizeof(code) - 1);
	return 0;
#endif
}
