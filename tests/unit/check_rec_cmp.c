/*
 * check_rec_cmp: the cmp record written from a comparison, parsed back to
 * the same record, with its flags and a side's key text; the checks of its
 * parser; each flag's name, as FLAGS holds it; the cmproll record of each
 * scope, both ways.
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "honest.h"
#include "rec_check.h"
#include "rec_cmp.h"

static struct pv_cmp
cmp(void)
{
	struct pv_cmp c;

	memset(&c, 0, sizeof(c));
	c.key.role = S("v1");
	c.key.version = S("v2");
	c.key.experiment = S("e");
	c.key.suite = S("s");
	c.key.test = S("t");
	c.key.operation = S("o");
	c.key.metric = S("m");
	c.key.unit = S("u");
	c.key.level = 4;
	c.nb = 5;
	c.nt = 2;
	c.change = -0.1;
	c.lo = -0.2;
	c.hi = 0.05;
	c.se = 0.03;
	c.df = 4.5;
	c.boot_lo = c.boot_hi = NAN;
	c.p_welch = 0.04;
	c.p_mwu = 2.0 / 21;
	c.g = -INFINITY;
	c.cliff = -1;
	c.rcv_b = 0.01;
	c.rcv_t = 0.02;
	c.out_b = 1;
	c.out_t = 0;
	c.flags = PV_CMP_FEW_RUNS | PV_CMP_OUTLIERS | PV_CMP_QUANTISED |
		PV_CMP_DRIFT;
	c.hlo = -0.3;
	c.hhi = 0.1;
	c.hp = 0.2;
	c.trend = -2.5;
	c.order = PV_ORDER_APART;
	c.rho = 0.25;
	c.quantum = 0.01;
	return c;
}

static const char line[] = "cmp\tv1\tv2\te\ts\tt\to\tm\tu\thigher\t4\t5\t2"
	"\t-0.1\t-0.2\t0.05\t0.03\t4.5\t-\t-\t0.04\t0.09523809524\t-inf\t-1"
	"\t0.01\t0.02\t1\t0\tfew-runs,outliers,quantised,drift\t-0.3\t0.1"
	"\t0.2\t-2.5\tapart\t0.25\t0.01\n";

/* the same, as written before the honest interval: 29 fields */
static const char old_line[] = "cmp\tv1\tv2\te\ts\tt\to\tm\tu\thigher\t4"
	"\t5\t2\t-0.1\t-0.2\t0.05\t0.03\t4.5\t-\t-\t0.04\t0.09523809524\t-inf"
	"\t-1\t0.01\t0.02\t1\t0\tfew-runs,outliers\n";

START_TEST(test_cmp)
{
	struct pv_strbuf sb = PV_STRBUF_INIT, again = PV_STRBUF_INIT;
	struct pv_err e = PV_ERR_INIT;
	struct pv_cmp c = cmp(), g;
	struct rec_back b;

	pv_rec_cmp_write(&sb, &c);
	ck_assert_str_eq(sb.buf, line);
	read_back(&b, &sb);
	ck_assert_int_eq(pv_rec_cmp_parse(&b.rec, &g, &e), 0);
	ck_assert_uint_eq(g.flags, PV_CMP_FEW_RUNS | PV_CMP_OUTLIERS |
			  PV_CMP_QUANTISED | PV_CMP_DRIFT);
	ck_assert(isinf(g.g) && isnan(g.boot_lo));
	ck_assert_int_eq(g.order, PV_ORDER_APART);
	ck_assert_uint_eq(g.key_text.len, 0);
	pv_rec_cmp_write(&again, &g);
	ck_assert_str_eq(again.buf, line);
	read_done(&b);
	/* a side's key text, with BASE and TARGET of the comparison; no
	 * honest interval, order or quantum */
	c.key_text = S("\tbaseline\tv1\te\ts\tt\to\tm\tu\thigher\t4");
	c.flags = 0;
	c.hlo = c.hhi = c.hp = c.trend = c.rho = NAN;
	c.order = PV_ORDER_UNKNOWN;
	c.quantum = 0;
	pv_strbuf_reset(&sb);
	pv_rec_cmp_write(&sb, &c);
	ck_assert(strncmp(sb.buf, line, 100) == 0);
	ck_assert_str_eq(sb.buf + sb.len - 21,
			 "\t1\t0\t-\t-\t-\t-\t-\t-\t-\t-\n");
	pv_strbuf_release(&sb);
	pv_strbuf_release(&again);
}
END_TEST

