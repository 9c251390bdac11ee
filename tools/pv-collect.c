/*
 * pv-collect: run a benchmark command as a matrix of concurrency levels and
 * repetitions, in interleaved order, and write what was measured as pv
 * records: one section per level, holding the run's parameters (meta), the
 * environment (env), one sample record per run and metric, and with
 * --profile the call stacks sampled during the runs (stack).
 *
 * Each run's stdout and stderr are kept as artifacts, in a directory of
 * the collection's own; a run that fails or passes its --timeout is
 * recorded as failed (a meta record) and gives no sample.  pv-collect is
 * the subreaper of its runs and ends what each leaves running.  The
 * output is written at the end, or when the collection is interrupted
 * (SIGINT, SIGTERM) with what was collected, marked incomplete.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "diag.h"
#include "opt.h"
#include "bench.h"
#include "envinfo.h"
#include "hash.h"
#include "input.h"
#include "rec_profile.h"
#include "rec_runstart.h"
#include "record.h"
#include "runner.h"
#include "sampler.h"
#include "stacktab.h"
#include "strbuf.h"
#include "symtab.h"
#include "xalloc.h"

static const char usage[] =
	"pv-collect [-p] [-a DIR] [-c LIST] [-o FILE] [-r N] [-w N] "
	"[--addrs]\n"
	"       [--all-cpus] [--config-ref=FILE] [--event=EVENT] "
	"[--experiment=ID]\n"
	"       [--frequency=HZ] [--inline] [--kernel] [--label=VERSION]\n"
	"       [--meta=KEY=VALUE] [--parser=NAME] [--role=ROLE] "
	"[--source=DIR]\n"
	"       [--timeout=SECONDS] [--user-only] [--] COMMAND [ARG ...]";

static const char help[] =
	"Run COMMAND as a matrix of levels and repetitions and write pv records\n"
	"(pv-format(5)): meta, env, samples and, with --profile, stacks.\n"
	"\n"
	"  -r, --repeat=N        measured runs per level (default 5)\n"
	"  -w, --warmup=N        unmeasured runs per level first (default 0)\n"
	"  -c, --concurrency=LIST  levels, comma-separated; each replaces {N}\n"
	"                        in the arguments; runs interleave the levels\n"
	"  -a, --artifacts=DIR   keep each run's stdout and stderr in a directory\n"
	"                        of its own in DIR\n"
	"  -o, --output=FILE     write to FILE (replaced at the end) not stdout\n"
	"      --parser=NAME     samples from the run's output (stress-ng,\n"
	"                        will-it-scale, sysbench, unixbench, generic)\n"
	"                        instead of its times\n"
	"      --role=ROLE       the section role: baseline, target\n"
	"      --label=VERSION   the version under test (default: the commit\n"
	"                        of --source, or the kernel release)\n"
	"      --experiment=ID   the experiment identity instead of the hash\n"
	"      --source=DIR      record the git commit and branch of DIR\n"
	"      --meta=KEY=VALUE  add a meta record (repeatable)\n"
	"      --timeout=SECONDS end a run after SECONDS (TERM, then KILL): it\n"
	"                        is recorded as timed out, and the runs go on\n"
	"      --config-ref=FILE list kernel options differing from FILE\n"
	"  -p, --profile         sample call stacks with perf_event_open\n"
	"      --event=EVENT     cpu-clock (default), task-clock, cycles,\n"
	"                        instructions, cache-misses, branch-misses\n"
	"      --frequency=HZ    samples a second per CPU (default 99)\n"
	"      --all-cpus        sample the whole system during the runs\n"
	"      --user-only       no kernel frames\n"
	"      --kernel          mark kernel frames with _[k]\n"
	"      --inline          expand inlined functions (DWARF)\n"
	"      --addrs           keep the addresses of frames without a symbol\n"
	"  -h, --help            print this help and exit\n"
	"  -V, --version         print the version and exit\n"
	"\n"
	"Exit status: 0 when every run succeeded, 1 when a run failed or timed\n"
	"out, 2 on trouble (usage, a command that cannot be run, sampling\n"
	"refused).\n"
	"Interrupted by SIGINT or SIGTERM, it writes what was collected, marked\n"
	"incomplete, and ends by that signal.\n";

enum {
	OPT_PARSER = 256, OPT_ROLE, OPT_LABEL, OPT_EXPERIMENT, OPT_SOURCE,
	OPT_META, OPT_CONFIG_REF, OPT_EVENT, OPT_FREQUENCY, OPT_ALL_CPUS,
	OPT_USER_ONLY, OPT_KERNEL, OPT_INLINE, OPT_ADDRS, OPT_TIMEOUT
};

struct options {
	uint64_t repeat, warmup;
	char **level;		/* NULL: no levels */
	size_t nlevel;
	const char *artifacts, *output, *parser, *role, *label;
	const char *experiment, *source, *config_ref;
	char **meta;		/* "KEY=VALUE" */
	size_t nmeta, meta_alloc;
	int profile;
	double timeout;		/* seconds; 0: none */
	struct pv_sampler_opts sopt;
	char **argv;		/* the command, {N} not replaced */
};

