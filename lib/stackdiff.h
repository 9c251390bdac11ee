/*
 * stackdiff: the comparison of two stack profiles, a baseline and a target,
 * as pv-diff(1) prints it and the renderers of pv-render(1) read it back.
 *
 * A struct pv_stackdiff holds the distinct stacks of both sides in one
 * call tree (flametree.h): under its root a node per event, under that
 * the frames, root first, after name normalisation; a stack's periods
 * are kept at the node where it ends.  Memory grows with the distinct
 * call paths and names, never with the input.  pv_stackdiff_compute()
 * then derives, per event, each side's totals and, per function,
 * inclusive and exclusive counts, their shares of the side's total, the
 * change in percentage points and the relative change, ranked suspects
 * first; all of it in one walk of the tree, which the options below
 * extend.
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
 * What pv-diff adds, each off unless asked for:
 *   - groups: the frame records of both sides (pv_stackdiff_add_frame())
 *     put frames into groups of four kinds (groups.h): the address
 *     space, the module, the source file and the subsystem (opt.subsys
 *     maps files to subsystems); a group's inclusive count is that of the
 *     stacks with a frame in it, each once, its exclusive count that of
 *     the stacks whose leaf is in it;
 *   - match: functions seen on one side only paired by their callers and
 *     callees (funcmatch.h);
 *   - merge_roots: a root frame seen in the baseline only and one seen in
 *     the target only, alike enough, taken for one (funcmatch.h);
 *   - function: the call paths of one function, its callers and its
 *     callees, for a butterfly view (callpaths.h).
 *
 * Lifecycle: pv_stackdiff_init(), any number of pv_stackdiff_add() and
 * pv_stackdiff_add_frame(), one pv_stackdiff_compute(), then the results
 * in the public fields; pv_stackdiff_release() frees everything.  Errors
 * (counts that do not fit in 64 bits, more call paths than the tree
 * holds) are returned as -1 with a message in err; nothing is printed.
 */
#ifndef PV_STACKDIFF_H
#define PV_STACKDIFF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"
#include "flametree.h"
#include "rec_profile.h"
#include "record.h"
#include "strbuf.h"
#include "subsys.h"
#include "symtab.h"

enum {
	PV_SIDE_BASE = 0,
	PV_SIDE_TARGET = 1
};

struct pv_stackdiff_opts {
	int raw;		/* shares of the baseline's total */
	int keep_suffixes;	/* do not remove compiler suffixes */
	int strip_hex;		/* "0x1f" -> "0x..." */
	/* pv-diff's; all off by default, as pv-render needs none of them */
	int groups;		/* roll-ups by group, from frame records */
	int match;		/* probable matches of renamed functions */
	int merge_roots;	/* one program's roots under two names */
	const struct pv_subsys *subsys;	/* files to subsystems, or NULL */
	const char *function;	/* its call paths, or NULL */
};

/* Per-event totals. */
struct pv_stackdiff_total {
	uint32_t event;			/* id in names */
	uint64_t period[2], samples[2];
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

/* The figures of one group under one event. */
struct pv_stackdiff_group {
	uint32_t event;			/* id in names */
	uint32_t name;			/* id in gnames */
	unsigned kind;			/* PV_GROUP_* (rec_profile.h) */
	struct pv_rec_figures fig;
	unsigned presence;
};

/* A probable match: func[0] seen in the baseline only, func[1] in the target. */
struct pv_stackdiff_match {
	uint32_t event;
	uint32_t name[2];		/* ids in names */
	struct pv_rec_figures fig;	/* func[0]'s baseline, func[1]'s target */
	double score;
};

/* Two roots taken for one, named by the target's. */
struct pv_stackdiff_rootmerge {
	uint32_t name[2];		/* ids in names */
	double score;
};

/* A call path of opt.function (callpaths.h). */
struct pv_stackdiff_path {
	uint32_t event;
	unsigned dir;			/* PV_PATH_* (rec_profile.h) */
	struct pv_rec_figures fig;
	const uint32_t *frame;		/* ids in names, the function first */
	size_t nframe;
};

/* What a frame record said of a frame, as ids in gnames (NONE: absent). */
struct pv_stackdiff_frame {
	uint32_t space, module, file, subsys;
};

struct pv_stackdiff_event;
struct pv_stacktab;

/* A group: its kind (PV_GROUP_*) and its name, an id in gnames. */
struct pv_stackdiff_gdef {
	unsigned kind;
	uint32_t name;
};

struct pv_stackdiff {
	struct pv_stackdiff_opts opt;
	struct pv_symtab names;		/* normalised frame names, events */
	struct pv_flametree tree;	/* root, events, frames */
	unsigned char *ends;		/* by node: sides of the stacks ending
					   there, PV_IN_BASE | PV_IN_TARGET */
	size_t ends_alloc;

	/* results of pv_stackdiff_compute() */
	struct pv_stackdiff_total *total;	/* by event name */
	size_t ntotal;
	struct pv_stackdiff_func *func;	/* by event, suspects first */
	size_t nfunc;
	struct pv_symtab gnames;	/* names of groups and what frames say */
	struct pv_stackdiff_group *group;	/* by event, kind, suspects */
	size_t ngroup;
	struct pv_stackdiff_match *match;	/* by event, best first */
	size_t nmatch;
	struct pv_stackdiff_rootmerge *rootmerge;
	size_t nrootmerge;
	struct pv_stackdiff_path *path;	/* by event, callers first */
	size_t npath;
	int function_found;		/* opt.function is in some stack */

	/* what the frame records said, by names id, per side */
	struct pv_stackdiff_frame *frame[2];
	size_t frame_alloc[2];
	size_t nframe_rec;		/* frame records added */
	struct pv_stackdiff_frame last_frame;	/* the last new one's */

