/*
 * verdict-sim: how well the classifier decides, on simulated nights.
 *
 * A night is one baseline against one target: T tests of K levels each
 * (20 keys in 4 tests unless said), every key with n runs a side drawn
 * from a noise model, in a known time order.  The same nights go to three
 * deciders:
 *
 *   pv      what pv-diff and pv-classify decide: the library's
 *           pv_cmp_compute_sides() and pv_cmp_pair() for each key of the
 *           night (the honest interval, lib/honest.c), then
 *           pv_classifier_run() (lib/classifier.c) on them;
 *   welch   Welch's t on the logs of each key alone, its level set so
 *           that its A/A false Regression rate equals pv's (the k-th
 *           smallest one-sided p of the A/A keys, k = pv's false
 *           Regressions, at least 1);
 *   mmtests the rule of MMTests' compare (Compare.pm, cidiff): a
 *           Regression when the mean +- 1.96 sd bands of the two sides do
 *           not overlap (harmonic mean and HStddev for rates), on the
 *           pooled values (inner repetitions included).
 *
 * Noise models (log-scale residuals; "planted" multiplies the target's
 * values of the planted keys by 1 - e, or divides by it when lower is
 * better):
 *   lnC        log-normal, CV C%
 *   pool:FAM   values drawn (with replacement) from the real pools of a
 *              family, about their medians; the keys take the pools in turn
 *   heavy      Student's t on 3 df, scale 2%
 *   bimodal    two performance states: 30% of runs 8% slower, CV 2%
 *   drift-X    log-normal 2% plus a linear drift of 10% over the night,
 *              sides apart (baseline first) or interleaved run by run
 *   ar1        AR(1) of 0.8 over each key's runs in time order, sd 3%,
 *              sides apart
 *   nestedI    MMTests iterations of 5 inner repetitions, ICC I: pv and
 *              Welch see the iteration means (as pv-parse's MMTests
 *              reader makes them), mmtests every repetition
 *   quant      a latency of 0.34 ms, CV 1%, printed to 0.01 ms
 * Time order: every night is run side by side, the keys round-robin
 * inside each repetition; "apart" (the baseline's repetitions, then the
 * target's) unless the model interleaves.
 *
 * Beside the power of each decider the table gives pv's Regressions that
 * carry the drift flag and the coverage of the planted change by pv's
 * honest interval.  Under drift and AR(1) the power that must not fall
 * with n is the flagged Regressions': at three runs a side the rule
 * cannot see the dependence (its intervals hold the planted change 83-87%
 * of the time, against 94-99% once it is flagged), so the Regressions it
 * makes there come partly from the drift itself, and the drift
 * line counts Regressions without the flag as false alarms.
 */
#include "config.h"

#include <getopt.h>
#include <stdarg.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "classifier.h"
#include "cmp.h"
#include "honest.h"
#include "stats.h"

/* the classes, bands and flags of a key, as the tallies count them */
enum { PC_REG, PC_IMP, PC_SAME, PC_UNC };
enum { PB_NONE, PB_GREEN, PB_YELLOW, PB_RED };
enum { PF_DRIFT = PV_CMP_DRIFT };

#define MAXKEY 64
#define MAXN 300
#define MAXJ 5

/* --- random numbers: xoshiro256** --- */
struct rng {
	uint64_t s[4];
	int have;
	double spare;
};

static uint64_t
rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static uint64_t
rnext(struct rng *r)
{
	uint64_t *s = r->s, res = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return res;
}

static void
rseed(struct rng *r, uint64_t seed)
{
	int i;

	for (i = 0; i < 4; i++) {
		uint64_t z = (seed += 0x9e3779b97f4a7c15ULL);

		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
		r->s[i] = z ^ (z >> 31);
	}
	r->have = 0;
}

static double
runif(struct rng *r)
{
	return ((double)(rnext(r) >> 11) + 0.5) / 9007199254740992.0;
}

static double
rnorm(struct rng *r)
{
	double u, v, s;

	if (r->have) {
		r->have = 0;
		return r->spare;
	}
	do {
		u = 2 * runif(r) - 1;
		v = 2 * runif(r) - 1;
		s = u * u + v * v;
	} while (s >= 1 || s == 0);
	s = sqrt(-2 * log(s) / s);
	r->spare = v * s;
	r->have = 1;
	return u * s;
}

/* Student's t on 3 degrees of freedom */
static double
rt3(struct rng *r)
{
	double a = rnorm(r), b = rnorm(r), c = rnorm(r), z = rnorm(r);

	return z / sqrt((a * a + b * b + c * c) / 3);
}

/* --- pools --- */
struct pool {
	char name[128];
	char family[128];
	double *res;		/* log residuals about the median */
	double *raw;
	size_t n;
	double rcv;
};

static struct pool pools[256];
static size_t npools;

static void
load_pools(const char *path)
{
	FILE *f = fopen(path, "r");
	char name[128];
	double v;
	size_t i;

	if (f == NULL) {
		perror(path);
		exit(2);
	}
	while (fscanf(f, "%127s %lf", name, &v) == 2) {
		struct pool *p = NULL;

		for (i = 0; i < npools; i++)
			if (strcmp(pools[i].name, name) == 0)
				p = &pools[i];
		if (p == NULL) {
			char *dash;

			p = &pools[npools++];
			snprintf(p->name, sizeof(p->name), "%s", name);
			snprintf(p->family, sizeof(p->family), "%s", name);
			if ((dash = strchr(p->family, '-')) != NULL)
				*dash = '\0';
		}
		p->raw = realloc(p->raw, (p->n + 1) * sizeof(double));
		p->raw[p->n++] = v;
	}
	fclose(f);
	for (i = 0; i < npools; i++) {
		struct pool *p = &pools[i];
		double *s = malloc(p->n * sizeof(double)), med, mad;
		size_t j;

		p->res = malloc(p->n * sizeof(double));
		for (j = 0; j < p->n; j++)
			s[j] = log(p->raw[j]);
		pv_stats_sort(s, p->n);
		med = p->n % 2 ? s[p->n / 2] :
			(s[p->n / 2 - 1] + s[p->n / 2]) / 2;
		for (j = 0; j < p->n; j++)
			p->res[j] = log(p->raw[j]) - med;
		for (j = 0; j < p->n; j++)
			s[j] = fabs(p->res[j]);
		pv_stats_sort(s, p->n);
		mad = p->n % 2 ? s[p->n / 2] :
			(s[p->n / 2 - 1] + s[p->n / 2]) / 2;
		p->rcv = PV_STATS_MAD_SCALE * mad;
		free(s);
	}
}

