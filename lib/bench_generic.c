/*
 * bench_generic: the documented form for every benchmark without a reader
 * of its own, one measurement a line:
 *
 *   KEY VALUE UNIT DIRECTION [LEVEL [RUN [SEQ]]]
 *
 * separated by spaces or TABs.  KEY is METRIC, OPERATION/METRIC,
 * TEST/OPERATION/METRIC or SUITE/TEST/OPERATION/METRIC; the parts it
 * leaves out come from --suite (else "generic") and --test (else absent).
 * UNIT is a word, "-" when the value has none.  DIRECTION is "higher" or
 * "lower".  LEVEL and SEQ are whole numbers or "-"; RUN is a whole number
 * (default: --run, else 1).  "meta KEY VALUE..." and "env KEY VALUE..."
 * lines become meta and env records; blank lines and lines starting with
 * '#' are skipped.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "bench_private.h"
#include "xalloc.h"

static void *
gen_init(struct pv_bench *b)
{
	(void)b;
	return NULL;
}

static void
gen_free(void *state)
{
	(void)state;
}

static int
opt_u64(struct pv_bench *b, const char *what, struct pv_str w, int dash,
	uint64_t *v)
{
	if (dash && pv_str_eq(w, "-")) {
		*v = PV_NONE;
		return 0;
	}
	return pv_bench_u64(b, what, w.s, w.len, v);
}

/* "meta KEY VALUE..." */
static int
kv_line(struct pv_bench *b, const char *type, const char *s, size_t len)
{
	size_t i = pv_bench_skipws(s, len, strlen(type)), k = i;
	char *key;

	while (i < len && s[i] != ' ' && s[i] != '\t')
		i++;
	if (i == k)
		return pv_bench_fail(b, "'%s' line without a key", type);
	key = pv_xmemdup(s + k, i - k);
	i = pv_bench_skipws(s, len, i);
	pv_bench_kvn(b, type, key, s + i, len - i);
	free(key);
	return 0;
}

static int
gen_line(struct pv_bench *b, void *state, const char *s, size_t len)
{
	struct pv_str w[8], part[4];
	size_t n, np = 0, i, start;
	uint64_t level, run = pv_bench_run0(b), seq = PV_NONE;
	enum pv_direction dir;
	double v;
	char *key, *unit, *name[4] = { NULL, NULL, NULL, NULL };

	(void)state;
	n = pv_bench_skipws(s, len, 0);
	if (n == len || s[n] == '#')
		return 0;
	if (pv_bench_prefix(s, len, "meta ") ||
	    pv_bench_prefix(s, len, "meta\t"))
		return kv_line(b, "meta", s, len);
	if (pv_bench_prefix(s, len, "env ") ||
	    pv_bench_prefix(s, len, "env\t"))
		return kv_line(b, "env", s, len);
	n = pv_bench_words(s, len, w, 8);
	if (n < 4 || n > 7)
		return pv_bench_fail(b, "expected 'KEY VALUE UNIT DIRECTION "
				     "[LEVEL [RUN [SEQ]]]', found %zu fields",
				     n);
	if (pv_bench_num(b, "value", w[1].s, w[1].len, &v) < 0)
		return -1;
	if (pv_str_eq(w[3], "higher"))
		dir = PV_HIGHER_BETTER;
	else if (pv_str_eq(w[3], "lower"))
		dir = PV_LOWER_BETTER;
	else
		return pv_bench_fail(b, "direction '%.*s' is neither 'higher' "
				     "nor 'lower'", (int)(w[3].len > 40 ? 40 :
				     w[3].len), w[3].s);
	level = b->opts.level;
	if ((n > 4 && opt_u64(b, "level", w[4], 1, &level) < 0) ||
	    (n > 5 && opt_u64(b, "run", w[5], 0, &run) < 0) ||
	    (n > 6 && opt_u64(b, "sequence number", w[6], 1, &seq) < 0))
		return -1;
	for (i = 0, start = 0; i <= w[0].len; i++) {
		if (i < w[0].len && w[0].s[i] != '/')
			continue;
		if (np == 4)
			return pv_bench_fail(b, "key '%.*s' has more than 4 "
					     "parts", (int)w[0].len, w[0].s);
		if (i == start)
			return pv_bench_fail(b, "key '%.*s' has an empty part",
					     (int)w[0].len, w[0].s);
		part[np].s = w[0].s + start;
		part[np].len = i - start;
		np++;
		start = i + 1;
	}
	/* right-align: the last part is the metric */
	for (i = 0; i < np; i++)
		name[4 - np + i] = pv_xmemdup(part[i].s, part[i].len);
	key = name[0] != NULL ? name[0] : NULL;
	unit = pv_xmemdup(w[2].s, w[2].len);
	pv_bench_sample_in(b, key != NULL ? key : pv_bench_suite(b),
			   name[1] != NULL ? name[1] : b->opts.test, name[2],
			   name[3], unit, dir, level, run, seq, v);
	free(unit);
	for (i = 0; i < 4; i++)
		free(name[i]);
	return 0;
}

static int
gen_finish(struct pv_bench *b, void *state)
{
	(void)state;
	if (b->nsamples == 0)
		return pv_bench_fail(b, "no measurements in the input");
	return 0;
}

/* the generic form names no primary metric: every key is one */
const struct bench_reader pv_bench_generic = {
	"generic", "generic", gen_init, gen_line, gen_finish, gen_free, NULL
};
