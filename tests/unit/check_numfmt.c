/*
 * check_numfmt: pv_numfmt() against printf's "%.10g" over values of every
 * magnitude (a mismatch is allowed only within 1e-15 of a rounding tie);
 * pv_numfmt_exact() byte for byte against its definition (the first of
 * "%.15g", "%.16g", "%.17g" that strtod() reads back), and
 * pv_numfmt_u64() against "%llu", pv_numfmt_fixed() against "%.Nf".
 */
#include "config.h"

#include <check.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "numfmt.h"

static int mismatches;

static void
same(double v)
{
	struct pv_strbuf sb = PV_STRBUF_INIT;
	char want[64];

	pv_numfmt(&sb, v);
	snprintf(want, sizeof(want), "%.10g", v);
	if (strcmp(sb.buf, want) != 0) {
		/* allowed only next to a tie: both read back within 1e-9 */
		double a = strtod(sb.buf, NULL), b = strtod(want, NULL);

		ck_assert_msg(fabs(a - b) <= 1.01e-9 * fabs(b),
			      "%.17g: got %s want %s", v, sb.buf, want);
		mismatches++;
	}
	pv_strbuf_release(&sb);
}

START_TEST(test_fixed)
{
	static const double v[] = {
		1, -1, 0.5, 123456789, 1234567890, 12345678901.0, 0.0001,
		0.00012345678901, 0.000099999999999, 1e-5, 99999999995.0,
		9.9999999999, 0.1, 0.2, 0.3, 1.0 / 3, 2.0 / 3, 1e100, 1e-300,
		5e-324, 1.7976931348623157e308, 0.05, 0.975, 100, 1e10, 1e9,
		-0.000123, 3.14159265358979,
		/* next to powers of ten, where the exponent is found */
		999999999.95, 9999999999.49, 9999999999.5,
		0.0099999999996, 1e22 * (1 - 1e-15), 1e-5 * (1 - 1e-12),
		9.999999999499999e-5, 1e15, 1e16 - 2, 4503599627370496.0
	};
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		same(v[i]);
	ck_assert_int_eq(mismatches, 0);
}
END_TEST

START_TEST(test_random)
{
	unsigned long s = 88172645463325252UL;
	int i;

	for (i = 0; i < 200000; i++) {
		double v;

		s ^= s << 13;
		s ^= s >> 7;
		s ^= s << 17;
		v = ldexp((double)(s >> 11), (int)(s % 200) - 100 - 53);
		same(i % 2 ? -v : v);
	}
	/* ties within rounding error are rare: at most 1 in 10,000 */
	ck_assert_int_le(mismatches, 20);
}
END_TEST

START_TEST(test_special)
{
	struct pv_strbuf sb = PV_STRBUF_INIT;

	pv_numfmt(&sb, NAN);
	pv_numfmt(&sb, INFINITY);
	pv_numfmt(&sb, -INFINITY);
	pv_numfmt(&sb, 0);
	ck_assert_str_eq(sb.buf, "-inf-inf0");
	pv_strbuf_release(&sb);
}
END_TEST

