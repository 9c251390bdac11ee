/*
 * pv-diff: compare a baseline with a target.
 *
 * On benchmark samples (sample and runval records) it pairs each baseline
 * section with each target section of the same experiment, refuses pairs
 * measured under different conditions (their meta and env records differ,
 * apart from the keys that name the version under test), and writes for
 * every key a cmp record: the change on the log scale, oriented so that
 * worse is negative, its Welch and bootstrap intervals, Welch's and Mann-
 * Whitney's p-values, Hedges' g, Cliff's delta and stability flags
 * (lib/sampdiff.c does the work).  The input passes through unchanged.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "record.h"
#include "sampdiff.h"
#include "xalloc.h"

static const char usage[] =
	"pv-diff [-c LEVEL] [-b COUNT] [-i KEY] [-n RUNS] [-r CV] [FILE ...]";

static const char help[] =
	"Compare baseline and target benchmark runs (pv-format(5)).\n"
	"\n"
	"  -c, --confidence=LEVEL   level of the intervals (default 0.95)\n"
	"  -b, --bootstrap=COUNT    bootstrap resamples (default 1000; 0: none)\n"
	"  -i, --ignore-key=KEY     a meta or env KEY that may differ between\n"
	"                           baseline and target (repeatable; 'env.KEY',\n"
	"                           'meta.KEY', 'PREFIX*')\n"
	"  -n, --min-runs=RUNS      flag fewer runs per side (default 3)\n"
	"  -r, --cv-max=CV          flag a robust CV above CV (default 0.10)\n"
	"  -h, --help               print this help and exit\n"
	"  -V, --version            print the version and exit\n"
	"\n"
	"With no FILE, or when FILE is -, read standard input; gzip-compressed\n"
	"input is read transparently.\n"
	"\n"
	"Exit status: 0 no interval excludes no change, 1 some do, 2 trouble\n"
	"(including sections that are not comparable).\n";

static void
read_file(struct pv_sampdiff *d, const char *path)
{
	struct pv_reader *r = pv_reader_open(path);
	struct pv_record rec;
	int rc, use;

	if (r == NULL)
		pv_die_errno("cannot open '%s'", path);
	while ((rc = pv_reader_next(r, &rec)) > 0) {
		if ((use = pv_sampdiff_add(d, &rec)) < 0)
			pv_die_at(pv_reader_name(r), pv_reader_lineno(r),
				  "%s", d->err);
		if (use)
			pv_write_raw(stdout, &rec);
	}
	if (rc < 0)
		pv_die_at(pv_reader_name(r), pv_reader_lineno(r), "%s",
			  pv_reader_error(r));
	pv_reader_close(r);
}

static double
number(const char *what, const char *s, double min, double max)
{
	double v;

	if (pv_parse_double(s, strlen(s), &v) < 0 || v < min || v > max)
		pv_die("%s '%s' is not a number from %g to %g", what, s, min,
		       max);
	return v;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "confidence", required_argument, NULL, 'c' },
		{ "bootstrap", required_argument, NULL, 'b' },
		{ "ignore-key", required_argument, NULL, 'i' },
		{ "min-runs", required_argument, NULL, 'n' },
		{ "cv-max", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct pv_cmp_opts opt = PV_CMP_OPTS_INIT;
	struct pv_sampdiff d;
	const char **ignore;
	size_t nignore = 0, i;
	long found;
	int c, k;

	pv_diag_init(argv[0]);
	ignore = pv_xreallocarray(NULL, pv_kv_default_nignore + (size_t)argc,
				  sizeof(*ignore));
	for (i = 0; i < pv_kv_default_nignore; i++)
		ignore[nignore++] = pv_kv_default_ignore[i];
	while ((c = getopt_long(argc, argv, "c:b:i:n:r:hV", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'c':
			opt.conf = number("confidence", optarg, 0.5, 0.9999);
			break;
		case 'b':
			opt.boot = (unsigned)number("bootstrap count", optarg,
						    0, 1000000);
			if (opt.boot == 1)
				pv_die("bootstrap count must be 0 or at "
				       "least 2");
			break;
		case 'i':
			ignore[nignore++] = optarg;
			break;
		case 'n':
			opt.min_runs = (size_t)number("minimum runs", optarg,
						      1, 1000000);
			break;
		case 'r':
			opt.cv_max = number("CV limit", optarg, 0, 1e6);
			break;
		case 'h':
			pv_usage_exit(usage, help, PV_EXIT_OK);
		case 'V':
			pv_version_exit();
		default:
			pv_usage_exit(usage, help, PV_EXIT_TROUBLE);
		}
	}

	pv_sampdiff_init(&d, &opt);
	if (optind == argc)
		read_file(&d, "-");
	for (k = optind; k < argc; k++)
		read_file(&d, argv[k]);
	found = pv_sampdiff_finish(&d, stdout, ignore, nignore);
	if (found < 0)
		pv_die("%s", d.err);
	if (d.npairs == 0)
		pv_warn("no baseline and target sections of one experiment "
			"to compare");
	pv_sampdiff_release(&d);
	free(ignore);
	pv_close_stdout();
	return found > 0 ? PV_EXIT_FOUND : PV_EXIT_OK;
}
