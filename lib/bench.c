/*
 * bench: the dispatcher of the benchmark readers (see bench.h) and the
 * helpers they share: writing records, scanning words and numbers, and
 * errors held in the handle.  The readers themselves live in bench_*.c,
 * one file per benchmark.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_private.h"
#include "input.h"
#include "rec_primary.h"
#include "xalloc.h"

static const struct bench_reader *const readers[] = {
	&pv_bench_stressng,
	&pv_bench_wis,
	&pv_bench_sysbench,
	&pv_bench_unixbench,
	&pv_bench_generic,
};

#define NREADERS (sizeof(readers) / sizeof(readers[0]))

/* The tree reader has no line reader of its own. */
static const struct bench_reader mmtests_reader = {
	"mmtests", "mmtests", NULL, NULL, NULL, NULL, NULL
};

static const struct bench_reader *
find_reader(const char *format)
{
	size_t i;

	if (format == NULL)
		return NULL;
	if (strcmp(format, mmtests_reader.name) == 0)
		return &mmtests_reader;
	for (i = 0; i < NREADERS; i++)
		if (strcmp(format, readers[i]->name) == 0)
			return readers[i];
	return NULL;
}

int
pv_bench_known(const char *format)
{
	return find_reader(format) != NULL;
}

int
pv_bench_prefix(const char *s, size_t len, const char *p)
{
	size_t n = strlen(p);

	return len >= n && memcmp(s, p, n) == 0;
}

size_t
pv_bench_skipws(const char *s, size_t len, size_t i)
{
	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return i;
}

size_t
pv_bench_words(const char *s, size_t len, struct pv_str *w, size_t max)
{
	size_t i = 0, n = 0;

	for (;;) {
		size_t start;

		i = pv_bench_skipws(s, len, i);
		if (i == len)
			break;
		start = i;
		while (i < len && s[i] != ' ' && s[i] != '\t')
			i++;
		if (n < max) {
			w[n].s = s + start;
			w[n].len = i - start;
		}
		n++;
	}
	return n;
}

/* Does the line look like "NUMBER ..." for the generic form? */
static int
is_number(const char *s, size_t len)
{
	double v;

	return pv_parse_double(s, len, &v) == 0;
}

static int
all_hashes(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (s[i] != '#')
			return 0;
	return 1;
}

const char *
pv_bench_detect(const char *line, size_t len)
{
	struct pv_str w[8];
	size_t n;

	while (len > 0 && (line[len - 1] == '\r' || line[len - 1] == ' '))
		len--;
	if (pv_bench_prefix(line, len, "stress-ng: ") ||
	    (len == 3 && memcmp(line, "---", 3) == 0) ||
	    pv_bench_prefix(line, len, "system-info:"))
		return "stress-ng";
	if (pv_bench_prefix(line, len, "testcase:") ||
	    pv_bench_prefix(line, len, "tasks,processes,processes_idle,") ||
	    (len == 11 && memcmp(line, "measurement", 11) == 0) ||
	    (len == 6 && memcmp(line, "warmup", 6) == 0))
		return "will-it-scale";
	if (pv_bench_prefix(line, len, "sysbench ") && len > 9 &&
	    line[9] >= '0' && line[9] <= '9')
		return "sysbench";
	if (len >= 40 && all_hashes(line, len))	/* Run's .log */
		return "unixbench";
	if (pv_bench_prefix(line, len, "COUNT|") ||
	    pv_bench_prefix(line, len, "Benchmark Run: "))
		return "unixbench";
	n = pv_bench_skipws(line, len, 0);
	if (pv_bench_prefix(line + n, len - n, "BYTE UNIX Benchmarks"))
		return "unixbench";
	if (pv_bench_prefix(line, len, "meta ") ||
	    pv_bench_prefix(line, len, "env "))
		return "generic";
	n = pv_bench_words(line, len, w, 8);
	if (n >= 4 && n <= 7 && is_number(w[1].s, w[1].len) &&
	    (pv_str_eq(w[3], "higher") || pv_str_eq(w[3], "lower")))
		return "generic";
	return NULL;
}

struct pv_bench *
pv_bench_new(const char *format, const struct pv_bench_opts *opts,
	     FILE *out)
{
	const struct bench_reader *rd = find_reader(format);
	struct pv_bench *b;

	if (rd == NULL)
		return NULL;
	b = pv_xcalloc(1, sizeof(*b));
	b->rd = rd;
	if (opts != NULL) {
		b->opts = *opts;
	} else {
		struct pv_bench_opts o = PV_BENCH_OPTS_INIT;

		b->opts = o;
	}
	b->out = out;
	pv_strbuf_init(&b->line, 0);
	pv_strbuf_init(&b->errfile, 0);
	pv_symtab_init(&b->kvseen);
	pv_strbuf_init(&b->kvkey, 0);
	if (rd != &mmtests_reader && (b->opts.role != NULL ||
	    b->opts.version != NULL || b->opts.experiment != NULL))
		pv_write_section(out, b->opts.role, b->opts.version,
				 b->opts.experiment);
	if (rd->init != NULL)
		b->state = rd->init(b);
	return b;
}

