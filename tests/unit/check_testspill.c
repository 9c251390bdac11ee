/*
 * check_testspill: one test of a table held at a time: the test read
 * before saved when another begins, read back as it was (into the table
 * or another), a test that comes back reported once and held, and the
 * spill's failures as errors, not exits.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rec_check.h"
#include "testspill.h"

static struct pv_record
sample(const char *test, uint64_t run, double v)
{
	struct pv_record rec;

	memset(&rec, 0, sizeof(rec));
	rec.type = PV_REC_SAMPLE;
	rec.suite = S("suite");
	rec.test = S(test);
	rec.operation = S("op");
	rec.metric = S("m");
	rec.unit = S("u");
	rec.direction = PV_HIGHER_BETTER;
	rec.level = 1;
	rec.run = run;
	rec.seq = PV_NONE;
	rec.val = v;
	return rec;
}

/* A sample of test in section baseline v1 e, entered first; enter's rc. */
static int
add(struct pv_testspill *ts, const char *test, uint64_t run, double v)
{
	struct pv_record r = sample(test, run, v);
	int rc = pv_testspill_enter(ts, S("baseline"), S("v1"), S("e"),
				    S("suite"), S(test));

	ck_assert_int_eq(pv_runtab_add_sample(ts->tab, S("baseline"), S("v1"),
					      S("e"), &r), 0);
	return rc;
}

/* the sets of a table, formatted */
static void
format_all(struct pv_runtab *t, struct pv_strbuf *sb)
{
	size_t i;

	for (i = 0; i < t->nset; i++)
		pv_runset_format(sb, t, &t->set[i]);
}

START_TEST(test_grouped)
{
	struct pv_testspill_file f;
	struct pv_testspill ts;
	struct pv_runtab t, u;
	struct pv_strbuf want = PV_STRBUF_INIT, got = PV_STRBUF_INIT;

	pv_runtab_init(&t);
	pv_runtab_init(&u);
	pv_testspill_file_init(&f, "check_testspill");
	pv_testspill_init(&ts, &t, &f);
	ck_assert_int_eq(add(&ts, "a", 1, 10), 0);
	ck_assert_int_eq(add(&ts, "a", 2, 12), 0);
	ck_assert_int_eq(f.fd, -1);	/* one test: nothing saved */
	ck_assert_uint_eq(t.nset, 1);
	format_all(&t, &want);
	ck_assert_int_eq(add(&ts, "b", 1, 3), 0);
	/* a saved, dropped: only b in the table */
	ck_assert_int_ge(f.fd, 0);
	ck_assert_uint_eq(ts.n, 2);
	ck_assert_int_eq(ts.g[0].saved, 1);
	ck_assert_uint_eq(t.nset, 1);
	ck_assert(str_is(t.set[0].key.test, "b"));
	ck_assert_int_eq(ts.hold, 0);
	ck_assert_int_eq(pv_testspill_save_current(&ts), 0);
	ck_assert_uint_eq(ts.cur, PV_TESTSPILL_NONE);
	ck_assert_uint_eq(t.nset, 0);
	/* loaded into another table, twice: a stays saved */
	ck_assert_int_eq(pv_testspill_load(&ts, &ts.g[0], &u), 0);
	format_all(&u, &got);
	ck_assert_str_eq(got.buf, want.buf);
	pv_runtab_clear(&u);
	ck_assert_int_eq(pv_testspill_load(&ts, &ts.g[0], &u), 0);
	ck_assert_uint_eq(u.nset, 1);
	ck_assert_int_eq(ts.g[0].saved, 1);
	/* taken into its own table: no longer saved, loading does nothing */
	ck_assert_int_eq(pv_testspill_take(&ts, &ts.g[1]), 0);
	ck_assert_int_eq(ts.g[1].saved, 0);
	ck_assert(str_is(t.set[0].key.test, "b"));
	ck_assert_int_eq(pv_testspill_load(&ts, &ts.g[1], &t), 0);
	ck_assert_uint_eq(t.nset, 1);
	ck_assert(str_is(ts.g[1].key.test, "b"));
	ck_assert(str_is(ts.g[1].key.role, "baseline"));
	ck_assert_uint_eq(ts.g[1].key.operation.len, 0);
	pv_testspill_release(&ts);
	pv_testspill_file_release(&f);
	pv_runtab_release(&t);
	pv_runtab_release(&u);
	pv_strbuf_release(&want);
	pv_strbuf_release(&got);
}
END_TEST

