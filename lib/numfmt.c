/*
 * numfmt: "%.10g" without printf, and the exact round-trip form of a
 * double without printf for the common magnitudes (see numfmt.h).
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "numfmt.h"

/* powers of ten that a double holds exactly */
static const double p10[] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22
};

/* a * 10^k, k in any range (one rounding step inside +-22) */
static double
scale10(double a, int k)
{
	while (k > 22) {
		a *= 1e22;
		k -= 22;
	}
	while (k < -22) {
		a /= 1e22;
		k += 22;
	}
	return k >= 0 ? a * p10[k] : a / p10[-k];
}

/* "00" .. "99" */
static const char digit_pairs[] =
	"00010203040506070809101112131415161718192021222324252627282930"
	"31323334353637383940414243444546474849505152535455565758596061"
	"62636465666768697071727374757677787980818283848586878889909192"
	"93949596979899";

/* the ten digits of m (< 10^10) into d */
static void
ten_digits(char *d, uint64_t m)
{
	uint32_t hi = (uint32_t)(m / 100000), lo = (uint32_t)(m % 100000);
	int i;

	d[4] = (char)('0' + hi % 10);
	d[9] = (char)('0' + lo % 10);
	hi /= 10;
	lo /= 10;
	for (i = 2; i >= 0; i -= 2) {
		memcpy(d + i, digit_pairs + 2 * (hi % 100), 2);
		memcpy(d + 5 + i, digit_pairs + 2 * (lo % 100), 2);
		hi /= 100;
		lo /= 100;
	}
}

void
pv_numfmt(struct pv_strbuf *sb, double v)
{
	char dig[12], out[32], *o = out;
	uint64_t m;
	double a;
	int e, b, k, nd, i;

	if (isnan(v)) {
		pv_strbuf_addch(sb, '-');
		return;
	}
	if (isinf(v)) {
		pv_strbuf_addstr(sb, v < 0 ? "-inf" : "inf");
		return;
	}
	if (v == 0) {
		pv_strbuf_addch(sb, '0');
		return;
	}
	if (v < 0)
		*o++ = '-';
	a = fabs(v);
	/*
	 * The decimal exponent from the binary one: 2^(b-1) <= a < 2^b,
	 * so this is floor(log10(a)) or one less.  Then up to the smallest
	 * e whose ten digits do not round to eleven: the e of "%.10g".
	 */
	(void)frexp(a, &b);
	e = (int)floor((b - 1) * 0.30102999566398120);
	m = (uint64_t)llround(scale10(a, 9 - e));
	for (k = 0; m >= 10000000000ULL && k < 3; k++) {
		e++;
		m = (uint64_t)llround(scale10(a, 9 - e));
	}
	if (m >= 10000000000ULL)
		m = 1000000000ULL;
	if (m < 1000000000ULL) {	/* the estimate was high: never */
		e--;
		m = (uint64_t)llround(scale10(a, 9 - e));
	}
	ten_digits(dig, m);
	for (nd = 10; nd > 1 && dig[nd - 1] == '0'; nd--)
		;
	/* at most 1 + 11 + 5 bytes, or 1 + 5 + 10: out has room */
	if (e < -4 || e >= 10) {
		*o++ = dig[0];
		if (nd > 1) {
			*o++ = '.';
			memcpy(o, dig + 1, (size_t)nd - 1);
			o += nd - 1;
		}
		*o++ = 'e';
		*o++ = e < 0 ? '-' : '+';
		k = abs(e);
		if (k >= 100)
			*o++ = (char)('0' + k / 100);
		memcpy(o, digit_pairs + 2 * (k % 100), 2);
		o += 2;
	} else if (e < 0) {
		*o++ = '0';
		*o++ = '.';
		for (i = -1; i > e; i--)
			*o++ = '0';
		memcpy(o, dig, (size_t)nd);
		o += nd;
	} else {
		i = e + 1 > nd ? nd : e + 1;
		memcpy(o, dig, (size_t)i);
		o += i;
		for (i = nd; i < e + 1; i++)
			*o++ = '0';
		if (nd > e + 1) {
			*o++ = '.';
			memcpy(o, dig + e + 1, (size_t)(nd - e - 1));
			o += nd - e - 1;
		}
	}
	pv_strbuf_add(sb, out, (size_t)(o - out));
}

/*
 * pv_numfmt_exact(): the first of "%.15g", "%.16g", "%.17g" that reads
 * back, computed exactly.  A finite nonzero double is m * 2^-E with m a
 * 53-bit integer.  Its P-digit decimal form N * 10^-k is then
 * m * 10^k / 2^E rounded to an integer, half to even as glibc's printf
 * rounds exact ties, and N * 10^-k reads back as the double iff it lies
 * within half a gap of it:
 *
 *	|N * 2^(E+1) - 2m * 10^k| <= 10^k
 *
 * (equality only when m is even, as strtod() rounds ties to even; below
 * a power of two the gap below is half as wide).  With k at most 22 and
 * E at most 72 every term fits in 128 bits.
 */