void
pv_bench_free(struct pv_bench *b)
{
	if (b == NULL)
		return;
	if (b->rd->free != NULL)
		b->rd->free(b->state);
	pv_strbuf_release(&b->line);
	pv_strbuf_release(&b->errfile);
	pv_symtab_release(&b->kvseen);
	pv_strbuf_release(&b->kvkey);
	free(b);
}

int
pv_bench_fail(struct pv_bench *b, const char *fmt, ...)
{
	va_list ap;

	if (b->failed)
		return -1;
	va_start(ap, fmt);
	pv_err_vset(&b->err, fmt, ap);
	va_end(ap);
	b->errline = b->lineno;
	if (b->file != NULL) {
		pv_strbuf_reset(&b->errfile);
		pv_strbuf_addstr(&b->errfile, b->file);
	}
	b->failed = 1;
	return -1;
}

void
pv_bench_warn(struct pv_bench *b, const char *fmt, ...)
{
	struct pv_strbuf msg = PV_STRBUF_INIT;
	va_list ap;

	if (b->opts.warn == NULL)
		return;
	va_start(ap, fmt);
	pv_strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	b->opts.warn(b->opts.warn_arg, b->file ? b->file : b->opts.name,
		     b->lineno, msg.buf);
	pv_strbuf_release(&msg);
}

const char *
pv_bench_error(const struct pv_bench *b)
{
	return pv_err_msg(&b->err);
}

const char *
pv_bench_error_file(const struct pv_bench *b)
{
	return b->errfile.len ? b->errfile.buf : NULL;
}

unsigned long
pv_bench_error_line(const struct pv_bench *b)
{
	return b->errline;
}

uint64_t
pv_bench_samples(const struct pv_bench *b)
{
	return b->nsamples;
}

const char *
pv_bench_suite(const struct pv_bench *b)
{
	return b->opts.suite != NULL ? b->opts.suite : b->rd->suite;
}

uint64_t
pv_bench_last_run(const struct pv_bench *b)
{
	return b->last_run;
}

uint64_t
pv_bench_run0(const struct pv_bench *b)
{
	return b->opts.run != PV_NONE ? b->opts.run : 1;
}

static struct pv_str
str_or_dash(const char *s)
{
	struct pv_str r;

	if (s == NULL || *s == '\0')
		s = "-";
	r.s = s;
	r.len = strlen(s);
	return r;
}

/*
 * A primary record, once a section: the seen entries are the meta and env
 * records' (pv_bench_kvn()), with "primary" for their type.
 */
static void
primary(struct pv_bench *b, struct pv_str suite, struct pv_str test,
	struct pv_str op, struct pv_str metric)
{
	struct pv_bench *root = b->parent != NULL ? b->parent : b;
	struct pv_strbuf *k = &root->kvkey, rec = PV_STRBUF_INIT;
	size_t n = root->kvseen.nsym;
	struct pv_primary p;

	pv_strbuf_reset(k);
	pv_strbuf_addstr(k, "primary");
	pv_strbuf_addch(k, '\0');
	pv_strbuf_add(k, suite.s, suite.len);
	pv_strbuf_addch(k, '\0');
	pv_strbuf_add(k, test.s, test.len);
	pv_strbuf_addch(k, '\0');
	pv_strbuf_add(k, op.s, op.len);
	pv_strbuf_addch(k, '\0');
	pv_strbuf_add(k, metric.s, metric.len);
	pv_symtab_intern(&root->kvseen, k->buf, k->len);
	if (root->kvseen.nsym == n)
		return;		/* named already in this section */
	p.suite = suite;
	p.test = test;
	p.operation = op;
	p.metric = metric;
	pv_rec_primary_write(&rec, &p);
	fwrite(rec.buf, 1, rec.len, b->out);
	pv_strbuf_release(&rec);
}

void
pv_bench_sample(struct pv_bench *b, const char *test, const char *op,
		const char *metric, const char *unit, enum pv_direction dir,
		uint64_t level, uint64_t run, uint64_t seq, double v)
{
	pv_bench_sample_in(b, pv_bench_suite(b), test, op, metric, unit, dir,
			   level, run, seq, v);
}

void
pv_bench_sample_in(struct pv_bench *b, const char *suite, const char *test,
		   const char *op, const char *metric, const char *unit,
		   enum pv_direction dir, uint64_t level, uint64_t run,
		   uint64_t seq, double v)
{
	struct pv_record rec;

	memset(&rec, 0, sizeof(rec));
	rec.type = PV_REC_SAMPLE;
	rec.suite = str_or_dash(suite);
	rec.test = str_or_dash(test);
	rec.operation = str_or_dash(op);
	rec.metric = str_or_dash(metric);
	rec.unit = str_or_dash(unit);
	rec.direction = dir;
	rec.level = level;
	rec.run = run;
	rec.seq = seq != PV_NONE ? seq : b->opts.seq;
	rec.val = v == 0 ? 0 : v;	/* no "-0" */
	if (b->rd->primary != NULL && b->rd->primary(test, op, metric))
		primary(b, rec.suite, rec.test, rec.operation, rec.metric);
	pv_write_sample(b->out, &rec);
	b->nsamples++;
	if (run != PV_NONE && run > b->last_run)
		b->last_run = run;
	if (b->parent != NULL) {
		b->parent->nsamples++;
		if (b->last_run > b->parent->last_run)
			b->parent->last_run = b->last_run;
	}
}

