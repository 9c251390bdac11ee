/*
 * pv-render: print pv records for people and for other programs.
 *
 * --format=folded prints the stack records of its input as folded stacks,
 * "frame;frame;frame COUNT", one line per distinct stack, sorted byte-wise,
 * COUNT being the sum of the periods (the samples, where no period was
 * recorded): the input of flamegraph.pl and of inferno.  Stacks of every
 * section are added together; --event keeps one event's stacks.
 *
 * --format=diff-folded, --format=text and --format=svg draw the output of
 * pv-diff as it is, comparing nothing again: its dstack records as
 * diff-folded lines or a differential flame graph (laid out from their
 * call tree), its func records as the table of suspects; only where the
 * input has no func records does the table take the figures lib/stackdiff
 * computes from the dstack records (or from diff-folded lines).
 * --format=svg draws a plain flame graph from stack records.  The
 * renderers live in lib/ (render_text, render_svg); this file reads the
 * records with their codecs and dispatches.
 *
 * --format=html writes the self-contained HTML report of a comparison
 * (pv-diff output, or stacks in baseline and target sections): see
 * lib/render_html.h.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "flametree.h"
#include "hash.h"
#include "opt.h"
#include "rec_profile.h"
#include "record.h"
#include "render_html.h"
#include "render_json.h"
#include "render_svg.h"
#include "render_text.h"
#include "render_series.h"
#include "render_verdict.h"
#include "stackdiff.h"
#include "stacktab.h"
#include "symtab.h"
#include "xalloc.h"

static const char usage[] =
	"pv-render [--format=FORMAT] [--event=EVENT] [--normalize] [--top=N]\n"
	"                 [--function=NAME] [--color=WHEN] [--title=TEXT]\n"
	"                 [--width=PX] [--min-width=PX] [--artifacts=DIR] "
	"[FILE ...]";

static const char help[] =
	"Print pv records (pv-format(5)) in another format.\n"
	"\n"
	"  -f, --format=FORMAT  folded: folded stacks, one line per stack;\n"
	"                       diff-folded: \"stack count1 count2\" lines of a\n"
	"                       comparison (pv-diff); text: the table of\n"
	"                       suspects of a comparison; svg: a flame graph,\n"
	"                       differential for a comparison; html: the\n"
	"                       report of a comparison, one self-contained file;\n"
	"                       junit: pv-classify's verdicts as JUnit XML (text\n"
	"                       also prints them, ranked, and pv-series's\n"
	"                       change points); json: comparisons,\n"
	"                       verdicts, systematic regressions, change points\n"
	"                       and function changes as one JSON document\n"
	"  -e, --event=EVENT    only the stacks of EVENT (default: the first\n"
	"                       event seen, with a warning if there are others)\n"
	"  -n, --normalize      diff-folded: scale the baseline's counts to the\n"
	"                       target's total (as difffolded.pl -n)\n"
	"      --top=N          text: the first N functions of each event, and\n"
	"                       groups of each kind (20)\n"
	"      --function=NAME  text: the call paths of NAME (a butterfly view),\n"
	"                       from the path records of pv-diff --function\n"
	"      --color=WHEN     text: colour changes: auto (on a terminal,\n"
	"                       unless NO_COLOR is set), always, never\n"
	"      --title=TEXT     svg: the title\n"
	"      --width=PX       svg: the width of the image, over 20 (1200)\n"
	"      --min-width=PX   svg: narrower frames are merged into their\n"
	"                       parent (0.1)\n"
	"      --artifacts=DIR  html: the directories of the runs' output\n"
	"                       files were moved into DIR\n"
	"  -h, --help           print this help and exit\n"
	"  -V, --version        print the version and exit\n"
	"\n"
	"With no FILE, or when FILE is -, read standard input; gzip-compressed\n"
	"input is read transparently.\n"
	"\n"
	"Exit status: 0 on success, 2 on trouble.\n";

enum format {
	FMT_FOLDED,
	FMT_DIFF_FOLDED,
	FMT_TEXT,
	FMT_SVG,
	FMT_HTML,
	FMT_JUNIT,
	FMT_JSON
};

static const char *const format_name[] = {
	"folded", "diff-folded", "text", "svg", "html", "junit", "json"
};

enum color {
	COLOR_AUTO,
	COLOR_ALWAYS,
	COLOR_NEVER
};

struct options {
	enum format format;
	const char *event;	/* NULL: the first event seen */
	int normalize;
	uint64_t top;
	const char *function;	/* text: the butterfly view of it */
	enum color color;
	struct pv_svg_opts svg;
	char *artifacts;	/* --artifacts, made absolute */
};

