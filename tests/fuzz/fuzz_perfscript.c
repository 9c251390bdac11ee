/*
 * fuzz_perfscript: pv-parse's perf script folder (lib/perfscript.c), fed
 * line by line as pv-parse feeds it.  The first byte picks the options
 * (pid, tid, kernel and JIT annotations, addresses, continuation).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "perfscript.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pv_perf_opts opt;
	struct pv_symtab names;
	struct pv_stacktab stacks;
	struct pv_perf *p;
	const char *s, *end, *nl;
	unsigned flags;
	size_t i;

	if (size == 0)
		return 0;
	flags = data[0];
	memset(&opt, 0, sizeof(opt));
	opt.include_pid = flags & 1;
	opt.include_tid = (flags >> 1) & 1;
	opt.annotate_kernel = (flags >> 2) & 1;
	opt.annotate_jit = (flags >> 3) & 1;
	opt.include_addrs = (flags >> 4) & 1;
	opt.continuation = (flags >> 5) & 1;
	opt.event_filter = (flags >> 6) & 1 ? "cycles" : NULL;
	pv_symtab_init(&names);
	pv_stacktab_init(&stacks);
	p = pv_perf_new(&opt, &names, &stacks);
	s = (const char *)data + 1;
	end = (const char *)data + size;
	while (s < end) {
		size_t len;

		nl = memchr(s, '\n', (size_t)(end - s));
		len = nl != NULL ? (size_t)(nl - s) : (size_t)(end - s);
		if (pv_perf_line(p, s, len) < 0)
			goto out;
		s += len + 1;
	}
	if (pv_perf_finish(p) < 0)
		goto out;
	for (i = 0; i < pv_perf_nenv(p); i++) {
		const char *k, *v;

		pv_perf_env(p, i, &k, &v);
	}
	free(pv_stacktab_sorted(&stacks, &names));
out:
	(void)pv_perf_message(p);
	pv_perf_free(p);
	pv_stacktab_release(&stacks);
	pv_symtab_release(&names);
	return 0;
}
