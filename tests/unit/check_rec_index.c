/*
 * check_rec_index: the codec of the store's index lines.  The lines the
 * writer makes, byte for byte; what the parser reads back from them and
 * from lines written by hand (escapes, absent values, the absent
 * experiment); the lines it skips; its messages, and which fault of a line
 * with several it names.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rec_index.h"

#define H "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

static struct pv_str
str(const char *s)
{
	struct pv_str v;

	v.s = s;
	v.len = s != NULL ? strlen(s) : 0;
	return v;
}

static int
str_is(struct pv_str v, const char *s)
{
	return v.s != NULL && v.len == strlen(s) && memcmp(v.s, s, v.len) == 0;
}

START_TEST(test_write)
{
	struct pv_strbuf sb = PV_STRBUF_INIT;
	struct pv_rec_index ix = PV_REC_INDEX_INIT;
	struct pv_str x[3];

	ix.type = PV_REC_INDEX_HEAD;
	pv_rec_index_write(&sb, &ix);
	ck_assert_str_eq(sb.buf, "pv-format\t1\n");
	x[0] = str("fu\ttex");
	x[1] = str("");
	x[2] = str("pipe\\");
	ix.type = PV_REC_INDEX_ADD;
	ix.version = str("v6.12");
	ix.hash = str(H);
	ix.size = 10;
	ix.csize = 20;
	ix.time = 1700000000;
	ix.kinds = str("stack,sample");
	ix.branch = str("main");
	ix.name = str("a\nb.pv");
	ix.experiment = x;
	ix.nexperiment = 3;
	pv_strbuf_reset(&sb);
	pv_rec_index_write(&sb, &ix);
	ck_assert_str_eq(sb.buf, "add\tv6.12\t" H "\t10\t20\t1700000000\t"
			 "stack,sample\t-\tmain\ta\\nb.pv\tfu\\ttex\t-\t"
			 "pipe\\\\\n");
	ix.type = PV_REC_INDEX_RM;
	ix.time = 5;
	pv_rec_index_write(&sb, &ix);
	ck_assert_str_eq(sb.buf + sb.len - 76, "rm\tv6.12\t" H "\t5\n");
	ix.type = PV_REC_INDEX_NONE;
	pv_strbuf_reset(&sb);
	pv_rec_index_write(&sb, &ix);
	ck_assert_uint_eq(sb.len, 0);
	pv_strbuf_release(&sb);
}
END_TEST

/* Parse s (one line, its newline left out); 0 or -1. */
static int
parse(struct pv_rec_index *ix, const char *s, struct pv_err *e)
{
	pv_err_clear(e);
	return pv_rec_index_parse(s, strlen(s), ix, e);
}

