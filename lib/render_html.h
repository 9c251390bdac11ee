/*
 * render_html: the self-contained HTML report (pv-render --format=html):
 * the decision pages of a night's benchmark comparisons, when the input
 * holds pv-classify's verdicts (render_decision.h), and the profile pages
 * of every profile comparison it holds, joined: each regression links to
 * the profile comparison of its experiment and level.
 *
 * The module is fed every record of the input in order and keeps what the
 * report shows: every section's identity (role, version, experiment, the
 * level its meta record names) and its meta and env facts, and per profile
 * comparison (a diff section of pv-diff: its versions BASE..TARGET, its
 * experiment and level) per event a two-sided call tree (flametree.h), the
 * totals and a per-function table.  The call tree comes from pv-diff's
 * dstack records, or, for input without them (and without verdicts), from
 * the stack records of the sections whose role is baseline or target (and
 * from diff-folded lines), as one comparison; the function table comes
 * from pv-diff's func records, or, for input without them, from
 * stackdiff's figures of the tree's stacks (as pv-diff would write them).
 * The records are read by their codecs.  Memory grows with the distinct
 * call paths, names, keys and facts, never with the input's length.
 *
 * The report is one HTML file: the first screen (the night's summary, or
 * the profile's context) written here as HTML, the data as JSON in
 * non-executed script elements (each profile comparison in its own, read
 * by the page when it is opened), and the page's script and style
 * (lib/html/report/ and report.css, embedded at build time) inline,
 * allowed by a Content-Security-Policy that names their SHA-256 hashes and
 * forbids everything else, the network included.  Every name from the
 * input is HTML-escaped or JSON-escaped; bytes that are not UTF-8 become
 * U+FFFD.
 *
 * Call paths below min_share of both sides' totals are merged, per parent,
 * into one frame that keeps their weight, so the totals never change.
 *
 * Errors: pv_html_add() returns -1 for a malformed record of a type it
 * reads (total, dstack, func and the decision records), and
 * pv_html_write() -1 when the input held neither stacks nor verdicts to
 * show; the message is in pv_html_error().  Nothing here prints;
 * allocation failure dies (xalloc.h).
 */
#ifndef PV_RENDER_HTML_H
#define PV_RENDER_HTML_H

#include <stdint.h>
#include <stdio.h>

#include "record.h"
#include "strbuf.h"
#include "symtab.h"

/* the default of min_share: a pixel of a graph 10000 pixels wide */
#define PV_HTML_MIN_SHARE 1e-4

struct pv_html;

struct pv_html *pv_html_new(void);
void pv_html_free(struct pv_html *h);
void pv_html_set_min_share(struct pv_html *h, double share);
/* Show only the event named event (NULL, the default: every event). */
void pv_html_set_event(struct pv_html *h, const char *event);
/*
 * Where the collections' artifact directories are now (NULL, the default:
 * where their meta records 'artifacts' say): each link to a run's output
 * file is dir, the last part of the recorded directory, the file's name.
 * dir is kept, not copied.
 */
void pv_html_set_artifacts(struct pv_html *h, const char *dir);

int pv_html_add(struct pv_html *h, const struct pv_record *rec);
/* Write the whole document to out (the caller checks out's errors). */
int pv_html_write(struct pv_html *h, FILE *out);
const char *pv_html_error(const struct pv_html *h);

/*
 * For the report's other writers (render_decision.c): what the document
 * knows of the input's sections, and its escapes.
 */

/* A meta or env fact of a section: ids in the document's string table. */
struct pv_html_fact {
	uint32_t key, value;
	int env;		/* 0 meta, 1 env */
};

/* A section of the input (pv-diff's diff sections aside). */
struct pv_html_sect {
	uint32_t role, version, experiment;	/* ids; "" when absent */
	uint64_t level;		/* its meta level, or PV_NONE */
	struct pv_html_fact *fact;
	size_t nfact, alloc;
};

/* The text of s[0..len) in HTML: & < > " ' escaped, bad UTF-8 as U+FFFD. */
void pv_html_escape(struct pv_strbuf *sb, const char *s, size_t len);
/*
 * s[0..len) as a JSON string, quotes included, that may stand inside a
 * script element: '<', '>' and '&' as \u escapes, bad UTF-8 as U+FFFD.
 */
void pv_html_json(struct pv_strbuf *sb, const char *s, size_t len);
/* A number for the page: ten significant digits, null for NaN and inf. */
void pv_html_json_num(struct pv_strbuf *sb, double v);

#endif
