/*
 * check_rec_changepoint: the changepoint, outlier, trend and cpgroup
 * records written, read back through the reader, parsed and written again
 * the same; a key's text in place of the key; the refusals, field by
 * field.
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rec_changepoint.h"
#include "rec_check.h"

static void
key(struct pv_runkey *k)
{
	memset(k, 0, sizeof(*k));
	k->experiment = S("nightly");
	k->suite = S("stress-ng");
	k->test = S("futex\tx");
	k->operation = S("ops");
	k->metric = S("bogo-ops");
	k->unit = S("ops/s");
	k->direction = PV_LOWER_BETTER;
	k->level = PV_NONE;
}

START_TEST(test_changepoint)
{
	struct pv_strbuf sb = PV_STRBUF_INIT, again = PV_STRBUF_INIT;
	struct pv_changepoint c, back;
	struct pv_err e = PV_ERR_INIT;
	struct rec_back b;

	memset(&c, 0, sizeof(c));
	key(&c.key);
	c.before = S("v6.6");
	c.after = S("v6.7");
	c.change = -0.0834;
	c.lo = -0.09;
	c.hi = -0.07;
	c.p = 1.5e-20;
	c.nbefore = 6;
	c.nafter = 1;
	c.flags = PV_CHANGEPOINT_NEWEST | PV_CHANGEPOINT_KNOWN;
	pv_rec_changepoint_write(&sb, &c, S(""));
	ck_assert_str_eq(sb.buf, "changepoint\tnightly\tstress-ng\tfutex\\tx\t"
			 "ops\tbogo-ops\tops/s\tlower\t-\tv6.6\tv6.7\t-0.0834\t"
			 "-0.09\t-0.07\t1.5e-20\t6\t1\tnewest,known\n");
	read_back(&b, &sb);
	ck_assert_int_eq(pv_rec_changepoint_parse(&b.rec, &back, &e), 0);
	ck_assert(str_is(back.key.test, "futex\tx"));
	ck_assert_int_eq(back.key.direction, PV_LOWER_BETTER);
	ck_assert(back.key.level == PV_NONE);
	ck_assert(str_is(back.after, "v6.7"));
	ck_assert(back.change == -0.0834 && back.p == 1.5e-20);
	ck_assert_uint_eq(back.nafter, 1);
	ck_assert_uint_eq(back.flags, c.flags);
	pv_rec_changepoint_write(&again, &back, S(""));
	ck_assert_str_eq(again.buf, sb.buf);
	read_done(&b);
	/* no flags: '-' */
	pv_strbuf_reset(&sb);
	c.flags = 0;
	pv_rec_changepoint_write(&sb, &c, S(""));
	ck_assert_ptr_nonnull(strstr(sb.buf, "\t6\t1\t-\n"));
	pv_strbuf_release(&sb);
	pv_strbuf_release(&again);
}
END_TEST

START_TEST(test_outlier_trend)
{
	struct pv_strbuf sb = PV_STRBUF_INIT, again = PV_STRBUF_INIT;
	struct pv_err e = PV_ERR_INIT;
	struct pv_outlier o, ob;
	struct pv_trend t, tb;
	struct rec_back b;

	memset(&o, 0, sizeof(o));
	key(&o.key);
	o.key.level = 4;
	o.version = S("v6.9");
	o.change = -0.1;
	o.p = NAN;
	o.flags = PV_CHANGEPOINT_NEWEST | PV_CHANGEPOINT_KNOWN;
	pv_rec_outlier_write(&sb, &o, S(""));
	ck_assert_str_eq(sb.buf, "outlier\tnightly\tstress-ng\tfutex\\tx\tops\t"
			 "bogo-ops\tops/s\tlower\t4\tv6.9\t-0.1\t-\t"
			 "newest,known\n");
	read_back(&b, &sb);
	ck_assert_int_eq(pv_rec_outlier_parse(&b.rec, &ob, &e), 0);
	ck_assert(ob.key.level == 4 && isnan(ob.p));
	ck_assert_uint_eq(ob.flags, o.flags);
	pv_rec_outlier_write(&again, &ob, S(""));
	ck_assert_str_eq(again.buf, sb.buf);
	read_done(&b);

	pv_strbuf_reset(&sb);
	pv_strbuf_reset(&again);
	memset(&t, 0, sizeof(t));
	key(&t.key);
	t.first = S("v1");
	t.last = S("v30");
	t.change = -0.005;
	t.lo = -0.006;
	t.hi = -0.004;
	t.p = 1e-9;
	/* a key's text given instead of the key */
	pv_rec_trend_write(&sb, &t, S("\tE\tS\tT\tO\tM\tU\thigher\t1"));
	ck_assert_str_eq(sb.buf, "trend\tE\tS\tT\tO\tM\tU\thigher\t1\tv1\tv30\t"
			 "-0.005\t-0.006\t-0.004\t1e-09\n");
	read_back(&b, &sb);
	ck_assert_int_eq(pv_rec_trend_parse(&b.rec, &tb, &e), 0);
	ck_assert(str_is(tb.key.experiment, "E") && tb.key.level == 1);
	ck_assert(str_is(tb.last, "v30") && tb.change == -0.005);
	pv_rec_trend_write(&again, &tb, S(""));
	ck_assert_str_eq(again.buf, sb.buf);
	read_done(&b);
	pv_strbuf_release(&sb);
	pv_strbuf_release(&again);
}
END_TEST