/* What one level (one section) collected. */
struct level {
	const char *name;	/* NULL: no levels */
	uint64_t number;
	char *what;		/* the level in messages: "EXPERIMENT level N" */
	FILE *records;		/* meta and sample records of its runs */
	struct pv_stacktab stacks;
	uint64_t ok, failed, warm_failed;
};

struct collect {
	const struct options *opt;
	struct pv_envinfo env;
	char *experiment;	/* of every level's section */
	struct level *level;
	size_t nlevel;
	struct pv_symtab names;
	struct pv_sampler *sampler;
	char *artdir;		/* the collection's directory of artifacts */
	int tmp;		/* artdir is temporary (no --artifacts) */
	char *test;		/* basename of the command */
	char started[32];
	struct tm tm;		/* the start, UTC */
	uint64_t done, total;
	uint64_t measured;	/* measured runs begun, for their order */
	double t0;
	char *commit, *branch, *dirty;
};

static volatile sig_atomic_t stop_signal;

static void
on_signal(int sig)
{
	stop_signal = sig;
}

static uint64_t
parse_count(const char *s, const char *what, uint64_t min)
{
	uint64_t v;

	if (pv_parse_u64(s, strlen(s), &v) != 0 || v < min ||
	    v > 1000000000)
		pv_die("invalid %s '%s': a whole number from %llu to "
		       "1000000000 expected", what, s, (unsigned long long)min);
	return v;
}

