/*
 * pv-diff: compare a baseline with a target.
 *
 * Profiles (stack records or folded stacks): the inputs are two files (the
 * baseline, then the target), or one stream holding both as sections,
 * paired by --baseline and --target (the versions), else by their roles
 * (baseline, target), else by their order.  The
 * stackdiff module gives per-event totals, the pairs of every distinct
 * stack, and per-function inclusive and exclusive shares, suspects first.
 * The context of both sides (section, meta, env and unknown records)
 * passes through ahead of the results, the baseline's first.  The exit
 * status says whether some function's share moved beyond --threshold.
 *
 * Benchmark samples (sample and runval records): the sides are chosen the
 * same way (lib/sampdiff.h), each baseline set of sections is paired with
 * each target set of the same experiment, and nothing to pair is trouble;
 * pairs measured
 * under different conditions (meta and env records differ, apart from the
 * keys that name the version under test) are refused; every key gets a cmp
 * record: the change on the log scale, oriented so that worse is negative,
 * Welch and bootstrap intervals, Welch's and Mann-Whitney's p-values,
 * Hedges' g, Cliff's delta and stability flags (lib/sampdiff.c pairs the
 * sections, lib/cmp.c compares).  The input passes through unchanged, but
 * for the RUN of samples that a later stream repeats for the same key,
 * numbered on (lib/runtab.h), with a warning.
 *
 * The mode is told by the first stack, sample or runval record of the
 * input (no other record chooses it); standard input is first copied to
 * a temporary file so that it can be looked at and then read.  A stream
 * that starts with samples and holds stacks too (pv-collect --profile) is
 * compared both ways: the cmp records, then the profile comparison of each
 * experiment and level (struct pgroups), unless --samples or --profiles
 * says which.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "diag.h"
#include "field.h"
#include "opt.h"
#include "input.h"
#include "kvset.h"
#include "rec_profile.h"
#include "rec_sample.h"
#include "rec_section.h"
#include "record.h"
#include "sampdiff.h"
#include "stackdiff.h"
#include "strbuf.h"
#include "subsys.h"
#include "xalloc.h"

static const char usage[] =
	"pv-diff [--raw] [--keep-suffixes] [--strip-hex] [--threshold=PP] "
	"BASE TARGET\n"
	"       pv-diff [--raw] [--keep-suffixes] [--strip-hex] "
	"[--threshold=PP] [FILE]\n"
	"       pv-diff [-c LEVEL] [-b COUNT] [-i KEY] [-j JOBS] [-n RUNS] "
	"[--cv-max=CV] [FILE ...]\n"
	"       pv-diff --profiles | --samples [OPTION ...] [FILE ...]\n"
	"       pv-diff --baseline=VERSION | --target=VERSION [OPTION ...] "
	"[FILE ...]";

static const char help[] =
	"Compare a baseline with a target (pv-format(5)).\n"
	"\n"
	"Profiles (stack records or folded stacks): per-function inclusive and\n"
	"exclusive shares and their changes, suspects first, and the stack pairs\n"
	"of a differential flame graph.\n"
	"  -r, --raw            compare counts as shares of the baseline's total\n"
	"                       (default: of each side's own total)\n"
	"  -k, --keep-suffixes  keep compiler suffixes (.isra.N, .constprop.N,\n"
	"                       .part.N, .cold, .llvm.N, .lto_priv.N)\n"
	"  -x, --strip-hex      write hex addresses 0x1f2e as 0x...\n"
	"  -t, --threshold=PP   a move of more than PP percentage points is a\n"
	"                       finding (default 1)\n"
	"      --no-groups      no group records (space, module, file and\n"
	"                       subsystem roll-ups of the frame records)\n"
	"      --maintainers=FILE\n"
	"                       subsystems of source files from the Linux\n"
	"                       MAINTAINERS file FILE (its F:, X:, N: patterns)\n"
	"      --subsystems=FILE\n"
	"                       subsystems from lines PREFIX<TAB>NAME\n"
	"      --function=NAME  path records: the call paths of function NAME\n"
	"      --keep-roots     do not take two root frames, one on each side,\n"
	"                       for one process (the same program renamed)\n"
	"With one FILE (or none, or -: standard input), it must hold two\n"
	"sides: by version (--baseline, --target), else by role baseline and\n"
	"target, else the first section and the second.\n"
	"\n"
	"Benchmark samples (sample, runval records): a cmp record per key.\n"
	"  -c, --confidence=LEVEL   level of the intervals (default 0.95)\n"
	"  -b, --bootstrap=COUNT    bootstrap resamples (default 1000; 0: none)\n"
	"  -i, --ignore-key=KEY     a meta or env KEY that may differ between\n"
	"                           baseline and target (repeatable; 'env.KEY',\n"
	"                           'meta.KEY', 'PREFIX*')\n"
	"  -j, --jobs=JOBS          threads computing the comparisons (default:\n"
	"                           one per CPU online); given above 1, two\n"
	"                           profiles are also read at once\n"
	"  -n, --min-runs=RUNS      flag fewer runs per side (default 3)\n"
	"      --cv-max=CV          flag a robust CV above CV (default 0.10)\n"
	"\n"
	"      --baseline=VERSION\n"
	"                       the sections of VERSION are the baseline\n"
	"      --target=VERSION the sections of VERSION are the target (given\n"
	"                       one, the other side is every other version)\n"
	"  -p, --profiles       compare profiles, whatever the input starts with\n"
	"  -s, --samples        compare samples, whatever the input starts with\n"
	"A stream of samples that holds stacks too is compared both ways: the\n"
	"cmp records, then a profile comparison per experiment and level.\n"
	"  -h, --help           print this help and exit\n"
	"  -V, --version        print the version and exit\n"
	"\n"
	"gzip-compressed input is read transparently.\n"
	"\n"
	"Exit status: 0 when nothing moved (no function beyond the threshold; no\n"
	"interval that excludes no change), 1 when something did, 2 on trouble\n"
	"(including sample sections that are not comparable, and nothing to\n"
	"compare: no baseline and target of one experiment).\n";

struct options {
	struct pv_stackdiff_opts sd;
	struct pv_subsys subsys;	/* --maintainers, --subsystems */
	double threshold;
	struct pv_cmp_opts cmp;
	const char **ignore;
	size_t nignore;
	const char *base_version, *target_version;	/* NULL: by role */
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
	int found_version[2];	/* a section of --baseline, --target */
	/*
	 * The reader thread's (read_ahead()): it says nothing and exits
	 * nowhere, but stops at the first error or warning, stopped set,
	 * and the main thread reads the input again the usual way.
	 */
	int worker, stopped;
};

