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

/*
 * The eight digits of x (below 10^8), leading zeros and all, as the bytes
 * of a word, the first digit in the lowest: x split in halves of four
 * digits, each half in pairs, each pair in digits, every lane of the word
 * at once (a multiplication by 10486 / 2^20 is a division by 100 below
 * 10^4, by 103 / 2^10 one by 10 below 100).
 */
static inline uint64_t
eight_digits(uint32_t x)
{
	uint64_t w = (uint64_t)(x / 10000) | (uint64_t)(x % 10000) << 32;
	uint64_t h = ((w * 10486) >> 20) & 0x0000007f0000007fULL;

	w = h | (w - 100 * h) << 16;
	h = ((w * 103) >> 10) & 0x000f000f000f000fULL;
	return (h | (w - 10 * h) << 8) + 0x3030303030303030ULL;
}

/* The eight bytes of w at p, its lowest first. */
static inline void
put8(char *p, uint64_t w)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap64(w);
#endif
	memcpy(p, &w, 8);
}

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
 * 53-bit integer, and m * 10^k / 2^E = m * 5^k / 2^s with s = E - k.
 * With k chosen so that its integer part q has 17 digits, q and the
 * remainder r below 2^s give all three forms at once: the P-digit one is
 * q / 10^(17-P) rounded, half to even as glibc's printf rounds exact
 * ties, by the digits dropped and r.  Written as C, a 17-digit multiple
 * of 10^(17-P), it reads back as the double iff it lies within half a
 * gap of it:
 *
 *	|C * 2^(s+1) - 2m * 5^k| <= 5^k
 *
 * (equality only when m is even, as strtod() rounds ties to even; below
 * a power of two the gap below is half as wide), where C * 2^s - m * 5^k
 * is (C - q) * 2^s - r, a few times 2^s.  With k at most 27 and s at
 * most 63 every term fits in 128 bits.
 */

typedef unsigned __int128 u128;

/* 10^0 .. 10^19 */
static const uint64_t pow10_64[] = {
	1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL,
	10000000ULL, 100000000ULL, 1000000000ULL, 10000000000ULL,
	100000000000ULL, 1000000000000ULL, 10000000000000ULL,
	100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
	100000000000000000ULL, 1000000000000000000ULL,
	10000000000000000000ULL
};

/* 5^0 .. 5^27, the powers of five below 2^64 */
static const uint64_t pow5_64[] = {
	1ULL, 5ULL, 25ULL, 125ULL, 625ULL, 3125ULL, 15625ULL, 78125ULL,
	390625ULL, 1953125ULL, 9765625ULL, 48828125ULL, 244140625ULL,
	1220703125ULL, 6103515625ULL, 30517578125ULL, 152587890625ULL,
	762939453125ULL, 3814697265625ULL, 19073486328125ULL,
	95367431640625ULL, 476837158203125ULL, 2384185791015625ULL,
	11920928955078125ULL, 59604644775390625ULL, 298023223876953125ULL,
	1490116119384765625ULL, 7450580596923828125ULL
};

#define MAXK 27
#define MAXS 63
#define TEN16 10000000000000000ULL
#define TEN17 100000000000000000ULL

/*
 * The digits of v in blocks of eight, the first block shifted by its
 * leading zeros: each block is a word written whole, its bytes past the
 * digits overwritten by the next block or left in the caller's room.
 */