/* --- models --- */
enum kind {
	M_LOGNORM, M_POOL, M_HEAVY, M_BIMODAL, M_DRIFT, M_AR1, M_NESTED,
	M_QUANT
};

struct model {
	char name[64];
	enum kind kind;
	double sd;		/* log sd */
	double a, b;		/* bimodal: p, shift; drift: total; ar: phi;
				 * nested: sd_b, sd_w; quant: quantum */
	int interleaved;
	int order_known;
	int J;
	int lower;
	size_t pool[64];	/* the pools the keys take in turn */
	size_t npool;
	double rescale;		/* pool: to this robust CV (0: native) */
};

static int
parse_model(const char *s, struct model *m)
{
	memset(m, 0, sizeof(*m));
	snprintf(m->name, sizeof(m->name), "%s", s);
	m->order_known = 1;
	m->J = 1;
	if (strncmp(s, "ln", 2) == 0) {
		m->kind = M_LOGNORM;
		m->sd = atof(s + 2) / 100;
		m->sd = sqrt(log(1 + m->sd * m->sd));
	} else if (strncmp(s, "pool:", 5) == 0) {
		const char *fam = s + 5, *at = strchr(fam, '@');
		size_t i, len = at ? (size_t)(at - fam) : strlen(fam);

		m->kind = M_POOL;
		if (at != NULL)
			m->rescale = atof(at + 1) / 100;
		for (i = 0; i < npools; i++)
			if ((strlen(pools[i].family) == len &&
			     strncmp(pools[i].family, fam, len) == 0) ||
			    (strlen(pools[i].name) == len &&
			     strncmp(pools[i].name, fam, len) == 0))
				m->pool[m->npool++] = i;
		if (m->npool == 0)
			return -1;
	} else if (strcmp(s, "heavy") == 0) {
		m->kind = M_HEAVY;
		m->sd = 0.02;
	} else if (strcmp(s, "bimodal") == 0) {
		m->kind = M_BIMODAL;
		m->sd = 0.02;
		m->a = 0.3;
		m->b = log(0.92);
	} else if (strncmp(s, "drift-", 6) == 0) {
		m->kind = M_DRIFT;
		m->sd = 0.02;
		m->a = log(0.90);
		m->interleaved = strcmp(s + 6, "inter") == 0;
	} else if (strncmp(s, "ar1", 3) == 0) {
		m->kind = M_AR1;
		m->sd = 0.03;
		m->a = 0.8;
		m->interleaved = strcmp(s + 3, "-inter") == 0;
	} else if (strncmp(s, "nested", 6) == 0) {
		double icc = atof(s + 6) / 100;

		m->kind = M_NESTED;
		m->J = 5;
		/* between sd b, within w: icc = b^2 / (b^2 + w^2) */
		m->a = icc >= 0.97 ? 0.03 : 0.02;
		m->b = m->a * sqrt((1 - icc) / icc);
	} else if (strcmp(s, "quant") == 0) {
		m->kind = M_QUANT;
		m->sd = 0.01;
		m->a = 0.01;
		m->lower = 1;
	} else {
		return -1;
	}
	if (strstr(s, "/unordered") != NULL)
		m->order_known = 0;
	return 0;
}

/* --- a night --- */
struct key {
	int test, level, planted, sign;
	size_t n[2];
	double v[2][MAXN];		/* run values */
	double tm[2][MAXN];		/* run times */
	size_t nraw[2];
	double raw[2][MAXN * MAXJ];	/* inner repetitions (nested) */
	double quantum;
};

struct night {
	size_t nkey, ntest, K, n;
	struct key k[MAXKEY];
	const struct model *m;
};

enum plant {
	P_NONE, P_TEST, P_ALL, P_ONE, P_ONELEVEL, P_ALT, P_ALTSIGN, P_SYS
};

/* one value's log residual under the model (iid part) */
static double
noise(const struct model *m, struct rng *r, size_t key)
{
	switch (m->kind) {
	case M_LOGNORM:
	case M_DRIFT:
	case M_QUANT:
		return m->sd * rnorm(r);
	case M_POOL: {
		const struct pool *p = &pools[m->pool[key % m->npool]];
		double e = p->res[(size_t)(runif(r) * (double)p->n)];

		if (m->rescale > 0 && p->rcv > 0)
			e *= m->rescale / p->rcv;
		return e;
	}
	case M_HEAVY:
		return m->sd * rt3(r);
	case M_BIMODAL:
		return m->sd * rnorm(r) + (runif(r) < m->a ? m->b : 0);
	default:
		return 0;
	}
}

static void
gen_night(const struct model *m, size_t n, size_t ntest, size_t K,
	  double eff, enum plant pl, struct rng *r, struct night *nt)
{
	size_t nkey = ntest * K, i, s, k;
	double base = m->kind == M_QUANT ? (m->b > 0 ? m->b : 0.34) : 1000;

	nt->nkey = nkey;
	nt->ntest = ntest;
	nt->K = K;
	nt->n = n;
	nt->m = m;
	for (k = 0; k < nkey; k++) {
		struct key *ky = &nt->k[k];

		ky->test = (int)(k / K);
		ky->level = (int)(k % K);
		switch (pl) {
		case P_NONE:
			ky->planted = 0;
			break;
		case P_TEST:
			ky->planted = ky->test == 0;
			break;
		case P_ALL:
		case P_SYS:
			ky->planted = 1;
			break;
		case P_ONE:
			ky->planted = k == 0;
			break;
		case P_ONELEVEL:
			ky->planted = 0;
			break;
		case P_ALT:
			ky->planted = ky->level % 2 == 0;
			break;
		case P_ALTSIGN:
			ky->planted = 1;
			break;
		}
		ky->sign = pl == P_ALTSIGN && ky->level % 2 ? -1 : 1;
		ky->n[0] = ky->n[1] = n;
		ky->nraw[0] = ky->nraw[1] = n * (size_t)m->J;
		ky->quantum = 0;
	}
	if (pl == P_ONELEVEL)
		for (i = 0; i < ntest; i++)
			nt->k[i * K + (size_t)(runif(r) * (double)K)].planted = 1;
	for (k = 0; k < nkey; k++) {
		struct key *ky = &nt->k[k];
		double f = ky->planted ? ky->sign * log(1 - eff) : 0, ar = 0;
		size_t seq;

		if (m->lower)
			f = -f;
		for (seq = 0; seq < 2 * n; seq++) {
			/* the key's runs in time order */
			size_t side, run;
			double tau, e;

			if (m->interleaved) {
				side = seq % 2;
				run = seq / 2;
				tau = (double)(run * 2 * nkey + side * nkey + k);
			} else {
				side = seq / n;
				run = seq % n;
				tau = (double)(side * n * nkey + run * nkey + k);
			}
			tau /= (double)(2 * n * nkey);
			ky->tm[side][run] = tau;
			if (m->kind == M_AR1) {
				ar = seq == 0 ? m->sd * rnorm(r) :
					m->a * ar + sqrt(1 - m->a * m->a) *
					m->sd * rnorm(r);
				e = ar;
			} else if (m->kind == M_NESTED) {
				double u = m->a * rnorm(r), sum = 0;
				size_t j;

				for (j = 0; j < (size_t)m->J; j++) {
					double x = base * exp(u + m->b *
						rnorm(r) + (side ? f : 0));

					ky->raw[side][run * (size_t)m->J + j] = x;
					sum += x;
				}
				ky->v[side][run] = sum / (double)m->J;
				continue;
			} else {
				e = noise(m, r, k);
				if (m->kind == M_DRIFT)
					e += m->a * tau;
			}
			ky->v[side][run] = base * exp(e + (side ? f : 0));
			if (m->kind == M_QUANT)
				ky->v[side][run] = nearbyint(ky->v[side][run] /
					m->a) * m->a;
			ky->raw[side][run] = ky->v[side][run];
		}
		if (m->kind == M_QUANT) {
			double q = 0;

			for (s = 0; s < 2; s++)
				for (i = 0; i < n; i++) {
					double qi = pv_honest_quantum(ky->v[s][i]);

					if (q == 0 || (qi > 0 && qi < q))
						q = qi;
				}
			ky->quantum = q;
		}
	}
}