/*
 * A profile comparison of the input, a diff section of pv-diff: its func
 * and row records are st->func[func0...] and st->row[row0...], up to the
 * next comparison's.
 */
struct comparison {
	char *experiment, *versions, *level;	/* "" where absent */
	size_t func0, row0;
};

struct render {
	const struct options *opt;
	struct pv_symtab names;
	uint32_t *frames;	/* the last stack's frames, names ids */
	size_t nframes, frames_alloc;
	struct pv_stacktab stacks;	/* folded: stack records */
	/* svg: the call trees of stack and of dstack records */
	struct pv_flametree tree, dtree;
	size_t ntree, ndtree;	/* stacks added */
	struct pv_dfold dfold;	/* diff-folded: the lines */
	/* text: pv-diff's func records, or the figures of its dstacks */
	struct pv_stackdiff diff;
	struct pv_stackdiff_func *func;
	size_t nfunc, func_alloc;
	/* text: pv-diff's group records, or the path records of --function */
	struct pv_render_row *row;
	size_t nrow, row_alloc;
	/* text: the comparisons (diff sections), each one table */
	struct comparison *cmp;
	size_t ncmp, cmp_alloc;
	char *event;		/* the event kept, once seen */
	unsigned long other_events;	/* stacks of other events, skipped */
	char *other_name;
	struct pv_html *html;	/* --format=html */
	struct pv_render_verdict verdicts;	/* text, junit: pv-classify's records */
	struct pv_render_json json;	/* json: cmp, changepoint records */
	struct pv_render_series series;	/* text: pv-series's records */
	/* a codec's error, set before dying (one, not one a record) */
	struct pv_err err;
};

/*
 * Whether to keep a stack of event ev: --event, else the first seen (the
 * table of --format=text shows every event).
 */
static int
keep_event(struct render *st, struct pv_str ev)
{
	if (st->opt->event != NULL)
		return pv_str_eq(ev, st->opt->event);
	if (st->opt->format == FMT_TEXT || st->opt->format == FMT_JSON)
		return 1;
	if (st->event == NULL) {
		st->event = pv_xmemdup(ev.s, ev.len);
		return 1;
	}
	if (pv_str_eq(ev, st->event))
		return 1;
	if (st->other_events++ == 0)
		st->other_name = pv_xmemdup(ev.s, ev.len);
	return 0;
}

/*
 * The frames of a stack as names ids, in st->frames: sorted input repeats
 * most of the stack before, whose names need no look-up.
 */
static void
intern_frames(struct render *st, const struct pv_str *frame, size_t n)
{
	size_t i;

	PV_GROW(st->frames, n, st->frames_alloc);
	for (i = 0; i < n; i++) {
		if (i < st->nframes) {
			struct pv_str p = pv_symtab_get(&st->names,
							st->frames[i]);

			if (p.len == frame[i].len &&
			    pv_hash_same(p.s, frame[i].s, p.len))
				continue;
		}
		st->frames[i] = pv_symtab_intern(&st->names, frame[i].s,
						 frame[i].len);
	}
	st->nframes = n;
}

/* A stack record, or a folded line. */
static void
add_stack(struct render *st, const struct pv_record *rec, struct pv_reader *r)
{
	uint32_t ev;

	/* the first event seen is kept, whichever record it comes with */
	if (!keep_event(st, rec->event) ||
	    (st->opt->format != FMT_FOLDED && st->opt->format != FMT_SVG))
		return;
	intern_frames(st, rec->frame, rec->nframe);
	if (st->opt->format == FMT_SVG) {
		if (pv_flametree_add(&st->tree, st->frames, rec->nframe, 0,
				     rec->period) < 0)
			pv_die_at(pv_reader_name(r), pv_reader_lineno(r),
				  "%s", pv_err_msg(&st->tree.err));
		st->ntree++;
		return;
	}
	ev = pv_symtab_intern(&st->names, rec->event.s, rec->event.len);
	if (pv_stacktab_add(&st->stacks, ev, st->frames, rec->nframe,
			    rec->samples, rec->period) == NULL)
		pv_die_at(pv_reader_name(r), pv_reader_lineno(r), "%s",
			  pv_err_msg(&st->stacks.err));
}