START_TEST(test_parse)
{
	struct pv_rec_index ix = PV_REC_INDEX_INIT;
	struct pv_err e = PV_ERR_INIT;

	ck_assert_int_eq(parse(&ix, "pv-format\t1", &e), 0);
	ck_assert_int_eq(ix.type, PV_REC_INDEX_HEAD);
	ck_assert_int_eq(parse(&ix, "add\tv\\t1\t" H "\t10\t20\t1700000000\t"
			       "stack\t-\t\tn\\\\\tfu\\ntex\t-\t\tx", &e), 0);
	ck_assert_int_eq(ix.type, PV_REC_INDEX_ADD);
	ck_assert(str_is(ix.version, "v\t1"));
	ck_assert(str_is(ix.hash, H));
	ck_assert_uint_eq(ix.size, 10);
	ck_assert_uint_eq(ix.csize, 20);
	ck_assert_int_eq(ix.time, 1700000000);
	ck_assert(str_is(ix.kinds, "stack"));
	ck_assert_ptr_null(ix.commit.s);	/* "-": absent */
	ck_assert(str_is(ix.branch, ""));	/* empty, not absent */
	ck_assert(str_is(ix.name, "n\\"));
	ck_assert_uint_eq(ix.nexperiment, 4);
	ck_assert(str_is(ix.experiment[0], "fu\ntex"));
	ck_assert(str_is(ix.experiment[1], ""));	/* "-" */
	ck_assert(str_is(ix.experiment[2], ""));
	ck_assert(str_is(ix.experiment[3], "x"));
	/* "-" is a version and a kind like any other */
	ck_assert_int_eq(parse(&ix, "add\t-\t" H "\t0\t0\t0\t-\t-\t-\t-", &e),
			 0);
	ck_assert(str_is(ix.version, "-"));
	ck_assert(str_is(ix.kinds, "-"));
	ck_assert_uint_eq(ix.nexperiment, 0);
	/* rm: its TIME is not read */
	ck_assert_int_eq(parse(&ix, "rm\tv\\\\x\t" H "\tlater", &e), 0);
	ck_assert_int_eq(ix.type, PV_REC_INDEX_RM);
	ck_assert(str_is(ix.version, "v\\x"));
	ck_assert(str_is(ix.hash, H));
	ck_assert_int_eq(ix.time, 0);
	/* skipped: blank lines, comments, the types of a later version */
	ck_assert_int_eq(parse(&ix, "", &e), 0);
	ck_assert_int_eq(ix.type, PV_REC_INDEX_NONE);
	ck_assert_int_eq(parse(&ix, "# add\tx", &e), 0);
	ck_assert_int_eq(ix.type, PV_REC_INDEX_NONE);
	ck_assert_int_eq(parse(&ix, "tag\tv\\q\t\\", &e), 0);
	ck_assert_int_eq(ix.type, PV_REC_INDEX_NONE);
	ck_assert_str_eq(pv_err_msg(&e), "");
	pv_rec_index_release(&ix);
}
END_TEST

START_TEST(test_round_trip)
{
	struct pv_rec_index ix = PV_REC_INDEX_INIT, back = PV_REC_INDEX_INIT;
	struct pv_strbuf sb = PV_STRBUF_INIT;
	struct pv_err e = PV_ERR_INIT;
	struct pv_str x[2];
	size_t i;

	x[0] = str("\\;\t\r\n");
	x[1] = str("");
	ix.type = PV_REC_INDEX_ADD;
	ix.version = str("v;1\\");
	ix.hash = str(H);
	ix.size = UINT64_MAX;
	ix.csize = 0;
	ix.time = INT64_MAX;
	ix.kinds = str("sample");
	ix.commit = str(H);
	ix.name = str("dir/with\ttab");
	ix.experiment = x;
	ix.nexperiment = 2;
	pv_rec_index_write(&sb, &ix);
	ck_assert_int_eq(sb.buf[sb.len - 1], '\n');
	ck_assert_int_eq(pv_rec_index_parse(sb.buf, sb.len - 1, &back, &e), 0);
	ck_assert_int_eq(back.type, PV_REC_INDEX_ADD);
	ck_assert(str_is(back.version, "v;1\\"));
	ck_assert_uint_eq(back.size, UINT64_MAX);
	ck_assert_uint_eq(back.csize, 0);
	ck_assert_int_eq(back.time, INT64_MAX);
	ck_assert(str_is(back.commit, H));
	ck_assert_ptr_null(back.branch.s);
	ck_assert(str_is(back.name, "dir/with\ttab"));
	ck_assert_uint_eq(back.nexperiment, 2);
	for (i = 0; i < 2; i++)
		ck_assert(back.experiment[i].len == x[i].len &&
			  memcmp(back.experiment[i].s, x[i].s, x[i].len) == 0);
	pv_strbuf_release(&sb);
	pv_rec_index_release(&back);
}
END_TEST

