/*
 * check_rec_verdict: the verdict, systematic and detect records written,
 * parsed back to the same records, and refused when malformed; the names
 * of the classes and bands.
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rec_check.h"
#include "rec_verdict.h"

static struct pv_runkey
key(void)
{
	struct pv_runkey k;

	memset(&k, 0, sizeof(k));
	k.role = S("v1");
	k.version = S("v2");
	k.experiment = S("e");
	k.suite = S("s");
	k.test = S("t");
	k.operation = S("o");
	k.metric = S("m");
	k.unit = S("u");
	k.level = 8;
	return k;
}

START_TEST(test_names)
{
	ck_assert_str_eq(pv_class_name(PV_CLASS_REGRESSION), "regression");
	ck_assert_str_eq(pv_class_name(PV_CLASS_NO_CHANGE), "no-change");
	ck_assert_str_eq(pv_class_name(PV_CLASS_UNCERTAIN), "uncertain");
	ck_assert_str_eq(pv_band_name(PV_BAND_NONE), "-");
	ck_assert_str_eq(pv_band_name(PV_BAND_RED), "red");
}
END_TEST

START_TEST(test_verdict)
{
	static const char line[] = "verdict\tv1\tv2\te\ts\tt\to\tm\tu\thigher"
		"\t8\tregression\t71\tred\t-0.0834\t-0.1\t-0.06\t0.001\t5\t5"
		"\t-\t8.00% worse,\\tinterval\tunstable,drift\n";
	struct pv_strbuf sb = PV_STRBUF_INIT, again = PV_STRBUF_INIT;
	struct pv_err e = PV_ERR_INIT;
	struct pv_verdict v, g;
	struct pv_str reason;
	struct rec_back b;
	char *copy;

	memset(&v, 0, sizeof(v));
	v.cmp.key = key();
	v.cmp.change = -0.0834;
	v.cmp.lo = -0.09;
	v.cmp.hi = -0.07;
	/* the honest interval is the one written */
	v.cmp.hlo = -0.1;
	v.cmp.hhi = -0.06;
	v.flags = PV_CMP_UNSTABLE | PV_CMP_DRIFT;
	v.cmp.nb = v.cmp.nt = 5;
	v.qvalue = 0.001;
	v.cls = PV_CLASS_REGRESSION;
	v.severity = 71;
	v.band = PV_BAND_RED;
	v.reason = "8.00% worse,\tinterval";
	pv_rec_verdict_write(&sb, &v, S(""));
	ck_assert_str_eq(sb.buf, line);
	read_back(&b, &sb);
	ck_assert_int_eq(pv_rec_verdict_parse(&b.rec, &g, &reason, &e), 0);
	ck_assert(str_is(reason, "8.00% worse,\tinterval"));
	ck_assert_ptr_null(g.reason);
	ck_assert_int_eq(g.cls, PV_CLASS_REGRESSION);
	ck_assert_int_eq(g.band, PV_BAND_RED);
	ck_assert_int_eq(g.severity, 71);
	ck_assert_uint_eq(g.runs, 0);
	ck_assert_uint_eq(g.flags, PV_CMP_UNSTABLE | PV_CMP_DRIFT);
	ck_assert(g.cmp.hlo == -0.1 && g.cmp.hhi == -0.06);
	copy = strndup(reason.s, reason.len);
	g.reason = copy;
	pv_rec_verdict_write(&again, &g, S(""));
	ck_assert_str_eq(again.buf, line);
	free(copy);
	read_done(&b);
	/* RUNS given; the key as text */
	v.runs = 12;
	v.cls = PV_CLASS_UNCERTAIN;
	v.band = PV_BAND_NONE;
	v.flags = 0;
	pv_strbuf_reset(&sb);
	pv_rec_verdict_write(&sb, &v, S("\tv1\tv2\te\ts\tt\to\tm\tu\thigher"
					"\t8"));
	ck_assert_str_eq(sb.buf, "verdict\tv1\tv2\te\ts\tt\to\tm\tu\thigher"
			 "\t8\tuncertain\t71\t-\t-0.0834\t-0.1\t-0.06\t0.001"
			 "\t5\t5\t12\t8.00% worse,\\tinterval\t-\n");
	/* written before FLAGS was: 22 fields, no flags */
	read_back_str(&b, "verdict\tv1\tv2\te\ts\tt\to\tm\tu\thigher\t8"
		      "\tuncertain\t71\t-\t-0.0834\t-0.1\t-0.06\t0.001\t5\t5"
		      "\t12\tr\n");
	ck_assert_int_eq(pv_rec_verdict_parse(&b.rec, &g, &reason, &e), 0);
	ck_assert_uint_eq(g.flags, 0);
	ck_assert_uint_eq(g.runs, 12);
	read_done(&b);
	pv_strbuf_release(&sb);
	pv_strbuf_release(&again);
}
END_TEST

