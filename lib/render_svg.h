/*
 * render_svg: a static flame graph as one SVG file, in the manner of
 * flamegraph.pl: the root at the bottom, each frame as wide as its count,
 * the children of a frame above it in byte-wise order of their names, a
 * tooltip (<title>) with the name and the counts on every frame.  It holds
 * no script and refers to nothing outside itself.
 *
 * A differential flame graph takes its widths from the target's counts and
 * its colours from the change of each frame's exclusive share of the total
 * (target minus baseline, in percentage points): red where it grew, blue
 * where it shrank, white where it stayed, the strongest colour for the
 * largest change.  Frames present only in the baseline have no width and
 * are not drawn.
 *
 * Frames narrower than the minimum width are not drawn: their counts stay
 * in their parent, which is drawn at its full width, so that nothing is
 * dropped from the totals.  Every name is escaped for XML; bytes that are
 * not valid UTF-8, and control characters, are written as U+FFFD.
 */
#ifndef PV_RENDER_SVG_H
#define PV_RENDER_SVG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "symtab.h"

struct pv_svg_opts {
	const char *title;	/* NULL: "[Differential ]Flame Graph" */
	double width;		/* of the image, in pixels; 0: 1200 */
	double min_width;	/* of a frame drawn, in pixels; <0: 0.1 */
	int differential;	/* the baseline's weights are given */
};

/*
 * Write the flame graph of the call tree t (flametree.h) to out: the
 * widths are the target's weights, w[1] (a plain flame graph is a tree
 * whose stacks were all added as the target's), the differential colours
 * and tooltips take the baseline's from w[0].  Names are looked up in
 * names.  Returns 0, or -1 when the weights passed 64 bits (t->overflow).
 */
struct pv_flametree;
int pv_svg_write(FILE *out, const struct pv_svg_opts *opt,
		 const struct pv_symtab *names, const struct pv_flametree *t);

/* Append s[0..len) to sb escaped for XML text and attributes. */
struct pv_strbuf;
void pv_svg_escape(struct pv_strbuf *sb, const char *s, size_t len);

#endif