void
pv_bench_kvn(struct pv_bench *b, const char *type, const char *key,
	     const char *value, size_t len)
{
	struct pv_bench *root = b->parent != NULL ? b->parent : b;
	struct pv_strbuf *k = &root->kvkey;
	size_t n = root->kvseen.nsym;
	char *v;

	pv_strbuf_reset(k);
	pv_strbuf_addstr(k, type);
	pv_strbuf_addch(k, '\0');
	pv_strbuf_addstr(k, key);
	pv_strbuf_addch(k, '\0');
	pv_strbuf_add(k, value, len);
	pv_symtab_intern(&root->kvseen, k->buf, k->len);
	if (root->kvseen.nsym == n)
		return;		/* written already in this section */
	v = pv_xmemdup(value, len);
	pv_write_kv(b->out, type, key, v);
	free(v);
}

void
pv_bench_kv_forget(struct pv_bench *b)
{
	pv_symtab_release(&b->kvseen);
	pv_symtab_init(&b->kvseen);
}

void
pv_bench_kv(struct pv_bench *b, const char *type, const char *key,
	    const char *value)
{
	pv_bench_kvn(b, type, key, value, strlen(value));
}

int
pv_bench_num(struct pv_bench *b, const char *what, const char *s,
	     size_t len, double *v)
{
	if (pv_parse_double(s, len, v) == 0)
		return 0;
	return pv_bench_fail(b, "%s '%.*s' is not %s", what,
			     (int)(len > 40 ? 40 : len), s,
			     pv_double_fault(s, len));
}

int
pv_bench_u64(struct pv_bench *b, const char *what, const char *s,
	     size_t len, uint64_t *v)
{
	if (pv_parse_u64(s, len, v) == 0)
		return 0;
	return pv_bench_fail(b, "%s '%.*s' is not a whole number", what,
			     (int)(len > 40 ? 40 : len), s);
}

int
pv_bench_line(struct pv_bench *b, const char *line, size_t len)
{
	if (b->failed)
		return -1;
	b->lineno++;
	if (b->rd->line == NULL)
		return pv_bench_fail(b, "format '%s' reads a directory, "
				     "not lines", b->rd->name);
	while (len > 0 && (line[len - 1] == '\r' || line[len - 1] == ' ' ||
			   line[len - 1] == '\t' || line[len - 1] == '\n'))
		len--;
	pv_strbuf_reset(&b->line);
	pv_strbuf_add(&b->line, line, len);
	if (memchr(b->line.buf, '\0', len) != NULL)
		return pv_bench_fail(b, "NUL byte in the line");
	return b->rd->line(b, b->state, b->line.buf, len);
}

int
pv_bench_finish(struct pv_bench *b)
{
	if (b->failed)
		return -1;
	if (b->finished)
		return 0;
	b->finished = 1;
	if (b->rd->finish != NULL && b->rd->finish(b, b->state) < 0)
		return -1;
	return 0;
}

int
pv_bench_feed_file(struct pv_bench *b, const struct bench_reader *rd,
		   const char *path, const struct pv_bench_opts *o)
{
	struct pv_bench child;
	struct pv_input *in;
	char *line;
	size_t len;
	int rc = 0;

	in = pv_input_open(path);
	if (in == NULL) {
		b->file = path;
		b->lineno = 0;
		return pv_bench_fail(b, "cannot open: %s", strerror(errno));
	}
	memset(&child, 0, sizeof(child));
	child.rd = rd;
	child.opts = *o;
	child.opts.role = child.opts.version = child.opts.experiment = NULL;
	child.opts.warn = b->opts.warn;
	child.opts.warn_arg = b->opts.warn_arg;
	child.out = b->out;
	child.file = path;
	child.parent = b;
	pv_strbuf_init(&child.line, 0);
	pv_strbuf_init(&child.errfile, 0);
	child.state = rd->init(&child);
	for (;;) {
		int r = pv_input_getline(in, &line, &len);

		if (r == 0)
			break;
		if (r < 0) {
			child.lineno++;
			pv_bench_fail(&child, "%s", pv_input_error(in));
			rc = -1;
			break;
		}
		if (pv_bench_line(&child, line, len) < 0) {
			rc = -1;
			break;
		}
	}
	if (rc == 0 && pv_bench_finish(&child) < 0)
		rc = -1;
	if (rc < 0) {
		b->err = child.err;
		pv_strbuf_reset(&b->errfile);
		pv_strbuf_addstr(&b->errfile, path);
		b->errline = child.errline;
		b->failed = 1;
	}
	pv_input_close(in);
	child.file = NULL;
	child.parent = NULL;
	child.rd->free(child.state);
	pv_strbuf_release(&child.line);
	pv_strbuf_release(&child.errfile);
	return rc;
}