static void
parse_levels(struct options *opt, const char *list)
{
	const char *p = list;

	while (*p != '\0') {
		size_t n = strcspn(p, ",");
		uint64_t v;

		if (pv_parse_u64(p, n, &v) != 0)
			pv_die("invalid level '%.*s' in '%s': levels are "
			       "whole numbers", (int)n, p, list);
		opt->level = pv_xreallocarray(opt->level, opt->nlevel + 1,
					      sizeof(*opt->level));
		opt->level[opt->nlevel++] = pv_xmemdup(p, n);
		p += n;
		if (*p == ',' && *++p == '\0')
			pv_die("invalid level list '%s'", list);
	}
	if (opt->nlevel == 0)
		pv_die("empty level list");
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * The experiment identity of the plan: a hash of the command and the
 * parameters that change what is measured, and of the environment facts
 * marked ident (envinfo.h); never of the version under test, the number
 * of repetitions, labels or meta.
 */
static uint64_t
plan_hash(const struct collect *c)
{
	const struct options *o = c->opt;
	struct pv_strbuf sb = PV_STRBUF_INIT;
	uint64_t h;
	size_t i;

	pv_strbuf_addstr(&sb, "pv-collect experiment 1");
	for (i = 0; o->argv[i] != NULL; i++) {
		pv_strbuf_addch(&sb, '\0');
		pv_strbuf_addstr(&sb, o->argv[i]);
	}
	pv_strbuf_addf(&sb, "%c%s%c", '\0', o->parser ? o->parser : "-",
		       '\0');
	if (o->profile)
		pv_strbuf_addf(&sb, "profile %s %llu %d %d",
			       o->sopt.event, (unsigned long long)
			       o->sopt.frequency, o->sopt.all_cpus,
			       o->sopt.user_only);
	h = pv_hash(sb.buf, sb.len, 0);
	pv_strbuf_release(&sb);
	return pv_envinfo_ident(&c->env, h);
}

static void
setup_levels(struct collect *c)
{
	const struct options *o = c->opt;
	struct pv_strbuf sb = PV_STRBUF_INIT;
	char hex[17];
	size_t i;

	snprintf(hex, sizeof(hex), "%016llx",
		 (unsigned long long)plan_hash(c));
	/*
	 * One experiment for every level: the level is a field of each
	 * sample's key, so that the levels of one plan are compared side by
	 * side and a change at all of them is seen as one (pv-classify's
	 * systematic regressions).  Each level keeps a section of its own,
	 * with its level in a meta record, for the stacks of its runs.
	 */
	c->experiment = pv_xstrdup(o->experiment ? o->experiment : hex);
	c->nlevel = o->nlevel ? o->nlevel : 1;
	c->level = pv_xcalloc(c->nlevel, sizeof(*c->level));
	for (i = 0; i < c->nlevel; i++) {
		struct level *l = &c->level[i];

		l->name = o->nlevel ? o->level[i] : NULL;
		l->number = PV_NONE;
		if (l->name != NULL)
			pv_parse_u64(l->name, strlen(l->name), &l->number);
		pv_strbuf_reset(&sb);
		pv_strbuf_addstr(&sb, c->experiment);
		if (l->name != NULL)
			pv_strbuf_addf(&sb, " level %s", l->name);
		l->what = pv_xstrdup(sb.buf);
		if ((l->records = tmpfile()) == NULL)
			pv_die_errno("cannot create a temporary file");
		pv_stacktab_init(&l->stacks);
	}
	pv_strbuf_release(&sb);
}

static void
add_sample(FILE *out, const struct collect *c, const struct level *l,
	   uint64_t run, const char *metric, const char *unit, double v)
{
	struct pv_record r;

	memset(&r, 0, sizeof(r));
	r.suite.s = "pv-collect";
	r.suite.len = strlen(r.suite.s);
	r.test.s = c->test;
	r.test.len = strlen(c->test);
	r.operation.s = "run";
	r.operation.len = 3;
	r.metric.s = metric;
	r.metric.len = strlen(metric);
	r.unit.s = unit;
	r.unit.len = strlen(unit);
	r.direction = PV_LOWER_BETTER;
	r.level = l->number;
	r.run = run;
	r.seq = PV_NONE;
	r.val = v;
	pv_write_sample(out, &r);
}

static int
parse_file(struct pv_bench *b, const char *path, struct pv_strbuf *msg)
{
	struct pv_input *in = pv_input_open(path);
	char *line;
	size_t len;
	int rc;

	if (in == NULL) {
		pv_strbuf_addf(msg, "cannot open '%s': %s", path,
			       strerror(errno));
		return -1;
	}
	while ((rc = pv_input_getline(in, &line, &len)) > 0)
		if (pv_bench_line(b, line, len) != 0) {
			pv_strbuf_addf(msg, "%s:%lu: %s", path,
				       pv_bench_error_line(b),
				       pv_bench_error(b));
			break;
		}
	/* bad data at its line (a line too long, a NUL); a system error not */
	if (rc < 0 && pv_input_errno(in) == 0)
		pv_strbuf_addf(msg, "%s:%lu: %s", path, pv_input_lineno(in),
			       pv_input_error(in));
	else if (rc < 0)
		pv_strbuf_addf(msg, "%s: %s", path, pv_input_error(in));
	pv_input_close(in);
	return rc < 0 || msg->len > 0 ? -1 : 0;
}

/*
 * The --parser hook: turn a run's output files into sample records on
 * out, with the run's level and number.  Returns 0, or -1 with a message
 * (the run then counts as failed: its output is not a measurement, and
 * nothing of it reaches out, though the reader had written some samples
 * before it found the output cut short).
 */
static int
parse_output(const struct collect *c, const struct level *l, uint64_t run,
	     const char *outpath, const char *errpath, FILE *out,
	     struct pv_strbuf *msg)
{
	struct pv_bench_opts bo = PV_BENCH_OPTS_INIT;
	struct pv_bench *b;
	char *buf = NULL;
	size_t len = 0;
	FILE *mem;
	int rc;

	if ((mem = open_memstream(&buf, &len)) == NULL)
		pv_die_errno("cannot make a memory stream");
	bo.level = l->number;
	bo.run = run;
	bo.name = outpath;
	b = pv_bench_new(c->opt->parser, &bo, mem);
	if (b == NULL) {
		pv_strbuf_addf(msg, "unknown parser '%s'", c->opt->parser);
		fclose(mem);
		free(buf);
		return -1;
	}
	rc = parse_file(b, outpath, msg);
	if (rc == 0)
		rc = parse_file(b, errpath, msg);
	if (rc == 0 && pv_bench_finish(b) != 0) {
		pv_strbuf_addf(msg, "%s: %s", outpath, pv_bench_error(b));
		rc = -1;
	}
	pv_bench_free(b);
	if (fclose(mem) != 0)
		pv_die_errno("cannot write a memory stream");
	if (rc == 0)
		fwrite(buf, 1, len, out);
	free(buf);
	return rc;
}

static void
progress(struct collect *c)
{
	double el = now() - c->t0, left;

	if (!isatty(2))
		return;
	left = c->done ? el / (double)c->done * (double)(c->total - c->done)
		: 0;
	fprintf(stderr, "\r%s: %llu/%llu runs, %d:%02d elapsed, "
		"about %d:%02d left  ", pv_progname,
		(unsigned long long)c->done, (unsigned long long)c->total,
		(int)el / 60, (int)el % 60, (int)left / 60, (int)left % 60);
	if (c->done == c->total)
		fputc('\n', stderr);
	fflush(stderr);
}

/* One run of level l: number n within its kind. */
static void
run_one(struct collect *c, struct level *l, int warmup, uint64_t n)
{
	struct pv_strbuf out = PV_STRBUF_INIT, err = PV_STRBUF_INIT;
	struct pv_strbuf desc = PV_STRBUF_INIT, pmsg = PV_STRBUF_INIT;
	struct pv_run_opts ro = PV_RUN_OPTS_INIT;
	struct pv_run_result res;
	struct pv_err why;
	char **argv;
	int ok;

	argv = pv_runner_expand(c->opt->argv, l->name);
	pv_runner_artifact(&out, c->artdir, l->name, warmup, n, "stdout");
	pv_runner_artifact(&err, c->artdir, l->name, warmup, n, "stderr");
	if (c->sampler != NULL && !warmup) {
		ro.sampler = c->sampler;
		pv_sampler_sink(ro.sampler, &c->names, &l->stacks);
	}
	if (!warmup) {
		/* when the run began, and its place in the collection */
		struct pv_runstart rs;
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		rs.run = n;
		rs.order = ++c->measured;
		rs.start = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
		pv_rec_runstart_write(&desc, &rs);
		fwrite(desc.buf, 1, desc.len, l->records);
		pv_strbuf_reset(&desc);
	}
	ro.stop = &stop_signal;
	ro.timeout = c->opt->timeout;
	if (pv_runner_run(argv, out.buf, err.buf, &ro, &res, &why) != 0)
		pv_die("%s", pv_err_msg(&why));
	ok = pv_runner_ok(&res);
	if (ok && !warmup && c->opt->parser != NULL &&
	    parse_output(c, l, n, out.buf, err.buf, l->records, &pmsg) != 0)
		ok = 0;
	if (!ok && pmsg.len > 0)
		pv_strbuf_addf(&desc, "unreadable output (%s)", pmsg.buf);
	else
		pv_runner_describe(&res, &desc);
	if (res.timed_out)
		pv_strbuf_addf(&desc, " after %g s", c->opt->timeout);
	if (!ok && !res.interrupted) {
		if (warmup)
			l->warm_failed++;
		else
			l->failed++;
		pv_warn("%s: %s %llu failed: %s", l->what,
			warmup ? "warmup run" : "run", (unsigned long long)n,
			desc.buf);
	}
	if (res.leftover > 0) {
		pv_warn("%s: %s %llu left %u process%s running, ended",
			l->what, warmup ? "warmup run" : "run",
			(unsigned long long)n, res.leftover,
			res.leftover == 1 ? "" : "es");
		pv_strbuf_addf(&desc, " left=%u", res.leftover);
	}
	pv_strbuf_addf(&desc, " wall=%.6f user=%.6f sys=%.6f maxrss=%ld",
		       res.wall, res.user, res.sys, res.maxrss);
	pv_strbuf_reset(&pmsg);
	pv_strbuf_addf(&pmsg, "%llu %s", (unsigned long long)n, desc.buf);
	pv_write_kv(l->records, "meta", warmup ? "warmup" : "run", pmsg.buf);
	if (ok && !warmup) {
		l->ok++;
		if (c->opt->parser == NULL) {
			add_sample(l->records, c, l, n, "wall-time", "s",
				   res.wall);
			add_sample(l->records, c, l, n, "user-time", "s",
				   res.user);
			add_sample(l->records, c, l, n, "sys-time", "s",
				   res.sys);
			add_sample(l->records, c, l, n, "max-rss", "KiB",
				   (double)res.maxrss);
		}
	}
	if (c->tmp) {
		unlink(out.buf);
		unlink(err.buf);
	}
	c->done++;
	progress(c);
	pv_runner_free_argv(argv);
	pv_strbuf_release(&out);
	pv_strbuf_release(&err);
	pv_strbuf_release(&desc);
	pv_strbuf_release(&pmsg);
}

/* Warmups, then measured runs; each round visits every level once. */
static void
run_matrix(struct collect *c)
{
	const struct options *o = c->opt;
	uint64_t round;
	size_t i;

	c->total = (o->warmup + o->repeat) * c->nlevel;
	c->t0 = now();
	progress(c);
	for (round = 0; round < o->warmup + o->repeat && !stop_signal;
	     round++)
		for (i = 0; i < c->nlevel && !stop_signal; i++) {
			int warm = round < o->warmup;

			run_one(c, &c->level[i], warm,
				warm ? round + 1 : round - o->warmup + 1);
		}
	if (stop_signal && isatty(2))
		fputc('\n', stderr);
}

/* An argument as sh(1) reads it back: quoted when it needs to be. */
static void
add_quoted(struct pv_strbuf *sb, const char *arg)
{
	static const char plain[] = "abcdefghijklmnopqrstuvwxyz"
		"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./{}-";
	const char *p;

	if (*arg != '\0' && arg[strspn(arg, plain)] == '\0') {
		pv_strbuf_addstr(sb, arg);
		return;
	}
	pv_strbuf_addch(sb, '\'');
	for (p = arg; *p != '\0'; p++) {
		if (*p == '\'')
			pv_strbuf_addstr(sb, "'\\''");
		else
			pv_strbuf_addch(sb, *p);
	}
	pv_strbuf_addch(sb, '\'');
}

static void
write_meta(FILE *out, const char *key, const char *value)
{
	pv_write_kv(out, "meta", key, value);
}

static const struct pv_symtab *sort_names;

static int
cmp_name(const void *a, const void *b)
{
	return pv_str_cmp(pv_symtab_get(sort_names, *(const uint32_t *)a),
			  pv_symtab_get(sort_names, *(const uint32_t *)b));
}

/*
 * The frame records of level l's stacks, sorted by name, as pv-parse
 * writes them: module and space as the sampler saw them, the source file
 * from DWARF, relative to --source where it lies below it.
 */
static void
write_frames(FILE *out, struct collect *c, const struct level *l)
{
	struct pv_strbuf sb = PV_STRBUF_INIT;
	/* DWARF's paths are absolute: so must the root be */
	char *root = c->opt->source != NULL ? realpath(c->opt->source, NULL) :
		NULL;
	unsigned char *used = pv_xcalloc(c->names.nsym + 1, 1);
	uint32_t *id = pv_xreallocarray(NULL, c->names.nsym + 1, sizeof(*id));
	size_t i, k, n = 0;

	for (i = 0; i < l->stacks.nstack; i++)
		for (k = 0; k < l->stacks.stack[i].nframe; k++)
			used[l->stacks.stack[i].frame[k]] = 1;
	for (i = 0; i < c->names.nsym; i++)
		if (used[i])
			id[n++] = (uint32_t)i;
	sort_names = &c->names;
	qsort(id, n, sizeof(*id), cmp_name);
	sort_names = NULL;
	for (i = 0; i < n; i++) {
		struct pv_rec_frame r;
		const char *mod, *file;
		int kernel;

		if (!pv_sampler_frame(c->sampler, id[i], root, &mod, &kernel,
				      &file))
			continue;
		memset(&r, 0, sizeof(r));
		r.name = pv_symtab_get(&c->names, id[i]);
		r.space = kernel ? (struct pv_str){ "kernel", 6 } :
			  (struct pv_str){ "user", 4 };
		r.module = (struct pv_str){ mod, strlen(mod) };
		if (file != NULL)
			r.file = (struct pv_str){ file, strlen(file) };
		pv_rec_frame_write(&sb, &r);
		if (sb.len >= 65536) {
			fwrite(sb.buf, 1, sb.len, out);
			pv_strbuf_reset(&sb);
		}
	}
	fwrite(sb.buf, 1, sb.len, out);
	pv_strbuf_release(&sb);
	free(root);
	free(used);
	free(id);
}

static void
write_section(FILE *out, struct collect *c, struct level *l)
{
	const struct options *o = c->opt;
	struct pv_strbuf sb = PV_STRBUF_INIT;
	const char *label = o->label;
	char buf[65536];
	size_t i, n;

	if (label == NULL)
		label = c->commit != NULL ? c->commit :
			pv_envinfo_get(&c->env, "kernel-release");
	pv_write_section(out, o->role, label, c->experiment);
	for (i = 0; o->argv[i] != NULL; i++) {
		if (i > 0)
			pv_strbuf_addch(&sb, ' ');
		add_quoted(&sb, o->argv[i]);
	}
	write_meta(out, "command", sb.buf);
	write_meta(out, "level", l->name != NULL ? l->name : "-");
	pv_strbuf_reset(&sb);
	pv_strbuf_addf(&sb, "%llu", (unsigned long long)o->repeat);
	write_meta(out, "repeat", sb.buf);
	pv_strbuf_reset(&sb);
	pv_strbuf_addf(&sb, "%llu", (unsigned long long)o->warmup);
	write_meta(out, "warmup-runs", sb.buf);
	write_meta(out, "parser", o->parser ? o->parser : "-");
	write_meta(out, "started", c->started);
	write_meta(out, "collection", stop_signal ? "incomplete" :
		   "complete");
	pv_strbuf_reset(&sb);
	pv_strbuf_addf(&sb, "%llu", (unsigned long long)l->ok);
	write_meta(out, "runs-ok", sb.buf);
	pv_strbuf_reset(&sb);
	pv_strbuf_addf(&sb, "%llu", (unsigned long long)l->failed);
	write_meta(out, "runs-failed", sb.buf);
	if (!c->tmp)
		write_meta(out, "artifacts", c->artdir);
	if (o->source != NULL) {
		write_meta(out, "source", o->source);
		write_meta(out, "source-commit", c->commit ? c->commit :
			   PV_ENV_UNAVAILABLE);
		write_meta(out, "source-branch", c->branch ? c->branch :
			   PV_ENV_UNAVAILABLE);
		write_meta(out, "source-modified", c->dirty ? c->dirty :
			   PV_ENV_UNAVAILABLE);
	}
	if (c->sampler != NULL) {
		pv_strbuf_reset(&sb);
		pv_strbuf_addf(&sb, "%s %llu Hz%s%s", pv_sampler_event(
				       c->sampler), (unsigned long long)
			       o->sopt.frequency, o->sopt.all_cpus ?
			       " all-cpus" : "", o->sopt.user_only ?
			       " user-only" : "");
		write_meta(out, "profile", sb.buf);
	}
	for (i = 0; i < o->nmeta; i++) {
		char *eq = strchr(o->meta[i], '=');

		pv_strbuf_reset(&sb);
		pv_strbuf_add(&sb, o->meta[i], (size_t)(eq - o->meta[i]));
		write_meta(out, sb.buf, eq + 1);
	}
	for (i = 0; i < c->env.nentry; i++)
		pv_write_kv(out, "env", c->env.entry[i].key,
			    c->env.entry[i].value);
	rewind(l->records);
	while ((n = fread(buf, 1, sizeof(buf), l->records)) > 0)
		fwrite(buf, 1, n, out);
	if (ferror(l->records))
		pv_die_errno("cannot read a temporary file");
	if (c->sampler != NULL) {
		write_frames(out, c, l);
		pv_stacktab_write(&l->stacks, &c->names, out);
	}
	pv_strbuf_release(&sb);
}

/*
 * Refuse an output file that could not be written at the end, before the
 * runs rather than after them: a directory, or one in a directory that
 * is missing or not writable.
 */
static void
check_output(const char *path)
{
	struct pv_strbuf dir = PV_STRBUF_INIT;
	const char *slash = strrchr(path, '/');
	struct stat st;

	if (*path == '\0')
		pv_die("the output file name is empty");
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		pv_die("cannot write '%s': Is a directory", path);
	if (slash == NULL)
		pv_strbuf_addch(&dir, '.');
	else if (slash == path)
		pv_strbuf_addch(&dir, '/');
	else
		pv_strbuf_add(&dir, path, (size_t)(slash - path));
	if (access(dir.buf, W_OK | X_OK) != 0)
		pv_die_errno("cannot write '%s' (directory '%s')", path,
			     dir.buf);
	pv_strbuf_release(&dir);
}

static void
write_output(struct collect *c)
{
	const struct options *o = c->opt;
	struct pv_strbuf tmp = PV_STRBUF_INIT;
	FILE *out = stdout;
	size_t i;

	if (o->output != NULL) {
		int fd;

		mode_t mask = umask(0);

		/* mkstemp's 0600, made what a new file gets: 0666 less umask */
		umask(mask);
		pv_strbuf_addf(&tmp, "%s.XXXXXX", o->output);
		if ((fd = mkstemp(tmp.buf)) < 0 ||
		    fchmod(fd, 0666 & ~mask) != 0 ||
		    (out = fdopen(fd, "w")) == NULL) {
			if (fd >= 0)
				unlink(tmp.buf);
			pv_die_errno("cannot create '%s'", tmp.buf);
		}
	}
	pv_write_version(out);
	for (i = 0; i < c->nlevel; i++)
		write_section(out, c, &c->level[i]);
	if (o->output != NULL) {
		if (fflush(out) != 0 || ferror(out) || fsync(fileno(out)) ||
		    fclose(out) != 0) {
			unlink(tmp.buf);
			pv_die_errno("cannot write '%s'", o->output);
		}
		if (rename(tmp.buf, o->output) != 0) {
			unlink(tmp.buf);
			pv_die_errno("cannot rename '%s' to '%s'", tmp.buf,
				     o->output);
		}
	}
	pv_strbuf_release(&tmp);
}

/*
 * The temporary directory of the runs' output, without --artifacts:
 * removed with what is in it however pv-collect ends (a command that
 * cannot be run, an output that cannot be written, the end).
 */
static char *tmpdir;

static void
remove_tmpdir(void)
{
	struct pv_strbuf sb = PV_STRBUF_INIT;
	struct dirent *de;
	DIR *d;

	if (tmpdir == NULL)
		return;
	if ((d = opendir(tmpdir)) != NULL) {
		while ((de = readdir(d)) != NULL) {
			if (strcmp(de->d_name, ".") == 0 ||
			    strcmp(de->d_name, "..") == 0)
				continue;
			pv_strbuf_reset(&sb);
			pv_strbuf_addf(&sb, "%s/%s", tmpdir, de->d_name);
			unlink(sb.buf);
		}
		closedir(d);
	}
	rmdir(tmpdir);
	pv_strbuf_release(&sb);
	free(tmpdir);
	tmpdir = NULL;
}

/*
 * The directory of the collection's artifacts: with --artifacts, a new
 * directory in it, EXPERIMENT-TIME (-2, -3, ... when that is taken), so
 * that a directory used again, by the next night or the next benchmark,
 * keeps what it holds; else a temporary one.
 */
static void
setup_artifacts(struct collect *c, const struct tm *tm)
{
	const char *dir = c->opt->artifacts;
	struct pv_strbuf sb = PV_STRBUF_INIT;
	char stamp[32];
	size_t base;
	int i;

	if (dir == NULL) {
		const char *t = getenv("TMPDIR");

		pv_strbuf_addf(&sb, "%s/pv-collect.XXXXXX",
			       t != NULL && *t != '\0' ? t : "/tmp");
		if (mkdtemp(sb.buf) == NULL)
			pv_die_errno("cannot create a temporary directory");
		tmpdir = pv_xstrdup(sb.buf);
		atexit(remove_tmpdir);
		c->artdir = pv_strbuf_detach(&sb, NULL);
		c->tmp = 1;
		return;
	}
	if (mkdir(dir, 0777) != 0 && errno != EEXIST)
		pv_die_errno("cannot create '%s'", dir);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", tm);
	pv_strbuf_addf(&sb, "%s/%s-%s", dir, c->experiment, stamp);
	base = sb.len;
	for (i = 2; mkdir(sb.buf, 0777) != 0; i++) {
		if (errno != EEXIST || i > 1000)
			pv_die_errno("cannot create '%s'", sb.buf);
		pv_strbuf_setlen(&sb, base);
		pv_strbuf_addf(&sb, "-%d", i);
	}
	c->artdir = pv_strbuf_detach(&sb, NULL);
}

static void
setup_env(struct collect *c)
{
	struct pv_envinfo_opts eo = { getenv("PV_COLLECT_SYSROOT"),
				      c->opt->config_ref };
	struct pv_err err;
	time_t t = time(NULL);

	pv_envinfo_init(&c->env);
	if (pv_envinfo_collect(&c->env, &eo, &err) != 0) {
		if (c->env.errline >= 0)
			pv_die_at(eo.config_ref, (unsigned long)c->env.errline,
				  "%s", pv_err_msg(&err));
		pv_die("%s", pv_err_msg(&err));
	}
	if (c->opt->source != NULL)
		pv_envinfo_git(c->opt->source, &c->commit, &c->branch,
			       &c->dirty);
	gmtime_r(&t, &c->tm);
	strftime(c->started, sizeof(c->started), "%Y-%m-%dT%H:%M:%SZ",
		 &c->tm);
}

static void
parse_args(struct options *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "repeat", required_argument, NULL, 'r' },
		{ "warmup", required_argument, NULL, 'w' },
		{ "concurrency", required_argument, NULL, 'c' },
		{ "artifacts", required_argument, NULL, 'a' },
		{ "output", required_argument, NULL, 'o' },
		{ "profile", no_argument, NULL, 'p' },
		{ "parser", required_argument, NULL, OPT_PARSER },
		{ "role", required_argument, NULL, OPT_ROLE },
		{ "label", required_argument, NULL, OPT_LABEL },
		{ "experiment", required_argument, NULL, OPT_EXPERIMENT },
		{ "source", required_argument, NULL, OPT_SOURCE },
		{ "meta", required_argument, NULL, OPT_META },
		{ "config-ref", required_argument, NULL, OPT_CONFIG_REF },
		{ "event", required_argument, NULL, OPT_EVENT },
		{ "frequency", required_argument, NULL, OPT_FREQUENCY },
		{ "all-cpus", no_argument, NULL, OPT_ALL_CPUS },
		{ "user-only", no_argument, NULL, OPT_USER_ONLY },
		{ "kernel", no_argument, NULL, OPT_KERNEL },
		{ "inline", no_argument, NULL, OPT_INLINE },
		{ "addrs", no_argument, NULL, OPT_ADDRS },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	int ch;

	/* "+": options end at the command, whose own options are its own */
	while ((ch = getopt_long(argc, argv, "+r:w:c:a:o:phV", longopts,
				 NULL)) != -1) {
		switch (ch) {
		case 'r':
			o->repeat = parse_count(optarg, "repeat count", 1);
			break;
		case 'w':
			o->warmup = parse_count(optarg, "warmup count", 0);
			break;
		case 'c':
			parse_levels(o, optarg);
			break;
		case 'a':
			o->artifacts = optarg;
			break;
		case 'o':
			o->output = optarg;
			break;
		case 'p':
			o->profile = 1;
			break;
		case OPT_PARSER:
			if (!pv_bench_known(optarg) ||
			    strcmp(optarg, "mmtests") == 0)
				pv_die("unknown parser '%s'", optarg);
			o->parser = optarg;
			break;
		case OPT_ROLE:
			/* pv-diff pairs sections by these two roles only */
			if (strcmp(optarg, "baseline") != 0 &&
			    strcmp(optarg, "target") != 0)
				pv_die("invalid role '%s': baseline or target "
				       "expected", optarg);
			o->role = optarg;
			break;
		case OPT_LABEL:
			o->label = optarg;
			break;
		case OPT_EXPERIMENT:
			if (*optarg == '\0' || strchr(optarg, '/') != NULL)
				pv_die("invalid experiment '%s'", optarg);
			o->experiment = optarg;
			break;
		case OPT_SOURCE:
			o->source = optarg;
			break;
		case OPT_META:
			if (strchr(optarg, '=') == NULL ||
			    *optarg == '=')
				pv_die("invalid --meta '%s': KEY=VALUE "
				       "expected", optarg);
			PV_GROW(o->meta, o->nmeta + 1, o->meta_alloc);
			o->meta[o->nmeta++] = optarg;
			break;
		case OPT_CONFIG_REF:
			o->config_ref = optarg;
			break;
		case OPT_EVENT:
			if (!pv_sampler_event_known(optarg))
				pv_die("unknown event '%s'", optarg);
			o->sopt.event = optarg;
			break;
		case OPT_FREQUENCY:
			o->sopt.frequency = parse_count(optarg, "frequency",
							1);
			break;
		case OPT_ALL_CPUS:
			o->sopt.all_cpus = 1;
			break;
		case OPT_USER_ONLY:
			o->sopt.user_only = 1;
			break;
		case OPT_KERNEL:
			o->sopt.annotate_kernel = 1;
			break;
		case OPT_INLINE:
			o->sopt.inline_frames = 1;
			break;
		case OPT_ADDRS:
			o->sopt.addrs = 1;
			break;
		case OPT_TIMEOUT:
			o->timeout = pv_opt_number("timeout", optarg, 0.001,
						   1e9);
			break;
		default:
			pv_opt_common(ch, usage, help);
		}
	}
	if (optind == argc) {
		pv_error("no command given");
		pv_usage_exit(usage, help, PV_EXIT_TROUBLE);
	}
	o->argv = argv + optind;
	if (o->output != NULL)
		check_output(o->output);
}