START_TEST(test_cpgroup)
{
	struct pv_strbuf sb = PV_STRBUF_INIT, again = PV_STRBUF_INIT;
	struct pv_err e = PV_ERR_INIT;
	struct pv_cpgroup g, back;
	struct rec_back b;

	memset(&g, 0, sizeof(g));
	key(&g.key);
	g.before = S("v6.11");
	g.after = S("v6.12");
	g.levels = 3;
	g.level_list = S("1,2,4");
	g.change_min = -0.1;
	g.change_max = -0.05;
	g.flags = PV_CHANGEPOINT_NEWEST;
	pv_rec_cpgroup_write(&sb, &g);
	ck_assert_str_eq(sb.buf, "cpgroup\tnightly\tstress-ng\tfutex\\tx\tops\t"
			 "bogo-ops\tops/s\tlower\tv6.11\tv6.12\t3\t1,2,4\t"
			 "-0.1\t-0.05\tnewest\n");
	read_back(&b, &sb);
	ck_assert_int_eq(pv_rec_cpgroup_parse(&b.rec, &back, &e), 0);
	ck_assert(str_is(back.level_list, "1,2,4") && back.levels == 3);
	ck_assert(back.key.level == PV_NONE);
	pv_rec_cpgroup_write(&again, &back);
	ck_assert_str_eq(again.buf, sb.buf);
	read_done(&b);
	pv_strbuf_release(&sb);
	pv_strbuf_release(&again);
}
END_TEST

START_TEST(test_scanned)
{
	struct pv_strbuf sb = PV_STRBUF_INIT;
	struct pv_err e = PV_ERR_INIT;
	struct pv_scanned sc = { 4, 12 }, back;
	struct rec_back b;

	pv_rec_scanned_write(&sb, &sc);
	ck_assert_str_eq(sb.buf, "scanned\t4\t12\n");
	read_back(&b, &sb);
	ck_assert_int_eq(pv_rec_scanned_parse(&b.rec, &back, &e), 0);
	ck_assert(back.keys == 4 && back.versions == 12);
	read_done(&b);
	pv_strbuf_release(&sb);
}
END_TEST

/* A bad record's message. */
static void
bad(const char *text, const char *want)
{
	struct pv_err e = PV_ERR_INIT;
	struct pv_changepoint c;
	struct pv_outlier o;
	struct pv_trend t;
	struct pv_cpgroup g;
	struct pv_scanned sc;
	struct rec_back b;
	int rc;

	read_back_str(&b, text);
	if (str_is(b.rec.field[0], "changepoint"))
		rc = pv_rec_changepoint_parse(&b.rec, &c, &e);
	else if (str_is(b.rec.field[0], "outlier"))
		rc = pv_rec_outlier_parse(&b.rec, &o, &e);
	else if (str_is(b.rec.field[0], "cpgroup"))
		rc = pv_rec_cpgroup_parse(&b.rec, &g, &e);
	else if (str_is(b.rec.field[0], "scanned"))
		rc = pv_rec_scanned_parse(&b.rec, &sc, &e);
	else
		rc = pv_rec_trend_parse(&b.rec, &t, &e);
	ck_assert_int_eq(rc, -1);
	ck_assert_str_eq(pv_err_msg(&e), want);
	read_done(&b);
}

