/*
 * check_rec_stat: the stat and statroll records written (ten significant
 * digits, '-' for NaN), parsed back to the same record, and refused when
 * malformed.
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rec_check.h"
#include "rec_stat.h"

static struct pv_runkey
key(void)
{
	struct pv_runkey k;

	memset(&k, 0, sizeof(k));
	k.role = S("target");
	k.version = S("v2");
	k.experiment = S("e");
	k.suite = S("s");
	k.test = S("t");
	k.operation = S("o");
	k.metric = S("m");
	k.unit = S("u");
	k.level = PV_NONE;
	return k;
}

START_TEST(test_stat)
{
	struct pv_strbuf sb = PV_STRBUF_INIT, again = PV_STRBUF_INIT;
	struct pv_err e = PV_ERR_INIT;
	struct pv_runkey k = key(), gk;
	struct pv_summary s, g;
	enum pv_replicate rep;
	struct rec_back b;

	memset(&s, 0, sizeof(s));
	s.n = 5;
	s.mean = 1.0 / 3;
	s.median = 0.25;
	s.sd = 1e-12;
	s.cv = 3e-12;
	s.rcv = 0;
	s.min = -2;
	s.max = 12345678901.0;
	s.mean_lo = NAN;
	s.mean_hi = INFINITY;
	s.median_lo = 0.125;
	s.median_hi = 0.5;
	s.median_cover = 0.9375;
	pv_rec_stat_write(&sb, &k, S(""), &s, PV_REPLICATE_SAMPLE);
	ck_assert_str_eq(sb.buf, "stat\ttarget\tv2\te\ts\tt\to\tm\tu\thigher"
			 "\t-\t5\t0.3333333333\t0.25\t1e-12\t3e-12\t0\t-2"
			 "\t1.23456789e+10\t-\tinf\t0.125\t0.5\t0.9375"
			 "\tsample\n");
	read_back(&b, &sb);
	ck_assert_int_eq(pv_rec_stat_parse(&b.rec, &gk, &g, &rep, &e), 0);
	ck_assert_uint_eq(g.n, 5);
	ck_assert(isnan(g.mean_lo) && isinf(g.mean_hi) && isnan(g.mad));
	ck_assert(g.median_cover == 0.9375);
	ck_assert_int_eq(rep, PV_REPLICATE_SAMPLE);
	pv_rec_stat_write(&again, &gk, S(""), &g, rep);
	ck_assert_str_eq(again.buf, sb.buf);
	read_done(&b);
	/* the key as text */
	pv_strbuf_reset(&again);
	pv_rec_stat_write(&again, NULL, S("\ttarget\tv2\te\ts\tt\to\tm\tu"
					  "\thigher\t-"), &s,
			  PV_REPLICATE_SAMPLE);
	ck_assert_str_eq(again.buf, sb.buf);
	/* by run; and 24 fields, written before REPLICATE was, are */
	pv_strbuf_reset(&again);
	pv_rec_stat_write(&again, &k, S(""), &s, PV_REPLICATE_RUN);
	ck_assert_str_eq(again.buf + again.len - 5, "\trun\n");
	again.buf[again.len - 5] = '\n';
	again.buf[again.len - 4] = '\0';
	read_back_str(&b, again.buf);
	rep = PV_REPLICATE_SAMPLE;
	ck_assert_int_eq(pv_rec_stat_parse(&b.rec, &gk, &g, &rep, &e), 0);
	ck_assert_int_eq(rep, PV_REPLICATE_RUN);
	read_done(&b);
	read_back_str(&b, "stat\ta\tb\tc\ts\tt\to\tm\tu\thigher\t-\t5\t1\t1"
		      "\t1\t1\t1\t1\t1\t1\t1\t1\t1\t1\trepetition\n");
	ck_assert_int_eq(pv_rec_stat_parse(&b.rec, &gk, &g, &rep, &e), -1);
	ck_assert_str_eq(pv_err_msg(&e), "REPLICATE 'repetition' is not 'run' "
			 "or 'sample'");
	read_done(&b);

	read_back_str(&b, "stat\ta\tb\tc\ts\tt\to\tm\tu\thigher\t-\t5\t1\t1"
		      "\t1\t1\t1\t1\t1\t1\t1\t1\tx\t1\n");
	ck_assert_int_eq(pv_rec_stat_parse(&b.rec, &gk, &g, &rep, &e), -1);
	ck_assert_str_eq(pv_err_msg(&e), "MEDIAN_HI 'x' is not a number");
	read_done(&b);
	read_back_str(&b, "stat\ta\tb\tc\ts\tt\to\tm\tu\thigher\t-\t5\n");
	ck_assert_int_eq(pv_rec_stat_parse(&b.rec, &gk, &g, &rep, &e), -1);
	ck_assert_str_eq(pv_err_msg(&e), "a stat record has 24 or 25 fields, "
			 "not 12");
	read_done(&b);
	pv_strbuf_release(&sb);
	pv_strbuf_release(&again);
}
END_TEST

START_TEST(test_statroll)
{
	static const char *const want[PV_NSCOPE] = {
		"statroll\ttarget\tv2\te\ttest\ts\tt\t3\t15\t4\t0.01\t-\n",
		"statroll\ttarget\tv2\te\tsuite\ts\t-\t3\t15\t4\t0.01\t-\n",
		"statroll\ttarget\tv2\te\trun\t-\t-\t3\t15\t4\t0.01\t-\n",
	};
	struct pv_strbuf sb = PV_STRBUF_INIT, again = PV_STRBUF_INIT;
	struct pv_err e = PV_ERR_INIT;
	struct pv_statroll r, g;
	struct rec_back b;
	int s;

	for (s = 0; s < PV_NSCOPE; s++) {
		memset(&r, 0, sizeof(r));
		r.key = key();
		r.scope = (enum pv_scope)s;
		r.keys = 3;
		r.runs = 15;
		r.min_n = 4;
		r.median_rcv = 0.01;
		r.max_rcv = NAN;
		pv_strbuf_reset(&sb);
		pv_rec_statroll_write(&sb, &r);
		ck_assert_str_eq(sb.buf, want[s]);
		read_back(&b, &sb);
		ck_assert_int_eq(pv_rec_statroll_parse(&b.rec, &g, &e), 0);
		ck_assert_int_eq(g.scope, s);
		ck_assert_uint_eq(g.keys, 3);
		ck_assert_uint_eq(g.min_n, 4);
		pv_strbuf_reset(&again);
		pv_rec_statroll_write(&again, &g);
		ck_assert_str_eq(again.buf, sb.buf);
		read_done(&b);
	}
	read_back_str(&b, "statroll\ta\tb\tc\ttest\ts\tt\t3\t-1\t4\t1\t1\n");
	ck_assert_int_eq(pv_rec_statroll_parse(&b.rec, &g, &e), -1);
	ck_assert_str_eq(pv_err_msg(&e), "RUNS '-1' is not a whole number");
	read_done(&b);
	pv_strbuf_release(&sb);
	pv_strbuf_release(&again);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("rec_stat");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_stat);
	tcase_add_test(tc, test_statroll);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
