/*
 * bench_mmtests: an MMTests results tree,
 *
 *   work/log/<run>/iter-<I>/<test>/logs/<files>
 *
 * for the wis-*, stressng and sysbenchcpu shellpacks.  Each <run> (the
 * name given to run-mmtests.sh, the kernel under test) becomes a section
 * whose VERSION is the run's name.  The files are the benchmarks' own
 * outputs, read by the readers of bench_wis.c, bench_stressng.c and
 * bench_sysbench.c, so that a tree and the bare outputs give the same
 * keys and, unlike MMTests, the same directions.
 *
 * RUN is the iteration, I + 1 for iter-<I>: the iterations are the
 * independent repetitions (each may be a boot).  Inside one, wis's
 * per-second lines are SEQ, and so are the inner repetitions J of
 * stressng and sysbenchcpu (stressng-<N>-<J>.log): near-copies of each
 * other, they are averaged into the iteration's value, not counted as
 * runs of their own.  A runstart record per iteration gives its order and,
 * from iter-<I>/tests-activity, when it started, so that a trend across
 * iterations, and runs made one after the other, can be seen.  Directory
 * entries are sorted (numbers by value), so the output does not depend on
 * readdir order.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench_private.h"
#include "input.h"
#include "rec_runstart.h"
#include "xalloc.h"

struct names {
	char **v;
	size_t n, alloc;
};

struct tree {
	struct pv_bench *b;
	struct pv_strbuf path;
};

static void
names_free(struct names *nm)
{
	size_t i;

	for (i = 0; i < nm->n; i++)
		free(nm->v[i]);
	free(nm->v);
	nm->v = NULL;
	nm->n = nm->alloc = 0;
}

/* Compare with digit runs taken by value: "iter-2" < "iter-10". */
static int
natcmp(const void *pa, const void *pb)
{
	const char *a = *(char *const *)pa, *b = *(char *const *)pb;

	while (*a != '\0' && *b != '\0') {
		if (*a >= '0' && *a <= '9' && *b >= '0' && *b <= '9') {
			const char *ea, *eb;

			while (*a == '0')
				a++;
			while (*b == '0')
				b++;
			for (ea = a; *ea >= '0' && *ea <= '9'; ea++)
				;
			for (eb = b; *eb >= '0' && *eb <= '9'; eb++)
				;
			if (ea - a != eb - b)
				return ea - a < eb - b ? -1 : 1;
			for (; a < ea; a++, b++)
				if (*a != *b)
					return *a < *b ? -1 : 1;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return (unsigned char)*a - (unsigned char)*b;
}

static int
is_dir(const char *path)
{
	struct stat sb;

	return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

/* The entries of dir (without . and ..), sorted; -1 on error. */
static int
list(struct tree *t, const char *dir, struct names *nm)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (d == NULL) {
		t->b->file = dir;
		t->b->lineno = 0;
		return pv_bench_fail(t->b, "cannot read the directory: %s",
				     strerror(errno));
	}
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		PV_GROW(nm->v, nm->n + 1, nm->alloc);
		nm->v[nm->n++] = pv_xstrdup(de->d_name);
	}
	closedir(d);
	if (nm->n > 0)
		qsort(nm->v, nm->n, sizeof(nm->v[0]), natcmp);
	return 0;
}

/* Parse the decimal number at s up to end (exclusive); -1 if not one. */
static int
num_span(const char *s, const char *end, uint64_t *v)
{
	return pv_parse_u64(s, (size_t)(end - s), v);
}

/*
 * One file of a test's logs/: which reader, and its options, or 0 when
 * the file is not a result (time-*, models, workloads, monitors).
 */
static const struct bench_reader *
classify(const char *test, const char *file, struct pv_bench_opts *o,
	 struct pv_strbuf *name)
{
	size_t len = strlen(file);
	const char *dash;
	uint64_t n, j;

	pv_strbuf_reset(name);
	if (strncmp(test, "wis", 3) == 0 &&
	    strncmp(file, "benchlog-", 9) == 0) {
		/* benchlog-<workload>_<model>-<N> */
		dash = strrchr(file, '-');
		if (dash == file + 8 || num_span(dash + 1, file + len, &n) < 0)
			return NULL;
		pv_strbuf_add(name, file + 9, (size_t)(dash - file - 9));
		o->test = name->buf;
		o->level = n;
		return &pv_bench_wis;
	}
	if (strcmp(test, "stressng") == 0 &&
	    strncmp(file, "stressng-", 9) == 0 && len > 13 &&
	    strcmp(file + len - 4, ".log") == 0) {
		/* stressng-<N>-<J>.log */
		dash = strchr(file + 9, '-');
		if (dash == NULL || num_span(file + 9, dash, &n) < 0 ||
		    num_span(dash + 1, file + len - 4, &j) < 0)
			return NULL;
		o->level = n;
		o->seq = j;
		return &pv_bench_stressng;
	}
	if (strcmp(test, "sysbenchcpu") == 0 &&
	    strncmp(file, "benchlog-", 9) == 0) {
		/* benchlog-<N>-_-<J> */
		dash = strstr(file + 9, "-_-");
		if (dash == NULL || num_span(file + 9, dash, &n) < 0 ||
		    num_span(dash + 3, file + len, &j) < 0)
			return NULL;
		o->level = n;
		o->test = "cpu";
		o->seq = j;
		return &pv_bench_sysbench;
	}
	return NULL;
}

static int
known_test(const char *test)
{
	return strncmp(test, "wis", 3) == 0 || strcmp(test, "stressng") == 0 ||
	       strcmp(test, "sysbenchcpu") == 0;
}

static int
read_test(struct tree *t, const char *logs, const char *test, uint64_t run)
{
	struct names files = { NULL, 0, 0 };
	struct pv_strbuf name = PV_STRBUF_INIT;
	struct pv_strbuf path = PV_STRBUF_INIT;
	size_t i;
	int rc = 0;

	if (list(t, logs, &files) < 0)
		return -1;
	for (i = 0; i < files.n && rc == 0; i++) {
		struct pv_bench_opts o = PV_BENCH_OPTS_INIT;
		const struct bench_reader *rd;

		rd = classify(test, files.v[i], &o, &name);
		if (rd == NULL)
			continue;
		o.run = run;
		o.name = NULL;
		pv_strbuf_reset(&path);
		pv_strbuf_addf(&path, "%s/%s", logs, files.v[i]);
		rc = pv_bench_feed_file(t->b, rd, path.buf, &o);
	}
	pv_strbuf_release(&name);
	pv_strbuf_release(&path);
	names_free(&files);
	return rc;
}

/*
 * When iteration dir started: the epoch of the first line of its
 * tests-activity ("<epoch> run-mmtests: Start"), NaN if there is none.
 */
static double
iteration_start(const char *dir)
{
	struct pv_strbuf p = PV_STRBUF_INIT;
	struct pv_input *in;
	double start = NAN;
	char *line;
	size_t len;

	pv_strbuf_addf(&p, "%s/tests-activity", dir);
	in = pv_input_open(p.buf);
	pv_strbuf_release(&p);
	if (in == NULL)
		return NAN;
	if (pv_input_getline(in, &line, &len) > 0) {
		size_t n = 0;
		uint64_t v;

		while (n < len && line[n] >= '0' && line[n] <= '9')
			n++;
		if (n > 0 && n < len && line[n] == ' ' &&
		    pv_parse_u64(line, n, &v) == 0)
			start = (double)v;
	}
	pv_input_close(in);
	return start;
}

static int
read_run(struct tree *t, const char *rundir, const char *run)
{
	struct names iters = { NULL, 0, 0 }, tests = { NULL, 0, 0 };
	struct pv_strbuf p = PV_STRBUF_INIT;
	struct pv_bench *b = t->b;
	size_t i, k;
	int rc = 0;

	if (list(t, rundir, &iters) < 0)
		return -1;
	pv_write_section(b->out, b->opts.role,
			 b->opts.version != NULL ? b->opts.version : run,
			 b->opts.experiment);
	pv_bench_kv_forget(b);
	/*
	 * The run's name is the section's VERSION, and no meta record: a
	 * fact that differs between runs by definition would make pv-diff
	 * refuse every pair of them as measured under other conditions.
	 */
	for (i = 0; i < iters.n && rc == 0; i++) {
		struct pv_runstart rs;
		struct pv_strbuf rec = PV_STRBUF_INIT;
		uint64_t iter;

		if (strncmp(iters.v[i], "iter-", 5) != 0 ||
		    pv_parse_u64(iters.v[i] + 5, strlen(iters.v[i] + 5),
				 &iter) < 0 || iter >= PV_NONE - 1)
			continue;
		pv_strbuf_reset(&p);
		pv_strbuf_addf(&p, "%s/%s", rundir, iters.v[i]);
		if (!is_dir(p.buf))
			continue;
		rs.run = iter + 1;
		rs.order = iter + 1;
		rs.start = iteration_start(p.buf);
		pv_rec_runstart_write(&rec, &rs);
		fwrite(rec.buf, 1, rec.len, b->out);
		pv_strbuf_release(&rec);
		names_free(&tests);
		if (list(t, p.buf, &tests) < 0) {
			rc = -1;
			break;
		}
		for (k = 0; k < tests.n && rc == 0; k++) {
			pv_strbuf_reset(&p);
			pv_strbuf_addf(&p, "%s/%s/%s/logs", rundir,
				       iters.v[i], tests.v[k]);
			if (!is_dir(p.buf))
				continue;
			if (!known_test(tests.v[k])) {
				if (i == 0) {
					/* name the test's directory */
					pv_strbuf_setlen(&p, p.len - 5);
					b->file = p.buf;
					b->lineno = 0;
					pv_bench_warn(b, "MMTests test '%s' "
						      "has no reader; "
						      "skipped", tests.v[k]);
					b->file = NULL;
				}
				continue;
			}
			rc = read_test(t, p.buf, tests.v[k], iter + 1);
		}
	}
	names_free(&iters);
	names_free(&tests);
	pv_strbuf_release(&p);
	return rc;
}

/* Whether dir holds iter-* directories: a single run. */
static int
is_run(const char *dir)
{
	struct pv_strbuf p = PV_STRBUF_INIT;
	int r;

	pv_strbuf_addf(&p, "%s/iter-0", dir);
	r = is_dir(p.buf);
	pv_strbuf_release(&p);
	return r;
}

int
pv_bench_read_tree(struct pv_bench *b, const char *dir)
{
	struct tree t;
	struct names runs = { NULL, 0, 0 };
	struct pv_strbuf root = PV_STRBUF_INIT, p = PV_STRBUF_INIT;
	size_t i;
	int rc = 0;

	if (b->failed)
		return -1;
	if (b->rd->line != NULL)
		return pv_bench_fail(b, "format '%s' is not a tree format",
				     b->rd->name);
	memset(&t, 0, sizeof(t));
	t.b = b;
	pv_strbuf_addstr(&root, dir);
	while (root.len > 1 && root.buf[root.len - 1] == '/')
		pv_strbuf_setlen(&root, root.len - 1);
	pv_strbuf_addf(&p, "%s/work/log", root.buf);
	if (is_dir(p.buf)) {
		pv_strbuf_reset(&root);
		pv_strbuf_add(&root, p.buf, p.len);
	}
	if (is_run(root.buf)) {
		const char *slash = strrchr(root.buf, '/');

		rc = read_run(&t, root.buf, slash ? slash + 1 : root.buf);
	} else if (list(&t, root.buf, &runs) < 0) {
		rc = -1;
	} else {
		for (i = 0; i < runs.n && rc == 0; i++) {
			pv_strbuf_reset(&p);
			pv_strbuf_addf(&p, "%s/%s", root.buf, runs.v[i]);
			if (is_run(p.buf))
				rc = read_run(&t, p.buf, runs.v[i]);
		}
	}
	if (rc == 0 && b->nsamples == 0) {
		b->file = NULL;
		b->lineno = 0;
		pv_strbuf_reset(&b->errfile);
		pv_strbuf_addstr(&b->errfile, dir);
		rc = pv_bench_fail(b, "no MMTests results of wis, stressng or "
				   "sysbenchcpu under the directory");
	}
	b->file = NULL;
	names_free(&runs);
	pv_strbuf_release(&root);
	pv_strbuf_release(&p);
	return rc;
}
