/*
 * pv-parse: turn `perf script` text into pv stack records.
 *
 * Each input file becomes one section: its `perf script --header` lines as
 * env records, then one stack record per distinct (event, stack), sorted,
 * with the sample count and the period sum.  Frames are named as
 * stackcollapse-perf.pl names them (lib/perfscript.c), so that
 * `pv-parse FILE | pv-render --format=folded` gives the folded stacks the
 * FlameGraph tools expect.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "input.h"
#include "perfscript.h"
#include "record.h"
#include "stacktab.h"
#include "symtab.h"
#include "xalloc.h"

static const char usage[] =
	"pv-parse [--pid | --tid] [--kernel] [--jit] [--all] [--addrs]\n"
	"                [--event-filter=EVENT] [--role=ROLE] [--subject=VERSION]\n"
	"                [--experiment=ID] [--meta=KEY=VALUE] [FILE ...]";

static const char help[] =
	"Turn `perf script` output into pv stack records (pv-format(5)).\n"
	"\n"
	"  -p, --pid               name the root frame COMM-PID\n"
	"  -t, --tid               name the root frame COMM-PID/TID\n"
	"  -k, --kernel            suffix kernel frames with _[k]\n"
	"  -j, --jit               suffix JIT frames with _[j]\n"
	"  -a, --all               both --kernel and --jit\n"
	"      --addrs             keep the addresses of unknown frames\n"
	"  -e, --event-filter=EVENT  keep only the samples of EVENT\n"
	"  -r, --role=ROLE         the section's role (baseline, target)\n"
	"  -s, --subject=VERSION   the version the capture measured\n"
	"  -x, --experiment=ID     the experiment identity\n"
	"  -m, --meta=KEY=VALUE    add a meta record (repeatable)\n"
	"  -h, --help              print this help and exit\n"
	"  -V, --version           print the version and exit\n"
	"\n"
	"With no FILE, or when FILE is -, read standard input; gzip-compressed\n"
	"input is read transparently.  Each FILE becomes one section.\n"
	"\n"
	"Exit status: 0 on success, 2 on trouble (malformed input included).\n";

/* warnings printed per input before they are only counted */
#define MAX_WARNINGS 10

struct options {
	struct pv_perf_opts perf;
	const char *role, *subject, *experiment;
	char **meta;		/* "KEY=VALUE" */
	size_t nmeta;
};

static void
write_stacks(const struct pv_stacktab *stacks, const struct pv_symtab *names)
{
	struct pv_stack **v = pv_stacktab_sorted(stacks, names);
	struct pv_str *fr = NULL;
	size_t i, k, alloc = 0;

	for (i = 0; i < stacks->nstack; i++) {
		const struct pv_stack *s = v[i];

		PV_GROW(fr, s->nframe, alloc);
		for (k = 0; k < s->nframe; k++)
			fr[k] = pv_symtab_get(names, s->frame[k]);
		pv_write_stack(stdout, pv_symtab_get(names, s->event),
			       s->samples, s->period, fr, s->nframe);
	}
	free(fr);
	free(v);
}