typedef unsigned __int128 u128;

/* 10^0 .. 10^22, exact in 64 bits up to 10^19; the rest built below */
static const uint64_t pow10_64[] = {
	1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL,
	10000000ULL, 100000000ULL, 1000000000ULL, 10000000000ULL,
	100000000000ULL, 1000000000000ULL, 10000000000000ULL,
	100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
	100000000000000000ULL, 1000000000000000000ULL,
	10000000000000000000ULL
};

#define MAXK 22
#define MAXE 72

static u128
pow10_128(int k)
{
	if (k < 20)
		return pow10_64[k];
	return (u128)pow10_64[19] * pow10_64[k - 19];
}

size_t
pv_numfmt_u64(char *buf, uint64_t v)
{
	char tmp[20];
	size_t n = sizeof(tmp), len;

	while (v >= 100) {
		unsigned d = (unsigned)(v % 100);

		v /= 100;
		n -= 2;
		memcpy(tmp + n, digit_pairs + 2 * d, 2);
	}
	if (v >= 10) {
		n -= 2;
		memcpy(tmp + n, digit_pairs + 2 * v, 2);
	} else {
		tmp[--n] = (char)('0' + v);
	}
	len = sizeof(tmp) - n;
	memcpy(buf, tmp + n, len);
	return len;
}