/* a record of 29 fields reads as one whose honest interval is Welch's */
START_TEST(test_cmp_old)
{
	struct pv_strbuf sb = PV_STRBUF_INIT;
	struct pv_err e = PV_ERR_INIT;
	struct pv_cmp g;
	struct rec_back b;

	pv_strbuf_addstr(&sb, old_line);
	read_back(&b, &sb);
	ck_assert_int_eq(pv_rec_cmp_parse(&b.rec, &g, &e), 0);
	ck_assert(g.hlo == -0.2 && g.hhi == 0.05 && g.hp == 0.04);
	ck_assert(isnan(g.trend) && isnan(g.rho));
	ck_assert_int_eq(g.order, PV_ORDER_UNKNOWN);
	ck_assert(g.quantum == 0);
	read_done(&b);
	pv_strbuf_release(&sb);
}
END_TEST

/* line with field i (0 the type) replaced by f */
static void
with_field(struct rec_back *b, size_t i, const char *f)
{
	struct pv_strbuf sb = PV_STRBUF_INIT;
	const char *p = line, *q;
	size_t k;

	for (k = 0; k < i; k++)
		p = strchr(p, '\t') + 1;
	pv_strbuf_add(&sb, line, (size_t)(p - line));
	pv_strbuf_addstr(&sb, f);
	q = p + strcspn(p, "\t\n");
	pv_strbuf_addstr(&sb, q);
	read_back(b, &sb);
	pv_strbuf_release(&sb);
}

START_TEST(test_cmp_bad)
{
	static const struct {
		size_t field;
		const char *value, *err;
	} t[] = {
		{ 11, "x", "NB or NT is not a whole number" },
		{ 15, "1e999x", "HI '1e999x' is not a number" },
		{ 13, "inf", "CHANGE 'inf' is not a finite number" },
		{ 27, "-", "OUT_B or OUT_T is not a whole number" },
		{ 28, "few-runs,bogus", "unknown flag in 'few-runs,bogus'" },
		{ 28, "few-runs,", "unknown flag in 'few-runs,'" },
		{ 20, "1.5", "inconsistent cmp record" },
		{ 13, "-", "inconsistent cmp record" },
		{ 9, "left", "direction 'left' is neither 'higher' nor "
		  "'lower'" },
		{ 28, "few-runs\tx", "a cmp record has 29 or 36 fields, not "
		  "37" },
		{ 29, "x", "HONEST_LO 'x' is not a number" },
		{ 30, "-", "inconsistent honest interval in a cmp record" },
		{ 29, "-inf", "inconsistent honest interval in a cmp record" },
		{ 31, "1.5", "inconsistent honest interval in a cmp record" },
		{ 32, "z", "TREND 'z' is not a number" },
		{ 33, "before", "ORDER 'before' is not 'interleaved', 'apart' "
		  "or '-'" },
		{ 34, "inf", "RHO 'inf' is not a number" },
		{ 35, "0", "QUANTUM '0' is not a positive number" },
	};
	struct pv_err e = PV_ERR_INIT;
	struct pv_cmp g;
	struct rec_back b;
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		with_field(&b, t[i].field, t[i].value);
		ck_assert_int_eq(pv_rec_cmp_parse(&b.rec, &g, &e), -1);
		ck_assert_str_eq(pv_err_msg(&e), t[i].err);
		read_done(&b);
	}
}
END_TEST