/* --- deciders --- */
struct out {
	int cls;		/* PC_* */
	int band;
	unsigned flags;
	size_t runs;
	int unlikely;
	double p1;		/* welch: one-sided p of a regression */
	int mm;			/* mmtests: -1 regression, 1 improvement */
	double lo, hi;
};

static struct pv_str
S(const char *s)
{
	struct pv_str r = { s, strlen(s) };

	return r;
}

/* "t00", "t01", ...: the keys' tests sort in their order */
static const char *
test_name(int t)
{
	static char name[MAXKEY][8];

	if (name[t][0] == '\0')
		snprintf(name[t], sizeof(name[t]), "t%02d", t);
	return name[t];
}

/*
 * pv: each key through pv_cmp_compute_sides() (no bootstrap: no decision
 * reads it), the night's keys through pv_cmp_pair(), then the classifier
 * with its defaults, as pv-diff and pv-classify take them.
 */
static void
run_pv(const struct night *nt, struct out *o, int *sys)
{
	static struct pv_cmp c[MAXKEY];
	static struct pv_honest h[MAXKEY];
	struct pv_cmp_opts co = PV_CMP_OPTS_INIT;
	struct pv_classifier_opts vo = PV_CLASSIFIER_OPTS_INIT;
	struct pv_classifier cl;
	size_t i, g;

	co.boot = 0;
	co.jobs = 1;
	for (i = 0; i < nt->nkey; i++) {
		const struct key *ky = &nt->k[i];
		struct pv_honest_side b = { ky->v[0], nt->m->order_known ?
			ky->tm[0] : NULL, ky->n[0], ky->quantum, 0 };
		struct pv_honest_side t = { ky->v[1], nt->m->order_known ?
			ky->tm[1] : NULL, ky->n[1], ky->quantum, 0 };
		struct pv_runkey key;

		memset(&key, 0, sizeof(key));
		key.role = S("A");
		key.version = S("B");
		key.experiment = S("sim");
		key.suite = S("sim");
		key.test = S(test_name(ky->test));
		key.operation = S("op");
		key.metric = S("m");
		key.unit = S("u");
		key.direction = nt->m->lower ? PV_LOWER_BETTER :
			PV_HIGHER_BETTER;
		key.level = (uint64_t)ky->level + 1;
		pv_cmp_compute_sides(&key, &b, &t, &co, &c[i], &h[i]);
	}
	pv_cmp_pair(c, h, nt->nkey, &co);
	pv_classifier_init(&cl, &vo);
	for (i = 0; i < nt->nkey; i++) {
		pv_classifier_add(&cl, &c[i]);
		pv_honest_release(&h[i]);
	}
	pv_classifier_run(&cl);
	/* sorted by test, then level: the order of the keys here */
	for (i = 0; i < nt->nkey; i++) {
		struct pv_verdict got;
		const struct pv_verdict *v = &got;
		const char *why;

		pv_classifier_get(&cl, i, &got);
		/* the reason's words are made when asked for (classifier.h) */
		why = v->cls == PV_CLASS_UNCERTAIN ?
			pv_classifier_reason(&cl, i) : "";
		o[i].cls = v->cls == PV_CLASS_REGRESSION ? PC_REG :
			v->cls == PV_CLASS_IMPROVEMENT ? PC_IMP :
			v->cls == PV_CLASS_NO_CHANGE ? PC_SAME : PC_UNC;
		o[i].band = v->band == PV_BAND_RED ? PB_RED :
			v->band == PV_BAND_YELLOW ? PB_YELLOW :
			v->band == PV_BAND_GREEN ? PB_GREEN : PB_NONE;
		o[i].flags = v->flags;
		o[i].runs = v->runs;
		o[i].unlikely = v->cls == PV_CLASS_UNCERTAIN &&
			strstr(why, "unlikely to decide") != NULL;
		o[i].lo = v->cmp.hlo;
		o[i].hi = v->cmp.hhi;
	}
	for (g = 0; g < nt->ntest; g++)
		sys[g] = 0;
	/* (cl.g holds the systematic groups only) */
	for (g = 0; g < cl.ng; g++)
		if (cl.g[g].systematic)
			sys[nt->k[cl.g[g].first].test] = 1;
	pv_classifier_release(&cl);
}

static void
run_welch(const struct night *nt, struct out *o)
{
	size_t i, j;

	for (i = 0; i < nt->nkey; i++) {
		const struct key *ky = &nt->k[i];
		double xb[MAXN], xt[MAXN], sign = nt->m->lower ? -1 : 1;
		struct pv_welch w;

		for (j = 0; j < ky->n[0]; j++)
			xb[j] = sign * log(ky->v[0][j]);
		for (j = 0; j < ky->n[1]; j++)
			xt[j] = sign * log(ky->v[1][j]);
		pv_stats_welch(xb, ky->n[0], xt, ky->n[1], 0.95, &w);
		o[i].p1 = w.diff < 0 ? w.p / 2 : 1 - w.p / 2;
	}
}

