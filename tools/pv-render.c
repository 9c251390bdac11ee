/*
 * pv-render: print pv records for people and for other programs.
 *
 * --format=folded prints the stack records of its input as folded stacks,
 * "frame;frame;frame COUNT", one line per distinct stack, sorted byte-wise,
 * COUNT being the sum of the periods (the samples, where no period was
 * recorded): the input of flamegraph.pl and of inferno.  Stacks of every
 * section are added together; --event keeps one event's stacks.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "record.h"
#include "render_verdict.h"
#include "stacktab.h"
#include "symtab.h"
#include "xalloc.h"

static const char usage[] =
	"pv-render [--format=folded|text|junit] [--event=EVENT] [FILE ...]";

static const char help[] =
	"Print pv records (pv-format(5)) in another format.\n"
	"\n"
	"  -f, --format=FORMAT  folded: folded stacks, one line per stack\n"
	"                       text: the ranked summary of pv-classify's\n"
	"                       verdicts; junit: the verdicts as JUnit XML\n"
	"  -e, --event=EVENT    only the stacks of EVENT (default: the first\n"
	"                       event seen, with a warning if there are others)\n"
	"  -h, --help           print this help and exit\n"
	"  -V, --version        print the version and exit\n"
	"\n"
	"With no FILE, or when FILE is -, read standard input; gzip-compressed\n"
	"input is read transparently.\n"
	"\n"
	"Exit status: 0 on success, 2 on trouble.\n";

enum format {
	FMT_FOLDED,
	FMT_TEXT,		/* verdicts: render_verdict.c */
	FMT_JUNIT
};

struct options {
	enum format format;
	const char *event;	/* NULL: the first event seen */
};

struct render {
	const struct options *opt;
	struct pv_symtab names;
	struct pv_stacktab stacks;
	uint32_t *frames;
	size_t frames_alloc;
	int have_event;
	uint32_t event;		/* the event kept */
	unsigned long other_events;	/* stacks of other events, skipped */
	struct pv_str other;	/* the first other event, for the warning */
	char *other_name;
	struct pv_vreport verdicts;
};

static void
add_stack(struct render *st, const struct pv_record *rec)
{
	uint32_t ev;
	size_t i;

	if (st->opt->event != NULL) {
		if (!pv_str_eq(rec->event, st->opt->event))
			return;
	}
	ev = pv_symtab_intern(&st->names, rec->event.s, rec->event.len);
	if (!st->have_event) {
		st->have_event = 1;
		st->event = ev;
	} else if (ev != st->event) {
		if (st->other_events++ == 0)
			st->other_name = pv_xmemdup(rec->event.s,
						    rec->event.len);
		return;
	}
	PV_GROW(st->frames, rec->nframe, st->frames_alloc);
	for (i = 0; i < rec->nframe; i++)
		st->frames[i] = pv_symtab_intern(&st->names, rec->frame[i].s,
						 rec->frame[i].len);
	pv_stacktab_add(&st->stacks, ev, st->frames, rec->nframe,
			rec->samples, rec->period);
}

static void
read_file(struct render *st, const char *path)
{
	struct pv_reader *r = pv_reader_open(path);
	struct pv_record rec;
	int rc;

	if (r == NULL)
		pv_die_errno("cannot open '%s'", path);
	while ((rc = pv_reader_next(r, &rec)) > 0) {
		if (st->opt->format != FMT_FOLDED) {
			if (pv_vreport_add(&st->verdicts, &rec) < 0)
				pv_die_at(pv_reader_name(r),
					  pv_reader_lineno(r), "%s",
					  st->verdicts.err);
			continue;
		}
		if (rec.type != PV_REC_STACK)
			continue;
		if (rec.folded == 2)
			pv_die_at(pv_reader_name(r), pv_reader_lineno(r),
				  "a diff-folded line (two counts) where "
				  "stacks were expected");
		add_stack(st, &rec);
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

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "event", required_argument, NULL, 'e' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct options opt = { FMT_FOLDED, NULL };
	struct render st;
	int c, i;

	pv_diag_init(argv[0]);
	while ((c = getopt_long(argc, argv, "f:e:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (strcmp(optarg, "folded") == 0) {
				opt.format = FMT_FOLDED;
			} else if (strcmp(optarg, "text") == 0) {
				opt.format = FMT_TEXT;
			} else if (strcmp(optarg, "junit") == 0) {
				opt.format = FMT_JUNIT;
			} else {
				pv_error("unknown format '%s'", optarg);
				pv_usage_exit(usage, help, PV_EXIT_TROUBLE);
			}
			break;
		case 'e':
			opt.event = optarg;
			break;
		case 'h':
			pv_usage_exit(usage, help, PV_EXIT_OK);
		case 'V':
			pv_version_exit();
		default:
			pv_usage_exit(usage, help, PV_EXIT_TROUBLE);
		}
	}

	memset(&st, 0, sizeof(st));
	st.opt = &opt;
	pv_symtab_init(&st.names);
	pv_stacktab_init(&st.stacks);
	pv_vreport_init(&st.verdicts);
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
	if (opt.format == FMT_TEXT)
		pv_vreport_text(&st.verdicts, stdout);
	else if (opt.format == FMT_JUNIT)
		pv_vreport_junit(&st.verdicts, stdout);
	else
		print_folded(&st);
	pv_vreport_release(&st.verdicts);

	free(st.frames);
	free(st.other_name);
	pv_stacktab_release(&st.stacks);
	pv_symtab_release(&st.names);
	pv_close_stdout();
	return PV_EXIT_OK;
}
