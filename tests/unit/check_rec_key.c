/*
 * check_rec_key: the key fields of the statistics records written (escapes,
 * '-' for what is absent), read back, with and without their section, in
 * a roll-up's scope form, the span of a sample's key, and the key order.
 */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "rec_check.h"
#include "rec_key.h"

static struct pv_runkey
key(void)
{
	struct pv_runkey k;

	memset(&k, 0, sizeof(k));
	k.role = S("baseline");
	k.version = S("v6.12");
	k.experiment = S("");
	k.suite = S("stress-ng");
	k.test = S("fu\ttex");
	k.operation = S("ops");
	k.metric = S("m\\x");
	k.unit = S("");
	k.direction = PV_LOWER_BETTER;
	k.level = PV_NONE;
	return k;
}

START_TEST(test_add)
{
	struct pv_strbuf sb = PV_STRBUF_INIT;
	struct pv_runkey k = key();

	pv_rec_key_add(&sb, &k, 1);
	ck_assert_str_eq(sb.buf, "\tbaseline\tv6.12\t-\tstress-ng\tfu\\ttex"
			 "\tops\tm\\\\x\t-\tlower\t-");
	pv_strbuf_reset(&sb);
	k.level = 16;
	k.direction = PV_HIGHER_BETTER;
	pv_rec_key_add(&sb, &k, 0);
	ck_assert_str_eq(sb.buf, "\tstress-ng\tfu\\ttex\tops\tm\\\\x\t-"
			 "\thigher\t16");
	pv_strbuf_reset(&sb);
	pv_rec_key_add_section(&sb, &k);
	ck_assert_str_eq(sb.buf, "\tbaseline\tv6.12\t-");
	pv_strbuf_release(&sb);
}
END_TEST

START_TEST(test_get)
{
	struct pv_strbuf sb = PV_STRBUF_INIT;
	struct pv_runkey k = key(), g;
	struct pv_err e = PV_ERR_INIT;
	struct rec_back b;

	k.level = 4;
	pv_strbuf_addstr(&sb, "x");
	pv_rec_key_add(&sb, &k, 1);
	pv_strbuf_addch(&sb, '\n');
	read_back(&b, &sb);
	ck_assert_int_eq(pv_rec_key_get(&b.rec, 1, &g, &e), 0);
	ck_assert(str_is(g.role, "baseline") && str_is(g.version, "v6.12"));
	ck_assert_uint_eq(g.experiment.len, 0);
	ck_assert(str_is(g.test, "fu\ttex") && str_is(g.metric, "m\\x"));
	ck_assert_uint_eq(g.unit.len, 0);
	ck_assert_int_eq(g.direction, PV_LOWER_BETTER);
	ck_assert_uint_eq(g.level, 4);
	ck_assert_int_eq(pv_rec_key_cmp(&k, &g), 0);
	/* too few fields */
	ck_assert_int_eq(pv_rec_key_get(&b.rec, 2, &g, &e), -1);
	ck_assert_str_eq(pv_err_msg(&e), "a 'x' record needs at least 12 "
			 "fields");
	read_done(&b);

	read_back_str(&b, "x\ta\tb\tc\td\te\tf\tg\th\tsideways\t1\n");
	ck_assert_int_eq(pv_rec_key_get(&b.rec, 1, &g, &e), -1);
	ck_assert_str_eq(pv_err_msg(&e), "direction 'sideways' is neither "
			 "'higher' nor 'lower'");
	read_done(&b);
	read_back_str(&b, "x\ta\tb\tc\td\te\tf\tg\th\thigher\t"
		       "18446744073709551615\n");
	ck_assert_int_eq(pv_rec_key_get(&b.rec, 1, &g, &e), -1);
	ck_assert_str_eq(pv_err_msg(&e), "level '18446744073709551615' is "
			 "not a whole number");
	read_done(&b);
	read_back_str(&b, "x\ta\tb\tc\td\te\tf\tg\th\thigher\t-\n");
	ck_assert_int_eq(pv_rec_key_get(&b.rec, 1, &g, &e), 0);
	ck_assert_uint_eq(g.level, PV_NONE);
	read_done(&b);
	pv_strbuf_release(&sb);
}
END_TEST

START_TEST(test_text)
{
	struct pv_strbuf text = PV_STRBUF_INIT, sb = PV_STRBUF_INIT;
	struct pv_strbuf want = PV_STRBUF_INIT;
	struct pv_runkey k = key(), c;
	struct pv_str t, l;

	k.level = 8;
	pv_rec_key_add(&text, &k, 1);
	t.s = text.buf;
	t.len = text.len;
	/* a comparison's key: BASE and TARGET in place of ROLE, VERSION */
	c = k;
	c.role = S("v1");
	c.version = S("v2\n");
	pv_rec_key_add_text(&sb, &c, t);
	pv_rec_key_add(&want, &c, 1);
	ck_assert_str_eq(sb.buf, want.buf);
	l = pv_rec_key_text_levelless(t);
	ck_assert_uint_eq(l.len, text.len - 2);
	ck_assert(memcmp(l.s, text.buf, l.len) == 0);
	pv_strbuf_release(&text);
	pv_strbuf_release(&sb);
	pv_strbuf_release(&want);
}
END_TEST