/* The definition pv_numfmt_exact() must meet. */
static void
exact_want(char *buf, size_t size, double v)
{
	int prec;

	for (prec = 15; prec <= 17; prec++) {
		snprintf(buf, size, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
}

static void
exact_same(double v)
{
	struct pv_strbuf sb = PV_STRBUF_INIT;
	char got[PV_NUMFMT_MAX], want[64];
	size_t n;

	n = pv_numfmt_exact(got, v);
	exact_want(want, sizeof(want), v);
	ck_assert_msg(strcmp(got, want) == 0, "%a: got %s want %s", v, got,
		      want);
	ck_assert_uint_eq(n, strlen(want));
	if (!isnan(v))
		ck_assert_msg(strtod(got, NULL) == v, "%a: %s does not read "
			      "back", v, got);
	pv_strbuf_addch(&sb, 'x');
	pv_numfmt_exact_add(&sb, v);
	ck_assert_str_eq(sb.buf + 1, want);
	pv_strbuf_release(&sb);
}

static uint64_t
next_random(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

START_TEST(test_exact_fixed)
{
	static const double v[] = {
		0.0, 1, -1, 0.5, 0.1, 0.2, 0.3, 1.0 / 3, 2.0 / 3, 100.0 / 3,
		-100.0 / 7, 123.456, 0.0001, 0.00012345678901234, 1e-5, 1e-7,
		1e-300, 1e300, 1e22, 1e23, 1e15, 1e15 - 1, 1e15 + 0.5,
		999999999999999.9, 99999999999999.99, 9.999999999999999,
		0.99999999999999989, 9007199254740992.0, 9007199254740991.0,
		4503599627370496.5, 1e16, 1e17, 12345678901234567890.0,
		DBL_MIN, DBL_MAX, DBL_TRUE_MIN, 4.9406564584124654e-324,
		2.2250738585072009e-308, DBL_EPSILON, 0.05, 0.975, 100, 50,
		33.333333333333336, 5e-5, 9.5367431640625e-07
	};
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		exact_same(v[i]);
		exact_same(-v[i]);
		exact_same(nextafter(v[i], 0));
		exact_same(nextafter(v[i], INFINITY));
	}
	exact_same(-0.0);
	exact_same(NAN);
	exact_same(INFINITY);
	exact_same(-INFINITY);
}
END_TEST

/* Powers of two and their neighbours: the gap below is half the gap above */
START_TEST(test_exact_powers)
{
	int i;

	for (i = -1074; i <= 1023; i++) {
		double v = ldexp(1.0, i);

		exact_same(v);
		exact_same(nextafter(v, 0));
		exact_same(nextafter(v, INFINITY));
	}
	for (i = -30; i <= 30; i++) {
		double v = pow(10, i);

		exact_same(v);
		exact_same(nextafter(v, 0));
		exact_same(nextafter(v, INFINITY));
	}
}
END_TEST

START_TEST(test_exact_random)
{
	uint64_t s = 88172645463325252ULL, r;
	double v;
	int i;

	/* every bit pattern: all magnitudes, subnormals, NaNs */
	for (i = 0; i < 20000; i++) {
		r = next_random(&s);
		memcpy(&v, &r, sizeof(v));
		exact_same(v);
	}
	/* the magnitudes of shares and changes */
	for (i = 0; i < 40000; i++) {
		r = next_random(&s);
		v = ldexp((double)(r >> 11), (int)(r % 80) - 60 - 53);
		exact_same(i % 2 ? -v : v);
	}
	/* percentages as pv-diff computes them */
	for (i = 0; i < 15000; i++) {
		uint64_t a = next_random(&s) % 1000000;
		uint64_t b = 1 + next_random(&s) % 100000000;

		v = 100.0 * (double)a / (double)b;
		exact_same(v);
		exact_same(v - 100.0 * (double)(a / 2) / (double)b);
		exact_same(v / 3 - 1.0);
	}
}
END_TEST

/* Exact decimal ties at the 16th and 17th digit: c / 2^10, c odd */
START_TEST(test_exact_ties)
{
	uint64_t s = 2463534242ULL;
	int i, j;

	for (i = 0; i < 10000; i++) {
		uint64_t c = 100000000 + next_random(&s) % 900000000;

		for (j = 8; j <= 14; j += 2)
			exact_same(ldexp((double)(c | 1), -j));
	}
	/* halfway points of 15 and 16 digits held exactly */
	exact_same(1000000000000000.5);
	exact_same(100000000000000.25);
	exact_same(0.5000000000000005);
	exact_same(1.5);
	exact_same(2.5);
}
END_TEST

START_TEST(test_exact_integers)
{
	uint64_t s = 362436069ULL;
	int i;

	for (i = 0; i < 20000; i++) {
		uint64_t r = next_random(&s);
		double v = (double)(r >> (11 + r % 40));

		exact_same(v);
		exact_same(-v);
	}
	for (i = 0; i <= 53; i++) {
		double v = ldexp(1.0, i);

		exact_same(v - 1);
		exact_same(v);
		exact_same(v + 1);
	}
}
END_TEST

START_TEST(test_u64)
{
	static const uint64_t v[] = {
		0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 65535, 4294967295ULL,
		4294967296ULL, 9999999999999999999ULL, 10000000000000000000ULL,
		UINT64_MAX
	};
	uint64_t s = 521288629ULL, x10;
	char got[32], want[32];
	size_t i, n;

	for (i = 0; i < sizeof(v) / sizeof(v[0]) + 10000; i++) {
		uint64_t x = i < sizeof(v) / sizeof(v[0]) ? v[i] :
			     next_random(&s) >> (i % 64);

		n = pv_numfmt_u64(got, x);
		got[n] = '\0';
		snprintf(want, sizeof(want), "%llu", (unsigned long long)x);
		ck_assert_str_eq(got, want);
	}
	/* where the number of digits changes */
	for (i = 0, x10 = 1; i < 20; i++, x10 *= 10) {
		uint64_t x[3] = { x10 - 1, x10, x10 + 1 };
		size_t j;

		for (j = 0; j < 3; j++) {
			n = pv_numfmt_u64(got, x[j]);
			got[n] = '\0';
			snprintf(want, sizeof(want), "%llu",
				 (unsigned long long)x[j]);
			ck_assert_str_eq(got, want);
		}
	}
}
END_TEST

static void
fixed_same(double v, int prec, int plus)
{
	char got[PV_NUMFMT_FIXED_MAX], want[512];
	size_t n;

	n = pv_numfmt_fixed(got, v, prec, plus);
	snprintf(want, sizeof(want), plus ? "%+.*f" : "%.*f", prec, v);
	ck_assert_msg(strcmp(got, want) == 0, "%a %%.%df: got %s want %s", v,
		      prec, got, want);
	ck_assert_uint_eq(n, strlen(want));
}

static void
fixed_all(double v)
{
	int prec;

	for (prec = 0; prec <= 6; prec++) {
		fixed_same(v, prec, 0);
		fixed_same(v, prec, 1);
		fixed_same(-v, prec, 0);
		fixed_same(-v, prec, 1);
	}
}

START_TEST(test_fixed_point)
{
	static const double v[] = {
		0.0, 0.05, 0.15, 0.25, 0.35, 0.45, 0.5, 1.5, 2.5, 0.125,
		0.375, 0.0625, 0.005, 0.015, 0.0049999999999999, 1e-300,
		DBL_TRUE_MIN, DBL_MIN, 1e-7, 0.99999999, 9.95, 99.995, 1188.05,
		1e15, 9.2e18, 9.3e18, 1e300, 123456789.125, 4503599627370496.5
	};
	uint64_t s = 1181783497276652981ULL, r;
	size_t i;
	int k;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		fixed_all(v[i]);
		fixed_all(nextafter(v[i], 0));
		fixed_all(nextafter(v[i], INFINITY));
	}
	fixed_same(NAN, 1, 0);
	fixed_same(INFINITY, 2, 1);
	fixed_same(-INFINITY, 2, 0);
	/* exact ties at every precision: k / 2^j */
	for (k = 1; k < 600; k++) {
		fixed_all((double)k / 8);
		fixed_all((double)k / 64);
		fixed_all((double)k / 1024);
	}
	for (i = 0; i < 5000; i++) {
		double x;

		r = next_random(&s);
		x = ldexp((double)(r >> 11), (int)(r % 90) - 60 - 53);
		fixed_all(x);
		/* pixel positions and shares, as the SVG writer makes them */
		fixed_all((double)(r % 100000) * (1180.0 / 2654435.0));
	}
}
END_TEST

/*
 * Percentages for people: two decimals below a million percent, three
 * digits from there, never a hundred digits nor "inf".
 */
START_TEST(test_percent)
{
	char b[PV_NUMFMT_FIXED_MAX];

	pv_numfmt_percent(b, 12.345, 2, 0);
	ck_assert_str_eq(b, "12.35");
	pv_numfmt_percent(b, 12.345, 1, 1);
	ck_assert_str_eq(b, "+12.3");
	pv_numfmt_percent(b, 999999.994, 2, 0);
	ck_assert_str_eq(b, "999999.99");
	pv_numfmt_percent(b, 1e112, 2, 0);
	ck_assert_str_eq(b, "1e+112");
	pv_numfmt_percent(b, 1.2345e7, 2, 1);
	ck_assert_str_eq(b, "+1.23e+07");
	pv_numfmt_percent(b, NAN, 2, 0);
	ck_assert_str_eq(b, "-");
	pv_numfmt_change(b, log(2), 2, 1);
	ck_assert_str_eq(b, "+100.00");
	pv_numfmt_change(b, log(0.5), 2, 0);
	ck_assert_str_eq(b, "-50.00");
	pv_numfmt_change(b, log(1e110), 2, 0);
	ck_assert_str_eq(b, "1e+112");
	/* e^d past a double: the digits from d */
	pv_numfmt_change(b, 1381.551056, 2, 0);
	ck_assert_str_eq(b, "1e+602");
	pv_numfmt_change(b, 1000, 2, 1);
	ck_assert_str_eq(b, "+1.97e+436");
	pv_numfmt_change(b, INFINITY, 2, 0);
	ck_assert_str_eq(b, "inf");
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("numfmt");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, test_fixed);
	tcase_add_test(tc, test_random);
	tcase_add_test(tc, test_special);
	/* the reference, printf and strtod, is slow under sanitizers */
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_exact_fixed);
	tcase_add_test(tc, test_exact_powers);
	tcase_add_test(tc, test_exact_random);
	tcase_add_test(tc, test_exact_ties);
	tcase_add_test(tc, test_exact_integers);
	tcase_add_test(tc, test_u64);
	tcase_add_test(tc, test_fixed_point);
	tcase_add_test(tc, test_percent);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