/* each flag alone: FLAGS is its name, and that name parses back to it */
START_TEST(test_cmp_flag_name)
{
	static const char *const want[PV_CMP_NFLAGS] = {
		"few-runs", "unstable", "outliers", "baseline-only",
		"target-only", "zero-variance", "nonpositive", "quantised",
		"drift", "secondary"
	};
	struct pv_strbuf sb = PV_STRBUF_INIT;
	struct pv_err e = PV_ERR_INIT;
	struct pv_cmp c = cmp(), g;
	struct rec_back b;
	const char *f;
	int i, j;

	for (i = 0; i < PV_CMP_NFLAGS; i++) {
		ck_assert_str_eq(pv_rec_cmp_flag_name(i), want[i]);
		c.flags = 1u << i;
		pv_strbuf_reset(&sb);
		pv_rec_cmp_write(&sb, &c);
		/* FLAGS is the 29th field; the honest interval's follow */
		for (f = sb.buf, j = 0; j < 28; j++)
			f = strchr(f, '\t') + 1;
		ck_assert_uint_eq(strcspn(f, "\t\n"), strlen(want[i]));
		ck_assert(strncmp(f, want[i], strlen(want[i])) == 0);
		read_back(&b, &sb);
		ck_assert_int_eq(pv_rec_cmp_parse(&b.rec, &g, &e), 0);
		ck_assert_uint_eq(g.flags, 1u << i);
		read_done(&b);
	}
	pv_strbuf_release(&sb);
}
END_TEST

START_TEST(test_cmproll)
{
	static const char *const want[PV_NSCOPE] = {
		"cmproll\tv1\tv2\te\ttest\ts\tt\t12\t-0.01\t-0.02\t0\t-0.5\n",
		"cmproll\tv1\tv2\te\tsuite\ts\t-\t12\t-0.01\t-0.02\t0\t-0.5\n",
		"cmproll\tv1\tv2\te\trun\t-\t-\t12\t-0.01\t-0.02\t0\t-0.5\n",
	};
	struct pv_strbuf sb = PV_STRBUF_INIT, again = PV_STRBUF_INIT;
	struct pv_err e = PV_ERR_INIT;
	struct pv_cmproll r, g;
	struct rec_back b;
	int s;

	for (s = 0; s < PV_NSCOPE; s++) {
		memset(&r, 0, sizeof(r));
		r.key = cmp().key;
		r.scope = (enum pv_scope)s;
		r.keys = 12;
		r.change = -0.01;
		r.lo = -0.02;
		r.hi = 0;
		r.worst = -0.5;
		pv_strbuf_reset(&sb);
		pv_rec_cmproll_write(&sb, &r);
		ck_assert_str_eq(sb.buf, want[s]);
		read_back(&b, &sb);
		ck_assert_int_eq(pv_rec_cmproll_parse(&b.rec, &g, &e), 0);
		ck_assert_int_eq(g.scope, s);
		pv_strbuf_reset(&again);
		pv_rec_cmproll_write(&again, &g);
		ck_assert_str_eq(again.buf, sb.buf);
		read_done(&b);
	}
	read_back_str(&b, "cmproll\tv1\tv2\te\trun\t-\t-\t12\t-0.01\tlow\t0"
		      "\t-0.5\n");
	ck_assert_int_eq(pv_rec_cmproll_parse(&b.rec, &g, &e), -1);
	ck_assert_str_eq(pv_err_msg(&e), "LO 'low' is not a number");
	read_done(&b);
	read_back_str(&b, "cmproll\tv1\tv2\te\trun\t-\t-\t12\n");
	ck_assert_int_eq(pv_rec_cmproll_parse(&b.rec, &g, &e), -1);
	ck_assert_str_eq(pv_err_msg(&e), "a cmproll record has 12 fields, "
			 "not 8");
	read_done(&b);
	pv_strbuf_release(&sb);
	pv_strbuf_release(&again);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("rec_cmp");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_cmp);
	tcase_add_test(tc, test_cmp_old);
	tcase_add_test(tc, test_cmp_bad);
	tcase_add_test(tc, test_cmp_flag_name);
	tcase_add_test(tc, test_cmproll);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
