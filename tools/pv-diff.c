/*
 * pv-diff: compare a baseline with a target.
 *
 * The inputs are two files (the baseline, then the target), or one stream
 * holding both as sections, paired by their roles (baseline, target) or
 * else by their order.  Stack records and folded stacks are compared by
 * the stackdiff module: per-event totals, the pairs of every distinct
 * stack, and per-function inclusive and exclusive shares, suspects first.
 * The context of both sides (section, meta, env and unknown records)
 * passes through ahead of the results, the baseline's first.  The exit
 * status says whether some function's share moved beyond --threshold.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "record.h"
#include "stackdiff.h"
#include "strbuf.h"
#include "xalloc.h"

static const char usage[] =
	"pv-diff [--raw] [--keep-suffixes] [--strip-hex] [--threshold=PP] "
	"BASE TARGET\n"
	"       pv-diff [--raw] [--keep-suffixes] [--strip-hex] "
	"[--threshold=PP] [FILE]";

static const char help[] =
	"Compare a baseline profile with a target (pv-format(5) stack records\n"
	"or folded stacks): per-function inclusive and exclusive shares and\n"
	"their changes, suspects first, and the stack pairs of a differential\n"
	"flame graph.\n"
	"\n"
	"  -r, --raw            compare counts as shares of the baseline's total\n"
	"                       (default: of each side's own total)\n"
	"  -k, --keep-suffixes  keep compiler suffixes (.isra.N, .constprop.N,\n"
	"                       .part.N, .cold, .llvm.N, .lto_priv.N)\n"
	"  -x, --strip-hex      write hex addresses 0x1f2e as 0x...\n"
	"  -t, --threshold=PP   a move of more than PP percentage points is a\n"
	"                       finding (default 1)\n"
	"  -h, --help           print this help and exit\n"
	"  -V, --version        print the version and exit\n"
	"\n"
	"With one FILE (or none, or -: standard input), it must hold two\n"
	"sections: by role baseline and target, else the first and the second.\n"
	"gzip-compressed input is read transparently.\n"
	"\n"
	"Exit status: 0 when no function's share moved by more than the\n"
	"threshold, 1 when one did, 2 on trouble.\n";

struct options {
	struct pv_stackdiff_opts sd;
	double threshold;
};

/* The context records of one side, as lines to write. */
struct side {
	struct pv_strbuf lines;
	int started;		/* some line added */
	int sectioned;		/* the first line is a section record */
	int seen;		/* a section, or stacks, were assigned here */
	char *version, *experiment;	/* the first given, or NULL */
};

struct diff {
	const struct options *opt;
	struct pv_stackdiff sd;
	struct side side[2];
	size_t nstack;
};

static const char *const role_name[2] = { "baseline", "target" };

static void
add_line(struct side *s, const char *line, size_t len, int section)
{
	if (!s->started)
		s->sectioned = section;
	s->started = 1;
	pv_strbuf_add(&s->lines, line, len);
	pv_strbuf_addch(&s->lines, '\n');
}

static char *
dup_opt(struct pv_str v)
{
	return v.len ? pv_xmemdup(v.s, v.len) : NULL;
}

/* A section record, written with the role of the side it was given. */
static void
add_section(struct diff *st, int side, const struct pv_record *rec,
	    struct pv_reader *r)
{
	struct side *s = &st->side[side];
	struct pv_strbuf sb = PV_STRBUF_INIT;

	if (pv_str_eq(rec->role, role_name[!side]))
		pv_warn_at(pv_reader_name(r), pv_reader_lineno(r),
			   "a %s section taken as the %s (the order of the "
			   "operands decides)", role_name[!side],
			   role_name[side]);

	pv_strbuf_addf(&sb, "section\t%s\t", role_name[side]);
	if (rec->version.len)
		pv_escape(&sb, rec->version.s, rec->version.len, 0);
	else
		pv_strbuf_addch(&sb, '-');
	pv_strbuf_addch(&sb, '\t');
	if (rec->experiment.len)
		pv_escape(&sb, rec->experiment.s, rec->experiment.len, 0);
	else
		pv_strbuf_addch(&sb, '-');
	add_line(s, sb.buf, sb.len, 1);
	pv_strbuf_release(&sb);
	if (s->version == NULL)
		s->version = dup_opt(rec->version);
	if (s->experiment == NULL)
		s->experiment = dup_opt(rec->experiment);
	s->seen = 1;
}

/*
 * Read one input.  fixed is the side of all its records, or -1 when the
 * input holds both sides as sections.
 */