/* MMTests: harmonic mean and HStddev for rates, mean and sd otherwise */
static void
mm_stat(const double *x, size_t n, int lower, double *m, double *sd)
{
	double s = 0, h, ss = 0;
	size_t i;

	if (lower) {
		*m = pv_stats_mean(x, n);
		*sd = sqrt(pv_stats_var(x, n, *m));
		return;
	}
	for (i = 0; i < n; i++)
		s += 1 / x[i];
	h = (double)n / s;
	for (i = 0; i < n; i++)
		ss += (1 / x[i] - 1 / h) * (1 / x[i] - 1 / h);
	*m = h;
	*sd = sqrt(ss * h * h * h * h / (double)n);
}

static void
run_mm(const struct night *nt, struct out *o)
{
	size_t i;

	for (i = 0; i < nt->nkey; i++) {
		const struct key *ky = &nt->k[i];
		double mb, sb, mt, st, z = 1.959963984540054;
		int worse;

		mm_stat(ky->raw[0], ky->nraw[0], nt->m->lower, &mb, &sb);
		mm_stat(ky->raw[1], ky->nraw[1], nt->m->lower, &mt, &st);
		/* cidiff: the difference over the facing half-widths */
		o[i].mm = 0;
		worse = nt->m->lower ? mt > mb : mt < mb;
		if (fabs(mt - mb) > z * (sb + st))
			o[i].mm = worse ? -1 : 1;
	}
}

/* --- tallies --- */
struct tally {
	size_t keys, reg, imp, same, unc, drift, red, reg_nodrift;
	size_t cover;		/* planted keys whose interval holds the truth */
	size_t mm_reg;
	size_t runs_printed, unlikely;
	double *p1;
	size_t np1, ap1;
};

static void
tally_add(struct tally *t, const struct night *nt, const struct out *o,
	  int planted_only)
{
	size_t i;

	for (i = 0; i < nt->nkey; i++) {
		if (planted_only && !nt->k[i].planted)
			continue;
		if (!planted_only && nt->k[i].planted)
			continue;
		t->keys++;
		t->reg += o[i].cls == PC_REG;
		t->imp += o[i].cls == PC_IMP;
		t->same += o[i].cls == PC_SAME;
		t->unc += o[i].cls == PC_UNC;
		t->drift += (o[i].flags & PF_DRIFT) != 0;
		t->red += o[i].cls == PC_REG && o[i].band == PB_RED;
		t->reg_nodrift += o[i].cls == PC_REG &&
			!(o[i].flags & PF_DRIFT);
		t->mm_reg += o[i].mm == -1;
		t->runs_printed += o[i].runs > 0;
		t->unlikely += o[i].unlikely;
		if (t->np1 == t->ap1) {
			t->ap1 = t->ap1 ? 2 * t->ap1 : 1024;
			t->p1 = realloc(t->p1, t->ap1 * sizeof(double));
		}
		t->p1[t->np1++] = o[i].p1;
	}
}

/* the planted keys whose honest interval holds their true change */
static void
tally_cover(struct tally *t, const struct night *nt, const struct out *o,
	    double truth)
{
	size_t i;

	for (i = 0; i < nt->nkey; i++)
		if (nt->k[i].planted)
			t->cover += o[i].lo <= truth && truth <= o[i].hi;
}

static double
rate(size_t a, size_t b)
{
	return b ? (double)a / (double)b : NAN;
}

/* the Welch level matched to pv's A/A false Regressions */
static double
match_alpha(struct tally *aa)
{
	size_t k = aa->reg ? aa->reg : 1;

	pv_stats_sort(aa->p1, aa->np1);
	if (k > aa->np1)
		k = aa->np1;
	return aa->np1 ? aa->p1[k - 1] : 0;
}

static size_t
count_below(const struct tally *t, double a)
{
	size_t i, c = 0;

	for (i = 0; i < t->np1; i++)
		c += t->p1[i] <= a;
	return c;
}

static void
one_night(const struct model *m, size_t n, size_t ntest, size_t K,
	  double eff, enum plant pl, struct rng *r, struct night *nt,
	  struct out *o, int *sys)
{
	gen_night(m, n, ntest, K, eff, pl, r, nt);
	run_pv(nt, o, sys);
	run_welch(nt, o);
	run_mm(nt, o);
}

static size_t nights_aa = 1000, nights_pw = 400;
/* the keys planted in the power nights: one test's (--plant=test), or all */
static enum plant power_plant = P_TEST;
static uint64_t seed0 = 20261201;

static size_t
nights_for(size_t base, size_t n)
{
	size_t k = n >= 300 ? base / 5 : n >= 100 ? base / 2 : base;

	return k < 40 ? 40 : k;
}

static const double effects[] = { 0.03, 0.05, 0.10, 0.20 };
#define NEFF 4
#define MAXNS 8

/* what a model's table found, for the acceptance checks */
struct cell {
	size_t n;
	size_t aa_keys, aa_reg, aa_imp, aa_unc, aa_drift, aa_reg_nodrift;
	size_t pw_keys[NEFF], pw_reg[NEFF], pw_welch[NEFF];
	size_t pw_reg_drift[NEFF], pw_cover[NEFF];
	double alpha;
};

struct result {
	struct model m;
	size_t nn;
	struct cell c[MAXNS];
};

static struct result results[64];
static size_t nresults;

/*
 * The main table of a model: for each n the A/A rates (pv, welch's
 * matched level, mmtests) and the power of each decider for planted
 * shifts (every level of one test planted).
 */
