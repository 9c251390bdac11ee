/*
 * sampler: call-stack sampling with perf_event_open(2), without perf.
 *
 * One event per online CPU follows the sampled task and its descendants
 * (inherit), or every task with all_cpus; each has a ring buffer that is
 * read while the workload runs.  Samples carry the call chain (kernel and
 * user, as the kernel unwinds them: user stacks by frame pointers), the
 * thread and the period; side-band records (mmap2, comm, fork, exit) keep
 * a map of every process's executable mappings and names, from which
 * elfsym.h names the frames.  Records of the CPUs are put in time order
 * before they are used.
 *
 * Stacks are added to the caller's stack table as frame names, root
 * first: the process name (comm), then the user frames from the outermost
 * caller, then the kernel frames; named as pv-parse(1) names the frames of
 * perf script: symbol names without offsets, "[module]" for an address in
 * a known module without a symbol ("[libc.so.6]", "[[vdso]]",
 * "[[kernel.kallsyms]]"), "[unknown]" outside any module, and with addrs
 * the address too, as perf script prints it and pv-parse --addrs keeps it
 * ("[libc.so.6 <2724a>]": file offsets in mapped files, the address itself
 * in the kernel, anonymous memory or outside any module); kernel frames
 * suffixed "_[k]" with annotate_kernel.
 *
 * Errors are returned as -1 with a message in pv_sampler_error() (the
 * handle's struct pv_err, error.h); when the kernel refuses the events for
 * lack of privilege, the message says what to change (perf_event_paranoid,
 * CAP_PERFMON) and pv_sampler_refused() is true.  Nothing here prints or
 * exits except on out of memory.
 */
#ifndef PV_SAMPLER_H
#define PV_SAMPLER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "error.h"
#include "stacktab.h"
#include "symtab.h"

struct pv_sampler_opts {
	const char *event;	/* "cpu-clock" (NULL), "cycles", ... */
	uint64_t frequency;	/* samples per second per CPU, > 0 */
	int all_cpus;		/* the whole system, not only the command */
	int user_only;		/* exclude kernel frames */
	int annotate_kernel;	/* "_[k]" after kernel frame names */
	int inline_frames;	/* expand inlined functions from DWARF */
	int addrs;		/* keep the addresses of unresolved frames */
	unsigned ring_pages;	/* data pages per CPU, a power of 2; 0: 128 */
	const char *kallsyms;	/* kernel symbols; NULL: /proc/kallsyms */
};

struct pv_sampler;

/* Whether name is an event this module knows. */
int pv_sampler_event_known(const char *name);

/*
 * A sampler with the given options (copied).  Returns NULL and the message
 * in err when the options are bad or the events cannot be opened (this
 * tries them once on the calling process, so that a refusal is known
 * before any run); *refused is set when the reason is privilege.
 */
struct pv_sampler *pv_sampler_new(const struct pv_sampler_opts *opts,
				  struct pv_err *err, int *refused);
void pv_sampler_free(struct pv_sampler *s);

/*
 * Where the stacks of the next runs go: names interned in names, stacks
 * added to stacks under the event's name.  Both must outlive the use.
 */
void pv_sampler_sink(struct pv_sampler *s, struct pv_symtab *names,
		     struct pv_stacktab *stacks);

/*
 * Start sampling the process pid (which has not exec'd yet: counting
 * starts at its exec) or, with all_cpus, the whole system.  Returns 0 or
 * -1.
 */
int pv_sampler_attach(struct pv_sampler *s, pid_t pid);

/*
 * Read the rings until fd (a pidfd, or -1) is readable or timeout_ms (-1:
 * none) passes or a signal arrives.  Returns 1 when fd is readable, 0 on
 * a timeout or a signal, -1 on an error.
 */
int pv_sampler_poll(struct pv_sampler *s, int fd, int timeout_ms);

/* Read what is left, stop and close the events.  Returns 0 or -1. */
int pv_sampler_detach(struct pv_sampler *s);

/* The event's name, as written in stack records. */
const char *pv_sampler_event(const struct pv_sampler *s);

/* Counts since pv_sampler_new(): samples read, and records lost. */
uint64_t pv_sampler_samples(const struct pv_sampler *s);
uint64_t pv_sampler_lost(const struct pv_sampler *s);

/*
 * What the frames gave of frame name id (an id in the sink's names, the
 * first frame's that had the name): its module, as perf script names it
 * ("[kernel.kallsyms]", a kernel module "[NAME]", the mapped file's path,
 * "[vdso]", "[unknown]" outside any mapping), whether it is kernel code,
 * and the source file that declares the function, from the DWARF of its
 * file (elfsym.h: pv_elfsym_decl_file(), made relative to root, NULL for
 * the compilation directory), NULL when not known; the kernel's is not
 * looked for.  The strings live until pv_sampler_free().  Returns 1, or 0
 * for a name no frame gave (a process's name).
 */
int pv_sampler_frame(struct pv_sampler *s, uint32_t id, const char *root,
		     const char **module, int *kernel, const char **file);

const char *pv_sampler_error(const struct pv_sampler *s);

#endif