	/* internal */
	uint32_t *gid;			/* names id * 4 + kind -> group */
	struct pv_stackdiff_gdef *gdef;	/* the groups: kind, gnames id */
	size_t ngdef, gdef_alloc;
	struct pv_symtab raw;		/* frame names as read */
	uint32_t *norm;			/* raw id -> names id, or ~0 */
	size_t norm_alloc;
	struct pv_str *prev;		/* the last stack's frames, in raw */
	size_t nprev, prev_alloc;
	uint32_t *dprev;		/* names ids of the last dstack */
	size_t ndprev, dprev_alloc;
	uint32_t *frames;		/* the last stack's names ids */
	size_t frames_alloc;
	struct pv_stackdiff_event *event;	/* events as added */
	size_t nevent, event_alloc;
	uint32_t last_event;		/* index in event of the last add */
	struct pv_arena arena;		/* path frames */
	struct pv_stacktab *collect;	/* pv_stackdiff_collect()'s */
	int collect_side;
	uint32_t *order;		/* nodes in output order (compute) */
	uint32_t *evtotal;		/* names id -> total + 1, between the
					   parts of the computing */
	size_t norder;
	struct pv_strbuf buf;
	int overflow;
	struct pv_err err;
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
 * when the stack is new and the call tree cannot hold it (flametree.h).
 */
int pv_stackdiff_add(struct pv_stackdiff *d, int side, struct pv_str event,
		      const struct pv_str *frame, size_t nframe,
		      uint64_t samples, uint64_t period);

/*
 * From now on, gather the stacks added, all of side, as distinct stacks
 * in a table (stacktab.h) instead of the call tree, for
 * pv_stackdiff_merge(): the cheap way to read one input apart.  Call
 * after pv_stackdiff_init(), before adding; pv_stackdiff_reserve() then
 * makes room in the table.  Such a struct is merged, never computed.
 */
void pv_stackdiff_collect(struct pv_stackdiff *d, int side);

/*
 * Add to d what from (pv_stackdiff_collect()) holds, as if its
 * pv_stackdiff_add() and pv_stackdiff_add_frame() calls had been made on
 * d after d's own: the same names ids, call paths made in the same order,
 * counts and frame records, so that what d computes and writes is the
 * same byte for byte.  from has d's options and holds one input (the
 * target, while d read the baseline: tools/pv-diff.c reads the two at
 * once); it is left as it was.  Returns 0, or -1 with d unchanged when
 * from gathers nothing, or d's tree might not hold from's call paths (the
 * caller then adds the input to d itself, which finds where it passes).
 */
int pv_stackdiff_merge(struct pv_stackdiff *d, const struct pv_stackdiff *from);

/*
 * Add what a frame record of side says of a frame (its name normalised as
 * the stacks' are); the first record of a name on a side counts.  Kept
 * only with opt.groups.
 */
void pv_stackdiff_add_frame(struct pv_stackdiff *d, int side,
			    const struct pv_rec_frame *f);

/*
 * Compute totals, the functions and what the options ask for.  Where one
 * side's stacks all have no event and the other's all have one event, the
 * two are compared as one event, named by the side that has it.  Returns
 * 0, or -1 when a count overflowed (err says so).  Call once.
 */
int pv_stackdiff_compute(struct pv_stackdiff *d);
/*
 * pv_stackdiff_compute() in two parts, for a writer that sends the
 * stacks on while it counts the functions (pv-diff into a pipe): the
 * stacks' part (the tree summed, its events paired, its roots merged and
 * in output order, the totals), which is all that can fail and is enough
 * for pv_stackdiff_write_stacks(); then the functions' part, the rest.
 */
int pv_stackdiff_compute_stacks(struct pv_stackdiff *d);
int pv_stackdiff_compute_funcs(struct pv_stackdiff *d);

/* The distinct stacks added (after normalisation), both sides together. */
size_t pv_stackdiff_nstacks(const struct pv_stackdiff *d);

/*
 * Whether some function's exclusive or inclusive share moved by more than
 * threshold percentage points (in absolute value).
 */
int pv_stackdiff_moved(const struct pv_stackdiff *d, double threshold);

/*
 * Write the results: rootmerge, total, frame, dstack, func, group, match
 * and path records (pv-format(5), pv-diff(1); their codecs are
 * rec_profile.h's), in that order, those that the options asked for.
 */
void pv_stackdiff_write(const struct pv_stackdiff *d, FILE *out);
/*
 * The same in two parts: rootmerge, total, frame and dstack records
 * (after pv_stackdiff_compute_stacks()); then func, group, match and path
 * records (after pv_stackdiff_compute_funcs()).
 */
void pv_stackdiff_write_stacks(const struct pv_stackdiff *d, FILE *out);
void pv_stackdiff_write_funcs(const struct pv_stackdiff *d, FILE *out);

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
 * err when the stack is new and the call tree cannot hold it.
 */
int pv_stackdiff_add_dstack(struct pv_stackdiff *d,
			    const struct pv_rec_dstack *rec);

/*
 * Sort funcs as pv-diff(1) does: by event name, then by exclusive change
 * (largest growth first), then by name, byte-wise.
 */
void pv_stackdiff_sort_funcs(struct pv_stackdiff_func *f, size_t n,
			     const struct pv_symtab *names);

/*
 * The figures of counts incl and excl (baseline, target) against the
 * totals den: shares, changes and relative changes, as func records have
 * them.
 */
void pv_stackdiff_figures(struct pv_rec_figures *g, const uint64_t incl[2],
			  const uint64_t excl[2], const uint64_t den[2]);

#endif