static void
table_model(const struct model *m, const size_t *ns, size_t nn,
	    FILE *csv)
{
	static struct night nt;
	struct out o[MAXKEY];
	int sys[MAXKEY];
	size_t a, e, i;
	struct result *res = nresults < 64 ? &results[nresults++] : NULL;

	if (res != NULL) {
		memset(res, 0, sizeof(*res));
		res->m = *m;
		res->nn = nn < MAXNS ? nn : MAXNS;
	}

	printf("\nmodel %s\n", m->name);
	printf("  n   | A/A: pv reg  imp   unc   drift  red "
	       "| welch-alpha mm-reg | power pv/welch/mm at");
	for (e = 0; e < NEFF; e++)
		printf(" %g%%", 100 * effects[e]);
	printf(" | pv's of them flagged drift | share of the planted "
	       "keys whose honest interval holds the planted change\n");
	for (a = 0; a < nn; a++) {
		size_t n = ns[a];
		struct tally aa, pw[NEFF];
		struct rng r;
		double alpha;

		memset(&aa, 0, sizeof(aa));
		memset(pw, 0, sizeof(pw));
		rseed(&r, seed0 + 1000003 * n + (uint64_t)m->kind * 7919);
		for (i = 0; i < nights_for(nights_aa, n); i++) {
			one_night(m, n, 4, 5, 0, P_NONE, &r, &nt, o, sys);
			tally_add(&aa, &nt, o, 0);
		}
		alpha = match_alpha(&aa);
		for (e = 0; e < NEFF; e++)
			for (i = 0; i < nights_for(nights_pw, n); i++) {
				one_night(m, n, 4, 5, effects[e], power_plant, &r,
					  &nt, o, sys);
				tally_add(&pw[e], &nt, o, 1);
				tally_cover(&pw[e], &nt, o, log(1 - effects[e]));
			}
		printf("  %-3zu | %.4f %.4f %.3f %.4f %.4f | "
		       "%.2e %.4f |", n, rate(aa.reg, aa.keys),
		       rate(aa.imp, aa.keys), rate(aa.unc, aa.keys),
		       rate(aa.drift, aa.keys), rate(aa.red, aa.keys),
		       alpha, rate(aa.mm_reg, aa.keys));
		for (e = 0; e < NEFF; e++)
			printf(" %.3f/%.3f/%.3f", rate(pw[e].reg,
			       pw[e].keys), rate(count_below(&pw[e], alpha),
			       pw[e].keys), rate(pw[e].mm_reg, pw[e].keys));
		printf(" | drift-flagged");
		for (e = 0; e < NEFF; e++)
			printf(" %.3f", rate(pw[e].reg - pw[e].reg_nodrift,
					     pw[e].keys));
		printf(" | cover");
		for (e = 0; e < NEFF; e++)
			printf(" %.3f", rate(pw[e].cover, pw[e].keys));
		printf("\n");
		if (res != NULL && a < MAXNS) {
			struct cell *c = &res->c[a];

			c->n = n;
			c->aa_keys = aa.keys;
			c->aa_reg = aa.reg;
			c->aa_imp = aa.imp;
			c->aa_unc = aa.unc;
			c->aa_drift = aa.drift;
			c->aa_reg_nodrift = aa.reg_nodrift;
			c->alpha = alpha;
			for (e = 0; e < NEFF; e++) {
				c->pw_keys[e] = pw[e].keys;
				c->pw_reg[e] = pw[e].reg;
				c->pw_welch[e] = count_below(&pw[e], alpha);
				c->pw_reg_drift[e] = pw[e].reg -
					pw[e].reg_nodrift;
				c->pw_cover[e] = pw[e].cover;
			}
		}
		if (csv != NULL) {
			fprintf(csv, "%s\t%zu\taa\t%zu\t%zu\t%zu\t%zu\t%zu\t"
				"%zu\t%zu\t%.6g\t%zu\t%zu\n",
				m->name, n, aa.keys, aa.reg, aa.imp, aa.unc,
				aa.drift, aa.red, aa.reg_nodrift, alpha,
				aa.mm_reg, aa.same);
			for (e = 0; e < NEFF; e++)
				fprintf(csv, "%s\t%zu\t%g\t%zu\t%zu\t%zu\t%zu"
					"\t%zu\t%zu\t%zu\n", m->name, n,
					effects[e], pw[e].keys, pw[e].reg,
					count_below(&pw[e], alpha),
					pw[e].mm_reg, pw[e].reg_nodrift,
					pw[e].red, pw[e].unc);
		}
		fflush(stdout);
		free(aa.p1);
		for (e = 0; e < NEFF; e++)
			free(pw[e].p1);
	}
}


