/*
 * check_seriestab: runs gathered into the points of a key's series (runs
 * averaged, logs oriented, versions put in order, runs of a version in two
 * places refused, values that are not positive), and the state file
 * written, read back the same, and refused when damaged; the record
 * stream read, its records passed on, its errors placed.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "seriestab.h"

static struct pv_str
str(const char *s)
{
	struct pv_str r = { s, strlen(s) };

	return r;
}

static struct pv_runkey
key(const char *test, enum pv_direction dir)
{
	struct pv_runkey k;

	memset(&k, 0, sizeof(k));
	k.experiment = str("x");
	k.suite = str("s");
	k.test = str(test);
	k.operation = str("o");
	k.metric = str("m");
	k.unit = str("u");
	k.direction = dir;
	k.level = PV_NONE;
	return k;
}

static uint32_t
ver(struct pv_seriestab *t, const char *name)
{
	uint32_t id;

	ck_assert_int_eq(pv_seriestab_version(t, str(name), &id), 0);
	return id;
}

START_TEST(test_points)
{
	struct pv_seriestab t;
	struct pv_runkey hk = key("hi", PV_HIGHER_BETTER);
	struct pv_runkey lk = key("lo", PV_LOWER_BETTER);
	struct pv_skey *h, *l;
	uint32_t v1, v2;

	pv_seriestab_init(&t);
	/* the sections give the order: v1 before v2 */
	pv_seriestab_note(&t, str("v1"));
	pv_seriestab_note(&t, str("v2"));
	v2 = ver(&t, "v2");
	v1 = ver(&t, "v1");
	ck_assert_uint_eq(v1, 0);
	ck_assert_uint_eq(v2, 1);
	/* v2's runs first (as pv-stat -S writes them), samples averaged */
	h = pv_seriestab_key(&t, &hk);
	ck_assert_int_eq(pv_seriestab_add(&t, h, v2, 1, 1, 2, 0), 0);
	ck_assert_int_eq(pv_seriestab_add(&t, h, v2, 1, 1, 6, 0), 0);
	ck_assert_int_eq(pv_seriestab_add(&t, h, v2, 2, 1, 4, 0), 0);
	ck_assert_int_eq(pv_seriestab_add(&t, h, v1, 1, 3, 8, 1), 0);
	l = pv_seriestab_key(&t, &lk);
	ck_assert_int_eq(pv_seriestab_add(&t, l, v1, 1, 1, 8, 0), 0);
	h = pv_seriestab_key(&t, &hk);
	ck_assert_uint_eq(t.nkey, 2);
	pv_seriestab_close(&t);
	h = &t.key[0];
	l = &t.key[1];
	ck_assert_uint_eq(h->series.npt, 2);
	ck_assert_uint_eq(h->ver[0], v1);
	ck_assert_uint_eq(h->ver[1], v2);
	ck_assert_uint_eq(h->series.pt[0].n, 1);
	ck_assert(fabs(h->series.pt[0].mean - log(8)) < 1e-15);
	/* v2: runs of 4 and 4, so no spread */
	ck_assert_uint_eq(h->series.pt[1].n, 2);
	ck_assert(fabs(h->series.pt[1].mean - log(4)) < 1e-15);
	ck_assert(h->series.pt[1].ss < 1e-30);
	/* lower is better: the log is negated */
	ck_assert(fabs(l->series.pt[0].mean + log(8)) < 1e-15);
	pv_seriestab_release(&t);
}
END_TEST