START_TEST(test_scope)
{
	static const char *const want[PV_NSCOPE] = {
		"\tbaseline\tv6.12\t-\ttest\tstress-ng\tfu\\ttex",
		"\tbaseline\tv6.12\t-\tsuite\tstress-ng\t-",
		"\tbaseline\tv6.12\t-\trun\t-\t-"
	};
	struct pv_strbuf sb = PV_STRBUF_INIT;
	struct pv_err e = PV_ERR_INIT;
	struct pv_runkey k = key(), g;
	enum pv_scope scope;
	struct rec_back b;
	int s;

	for (s = 0; s < PV_NSCOPE; s++) {
		pv_strbuf_reset(&sb);
		pv_rec_key_add_scope(&sb, &k, (enum pv_scope)s);
		ck_assert_str_eq(sb.buf, want[s]);
	}
	pv_strbuf_reset(&sb);
	pv_strbuf_addstr(&sb, "y");
	pv_rec_key_add_scope(&sb, &k, PV_SCOPE_SUITE);
	pv_strbuf_addch(&sb, '\n');
	read_back(&b, &sb);
	ck_assert_int_eq(pv_rec_key_get_scope(&b.rec, &g, &scope, &e), 0);
	ck_assert_int_eq(scope, PV_SCOPE_SUITE);
	ck_assert(str_is(g.role, "baseline") && str_is(g.suite, "stress-ng"));
	ck_assert_uint_eq(g.test.len, 0);
	ck_assert_uint_eq(g.level, PV_NONE);
	read_done(&b);
	read_back_str(&b, "y\ta\tb\tc\tall\t-\t-\n");
	ck_assert_int_eq(pv_rec_key_get_scope(&b.rec, &g, &scope, &e), -1);
	ck_assert_str_eq(pv_err_msg(&e), "scope 'all' is not test, suite or "
			 "run");
	read_done(&b);
	pv_strbuf_release(&sb);
}
END_TEST

/* the key text runtab takes from a sample's line where it can */
START_TEST(test_span)
{
	static const struct {
		const char *line;
		int text;	/* the span is pv_rec_key_add()'s text */
	} t[] = {
		{ "sample\ts\tt\to\tm\tu\thigher\t4\t1\t-\t1.5\n", 1 },
		{ "sample\ts\tt\to\tm\tu\tlower\t-\t1\t-\t1.5\n", 1 },
		{ "sample\ts\t\to\tm\tu\thigher\t4\t1\t-\t1.5\n", 0 },
		{ "sample\t\tt\to\tm\tu\thigher\t4\t1\t-\t1.5\n", 0 },
		{ "sample\ts\tt\to\tm\tu\thigher\t04\t1\t-\t1.5\n", 0 },
		{ "sample\ts\tt\to\tm\tu\r\thigher\t4\t1\t-\t1.5\n", 0 },
	};
	struct pv_strbuf want = PV_STRBUF_INIT;
	struct rec_back b;
	struct pv_str span;
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct pv_runkey k;
		const char *start = strchr(t[i].line, '\t') + 1;
		const char *end = strchr(t[i].line, '\n');
		int tab;

		read_back_str(&b, t[i].line);
		span = pv_rec_key_sample_span(&b.rec);
		/* SUITE to LEVEL: up to the eighth TAB of the line */
		for (tab = 0; tab < 7; tab++)
			end = strchr(tab ? end + 1 : start, '\t');
		ck_assert_uint_eq(span.len, (size_t)(end - start));
		ck_assert(memcmp(span.s, start, span.len) == 0);
		ck_assert_int_eq(pv_rec_key_span_is_text(span,
							 b.rec.field[7]),
				 t[i].text);
		if (t[i].text) {
			memset(&k, 0, sizeof(k));
			k.suite = b.rec.suite;
			k.test = b.rec.test;
			k.operation = b.rec.operation;
			k.metric = b.rec.metric;
			k.unit = b.rec.unit;
			k.direction = b.rec.direction;
			k.level = b.rec.level;
			pv_strbuf_reset(&want);
			pv_rec_key_add(&want, &k, 0);
			ck_assert_uint_eq(want.len, span.len + 1);
			ck_assert(memcmp(want.buf + 1, span.s, span.len) == 0);
		}
		read_done(&b);
	}
	/* an escaped field is unescaped elsewhere: no span */
	read_back_str(&b, "sample\ts\\tx\tt\to\tm\tu\thigher\t4\t1\t-\t1\n");
	ck_assert_uint_eq(pv_rec_key_sample_span(&b.rec).len, 0);
	read_done(&b);
	pv_strbuf_release(&want);
}
END_TEST

START_TEST(test_order)
{
	struct pv_runkey a = key(), b = key();

	ck_assert_int_eq(pv_rec_key_cmp(&a, &b), 0);
	b.level = 0;	/* absent first */
	ck_assert_int_lt(pv_rec_key_cmp(&a, &b), 0);
	a.level = 2;
	b.level = 10;	/* numerically */
	ck_assert_int_lt(pv_rec_key_cmp(&a, &b), 0);
	b.level = 2;
	a.direction = PV_HIGHER_BETTER;
	ck_assert_int_lt(pv_rec_key_cmp(&a, &b), 0);
	b.direction = PV_HIGHER_BETTER;
	b.version = S("v6.13");
	ck_assert_int_lt(pv_rec_key_cmp(&a, &b), 0);
	/* without ROLE and VERSION */
	ck_assert_int_eq(pv_rec_key_cmp_measure(&a, &b), 0);
	b.test = S("fu\ttez");
	ck_assert_int_lt(pv_rec_key_cmp_measure(&a, &b), 0);
	ck_assert_int_gt(pv_rec_key_cmp_measure(&b, &a), 0);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("rec_key");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_add);
	tcase_add_test(tc, test_get);
	tcase_add_test(tc, test_text);
	tcase_add_test(tc, test_scope);
	tcase_add_test(tc, test_span);
	tcase_add_test(tc, test_order);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
