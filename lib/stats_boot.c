/*
 * stats_boot: the exact bootstrap of the difference of medians (see
 * stats.h): the resample median's distribution over order statistics,
 * kept per sample size, and the quantiles of the difference of two, found
 * among their atoms without enumerating the pairs.  stats.c keeps the
 * resampling bootstrap and the other tests of one comparison.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sf_gamma.h>

#include "stats.h"
#include "stats_int.h"
#include "xalloc.h"

/*
 * The exact bootstrap of the median.  For a resample of n draws from
 * sorted s[1..n] (indices uniform), with N(i) the number of draws at
 * indices <= i, Binomial(n, i/n):
 *   n odd, n = 2m+1: the median is s[I], P(I <= i) = P(N(i) >= m+1);
 *   n even, n = 2m: it is (s[I] + s[J]) / 2, I and J the m-th and
 *   (m+1)-th order statistics; for i < j
 *     P(I = i, J = j) = C(n, m) (i^m - (i-1)^m) / n^m
 *                       ((n-j+1)^(n-m) - (n-j)^(n-m)) / n^(n-m)
 *   (m draws in [1, i] reaching i, the others in [j, n] reaching j), and
 *   P(I = J = i) = P(I = i) - sum over j > i of P(I = i, J = j).
 * These depend on n only and are kept per n.
 */
struct boot_atom {
	unsigned short i, j;	/* 0-based indices; i == j when odd */
	double p;
};

static _Thread_local struct {
	struct boot_atom *a;
	size_t n;
} boot_cache[PV_STATS_BOOT_EXACT_MAX + 1];

/* P(Binomial(n, i/n) >= k) */
static double
binom_ge(size_t k, size_t i, size_t n)
{
	if (k == 0)
		return 1;
	if (i == 0)
		return 0;
	if (i == n)
		return 1;
	return gsl_cdf_binomial_Q((unsigned)(k - 1), (double)i / (double)n,
				  (unsigned)n);
}

static const struct boot_atom *
boot_atoms(size_t n, size_t *na)
{
	struct boot_atom *a;
	size_t m = n / 2, i, j, k = 0;

	if (boot_cache[n].a != NULL) {
		*na = boot_cache[n].n;
		return boot_cache[n].a;
	}
	a = pv_xreallocarray(NULL, n * (n + 1) / 2, sizeof(*a));
	if (n % 2) {
		for (i = 1; i <= n; i++) {
			double p = binom_ge(m + 1, i, n) -
				binom_ge(m + 1, i - 1, n);

			if (p > 0)
				a[k++] = (struct boot_atom){ (unsigned short)
					(i - 1), (unsigned short)(i - 1), p };
		}
	} else {
		double c = exp(gsl_sf_lnchoose((unsigned)n, (unsigned)m));
		double dn = (double)n;

		for (i = 1; i <= n; i++) {
			double pi = binom_ge(m, i, n) - binom_ge(m, i - 1, n);
			double low = pow((double)i / dn, (double)m) -
				pow((double)(i - 1) / dn, (double)m);
			double off = 0;
			size_t diag = k++;

			for (j = i + 1; j <= n; j++) {
				double p = c * low *
					(pow((double)(n - j + 1) / dn,
					     (double)(n - m)) -
					 pow((double)(n - j) / dn,
					     (double)(n - m)));

				off += p;
				if (p > 0)
					a[k++] = (struct boot_atom){
						(unsigned short)(i - 1),
						(unsigned short)(j - 1), p };
			}
			a[diag] = (struct boot_atom){ (unsigned short)(i - 1),
				(unsigned short)(i - 1), pi - off };
			if (!(a[diag].p > 0))
				a[diag].p = 0;
		}
	}
	boot_cache[n].a = a;
	boot_cache[n].n = k;
	*na = k;
	return a;
}

struct vp {
	double v, p;
};

/*
 * The distribution of the resample median of sorted s, ascending values,
 * into d (room for n (n + 1) / 2 + 1).
 */
static void
median_dist(const double *s, size_t n, struct vp *d, size_t *nv)
{
	size_t na, i, j;
	const struct boot_atom *a = boot_atoms(n, &na);

	for (i = 0; i < na; i++) {
		struct vp e;

		e.v = a[i].i == a[i].j ? s[a[i].i] : (s[a[i].i] + s[a[i].j]) / 2;
		e.p = a[i].p;
		for (j = i; j > 0 && d[j - 1].v > e.v; j--)
			d[j] = d[j - 1];
		d[j] = e;
	}
	*nv = na;
}