/* A stack of a comparison, for the differential flame graph. */
static void
add_dtree(struct render *st, struct pv_str event, const struct pv_str *frame,
	  size_t nframe, uint64_t base, uint64_t target, struct pv_reader *r)
{
	if (!keep_event(st, event))
		return;
	intern_frames(st, frame, nframe);
	if (pv_flametree_add(&st->dtree, st->frames, nframe, base,
			     target) < 0)
		pv_die_at(pv_reader_name(r), pv_reader_lineno(r), "%s",
			  pv_err_msg(&st->dtree.err));
	st->ndtree++;
}

/*
 * A group record, or a path record of --function, kept for the text
 * output.
 */
static void
add_row(struct render *st, const struct pv_record *rec, struct pv_reader *r)
{
	struct pv_err e = PV_ERR_INIT;
	struct pv_render_row *row;
	struct pv_str event, name;
	struct pv_rec_figures fig;
	unsigned kind;
	size_t depth = 0;

	if (pv_str_eq(rec->field[0], "group")) {
		struct pv_rec_group g;

		if (pv_rec_group_parse(rec, &g, &e) < 0)
			pv_die_at(pv_reader_name(r), pv_reader_lineno(r),
				  "%s", pv_err_msg(&e));
		if (st->opt->function != NULL)
			return;
		event = g.event;
		name = g.name;
		kind = g.kind;
		fig = g.fig;
	} else {
		struct pv_rec_path p;

		if (pv_rec_path_parse(rec, &p, &e) < 0)
			pv_die_at(pv_reader_name(r), pv_reader_lineno(r),
				  "%s", pv_err_msg(&e));
		/* the paths of the function asked for only */
		if (st->opt->function == NULL || p.nframe == 0 ||
		    !pv_str_eq(p.frame[0], st->opt->function))
			return;
		event = p.event;
		name = p.frame[p.nframe - 1];
		kind = p.dir;
		fig = p.fig;
		depth = p.nframe - 1;
	}
	if (st->opt->event != NULL && !pv_str_eq(event, st->opt->event))
		return;
	PV_GROW(st->row, st->nrow + 1, st->row_alloc);
	row = &st->row[st->nrow++];
	row->event = pv_symtab_intern(&st->diff.names, event.s, event.len);
	row->name = pv_symtab_intern(&st->diff.names, name.s, name.len);
	row->kind = kind;
	row->depth = depth;
	row->fig = fig;
}

