/*
 * perfscript: folding of `perf script` text into aggregated stacks, with
 * the frame naming of stackcollapse-perf.pl as inferno-collapse-perf
 * 0.11.21 implements it (see pv-parse(1) for the rules and the cases where
 * the Perl script differs).
 *
 * The folder is line-driven: feed it every line of one capture with
 * pv_perf_line(), then call pv_perf_finish().  Stacks are added to the
 * caller's stack table, frame and event names interned in the caller's
 * symtab; the header that `perf script --header` prints is kept as
 * key-value pairs for env records.  Memory grows with the distinct frame
 * lines and stacks, not with the input.
 *
 * Errors and warnings are returned, never printed: pv_perf_line() returns
 * 0 for a line taken, PV_PERF_WARN for a line skipped with a warning (the
 * reference's "weird event line" and "weird stack line") and -1 for input
 * that is not perf script output (or a stack the stack table cannot
 * hold); pv_perf_message() tells which, from the handle's struct pv_err
 * (error.h).
 */
#ifndef PV_PERFSCRIPT_H
#define PV_PERFSCRIPT_H

#include <stddef.h>
#include <stdint.h>

#include "stacktab.h"
#include "symtab.h"

struct pv_perf_opts {
	int include_pid;	/* root frame COMM-PID */
	int include_tid;	/* root frame COMM-PID/TID (implies pid) */
	int annotate_kernel;	/* suffix kernel frames with _[k] */
	int annotate_jit;	/* suffix JIT frames with _[j] */
	int include_addrs;	/* keep addresses of unknown frames */
	const char *event_filter;	/* only this event; NULL: all */
	/*
	 * The lines start in the middle of a capture (a later part of a file
	 * split between threads): no header, and an odd first line is a
	 * warning, not a sign of a file of another kind.
	 */
	int continuation;
};

#define PV_PERF_WARN 1

struct pv_perf;

struct pv_perf *pv_perf_new(const struct pv_perf_opts *opt,
			    struct pv_symtab *names,
			    struct pv_stacktab *stacks);
void pv_perf_free(struct pv_perf *p);

/* One line, without its newline. */
int pv_perf_line(struct pv_perf *p, const char *line, size_t len);
/* The end of the input: count the last sample. */
int pv_perf_finish(struct pv_perf *p);
const char *pv_perf_message(const struct pv_perf *p);

/* The header's facts, in order: key (lowercase, '-' for spaces), value. */
size_t pv_perf_nenv(const struct pv_perf *p);
void pv_perf_env(const struct pv_perf *p, size_t i, const char **key,
		 const char **value);

/*
 * What the capture says of frame name id (an id in names): the module
 * that the first frame line naming it gives ("[kernel.kallsyms]", a path,
 * "[unknown]"), valid until pv_perf_free(), and whether that is kernel
 * code (the kernel image, a kernel module).  Returns 1, or 0 for a name
 * no frame line gave (a process's root frame, say).
 */
int pv_perf_frame(const struct pv_perf *p, uint32_t id, struct pv_str *module,
		  int *kernel);

/*
 * A position the caller gives the lines that follow (0 at first), and the
 * position at which frame name id got its module (UINT64_MAX: none), so
 * that a caller folding a stream's blocks on several handles takes the
 * module of the first block, the one a single pass would take.
 */
void pv_perf_set_pos(struct pv_perf *p, uint64_t pos);
uint64_t pv_perf_frame_pos(const struct pv_perf *p, uint32_t id);

/* Samples counted, and samples left out by the event filter. */
uint64_t pv_perf_nsamples(const struct pv_perf *p);
uint64_t pv_perf_nfiltered(const struct pv_perf *p);

#endif