int
main(int argc, char **argv)
{
	struct options opt;
	struct collect c;
	struct sigaction sa;
	size_t i;
	int status = PV_EXIT_OK;

	pv_diag_init(argv[0]);
	memset(&opt, 0, sizeof(opt));
	opt.repeat = 5;
	opt.sopt.event = "cpu-clock";
	opt.sopt.frequency = 99;
	parse_args(&opt, argc, argv);

	memset(&c, 0, sizeof(c));
	c.opt = &opt;
	{
		const char *b = strrchr(opt.argv[0], '/');

		c.test = pv_xstrdup(b != NULL ? b + 1 : opt.argv[0]);
	}
	pv_symtab_init(&c.names);
	if (opt.profile) {
		struct pv_strbuf ks = PV_STRBUF_INIT;
		const char *root = getenv("PV_COLLECT_SYSROOT");
		struct pv_err err;
		int refused = 0;

		if (root != NULL && *root != '\0') {
			pv_strbuf_addf(&ks, "%s/proc/kallsyms", root);
			opt.sopt.kallsyms = ks.buf;
		}
		c.sampler = pv_sampler_new(&opt.sopt, &err, &refused);
		pv_strbuf_release(&ks);
		opt.sopt.kallsyms = NULL;
		if (c.sampler == NULL)
			pv_die("%s", pv_err_msg(&err));
	}
	{
		struct pv_err err;

		/* the daemons of a run stay within reach, to be ended */
		if (pv_runner_subreaper(&err) != 0)
			pv_die("%s", pv_err_msg(&err));
	}
	setup_env(&c);
	setup_levels(&c);
	setup_artifacts(&c, &c.tm);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	run_matrix(&c);
	if (stop_signal)
		pv_warn("interrupted after %llu of %llu runs: writing what "
			"was collected, marked incomplete",
			(unsigned long long)c.done,
			(unsigned long long)c.total);
	write_output(&c);

	for (i = 0; i < c.nlevel; i++) {
		if (c.level[i].failed > 0 || c.level[i].warm_failed > 0)
			status = PV_EXIT_FOUND;
		fclose(c.level[i].records);
		pv_stacktab_release(&c.level[i].stacks);
		free(c.level[i].what);
	}
	if (c.sampler != NULL && pv_sampler_lost(c.sampler) > 0)
		pv_warn("%llu sampling records lost (ring buffer full): "
			"lower --frequency", (unsigned long long)
			pv_sampler_lost(c.sampler));
	remove_tmpdir();
	free(c.artdir);
	pv_sampler_free(c.sampler);
	free(c.level);
	free(c.experiment);
	free(c.test);
	free(c.commit);
	free(c.branch);
	free(c.dirty);
	for (i = 0; i < opt.nlevel; i++)
		free(opt.level[i]);
	free(opt.level);
	free(opt.meta);
	pv_envinfo_release(&c.env);
	pv_symtab_release(&c.names);
	if (stop_signal) {
		int sig = stop_signal;

		if (fflush(stdout) != 0)
			pv_die_errno("write error");
		signal(sig, SIG_DFL);
		raise(sig);
	}
	pv_close_stdout();
	return status;
}