/* A record of a comparison (pv-diff), or a diff-folded line. */
static void
add_diff(struct render *st, struct pv_record *rec, struct pv_reader *r)
{
	struct pv_err *e = &st->err;
	struct pv_rec_dstack ds;
	struct pv_rec_func fr;
	struct pv_stackdiff_func *f;

	if (rec->folded == 2 && st->opt->format == FMT_SVG) {
		add_dtree(st, rec->event, rec->frame, rec->nframe, rec->period,
			  rec->period2, r);
	} else if (rec->folded == 2 && st->opt->format == FMT_DIFF_FOLDED) {
		if (keep_event(st, rec->event) &&
		    pv_dfold_add(&st->dfold, rec->frame, rec->nframe, NULL,
				 rec->period, rec->period2) < 0)
			pv_die_at(pv_reader_name(r), pv_reader_lineno(r),
				  "%s", pv_err_msg(&st->dfold.stacks.err));
	} else if (rec->folded == 2) {
		if (!keep_event(st, rec->event))
			return;
		if (pv_stackdiff_add(&st->diff, PV_SIDE_BASE, rec->event,
				     rec->frame, rec->nframe, rec->period,
				     rec->period) < 0 ||
		    pv_stackdiff_add(&st->diff, PV_SIDE_TARGET, rec->event,
				     rec->frame, rec->nframe, rec->period2,
				     rec->period2) < 0)
			pv_die_at(pv_reader_name(r), pv_reader_lineno(r),
				  "%s", pv_err_msg(&st->diff.err));
	} else if (pv_str_eq(rec->field[0], "dstack")) {
		if (pv_rec_dstack_parse(rec, &ds, e) < 0)
			pv_die_at(pv_reader_name(r), pv_reader_lineno(r),
				  "%s", pv_err_msg(e));
		if (st->opt->format == FMT_SVG)
			add_dtree(st, ds.event, ds.frame, ds.nframe,
				  ds.period[0], ds.period[1], r);
		else if (!keep_event(st, ds.event))
			return;
		else if (st->opt->format == FMT_DIFF_FOLDED) {
			/*
			 * FRAMES whole, when it holds no escape; split (the
			 * reader keeps it whole) only when the line is not
			 * kept as it is.
			 */
			const struct pv_str *joined =
				memchr(ds.frames_raw.s, '\\',
				       ds.frames_raw.len) == NULL ?
				&ds.frames_raw : NULL;

			if (joined != NULL &&
			    pv_dfold_add_joined(&st->dfold, joined,
						ds.period[0], ds.period[1],
						rec->field + 2))
				return;
			if (pv_reader_split_frames(r, rec) < 0)
				pv_die_at(pv_reader_name(r),
					  pv_reader_lineno(r), "%s",
					  pv_reader_error(r));
			ds.frame = rec->frame;
			ds.nframe = rec->nframe;
			if (pv_dfold_add(&st->dfold, ds.frame, ds.nframe,
					 joined, ds.period[0],
					 ds.period[1]) < 0)
				pv_die_at(pv_reader_name(r),
					  pv_reader_lineno(r), "%s",
					  pv_err_msg(&st->dfold.stacks.err));
		} else if (pv_stackdiff_add_dstack(&st->diff, &ds) < 0)
			pv_die_at(pv_reader_name(r), pv_reader_lineno(r),
				  "%s", pv_err_msg(&st->diff.err));
	} else if (st->opt->format == FMT_TEXT ||
		   st->opt->format == FMT_JSON) {
		/* the text table's and the JSON's; not the graphs and lines */
		if (pv_rec_func_parse(rec, &fr, e) < 0)
			pv_die_at(pv_reader_name(r), pv_reader_lineno(r),
				  "%s", pv_err_msg(e));
		if (st->opt->event != NULL &&
		    !pv_str_eq(fr.event, st->opt->event))
			return;
		PV_GROW(st->func, st->nfunc + 1, st->func_alloc);
		f = &st->func[st->nfunc++];
		f->event = pv_symtab_intern(&st->diff.names, fr.event.s,
					    fr.event.len);
		f->name = pv_symtab_intern(&st->diff.names, fr.name.s,
					   fr.name.len);
		memcpy(f->incl, fr.incl, sizeof(f->incl));
		memcpy(f->excl, fr.excl, sizeof(f->excl));
		memcpy(f->incl_pct, fr.incl_pct, sizeof(f->incl_pct));
		memcpy(f->excl_pct, fr.excl_pct, sizeof(f->excl_pct));
		f->delta_incl = fr.delta_incl;
		f->delta_excl = fr.delta_excl;
		f->rel_incl = fr.rel_incl;
		f->rel_excl = fr.rel_excl;
		f->presence = fr.presence;
	}
}

/*
 * A section record of a comparison (ROLE diff) starts a comparison of the
 * text output; the meta level record after it names its level.
 */
static void
add_comparison(struct render *st, const struct pv_record *rec)
{
	struct comparison *c;

	if (rec->type == PV_REC_META) {
		c = st->ncmp ? &st->cmp[st->ncmp - 1] : NULL;
		if (c != NULL && c->func0 == st->nfunc &&
		    c->row0 == st->nrow && *c->level == '\0' &&
		    pv_str_eq(rec->key, "level")) {
			free(c->level);
			c->level = pv_xmemdup(rec->value.s, rec->value.len);
		}
		return;
	}
	if (!pv_str_eq(rec->role, "diff"))
		return;
	PV_GROW(st->cmp, st->ncmp + 1, st->cmp_alloc);
	c = &st->cmp[st->ncmp++];
	c->experiment = pv_xmemdup(rec->experiment.s, rec->experiment.len);
	c->versions = pv_xmemdup(rec->version.s, rec->version.len);
	c->level = pv_xstrdup("");
	c->func0 = st->nfunc;
	c->row0 = st->nrow;
}

