/*
 * check_rec_sample: the sample record written from what the reader parsed
 * (the same line back, values in their shortest exact form), and the
 * runval record written, parsed, and refused when malformed.
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rec_check.h"
#include "rec_sample.h"

START_TEST(test_sample)
{
	static const char *const line[] = {
		("sample\tstress-ng\tfu\\ttex\tops\tbogo-ops\tops/s\thigher\t4"
		 "\t1\t-\t1234.5\n"),
		"sample\ts\t\to\tm\tu\tlower\t-\t18\t3\t0.1\n",
		"sample\ts\tt\to\tm\tu\tlower\t-\t2\t3\t1e+300\n",
	};
	struct pv_strbuf sb = PV_STRBUF_INIT;
	struct rec_back b;
	size_t i;

	for (i = 0; i < sizeof(line) / sizeof(line[0]); i++) {
		read_back_str(&b, line[i]);
		ck_assert_int_eq(b.rec.type, PV_REC_SAMPLE);
		pv_strbuf_reset(&sb);
		pv_rec_sample_write(&sb, &b.rec);
		ck_assert_str_eq(sb.buf, line[i]);
		read_done(&b);
	}
	/* a value written in another form comes out in the shortest */
	read_back_str(&b, "sample\ts\tt\to\tm\tu\thigher\t-\t1\t-\t"
		      "0.30000000000000004e0\n");
	pv_strbuf_reset(&sb);
	pv_rec_sample_write(&sb, &b.rec);
	ck_assert_str_eq(sb.buf, "sample\ts\tt\to\tm\tu\thigher\t-\t1\t-\t"
			 "0.30000000000000004\n");
	read_done(&b);
	pv_strbuf_release(&sb);
}
END_TEST

START_TEST(test_runval)
{
	struct pv_strbuf sb = PV_STRBUF_INIT, again = PV_STRBUF_INIT;
	struct pv_err e = PV_ERR_INIT;
	struct pv_runval rv, got;
	struct rec_back b;

	memset(&rv, 0, sizeof(rv));
	rv.key.role = S("baseline");
	rv.key.version = S("v1");
	rv.key.suite = S("s");
	rv.key.test = S("t");
	rv.key.operation = S("o");
	rv.key.metric = S("m");
	rv.key.unit = S("u");
	rv.key.level = 2;
	rv.run = 7;
	rv.nvalues = 3;
	rv.value = 1.0 / 3;
	rv.quantum = 0.01;
	pv_rec_runval_write(&sb, &rv, S(""));
	ck_assert_str_eq(sb.buf, "runval\tbaseline\tv1\t-\ts\tt\to\tm\tu"
			 "\thigher\t2\t7\t3\t0.3333333333333333\t0.01\n");
	read_back(&b, &sb);
	ck_assert_int_eq(pv_rec_runval_parse(&b.rec, &got, &e), 0);
	ck_assert(got.quantum == 0.01);
	ck_assert_uint_eq(got.run, 7);
	ck_assert_uint_eq(got.nvalues, 3);
	ck_assert(got.value == rv.value);
	ck_assert_int_eq(pv_rec_key_cmp(&got.key, &rv.key), 0);
	/* the key given as text */
	pv_rec_runval_write(&again, &got, S("\tbaseline\tv1\t-\ts\tt\to\tm"
					     "\tu\thigher\t2"));
	ck_assert_str_eq(again.buf, sb.buf);
	read_done(&b);
	/* no quantum: '-'; and a runval of 14 fields has none */
	rv.quantum = 0;
	pv_strbuf_reset(&sb);
	pv_rec_runval_write(&sb, &rv, S(""));
	ck_assert_str_eq(sb.buf, "runval\tbaseline\tv1\t-\ts\tt\to\tm\tu"
			 "\thigher\t2\t7\t3\t0.3333333333333333\t-\n");
	read_back_str(&b, "runval\tbaseline\tv1\t-\ts\tt\to\tm\tu\thigher"
		      "\t2\t7\t3\t0.5\n");
	ck_assert_int_eq(pv_rec_runval_parse(&b.rec, &got, &e), 0);
	ck_assert(got.quantum == 0 && got.value == 0.5);
	read_done(&b);
	pv_strbuf_release(&sb);
	pv_strbuf_release(&again);
}
END_TEST

START_TEST(test_runval_bad)
{
	static const struct {
		const char *line, *err;
	} t[] = {
		{ "runval\ta\tb\tc\ts\tt\to\tm\tu\thigher\t-\t1\t2\n",
		  "a runval record has 14 or 15 fields, not 13" },
		{ "runval\ta\tb\tc\ts\tt\to\tm\tu\thigher\t-\t1\t2\t3\t0\n",
		  "QUANTUM '0' is not a positive number" },
		{ "runval\ta\tb\tc\ts\tt\to\tm\tu\thigher\t-\t1\t2\t3\tx\n",
		  "QUANTUM 'x' is not a positive number" },
		{ "runval\ta\tb\tc\ts\tt\to\tm\tu\thigher\t-\tx1\t2\t3\n",
		  "run 'x1' is not a whole number" },
		{ "runval\ta\tb\tc\ts\tt\to\tm\tu\thigher\t-\t1\t0\t3\n",
		  "count '0' is not a positive whole number" },
		{ "runval\ta\tb\tc\ts\tt\to\tm\tu\thigher\t-\t1\t2\tnan\n",
		  "value 'nan' is not a finite number" },
		{ "runval\ta\tb\tc\ts\tt\to\tm\tu\tup\t-\t1\t2\t3\n",
		  "direction 'up' is neither 'higher' nor 'lower'" },
	};
	struct pv_err e = PV_ERR_INIT;
	struct pv_runval rv;
	struct rec_back b;
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		read_back_str(&b, t[i].line);
		ck_assert_int_eq(pv_rec_runval_parse(&b.rec, &rv, &e), -1);
		ck_assert_str_eq(pv_err_msg(&e), t[i].err);
		read_done(&b);
	}
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("rec_sample");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_sample);
	tcase_add_test(tc, test_runval);
	tcase_add_test(tc, test_runval_bad);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
