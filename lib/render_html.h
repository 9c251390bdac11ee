/*
 * render_html: the self-contained HTML report of a profile comparison
 * (pv-render --format=html).
 *
 * The module is fed every record of the input in order and keeps what the
 * report shows: the context of the baseline and target sections (their
 * version, experiment and every meta and env record), and per event a
 * two-sided call tree (flametree.h) and a per-function table.  The call
 * tree comes from pv-diff's dstack records, or, for input without them,
 * from the stack records of the sections whose role is baseline or target
 * (and from diff-folded lines); the function table comes from pv-diff's
 * func records, or, for input without them, from stackdiff's figures of
 * the tree's stacks (as pv-diff would write them).  The records are read
 * by their codecs (rec_profile.h).  Memory grows with the distinct call
 * paths and names, never with the input's length.
 *
 * The report is one HTML file: the context table written here, the data
 * as JSON in a non-executed script element, and the page's script and
 * style (lib/html/report.js and report.css, embedded at build time) inline,
 * allowed by a Content-Security-Policy that names their SHA-256 hashes and
 * forbids everything else, the network included.  Every name from the input
 * is HTML-escaped or JSON-escaped; bytes that are not UTF-8 become U+FFFD.
 *
 * Call paths below min_share of both sides' totals are merged, per parent,
 * into one frame that keeps their weight, so the totals never change.
 *
 * A later summary page of benchmark verdicts plugs in at pv_html_add()
 * (their records) and at the "summary" member of the page's data, which
 * the script shows as its own tab when it is not null.
 *
 * Errors: pv_html_add() returns -1 for a malformed record of a type it
 * reads (total, dstack, func), and pv_html_write() -1 when the input held
 * no stacks to show; the message is in pv_html_error().  Nothing here
 * prints; allocation failure dies (xalloc.h).
 */
#ifndef PV_RENDER_HTML_H
#define PV_RENDER_HTML_H

#include <stdio.h>

#include "record.h"

/* the default of min_share: a pixel of a graph 10000 pixels wide */
#define PV_HTML_MIN_SHARE 1e-4

struct pv_html;

struct pv_html *pv_html_new(void);
void pv_html_free(struct pv_html *h);
void pv_html_set_min_share(struct pv_html *h, double share);
/* Show only the event named event (NULL, the default: every event). */
void pv_html_set_event(struct pv_html *h, const char *event);

int pv_html_add(struct pv_html *h, const struct pv_record *rec);
/* Write the whole document to out (the caller checks out's errors). */
int pv_html_write(struct pv_html *h, FILE *out);
const char *pv_html_error(const struct pv_html *h);

#endif