static void
free_comparisons(struct render *st)
{
	size_t i;

	for (i = 0; i < st->ncmp; i++) {
		free(st->cmp[i].experiment);
		free(st->cmp[i].versions);
		free(st->cmp[i].level);
	}
	free(st->cmp);
}

static void
read_file(struct render *st, const char *path)
{
	struct pv_reader *r = pv_reader_open(path);
	struct pv_record rec;
	int rc;

	if (r == NULL)
		pv_die_errno("cannot open '%s'", path);
	/*
	 * diff-folded takes a dstack's FRAMES whole (add_diff()); every
	 * record is still read and checked, as malformed input is trouble
	 * in every format
	 */
	pv_reader_keep_frames(r, st->opt->format == FMT_DIFF_FOLDED);
	while ((rc = pv_reader_next(r, &rec)) > 0) {
		if (st->opt->format == FMT_JSON &&
		    pv_render_json_add(&st->json, &rec) < 0)
			pv_die_at(pv_reader_name(r), pv_reader_lineno(r),
				  "%s", pv_err_msg(&st->json.err));
		if (st->opt->format == FMT_TEXT || st->opt->format == FMT_JUNIT ||
		    st->opt->format == FMT_JSON) {
			if (pv_render_verdict_add(&st->verdicts, &rec) < 0)
				pv_die_at(pv_reader_name(r),
					  pv_reader_lineno(r), "%s",
					  pv_err_msg(&st->verdicts.err));
			if (st->opt->format == FMT_TEXT &&
			    pv_render_series_add(&st->series, &rec) < 0)
				pv_die_at(pv_reader_name(r),
					  pv_reader_lineno(r), "%s",
					  pv_err_msg(&st->series.err));
			if (st->opt->format == FMT_JUNIT)
				continue;
		}
		if (st->html != NULL) {
			if (pv_html_add(st->html, &rec) < 0)
				pv_die_at(pv_reader_name(r),
					  pv_reader_lineno(r), "%s",
					  pv_html_error(st->html));
			continue;
		}
		if (st->opt->format == FMT_TEXT &&
		    (rec.type == PV_REC_SECTION || rec.type == PV_REC_META)) {
			add_comparison(st, &rec);
			continue;
		}
		if (rec.type == PV_REC_OTHER && st->opt->format == FMT_TEXT &&
		    (pv_str_eq(rec.field[0], "group") ||
		     pv_str_eq(rec.field[0], "path"))) {
			add_row(st, &rec, r);
			continue;
		}
		if (rec.type == PV_REC_OTHER && st->opt->format != FMT_FOLDED &&
		    (pv_str_eq(rec.field[0], "dstack") ||
		     pv_str_eq(rec.field[0], "func"))) {
			add_diff(st, &rec, r);
			continue;
		}
		if (rec.type != PV_REC_STACK ||
		    (st->opt->format == FMT_JSON && rec.folded != 2))
			continue;
		if (rec.folded == 2 && st->opt->format == FMT_FOLDED)
			pv_die_at(pv_reader_name(r), pv_reader_lineno(r),
				  "a diff-folded line (two counts) where "
				  "stacks were expected");
		if (rec.folded == 2)
			add_diff(st, &rec, r);
		else
			add_stack(st, &rec, r);
	}
	if (rc < 0)
		pv_die_at(pv_reader_name(r), pv_reader_lineno(r), "%s",
			  pv_reader_error(r));
	pv_reader_close(r);
}

static void
print_folded(struct render *st)
{
	struct pv_stack **v = pv_stacktab_sorted(&st->stacks, &st->names);
	size_t i, k;

	for (i = 0; i < st->stacks.nstack; i++) {
		const struct pv_stack *s = v[i];

		for (k = 0; k < s->nframe; k++) {
			struct pv_str f = pv_symtab_get(&st->names,
							s->frame[k]);

			if (k > 0)
				putchar(';');
			fwrite(f.s, 1, f.len, stdout);
		}
		printf(" %llu\n", (unsigned long long)s->period);
	}
	free(v);
}