START_TEST(test_refused)
{
	struct pv_seriestab t;
	struct pv_runkey k = key("t", PV_HIGHER_BETTER);
	struct pv_skey *s;
	uint32_t v1, v2, id;

	pv_seriestab_init(&t);
	v1 = ver(&t, "v1");
	v2 = ver(&t, "v2");
	ck_assert_int_eq(pv_seriestab_version(&t, str(""), &id), -1);
	s = pv_seriestab_key(&t, &k);
	ck_assert_int_eq(pv_seriestab_add(&t, s, v1, 1, 1, 5, 1), 0);
	ck_assert_int_eq(pv_seriestab_add(&t, s, v1, 1, 1, 5, 1), -1);
	ck_assert_str_eq(pv_err_msg(&t.err), "run 1 of this key and version "
			 "is given twice");
	ck_assert_int_eq(pv_seriestab_add(&t, s, v2, 1, 1, 5, 1), 0);
	ck_assert_int_eq(pv_seriestab_add(&t, s, v1, 2, 1, 5, 1), -1);
	ck_assert_str_eq(pv_err_msg(&t.err), "the runs of version 'v1' of "
			 "this key come in two places (a version's runs of a "
			 "key come together)");
	id = ver(&t, "v3");
	ck_assert_int_eq(pv_seriestab_add(&t, s, id, 2, 1, 1e308, 0), 0);
	ck_assert_int_eq(pv_seriestab_add(&t, s, id, 2, 1, 1e308, 0), -1);
	ck_assert_str_eq(pv_err_msg(&t.err), "the values of run 2 add up to "
			 "more than a double holds");
	pv_seriestab_release(&t);

	/* a value that is not positive: the key is left out */
	pv_seriestab_init(&t);
	s = pv_seriestab_key(&t, &k);
	ck_assert_int_eq(pv_seriestab_add(&t, s, ver(&t, "v1"), 1, 1, 0, 0),
			 0);
	pv_seriestab_close(&t);
	ck_assert_int_eq(t.key[0].bad, 1);
	ck_assert_uint_eq(t.key[0].series.npt, 0);
	pv_seriestab_release(&t);
}
END_TEST

START_TEST(test_state)
{
	struct pv_series_opts o = PV_SERIES_OPTS_INIT;
	struct pv_strbuf tmp = PV_STRBUF_INIT;
	char dir[] = "/tmp/check_seriestab.XXXXXX", path[64];
	struct pv_seriestab t, u;
	struct pv_runkey k = key("t", PV_LOWER_BETTER);
	struct pv_skey *s;
	double alpha;
	size_t window, i;
	uint32_t id;
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/state", dir);
	pv_seriestab_init(&u);
	ck_assert_int_eq(pv_seriestab_load(&u, path, &alpha, &window), 0);
	pv_seriestab_release(&u);

	pv_seriestab_init(&t);
	k.level = 4;
	s = pv_seriestab_key(&t, &k);
	for (i = 0; i < 60; i++) {
		char name[16];

		snprintf(name, sizeof(name), "v%zu", i);
		id = ver(&t, name);
		s = &t.key[0];
		ck_assert_int_eq(pv_seriestab_add(&t, s, id, 1, 1,
						  i < 30 ? 100 : 90, 0), 0);
		ck_assert_int_eq(pv_seriestab_add(&t, s, id, 2, 1,
						  i < 30 ? 101 : 91, 0), 0);
	}
	pv_seriestab_close(&t);
	{
		struct pv_series_result r;

		pv_series_result_init(&r);
		pv_series_analyse(&t.key[0].series, &o, &r);
		ck_assert_uint_eq(r.nev, 1);
		pv_series_result_release(&r);
	}
	ck_assert_uint_eq(t.key[0].series.nwin, 1);
	ck_assert_int_eq(pv_seriestab_save(&t, path, &o, &tmp), 0);
	ck_assert_int_eq(rename(tmp.buf, path), 0);

	pv_seriestab_init(&u);
	ck_assert_int_eq(pv_seriestab_load(&u, path, &alpha, &window), 1);
	ck_assert(alpha == o.alpha && window == o.window);
	ck_assert_uint_eq(u.nstate, 60);
	ck_assert_uint_eq(u.nkey, 1);
	ck_assert(pv_str_eq(u.key[0].key.test, "t") &&
		  u.key[0].key.level == 4 &&
		  u.key[0].key.direction == PV_LOWER_BETTER);
	ck_assert(pv_str_eq(u.key[0].text, "\tx\ts\tt\to\tm\tu\tlower\t4"));
	ck_assert_uint_eq(u.key[0].series.npt, 60);
	for (i = 0; i < 60; i++) {
		const struct pv_series_point *a = &u.key[0].series.pt[i];
		const struct pv_series_point *b = &t.key[0].series.pt[i];

		ck_assert(a->n == b->n && a->mean == b->mean && a->ss == b->ss);
	}
	ck_assert(memcmp(u.key[0].ver, t.key[0].ver, 60 * sizeof(uint32_t)) ==
		  0);
	ck_assert_uint_eq(u.key[0].series.nwin, t.key[0].series.nwin);
	ck_assert_uint_eq(u.key[0].series.ncand, t.key[0].series.ncand);
	/* a version of the state cannot be given again */
	ck_assert_int_eq(pv_seriestab_version(&u, str("v59"), &id), -1);
	ck_assert_str_eq(pv_err_msg(&u.err), "version 'v59' is in the state "
			 "already");
	ck_assert_int_eq(pv_seriestab_version(&u, str("v60"), &id), 0);
	ck_assert_uint_eq(id, 60);
	pv_seriestab_release(&u);

	/* one byte changed: refused */
	f = fopen(path, "r+b");
	ck_assert_ptr_nonnull(f);
	fseek(f, 40, SEEK_SET);
	fputc('!', f);
	fclose(f);
	pv_seriestab_init(&u);
	ck_assert_int_eq(pv_seriestab_load(&u, path, &alpha, &window), -1);
	ck_assert_ptr_nonnull(strstr(pv_err_msg(&u.err), "checksum"));
	pv_seriestab_release(&u);

	unlink(path);
	rmdir(dir);
	pv_strbuf_release(&tmp);
	pv_seriestab_release(&t);
}
END_TEST

