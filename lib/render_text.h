/*
 * render_text: the plain-text renderings of a profile comparison
 * (pv-render(1) --format=text and --format=diff-folded), drawn from what
 * pv-diff wrote: its dstack records as lines, its func records (or the
 * figures stackdiff computes where they are missing) as a table, its
 * group records as tables, its path records as a butterfly view.
 *
 * Both write to a stdio stream and leave its errors for the caller to
 * check once, at the end; neither prints anything else nor exits.
 */
#ifndef PV_RENDER_TEXT_H
#define PV_RENDER_TEXT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "arena.h"
#include "rec_profile.h"
#include "stackdiff.h"
#include "stacktab.h"
#include "symtab.h"

/*
 * Diff-folded lines, "frame;frame COUNT1 COUNT2", the input of
 * flamegraph.pl: the stacks of one event that pv-diff's dstack records (or
 * diff-folded lines) hold, each line once with its counts added up.  A
 * struct pv_dfold collects them (memory grows with the distinct stacks);
 * the lines are written at the end, in byte-wise order of the frames.
 *
 * pv-diff writes its dstack records distinct and in that order: while
 * they come so, each is kept as its line, written out at once (the counts
 * as they are), without a look-up, into segments that the end writes
 * whole; the first that does not come so (or that has a ';' in a name)
 * moves them all into a table of distinct stacks, which adds up and sorts
 * the rest.  The segments come from an arena, whose large chunks take
 * huge pages (arena.h): ten megabytes of lines held to the end cost a few
 * page faults, not thousands.
 *
 * Lifecycle: pv_dfold_init(), pv_dfold_add() any number of times,
 * pv_render_diff_folded(), pv_dfold_release().  Allocation failure dies
 * (xalloc.h).
 */
struct pv_dfold_line {
	const char *s;			/* the frames joined, in a segment */
	size_t len;
	uint64_t count[2];		/* base, target */
};

/* A piece of the lines as written, which does not move as it fills. */
struct pv_dfold_seg {
	char *buf;
	size_t len, cap;
};

struct pv_dfold {
	/* while sorted: the lines, in order */
	int table;			/* the lines have moved to the table */
	struct pv_arena arena;		/* the segments */
	struct pv_dfold_seg *seg;	/* the lines as written, in order */
	size_t nseg, seg_alloc, textlen;
	struct pv_dfold_line *line;
	size_t nline, line_alloc;
	/* else: the distinct stacks */
	struct pv_symtab names;
	struct pv_stacktab stacks;	/* their counts unused: see count */
	uint64_t (*count)[2];		/* beside stacks.stack: base, target */
	size_t count_alloc;
	uint32_t *frames;		/* the last stack's, names ids */
	size_t nframes, frames_alloc;
	int overflow;
};

void pv_dfold_init(struct pv_dfold *f);
void pv_dfold_release(struct pv_dfold *f);
/*
 * Add a stack (frames root first) with the counts of both sides.  joined,
 * when not NULL, is the same frame list as one string: the names joined by
 * ';', none holding a ';' (a dstack record's FRAMES with no backslash,
 * rec_profile.h).  Returns 0, or -1 when the stack is new and the table
 * cannot hold it (the message in f->stacks.err, stacktab.h; lines kept in
 * order are not in the table).
 */
int pv_dfold_add(struct pv_dfold *f, const struct pv_str *frame,
		 size_t nframe, const struct pv_str *joined, uint64_t base,
		 uint64_t target);
/*
 * Add a stack by its joined frames alone (as pv_dfold_add()'s joined),
 * when it can be kept as a line: 1 when it was, 0 when not, and then the
 * caller gives it to pv_dfold_add() with its frames.  For a reader that
 * splits frame lists only when needed (pv_reader_keep_frames()).  text,
 * when not NULL, holds base and target as read (decimal): copied into
 * the line where they are written as they would be (no leading zero).
 */
int pv_dfold_add_joined(struct pv_dfold *f, const struct pv_str *joined,
			uint64_t base, uint64_t target,
			const struct pv_str *text);
/* The number of stacks added, the repeated ones once. */
size_t pv_dfold_count(const struct pv_dfold *f);

/*
 * Write the lines of f, the baseline's count first.  Frame names are
 * written as they are.  With normalize set, the baseline's counts are
 * scaled to the target's total and rounded down, as difffolded.pl -n does
 * (the totals are the sums of the lines, pv-diff's total record).
 * Returns 0, or -1 (nothing written) when a count or a total passed 64
 * bits.
 */
int pv_render_diff_folded(FILE *out, const struct pv_dfold *f,
			  int normalize);

/*
 * The table of suspects: for each event (in the order of f, which
 * pv_stackdiff_sort_funcs() gives), a heading and the first top functions
 * of that event: their exclusive and inclusive shares on both sides, the
 * changes in percentage points and the relative changes.  With color set,
 * growth is shown in red and shrinking in blue (ANSI escapes).  Bytes of
 * names that a terminal would act on (control characters) are written as
 * \xHH.
 */
void pv_render_text(FILE *out, const struct pv_stackdiff_func *f, size_t n,
		    const struct pv_symtab *names, size_t top, int color);

/*
 * A row of a group table or of a butterfly view, from pv-diff's group or
 * path record (rec_profile.h), its names as ids in a symtab.
 */
struct pv_render_row {
	uint32_t event;		/* id in names */
	unsigned kind;		/* group: PV_GROUP_*; path: PV_PATH_* */
	uint32_t name;		/* group: its name; path: its last frame */
	size_t depth;		/* path: its frames after the function */
	struct pv_rec_figures fig;
};

/*
 * The group tables: for each event and kind, in the order of the rows
 * (pv-diff's: by event, by kind, largest growth of exclusive share
 * first), a heading and the first top groups, with the columns of
 * pv_render_text().
 */
void pv_render_text_groups(FILE *out, const struct pv_render_row *r,
			   size_t n, const struct pv_symtab *names,
			   size_t top, int color);

/*
 * The butterfly view of function fn: for each event, its callers and then
 * its callees, each path a row under the one it extends (the rows in
 * pv-diff's order, depth first), indented by its depth, with the columns
 * of pv_render_text().
 */
void pv_render_text_paths(FILE *out, const struct pv_render_row *r, size_t n,
			  const struct pv_symtab *names, struct pv_str fn,
			  int color);

#endif