static void
read_input(struct diff *st, const char *path, int fixed)
{
	struct pv_reader *r = pv_reader_open(path);
	struct pv_record rec;
	unsigned long nsec = 0;
	int rc, cur = fixed;

	if (r == NULL)
		pv_die_errno("cannot open '%s'", path);
	while ((rc = pv_reader_next(r, &rec)) > 0) {
		if (rec.type == PV_REC_VERSION)
			continue;
		if (rec.type == PV_REC_SECTION && fixed < 0) {
			nsec++;
			if (pv_str_eq(rec.role, "baseline"))
				cur = PV_SIDE_BASE;
			else if (pv_str_eq(rec.role, "target"))
				cur = PV_SIDE_TARGET;
			else if (nsec <= 2)
				cur = (int)nsec - 1;
			else
				pv_die_at(pv_reader_name(r),
					  pv_reader_lineno(r),
					  "a third section with no role "
					  "'baseline' or 'target'");
		} else if (cur < 0) {
			/* records before the first section: the first */
			nsec = 1;
			cur = PV_SIDE_BASE;
		}
		if (rec.type == PV_REC_SECTION) {
			add_section(st, cur, &rec, r);
			continue;
		}
		st->side[cur].seen = 1;
		if (rec.type != PV_REC_STACK) {
			add_line(&st->side[cur], rec.raw.s, rec.raw.len, 0);
			continue;
		}
		if (rec.folded == 2)
			pv_die_at(pv_reader_name(r), pv_reader_lineno(r),
				  "a diff-folded line (two counts) where "
				  "stacks were expected");
		pv_stackdiff_add(&st->sd, cur, rec.event, rec.frame,
				 rec.nframe, rec.samples, rec.period);
		st->nstack++;
	}
	if (rc < 0)
		pv_die_at(pv_reader_name(r), pv_reader_lineno(r), "%s",
			  pv_reader_error(r));
	if (fixed < 0 && !(st->side[0].seen && st->side[1].seen))
		pv_die("'%s' holds one profile: give a baseline and a "
		       "target, as two files or as two sections",
		       pv_reader_name(r));
	pv_reader_close(r);
}

static void
write_side(const struct side *s, int side)
{
	if (!s->sectioned)
		pv_write_section(stdout, role_name[side], NULL, NULL);
	fwrite(s->lines.buf, 1, s->lines.len, stdout);
}

static void
write_diff_section(const struct diff *st)
{
	const char *b = st->side[0].version, *t = st->side[1].version;
	const char *eb = st->side[0].experiment, *et = st->side[1].experiment;
	struct pv_strbuf v = PV_STRBUF_INIT;
	const char *exp;

	pv_strbuf_addf(&v, "%s..%s", b ? b : "-", t ? t : "-");
	if (eb == NULL || et == NULL)
		exp = eb ? eb : et;
	else if ((exp = strcmp(eb, et) == 0 ? eb : NULL) == NULL)
		pv_warn("the baseline's experiment '%s' is not the target's "
			"'%s': the profiles may not be comparable", eb, et);
	pv_write_section(stdout, "diff", v.buf, exp);
	pv_strbuf_release(&v);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "raw", no_argument, NULL, 'r' },
		{ "keep-suffixes", no_argument, NULL, 'k' },
		{ "strip-hex", no_argument, NULL, 'x' },
		{ "threshold", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct options opt;
	struct diff st;
	int c, i, found;

	pv_diag_init(argv[0]);
	memset(&opt, 0, sizeof(opt));
	opt.threshold = 1.0;
	while ((c = getopt_long(argc, argv, "rkxt:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'r':
			opt.sd.raw = 1;
			break;
		case 'k':
			opt.sd.keep_suffixes = 1;
			break;
		case 'x':
			opt.sd.strip_hex = 1;
			break;
		case 't':
			if (pv_parse_double(optarg, strlen(optarg),
					    &opt.threshold) < 0 ||
			    opt.threshold < 0) {
				pv_error("threshold '%s' is not a number of "
					 "percentage points, 0 or more",
					 optarg);
				pv_usage_exit(usage, help, PV_EXIT_TROUBLE);
			}
			break;
		case 'h':
			pv_usage_exit(usage, help, PV_EXIT_OK);
		case 'V':
			pv_version_exit();
		default:
			pv_usage_exit(usage, help, PV_EXIT_TROUBLE);
		}
	}
	if (argc - optind > 2) {
		pv_error("too many operands");
		pv_usage_exit(usage, help, PV_EXIT_TROUBLE);
	}

	memset(&st, 0, sizeof(st));
	st.opt = &opt;
	pv_stackdiff_init(&st.sd, &opt.sd);
	for (i = 0; i < 2; i++)
		pv_strbuf_init(&st.side[i].lines, 0);
	if (argc - optind == 2) {
		read_input(&st, argv[optind], PV_SIDE_BASE);
		read_input(&st, argv[optind + 1], PV_SIDE_TARGET);
	} else {
		read_input(&st, optind < argc ? argv[optind] : "-", -1);
	}
	if (st.nstack == 0)
		pv_die("no stacks to compare");
	if (pv_stackdiff_compute(&st.sd) < 0)
		pv_die("%s", st.sd.err);

	pv_write_version(stdout);
	for (i = 0; i < 2; i++)
		write_side(&st.side[i], i);
	write_diff_section(&st);
	pv_stackdiff_write(&st.sd, stdout);
	found = pv_stackdiff_moved(&st.sd, opt.threshold);

	for (i = 0; i < 2; i++) {
		pv_strbuf_release(&st.side[i].lines);
		free(st.side[i].version);
		free(st.side[i].experiment);
	}
	pv_stackdiff_release(&st.sd);
	pv_close_stdout();
	return found ? PV_EXIT_FOUND : PV_EXIT_OK;
}
