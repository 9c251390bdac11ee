/*
 * numfmt: "%.10g" without printf (see numfmt.h).
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

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

void
pv_numfmt(struct pv_strbuf *sb, double v)
{
	char dig[12];
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
		pv_strbuf_addch(sb, '-');
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
	for (i = 9; i >= 0; i--) {
		dig[i] = (char)('0' + m % 10);
		m /= 10;
	}
	for (nd = 10; nd > 1 && dig[nd - 1] == '0'; nd--)
		;
	if (e < -4 || e >= 10) {
		pv_strbuf_addch(sb, dig[0]);
		if (nd > 1) {
			pv_strbuf_addch(sb, '.');
			pv_strbuf_add(sb, dig + 1, (size_t)nd - 1);
		}
		pv_strbuf_addf(sb, "e%c%02d", e < 0 ? '-' : '+', abs(e));
	} else if (e < 0) {
		pv_strbuf_addstr(sb, "0.");
		for (i = -1; i > e; i--)
			pv_strbuf_addch(sb, '0');
		pv_strbuf_add(sb, dig, (size_t)nd);
	} else {
		pv_strbuf_add(sb, dig, (size_t)e + 1 > (size_t)nd ?
			      (size_t)nd : (size_t)e + 1);
		for (i = nd; i < e + 1; i++)
			pv_strbuf_addch(sb, '0');
		if (nd > e + 1) {
			pv_strbuf_addch(sb, '.');
			pv_strbuf_add(sb, dig + e + 1, (size_t)(nd - e - 1));
		}
	}
}