static noreturn void
no_diff(const struct render *st)
{
	pv_die("no dstack records (nor diff-folded lines) to render as %s: "
	       "give the output of pv-diff", format_name[st->opt->format]);
}

/* "comparison EXPERIMENT level L, BASE..TARGET:", the heading of its table */
static void
print_comparison(const struct comparison *c)
{
	fputs("comparison ", stdout);
	pv_write_visible(stdout, *c->experiment ? c->experiment : "-",
			 *c->experiment ? strlen(c->experiment) : 1);
	if (*c->level != '\0') {
		fputs(" level ", stdout);
		pv_write_visible(stdout, c->level, strlen(c->level));
	}
	fputs(", ", stdout);
	pv_write_visible(stdout, *c->versions ? c->versions : "-",
			 *c->versions ? strlen(c->versions) : 1);
	fputs(":\n", stdout);
}

static void
render_text(struct render *st)
{
	const struct options *opt = st->opt;
	size_t i, shown = 0;
	const char *no_color = getenv("NO_COLOR");
	/* NO_COLOR (no-color.org), set and not empty, turns auto off */
	int color = opt->color == COLOR_ALWAYS ||
		    (opt->color == COLOR_AUTO && isatty(STDOUT_FILENO) &&
		     (no_color == NULL || *no_color == '\0'));

	if (opt->function != NULL) {
		struct pv_str fn = { opt->function, strlen(opt->function) };

		if (st->nrow == 0)
			pv_die("no path records of the function '%s': give "
			       "the output of pv-diff --function='%s'",
			       opt->function, opt->function);
		pv_render_text_paths(stdout, st->row, st->nrow,
				     &st->diff.names, fn, color);
		return;
	}
	if (st->nfunc == 0) {
		/* no func records: the figures of the dstacks, computed */
		if (pv_stackdiff_nstacks(&st->diff) == 0)
			no_diff(st);
		if (pv_stackdiff_compute(&st->diff) < 0)
			pv_die("%s", pv_err_msg(&st->diff.err));
		pv_render_text(stdout, st->diff.func, st->diff.nfunc,
			       &st->diff.names, opt->top, color);
		return;
	}
	if (st->ncmp <= 1) {
		pv_stackdiff_sort_funcs(st->func, st->nfunc, &st->diff.names);
		pv_render_text(stdout, st->func, st->nfunc, &st->diff.names,
			       opt->top, color);
		pv_render_text_groups(stdout, st->row, st->nrow,
				      &st->diff.names, opt->top, color);
		return;
	}
	/* several comparisons (experiments, levels): a table each */
	for (i = 0; i <= st->ncmp; i++) {
		size_t f0 = i ? st->cmp[i - 1].func0 : 0;
		size_t r0 = i ? st->cmp[i - 1].row0 : 0;
		size_t f1 = i < st->ncmp ? st->cmp[i].func0 : st->nfunc;
		size_t r1 = i < st->ncmp ? st->cmp[i].row0 : st->nrow;

		if (f0 == f1 && r0 == r1)
			continue;
		if (shown++)
			putchar('\n');
		if (i > 0)
			print_comparison(&st->cmp[i - 1]);
		pv_stackdiff_sort_funcs(st->func + f0, f1 - f0,
					&st->diff.names);
		pv_render_text(stdout, st->func + f0, f1 - f0,
			       &st->diff.names, opt->top, color);
		pv_render_text_groups(stdout, st->row + r0, r1 - r0,
				      &st->diff.names, opt->top, color);
	}
}

/*
 * The JSON document; the functions from the func records, else from the
 * dstack records (or diff-folded lines), else none.  A document of
 * nothing would read as a comparison that found nothing: trouble.
 */
static void
render_json(struct render *st)
{
	const struct pv_stackdiff_func *f = st->func;
	size_t nf = st->nfunc;

	if (nf > 0) {
		pv_stackdiff_sort_funcs(st->func, st->nfunc, &st->diff.names);
	} else if (pv_stackdiff_nstacks(&st->diff) > 0) {
		if (pv_stackdiff_compute(&st->diff) < 0)
			pv_die("%s", pv_err_msg(&st->diff.err));
		f = st->diff.func;
		nf = st->diff.nfunc;
	}
	if (st->json.ncmp == 0 && st->verdicts.nv == 0 &&
	    st->verdicts.nsys == 0 && st->verdicts.ndet == 0 &&
	    st->json.ncp == 0 && st->json.scanned == 0 && nf == 0)
		pv_die("nothing to render as json: no cmp, verdict, "
		       "systematic, detect, changepoint, func or dstack "
		       "records (give it the output of pv-diff, pv-classify "
		       "or pv-series)");
	pv_render_json_write(&st->json, &st->verdicts, f, nf, &st->diff.names,
			     stdout);
}