/*
 * P(Y - X <= t), X and Y independent with ascending atoms, sx the suffix
 * sums of X's probabilities; with the largest atom y - x <= t in *le
 * (-inf if none), the smallest above t in *gt (+inf if none) and the
 * number of atoms (pairs) <= t in *count.  X's values are xv, apart
 * (the loop steps through them alone), with sentinels, xv[-1] at -inf
 * and xv[nx] at +inf: y - xv[nx] is never above t, nor y - xv[-1] below
 * a bound, so the loop needs no test of its ends.
 */
static double
diff_cdf(const double *xv, const double *sx, size_t nx, const struct vp *y,
	 size_t ny, double t, double *le, double *gt, size_t *count)
{
	double acc = 0, lo = -INFINITY, hi = INFINITY, a, b;
	const double *xm = xv - 1;
	size_t i = 0, j = 0, c = 0;

	/*
	 * The Y with every y - x <= t first: all of X counts, and no atom
	 * of theirs is above t.  The sums are taken in the order of Y all
	 * the same, so that every bit is that of one loop over Y.
	 */
	for (; j < ny && (a = y[j].v - xv[0]) <= t; j++) {
		acc += y[j].p * sx[0];
		lo = a > lo ? a : lo;
	}
	/*
	 * Skip the X with y - x > t; the bound rises with Y.  The test is
	 * on the atom as computed, y - x, so that an atom is counted at
	 * t equal to it (x < y - t may round the other way).
	 */
	for (; j < ny; j++) {
		double v = y[j].v;

		while (v - xv[i] > t)
			i++;
		if (i == nx)
			break;
		acc += y[j].p * sx[i];
		c += i;
		/* x[i] is the smallest X with y - x <= t, x[i-1] above t */
		a = v - xv[i];
		b = v - xm[i];
		lo = a > lo ? a : lo;
		hi = b < hi ? b : hi;
	}
	/*
	 * The rest, every y - x > t: they add nothing (a zero added leaves
	 * the sum's bits), and the smallest of their atoms is the first's
	 * y - x[nx - 1], which the others do not undercut.
	 */
	if (j < ny) {
		b = y[j].v - xv[nx - 1];
		hi = b < hi ? b : hi;
		c += (ny - j) * nx;
	}
	*le = lo;
	*gt = hi;
	*count = nx * ny - c;
	return acc;
}

/*
 * The normal quantile of a probability, finite at 0 and 1, to about 5e-4
 * (Abramowitz and Stegun 26.2.23): it only steers the search below, whose
 * answer is exact, so one logarithm does instead of GSL's inverse.
 */
static double
probit(double p)
{
	double q, t;

	if (p < 1e-15)
		p = 1e-15;
	if (p > 1 - 1e-15)
		p = 1 - 1e-15;
	q = p < 0.5 ? p : 1 - p;
	t = sqrt(-2 * log(q));
	t -= (2.515517 + t * (0.802853 + t * 0.010328)) /
		(1 + t * (1.432788 + t * (0.189269 + t * 0.001308)));
	return p < 0.5 ? -t : t;
}

/*
 * probit(level) and the ends probit(0) and probit(1), kept: every key
 * asks the same two levels, and the ends are constants.
 */
static _Thread_local struct memo2 probit_kept;
static _Thread_local struct {
	double end0, end1;
	int have;
} probit_ends;

static void
probit_consts(double level, double *z, double *end0, double *end1)
{
	if (!probit_ends.have) {
		probit_ends.end0 = probit(0);
		probit_ends.end1 = probit(1);
		probit_ends.have = 1;
	}
	*end0 = probit_ends.end0;
	*end1 = probit_ends.end1;
	if (memo2_get(&probit_kept, level, 0, z))
		return;
	*z = probit(level);
	memo2_put(&probit_kept, level, 0, *z);
}

/* Atoms of Y - X left between the ends when they are listed instead. */
#define DIFF_FEW 32

/*
 * The quantile among the atoms in (L, H], at most DIFF_FEW of them, FL
 * being P(Y - X <= L): list them, order them, add their probabilities.
 */
