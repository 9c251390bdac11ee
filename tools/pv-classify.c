/*
 * pv-classify: decide, for every comparison that pv-diff made, whether it
 * is a Regression, an Improvement, No change or Uncertain, with a severity
 * for the regressions, the regressions that hold at every concurrency
 * level, and the smallest change each comparison could have detected.
 *
 * Reads cmp records, passes the whole input on and appends verdict,
 * systematic and detect records (lib/classifier.c holds the rules; the man
 * page states them).  The exit status says whether something at or above
 * --fail-on was found, so that CI can gate on it.
 *
 * The changepoint and outlier records of pv-series are judged too
 * (lib/cpgroup.c): a change point or an outlier for the worse at the
 * newest version that is not known fails the job as a regression does, and the change points of an operation between
 * the same versions at several levels are grouped in cpgroup records.
 */
#include "config.h"

#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "classifier.h"
#include "cpgroup.h"
#include "diag.h"
#include "error.h"
#include "opt.h"
#include "rec_changepoint.h"
#include "rec_cmp.h"
#include "record.h"
#include "xalloc.h"

static const char usage[] =
	"pv-classify [-d [METRIC=]DELTA] [-e BAND] [-f red|yellow|any] "
	"[-n RUNS] [-q RATE] [-r CV] [FILE ...]";

static const char help[] =
	"Classify benchmark comparisons (cmp records of pv-diff, pv-format(5)).\n"
	"\n"
	"  -d, --delta=[METRIC=]DELTA  the threshold (default 0.02: 2%), or that\n"
	"                            of METRIC's keys (repeatable)\n"
	"  -e, --no-change-band=BAND a No change band narrower than DELTA\n"
	"  -f, --fail-on=LEVEL       exit 1 for a regression at or above LEVEL:\n"
	"                            red, yellow or any (default red)\n"
	"  -n, --min-runs=RUNS       flag fewer runs a side (default 3)\n"
	"  -q, --fdr=RATE            false discovery rate (default 0.05)\n"
	"  -r, --cv-max=CV           flag a robust CV above CV (default 0.10)\n"
	"  -h, --help                print this help and exit\n"
	"  -V, --version             print the version and exit\n"
	"\n"
	"With no FILE, or when FILE is -, read standard input; gzip-compressed\n"
	"input is read transparently.\n"
	"\n"
	"Exit status: 0 nothing at or above --fail-on, 1 something (or a\n"
	"change point or outlier for the worse at the newest version, not\n"
	"known), 2 trouble (nothing compared: no cmp records and no series\n"
	"searched).\n";

static int
is_ours(const struct pv_record *rec)
{
	return rec->type == PV_REC_OTHER &&
		(pv_str_eq(rec->field[0], "verdict") ||
		 pv_str_eq(rec->field[0], "systematic") ||
		 pv_str_eq(rec->field[0], "detect") ||
		 pv_str_eq(rec->field[0], "cpgroup"));
}

/* the records read; the others are passed on unchecked */
static const char *const used[] = { "cmp", "changepoint", "outlier",
				     "scanned", NULL };

/*
 * The records passed on (most of the input: the samples and statistics
 * pv-diff passes on) are gathered here and written in blocks: stdio's
 * per-call cost, not the bytes, was a tenth of the tool's time.
 */
#define PASS_BLOCK 65536

static void
pass_flush(struct pv_strbuf *pass)
{
	fwrite(pass->buf, 1, pass->len, stdout);
	pv_strbuf_reset(pass);
}

static void
read_file(struct pv_classifier *cl, struct pv_cpgroups *cps,
	  uint64_t *scanned, size_t *outliers, const char *path,
	  struct pv_strbuf *pass)
{
	struct pv_reader *r = pv_reader_open(path);
	struct pv_record rec;
	struct pv_cmp c;
	struct pv_err err = PV_ERR_INIT;
	int rc;

