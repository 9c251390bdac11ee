/*
 * bench_stressng: stress-ng's --yaml document and its --metrics-brief /
 * --metrics table (printed on stderr through pr_inf, every line prefixed
 * "stress-ng: <tag>: [<pid>] ").  Both may come in one input, as in
 * MMTests' stressng logs (stdout and stderr together).
 *
 * Table rows are recognised by their content, not by their position:
 * "<stressor> <whole bogo ops> <real> <usr> <sys> <ops/s real> <ops/s
 * usr+sys> [<cpu %> [<rss KB>]]".  Lines around the table (the trailers
 * of newer versions, stressor-specific metrics) are skipped.  The number
 * of instances, the concurrency level, comes from "dispatching hogs: N
 * name, ..." where the input has it.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "bench_private.h"
#include "xalloc.h"

enum yaml_part { Y_NONE, Y_SYSINFO, Y_METRICS, Y_OTHER };

struct hog {
	char *name;
	uint64_t n;
	int warned;	/* about a different --level */
};

struct sng {
	enum yaml_part part;
	struct pv_strbuf stressor;	/* the current YAML metrics item */
	int in_table;			/* a table header was seen */
	unsigned long header_line;	/* and where */
	uint64_t header_rows;		/* rows since that header */
	uint64_t run;
	int emitted;			/* samples written in this run */
	struct hog *hog;
	size_t nhog, hog_alloc;
};

/* system-info keys kept, and the record they become */
static const struct {
	const char *key, *type, *name;
} sysinfo_keys[] = {
	{ "stress-ng-version", "meta", "stress-ng-version" },
	{ "compiler", "meta", "stress-ng-compiler" },
	{ "hostname", "env", "hostname" },
	{ "sysname", "env", "sysname" },
	{ "release", "env", "os-release" },
	{ "version", "env", "kernel-version" },
	{ "machine", "env", "arch" },
	{ "cpus", "env", "nrcpus-avail" },
	{ "cpus-online", "env", "nrcpus-online" },
	{ "pagesize", "env", "pagesize" },
	{ "totalram", "env", "total-memory" },
};

/*
 * Per-instance metrics that become samples; the times and CPU usage are
 * not samples (under --timeout the times are set by the run, not
 * measured), see pv-bench(7).
 */
static const struct {
	const char *key, *op, *unit;
	enum pv_direction dir;
} metric_keys[] = {
	{ "bogo-ops-per-second-real-time", "bogo-ops", "bogo-ops/s",
	  PV_HIGHER_BETTER },
	{ "bogo-ops-per-second-usr-sys-time", "bogo-ops", "bogo-ops/s",
	  PV_HIGHER_BETTER },
	{ "max-rss", "memory", "KiB", PV_LOWER_BETTER },
};

static const char *const skipped_keys[] = {
	"stressor", "bogo-ops", "wall-clock-time", "user-time", "system-time",
	"cpu-usage-per-instance",
};

static void *
sng_init(struct pv_bench *b)
{
	struct sng *st = pv_xcalloc(1, sizeof(*st));

	pv_strbuf_init(&st->stressor, 0);
	st->run = pv_bench_run0(b);
	return st;
}

static void
sng_free(void *state)
{
	struct sng *st = state;
	size_t i;

	if (st == NULL)
		return;
	for (i = 0; i < st->nhog; i++)
		free(st->hog[i].name);
	free(st->hog);
	pv_strbuf_release(&st->stressor);
	free(st);
}

/* A new YAML document or table after samples: the next repetition. */
static void
next_run(struct sng *st)
{
	if (st->emitted) {
		st->run++;
		st->emitted = 0;
	}
}

static uint64_t
level_of(struct pv_bench *b, struct sng *st, const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < st->nhog; i++) {
		if (strlen(st->hog[i].name) == len &&
		    memcmp(st->hog[i].name, name, len) == 0) {
			if (b->opts.level != PV_NONE &&
			    b->opts.level != st->hog[i].n &&
			    !st->hog[i].warned++)
				pv_bench_warn(b, "level %llu given, but the "
					      "output runs %llu '%s' "
					      "instances; using %llu",
					      (unsigned long long)b->opts.level,
					      (unsigned long long)st->hog[i].n,
					      st->hog[i].name,
					      (unsigned long long)st->hog[i].n);
			return st->hog[i].n;
		}
	}
	return b->opts.level;
}

/* Direction of a stressor-specific metric, from its name, or -1. */
static int
extra_direction(const char *key)
{
	if (strstr(key, "-per-sec") != NULL)
		return PV_HIGHER_BETTER;
	if (strstr(key, "nanosec") != NULL || strstr(key, "microsec") != NULL
	    || strstr(key, "millisec") != NULL ||
	    strstr(key, "latency") != NULL)
		return PV_LOWER_BETTER;
	return -1;
}