START_TEST(test_bad)
{
	bad("changepoint\tE\tS\tT\tO\tM\tU\thigher\t-\tv1\tv2\t-0.1\n",
	    "a changepoint record has 18 fields, not 12");
	bad("changepoint\tE\tS\tT\tO\tM\tU\tup\t-\tv1\tv2\t-0.1\t-0.2\t0\t"
	    "0.001\t3\t3\t-\n",
	    "direction 'up' is neither 'higher' nor 'lower'");
	bad("changepoint\tE\tS\tT\tO\tM\tU\thigher\tx\tv1\tv2\t-0.1\t-0.2\t0\t"
	    "0.001\t3\t3\t-\n", "level 'x' is not a whole number");
	bad("changepoint\tE\tS\tT\tO\tM\tU\thigher\t1\tv1\tv2\tbig\t-0.2\t0\t"
	    "0.001\t3\t3\t-\n", "CHANGE 'big' is not a number");
	bad("changepoint\tE\tS\tT\tO\tM\tU\thigher\t1\tv1\tv2\t-0.1\t-0.2\t0\t"
	    "0.001\t-3\t3\t-\n", "N_BEFORE '-3' is not a whole number");
	bad("changepoint\tE\tS\tT\tO\tM\tU\thigher\t1\tv1\tv2\t-0.1\t-0.2\t0\t"
	    "0.001\t3\t3\tnewest,\n",
	    "FLAGS 'newest,' is not a list of newest and known");
	bad("outlier\tE\tS\tT\tO\tM\tU\thigher\t1\tv1\t-0.1\tp\t-\n",
	    "P 'p' is not a number");
	bad("outlier\tE\tS\tT\tO\tM\tU\thigher\t1\tv1\t-0.1\t0.001\n",
	    "an outlier record has 13 fields, not 12");
	bad("outlier\tE\tS\tT\tO\tM\tU\thigher\t1\tv1\t-0.1\t0.001\told\n",
	    "FLAGS 'old' is not a list of newest and known");
	bad("trend\tE\tS\tT\tO\tM\tU\thigher\t1\tv1\tv9\t-0.1\t-0.2\n",
	    "a trend record has 15 fields, not 13");
	bad("cpgroup\tE\tS\tT\tO\tM\tU\thigher\tv1\tv2\t1\t1\t-0.1\t"
	    "-0.1\t-\n", "LEVELS '1' is not a whole number from 2");
	bad("cpgroup\tE\tS\tT\tO\tM\tU\tup\tv1\tv2\t2\t1,2\t-0.1\t"
	    "-0.1\t-\n", "direction 'up' is neither 'higher' nor 'lower'");
	bad("scanned\t1\n", "a scanned record has 3 fields, not 2");
	bad("scanned\tx\t2\n", "KEYS 'x' is not a whole number");
}
END_TEST

/* A runval record's key fields as read: its key's text, when they are. */
START_TEST(test_runval_key_text)
{
	struct pv_strbuf sb = PV_STRBUF_INIT;
	struct pv_runkey k;
	struct pv_str t;
	struct rec_back b;

	key(&k);
	k.test = S("futex");
	k.level = 4;
	pv_rec_series_key_add(&sb, &k);
	read_back_str(&b, "runval\tbaseline\tv1\tnightly\tstress-ng\tfutex\t"
		      "ops\tbogo-ops\tops/s\tlower\t4\t1\t1\t5\n");
	t = pv_rec_runval_series_key_text(&b.rec);
	ck_assert_uint_eq(t.len, sb.len);
	ck_assert(memcmp(t.s, sb.buf, sb.len) == 0);
	read_done(&b);
	/* too few fields: none */
	read_back_str(&b, "runval\tbaseline\tv1\tnightly\n");
	t = pv_rec_runval_series_key_text(&b.rec);
	ck_assert_uint_eq(t.len, 0);
	read_done(&b);
	pv_strbuf_release(&sb);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("rec_changepoint");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_changepoint);
	tcase_add_test(tc, test_outlier_trend);
	tcase_add_test(tc, test_cpgroup);
	tcase_add_test(tc, test_scanned);
	tcase_add_test(tc, test_runval_key_text);
	tcase_add_test(tc, test_bad);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