static void verdict_line(int ok, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Systematic regressions: nights of 4 tests of K levels, CV 2%; the share
 * of tests called systematic when one level, alternate levels, or
 * alternate signs are planted, and when every level is (recall).
 */
static void
table_sys(size_t n, FILE *csv)
{
	static struct night nt;
	static const size_t Ks[] = { 2, 3, 4, 6 };
	static const double es[] = { 0.05, 0.20 };
	static const enum plant pls[] = { P_ONELEVEL, P_ALT, P_ALTSIGN, P_SYS };
	static const char *const pname[] = { "one level", "alternate",
		"alt. sign", "every level" };
	struct model m;
	struct out o[MAXKEY];
	int sys[MAXKEY];
	size_t ki, ei, pi, i, g;
	double sys_false = 0, sys_recall = 1;

	parse_model("ln2", &m);
	printf("\nsystematic: share of tests called systematic (ln2, n=%zu; "
	       "pv)\n", n);
	printf("  K | effect |");
	for (pi = 0; pi < 4; pi++)
		printf(" %-13s|", pname[pi]);
	printf("\n");
	for (ki = 0; ki < 4; ki++)
		for (ei = 0; ei < 2; ei++) {
			size_t K = Ks[ki];

			printf("  %zu | %4.0f%%  |", K, 100 * es[ei]);
			for (pi = 0; pi < 4; pi++) {
				struct rng r;
				size_t tests = 0, pv = 0;

				rseed(&r, seed0 + 31 * K + 7 * pi + ei);
				for (i = 0; i < nights_pw; i++) {
					one_night(&m, n, 4, K, es[ei], pls[pi],
						  &r, &nt, o, sys);
					for (g = 0; g < 4; g++) {
						tests++;
						pv += sys[g];
					}
				}
				printf(" %-13.3f|", rate(pv, tests));
				if (pi < 3)
					sys_false = fmax(sys_false,
							 rate(pv, tests));
				if (pi == 3 && K >= 4 && ei == 0 && n == 5)
					sys_recall = fmin(sys_recall,
							  rate(pv, tests));
				if (csv != NULL)
					fprintf(csv, "sys\t%zu\t%zu\t%g\t%s\t"
						"%zu\t%zu\n", n, K, es[ei],
						pname[pi], tests, pv);
			}
			printf("\n");
			fflush(stdout);
		}
	verdict_line(sys_false <= 0.05, "systematic, n=%zu: one-level, "
		     "alternate, alternate-sign cases called systematic <= 5%%: "
		     "worst %.3f", n, sys_false);
	if (n == 5)
		verdict_line(sys_recall >= 0.95, "systematic recall, 5%% at "
			     "every level, K >= 4, CV 2%%, n=5: worst %.3f >= "
			     "0.95", sys_recall);
}

/*
 * "About N runs a side would decide": where pv prints N for an Uncertain
 * key, give that key N - n more runs a side from the same noise (the
 * others unchanged) and classify the night again.
 */
static void
table_runs(FILE *csv)
{
	static struct night nt, nt2;
	static const double cvs[] = { 1, 3, 5, 10 };
	static const double es[] = { 0, 0.02, 0.03, 0.05, 0.10 };
	static const size_t nsz[] = { 3, 5, 10 };
	struct out o[MAXKEY], o2[MAXKEY];
	int sys[MAXKEY];
	size_t ci, ei, ni, i, k, tot_p = 0, tot_d = 0, tot_u = 0, tot_k = 0;
	size_t tot_big = 0;

	printf("\nruns to decide (log-normal, order unknown): keys "
	       "Uncertain / N printed / decided with N runs / unlikely\n");
	for (ci = 0; ci < 4; ci++)
		for (ni = 0; ni < 3; ni++) {
			char name[32];
			struct model m;
			size_t n = nsz[ni];

			snprintf(name, sizeof(name), "ln%.0f/unordered",
				 cvs[ci]);
			parse_model(name, &m);
			printf("  cv %4.0f%% n %2zu |", cvs[ci], n);
			for (ei = 0; ei < 5; ei++) {
				struct rng r;
				size_t unc = 0, printed = 0, decided = 0,
				       unl = 0;

				rseed(&r, seed0 + 17 * ci + 5 * ni + ei);
				for (i = 0; i < nights_pw / 2; i++) {
					one_night(&m, n, 4, 5, es[ei], P_ALL,
						  &r, &nt, o, sys);
					for (k = 0; k < nt.nkey; k++) {
						struct key *ky;
						size_t N, s, j;
						double f;

						if (o[k].cls != PC_UNC)
							continue;
						unc++;
						unl += o[k].unlikely;
						if (o[k].runs > MAXN)
							tot_big++;
						if (o[k].runs == 0 ||
						    o[k].runs > MAXN)
							continue;
						printed++;
						N = o[k].runs;
						nt2 = nt;
						ky = &nt2.k[k];
						f = ky->planted ? log(1 - es[ei]) :
							0;
						for (s = 0; s < 2; s++) {
							for (j = n; j < N; j++)
								ky->v[s][j] = 1000 *
									exp(m.sd * rnorm(&r) +
									    (s ? f : 0));
							ky->n[s] = N;
						}
						run_pv(&nt2, o2, sys);
						decided += o2[k].cls != PC_UNC;
						if (getenv("SIM_DEBUG_RUNS") &&
						    o2[k].cls == PC_UNC)
							fprintf(stderr, "cv %g n %zu e %g N %zu "
								"cls %d lo %g hi %g\n",
								cvs[ci], n, es[ei], N,
								o2[k].cls, o2[k].lo, o2[k].hi);
						break;	/* one key a night */
					}
				}
				printf(" e%-4g %4zu/%4zu/%4zu/%4zu |",
				       100 * es[ei], unc, printed, decided, unl);
				tot_p += printed;
				tot_d += decided;
				tot_u += unl;
				tot_k += unc;
				if (csv != NULL)
					fprintf(csv, "runs\t%g\t%zu\t%g\t%zu\t"
						"%zu\t%zu\t%zu\n", cvs[ci], n,
						es[ei], unc, printed, decided,
						unl);
			}
			printf("\n");
			fflush(stdout);
		}
	printf("  where printed, decided: %zu of %zu (%.3f); "
	       "unlikely %zu of %zu Uncertain; N over %d (not tried): %zu\n",
	       tot_d, tot_p, rate(tot_d, tot_p), tot_u, tot_k, MAXN, tot_big);
	verdict_line(rate(tot_d, tot_p) >= 0.70, "runs to decide: where "
		     "printed, N runs a side decided %.3f >= 0.70 (CV 1-10%%)",
		     rate(tot_d, tot_p));
}

/*
 * Real A/A: each pool's runs split into two sides of n, at random
 * (order unknown) or in their recorded order (the first n runs, then the
 * next n: sides apart, times known).  Keys take the pools of a family
 * in turn.
 */
static void
table_split(const char *family, size_t n, int sequential, FILE *csv)
{
	static struct night nt;
	struct out o[MAXKEY];
	int sys[MAXKEY];
	struct model m;
	struct rng r;
	size_t ip[64], np = 0, i, k, keys = 0, unc = 0, reg = 0, imp = 0,
	       same = 0, drift = 0, nights;

	memset(&m, 0, sizeof(m));
	snprintf(m.name, sizeof(m.name), "split:%s", family);
	m.order_known = sequential;
	for (i = 0; i < npools; i++)
		if (strcmp(pools[i].family, family) == 0 &&
		    pools[i].n >= 2 * n && np < 20)
			ip[np++] = i;
	if (np == 0)
		return;
	rseed(&r, seed0 + n + 1000 * (size_t)sequential);
	nights = sequential ? 1 : nights_pw;
	for (i = 0; i < nights; i++) {
		size_t starts = 1;

		if (sequential) {
			/* every window of 2n runs, each pool its own key */
			size_t w, maxw = 0;

			for (k = 0; k < np; k++)
				if (pools[ip[k]].n - 2 * n + 1 > maxw)
					maxw = pools[ip[k]].n - 2 * n + 1;
			starts = maxw;
			for (w = 0; w < starts; w++) {
				nt.nkey = np;
				nt.ntest = np;
				nt.K = 1;
				nt.n = n;
				nt.m = &m;
				for (k = 0; k < np; k++) {
					const struct pool *p = &pools[ip[k]];
					struct key *ky = &nt.k[k];
					size_t s0 = w < p->n - 2 * n + 1 ? w :
						p->n - 2 * n, j;

					ky->test = (int)k;
					ky->level = 0;
					ky->planted = 0;
					ky->quantum = 0;
					for (j = 0; j < 2 * n; j++) {
						size_t sd = j / n, run = j % n;

						ky->v[sd][run] = p->raw[s0 + j];
						ky->raw[sd][run] = p->raw[s0 + j];
						ky->tm[sd][run] = (double)j;
					}
					ky->n[0] = ky->n[1] = n;
					ky->nraw[0] = ky->nraw[1] = n;
				}
				run_pv(&nt, o, sys);
				for (k = 0; k < np; k++) {
					keys++;
					unc += o[k].cls == PC_UNC;
					reg += o[k].cls == PC_REG;
					imp += o[k].cls == PC_IMP;
					same += o[k].cls == PC_SAME;
					drift += (o[k].flags & PF_DRIFT) != 0;
				}
			}
			continue;
		}
		nt.nkey = 20;
		nt.ntest = 4;
		nt.K = 5;
		nt.n = n;
		nt.m = &m;
		for (k = 0; k < 20; k++) {
			const struct pool *p = &pools[ip[k % np]];
			struct key *ky = &nt.k[k];
			size_t idx[512], j;

			for (j = 0; j < p->n; j++)
				idx[j] = j;
			for (j = 0; j < 2 * n; j++) {
				size_t x = j + (size_t)(runif(&r) *
							(double)(p->n - j)), t;

				t = idx[j];
				idx[j] = idx[x];
				idx[x] = t;
			}
			ky->test = (int)(k / 5);
			ky->level = (int)(k % 5);
			ky->planted = 0;
			ky->quantum = 0;
			for (j = 0; j < 2 * n; j++) {
				ky->v[j / n][j % n] = p->raw[idx[j]];
				ky->raw[j / n][j % n] = p->raw[idx[j]];
			}
			ky->n[0] = ky->n[1] = n;
			ky->nraw[0] = ky->nraw[1] = n;
		}
		run_pv(&nt, o, sys);
		for (k = 0; k < 20; k++) {
			keys++;
			unc += o[k].cls == PC_UNC;
			reg += o[k].cls == PC_REG;
			imp += o[k].cls == PC_IMP;
			same += o[k].cls == PC_SAME;
		}
	}
	printf("  %-7s %-10s n=%-3zu pools %2zu keys %5zu: uncertain %.3f, "
	       "no change %.3f, regression %.4f, improvement %.4f, "
	       "drift %.3f\n", family, sequential ? "sequential" : "random",
	       n, np, keys, rate(unc, keys), rate(same, keys),
	       rate(reg, keys), rate(imp, keys), rate(drift, keys));
	if (csv != NULL)
		fprintf(csv, "split\t%s\t%d\t%zu\t%zu\t%zu\t%zu\t%zu\t%zu\t"
			"%zu\n", family, sequential, n, keys, unc, same, reg,
			imp, drift);
}

/* The quantised latency of issue 13: a true 0.6% change */
static void
table_quant(FILE *csv)
{
	static struct night nt;
	static const size_t nsz[] = { 3, 5, 10, 30 };
	struct out o[MAXKEY];
	int sys[MAXKEY];
	struct model m;
	size_t ni, i;

	double worst = 0;

	parse_model("quant", &m);
	m.sd = 0.002;
	m.b = 0.3445;
	printf("\nquantised: 0.3445 ms, CV 0.2%%, printed to 0.01 ms, a true "
	       "0.6%% slowdown in every key: Regressions of pv, and of Welch at "
	       "the level matched to pv's A/A false Regressions here\n");
	for (ni = 0; ni < 4; ni++) {
		struct tally t, aa;
		struct rng r;
		double alpha;

		memset(&t, 0, sizeof(t));
		memset(&aa, 0, sizeof(aa));
		rseed(&r, seed0 + nsz[ni]);
		for (i = 0; i < nights_pw; i++) {
			one_night(&m, nsz[ni], 4, 5, 0, P_NONE, &r, &nt, o,
				  sys);
			tally_add(&aa, &nt, o, 0);
		}
		alpha = match_alpha(&aa);
		for (i = 0; i < nights_pw; i++) {
			one_night(&m, nsz[ni], 4, 5, 0.006, P_ALL, &r, &nt, o,
				  sys);
			tally_add(&t, &nt, o, 1);
		}
		printf("  n %2zu: pv %.4f, welch %.4f (alpha %.2e)\n", nsz[ni],
		       rate(t.reg, t.keys),
		       rate(count_below(&t, alpha), t.keys), alpha);
		free(aa.p1);
		worst = fmax(worst, rate(t.reg, t.keys));
		if (csv != NULL)
			fprintf(csv, "quant06\t%zu\t%zu\t%zu\n",
				nsz[ni], t.keys, t.reg);
		free(t.p1);
	}
	verdict_line(worst <= 0.01, "a true 0.6%% change printed to 0.01 ms is "
		     "a Regression <= 1%% of the time: worst %.4f", worst);
}

/* --- acceptance (issue 13) --- */
static int misses;

static void
verdict_line(int ok, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
verdict_line(int ok, const char *fmt, ...)
{
	va_list ap;

	printf("  %-6s ", ok ? "met" : "MISSED");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	misses += !ok;
}

/*
 * The Monte-Carlo standard error of a rate x / n, of (x + 1) / (n + 2)
 * (Agresti and Coull's shrinkage) so that a rate of 0 or 1 has one.
 */
static double
se_of(size_t x, size_t n)
{
	double p = ((double)x + 1) / ((double)n + 2);

	return n ? sqrt(p * (1 - p) / (double)n) : 0;
}

static int
is_iid(const struct model *m)
{
	return m->kind == M_LOGNORM || m->kind == M_POOL ||
		m->kind == M_HEAVY || m->kind == M_BIMODAL ||
		m->kind == M_QUANT || m->kind == M_NESTED;
}

static const struct cell *
cell_of(const char *model, size_t n)
{
	size_t i, a;

	for (i = 0; i < nresults; i++)
		if (strcmp(results[i].m.name, model) == 0)
			for (a = 0; a < results[i].nn; a++)
				if (results[i].c[a].n == n)
					return &results[i].c[a];
	return NULL;
}

static double
power_of(const char *model, size_t n, double e)
{
	const struct cell *c = cell_of(model, n);
	size_t k;

	for (k = 0; k < NEFF; k++)
		if (c != NULL && fabs(effects[k] - e) < 1e-9)
			return rate(c->pw_reg[k], c->pw_keys[k]);
	return NAN;
}

static void
accept_models(void)
{
	size_t i, a, b, e;

	printf("\nacceptance (issue 13): models\n");
	for (i = 0; i < nresults; i++) {
		const struct result *r = &results[i];
		double worst = 0, worst_drift = 0, worst_nodrift = 0;
		double worst_mono = 0, worst_welch = 0;
		size_t wn = 0, mn = 0, me = 0, we = 0;
		int iid = is_iid(&r->m);

		for (a = 0; a < r->nn; a++) {
			const struct cell *c = &r->c[a];
			double fr = rate(c->aa_reg, c->aa_keys);

			if (c->n <= 30 && fr > worst) {
				worst = fr;
				wn = c->n;
			}
			worst_drift = fmax(worst_drift,
					   rate(c->aa_drift, c->aa_keys));
			worst_nodrift = fmax(worst_nodrift,
					     rate(c->aa_reg_nodrift,
						  c->aa_keys));
			for (e = 0; e < NEFF; e++) {
				double pw = rate(c->pw_reg[e], c->pw_keys[e]);
				double pwel = rate(c->pw_welch[e],
						   c->pw_keys[e]);

				if (c->n >= 10 && pwel - pw > worst_welch) {
					worst_welch = pwel - pw;
					we = e;
					mn = c->n;
				}
				/*
				 * Under drift and serial correlation a
				 * Regression without the drift flag rests on
				 * an interval that does not see them (the
				 * A/A line bounds those): power is the
				 * flagged ones
				 */
				for (b = 0; b < a; b++) {
					const struct cell *d = &r->c[b];
					size_t xc = iid ? c->pw_reg[e] :
						c->pw_reg_drift[e];
					size_t xd = iid ? d->pw_reg[e] :
						d->pw_reg_drift[e];
					double lower = rate(xd, d->pw_keys[e]);
					double tol = 2 * hypot(
						se_of(xc, c->pw_keys[e]),
						se_of(xd, d->pw_keys[e]));
					double here = rate(xc, c->pw_keys[e]);

					if (lower - here - tol > worst_mono) {
						worst_mono = lower - here - tol;
						me = e;
					}
				}
			}
		}
		if (is_iid(&r->m)) {
			verdict_line(worst <= 0.01, "%-28s A/A false Regressions "
				     "<= 1%% at n <= 30: worst %.4f (n=%zu)",
				     r->m.name, worst, wn);
			verdict_line(worst_drift <= 0.05, "%-28s drift flags on "
				     "A/A <= 5%%: worst %.4f", r->m.name,
				     worst_drift);
			verdict_line(worst_welch <= 0.05, "%-28s power within "
				     "0.05 of Welch at n >= 10: worst gap %.3f "
				     "(%g%%, n=%zu)", r->m.name, worst_welch,
				     100 * effects[we], mn);
		} else {
			verdict_line(worst_nodrift <= 0.05, "%-28s Regressions "
				     "without a drift flag <= 5%%: worst %.4f",
				     r->m.name, worst_nodrift);
		}
		verdict_line(worst_mono <= 0, "%-28s power%s never lower "
			     "than at a smaller n (2 SE): worst dip %.3f beyond "
			     "2 SE (%g%%)", r->m.name, iid ? "" :
			     " (Regressions flagged drift)", worst_mono,
			     100 * effects[me]);
	}
	if (!isnan(power_of("ln1", 3, 0.10)))
		verdict_line(power_of("ln1", 3, 0.10) >= 0.9, "10%% at CV 1%%, "
			     "n=3: %.3f >= 0.9", power_of("ln1", 3, 0.10));
	if (!isnan(power_of("ln5", 100, 0.03)))
		verdict_line(power_of("ln5", 100, 0.03) >= 0.9, "3%% at CV "
			     "5%%, n=100: %.3f >= 0.9",
			     power_of("ln5", 100, 0.03));
	if (!isnan(power_of("ln5", 300, 0.03)))
		verdict_line(power_of("ln5", 300, 0.03) >= 0.98, "3%% at CV "
			     "5%%, n=300: %.3f >= 0.98",
			     power_of("ln5", 300, 0.03));
	for (i = 0; i < nresults; i++)
		if (strstr(results[i].m.name, "futex") != NULL &&
		    !isnan(power_of(results[i].m.name, 10, 0.20)))
			verdict_line(power_of(results[i].m.name, 10, 0.20) >=
				     0.75, "20%% on %s (robust CV %.1f%%), "
				     "n=10: %.3f >= 0.75", results[i].m.name,
				     100 * (results[i].m.rescale > 0 ?
					    results[i].m.rescale :
					    pools[results[i].m.pool[0]].rcv),
				     power_of(results[i].m.name, 10, 0.20));
}

int
main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "pools", required_argument, NULL, 'p' },
		{ "n", required_argument, NULL, 'n' },
		{ "nights", required_argument, NULL, 'N' },
		{ "seed", required_argument, NULL, 's' },
		{ "csv", required_argument, NULL, 'c' },
		{ "plant", required_argument, NULL, 'P' },
		{ NULL, 0, NULL, 0 }
	};
	size_t ns[16] = { 3, 5, 10, 30, 100, 300 }, nn = 6;
	FILE *csv = NULL;
	int c, i;

	while ((c = getopt_long(argc, argv, "p:n:N:s:c:P:", lo, NULL)) !=
	       -1) {
		switch (c) {
		case 'p':
			load_pools(optarg);
			break;
		case 'n': {
			char *p = optarg;

			nn = 0;
			while (*p && nn < 16) {
				ns[nn++] = strtoul(p, &p, 10);
				if (*p == ',')
					p++;
			}
			break;
		}
		case 'N':
			nights_aa = strtoul(optarg, NULL, 10);
			nights_pw = nights_aa * 2 / 5;
			break;
		case 's':
			seed0 = strtoull(optarg, NULL, 10);
			break;
		case 'c':
			csv = fopen(optarg, "w");
			break;
		case 'P':
			if (strcmp(optarg, "all") == 0)
				power_plant = P_ALL;
			else if (strcmp(optarg, "test") == 0)
				power_plant = P_TEST;
			else
				return 2;
			break;

		default:
			return 2;
		}
	}
	if (optind < argc && strcmp(argv[optind], "sys") == 0) {
		table_sys(5, csv);
		table_sys(10, csv);
		return misses ? 1 : 0;
	}
	if (optind < argc && strcmp(argv[optind], "runs") == 0) {
		table_runs(csv);
		return misses ? 1 : 0;
	}
	if (optind < argc && strcmp(argv[optind], "split") == 0) {
		static const size_t sn[] = { 5, 10 };
		size_t a;

		printf("\nreal A/A splits of the pools\n");
		for (i = optind + 1; i < argc; i++)
			for (a = 0; a < 2; a++) {
				table_split(argv[i], sn[a], 0, csv);
				table_split(argv[i], sn[a], 1, csv);
			}
		return 0;
	}
	if (optind < argc && strcmp(argv[optind], "quant06") == 0) {
		table_quant(csv);
		return misses ? 1 : 0;
	}
	for (i = optind; i < argc; i++) {
		struct model m;

		if (parse_model(argv[i], &m) < 0) {
			fprintf(stderr, "verdict-sim: unknown model '%s'\n",
				argv[i]);
			return 2;
		}
		table_model(&m, ns, nn, csv);
	}
	accept_models();
	if (csv != NULL)
		fclose(csv);
	return misses ? 1 : 0;
}