static void
emit(struct pv_bench *b, struct sng *st, const char *stressor,
     size_t slen, const char *op, const char *metric, const char *unit,
     enum pv_direction dir, double v)
{
	char *name = pv_xmemdup(stressor, slen);

	pv_bench_sample(b, name, op, metric, unit, dir,
			level_of(b, st, stressor, slen), st->run, PV_NONE, v);
	st->emitted = 1;
	free(name);
}

/* "      key: value" inside system-info or a metrics item */
static int
yaml_kv(struct pv_bench *b, struct sng *st, const char *s, size_t len)
{
	size_t i = pv_bench_skipws(s, len, 0), k, v, vlen;
	char *key;
	int item = 0;
	double num;
	size_t j;

	if (st->part == Y_METRICS && i < len && s[i] == '-') {
		item = 1;
		i = pv_bench_skipws(s, len, i + 1);
	}
	k = i;
	while (i < len && s[i] != ':')
		i++;
	if (i == len)
		return 0;	/* not a key: skip */
	key = pv_xmemdup(s + k, i - k);
	v = pv_bench_skipws(s, len, i + 1);
	vlen = len - v;
	if (vlen >= 2 && (s[v] == '\'' || s[v] == '"') &&
	    s[v + vlen - 1] == s[v]) {
		v++;
		vlen -= 2;
	}
	if (st->part == Y_SYSINFO) {
		for (j = 0; j < sizeof(sysinfo_keys) / sizeof(sysinfo_keys[0]);
		     j++) {
			if (strcmp(key, sysinfo_keys[j].key) != 0)
				continue;
			if (strcmp(key, "totalram") == 0) {
				struct pv_strbuf kb = PV_STRBUF_INIT;
				uint64_t bytes;

				if (pv_bench_u64(b, "totalram", s + v, vlen,
						 &bytes) < 0) {
					free(key);
					return -1;
				}
				pv_strbuf_addf(&kb, "%llu kB",
					       (unsigned long long)
					       (bytes / 1024));
				pv_bench_kv(b, sysinfo_keys[j].type,
					    sysinfo_keys[j].name, kb.buf);
				pv_strbuf_release(&kb);
			} else {
				pv_bench_kvn(b, sysinfo_keys[j].type,
					     sysinfo_keys[j].name, s + v, vlen);
			}
		}
		free(key);
		return 0;
	}
	if (st->part != Y_METRICS) {
		free(key);
		return 0;
	}
	if (strcmp(key, "stressor") == 0) {
		pv_strbuf_reset(&st->stressor);
		pv_strbuf_add(&st->stressor, s + v, vlen);
		free(key);
		if (vlen == 0)
			return pv_bench_fail(b, "empty stressor name");
		return 0;
	}
	if (item || st->stressor.len == 0) {
		free(key);
		return pv_bench_fail(b, "metrics item does not start with "
				     "'stressor:'");
	}
	for (j = 0; j < sizeof(skipped_keys) / sizeof(skipped_keys[0]); j++)
		if (strcmp(key, skipped_keys[j]) == 0)
			break;
	if (j < sizeof(skipped_keys) / sizeof(skipped_keys[0])) {
		/* checked all the same: a bad value is a bad input */
		free(key);
		return pv_bench_num(b, "value", s + v, vlen, &num);
	}
	if (pv_bench_num(b, key, s + v, vlen, &num) < 0) {
		free(key);
		return -1;
	}
	for (j = 0; j < sizeof(metric_keys) / sizeof(metric_keys[0]); j++) {
		if (strcmp(key, metric_keys[j].key) == 0) {
			emit(b, st, st->stressor.buf, st->stressor.len,
			     metric_keys[j].op, key, metric_keys[j].unit,
			     metric_keys[j].dir, num);
			free(key);
			return 0;
		}
	}
	if (extra_direction(key) >= 0)
		emit(b, st, st->stressor.buf, st->stressor.len, key, key, "-",
		     (enum pv_direction)extra_direction(key), num);
	else
		pv_bench_warn(b, "stress-ng metric '%s' has no known "
			      "direction; skipped", key);
	free(key);
	return 0;
}

/* "dispatching hogs: 2 futex, 1 cpu" */
static int
hogs(struct pv_bench *b, struct sng *st, const char *s, size_t len)
{
	struct pv_str w[64];
	size_t n = pv_bench_words(s, len, w, 64), i;

	/* a new invocation: its own instance counts */
	for (i = 0; i < st->nhog; i++)
		free(st->hog[i].name);
	st->nhog = 0;
	for (i = 2; i + 1 < n && i + 1 < 64; i += 2) {
		uint64_t cnt;
		size_t nl = w[i + 1].len;

		if (pv_bench_u64(b, "instance count", w[i].s, w[i].len,
				 &cnt) < 0)
			return -1;
		if (nl > 0 && w[i + 1].s[nl - 1] == ',')
			nl--;
		PV_GROW(st->hog, st->nhog + 1, st->hog_alloc);
		st->hog[st->nhog].name = pv_xmemdup(w[i + 1].s, nl);
		st->hog[st->nhog].n = cnt;
		st->hog[st->nhog].warned = 0;
		st->nhog++;
	}
	return 0;
}

