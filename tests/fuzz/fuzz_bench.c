/*
 * fuzz_bench: every line reader of lib/bench (the formats pv-parse
 * --format takes, but mmtests, which reads a directory tree): the first
 * byte picks the format, the rest is fed line by line through
 * pv_bench_new(), pv_bench_line() and pv_bench_finish(), as pv-parse does
 * (after pv_bench_detect() on the first line).
 */
#include "config.h"

#include <string.h>

#include "bench.h"
#include "fuzz.h"

static const char *const format[] = {
	"stress-ng", "will-it-scale", "sysbench", "unixbench", "generic"
};
#define NFORMAT (sizeof(format) / sizeof(format[0]))

static void
warn(void *arg, const char *file, unsigned long line, const char *msg)
{
	(void)arg;
	(void)file;
	(void)line;
	(void)msg;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pv_bench_opts opts = PV_BENCH_OPTS_INIT;
	struct pv_bench *b;
	const char *s, *end, *nl;

	if (size == 0)
		return 0;
	opts.name = "fuzz";
	opts.warn = warn;
	if (data[0] & 0x80) {
		opts.role = "baseline";
		opts.test = "t";
		opts.level = 4;
		opts.run = 3;
	}
	b = pv_bench_new(format[(data[0] & 0x7f) % NFORMAT], &opts,
			 fuzz_devnull());
	if (b == NULL)
		__builtin_trap();
	s = (const char *)data + 1;
	end = (const char *)data + size;
	while (s < end) {
		size_t len;

		nl = memchr(s, '\n', (size_t)(end - s));
		len = nl != NULL ? (size_t)(nl - s) : (size_t)(end - s);
		(void)pv_bench_detect(s, len);
		if (pv_bench_line(b, s, len) < 0)
			goto out;
		s += len + 1;
	}
	(void)pv_bench_finish(b);
out:
	(void)pv_bench_error(b);
	(void)pv_bench_samples(b);
	pv_bench_free(b);
	return 0;
}
