/*
 * check_sampdiff: a sample comparison end to end: the records taken in
 * and passed on or dropped, the sections paired, every key compared as
 * pv_cmp_compute_sides() and pv_cmp_pair() compare it, written in key
 * order with its roll-ups, and a pair measured under other conditions
 * refused.
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rec_check.h"
#include "rec_cmp.h"
#include "sampdiff.h"

static const char stream[] =
	"pv-format\t1\n"
	"section\tbaseline\tA\texp\n"
	"meta\tcc\tgcc-12\n"
	"meta\tversion\tA\n"
	"sample\ts\tt\to\tm\tu\thigher\t-\t1\t-\t100\n"
	"sample\ts\tt\to\tm\tu\thigher\t-\t2\t-\t102\n"
	"sample\ts\tt\to\tm\tu\thigher\t-\t3\t-\t98\n"
	"sample\ts\tt2\to\tm\tu\tlower\t4\t1\t-\t10\n"
	"sample\ts\tt2\to\tm\tu\tlower\t4\t2\t-\t11\n"
	"sample\ts\tt2\to\tm\tu\tlower\t4\t3\t-\t12\n"
	"cmp\tstale\n"
	"section\ttarget\tB\texp\n"
	"meta\tcc\tgcc-12\n"
	"meta\tversion\tB\n"
	"sample\ts\tt\to\tm\tu\thigher\t-\t1\t-\t90\n"
	"sample\ts\tt\to\tm\tu\thigher\t-\t2\t-\t91\n"
	"sample\ts\tt\to\tm\tu\thigher\t-\t3\t-\t89\n"
	"sample\ts\tt2\to\tm\tu\tlower\t4\t1\t-\t10\n"
	"sample\ts\tt2\to\tm\tu\tlower\t4\t2\t-\t11\n"
	"sample\ts\tt2\to\tm\tu\tlower\t4\t3\t-\t12.5\n"
	"cmproll\tstale\n";

/* Feed the stream to d: the records passed on, one letter each. */
static void
feed(struct pv_sampdiff *d, const char *text, char *passed)
{
	struct rec_back b;
	int rc;

	read_back_str(&b, text);
	do {
		rc = pv_sampdiff_add(d, &b.rec);
		ck_assert_int_ge(rc, 0);
		*passed++ = rc ? (char)b.rec.field[0].s[0] : '.';
	} while (pv_reader_next(b.r, &b.rec) > 0);
	*passed = '\0';
	read_done(&b);
}

/*
 * The comparison pv_cmp_compute_sides() gives for the key's runs, their
 * times unknown, the printed values' quanta qb and qt.
 */
static void
want_cmp(const char *test, enum pv_direction dir, uint64_t level,
	 const double *b, double qb, const double *t, double qt,
	 struct pv_cmp *c, struct pv_honest *h)
{
	struct pv_cmp_opts o = PV_CMP_OPTS_INIT;
	struct pv_honest_side sb = { b, NULL, 3, qb, 0 };
	struct pv_honest_side st = { t, NULL, 3, qt, 0 };
	struct pv_runkey k;

	memset(&k, 0, sizeof(k));
	k.role = S("A");
	k.version = S("B");
	k.experiment = S("exp");
	k.suite = S("s");
	k.test = S(test);
	k.operation = S("o");
	k.metric = S("m");
	k.unit = S("u");
	k.direction = dir;
	k.level = level;
	pv_cmp_compute_sides(&k, &sb, &st, &o, c, h);
}

