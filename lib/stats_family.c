/*
 * stats_family: what a family of comparisons and a run order need (see
 * stats.h): the Benjamini-Hochberg adjustment and Simes' combination, the
 * smallest detectable change and the runs it takes, the Mann-Kendall test
 * of a trend across run order and the variance factor of AR(1) noise.
 * stats.c keeps the tests, intervals and effect sizes of one comparison.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "xalloc.h"

struct pidx {
	double p;
	size_t i;
};

static int
cmp_pidx(const void *a, const void *b)
{
	const struct pidx *x = a, *y = b;
	if (x->p != y->p)
		return (x->p > y->p) - (x->p < y->p);
	return (x->i > y->i) - (x->i < y->i);
}

/* families of a few keys, the usual: on the stack, sorted in place */
#define BH_SMALL 16

void
pv_stats_bh(const double *p, size_t n, double *adj)
{
	struct pidx small[BH_SMALL], *v;
	double run = 1;
	size_t k, j;
	int nan = 0;

	if (n == 0)
		return;
	v = n <= BH_SMALL ? small : pv_xreallocarray(NULL, n, sizeof(*v));
	for (k = 0; k < n; k++) {
		v[k] = (struct pidx){ p[k], k };
		nan |= isnan(p[k]);
	}
	if (n > BH_SMALL || nan) {
		qsort(v, n, sizeof(*v), cmp_pidx);
	} else {
		/* insertion is stable: by p, then index, as cmp_pidx */
		for (k = 1; k < n; k++) {
			struct pidx e = v[k];

			for (j = k; j > 0 && v[j - 1].p > e.p; j--)
				v[j] = v[j - 1];
			v[j] = e;
		}
	}
	for (k = n; k-- > 0;) {
		double a = v[k].p * (double)n / (double)(k + 1);

		if (a < run)
			run = a;
		v[k].p = run;
	}
	for (k = 0; k < n; k++)
		adj[v[k].i] = v[k].p;
	if (v != small)
		free(v);
}

double
pv_stats_simes(const double *p, size_t n)
{
	double small[BH_SMALL], *s = n <= BH_SMALL ? small :
		pv_xreallocarray(NULL, n, sizeof(double)), best = 1;
	size_t k;

	memcpy(s, p, n * sizeof(double));
	pv_stats_sort(s, n);
	for (k = 0; k < n; k++) {
		double a = s[k] * (double)n / (double)(k + 1);

		if (a < best)
			best = a;
	}
	if (s != small)
		free(s);
	return best;
}

double
pv_stats_mde(size_t na, size_t nb, double alpha, double power)
{
	unsigned df = (unsigned)(na + nb - 2);

	if (na + nb < 3)
		return INFINITY;
	return (pv_stats_t_quantile_whole(1 - alpha / 2, df) +
		pv_stats_t_quantile_whole(power, df)) *
		sqrt(1 / (double)na + 1 / (double)nb);
}

/* S and its tie-corrected variance for one group */
static void
kendall_group(const double *v, const double *t, size_t n, double *s,
	      double *var)
{
	double *w = pv_xreallocarray(NULL, n ? n : 1, sizeof(*w));
	double nn = (double)n, tie = 0;
	size_t i, j;

	*s = 0;
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++) {
			double dv = v[j] - v[i], dt = t[j] - t[i];

			*s += (double)((dv > 0) - (dv < 0)) *
				(double)((dt > 0) - (dt < 0));
		}
	memcpy(w, v, n * sizeof(*w));
	pv_stats_sort(w, n);
	for (i = 0; i < n; i = j) {
		double k;

		for (j = i + 1; j < n && w[j] == w[i]; j++)
			;
		k = (double)(j - i);
		tie += k * (k - 1) * (2 * k + 5);
	}
	*var = (nn * (nn - 1) * (2 * nn + 5) - tie) / 18;
	free(w);
}

void
pv_stats_kendall_trend(const double *x, const double *tx, size_t nx,
		       const double *y, const double *ty, size_t ny,
		       struct pv_kendall *k)
{
	double sx, vx, sy, vy;

	kendall_group(x, tx, nx, &sx, &vx);
	kendall_group(y, ty, ny, &sy, &vy);
	k->s = sx + sy;
	k->var = vx + vy;
	k->z = k->var > 0 ? k->s / sqrt(k->var) : 0;
	k->p = k->var > 0 ? 2 * pv_stats_normal_sf(fabs(k->z)) : 1;
}

/*
 * With unit variance and corr(i, j) = rho^|i - j|: Var(mean(y) - mean(x))
 * is the sum over pairs of rho^|i - j| times +1/n_g^2 within a group and
 * -1/(nx ny) across; E[s_g^2] = (n_g - G_g) / (n_g - 1) with G_g the sum
 * within the group over n_g (the variance of its mean times n_g).  The
 * powers of rho come from one table; the double sum is O(n^2).
 */
double
pv_stats_ar1_factor(const unsigned char *side, size_t n, double rho)
{
	double cnt[2] = { 0, 0 }, v = 0, gs[2] = { 0, 0 }, e, *pw;
	size_t i, j;

	if (!(rho > 0) || n < 4)
		return 1;
	for (i = 0; i < n; i++)
		cnt[side[i] != 0]++;
	if (cnt[0] < 2 || cnt[1] < 2)
		return 1;
	pw = pv_xreallocarray(NULL, n, sizeof(*pw));
	pw[0] = 1;
	for (i = 1; i < n; i++)
		pw[i] = pw[i - 1] * rho;
	for (i = 0; i < n; i++) {
		int a = side[i] != 0;

		for (j = 0; j < n; j++) {
			int b = side[j] != 0;
			double r = pw[i > j ? i - j : j - i];

			if (a == b) {
				v += r / (cnt[a] * cnt[a]);
				gs[a] += r / cnt[a];
			} else {
				v -= r / (cnt[0] * cnt[1]);
			}
		}
	}
	free(pw);
	e = (cnt[0] - gs[0]) / (cnt[0] - 1) / cnt[0] +
		(cnt[1] - gs[1]) / (cnt[1] - 1) / cnt[1];
	return e > 0 ? v / e : 1;
}

size_t
pv_stats_runs_needed(double effect, double alpha, double power, size_t max)
{
	size_t n;

	for (n = 2; n <= max; n++)
		if (pv_stats_mde(n, n, alpha, power) <= effect)
			return n;
	return max + 1;
}