/* In the reader thread: stop instead of saying anything (struct diff). */
static int
stop(struct diff *st)
{
	if (st->worker)
		st->stopped = 1;
	return st->worker;
}

static const char *const role_name[2] = { "baseline", "target" };

/* Lines of the side, with their newlines; section: a section record. */
static void
add_text(struct side *s, const char *text, size_t len, int section)
{
	if (!s->started)
		s->sectioned = section;
	s->started = 1;
	pv_strbuf_add(&s->lines, text, len);
}

/* A record of the side as read (without its newline). */
static void
add_line(struct side *s, const char *line, size_t len)
{
	add_text(s, line, len, 0);
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
	struct pv_str role = { role_name[side], strlen(role_name[side]) };

	/* (--baseline and --target say which, whatever the roles) */
	if (pv_str_eq(rec->role, role_name[!side]) &&
	    st->opt->base_version == NULL && st->opt->target_version == NULL &&
	    !stop(st))
		pv_warn_at(pv_reader_name(r), pv_reader_lineno(r),
			   "a %s section taken as the %s (the order of the "
			   "operands decides)", role_name[!side],
			   role_name[side]);

	pv_rec_section_write(&sb, role, rec->version, rec->experiment);
	add_text(s, sb.buf, sb.len, 1);
	pv_strbuf_release(&sb);
	if (s->version == NULL)
		s->version = dup_opt(rec->version);
	if (s->experiment == NULL)
		s->experiment = dup_opt(rec->experiment);
	s->seen = 1;
}

/*
 * Standard input, once its mode is known: read once, from its start again
 * (pv_reader_rewind()), by the mode that reads it.
 */
static struct pv_reader *stdin_reader;

/*
 * The reader in use, held here too: an error exits with it open, and a
 * leak checker must still find it.
 */
static struct pv_reader *in_use;

/* A reader on path; standard input's the first time is the one kept. */
static struct pv_reader *
open_input(const char *path)
{
	if (strcmp(path, "-") == 0 && stdin_reader != NULL) {
		in_use = stdin_reader;
		stdin_reader = NULL;
	} else {
		in_use = pv_reader_open(path);
	}
	return in_use;
}

/*
 * Read one input.  fixed is the side of all its records, or -1 when the
 * input holds both sides as sections.
 */