/* the same test in another section is another group */
START_TEST(test_sections)
{
	struct pv_testspill_file f;
	struct pv_testspill ts;
	struct pv_runtab t;

	pv_runtab_init(&t);
	pv_testspill_file_init(&f, "check_testspill");
	pv_testspill_init(&ts, &t, &f);
	ck_assert_int_eq(pv_testspill_enter(&ts, S("baseline"), S("v1"),
					    S("e"), S("s"), S("a")), 0);
	ck_assert_int_eq(pv_testspill_enter(&ts, S("target"), S("v1"),
					    S("e"), S("s"), S("a")), 0);
	ck_assert_int_eq(pv_testspill_enter(&ts, S("target"), S("v2"),
					    S("e"), S(""), S("a")), 0);
	ck_assert_uint_eq(ts.n, 3);
	/* (no sets were added: nothing saved, no file) */
	ck_assert_int_eq(f.fd, -1);
	ck_assert_int_eq(ts.g[0].saved, 0);
	pv_testspill_release(&ts);
	pv_testspill_file_release(&f);
	pv_runtab_release(&t);
}
END_TEST

/* a test that comes back: 1 once, hold set, then nothing saved */
START_TEST(test_came_back)
{
	struct pv_testspill_file f;
	struct pv_testspill ts;
	struct pv_runtab t;

	pv_runtab_init(&t);
	pv_testspill_file_init(&f, "check_testspill");
	pv_testspill_init(&ts, &t, &f);
	ck_assert_int_eq(add(&ts, "a", 1, 10), 0);
	ck_assert_int_eq(add(&ts, "b", 1, 3), 0);
	ck_assert_int_eq(add(&ts, "c", 1, 4), 0);
	/* (the sample is added before a's sets are back: a new set) */
	ck_assert_int_eq(pv_testspill_enter(&ts, S("baseline"), S("v1"),
					    S("e"), S("suite"), S("a")), 1);
	ck_assert_int_eq(ts.hold, 1);
	ck_assert_uint_eq(t.nset, 0);
	ck_assert_int_eq(pv_testspill_take(&ts, &ts.g[0]), 0);
	ck_assert_uint_eq(t.nset, 1);
	/* held: a is not saved when c's turn comes; c still is */
	ck_assert_int_eq(pv_testspill_enter(&ts, S("baseline"), S("v1"),
					    S("e"), S("suite"), S("c")), 1);
	ck_assert_int_eq(ts.g[0].saved, 0);
	ck_assert_int_eq(pv_testspill_take(&ts, &ts.g[2]), 0);
	ck_assert_int_eq(add(&ts, "c", 2, 5), 0);
	ck_assert_uint_eq(t.nset, 2);
	ck_assert_uint_eq(t.set[1].nrun, 2);
	ck_assert_int_eq(pv_testspill_enter(&ts, S("baseline"), S("v1"),
					    S("e"), S("suite"), S("b")), 1);
	ck_assert_int_eq(pv_testspill_hold_all(&ts), 0);
	ck_assert_uint_eq(t.nset, 3);
	ck_assert_int_eq(ts.g[0].saved + ts.g[1].saved + ts.g[2].saved, 0);
	ck_assert_int_eq(add(&ts, "a", 2, 11), 0);
	ck_assert_int_eq(add(&ts, "d", 1, 1), 0);
	ck_assert_uint_eq(t.nset, 4);
	ck_assert_int_eq(pv_testspill_save_current(&ts), 0);
	ck_assert_uint_eq(t.nset, 4);
	pv_testspill_release(&ts);
	pv_testspill_file_release(&f);
	pv_runtab_release(&t);
}
END_TEST

/* no temporary file to be had: an error in ts->err, nothing printed */
START_TEST(test_no_tmpdir)
{
	struct pv_testspill_file f;
	struct pv_testspill ts;
	struct pv_runtab t;
	/* (mkstemp() may have changed the X's) */
	const char *want = "cannot create a temporary file "
		"'/nonexistent/check_testspill.";

	setenv("TMPDIR", "/nonexistent", 1);
	pv_runtab_init(&t);
	pv_testspill_file_init(&f, "check_testspill");
	pv_testspill_init(&ts, &t, &f);
	ck_assert_int_eq(add(&ts, "a", 1, 10), 0);
	ck_assert_int_eq(pv_testspill_enter(&ts, S("baseline"), S("v1"),
					    S("e"), S("suite"), S("b")), -1);
	ck_assert_int_eq(strncmp(pv_err_msg(&ts.err), want, strlen(want)), 0);
	ck_assert_int_eq(ts.err.errnum, ENOENT);
	ck_assert_str_eq(pv_err_msg(&ts.err) + strlen(want) + 6,
			 "': No such file or directory");
	pv_testspill_release(&ts);
	pv_testspill_file_release(&f);
	pv_runtab_release(&t);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("testspill");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_grouped);
	tcase_add_test(tc, test_sections);
	tcase_add_test(tc, test_came_back);
	tcase_add_test(tc, test_no_tmpdir);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