size_t
pv_numfmt_u64(char *buf, uint64_t v)
{
	/* v | 1: the same number of digits, one for 0 */
	int bits = 64 - __builtin_clzll(v | 1), t = (bits * 1233) >> 12;
	size_t n = (size_t)t + 1 - ((v | 1) < pow10_64[t]), k = n;
	uint32_t block[2];
	int nb = 0;

	while (k > 8) {
		k -= 8;
		block[nb++] = (uint32_t)(v % 100000000);
		v /= 100000000;
	}
	put8(buf, eight_digits((uint32_t)v) >> 8 * (8 - k));
	for (buf += k; nb-- > 0; buf += 8)
		put8(buf, eight_digits(block[nb]));
	return n;
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
 * q rounded at the digit that div (10 or 100) drops, half to even, frac
 * set when q has a fraction besides; then times div again.
 */
static inline uint64_t
rounded(uint64_t q, uint64_t div, int frac)
{
	uint64_t qd = q / div, rd = q % div;

	if (rd > div / 2 || (rd == div / 2 && (frac || (qd & 1))))
		qd++;
	return qd * div;
}

/* The digits of c (below 10^17) as seventeen, leading zeros and all. */
static void
seventeen_digits(char *d, uint64_t c)
{
	uint64_t hi = c / 100000000;

	d[0] = (char)('0' + hi / 100000000);
	put8(d + 1, eight_digits((uint32_t)(hi % 100000000)));
	put8(d + 9, eight_digits((uint32_t)(c % 100000000)));
}

/*
 * Whether c * 10^-k, c within a few times 10^(17-P) of q, reads back as
 * m * 2^-(s+k): the test above, with low_half_gap when the gap below is
 * half the gap above.
 */
static int
reads_back(uint64_t m, int s, int low_half_gap, uint64_t q, u128 r,
	   uint64_t c, uint64_t p5)
{
	u128 diff;

	if (c > q) {
		diff = 2 * (((u128)(c - q) << s) - r);
		return diff < p5 || (diff == p5 && !(m & 1));
	}
	diff = 2 * (((u128)(q - c) << s) + r);
	if (low_half_gap)	/* half the width; m is 2^52, even */
		return diff * 2 <= p5;
	return diff < p5 || (diff == p5 && !(m & 1));
}

size_t
pv_numfmt_exact(char *buf, double v)
{
	char dig[33], out[48], *p = buf, *o = out;
	uint64_t bits, m, q, c = 0, p5;
	u128 num, r;
	int bexp, e, s, k, l2, x, prec, nd, i, low;

	memcpy(&bits, &v, sizeof(bits));
	bexp = (int)((bits >> 52) & 0x7ff);
	m = bits & ((1ULL << 52) - 1);
	if (bexp == 0x7ff || (bexp == 0 && m != 0))
		return slow_exact(buf, v);	/* NaN, inf, subnormal */
	if (bits >> 63)
		*p++ = *o++ = '-';
	if (bexp == 0) {
		*p++ = '0';
		*p = '\0';
		return (size_t)(p - buf);
	}
	m |= 1ULL << 52;
	e = 1075 - bexp;		/* |v| = m * 2^-e */
	if (e <= 0)
		return slow_exact(buf, v);
	/* a whole number below 10^15 */
	if (e <= 52 && (m & ((1ULL << e) - 1)) == 0 &&
	    m >> e < pow10_64[15]) {
		p += pv_numfmt_u64(p, m >> e);
		*p = '\0';
		return (size_t)(p - buf);
	}
	/*
	 * x, the decimal exponent of the first digit: floor(log10(2^l2)),
	 * or one more, for 2^l2 <= |v| < 2^(l2+1).  Then q, seventeen
	 * digits: m * 5^k >> s with k = 16 - x.
	 */
	l2 = 52 - e;
	x = l2 >= 0 ? (l2 * 1233) >> 12 : -((-l2 * 1233 + 4095) >> 12);
	for (;;) {
		k = 16 - x;
		s = e - k;
		if (k < 0 || k > MAXK || s < 0 || s > MAXS)
			return slow_exact(buf, v);
		num = (u128)m * pow5_64[k];
		q = (uint64_t)(num >> s);
		if (q >= TEN17)
			x++;
		else if (q < TEN16)
			x--;
		else
			break;
	}
	r = num - ((u128)q << s);
	p5 = pow5_64[k];
	low = m == 1ULL << 52 && bexp > 1;
	c = rounded(q, 100, r != 0);
	prec = 15;
	if (!reads_back(m, s, low, q, r, c, p5)) {
		c = rounded(q, 10, r != 0);
		prec = 16;
	}
	if (prec == 16 && !reads_back(m, s, low, q, r, c, p5)) {
		/* 17 digits always read back; the half of 2^s */
		c = q + (2 * r > ((u128)1 << s) ||
			 (2 * r == ((u128)1 << s) && (q & 1)));
		prec = 17;
	}
	if (c == TEN17) {	/* rounded up to a digit more */
		c = TEN16;
		x++;
	}
	seventeen_digits(dig, c);
	for (nd = prec; nd > 1 && dig[nd - 1] == '0'; nd--)
		;
	/*
	 * Put together in out with copies of a fixed size, which may run
	 * past the end, then copied to buf whole: both have the room.
	 */
	put8(dig + 17, 0x3030303030303030ULL);
	put8(dig + 25, 0x3030303030303030ULL);
	if (x < -4 || x >= prec) {
		*o++ = dig[0];
		if (nd > 1) {
			*o++ = '.';
			memcpy(o, dig + 1, 16);
			o += nd - 1;
		}
		*o++ = 'e';
		*o++ = x < 0 ? '-' : '+';
		i = x < 0 ? -x : x;
		if (i >= 100) {
			*o++ = (char)('0' + i / 100);
			i %= 100;
		}
		memcpy(o, digit_pairs + 2 * i, 2);
		o += 2;
	} else if (x < 0) {
		memcpy(o, "0.000", 5);
		o += 1 - x;
		memcpy(o, dig, 17);
		o += nd;
	} else {
		memcpy(o, dig, 17);
		if (nd > x + 1) {
			o[x + 1] = '.';
			memcpy(o + x + 2, dig + x + 1, 16);
			o += nd + 1;
		} else {
			o += x + 1;
		}
	}
	memcpy(buf, out, PV_NUMFMT_MAX);
	buf[o - out] = '\0';
	return (size_t)(o - out);
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