START_TEST(test_pair)
{
	static const double b1[] = { 100, 102, 98 }, t1[] = { 90, 91, 89 };
	static const double b2[] = { 10, 11, 12 }, t2[] = { 10, 11, 12.5 };
	struct pv_cmp_opts o = PV_CMP_OPTS_INIT;
	struct pv_strbuf want = PV_STRBUF_INIT;
	struct pv_sampdiff d;
	struct pv_cmp c[2], c1, c2;
	struct pv_honest h[2];
	struct pv_cmproll r;
	struct pv_err e = PV_ERR_INIT;
	struct rec_back b;
	char passed[64], *out = NULL;
	size_t len = 0, n;
	FILE *f;
	long found;
	int s;

	pv_sampdiff_init(&d, &o);
	feed(&d, stream, passed);
	/* the stale cmp and cmproll records are dropped */
	ck_assert_str_eq(passed, "psmmssssss.smmssssss.");
	f = open_memstream(&out, &len);
	ck_assert_ptr_nonnull(f);
	found = pv_sampdiff_finish(&d, f, pv_kvset_default_ignore,
				   pv_kvset_default_nignore);
	fclose(f);
	ck_assert_uint_eq(d.npairs, 1);
	ck_assert_uint_eq(d.ncmp, 2);
	/* the two keys of the pair, their honest intervals together */
	want_cmp("t", PV_HIGHER_BETTER, PV_NONE, b1, 1, t1, 1, &c[0], &h[0]);
	want_cmp("t2", PV_LOWER_BETTER, 4, b2, 1, t2, 0.5, &c[1], &h[1]);
	pv_cmp_pair(c, h, 2, &o);
	pv_rec_cmp_write(&want, &c[0]);
	pv_rec_cmp_write(&want, &c[1]);
	c1 = c[0];
	c2 = c[1];
	ck_assert(c1.quantum == 1 && c2.quantum == 1);
	ck_assert_int_eq(found, (c1.hhi < 0 || c1.hlo > 0) +
			 (c2.hhi < 0 || c2.hlo > 0));
	/* cmp t, its test's roll-up, cmp t2, its test's, the suite's, all */
	read_back_str(&b, out);
	n = (size_t)(strchr(want.buf, '\n') - want.buf);
	ck_assert(b.rec.raw.len == n && memcmp(b.rec.raw.s, want.buf, n) == 0);
	for (s = 0; s < 5; s++) {
		ck_assert_int_eq(pv_reader_next(b.r, &b.rec), 1);
		if (s == 1) {
			ck_assert_uint_eq(b.rec.raw.len, want.len - n - 2);
			ck_assert(memcmp(b.rec.raw.s, want.buf + n + 1,
					 b.rec.raw.len) == 0);
			continue;
		}
		ck_assert_int_eq(pv_rec_cmproll_parse(&b.rec, &r, &e), 0);
		ck_assert(str_is(r.key.role, "A") &&
			  str_is(r.key.version, "B"));
		switch (s) {
		case 0:
		case 2:
			ck_assert_int_eq(r.scope, PV_SCOPE_TEST);
			ck_assert(str_is(r.key.test, s ? "t2" : "t"));
			ck_assert_uint_eq(r.keys, 1);
			break;
		default:
			ck_assert_int_eq(r.scope, s == 3 ? PV_SCOPE_SUITE :
					 PV_SCOPE_RUN);
			ck_assert_uint_eq(r.keys, 2);
			ck_assert_double_eq_tol(r.change, (c1.change +
						c2.change) / 2, 1e-9);
			ck_assert_double_eq_tol(r.worst, fmin(c1.change,
						c2.change), 1e-9);
		}
	}
	ck_assert_int_eq(pv_reader_next(b.r, &b.rec), 0);
	read_done(&b);
	free(out);
	pv_strbuf_release(&want);
	pv_honest_release(&h[0]);
	pv_honest_release(&h[1]);
	pv_sampdiff_release(&d);
}
END_TEST

START_TEST(test_refused)
{
	struct pv_cmp_opts o = PV_CMP_OPTS_INIT;
	struct pv_strbuf text = PV_STRBUF_INIT;
	struct pv_sampdiff d;
	char passed[64], *out = NULL;
	size_t len = 0;
	const char *cc;
	FILE *f;

	/* the target built by another compiler */
	pv_strbuf_addstr(&text, stream);
	cc = strstr(strstr(text.buf, "section\ttarget"), "gcc-12");
	text.buf[cc - text.buf + 5] = '3';
	pv_sampdiff_init(&d, &o);
	feed(&d, text.buf, passed);
	f = open_memstream(&out, &len);
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(pv_sampdiff_finish(&d, f, pv_kvset_default_ignore,
					    pv_kvset_default_nignore), -1);
	fclose(f);
	ck_assert_uint_eq(len, 0);
	ck_assert_str_eq(pv_err_msg(&d.err), "experiment 'exp': baseline 'A' "
			 "and target 'B' are not comparable: meta 'cc' "
			 "('gcc-12' vs 'gcc-13')");
	free(out);
	pv_strbuf_release(&text);
	pv_sampdiff_release(&d);
}
END_TEST

/* a malformed runval record is ours: refused with its message */
START_TEST(test_bad_runval)
{
	struct pv_cmp_opts o = PV_CMP_OPTS_INIT;
	struct pv_sampdiff d;
	struct rec_back b;

	pv_sampdiff_init(&d, &o);
	read_back_str(&b, "runval\ta\n");
	ck_assert_int_eq(pv_sampdiff_add(&d, &b.rec), -1);
	ck_assert_str_eq(pv_err_msg(&d.err), "a runval record has 14 or 15 "
			 "fields, not 2");
	read_done(&b);
	pv_sampdiff_release(&d);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("sampdiff");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_pair);
	tcase_add_test(tc, test_refused);
	tcase_add_test(tc, test_bad_runval);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