/* printf and strtod: the definition pv_numfmt_exact() must match */
static size_t
slow_exact(char *buf, double v)
{
	int prec;

	for (prec = 15; prec <= 17; prec++) {
		snprintf(buf, PV_NUMFMT_MAX, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	return strlen(buf);
}

/*
 * m * 2^-E rounded to prec significant digits: the digits as an integer
 * of exactly prec digits, and in *x the decimal exponent of the first.
 * *x comes in as an estimate.  Returns 0, or -1 when the numbers would
 * not fit in 128 bits.
 */
static int
round_digits(uint64_t m, int e, int prec, int *x, uint64_t *n)
{
	for (;;) {
		int k = prec - 1 - *x;
		u128 num, r, half;
		uint64_t q;

		if (k < 0 || k > MAXK)
			return -1;
		num = (u128)m * pow10_128(k);
		if ((num >> e) >= pow10_64[prec]) {
			(*x)++;
			continue;
		}
		q = (uint64_t)(num >> e);
		if (q < pow10_64[prec - 1]) {
			(*x)--;
			continue;
		}
		r = num - ((u128)q << e);
		half = (u128)1 << (e - 1);
		if (r > half || (r == half && (q & 1)))
			q++;
		if (q == pow10_64[prec]) {
			q = pow10_64[prec - 1];
			(*x)++;
		}
		*n = q;
		return 0;
	}
}

/* Whether n * 10^(x+1-prec) reads back as m * 2^-e; -1: cannot tell. */
static int
reads_back(uint64_t m, int e, int low_half_gap, uint64_t n, int prec, int x)
{
	int k = prec - 1 - x;
	u128 a, b, p, diff;

	if (k < 0 || k > MAXK)
		return -1;
	p = pow10_128(k);
	a = (u128)n << (e + 1);
	b = (u128)(2 * m) * p;
	if (a >= b) {
		diff = a - b;
		return diff < p || (diff == p && !(m & 1));
	}
	diff = b - a;
	if (low_half_gap)	/* half the width; m is 2^52, even */
		return diff <= p && diff * 2 <= p;
	return diff < p || (diff == p && !(m & 1));
}

size_t
pv_numfmt_exact(char *buf, double v)
{
	char dig[20], *p = buf;
	uint64_t bits, m, n = 0;
	int bexp, e, l2, x, prec, nd, i, ok = 0;

	memcpy(&bits, &v, sizeof(bits));
	bexp = (int)((bits >> 52) & 0x7ff);
	m = bits & ((1ULL << 52) - 1);
	if (bexp == 0x7ff || (bexp == 0 && m != 0))
		return slow_exact(buf, v);	/* NaN, inf, subnormal */
	if (bits >> 63)
		*p++ = '-';
	if (bexp == 0) {
		*p++ = '0';
		*p = '\0';
		return (size_t)(p - buf);
	}
	if (fabs(v) < 1e15 && v == trunc(v)) {
		p += pv_numfmt_u64(p, (uint64_t)fabs(v));
		*p = '\0';
		return (size_t)(p - buf);
	}
	m |= 1ULL << 52;
	e = 1075 - bexp;		/* |v| = m * 2^-e */
	if (e <= 0 || e > MAXE)
		return slow_exact(buf, v);
	/* floor(log10(2^l2)), off by at most one: round_digits() adjusts */
	l2 = 52 - e;
	x = l2 >= 0 ? (l2 * 1233) >> 12 : -((-l2 * 1233 + 4095) >> 12);
	for (prec = 15; prec <= 17; prec++) {
		if (round_digits(m, e, prec, &x, &n) < 0)
			return slow_exact(buf, v);
		if (prec == 17)
			break;	/* 17 digits always read back */
		ok = reads_back(m, e, m == 1ULL << 52 && bexp > 1, n, prec,
				x);
		if (ok < 0)
			return slow_exact(buf, v);
		if (ok)
			break;
	}
	for (i = prec - 1; i >= 0; i--) {
		dig[i] = (char)('0' + n % 10);
		n /= 10;
	}
	for (nd = prec; nd > 1 && dig[nd - 1] == '0'; nd--)
		;
	if (x < -4 || x >= prec) {
		*p++ = dig[0];
		if (nd > 1) {
			*p++ = '.';
			memcpy(p, dig + 1, (size_t)nd - 1);
			p += nd - 1;
		}
		*p++ = 'e';
		*p++ = x < 0 ? '-' : '+';
		i = x < 0 ? -x : x;
		if (i >= 100) {
			*p++ = (char)('0' + i / 100);
			i %= 100;
		}
		memcpy(p, digit_pairs + 2 * i, 2);
		p += 2;
	} else if (x < 0) {
		*p++ = '0';
		*p++ = '.';
		for (i = -1; i > x; i--)
			*p++ = '0';
		memcpy(p, dig, (size_t)nd);
		p += nd;
	} else {
		for (i = 0; i <= x; i++)
			*p++ = i < nd ? dig[i] : '0';
		if (nd > x + 1) {
			*p++ = '.';
			memcpy(p, dig + x + 1, (size_t)(nd - x - 1));
			p += nd - x - 1;
		}
	}
	*p = '\0';
	return (size_t)(p - buf);
}

void
pv_numfmt_exact_add(struct pv_strbuf *sb, double v)
{
	pv_strbuf_grow(sb, PV_NUMFMT_MAX);
	pv_strbuf_setlen(sb, sb->len + pv_numfmt_exact(sb->buf + sb->len,
						       v));
}

size_t
pv_numfmt_fixed(char *buf, double v, int prec, int plus)
{
	uint64_t bits, m, q, ip, fp;
	char *p = buf;
	int bexp, e, i;

	memcpy(&bits, &v, sizeof(bits));
	bexp = (int)((bits >> 52) & 0x7ff);
	m = bits & ((1ULL << 52) - 1);
	if (prec < 0 || prec > 6 || bexp == 0x7ff ||
	    fabs(v) >= 9223372036854775808.0 / (double)pow10_64[prec])
		return (size_t)snprintf(buf, PV_NUMFMT_FIXED_MAX,
					plus ? "%+.*f" : "%.*f", prec, v);
	if (bexp != 0)
		m |= 1ULL << 52;
	e = bexp != 0 ? 1075 - bexp : 1074;	/* |v| = m * 2^-e */
	if (e <= 0 && m != 0) {
		q = (m << -e) * pow10_64[prec];	/* below 2^63: checked */
	} else if (m == 0 || e >= 128) {
		q = 0;		/* zero, or below half a unit of the last digit */
	} else {
		u128 num = (u128)m * pow10_64[prec], r, half;

		q = (uint64_t)(num >> e);
		r = num - ((u128)q << e);
		half = (u128)1 << (e - 1);
		if (r > half || (r == half && (q & 1)))
			q++;
	}
	if (bits >> 63)
		*p++ = '-';
	else if (plus)
		*p++ = '+';
	ip = q / pow10_64[prec];
	fp = q % pow10_64[prec];
	p += pv_numfmt_u64(p, ip);
	if (prec > 0) {
		*p++ = '.';
		for (i = prec - 1; i >= 0; i--) {
			p[i] = (char)('0' + fp % 10);
			fp /= 10;
		}
		p += prec;
	}
	*p = '\0';
	return (size_t)(p - buf);
}

size_t
pv_numfmt_percent(char *buf, double p, int prec, int plus)
{
	int n;

	if (isnan(p))
		n = snprintf(buf, PV_NUMFMT_FIXED_MAX, "-");
	else if (fabs(p) < 1e6)
		return pv_numfmt_fixed(buf, p, prec, plus);
	else
		n = snprintf(buf, PV_NUMFMT_FIXED_MAX, plus ? "%+.3g" : "%.3g",
			     p);
	return (size_t)n;
}

size_t
pv_numfmt_change(char *buf, double d, int prec, int plus)
{
	double e10, expo, mant;
	int n;

	if (isnan(d) || d < 700)
		return pv_numfmt_percent(buf, 100 * (exp(d) - 1), prec, plus);
	/* e^d past a double: 100 e^d as M.MMe+E from log10 of it */
	e10 = d / M_LN10 + 2;
	if (!isfinite(e10))
		return (size_t)snprintf(buf, PV_NUMFMT_FIXED_MAX, "%sinf",
					plus ? "+" : "");
	expo = floor(e10);
	mant = pow(10, e10 - expo);
	if (mant >= 9.995) {
		mant /= 10;
		expo += 1;
	}
	n = snprintf(buf, PV_NUMFMT_FIXED_MAX, "%s%.3ge+%.0f", plus ? "+" : "",
		     mant, expo);
	return (size_t)n;
}