START_TEST(test_errors)
{
	static const struct {
		const char *line;
		const char *msg;
	} bad[] = {
		{ "pv-format\t2", "not a version 1 index" },
		{ "pv-format\t1\tx", "not a version 1 index" },
		{ "pv-format", "not a version 1 index" },
		{ "rm\tv\t" H, "an 'rm' line has 4 fields, not 3" },
		{ "rm\tv\tzz\t1",
		  "'zz' is not an object name (64 hex digits)" },
		{ "rm\tv\\q\t" H "\t1", "bad escape" },
		{ "add\tv\t" H "\t1\t2\t3\tk\t-\t-",
		  "an 'add' line has 10 fields or more, not 9" },
		{ "add\tv\t" H "X\t1\t2\t3\tk\t-\t-\t-",
		  "'" H "X' is not an object name (64 hex digits)" },
		{ "add\tv\t" H "\t-1\t2\t3\tk\t-\t-\t-",
		  "size '-1' is not a whole number in range" },
		{ "add\tv\t" H "\t1\t18446744073709551616\t3\tk\t-\t-\t-",
		  "compressed size '18446744073709551616' is not a whole "
		  "number in range" },
		{ "add\tv\t" H "\t1\t2\t9223372036854775808\tk\t-\t-\t-",
		  "time '9223372036854775808' is not a whole number in range" },
		{ "add\tv\t" H "\t1\t2\t3\tk\t-\t-\tn\\", "bad escape" },
		/* several faults: the count, the name, the numbers first */
		{ "add\tv\\q\tzz\t1\t2\t3\tk\t-\t-", "an 'add' line has 10 "
		  "fields or more, not 9" },
		{ "add\tv\\q\tzz\t1\t2\t3\tk\t-\t-\t-",
		  "'zz' is not an object name (64 hex digits)" },
		{ "add\tv\\q\t" H "\t1\\t\t2\t3\tk\t-\t-\t-",
		  "size '1\\t' is not a whole number in range" },
	};
	struct pv_rec_index ix = PV_REC_INDEX_INIT;
	struct pv_err e = PV_ERR_INIT;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_int_eq(parse(&ix, bad[i].line, &e), -1);
		ck_assert_str_eq(pv_err_msg(&e), bad[i].msg);
	}
	pv_rec_index_release(&ix);
}
END_TEST

/*
 * As many fields as the writer writes: an add line of 1,000 experiments
 * reads back whole (the index once stopped at 64 fields, 54 experiments,
 * which add wrote all the same).
 */
START_TEST(test_many_fields)
{
	struct pv_rec_index ix = PV_REC_INDEX_INIT, back = PV_REC_INDEX_INIT;
	struct pv_strbuf sb = PV_STRBUF_INIT;
	struct pv_err e = PV_ERR_INIT;
	static struct pv_str x[1000];
	static char name[1000][8];
	size_t i;

	for (i = 0; i < 1000; i++) {
		snprintf(name[i], sizeof(name[i]), "x%zu", i);
		x[i] = str(name[i]);
	}
	ix.type = PV_REC_INDEX_ADD;
	ix.version = str("v");
	ix.hash = str(H);
	ix.kinds = str("stack");
	ix.experiment = x;
	ix.nexperiment = 1000;
	pv_rec_index_write(&sb, &ix);
	ck_assert_int_eq(pv_rec_index_parse(sb.buf, sb.len - 1, &back, &e), 0);
	ck_assert_uint_eq(back.nexperiment, 1000);
	ck_assert(str_is(back.experiment[999], "x999"));
	/* a line of a type not known, as long: skipped */
	sb.buf[0] = 'X';
	ck_assert_int_eq(pv_rec_index_parse(sb.buf, sb.len - 1, &back, &e), 0);
	ck_assert_int_eq(back.type, PV_REC_INDEX_NONE);
	pv_strbuf_release(&sb);
	pv_rec_index_release(&back);
}
END_TEST

