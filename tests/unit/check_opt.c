/*
 * check_opt: the front end's option helpers (lib/fe/opt.c): numbers in
 * option arguments taken within their range and refused outside it with
 * exit status 2, and the common end of every option switch, -h and -V
 * with status 0, anything else 2.  The dying cases run in their own
 * processes (Check's fork mode) with their output sent to /dev/null.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "diag.h"
#include "opt.h"

static const char usage[] = "check_opt [-x]";
static const char help[] = "  -x  nothing\n";

static void
quiet(void)
{
	if (freopen("/dev/null", "w", stdout) == NULL ||
	    freopen("/dev/null", "w", stderr) == NULL)
		abort();
}

START_TEST(test_numbers)
{
	ck_assert_uint_eq(pv_opt_count("runs", "0", 0, 9), 0);
	ck_assert_uint_eq(pv_opt_count("runs", "9", 0, 9), 9);
	ck_assert(pv_opt_number("rate", "0.25", 0, 1) == 0.25);
	ck_assert(pv_opt_number("rate", "1e-3", 0, 1) == 1e-3);
}
END_TEST

START_TEST(test_count_range)
{
	quiet();
	pv_opt_count("runs", "10", 0, 9);
}
END_TEST

START_TEST(test_count_word)
{
	quiet();
	pv_opt_count("runs", "1x", 0, 9);
}
END_TEST

START_TEST(test_number_range)
{
	quiet();
	pv_opt_number("rate", "1.5", 0, 1);
}
END_TEST

START_TEST(test_number_nan)
{
	quiet();
	pv_opt_number("rate", "nan", 0, 1);
}
END_TEST

START_TEST(test_help)
{
	quiet();
	pv_opt_common('h', usage, help);
}
END_TEST

START_TEST(test_version)
{
	quiet();
	pv_opt_common('V', usage, help);
}
END_TEST

START_TEST(test_unknown)
{
	quiet();
	pv_opt_common('?', usage, help);
}
END_TEST

/* an option a tool forgot to handle is a usage error, not help */
START_TEST(test_unhandled)
{
	quiet();
	pv_opt_common('x', usage, help);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("opt");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	pv_diag_init("check_opt");
	tcase_add_test(tc, test_numbers);
	tcase_add_exit_test(tc, test_count_range, PV_EXIT_TROUBLE);
	tcase_add_exit_test(tc, test_count_word, PV_EXIT_TROUBLE);
	tcase_add_exit_test(tc, test_number_range, PV_EXIT_TROUBLE);
	tcase_add_exit_test(tc, test_number_nan, PV_EXIT_TROUBLE);
	tcase_add_exit_test(tc, test_help, PV_EXIT_OK);
	tcase_add_exit_test(tc, test_version, PV_EXIT_OK);
	tcase_add_exit_test(tc, test_unknown, PV_EXIT_TROUBLE);
	tcase_add_exit_test(tc, test_unhandled, PV_EXIT_TROUBLE);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