	if (r == NULL)
		pv_die_errno("cannot open '%s'", path);
	pv_reader_use(r, used);
	while ((rc = pv_reader_next(r, &rec)) > 0) {
		if (is_ours(&rec))
			continue;	/* computed again */
		if (rec.type == PV_REC_OTHER &&
		    pv_str_eq(rec.field[0], "cmp")) {
			if (pv_rec_cmp_parse(&rec, &c, &err) < 0) {
				pass_flush(pass);
				pv_die_at(pv_reader_name(r),
					  pv_reader_lineno(r), "%s",
					  pv_err_msg(&err));
			}
			pv_classifier_add(cl, &c);
		}
		if (rec.type == PV_REC_OTHER &&
		    pv_str_eq(rec.field[0], "changepoint")) {
			struct pv_changepoint cp;

			if (pv_rec_changepoint_parse(&rec, &cp, &err) < 0) {
				pass_flush(pass);
				pv_die_at(pv_reader_name(r),
					  pv_reader_lineno(r), "%s",
					  pv_err_msg(&err));
			}
			pv_cpgroups_add(cps, &cp);
		}
		if (rec.type == PV_REC_OTHER &&
		    pv_str_eq(rec.field[0], "outlier")) {
			struct pv_outlier o;

			if (pv_rec_outlier_parse(&rec, &o, &err) < 0) {
				pass_flush(pass);
				pv_die_at(pv_reader_name(r),
					  pv_reader_lineno(r), "%s",
					  pv_err_msg(&err));
			}
			*outliers += pv_outlier_fails(&o);
		}
		if (rec.type == PV_REC_OTHER &&
		    pv_str_eq(rec.field[0], "scanned")) {
			struct pv_scanned sc;

			if (pv_rec_scanned_parse(&rec, &sc, &err) < 0) {
				pass_flush(pass);
				pv_die_at(pv_reader_name(r),
					  pv_reader_lineno(r), "%s",
					  pv_err_msg(&err));
			}
			*scanned += sc.keys;
		}
		/* the raw line as pv_write_raw() writes it, in one copy */
		pv_strbuf_grow(pass, rec.raw.len + 1);
		memcpy(pass->buf + pass->len, rec.raw.s, rec.raw.len);
		pass->buf[pass->len + rec.raw.len] = '\n';
		pv_strbuf_setlen(pass, pass->len + rec.raw.len + 1);
		if (pass->len >= PASS_BLOCK)
			pass_flush(pass);
	}
	pass_flush(pass);
	if (rc < 0)
		pv_die_at(pv_reader_name(r), pv_reader_lineno(r), "%s",
			  pv_reader_error(r));
	pv_reader_close(r);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "delta", required_argument, NULL, 'd' },
		{ "no-change-band", required_argument, NULL, 'e' },
		{ "fail-on", required_argument, NULL, 'f' },
		{ "min-runs", required_argument, NULL, 'n' },
		{ "fdr", required_argument, NULL, 'q' },
		{ "cv-max", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct pv_classifier_opts opt = PV_CLASSIFIER_OPTS_INIT;
	enum pv_band fail_on = PV_BAND_RED;
	struct pv_strbuf pass = PV_STRBUF_INIT;
	struct pv_classifier cl;
	struct pv_cpgroups cps;
	uint64_t scanned = 0;	/* keys pv-series searched */
	size_t outliers = 0;	/* outliers that fail the job */
	struct pv_delta *deltas = NULL;
	size_t ndelta = 0, dalloc = 0;
	double band = 0;
	int c, i;

	pv_diag_init(argv[0]);
	while ((c = getopt_long(argc, argv, "d:e:f:n:q:r:hV", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'd': {
			char *eq = strchr(optarg, '=');

			if (eq == NULL) {
				opt.delta = pv_opt_number("threshold", optarg,
							  1e-9, 0.99);
				break;
			}
			if (eq == optarg) {
				pv_error("--delta: no metric before '=' in "
					 "'%s'", optarg);
				pv_usage_exit(usage, help, PV_EXIT_TROUBLE);
			}
			*eq = '\0';
			PV_GROW(deltas, ndelta + 1, dalloc);
			deltas[ndelta].metric = optarg;
			deltas[ndelta++].delta = pv_opt_number("threshold",
							       eq + 1, 1e-9,
							       0.99);
			break;
		}
		case 'e':
			band = pv_opt_number("no-change band", optarg, 1e-9,
					     0.99);
			break;
		case 'f':
			if (strcmp(optarg, "red") == 0) {
				fail_on = PV_BAND_RED;
			} else if (strcmp(optarg, "yellow") == 0) {
				fail_on = PV_BAND_YELLOW;
			} else if (strcmp(optarg, "any") == 0) {
				fail_on = PV_BAND_GREEN;
			} else {
				pv_error("--fail-on takes red, yellow or any, "
					 "not '%s'", optarg);
				pv_usage_exit(usage, help, PV_EXIT_TROUBLE);
			}
			break;
		case 'n':
			opt.min_runs = (size_t)pv_opt_count("minimum runs", optarg,
						      2, 1000000);
			break;
		case 'q':
			opt.q = pv_opt_number("false discovery rate", optarg, 1e-9,
				       0.5);
			break;
		case 'r':
			opt.cv_max = pv_opt_number("CV limit", optarg, 0, 1e6);
			break;
		default:
			pv_opt_common(c, usage, help);
		}
	}

	/*
	 * No change means the interval lies inside the threshold: a wider
	 * band would call a change the threshold calls real No change.
	 */
	if (band > opt.delta) {
		pv_error("--no-change-band %g is wider than the threshold %g: "
			 "a change past the threshold could be 'no change'; "
			 "give at most %g, or raise --delta", band, opt.delta,
			 opt.delta);
		pv_usage_exit(usage, help, PV_EXIT_TROUBLE);
	}
	opt.band = band;
	opt.deltas = deltas;
	opt.ndelta = ndelta;
	/*
	 * Every write is of a block gathered whole (PASS_BLOCK, the
	 * classifier's): stdio's buffer would only copy it once more.
	 */
	setvbuf(stdout, NULL, _IONBF, 0);
	pv_classifier_init(&cl, &opt);
	pv_cpgroups_init(&cps);
	pv_strbuf_init(&pass, PASS_BLOCK);
	pv_opt_files(argc - optind, argv + optind);
	if (optind == argc)
		read_file(&cl, &cps, &scanned, &outliers, "-", &pass);
	for (i = optind; i < argc; i++)
		read_file(&cl, &cps, &scanned, &outliers, argv[i], &pass);
	/* nothing compared is never a pass: CI reads exit 0 as one */
	if (cl.n == 0 && cps.ncp == 0 && scanned == 0)
		pv_die("no cmp records to classify, nor changepoint records: "
		       "nothing was compared (give pv-classify the output of "
		       "pv-diff on samples, or of pv-series)");
	pv_classifier_run(&cl);
	pv_classifier_write(&cl, stdout);
	pv_cpgroups_write(&cps, &pass);
	pass_flush(&pass);
	pv_strbuf_release(&pass);
	c = pv_classifier_worst(&cl) >= fail_on || cps.failing > 0 ||
	    outliers > 0;
	pv_classifier_release(&cl);
	pv_cpgroups_release(&cps);
	free(deltas);
	pv_close_stdout();
	return c ? PV_EXIT_FOUND : PV_EXIT_OK;
}