START_TEST(test_tests_line)
{
	struct pv_rec_index ix = PV_REC_INDEX_INIT, back = PV_REC_INDEX_INIT;
	struct pv_rec_index_test t[2];
	struct pv_strbuf sb = PV_STRBUF_INIT;
	struct pv_err e = PV_ERR_INIT;

	t[0].experiment = str("fu\ttex");
	t[0].suite = str("stress-ng");
	t[0].test = str("futex");
	t[0].runs = 5;
	t[1].experiment = str("");
	t[1].suite = str("");
	t[1].test = str("-");
	t[1].runs = 18446744073709551615ULL;
	ix.type = PV_REC_INDEX_TESTS;
	ix.version = str("v6.12");
	ix.hash = str(H);
	ix.test = t;
	ix.ntest = 2;
	pv_rec_index_write(&sb, &ix);
	ck_assert_str_eq(sb.buf, "tests\tv6.12\t" H "\tfu\\ttex\tstress-ng\t"
			 "futex\t5\t-\t\t-\t18446744073709551615\n");
	ck_assert_int_eq(pv_rec_index_parse(sb.buf, sb.len - 1, &back, &e), 0);
	ck_assert_int_eq(back.type, PV_REC_INDEX_TESTS);
	ck_assert(str_is(back.version, "v6.12"));
	ck_assert(str_is(back.hash, H));
	ck_assert_uint_eq(back.ntest, 2);
	ck_assert(str_is(back.test[0].experiment, "fu\ttex"));
	ck_assert(str_is(back.test[0].suite, "stress-ng"));
	ck_assert(str_is(back.test[0].test, "futex"));
	ck_assert_uint_eq(back.test[0].runs, 5);
	ck_assert(str_is(back.test[1].experiment, ""));	/* "-": absent */
	ck_assert_uint_eq(back.test[1].suite.len, 0);
	ck_assert(str_is(back.test[1].test, "-"));	/* a name, as given */
	ck_assert_uint_eq(back.test[1].runs, 18446744073709551615ULL);
	/* a stream without tests: no more than its version and hash */
	ck_assert_int_eq(parse(&back, "tests\tv\t" H, &e), 0);
	ck_assert_int_eq(back.type, PV_REC_INDEX_TESTS);
	ck_assert_uint_eq(back.ntest, 0);
	ck_assert_int_eq(parse(&back, "tests\tv\t" H "\tx\ts\tt", &e), -1);
	ck_assert_str_eq(pv_err_msg(&e), "a 'tests' line has 3 fields and 4 a "
			 "test, not 6");
	ck_assert_int_eq(parse(&back, "tests\tv\tzz", &e), -1);
	ck_assert_str_eq(pv_err_msg(&e), "'zz' is not an object name (64 hex "
			 "digits)");
	ck_assert_int_eq(parse(&back, "tests\tv\t" H "\tx\ts\tt\t5x", &e),
			 -1);
	ck_assert_str_eq(pv_err_msg(&e), "runs '5x' is not a whole number in "
			 "range");
	ck_assert_int_eq(parse(&back, "tests\tv\t" H "\tx\ts\\q\tt\t5", &e),
			 -1);
	ck_assert_str_eq(pv_err_msg(&e), "bad escape");
	pv_strbuf_release(&sb);
	pv_rec_index_release(&back);
}
END_TEST

START_TEST(test_is_head)
{
	ck_assert(pv_rec_index_is_head("pv-format\t1", 11));
	ck_assert(pv_rec_index_is_head("pv-format\t2\tx", 13));
	ck_assert(!pv_rec_index_is_head("pv-format", 9));
	ck_assert(!pv_rec_index_is_head("pv-format\t", 9));
	ck_assert(!pv_rec_index_is_head("pv-formats\t1", 12));
	ck_assert(!pv_rec_index_is_head("add\tv", 5));
	ck_assert(!pv_rec_index_is_head("", 0));
}
END_TEST

static Suite *
rec_index_suite(void)
{
	Suite *s = suite_create("rec_index");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_write);
	tcase_add_test(tc, test_parse);
	tcase_add_test(tc, test_round_trip);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_many_fields);
	tcase_add_test(tc, test_tests_line);
	tcase_add_test(tc, test_is_head);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(rec_index_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