static void
put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	ck_assert_int_ge(fputs(text, f), 0);
	ck_assert_int_eq(fclose(f), 0);
}

/* pv_seriestab_read()'s pass: the types of the records, a line each */
static void
note_type(void *arg, const struct pv_record *rec)
{
	struct pv_strbuf *sb = arg;
	size_t n = 0;

	while (n < rec->raw.len && rec->raw.s[n] != '\t')
		n++;
	pv_strbuf_add(sb, rec->raw.s, n);
	pv_strbuf_addch(sb, '\n');
}

START_TEST(test_read)
{
	char dir[] = "/tmp/check_seriestab.XXXXXX", a[64], b[64], bad[64];
	struct pv_strbuf seen = PV_STRBUF_INIT;
	struct pv_seriestab t;
	struct pv_skey *k;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(a, sizeof(a), "%s/a", dir);
	snprintf(b, sizeof(b), "%s/b", dir);
	snprintf(bad, sizeof(bad), "%s/bad", dir);
	/* samples, a record not read, and one of pv-series's own */
	put(a, "pv-format\t1\n"
	    "section\t-\tv1\tx\n"
	    "sample\ts\tt\to\tm\tu\thigher\t-\t1\t-\t100\n"
	    "sample\ts\tt\to\tm\tu\thigher\t-\t2\t-\t102\n"
	    "cmp\twhatever\n"
	    "changepoint\tx\ts\tt\to\tm\tu\thigher\t-\tv0\tv1\n");
	/* the next file: a runval record of the same key */
	put(b, "pv-format\t1\n"
	    "runval\t-\tv2\tx\ts\tt\to\tm\tu\thigher\t-\t1\t1\t90\n");
	put(bad, "pv-format\t1\n"
	    "section\t-\t\tx\n"
	    "sample\ts\tt\to\tm\tu\thigher\t-\t1\t-\t100\n");

	pv_seriestab_init(&t);
	ck_assert_int_eq(pv_seriestab_read(&t, a, note_type, &seen), 0);
	ck_assert_int_eq(pv_seriestab_read(&t, b, note_type, &seen), 0);
	ck_assert_str_eq(seen.buf, "pv-format\nsection\nsample\nsample\ncmp\n"
			 "pv-format\nrunval\n");
	pv_seriestab_close(&t);
	ck_assert_uint_eq(t.nkey, 1);
	k = &t.key[0];
	ck_assert_uint_eq(k->series.npt, 2);
	ck_assert_uint_eq(k->series.pt[0].n, 2);
	ck_assert_uint_eq(k->series.pt[1].n, 1);
	ck_assert_double_eq_tol(k->series.pt[1].mean, log(90), 1e-12);

	/* a bad record: the message, its file and line */
	ck_assert_int_eq(pv_seriestab_read(&t, bad, NULL, NULL), -1);
	ck_assert_str_eq(t.errfile.buf, bad);
	ck_assert_uint_eq(t.errline, 3);
	ck_assert_str_eq(pv_err_msg(&t.err), "a series needs the version of "
			 "every value: its section has none");
	/* a file that cannot be opened: no place */
	ck_assert_int_eq(pv_seriestab_read(&t, "/nonexistent/x", NULL, NULL),
			 -1);
	ck_assert_uint_eq(t.errfile.len, 0);
	ck_assert_int_eq(t.err.errnum, ENOENT);
	pv_seriestab_release(&t);
	pv_strbuf_release(&seen);
	unlink(a);
	unlink(b);
	unlink(bad);
	rmdir(dir);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("seriestab");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, test_points);
	tcase_add_test(tc, test_refused);
	tcase_add_test(tc, test_state);
	tcase_add_test(tc, test_read);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
