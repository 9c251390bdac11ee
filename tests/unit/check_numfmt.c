/*
 * check_numfmt: pv_numfmt() against printf's "%.10g" over values of every
 * magnitude (a mismatch is allowed only within 1e-15 of a rounding tie).
 */
#include "config.h"

#include <check.h>
#include <math.h>
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
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