static int
is_digits(struct pv_str w)
{
	size_t i;

	if (w.len == 0)
		return 0;
	for (i = 0; i < w.len; i++)
		if (w.s[i] < '0' || w.s[i] > '9')
			return 0;
	return 1;
}

/* The text of a "stress-ng: <tag>: [<pid>] text" line. */
static int
table_line(struct pv_bench *b, struct sng *st, const char *s, size_t len)
{
	struct pv_str w[10];
	size_t i = pv_bench_skipws(s, len, strlen("stress-ng:")), n, k;
	double v[8];

	while (i < len && s[i] != ' ')		/* the tag */
		i++;
	i = pv_bench_skipws(s, len, i);
	if (i < len && s[i] == '[') {
		while (i < len && s[i] != ']')
			i++;
		if (i < len)		/* past the ']', if there is one */
			i++;
		i = pv_bench_skipws(s, len, i);
	}
	s += i;
	len -= i;
	if (pv_bench_prefix(s, len, "dispatching hogs:")) {
		next_run(st);
		return hogs(b, st, s, len);
	}
	if (pv_bench_prefix(s, len, "setting to a ") &&
	    len > 13 + 17 &&
	    memcmp(s + len - 17, " run per stressor", 17) == 0) {
		pv_bench_kvn(b, "meta", "stress-ng-timeout", s + 13,
			     len - 13 - 17);
		return 0;
	}
	n = pv_bench_words(s, len, w, 10);
	if (n >= 2 && pv_str_eq(w[0], "stressor") &&
	    pv_bench_prefix(w[1].s, len - (size_t)(w[1].s - s), "bogo ops")) {
		if (st->in_table && st->header_rows > 0)
			next_run(st);
		st->in_table = 1;
		st->header_line = b->lineno;
		st->header_rows = 0;
		return 0;
	}
	if (!st->in_table || n < 2 || !is_digits(w[1]) ||
	    w[0].s[w[0].len - 1] == ':')
		return 0;
	if (n < 7 || n > 9)
		return pv_bench_fail(b, "stress-ng table row has %zu fields, "
				     "expected 7 to 9", n);
	for (k = 1; k < n; k++)
		if (pv_bench_num(b, "value", w[k].s, w[k].len, &v[k - 1]) < 0)
			return -1;
	emit(b, st, w[0].s, w[0].len, "bogo-ops",
	     "bogo-ops-per-second-real-time", "bogo-ops/s", PV_HIGHER_BETTER,
	     v[4]);
	emit(b, st, w[0].s, w[0].len, "bogo-ops",
	     "bogo-ops-per-second-usr-sys-time", "bogo-ops/s",
	     PV_HIGHER_BETTER, v[5]);
	if (n == 9)
		emit(b, st, w[0].s, w[0].len, "memory", "max-rss", "KiB",
		     PV_LOWER_BETTER, v[7]);
	st->header_rows++;
	return 0;
}

static int
sng_line(struct pv_bench *b, void *state, const char *s, size_t len)
{
	struct sng *st = state;

	if (pv_bench_prefix(s, len, "stress-ng:"))
		return table_line(b, st, s, len);
	if (len == 0 || s[0] == '#')
		return 0;
	if (len == 3 && memcmp(s, "---", 3) == 0) {
		next_run(st);
		st->part = Y_NONE;
		return 0;
	}
	if (len == 3 && memcmp(s, "...", 3) == 0) {
		st->part = Y_NONE;
		return 0;
	}
	if (s[0] != ' ' && s[0] != '\t') {
		pv_strbuf_reset(&st->stressor);
		if (pv_bench_prefix(s, len, "system-info:"))
			st->part = Y_SYSINFO;
		else if (pv_bench_prefix(s, len, "metrics:"))
			st->part = Y_METRICS;
		else
			st->part = Y_OTHER;
		return 0;
	}
	return yaml_kv(b, st, s, len);
}

static int
sng_finish(struct pv_bench *b, void *state)
{
	struct sng *st = state;

	if (st->in_table && st->header_rows == 0) {
		b->lineno = st->header_line;
		return pv_bench_fail(b, "stress-ng metrics table has no rows");
	}
	if (b->nsamples == 0)
		return pv_bench_fail(b, "no stress-ng metrics in the input");
	return 0;
}

/* bogo ops a second of wall time: the rate of each stressor */
static int
sng_primary(const char *test, const char *op, const char *metric)
{
	(void)test;
	(void)op;
	return metric != NULL &&
		strcmp(metric, "bogo-ops-per-second-real-time") == 0;
}

const struct bench_reader pv_bench_stressng = {
	"stress-ng", "stress-ng", sng_init, sng_line, sng_finish, sng_free,
	sng_primary
};