static double
diff_few(const struct vp *x, const double *xv, const struct vp *y,
	 size_t ny, double L, double H, double FL, double level)
{
	struct vp a[DIFF_FEW];
	size_t n = 0, ih = 0, il = 0, i, j;
	double f = FL;

	for (j = 0; j < ny; j++) {
		/* [ih, il): the X with L < y - x <= H */
		/* the sentinel xv[nx] stops both */
		while (y[j].v - xv[ih] > H)
			ih++;
		if (il < ih)
			il = ih;
		while (y[j].v - xv[il] > L)
			il++;
		for (i = ih; i < il && n < DIFF_FEW; i++) {
			struct vp e;
			size_t k;

			/* in order as they come: a few dozen */
			e.v = y[j].v - xv[i];
			e.p = y[j].p * x[i].p;
			for (k = n++; k > 0 && a[k - 1].v > e.v; k--)
				a[k] = a[k - 1];
			a[k] = e;
		}
	}
	for (i = 0; i < n; i++) {
		/* a[0..n) was filled above */
		/* cppcheck-suppress uninitvar */
		f += a[i].p;
		if (f >= level && (i + 1 == n || a[i + 1].v != a[i].v))
			return a[i].v;
	}
	return H;
}

/* The mean, deviation, skewness and excess kurtosis of a distribution. */
struct shape {
	double mean, sd, skew, kurt;
};

/* Of Y - X from the atoms of X and Y, through the cumulants. */
static void
diff_shape(const struct vp *x, size_t nx, const struct vp *y, size_t ny,
	   struct shape *d)
{
	double m[2] = { 0, 0 }, k2[2] = { 0, 0 }, k3[2] = { 0, 0 };
	double k4[2] = { 0, 0 }, c2, c3, c4;
	const struct vp *a[2] = { x, y };
	size_t n[2] = { nx, ny }, s, i;

	for (s = 0; s < 2; s++) {
		double m2 = 0, m3 = 0, m4 = 0;

		for (i = 0; i < n[s]; i++)
			m[s] += a[s][i].p * a[s][i].v;
		for (i = 0; i < n[s]; i++) {
			double e = a[s][i].v - m[s], e2 = e * e;

			m2 += a[s][i].p * e2;
			m3 += a[s][i].p * e2 * e;
			m4 += a[s][i].p * e2 * e2;
		}
		k2[s] = m2;
		k3[s] = m3;
		k4[s] = m4 - 3 * m2 * m2;
	}
	/* cumulants of a difference: odd ones subtract, even ones add */
	c2 = k2[1] + k2[0];
	c3 = k3[1] - k3[0];
	c4 = k4[1] + k4[0];
	d->mean = m[1] - m[0];
	d->sd = sqrt(c2);
	d->skew = c2 > 0 ? c3 / (c2 * d->sd) : 0;
	d->kurt = c2 > 0 ? c4 / (c2 * c2) : 0;
}

/*
 * The smallest atom a of Y - X with P(Y - X <= a) >= level (0 < level < 1).
 * The search keeps two bounds, L below the quantile (at first below every
 * atom) and H at or above it (at first the largest atom); each step
 * evaluates the CDF at a point in between and moves one bound to the atom
 * found there.  The first point is the normal approximation from the
 * means and variances of X and Y; while one bound has not moved, a step
 * on the normal quantile scale of the CDF with that approximation's slope,
 * from the bound that moved and half as far again past the level, follows;
 * then the point where the line through the bounds, on that
 * scale, meets the level (the Illinois variant of regula falsi, which
 * halves the retained end's distance when one end moves twice running),
 * or, after four moves of one end, the middle.  Every step drops at least
 * one atom and most drop nearly all; once DIFF_FEW or fewer are left they
 * are listed and added up in order.  The steering only decides where to
 * look: the atom returned is exact whatever the approximations.
 */
static double
diff_quantile(const struct vp *x, const double *xv, const double *sx,
	      size_t nx, const struct vp *y, size_t ny, const struct shape *d,
	      double level)
{
	/* N: the smallest atom above L */
	double L = -INFINITY, N = y[0].v - x[nx - 1].v, H = y[ny - 1].v - x[0].v;
	double zl, FL = 0, gL, gH, le, gt, t = 0, f, g = 0;
	double sd = d->sd;
	size_t cL = 0, cH = nx * ny, c;
	int side = 0, run = 0, moved = 0;	/* bit 0: L moved, bit 1: H */

	probit_consts(level, &zl, &gL, &gH);
	gL -= zl;
	gH -= zl;
	for (;;) {
		double lo = moved & 1 ? L : N;

		if (!(N < H))
			return H;
		if (cH - cL <= DIFF_FEW)
			return diff_few(x, xv, y, ny, L, H, FL, level);
		if (moved == 0) {
			/* Cornish-Fisher: the normal quantile corrected
			 * for skewness and excess kurtosis */
			double z2 = zl * zl;

			t = d->mean + sd * (zl + (z2 - 1) * d->skew / 6 +
					    (z2 - 3) * zl * d->kurt / 24 -
					    (2 * z2 - 5) * zl * d->skew *
					    d->skew / 36);
		} else if (moved != 3) {
			/*
			 * From the end that moved, past the level by half
			 * as much again, so that the next point brackets it;
			 * a step from the last point itself often stayed at
			 * or above H, where only halving [N, H) was left,
			 * or crept by an atom a step.
			 */
			t = (moved & 2 ? H : lo) - 1.5 * g * sd;
			if (moved & 2 && !(t < H))
				t = nextafter(H, -INFINITY);
		} else if (run >= 4) {
			t = lo + (H - lo) / 2;
			run = 0;
		} else
			t = lo + (H - lo) * (-gL / (gH - gL));
		if (!(t >= N))
			t = N;
		if (!(t < H))
			t = N + (H - N) / 2;
		f = diff_cdf(xv, sx, nx, y, ny, t, &le, &gt, &c);
		g = probit(f) - zl;
		if (f >= level) {
			/* an atom in (L, t] lifts the CDF to level: le > L */
			H = le;
			cH = c;
			gH = g;
			moved |= 2;
			if (side > 0) {
				run++;
				gL /= 2;	/* Illinois */
			}
			side = 1;
		} else {
			L = le;
			N = gt;
			cL = c;
			FL = f;
			gL = g;
			moved |= 1;
			if (side < 0) {
				run++;
				gH /= 2;
			}
			side = -1;
		}
	}
}

