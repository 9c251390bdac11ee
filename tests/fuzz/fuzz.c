/*
 * fuzz.c: the memory file and the null stream of the harnesses (fuzz.h).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"

static void
die(const char *what)
{
	perror(what);
	abort();
}

const char *
fuzz_file(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];
	size_t off = 0;

	if (fd < 0) {
		fd = memfd_create("fuzz-input", 0);
		if (fd < 0)
			die("memfd_create");
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) < 0)
		die("ftruncate");
	while (off < size) {
		ssize_t n = pwrite(fd, data + off, size - off, (off_t)off);

		if (n <= 0)
			die("pwrite");
		off += (size_t)n;
	}
	return path;
}

FILE *
fuzz_devnull(void)
{
	static FILE *f;

	if (f == NULL && (f = fopen("/dev/null", "w")) == NULL)
		die("/dev/null");
	return f;
}