static void
read_input(struct diff *st, const char *path, int fixed)
{
	struct pv_reader *r = st->worker ? pv_reader_open(path) :
		open_input(path);
	const char *b = st->opt->base_version, *t = st->opt->target_version;
	struct pv_record rec;
	unsigned long nsec = 0;
	int rc = 0, cur = fixed;

	if (r == NULL && stop(st))
		return;
	if (r == NULL)
		pv_die_errno("cannot open '%s'", path);
	while (!st->stopped && (rc = pv_reader_next(r, &rec)) > 0) {
		if (rec.type == PV_REC_VERSION)
			continue;
		if (rec.type == PV_REC_SECTION && fixed < 0 &&
		    (b != NULL || t != NULL)) {
			nsec++;
			if (b != NULL && pv_str_eq(rec.version, b))
				cur = PV_SIDE_BASE;
			else if (t != NULL && pv_str_eq(rec.version, t))
				cur = PV_SIDE_TARGET;
			else if (b == NULL || t == NULL)
				cur = b == NULL ? PV_SIDE_BASE :
					PV_SIDE_TARGET;
			else
				pv_die_at(pv_reader_name(r),
					  pv_reader_lineno(r), "a section of "
					  "version '%.*s', neither the "
					  "--baseline nor the --target",
					  (int)rec.version.len,
					  rec.version.s);
			st->found_version[0] |= b != NULL &&
				pv_str_eq(rec.version, b);
			st->found_version[1] |= t != NULL &&
				pv_str_eq(rec.version, t);
		} else if (rec.type == PV_REC_SECTION && fixed < 0) {
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
		if (st->opt->sd.groups && rec.type == PV_REC_OTHER &&
		    pv_str_eq(rec.field[0], "frame")) {
			/* written again, with the groups of the frame */
			struct pv_rec_frame f;
			struct pv_err e = PV_ERR_INIT;

			if (pv_rec_frame_parse(&rec, &f, &e) < 0) {
				if (stop(st))
					break;
				pv_die_at(pv_reader_name(r),
					  pv_reader_lineno(r), "%s",
					  pv_err_msg(&e));
			}
			pv_stackdiff_add_frame(&st->sd, cur, &f);
			continue;
		}
		if (rec.type != PV_REC_STACK) {
			add_line(&st->side[cur], rec.raw.s, rec.raw.len);
			continue;
		}
		if (rec.folded == 2 && stop(st))
			break;
		if (rec.folded == 2)
			pv_die_at(pv_reader_name(r), pv_reader_lineno(r),
				  "a diff-folded line (two counts) where "
				  "stacks were expected");
		if (pv_stackdiff_add(&st->sd, cur, rec.event, rec.frame,
				     rec.nframe, rec.samples, rec.period) < 0) {
			if (stop(st))
				break;
			pv_die_at(pv_reader_name(r), pv_reader_lineno(r),
				  "%s", pv_err_msg(&st->sd.err));
		}
		st->nstack++;
	}
	if (st->worker) {
		/* (the checks below are of one input holding both sides) */
		if (rc < 0)
			st->stopped = 1;
		pv_reader_close(r);
		return;
	}
	if (rc < 0)
		pv_die_at(pv_reader_name(r), pv_reader_lineno(r), "%s",
			  pv_reader_error(r));
	if (b != NULL && !st->found_version[0])
		pv_die("'%s' holds no section of version '%s' to take as the "
		       "baseline", pv_reader_name(r), b);
	if (t != NULL && !st->found_version[1])
		pv_die("'%s' holds no section of version '%s' to take as the "
		       "target", pv_reader_name(r), t);
	/* (nothing at all is said after the reading, by run_stacks()) */
	if (fixed < 0 && st->nstack > 0 &&
	    !(st->side[0].seen && st->side[1].seen))
		pv_die("'%s' holds one profile: give a baseline and a "
		       "target, as two files or as two sections",
		       pv_reader_name(r));
	pv_reader_close(r);
	in_use = NULL;
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

/*
 * Room for the distinct stacks, guessed from the sizes of the inputs that
 * are plain files: at most a stack a line, and a folded line seldom
 * shorter than STACK_BYTES.  Room not used is never touched, so that a
 * guess too large costs address space only; one too small, the moves of
 * the tables as they grow.
 */
#define STACK_BYTES 64
#define STACK_GUESS_MAX (1u << 22)

static size_t
guess_stacks(char **operand, int n)
{
	uint64_t size, total = 0;
	int i;

	for (i = 0; i < n; i++)
		if (pv_input_plain_size(operand[i], &size) == 0)
			total += size / STACK_BYTES;
	return total < STACK_GUESS_MAX ? (size_t)total : STACK_GUESS_MAX;
}

/*
 * Two inputs at once: the target read in a thread of its own, into a
 * stackdiff of its own, while the main thread reads the baseline; then
 * merged (pv_stackdiff_merge()), which gives what reading the two in turn
 * gives, byte for byte.  Where the thread stopped (an error, a warning, or
 * a tree that might not hold both), the target is read again after the
 * baseline, the usual way, which says what is wrong as ever: an error of
 * the baseline is still found first, one of the target at its line.  Only
 * for two regular files, so that no input is standard input, a pipe or
 * one FIFO read twice at once, and only when --jobs asks for more than
 * one thread and more than one CPU is online: the thread buys little time
 * (the two tables are built apart, then merged) for a quarter more CPU,
 * spent on the second table's pages, so by default the two are read in
 * turn, which suits a night of many pv-diff processes at once.
 */
struct ahead {
	struct diff st;
	const char *path;
	pthread_t thread;
};

/* The thread's, while it runs: a leak checker at an exit must find it. */
static struct ahead *reading_ahead;

static void *
read_ahead(void *arg)
{
	struct ahead *a = arg;

	read_input(&a->st, a->path, PV_SIDE_TARGET);
	return NULL;
}

static int
regular_file(const char *path)
{
	struct stat sb;

	return strcmp(path, "-") != 0 && stat(path, &sb) == 0 &&
	       S_ISREG(sb.st_mode);
}

static int
two_at_once(const struct options *opt, char **operand)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	return opt->cmp.jobs > 1 && ncpu > 1 && regular_file(operand[0]) &&
	       regular_file(operand[1]);
}

static void
read_two(struct diff *st, char **operand)
{
	struct ahead *a = pv_xcalloc(1, sizeof(*a));
	int i, started;

	a->st.opt = st->opt;
	a->st.worker = 1;
	a->path = operand[1];
	pv_stackdiff_init(&a->st.sd, &st->opt->sd);
	pv_stackdiff_collect(&a->st.sd, PV_SIDE_TARGET);
	pv_stackdiff_reserve(&a->st.sd, guess_stacks(operand + 1, 1));
	for (i = 0; i < 2; i++)
		pv_strbuf_init(&a->st.side[i].lines, 0);
	reading_ahead = a;
	started = pthread_create(&a->thread, NULL, read_ahead, a) == 0;
	read_input(st, operand[0], PV_SIDE_BASE);
	if (started)
		pthread_join(a->thread, NULL);
	if (started && !a->st.stopped &&
	    pv_stackdiff_merge(&st->sd, &a->st.sd) == 0) {
		struct side tmp = st->side[PV_SIDE_TARGET];

		st->side[PV_SIDE_TARGET] = a->st.side[PV_SIDE_TARGET];
		a->st.side[PV_SIDE_TARGET] = tmp;
		st->nstack += a->st.nstack;
	} else {
		read_input(st, operand[1], PV_SIDE_TARGET);
	}
	for (i = 0; i < 2; i++) {
		pv_strbuf_release(&a->st.side[i].lines);
		free(a->st.side[i].version);
		free(a->st.side[i].experiment);
	}
	pv_stackdiff_release(&a->st.sd);
	reading_ahead = NULL;
	free(a);
}

/* Profiles: stackdiff over one or two inputs. */
static int
run_stacks(const struct options *opt, char **operand, int n)
{
	struct diff st;
	size_t k;
	int i, found;

	if (n > 2) {
		pv_error("too many operands for profiles");
		pv_usage_exit(usage, help, PV_EXIT_TROUBLE);
	}
	memset(&st, 0, sizeof(st));
	st.opt = opt;
	pv_stackdiff_init(&st.sd, &opt->sd);
	pv_stackdiff_reserve(&st.sd, guess_stacks(operand, n));
	for (i = 0; i < 2; i++)
		pv_strbuf_init(&st.side[i].lines, 0);
	if (n == 2 && (opt->base_version || opt->target_version)) {
		pv_error("--baseline and --target choose the sections of one "
			 "input; of two, the first is the baseline");
		pv_usage_exit(usage, help, PV_EXIT_TROUBLE);
	}
	if (n == 2 && two_at_once(opt, operand)) {
		read_two(&st, operand);
	} else if (n == 2) {
		read_input(&st, operand[0], PV_SIDE_BASE);
		read_input(&st, operand[1], PV_SIDE_TARGET);
	} else {
		read_input(&st, n == 1 ? operand[0] : "-", -1);
	}
	if (st.nstack == 0)
		pv_die("no stack or sample records to compare");
	/*
	 * The stacks go out before the functions are counted, so that a
	 * reader down the pipe starts on them meanwhile; what can fail
	 * comes first, before any output.
	 */
	if (pv_stackdiff_compute_stacks(&st.sd) < 0)
		pv_die("%s", pv_err_msg(&st.sd.err));
	for (k = 0; k < st.sd.nrootmerge; k++) {
		struct pv_str b = pv_symtab_get(&st.sd.names,
						st.sd.rootmerge[k].name[0]);
		struct pv_str t = pv_symtab_get(&st.sd.names,
						st.sd.rootmerge[k].name[1]);

		pv_warn("the baseline's root frame '%.*s' and the target's "
			"'%.*s' compared as one (--keep-roots keeps them "
			"apart)", (int)b.len, b.s, (int)t.len, t.s);
	}
	pv_write_version(stdout);
	for (i = 0; i < 2; i++)
		write_side(&st.side[i], i);
	write_diff_section(&st);
	pv_stackdiff_write_stacks(&st.sd, stdout);
	if (pv_stackdiff_compute_funcs(&st.sd) < 0)
		pv_die("%s", pv_err_msg(&st.sd.err));
	if (opt->sd.function != NULL && !st.sd.function_found)
		pv_warn("no stack holds the function '%s': no path records",
			opt->sd.function);
	pv_stackdiff_write_funcs(&st.sd, stdout);
	found = pv_stackdiff_moved(&st.sd, opt->threshold);

	for (i = 0; i < 2; i++) {
		pv_strbuf_release(&st.side[i].lines);
		free(st.side[i].version);
		free(st.side[i].experiment);
	}
	pv_stackdiff_release(&st.sd);
	return found ? PV_EXIT_FOUND : PV_EXIT_OK;
}

/* Where each stream began (index: its number; 0, before a pv-format). */
struct stream {
	char *name;
	unsigned long line;
};

static struct stream *streams;
static size_t nstreams, streams_alloc;

static void
stream_at(const char *name, unsigned long line)
{
	PV_GROW(streams, nstreams + 1, streams_alloc);
	streams[nstreams].name = pv_xstrdup(name);
	streams[nstreams].line = line;
	nstreams++;
}

/* A RUN that an earlier stream gave the same key: said once a stream. */
static void
warn_clash(struct pv_runtab *t, struct pv_reader *r)
{
	struct pv_runtab_clash c;
	struct pv_strbuf sb = PV_STRBUF_INIT;

	if (!pv_runtab_clash(t, &c))
		return;
	pv_runtab_clash_describe(&c, &sb);
	pv_warn_at(pv_reader_name(r), pv_reader_lineno(r), "the stream at "
		   "%s:%lu repeats RUN numbers of the stream at %s:%lu for the "
		   "same keys: its runs are numbered on, not merged (%s)",
		   streams[c.stream].name, streams[c.stream].line,
		   streams[c.earlier].name, streams[c.earlier].line, sb.buf);
	pv_strbuf_release(&sb);
}

/*
 * The profiles of a stream of samples (pv-collect --profile writes both):
 * the stack records of each experiment and level, compared on their own
 * and written after the cmp records, each comparison in a diff section.
 */
struct pgroup {
	char *experiment;	/* NULL: none */
	uint64_t level;		/* its sections' meta level, or PV_NONE */
	char *version[2];	/* of each side, once it has stacks */
	int seen[2];
	struct pv_stackdiff sd;
};

struct pgroups {
	int on;			/* stacks are compared, not passed on */
	struct pgroup *g;
	size_t n, alloc;
	/* the section being read */
	char *experiment, *version;
	int role;		/* PV_SIDE_BASE, PV_SIDE_TARGET, or -1 */
	uint64_t level;
};

static int
opt_eq(const char *a, const char *b)
{
	return a == NULL ? b == NULL : b != NULL && strcmp(a, b) == 0;
}

static void
pgroups_section(struct pgroups *pg, const struct pv_record *rec)
{
	free(pg->experiment);
	free(pg->version);
	pg->experiment = dup_opt(rec->experiment);
	pg->version = dup_opt(rec->version);
	pg->role = pv_str_eq(rec->role, "baseline") ? PV_SIDE_BASE :
		pv_str_eq(rec->role, "target") ? PV_SIDE_TARGET : -1;
	pg->level = PV_NONE;
}

/* "experiment 'E' level L", for messages */
static void
pgroup_name(struct pv_strbuf *sb, const struct pgroup *g)
{
	pv_strbuf_addf(sb, "experiment '%s'", g->experiment ? g->experiment :
		       "-");
	if (g->level != PV_NONE)
		pv_strbuf_addf(sb, " level %llu",
			       (unsigned long long)g->level);
}

/*
 * The group and side of a stack or frame record of the section being read,
 * or NULL when --baseline and --target leave its version out.
 */
static struct pgroup *
pgroup_of(struct pgroups *pg, const struct options *opt,
	  struct pv_reader *r, int *side)
{
	const char *b = opt->base_version, *t = opt->target_version;
	const char *v = pg->version;
	struct pv_strbuf sb = PV_STRBUF_INIT;
	struct pgroup *g;
	size_t i;
	int s;

	if (b != NULL || t != NULL) {
		if (opt_eq(v, b))
			s = PV_SIDE_BASE;
		else if (opt_eq(v, t))
			s = PV_SIDE_TARGET;
		else if (b == NULL || t == NULL)
			s = b == NULL ? PV_SIDE_BASE : PV_SIDE_TARGET;
		else
			return NULL;
	} else {
		s = pg->role;
	}
	for (i = 0; i < pg->n; i++)
		if (opt_eq(pg->g[i].experiment, pg->experiment) &&
		    pg->g[i].level == pg->level)
			break;
	if (i == pg->n) {
		PV_GROW(pg->g, pg->n + 1, pg->alloc);
		g = &pg->g[pg->n++];
		memset(g, 0, sizeof(*g));
		g->experiment = pg->experiment ? pv_xstrdup(pg->experiment) :
			NULL;
		g->level = pg->level;
		pv_stackdiff_init(&g->sd, &opt->sd);
	}
	g = &pg->g[i];
	if (s < 0)	/* no role: the first version, then the second */
		s = !g->seen[0] || opt_eq(g->version[0], v) ? PV_SIDE_BASE :
			!g->seen[1] || opt_eq(g->version[1], v) ?
			PV_SIDE_TARGET : -1;
	if (s < 0 || (g->seen[s] && !opt_eq(g->version[s], v))) {
		pgroup_name(&sb, g);
		pv_die_at(pv_reader_name(r), pv_reader_lineno(r),
			  "stacks of a version '%s' for %s, which has "
			  "stacks of '%s' and '%s' already: name the sides "
			  "with --baseline and --target, or compare the "
			  "profiles with pv-diff --profiles on their own",
			  v ? v : "-", sb.buf,
			  g->version[0] ? g->version[0] : "-",
			  s < 0 ? (g->version[1] ? g->version[1] : "-") :
			  g->version[!s] ? g->version[!s] : "-");
	}
	if (!g->seen[s]) {
		g->seen[s] = 1;
		g->version[s] = v ? pv_xstrdup(v) : NULL;
	}
	*side = s;
	return g;
}

/*
 * A record for the profiles: 1 when it was taken (a stack, or a frame
 * record with groups), 0 when it goes on down the pipe.
 */
static int
pgroups_add(struct pgroups *pg, const struct options *opt,
	    struct pv_reader *r, const struct pv_record *rec)
{
	struct pgroup *g;
	uint64_t level;
	int side, frame;

	if (rec->type == PV_REC_SECTION)
		pgroups_section(pg, rec);
	if (rec->type == PV_REC_META && pv_str_eq(rec->key, "level") &&
	    pv_field_get_u64(rec->value, &level) == 0)
		pg->level = level;
	frame = opt->sd.groups && rec->type == PV_REC_OTHER &&
		pv_str_eq(rec->field[0], "frame");
	if (!pg->on || (rec->type != PV_REC_STACK && !frame))
		return 0;
	if ((g = pgroup_of(pg, opt, r, &side)) == NULL)
		return 0;
	if (frame) {
		struct pv_rec_frame f;
		struct pv_err e = PV_ERR_INIT;

		if (pv_rec_frame_parse(rec, &f, &e) < 0)
			pv_die_at(pv_reader_name(r), pv_reader_lineno(r),
				  "%s", pv_err_msg(&e));
		pv_stackdiff_add_frame(&g->sd, side, &f);
		return 1;
	}
	if (rec->folded == 2)
		pv_die_at(pv_reader_name(r), pv_reader_lineno(r),
			  "a diff-folded line (two counts) where stacks were "
			  "expected");
	if (pv_stackdiff_add(&g->sd, side, rec->event, rec->frame,
			     rec->nframe, rec->samples, rec->period) < 0)
		pv_die_at(pv_reader_name(r), pv_reader_lineno(r), "%s",
			  pv_err_msg(&g->sd.err));
	return 1;
}

static void
warn_rootmerge(const struct pv_stackdiff *sd, const char *where)
{
	size_t k;

	for (k = 0; k < sd->nrootmerge; k++) {
		struct pv_str b = pv_symtab_get(&sd->names,
						sd->rootmerge[k].name[0]);
		struct pv_str t = pv_symtab_get(&sd->names,
						sd->rootmerge[k].name[1]);

		pv_warn("%sthe baseline's root frame '%.*s' and the target's "
			"'%.*s' compared as one (--keep-roots keeps them "
			"apart)", where, (int)b.len, b.s, (int)t.len, t.s);
	}
}

/*
 * The profile comparison of each group with stacks on both sides, in the
 * order of their first stacks: how many moved beyond the threshold; how
 * many were compared in *ncompared.
 */
static size_t
pgroups_finish(struct pgroups *pg, const struct options *opt,
	       size_t *ncompared)
{
	struct pv_strbuf name = PV_STRBUF_INIT, sb = PV_STRBUF_INIT;
	size_t i, moved = 0, compared = 0;
	char buf[32];

	for (i = 0; i < pg->n; i++) {
		struct pgroup *g = &pg->g[i];

		pv_strbuf_reset(&name);
		pgroup_name(&name, g);
		if (!g->seen[0] || !g->seen[1]) {
			pv_warn("the stacks of %s have no %s side: no profile "
				"comparison of it", name.buf, g->seen[0] ?
				"target" : "baseline");
			continue;
		}
		if (pv_stackdiff_compute(&g->sd) < 0)
			pv_die("%s: %s", name.buf, pv_err_msg(&g->sd.err));
		pv_strbuf_addstr(&name, ": ");
		warn_rootmerge(&g->sd, name.buf);
		if (opt->sd.function != NULL && !g->sd.function_found)
			pv_warn("%sno stack holds the function '%s': no path "
				"records", name.buf, opt->sd.function);
		pv_strbuf_reset(&sb);
		pv_strbuf_addf(&sb, "%s..%s", g->version[0] ? g->version[0] :
			       "-", g->version[1] ? g->version[1] : "-");
		pv_write_section(stdout, "diff", sb.buf, g->experiment);
		if (g->level != PV_NONE) {
			struct pv_str key = { "level", 5 }, value;

			value.len = (size_t)snprintf(buf, sizeof(buf), "%llu",
					     (unsigned long long)g->level);
			value.s = buf;
			pv_strbuf_reset(&sb);
			pv_rec_meta_write(&sb, key, value);
			fwrite(sb.buf, 1, sb.len, stdout);
		}
		pv_stackdiff_write(&g->sd, stdout);
		moved += pv_stackdiff_moved(&g->sd, opt->threshold) != 0;
		compared++;
	}
	pv_strbuf_release(&name);
	pv_strbuf_release(&sb);
	*ncompared = compared;
	return moved;
}

static void
pgroups_release(struct pgroups *pg)
{
	size_t i;

	for (i = 0; i < pg->n; i++) {
		pv_stackdiff_release(&pg->g[i].sd);
		free(pg->g[i].experiment);
		free(pg->g[i].version[0]);
		free(pg->g[i].version[1]);
	}
	free(pg->g);
	free(pg->experiment);
	free(pg->version);
}

static void
samples_read(struct pv_sampdiff *d, struct pgroups *pg,
	     const struct options *opt, const char *path)
{
	/* what sampdiff reads; the rest is passed on unchecked */
	static const char *const used[] = {
		"meta", "env", "sample", "runval", "runstart", "primary", NULL
	};
	static const char *const used_stacks[] = {
		"meta", "env", "sample", "runval", "runstart", "primary",
		"stack", "frame", NULL
	};
	struct pv_reader *r = open_input(path);
	struct pv_strbuf sb = PV_STRBUF_INIT;
	struct pv_record rec;
	int rc, use;

	if (r == NULL)
		pv_die_errno("cannot open '%s'", path);
	pv_reader_use(r, pg->on ? used_stacks : used);
	if (nstreams == 0)
		stream_at(pv_reader_name(r), 1);
	while ((rc = pv_reader_next(r, &rec)) > 0) {
		if (rec.type == PV_REC_VERSION)
			stream_at(pv_reader_name(r), pv_reader_lineno(r));
		if (pgroups_add(pg, opt, r, &rec))
			continue;
		if (d == NULL) {
			if (rec.type != PV_REC_VERSION)
				pv_write_raw(stdout, &rec);
			continue;
		}
		if ((use = pv_sampdiff_add(d, &rec)) < 0)
			pv_die_at(pv_reader_name(r), pv_reader_lineno(r),
				  "%s", pv_err_msg(&d->err));
		if (rec.type == PV_REC_SAMPLE) {
			warn_clash(&d->samples, r);
			/* a run numbered on goes down the pipe as such */
			if (d->samples.last_run != rec.run) {
				struct pv_record c = rec;

				c.run = d->samples.last_run;
				pv_strbuf_reset(&sb);
				pv_rec_sample_write(&sb, &c);
				fwrite(sb.buf, 1, sb.len, stdout);
				continue;
			}
		}
		if (use)
			pv_write_raw(stdout, &rec);
	}
	pv_strbuf_release(&sb);
	if (rc < 0)
		pv_die_at(pv_reader_name(r), pv_reader_lineno(r), "%s",
			  pv_reader_error(r));
	pv_reader_close(r);
	in_use = NULL;
}

/*
 * Samples: sampdiff over the concatenation of the inputs.  what: 1 samples
 * only, 2 profiles only (of a stream that starts with samples), 3 both.
 */
static int
run_samples(const struct options *opt, char **operand, int n, int what)
{
	struct pv_sampdiff d, *dp = what & 1 ? &d : NULL;
	struct pgroups pg;
	size_t ncompared;
	long found = 0;
	int k;

	memset(&pg, 0, sizeof(pg));
	pg.on = (what & 2) != 0;
	pg.role = -1;
	pg.level = PV_NONE;
	if (dp != NULL) {
		pv_sampdiff_init(&d, &opt->cmp);
		d.base_version = opt->base_version;
		d.target_version = opt->target_version;
	} else {
		pv_write_version(stdout);
	}
	if (n == 0)
		samples_read(dp, &pg, opt, "-");
	for (k = 0; k < n; k++)
		samples_read(dp, &pg, opt, operand[k]);
	if (dp != NULL) {
		found = pv_sampdiff_finish(&d, stdout, opt->ignore,
					   opt->nignore);
		if (found < 0)
			pv_die("%s", pv_err_msg(&d.err));
		pv_sampdiff_release(&d);
	} else if (pg.n == 0) {
		pv_die("no stack records to compare");
	}
	found += (long)pgroups_finish(&pg, opt, &ncompared);
	if (dp == NULL && ncompared == 0)
		pv_die("no experiment and level has stacks of both sides to "
		       "compare");
	pgroups_release(&pg);
	for (k = 0; k < (int)nstreams; k++)
		free(streams[k].name);
	free(streams);
	return found > 0 ? PV_EXIT_FOUND : PV_EXIT_OK;
}

/*
 * The mode of an input: 1 for profiles (its first stack, sample or runval
 * record is a stack or a folded stack), 0 for samples, -1 when it has
 * none: an extension record (runstart, primary, a type of tomorrow) never
 * chooses.
 * Standard input is not read twice: its reader goes back to the start and
 * is kept for the real read (and, after an error, reports it there).
 */
static int
mode_of(const char *path)
{
	struct pv_reader *r = pv_reader_open(path);
	struct pv_record rec;
	int rc = 1, mode = -1;

	if (r == NULL)
		pv_die_errno("cannot open '%s'", path);
	while (mode < 0 && (rc = pv_reader_next(r, &rec)) > 0) {
		if (rec.type == PV_REC_STACK)
			mode = 1;
		else if (rec.type == PV_REC_SAMPLE ||
			 (rec.type == PV_REC_OTHER &&
			  pv_str_eq(rec.field[0], "runval")))
			mode = 0;
	}
	if (strcmp(path, "-") != 0) {
		pv_reader_close(r);	/* errors come with the real read */
		return mode;
	}
	stdin_reader = r;
	if (rc >= 0 && pv_reader_rewind(r) < 0)
		pv_die("%s: no stack or sample record in the first MiB; "
		       "say which with --profiles or --samples",
		       pv_reader_name(r));
	return mode;
}

/* Whether the first input's first stack or sample record is a sample. */
static int
first_is_samples(char **operand, int n)
{
	return mode_of(n > 0 ? operand[0] : "-") == 0;
}

int
main(int argc, char **argv)
{
	enum {
		OPT_CV_MAX = 256, OPT_BASELINE, OPT_TARGET, OPT_NO_GROUPS,
		OPT_MAINTAINERS, OPT_SUBSYSTEMS, OPT_FUNCTION, OPT_KEEP_ROOTS
	};
	static const struct option longopts[] = {
		{ "raw", no_argument, NULL, 'r' },
		{ "keep-suffixes", no_argument, NULL, 'k' },
		{ "strip-hex", no_argument, NULL, 'x' },
		{ "threshold", required_argument, NULL, 't' },
		{ "confidence", required_argument, NULL, 'c' },
		{ "bootstrap", required_argument, NULL, 'b' },
		{ "ignore-key", required_argument, NULL, 'i' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "min-runs", required_argument, NULL, 'n' },
		{ "cv-max", required_argument, NULL, OPT_CV_MAX },
		{ "baseline", required_argument, NULL, OPT_BASELINE },
		{ "target", required_argument, NULL, OPT_TARGET },
		{ "no-groups", no_argument, NULL, OPT_NO_GROUPS },
		{ "maintainers", required_argument, NULL, OPT_MAINTAINERS },
		{ "subsystems", required_argument, NULL, OPT_SUBSYSTEMS },
		{ "function", required_argument, NULL, OPT_FUNCTION },
		{ "keep-roots", no_argument, NULL, OPT_KEEP_ROOTS },
		{ "profiles", no_argument, NULL, 'p' },
		{ "samples", no_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct pv_cmp_opts cmp = PV_CMP_OPTS_INIT;
	struct options opt;
	char **operand;
	int c, i, n, mode = -1, forced = -1, what = 0, status;
	size_t k;

	pv_diag_init(argv[0]);
	memset(&opt, 0, sizeof(opt));
	opt.threshold = 1.0;
	opt.cmp = cmp;
	opt.sd.groups = 1;
	opt.sd.match = 1;
	opt.sd.merge_roots = 1;
	pv_subsys_init(&opt.subsys);
	opt.ignore = pv_xreallocarray(NULL, pv_kvset_default_nignore +
				      (size_t)argc, sizeof(*opt.ignore));
	for (k = 0; k < pv_kvset_default_nignore; k++)
		opt.ignore[opt.nignore++] = pv_kvset_default_ignore[k];
	while ((c = getopt_long(argc, argv, "rkxt:c:b:i:j:n:pshV", longopts,
				NULL)) != -1) {
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
		case 'c':
			opt.cmp.conf = pv_opt_number("confidence", optarg, 0.5, 0.9999);
			break;
		case 'b':
			opt.cmp.boot = (unsigned)pv_opt_count("bootstrap count", optarg,
							0, 1000000);
			if (opt.cmp.boot == 1)
				pv_die("bootstrap count must be 0 or at "
				       "least 2");
			break;
		case 'i':
			opt.ignore[opt.nignore++] = optarg;
			break;
		case 'j':
			opt.cmp.jobs = (size_t)pv_opt_count("jobs", optarg, 1,
							     1024);
			break;
		case 'n':
			opt.cmp.min_runs = (size_t)pv_opt_count("minimum runs", optarg,
							  1, 1000000);
			break;
		case 'p':
			mode = forced = 1;
			break;
		case 's':
			mode = forced = 0;
			break;
		case OPT_CV_MAX:
			opt.cmp.cv_max = pv_opt_number("CV limit", optarg, 0, 1e6);
			break;
		case OPT_BASELINE:
			opt.base_version = optarg;
			break;
		case OPT_TARGET:
			opt.target_version = optarg;
			break;
		case OPT_NO_GROUPS:
			opt.sd.groups = 0;
			break;
		case OPT_KEEP_ROOTS:
			opt.sd.merge_roots = 0;
			break;
		case OPT_MAINTAINERS:
			if (pv_subsys_load_maintainers(&opt.subsys, optarg) < 0)
				pv_die("%s", pv_err_msg(&opt.subsys.err));
			break;
		case OPT_SUBSYSTEMS:
			if (pv_subsys_load_map(&opt.subsys, optarg) < 0)
				pv_die("%s", pv_err_msg(&opt.subsys.err));
			break;
		case OPT_FUNCTION:
			if (*optarg == '\0') {
				pv_error("an empty --function name");
				pv_usage_exit(usage, help, PV_EXIT_TROUBLE);
			}
			opt.sd.function = optarg;
			break;
		default:
			pv_opt_common(c, usage, help);
		}
	}

	/* standard input is read twice: once for the mode, once for the work */
	n = argc - optind;
	operand = argv + optind;
	pv_opt_files(n, operand);
	for (i = 0; i < n && mode < 0; i++)
		mode = mode_of(operand[i]);
	if (n == 0 && mode < 0)
		mode = mode_of("-");
	if (mode < 0)
		mode = 1;	/* neither: profiles, which say what is missing */
	if (!pv_subsys_empty(&opt.subsys))
		opt.sd.subsys = &opt.subsys;
	/*
	 * A stream that starts with samples: its stacks, per experiment and
	 * level, too (pv-collect --profile); --samples or --profiles one.
	 */
	if (mode == 0)
		what = forced < 0 ? 3 : forced ? 2 : 1;
	if (mode == 1 && forced == 1 && n != 2 &&
	    first_is_samples(operand, n))
		what = 2;
	status = what ? run_samples(&opt, operand, n, what) :
			run_stacks(&opt, operand, n);
	free(opt.ignore);
	pv_subsys_release(&opt.subsys);
	pv_close_stdout();
	return status;
}