int
pv_stats_bootstrap_median_diff_exact(const double *x, size_t nx,
				     const double *y, size_t ny, double conf,
				     double *lo, double *hi)
{
	double ss[32], *s;
	int r;

	if (nx < 1 || ny < 1 || nx > PV_STATS_BOOT_EXACT_MAX ||
	    ny > PV_STATS_BOOT_EXACT_MAX)
		return -1;
	s = nx + ny <= 32 ? ss : pv_xreallocarray(NULL, nx + ny, sizeof(*s));
	memcpy(s, x, nx * sizeof(*s));
	memcpy(s + nx, y, ny * sizeof(*s));
	pv_stats_sort(s, nx);
	pv_stats_sort(s + nx, ny);
	r = pv_stats_bootstrap_median_diff_exact_sorted(s, nx, s + nx, ny,
							conf, lo, hi);
	if (s != ss)
		free(s);
	return r;
}

int
pv_stats_bootstrap_median_diff_exact_sorted(const double *sx_, size_t nx,
					    const double *sy_, size_t ny,
					    double conf, double *lo,
					    double *hi)
{
	/* up to 16 runs a side (136 atoms) without the allocator; X's
	 * values apart, with their sentinels (diff_cdf()) */
	struct vp sdx[137], sdy[137];
	double ssx[137 + 138], *sx, *xv;
	struct vp *dx, *dy;
	struct shape shape;
	size_t ax, ay, i;
	int small = nx <= 16 && ny <= 16;

	pv_stats_gsl_quiet();
	if (nx < 1 || ny < 1 || nx > PV_STATS_BOOT_EXACT_MAX ||
	    ny > PV_STATS_BOOT_EXACT_MAX)
		return -1;
	dx = small ? sdx : pv_xreallocarray(NULL, nx * (nx + 1) / 2 + 1,
					     sizeof(*dx));
	dy = small ? sdy : pv_xreallocarray(NULL, ny * (ny + 1) / 2 + 1,
					     sizeof(*dy));
	median_dist(sx_, nx, dx, &ax);
	median_dist(sy_, ny, dy, &ay);
	/* the suffix sums, then X's values with the sentinels */
	sx = small ? ssx : pv_xreallocarray(NULL, 2 * ax + 3, sizeof(*sx));
	sx[ax] = 0;
	for (i = ax; i-- > 0;)
		sx[i] = sx[i + 1] + dx[i].p;
	xv = sx + ax + 2;
	xv[-1] = -INFINITY;
	for (i = 0; i < ax; i++)
		xv[i] = dx[i].v;
	xv[ax] = INFINITY;
	diff_shape(dx, ax, dy, ay, &shape);
	*lo = diff_quantile(dx, xv, sx, ax, dy, ay, &shape, (1 - conf) / 2);
	*hi = diff_quantile(dx, xv, sx, ax, dy, ay, &shape,
			    1 - (1 - conf) / 2);
	if (!small) {
		free(sx);
		free(dx);
		free(dy);
	}
	return 0;
}

void
pv_stats_boot_release(void)
{
	size_t n;

	for (n = 0; n <= PV_STATS_BOOT_EXACT_MAX; n++) {
		free(boot_cache[n].a);
		boot_cache[n].a = NULL;
		boot_cache[n].n = 0;
	}
}
