/*
 * check_rec_primary: the primary record written and read back.
 */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "rec_primary.h"

static struct pv_str
S(const char *s)
{
	struct pv_str r = { s, strlen(s) };

	return r;
}

START_TEST(test_round_trip)
{
	struct pv_primary p = { S("sysbench"), S("cpu"), S("events"),
				S("events-per-second") }, back;
	struct pv_strbuf sb = PV_STRBUF_INIT;
	struct pv_str f[5];
	struct pv_record rec;
	struct pv_err e;

	pv_rec_primary_write(&sb, &p);
	ck_assert_str_eq(sb.buf,
			 "primary\tsysbench\tcpu\tevents\tevents-per-second\n");
	f[0] = S("primary");
	f[1] = S("sysbench");
	f[2] = S("cpu");
	f[3] = S("-");
	f[4] = S("events-per-second");
	memset(&rec, 0, sizeof(rec));
	rec.type = PV_REC_OTHER;
	rec.field = f;
	rec.nfield = 5;
	ck_assert_int_eq(pv_rec_primary_parse(&rec, &back, &e), 0);
	ck_assert(pv_str_eq(back.suite, "sysbench") &&
		  pv_str_eq(back.metric, "events-per-second") &&
		  back.operation.len == 0);
	pv_strbuf_reset(&sb);
	pv_rec_primary_write(&sb, &back);
	ck_assert_str_eq(sb.buf, "primary\tsysbench\tcpu\t-\tevents-per-second\n");
	rec.nfield = 4;
	ck_assert_int_eq(pv_rec_primary_parse(&rec, &back, &e), -1);
	ck_assert_str_eq(pv_err_msg(&e), "a primary record has 5 fields, not 4");
	pv_strbuf_release(&sb);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("rec_primary");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, test_round_trip);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