START_TEST(test_verdict_bad)
{
	static const struct {
		const char *line, *err;
	} t[] = {
		{ "verdict\ta\tb\tc\ts\tt\to\tm\tu\thigher\t-\tworse\t1\t-\t0"
		  "\t0\t0\t0\t1\t1\t-\tr\n", "unknown class 'worse'" },
		{ "verdict\ta\tb\tc\ts\tt\to\tm\tu\thigher\t-\tregression\t101"
		  "\t-\t0\t0\t0\t0\t1\t1\t-\tr\n",
		  "severity '101' is not 0 to 100" },
		{ "verdict\ta\tb\tc\ts\tt\to\tm\tu\thigher\t-\tregression\t1"
		  "\tpink\t0\t0\t0\t0\t1\t1\t-\tr\n", "unknown band 'pink'" },
		{ "verdict\ta\tb\tc\ts\tt\to\tm\tu\thigher\t-\tregression\t1"
		  "\t-\t0\tinf\t0\t0\t1\t1\t-\tr\n",
		  "CHANGE, LO, HI or QVALUE is not a number" },
		{ "verdict\ta\tb\tc\ts\tt\to\tm\tu\thigher\t-\tregression\t1"
		  "\t-\t0\t0\t0\t0\t1\tx\t-\tr\n",
		  "NB, NT or RUNS is not a whole number" },
		{ "verdict\ta\n", "a verdict record has 22 or 23 fields, not "
		  "2" },
		{ "verdict\ta\tb\tc\ts\tt\to\tm\tu\thigher\t-\tregression\t1"
		  "\t-\t0\t0\t0\t0\t1\t1\t-\tr\tdrift,x\n",
		  "unknown flag in 'drift,x'" },
	};
	struct pv_err e = PV_ERR_INIT;
	struct pv_verdict g;
	struct pv_str reason;
	struct rec_back b;
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		read_back_str(&b, t[i].line);
		ck_assert_int_eq(pv_rec_verdict_parse(&b.rec, &g, &reason,
						      &e), -1);
		ck_assert_str_eq(pv_err_msg(&e), t[i].err);
		read_done(&b);
	}
}
END_TEST

START_TEST(test_systematic)
{
	static const char line[] = "systematic\tv1\tv2\te\ts\tt\to\tm\tu\thigher"
		"\t3\t2\t-,2,16\t1\t1\t0\t-0.2\t-0.05\t-0.1\t0.001\n";
	static const uint64_t level[] = { PV_NONE, 2, 16 };
	struct pv_strbuf sb = PV_STRBUF_INIT, text = PV_STRBUF_INIT;
	struct pv_err e = PV_ERR_INIT;
	struct pv_runkey k = key(), gk;
	struct pv_sysreg s, g;
	struct pv_str levels;
	struct rec_back b;

	memset(&s, 0, sizeof(s));
	s.levels = 3;
	s.regressed = 2;
	s.bands[PV_BAND_RED] = 1;
	s.bands[PV_BAND_YELLOW] = 1;
	s.dmin = -0.2;
	s.dmax = -0.05;
	s.pooled = -0.1;
	s.p = 0.001;
	pv_rec_systematic_write(&sb, &k, S(""), &s, level, 3);
	ck_assert_str_eq(sb.buf, line);
	/* from the text of one of its keys, LEVEL and all */
	pv_rec_key_add(&text, &k, 1);
	pv_strbuf_reset(&sb);
	pv_rec_systematic_write(&sb, &k, S(text.buf), &s, level, 3);
	ck_assert_str_eq(sb.buf, line);
	read_back(&b, &sb);
	ck_assert_int_eq(pv_rec_systematic_parse(&b.rec, &gk, &g, &levels,
						 &e), 0);
	ck_assert(str_is(levels, "-,2,16"));
	ck_assert_uint_eq(gk.level, PV_NONE);
	ck_assert(str_is(gk.operation, "o"));
	ck_assert_uint_eq(g.levels, 3);
	ck_assert_uint_eq(g.bands[PV_BAND_GREEN], 0);
	ck_assert(g.systematic && g.p == 0.001);
	read_done(&b);
	read_back_str(&b, "systematic\ta\tb\tc\ts\tt\to\tm\tu\thigher\t3\t2"
		      "\t1,2\t1\t1\tone\t0\t0\t0\t0\n");
	ck_assert_int_eq(pv_rec_systematic_parse(&b.rec, &gk, &g, &levels,
						 &e), -1);
	ck_assert_str_eq(pv_err_msg(&e), "a count of the systematic record "
			 "is not a whole number");
	read_done(&b);
	pv_strbuf_release(&sb);
	pv_strbuf_release(&text);
}
END_TEST

START_TEST(test_detect)
{
	static const char line[] = "detect\tv1\tv2\te\ts\tt\to\tm\tu\thigher"
		"\t8\t3\t4\t0.012\t-\t0.05\n";
	struct pv_strbuf sb = PV_STRBUF_INIT;
	struct pv_err e = PV_ERR_INIT;
	struct pv_cmp c, g;
	struct rec_back b;
	double mde;

	memset(&c, 0, sizeof(c));
	c.key = key();
	c.nb = 3;
	c.nt = 4;
	c.rcv_b = 0.012;
	c.rcv_t = NAN;
	pv_rec_detect_write(&sb, &c, 0.05, S(""));
	ck_assert_str_eq(sb.buf, line);
	read_back(&b, &sb);
	ck_assert_int_eq(pv_rec_detect_parse(&b.rec, &g, &mde, &e), 0);
	ck_assert(mde == 0.05 && isnan(g.rcv_t) && g.nt == 4);
	read_done(&b);
	read_back_str(&b, "detect\ta\tb\tc\ts\tt\to\tm\tu\thigher\t-\t3\t4"
		      "\t0\t0\tbig\n");
	ck_assert_int_eq(pv_rec_detect_parse(&b.rec, &g, &mde, &e), -1);
	ck_assert_str_eq(pv_err_msg(&e), "a number of the detect record is "
			 "not a number");
	read_done(&b);
	pv_strbuf_release(&sb);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("rec_verdict");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_names);
	tcase_add_test(tc, test_verdict);
	tcase_add_test(tc, test_verdict_bad);
	tcase_add_test(tc, test_systematic);
	tcase_add_test(tc, test_detect);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
