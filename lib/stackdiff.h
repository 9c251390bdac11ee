/*
 * stackdiff: the comparison of two stack profiles, a baseline and a target,
 * as pv-diff(1) prints it and the renderers of pv-render(1) read it back.
 *
 * A struct pv_stackdiff holds the distinct stacks of both sides in one
 * table, keyed by event and frame list after name normalisation, with the
 * period and sample sums of each side; memory grows with the distinct
 * stacks and names, never with the input.  pv_stackdiff_compute() then
 * derives, per event, each side's totals and, per function, inclusive and
 * exclusive counts, their shares of the side's total, the change in
 * percentage points and the relative change, ranked suspects first.
 *
 * Name normalisation (struct pv_stackdiff_opts, pv_stackdiff_normalize()):
 *   - compiler suffixes are removed from the end of a name, repeatedly:
 *     ".isra.N", ".constprop.N", ".part.N", ".cold", ".cold.N", ".llvm.N",
 *     ".lto_priv.N" (N a decimal number), so that "f.isra.0.cold" is "f";
 *     an annotation "_[k]", "_[j]", "_[i]" or "_[w]" at the very end (as
 *     stackcollapse-perf.pl appends) is kept and the suffixes before it
 *     removed; a name is never made empty;
 *   - with strip_hex, every "0x" followed by hex digits becomes "0x..."
 *     (as difffolded.pl -s does), before the suffixes are removed.
 * Stacks whose normalised forms are equal add up.
 *
 * Shares: by default each side's counts are taken as percentages of that
 * side's total for the event (difffolded.pl -n compares the same way);
 * with raw set, of the baseline's total on both sides (of the target's
 * where the baseline has none), so that a target that took more samples
 * overall shows growth.
 *
 * Lifecycle: pv_stackdiff_init(), any number of pv_stackdiff_add(), one
 * pv_stackdiff_compute(), then the results in the public fields;
 * pv_stackdiff_release() frees everything.  Errors (counts that do not fit
 * in 64 bits) are returned as -1 with a message in err; nothing is printed.
 */
#ifndef PV_STACKDIFF_H
#define PV_STACKDIFF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "rec_profile.h"
#include "record.h"
#include "stacktab.h"
#include "strbuf.h"
#include "symtab.h"

enum {
	PV_SIDE_BASE = 0,
	PV_SIDE_TARGET = 1
};

struct pv_stackdiff_opts {
	int raw;		/* shares of the baseline's total */
	int keep_suffixes;	/* do not remove compiler suffixes */
	int strip_hex;		/* "0x1f" -> "0x..." */
};

/* Per-event totals. */
struct pv_stackdiff_total {
	uint32_t event;			/* id in names */
	uint64_t period[2], samples[2];
};

/* One distinct stack after normalisation. */
struct pv_stackdiff_stack {
	uint64_t period[2], samples[2];
	unsigned presence;		/* PV_IN_BASE | PV_IN_TARGET */
};

/* The figures of one function (name) under one event. */
struct pv_stackdiff_func {
	uint32_t event, name;		/* ids in names */
	uint64_t incl[2], excl[2];	/* period sums */
	double incl_pct[2], excl_pct[2];	/* percent of the total */
	double delta_incl, delta_excl;	/* points, target - base */
	double rel_incl, rel_excl;	/* ratio - 1; NAN: base share 0 */
	unsigned presence;		/* PV_IN_BASE | PV_IN_TARGET */
};

struct pv_stackdiff {
	struct pv_stackdiff_opts opt;
	struct pv_symtab names;		/* normalised frame names, events */
	struct pv_stacktab stacks;	/* counts unused: see pair */
	struct pv_stackdiff_stack *pair;	/* beside stacks.stack */
	size_t pair_alloc;

	/* results of pv_stackdiff_compute() */
	struct pv_stackdiff_total *total;	/* by event */
	size_t ntotal;
	struct pv_stack **sorted;	/* stacks in folded order */
	struct pv_stackdiff_func *func;	/* by event, suspects first */
	size_t nfunc;

	/* internal */
	struct pv_symtab raw;		/* frame names as read */
	uint32_t *norm;			/* raw id -> names id, or ~0 */
	size_t norm_alloc;
	uint32_t *prev;			/* raw ids of the last stack */
	size_t nprev, prev_alloc;
	uint32_t *dprev;		/* names ids of the last dstack */
	size_t ndprev, dprev_alloc;
	uint32_t *frames;
	size_t frames_alloc;
	size_t nadd;			/* pv_stackdiff_add() calls */
	struct pv_str last_event;	/* in names, and its id */
	uint32_t last_event_id;
	struct pv_strbuf buf;
	int overflow;
	char err[128];
};

void pv_stackdiff_init(struct pv_stackdiff *d,
		       const struct pv_stackdiff_opts *opt);
void pv_stackdiff_release(struct pv_stackdiff *d);

/*
 * Make room for nstack distinct stacks (both sides together) before the
 * adding, so that the tables do not move as they grow; a hint, which may
 * be too large (room not used is not touched) or too small.
 */
void pv_stackdiff_reserve(struct pv_stackdiff *d, size_t nstack);

/*
 * Add a stack seen on side (PV_SIDE_BASE or PV_SIDE_TARGET): its event
 * (empty: absent), frames root first, as read (they are normalised here),
 * and its sample and period sums.  Returns 0, or -1 with a message in err
 * when the stack is new and the stack table cannot hold it
 * (stacktab.h).
 */
int pv_stackdiff_add(struct pv_stackdiff *d, int side, struct pv_str event,
		      const struct pv_str *frame, size_t nframe,
		      uint64_t samples, uint64_t period);

/*
 * Compute totals, the sorted stacks and the functions.  Where one side's
 * stacks all have no event and the other's all have one event, the two are
 * compared as one event, named by the side that has it.  Returns 0, or -1
 * when a count overflowed (err says so).  Call once.
 */
int pv_stackdiff_compute(struct pv_stackdiff *d);

/* The pair of counts of a stack of d->sorted (or d->stacks.stack). */
static inline struct pv_stackdiff_stack *
pv_stackdiff_pair(const struct pv_stackdiff *d, const struct pv_stack *s)
{
	return &d->pair[s - d->stacks.stack];
}

/*
 * Whether some function's exclusive or inclusive share moved by more than
 * threshold percentage points (in absolute value).
 */
int pv_stackdiff_moved(const struct pv_stackdiff *d, double threshold);

/*
 * Write the results as total, dstack and func records (pv-format(5),
 * pv-diff(1); their codecs are rec_profile.h's).
 */
void pv_stackdiff_write(const struct pv_stackdiff *d, FILE *out);

/*
 * Append the normalised form of name s[0..len) to out, under opt (its raw
 * field is ignored).
 */
void pv_stackdiff_normalize(struct pv_strbuf *out, const char *s, size_t len,
			    const struct pv_stackdiff_opts *opt);

/*
 * Add a dstack record (pv-diff's output read back, pv_rec_dstack_parse())
 * to d: both sides' periods (as samples too), its event and frames taken
 * as they are, not normalised again; a side whose count is 0 is taken not
 * to have the stack (for presence).  Returns 0, or -1 with a message in
 * err when the stack is new and the stack table cannot hold it.
 */
int pv_stackdiff_add_dstack(struct pv_stackdiff *d,
			    const struct pv_rec_dstack *rec);

/*
 * Sort funcs as pv-diff(1) does: by event name, then by exclusive change
 * (largest growth first), then by name, byte-wise.
 */
void pv_stackdiff_sort_funcs(struct pv_stackdiff_func *f, size_t n,
			     const struct pv_symtab *names);

#endif