static void
parse_file(const struct options *opt, const char *path)
{
	struct pv_input *in = pv_input_open(path);
	struct pv_symtab names;
	struct pv_stacktab stacks;
	struct pv_perf *perf;
	unsigned long warnings = 0;
	char *line;
	size_t len, i;
	int rc;

	if (in == NULL)
		pv_die_errno("cannot open '%s'", path);
	pv_symtab_init(&names);
	pv_stacktab_init(&stacks);
	perf = pv_perf_new(&opt->perf, &names, &stacks);
	while ((rc = pv_input_getline(in, &line, &len)) > 0) {
		if (pv_input_lineno(in) == 1 && len >= 7 &&
		    memcmp(line, "PERFILE", 7) == 0)
			pv_die_at(pv_input_name(in), 1, "a perf.data file, "
				  "not perf script text (run 'perf script' "
				  "on it)");
		rc = pv_perf_line(perf, line, len);
		if (rc < 0)
			pv_die_at(pv_input_name(in), pv_input_lineno(in), "%s",
				  pv_perf_message(perf));
		if (rc == PV_PERF_WARN && warnings++ < MAX_WARNINGS)
			pv_warn_at(pv_input_name(in), pv_input_lineno(in),
				   "%s", pv_perf_message(perf));
	}
	if (rc < 0)
		pv_die_at(pv_input_name(in), pv_input_lineno(in), "%s",
			  pv_input_error(in));
	if (pv_perf_finish(perf) < 0)
		pv_die_at(pv_input_name(in), pv_input_lineno(in), "%s",
			  pv_perf_message(perf));
	if (warnings > MAX_WARNINGS)
		pv_warn("%s: %lu more lines skipped with warnings",
			pv_input_name(in), warnings - MAX_WARNINGS);
	if (pv_stacktab_overflowed(&stacks))
		pv_die("%s: a count does not fit in 64 bits",
		       pv_input_name(in));

	pv_write_section(stdout, opt->role, opt->subject, opt->experiment);
	for (i = 0; i < pv_perf_nenv(perf); i++) {
		const char *k, *v;

		pv_perf_env(perf, i, &k, &v);
		pv_write_kv(stdout, "env", k, v);
	}
	for (i = 0; i < opt->nmeta; i++) {
		char *eq = strchr(opt->meta[i], '=');

		*eq = '\0';
		pv_write_kv(stdout, "meta", opt->meta[i], eq + 1);
		*eq = '=';
	}
	write_stacks(&stacks, &names);

	pv_perf_free(perf);
	pv_stacktab_release(&stacks);
	pv_symtab_release(&names);
	pv_input_close(in);
}

int
main(int argc, char **argv)
{
	enum { OPT_ADDRS = 256 };
	static const struct option longopts[] = {
		{ "pid", no_argument, NULL, 'p' },
		{ "tid", no_argument, NULL, 't' },
		{ "kernel", no_argument, NULL, 'k' },
		{ "jit", no_argument, NULL, 'j' },
		{ "all", no_argument, NULL, 'a' },
		{ "addrs", no_argument, NULL, OPT_ADDRS },
		{ "event-filter", required_argument, NULL, 'e' },
		{ "role", required_argument, NULL, 'r' },
		{ "subject", required_argument, NULL, 's' },
		{ "experiment", required_argument, NULL, 'x' },
		{ "meta", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct options opt;
	int c, i;

	pv_diag_init(argv[0]);
	memset(&opt, 0, sizeof(opt));
	while ((c = getopt_long(argc, argv, "ptkjae:r:s:x:m:hV", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'p':
			opt.perf.include_pid = 1;
			break;
		case 't':
			opt.perf.include_tid = 1;
			break;
		case 'k':
			opt.perf.annotate_kernel = 1;
			break;
		case 'j':
			opt.perf.annotate_jit = 1;
			break;
		case 'a':
			opt.perf.annotate_kernel = opt.perf.annotate_jit = 1;
			break;
		case OPT_ADDRS:
			opt.perf.include_addrs = 1;
			break;
		case 'e':
			opt.perf.event_filter = optarg;
			break;
		case 'r':
			opt.role = optarg;
			break;
		case 's':
			opt.subject = optarg;
			break;
		case 'x':
			opt.experiment = optarg;
			break;
		case 'm':
			if (strchr(optarg, '=') == NULL || optarg[0] == '=') {
				pv_error("--meta wants KEY=VALUE, not '%s'",
					 optarg);
				pv_usage_exit(usage, help, PV_EXIT_TROUBLE);
			}
			opt.meta = pv_xreallocarray(opt.meta, opt.nmeta + 1,
						    sizeof(*opt.meta));
			opt.meta[opt.nmeta++] = optarg;
			break;
		case 'h':
			pv_usage_exit(usage, help, PV_EXIT_OK);
		case 'V':
			pv_version_exit();
		default:
			pv_usage_exit(usage, help, PV_EXIT_TROUBLE);
		}
	}

	pv_write_version(stdout);
	if (optind == argc)
		parse_file(&opt, "-");
	for (i = optind; i < argc; i++)
		parse_file(&opt, argv[i]);
	free(opt.meta);
	pv_close_stdout();
	return PV_EXIT_OK;
}