/*
 * The differential flame graph of the dstack records (or diff-folded
 * lines), else the plain one of the stack records.
 */
static void
render_svg(struct render *st)
{
	struct pv_svg_opts o = st->opt->svg;
	const struct pv_flametree *t;

	if (st->ndtree > 0)
		t = &st->dtree;
	else if (st->ntree > 0)
		t = &st->tree;
	else
		pv_die("no stacks to draw");
	o.differential = t == &st->dtree;
	if (pv_svg_write(stdout, &o, &st->names, t) < 0)
		pv_die("a count does not fit in 64 bits");
}

static double
parse_px(const char *arg, const char *what)
{
	double v;

	if (pv_parse_double(arg, strlen(arg), &v) < 0 || v < 0) {
		pv_error("%s '%s' is not a number of pixels", what, arg);
		pv_usage_exit(usage, help, PV_EXIT_TROUBLE);
	}
	return v;
}

int
main(int argc, char **argv)
{
	enum {
		OPT_TOP = 256, OPT_COLOR, OPT_TITLE, OPT_WIDTH, OPT_MIN_WIDTH,
		OPT_FUNCTION, OPT_ARTIFACTS
	};
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "event", required_argument, NULL, 'e' },
		{ "normalize", no_argument, NULL, 'n' },
		{ "top", required_argument, NULL, OPT_TOP },
		{ "function", required_argument, NULL, OPT_FUNCTION },
		{ "color", required_argument, NULL, OPT_COLOR },
		{ "title", required_argument, NULL, OPT_TITLE },
		{ "width", required_argument, NULL, OPT_WIDTH },
		{ "min-width", required_argument, NULL, OPT_MIN_WIDTH },
		{ "artifacts", required_argument, NULL, OPT_ARTIFACTS },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	static const struct pv_stackdiff_opts asis = { .keep_suffixes = 1 };
	struct options opt;
	struct render st;
	size_t k;
	int c, i, verdicts, series;

	pv_diag_init(argv[0]);
	memset(&opt, 0, sizeof(opt));
	opt.top = 20;
	opt.svg.min_width = -1;
	while ((c = getopt_long(argc, argv, "f:e:nhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			for (k = 0; k < sizeof(format_name) /
			     sizeof(format_name[0]); k++) {
				if (strcmp(optarg, format_name[k]) == 0)
					break;
			}
			if (k == sizeof(format_name) / sizeof(format_name[0])) {
				pv_error("unknown format '%s'", optarg);
				pv_usage_exit(usage, help, PV_EXIT_TROUBLE);
			}
			opt.format = (enum format)k;
			break;
		case 'e':
			opt.event = optarg;
			break;
		case 'n':
			opt.normalize = 1;
			break;
		case OPT_TOP:
			if (pv_parse_u64(optarg, strlen(optarg), &opt.top) < 0) {
				pv_error("--top '%s' is not a whole number",
					 optarg);
				pv_usage_exit(usage, help, PV_EXIT_TROUBLE);
			}
			break;
		case OPT_COLOR:
			if (strcmp(optarg, "auto") == 0) {
				opt.color = COLOR_AUTO;
			} else if (strcmp(optarg, "always") == 0) {
				opt.color = COLOR_ALWAYS;
			} else if (strcmp(optarg, "never") == 0) {
				opt.color = COLOR_NEVER;
			} else {
				pv_error("--color '%s' is not auto, always or "
					 "never", optarg);
				pv_usage_exit(usage, help, PV_EXIT_TROUBLE);
			}
			break;
		case OPT_FUNCTION:
			opt.function = optarg;
			break;
		case OPT_TITLE:
			opt.svg.title = optarg;
			break;
		case OPT_WIDTH:
			opt.svg.width = parse_px(optarg, "--width");
			/* the margins take 20 (the library's 0 is its 1200) */
			if (opt.svg.width <= 20) {
				pv_error("--width '%s' leaves no room: more "
					 "than 20 pixels (the margins) are "
					 "needed", optarg);
				pv_usage_exit(usage, help, PV_EXIT_TROUBLE);
			}
			break;
		case OPT_MIN_WIDTH:
			opt.svg.min_width = parse_px(optarg, "--min-width");
			break;
		case OPT_ARTIFACTS:
			/* links from a report opened anywhere on this machine */
			free(opt.artifacts);
			opt.artifacts = realpath(optarg, NULL);
			if (opt.artifacts == NULL)
				pv_die_errno("cannot use '%s' as the artifacts' "
					     "directory", optarg);
			break;
		default:
			pv_opt_common(c, usage, help);
		}
	}

	memset(&st, 0, sizeof(st));
	st.opt = &opt;
	pv_symtab_init(&st.names);
	pv_stacktab_init(&st.stacks);
	pv_flametree_init(&st.tree);
	pv_flametree_init(&st.dtree);
	pv_dfold_init(&st.dfold);
	pv_stackdiff_init(&st.diff, &asis);
	pv_render_verdict_init(&st.verdicts);
	pv_render_json_init(&st.json);
	pv_render_series_init(&st.series);
	if (opt.format == FMT_HTML) {
		st.html = pv_html_new();
		pv_html_set_event(st.html, opt.event);
		pv_html_set_artifacts(st.html, opt.artifacts);
	}
	pv_opt_files(argc - optind, argv + optind);
	if (optind == argc)
		read_file(&st, "-");
	for (i = optind; i < argc; i++)
		read_file(&st, argv[i]);
	if (pv_stacktab_overflowed(&st.stacks))
		pv_die("a count does not fit in 64 bits");
	if (st.other_events)
		pv_warn("%lu stack records of other events (such as '%s') "
			"left out; choose one with --event",
			st.other_events, st.other_name);
	switch (opt.format) {
	case FMT_FOLDED:
		print_folded(&st);
		break;
	case FMT_DIFF_FOLDED:
		if (pv_dfold_count(&st.dfold) == 0)
			no_diff(&st);
		if (pv_render_diff_folded(stdout, &st.dfold,
					  opt.normalize) < 0)
			pv_die("a count does not fit in 64 bits");
		break;
	case FMT_TEXT:
		/* verdicts, change points, suspects, as the input holds */
		verdicts = st.verdicts.nv || st.verdicts.nsys || st.verdicts.ndet;
		series = pv_render_series_any(&st.series);
		if (verdicts)
			pv_render_verdict_text(&st.verdicts, stdout);
		if (series) {
			if (verdicts)
				putchar('\n');
			pv_render_series_text(&st.series, stdout);
		}
		if ((!verdicts && !series) || st.nfunc ||
		    pv_stackdiff_nstacks(&st.diff))
			render_text(&st);
		break;
	case FMT_JUNIT:
		/* an empty report would pass in CI: nothing compared */
		if (st.verdicts.nv == 0)
			pv_die("no verdict records to render as junit (give "
			       "it the output of pv-classify)");
		pv_render_verdict_junit(&st.verdicts, stdout);
		break;
	case FMT_JSON:
		render_json(&st);
		break;
	case FMT_SVG:
		render_svg(&st);
		break;
	case FMT_HTML:
		if (pv_html_write(st.html, stdout) < 0)
			pv_die("%s", pv_html_error(st.html));
		pv_html_free(st.html);
		break;
	}

	free(st.frames);
	free(st.event);
	free(st.other_name);
	free(st.func);
	free(st.row);
	free_comparisons(&st);
	pv_render_verdict_release(&st.verdicts);
	pv_render_json_release(&st.json);
	pv_render_series_release(&st.series);
	pv_stackdiff_release(&st.diff);
	pv_dfold_release(&st.dfold);
	pv_flametree_release(&st.dtree);
	pv_flametree_release(&st.tree);
	pv_stacktab_release(&st.stacks);
	pv_symtab_release(&st.names);
	free(opt.artifacts);
	pv_close_stdout();
	return PV_EXIT_OK;
}
