/*
 * check_rec_runstart: the runstart record written and read back, and its
 * malformed fields.
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rec_runstart.h"

/* a line split at its TABs (no escapes in these tests) */
struct line {
	struct pv_str f[16];
	struct pv_record rec;
	char buf[256];
};

static void
split(struct line *l, const char *s)
{
	char *p;
	size_t n = 0;

	snprintf(l->buf, sizeof(l->buf), "%s", s);
	l->buf[strcspn(l->buf, "\n")] = '\0';
	memset(&l->rec, 0, sizeof(l->rec));
	for (p = l->buf;; p++) {
		char *tab = strchr(p, '\t');

		l->f[n].s = p;
		l->f[n].len = tab ? (size_t)(tab - p) : strlen(p);
		n++;
		if (tab == NULL)
			break;
		p = tab;
	}
	l->rec.type = PV_REC_OTHER;
	l->rec.field = l->f;
	l->rec.nfield = n;
}

START_TEST(test_round_trip)
{
	struct pv_runstart r = { 3, 7, 1795938981.25 }, back;
	struct pv_strbuf sb = PV_STRBUF_INIT;
	struct pv_err e;
	struct line l;

	pv_rec_runstart_write(&sb, &r);
	ck_assert_str_eq(sb.buf, "runstart\t3\t7\t1795938981.25\n");
	split(&l, sb.buf);
	ck_assert_int_eq(pv_rec_runstart_parse(&l.rec, &back, &e), 0);
	ck_assert(back.run == 3 && back.order == 7 &&
		  back.start == 1795938981.25);
	pv_strbuf_reset(&sb);
	r.order = PV_NONE;
	r.start = NAN;
	pv_rec_runstart_write(&sb, &r);
	ck_assert_str_eq(sb.buf, "runstart\t3\t-\t-\n");
	split(&l, sb.buf);
	ck_assert_int_eq(pv_rec_runstart_parse(&l.rec, &back, &e), 0);
	ck_assert(back.order == PV_NONE && isnan(back.start));
	pv_strbuf_release(&sb);
}
END_TEST

START_TEST(test_bad)
{
	static const char *const bad[][2] = {
		{ "runstart\t1\t2", "a runstart record has 4 fields, not 3" },
		{ "runstart\t-\t2\t3", "RUN '-' is not a whole number" },
		{ "runstart\tx\t2\t3", "RUN 'x' is not a whole number" },
		{ "runstart\t1\t2.5\t3", "ORDER '2.5' is not a whole number" },
		{ "runstart\t1\t2\tnan", "START 'nan' is not a number of seconds" },
		{ "runstart\t1\t2\tinf", "START 'inf' is not a number of seconds" },
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct pv_runstart r;
		struct pv_err e;
		struct line l;

		split(&l, bad[i][0]);
		ck_assert_int_eq(pv_rec_runstart_parse(&l.rec, &r, &e), -1);
		ck_assert_str_eq(pv_err_msg(&e), bad[i][1]);
	}
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("rec_runstart");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, test_round_trip);
	tcase_add_test(tc, test_bad);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
