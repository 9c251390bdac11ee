/*
 * check_render_series: the text summary of a series from its records:
 * the change points for the worse ranked by the end of their interval
 * nearer zero, with their bisection ranges and flags, the groups, the
 * change points for the better, the outliers and the trends; records of
 * other types ignored, malformed ones refused.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rec_check.h"
#include "render_series.h"

static const char input[] =
	"changepoint\tx\ts\ta\to\tm\tu\thigher\t1\tv1\tv2\t-0.1\t-0.2\t-0.01\t"
	"1e-06\t1\t1\t-\n"
	"changepoint\tx\ts\tb\to\tm\tu\tlower\t-\tv2\tv3\t-0.05\t-0.06\t-0.04\t"
	"1e-09\t2\t1\tnewest\n"
	"changepoint\tx\ts\tc\to\tm\tu\thigher\t2\tv1\tv2\t0.03\t0.02\t0.04\t"
	"1e-05\t1\t2\tknown\n"
	"cpgroup\tx\ts\ta\to\tm\tu\thigher\tv1\tv2\t2\t1,2\t-0.1\t-0.09\t-\n"
	"outlier\tx\ts\td\to\tm\tu\thigher\t-\tv2\t-0.1053605157\t0.001\t-\n"
	"trend\tx\ts\te\to\tm\tu\thigher\t4\tv1\tv3\t-0.00501254182\t-0.006\t"
	"-0.004\t1e-08\n"
	"stat\tbaseline\tv1\tx\ts\tt\to\tm\tu\thigher\t-\t3\t1\t1\t0\t0\t0\t1\t"
	"1\t1\t1\t1\t1\t1\n";

static const char want[] =
	"3 change points (2 for the worse, 1 at the newest version and not "
	"known), 1 outlier, 1 trend\n"
	"\n"
	"Change points for the worse, most severe first:\n"
	" rank    change interval              p-value  versions          key\n"
	"    1    -4.88% [-5.82%, -3.92%]        1e-09  v2 -> v3          "
	"s b o m  (newest)\n"
	"      git bisect start v3 v2\n"
	"    2    -9.52% [-18.13%, -1.00%]       1e-06  v1 -> v2          "
	"s a o m level 1\n"
	"      git bisect start v2 v1\n"
	"\n"
	"Change points at several levels, between the same versions:\n"
	"  s a o m: levels 1,2, v1 -> v2, -9.52% to -8.61%\n"
	"\n"
	"Change points for the better:\n"
	" rank    change interval              p-value  versions          key\n"
	"    1    +3.05% [+2.02%, +4.08%]        1e-05  v1 -> v2          "
	"s c o m level 2  (known)\n"
	"      git bisect start v2 v1\n"
	"\n"
	"Outliers (one version off the others, not a change):\n"
	"  s d o m: v2 -10.00% (p 0.001)\n"
	"\n"
	"Trends (a steady drift):\n"
	"  s e o m level 4: -0.50% a version [-0.60%, -0.40%] from v1 to v3 "
	"(p 1e-08)\n";

START_TEST(test_text)
{
	struct pv_render_series r;
	struct rec_back b;
	char *buf = NULL;
	size_t len = 0;
	FILE *out;
	int rc, kept = 0;

	pv_render_series_init(&r);
	read_back_str(&b, input);
	do {
		rc = pv_render_series_add(&r, &b.rec);
		ck_assert_int_ge(rc, 0);
		kept += rc;
	} while (pv_reader_next(b.r, &b.rec) > 0);
	read_done(&b);
	ck_assert_int_eq(kept, 6);
	ck_assert_int_eq(pv_render_series_any(&r), 1);
	out = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(out);
	pv_render_series_text(&r, out);
	fclose(out);
	ck_assert_str_eq(buf, want);
	free(buf);
	pv_render_series_release(&r);
}
END_TEST

START_TEST(test_bad)
{
	struct pv_render_series r;
	struct rec_back b;

	pv_render_series_init(&r);
	ck_assert_int_eq(pv_render_series_any(&r), 0);
	read_back_str(&b, "trend\tx\ts\te\to\tm\tu\thigher\t4\tv1\n");
	ck_assert_int_eq(pv_render_series_add(&r, &b.rec), -1);
	ck_assert_str_eq(pv_err_msg(&r.err),
			 "a trend record has 15 fields, not 10");
	read_done(&b);
	pv_render_series_release(&r);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("render_series");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_text);
	tcase_add_test(tc, test_bad);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
