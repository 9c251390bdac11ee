/*
 * check_runtab: values grouped by key and reduced to one per run; runval
 * records that read back to the same runs; key order.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtab.h"

static struct pv_str
S(const char *s)
{
	struct pv_str r = { s, strlen(s) };

	return r;
}

static struct pv_record
sample(const char *test, uint64_t level, uint64_t run, double v)
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
	rec.level = level;
	rec.run = run;
	rec.seq = PV_NONE;
	rec.val = v;
	return rec;
}

START_TEST(test_reduce)
{
	struct pv_runtab t;
	struct pv_record r;
	double v[4];

	pv_runtab_init(&t);
	r = sample("a", 1, 2, 10);
	pv_runtab_add_sample(&t, S("baseline"), S("v1"), S("e"), &r);
	r = sample("a", 1, 2, 20);
	pv_runtab_add_sample(&t, S("baseline"), S("v1"), S("e"), &r);
	r = sample("a", 1, 1, 7);
	pv_runtab_add_sample(&t, S("baseline"), S("v1"), S("e"), &r);
	r = sample("b", 1, 1, 3);	/* another key */
	pv_runtab_add_sample(&t, S("baseline"), S("v1"), S("e"), &r);
	r = sample("a", 1, 1, 9);	/* back to the first: same set */
	pv_runtab_add_sample(&t, S("baseline"), S("v1"), S("e"), &r);
	ck_assert_uint_eq(t.nset, 2);
	ck_assert_uint_eq(t.set[0].nrun, 2);
	pv_runset_values(&t.set[0], v);	/* runs in id order */
	ck_assert(v[0] == 8 && v[1] == 15);
	r = sample("a", 1, 1, 9);	/* another section: another key */
	pv_runtab_add_sample(&t, S("target"), S("v2"), S("e"), &r);
	ck_assert_uint_eq(t.nset, 3);
	pv_runtab_release(&t);
}
END_TEST

/* finite values whose sum is not: refused, the run left as it was */
START_TEST(test_sum_overflow)
{
	struct pv_runtab t;
	struct pv_record r;
	double v[1];

	pv_runtab_init(&t);
	r = sample("a", 1, 1, 1.5e308);
	ck_assert_int_eq(pv_runtab_add_sample(&t, S("b"), S("v"), S("e"), &r),
			 0);
	ck_assert_int_eq(pv_runtab_add_sample(&t, S("b"), S("v"), S("e"), &r),
			 -1);
	ck_assert_str_eq(pv_err_msg(&t.err), "the values of run 1 add up to "
			 "more than a double holds");
	pv_runset_values(&t.set[0], v);
	ck_assert(v[0] == 1.5e308);
	pv_runtab_release(&t);
}
END_TEST

START_TEST(test_runval_roundtrip)
{
	struct pv_runtab t, u;
	struct pv_record r;
	char *buf = NULL, *line, *save;
	size_t len = 0, i;
	FILE *f;
	double a[2], b[2];

	pv_runtab_init(&t);
	r = sample("a", PV_NONE, 3, 0.1);
	pv_runtab_add_sample(&t, S("baseline"), S("v1"), S(""), &r);
	r = sample("a", PV_NONE, 3, 0.2);
	pv_runtab_add_sample(&t, S("baseline"), S("v1"), S(""), &r);
	r = sample("a", PV_NONE, 4, 1.0 / 3);
	pv_runtab_add_sample(&t, S("baseline"), S("v1"), S(""), &r);
	f = open_memstream(&buf, &len);
	pv_runset_write(f, &t, &t.set[0]);
	fclose(f);
	ck_assert_str_eq(buf,
		"runval\tbaseline\tv1\t-\tsuite\ta\top\tm\tu\thigher\t-\t3\t2\t"
		"0.15000000000000002\t-\n"
		"runval\tbaseline\tv1\t-\tsuite\ta\top\tm\tu\thigher\t-\t4\t1\t"
		"0.3333333333333333\t-\n");
	/* read back: the same values, bit for bit */
	pv_runtab_init(&u);
	for (line = strtok_r(buf, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save)) {
		struct pv_str fld[16];
		char *p = line, *q;
		size_t n = 0;

		while ((q = strchr(p, '\t')) != NULL) {
			fld[n++] = (struct pv_str){ p, (size_t)(q - p) };
			p = q + 1;
		}
		fld[n++] = S(p);
		memset(&r, 0, sizeof(r));
		r.type = PV_REC_OTHER;
		r.field = fld;
		r.nfield = n;
		ck_assert_int_eq(pv_runtab_add_runval(&u, &r), 0);
		/* the same run again is refused */
		if (line == buf) {
			ck_assert_int_eq(pv_runtab_add_runval(&u, &r), -1);
			ck_assert_str_eq(pv_err_msg(&u.err), "run 3 of this "
					 "key is given twice (a run cut "
					 "across inputs?)");
		}
	}
	pv_runset_values(&t.set[0], a);
	pv_runset_values(&u.set[0], b);
	for (i = 0; i < 2; i++)
		ck_assert(a[i] == b[i]);
	free(buf);
	pv_runtab_release(&t);
	pv_runtab_release(&u);
}
END_TEST

/*
 * pv_runtab_add_run() puts a run into the set given, as the merge of
 * sorted inputs does once it has compared the keys: the same set as
 * pv_runtab_add_runval_parsed() gives, a run given twice refused.
 */
START_TEST(test_add_run)
{
	struct pv_runtab t;
	struct pv_runval rv;
	struct pv_runset *set;
	double v[3];

	pv_runtab_init(&t);
	memset(&rv, 0, sizeof(rv));
	rv.key.role = S("baseline");
	rv.key.version = S("v1");
	rv.key.experiment = S("");
	rv.key.suite = S("suite");
	rv.key.test = S("a");
	rv.key.operation = S("op");
	rv.key.metric = S("m");
	rv.key.unit = S("u");
	rv.key.direction = PV_LOWER_BETTER;
	rv.key.level = 2;
	rv.run = 5;
	rv.nvalues = 1;
	rv.value = 3.5;
	rv.quantum = 0.5;
	ck_assert_int_eq(pv_runtab_add_runval_parsed(&t, &rv), 0);
	set = t.last;
	ck_assert_ptr_eq(set, &t.set[0]);
	rv.run = 1;
	rv.value = 1.25;
	rv.quantum = 0.25;
	ck_assert_int_eq(pv_runtab_add_run(&t, set, &rv), 0);
	rv.run = 3;
	rv.value = 2;
	ck_assert_int_eq(pv_runtab_add_run(&t, set, &rv), 0);
	ck_assert_int_eq(pv_runtab_add_run(&t, set, &rv), -1);
	ck_assert_str_eq(pv_err_msg(&t.err), "run 3 of this key is given "
			 "twice (a run cut across inputs?)");
	ck_assert_uint_eq(t.nset, 1);
	ck_assert_uint_eq(set->nrun, 3);
	ck_assert_uint_eq(set->max_id, 5);
	ck_assert(pv_runset_quantum(set) == 0.25);
	pv_runset_values(set, v);
	ck_assert(v[0] == 1.25 && v[1] == 2 && v[2] == 3.5);
	pv_runtab_release(&t);
}
END_TEST

/*
 * A set's quantum is the finest of its printed values' (0.01 of 0.21
 * beside 0.2 and 1.5), kept by the runvals written and read back; a
 * value of more than 12 decimals leaves none.
 */
START_TEST(test_quantum)
{
	static const double v[] = { 0.2, 1.5, 0.21, 3 };
	struct pv_runtab t, u;
	struct pv_record r;
	char *buf = NULL, *line, *save;
	size_t len = 0, i;
	FILE *f;

	pv_runtab_init(&t);
	for (i = 0; i < 4; i++) {
		r = sample("a", PV_NONE, i + 1, v[i]);
		pv_runtab_add_sample(&t, S("baseline"), S("v1"), S(""), &r);
		r = sample("b", PV_NONE, i + 1, i == 2 ? 1.0 / 3 : v[i]);
		pv_runtab_add_sample(&t, S("baseline"), S("v1"), S(""), &r);
	}
	ck_assert(pv_runset_quantum(&t.set[0]) == 0.01);
	ck_assert(pv_runset_quantum(&t.set[1]) == 0);
	f = open_memstream(&buf, &len);
	pv_runset_write(f, &t, &t.set[0]);
	fclose(f);
	ck_assert_str_eq(buf,
		"runval\tbaseline\tv1\t-\tsuite\ta\top\tm\tu\thigher\t-\t1\t1\t"
		"0.2\t0.01\n"
		"runval\tbaseline\tv1\t-\tsuite\ta\top\tm\tu\thigher\t-\t2\t1\t"
		"1.5\t0.01\n"
		"runval\tbaseline\tv1\t-\tsuite\ta\top\tm\tu\thigher\t-\t3\t1\t"
		"0.21\t0.01\n"
		"runval\tbaseline\tv1\t-\tsuite\ta\top\tm\tu\thigher\t-\t4\t1\t"
		"3\t0.01\n");
	/* read back */
	pv_runtab_init(&u);
	for (line = strtok_r(buf, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save)) {
		struct pv_str fld[16];
		char *p = line, *q;
		size_t n = 0;

		while ((q = strchr(p, '\t')) != NULL) {
			fld[n++] = (struct pv_str){ p, (size_t)(q - p) };
			p = q + 1;
		}
		fld[n++] = S(p);
		memset(&r, 0, sizeof(r));
		r.type = PV_REC_OTHER;
		r.field = fld;
		r.nfield = n;
		ck_assert_int_eq(pv_runtab_add_runval(&u, &r), 0);
	}
	ck_assert(pv_runset_quantum(&u.set[0]) == 0.01);
	free(buf);
	pv_runtab_release(&u);
	pv_runtab_release(&t);
}
END_TEST

/*
 * A set's key text is what pv_rec_key_add() writes for it, escapes and
 * absent fields included; with ROLE and VERSION replaced as well.
 */
START_TEST(test_key_text)
{
	struct pv_runtab t;
	struct pv_strbuf want = PV_STRBUF_INIT, got = PV_STRBUF_INIT;
	struct pv_runkey k, other;
	static const char *const names[] = {
		"plain", "tab\there", "", "back\\slash"
	};
	size_t i;

	pv_runtab_init(&t);
	for (i = 0; i < 4; i++) {
		const struct pv_runset *set;

		memset(&k, 0, sizeof(k));
		k.role = S(i % 2 ? "target" : "");
		k.version = S(names[(i + 1) % 4]);
		k.experiment = S(names[i]);
		k.suite = S(names[(i + 2) % 4]);
		k.test = S(names[(i + 3) % 4]);
		k.operation = S("op");
		k.metric = S("m\nx");
		k.unit = S("");
		k.direction = i % 2 ? PV_LOWER_BETTER : PV_HIGHER_BETTER;
		k.level = i == 3 ? PV_NONE : 7 * i;
		set = pv_runtab_get(&t, &k);
		pv_strbuf_reset(&want);
		pv_rec_key_add(&want, &k, 1);
		ck_assert_uint_eq(pv_runtab_key_text(&t, set).len, want.len);
		ck_assert(memcmp(pv_runtab_key_text(&t, set).s, want.buf,
				 want.len) == 0);
		other = k;
		other.role = S(names[(i + 3) % 4]);
		other.version = S(names[i]);
		pv_strbuf_reset(&want);
		pv_rec_key_add(&want, &other, 1);
		pv_strbuf_reset(&got);
		pv_rec_key_add_text(&got, &other,
				    pv_runtab_key_text(&t, set));
		ck_assert_str_eq(got.buf, want.buf);
	}
	pv_strbuf_release(&want);
	pv_strbuf_release(&got);
	pv_runtab_release(&t);
}
END_TEST

/*
 * Samples read from a stream: a set's key text is the formatted key also
 * where the line's own text differs from it (an empty field, a CR in a
 * field, a level with leading zeros, an escape).
 */
START_TEST(test_key_text_from_lines)
{
	static const char text[] =
		"sample\ts\tt\to\tm\tu\thigher\t3\t1\t-\t1\n"
		"sample\ts\tt\to\tm\tu\thigher\t003\t2\t-\t1\n"
		"sample\ts\t\to\tm\tu\tlower\t-\t1\t-\t1\n"
		"sample\ts\tt\ro\to\tm\tu\tlower\t0\t1\t-\t1\n"
		"sample\ts\\tx\tt\to\tm\tu\tlower\t10\t1\t-\t1\n"
		"sample\t\tt\to\tm\t\thigher\t-\t1\t-\t1\n"
		"sample\ts\tt\to\tm\tu\thigher\t007\t1\t-\t1\n";
	char path[] = "/tmp/check_runtab.XXXXXX";
	struct pv_strbuf want = PV_STRBUF_INIT;
	struct pv_runtab t;
	struct pv_reader *r;
	struct pv_record rec;
	size_t i;
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, sizeof(text) - 1),
			 (ssize_t)(sizeof(text) - 1));
	close(fd);
	r = pv_reader_open(path);
	ck_assert_ptr_nonnull(r);
	pv_runtab_init(&t);
	while (pv_reader_next(r, &rec) > 0)
		ck_assert_int_eq(pv_runtab_add_sample(&t, S("baseline"),
						      S("v\t1"), S(""), &rec), 0);
	pv_reader_close(r);
	unlink(path);
	/* the first two lines are one key: level 3 */
	ck_assert_uint_eq(t.nset, 6);
	for (i = 0; i < t.nset; i++) {
		struct pv_str got = pv_runtab_key_text(&t, &t.set[i]);

		pv_strbuf_reset(&want);
		pv_rec_key_add(&want, &t.set[i].key, 1);
		ck_assert_uint_eq(got.len, want.len);
		ck_assert(memcmp(got.s, want.buf, want.len) == 0);
	}
	ck_assert_uint_eq(t.set[0].nrun, 2);
	pv_strbuf_release(&want);
	pv_runtab_release(&t);
}
END_TEST

/* ROLE VERSION EXPERIMENT in side order: EXPERIMENT ROLE VERSION */
static int
cmp_sides(const struct pv_runkey *a, const struct pv_runkey *b)
{
	int c;

	if ((c = pv_str_cmp(a->experiment, b->experiment)) != 0 ||
	    (c = pv_str_cmp(a->role, b->role)) != 0 ||
	    (c = pv_str_cmp(a->version, b->version)) != 0)
		return c;
	return pv_rec_key_cmp_measure(a, b);
}

/*
 * The sets sorted by ranks come in the order of the key comparisons, on
 * keys drawn from strings that are prefixes of one another, empty, or
 * have bytes above 0x7f, with absent and extreme levels.
 */
START_TEST(test_order_random)
{
	static const char *const str[] = {
		"", "a", "ab", "abc", "b", "B", "\xff", "\xc3\xa9", "a\x01", "-"
	};
	static const uint64_t level[] = {
		PV_NONE, 0, 1, 9, 10, UINT64_MAX - 1
	};
	struct pv_runtab t;
	struct pv_runset **v, **w;
	uint64_t x = 42;
	size_t i, k;

	pv_runtab_init(&t);
	/* keys of all the strings, then of two, ordered by direction and level */
	for (i = 0; i < 5000; i++) {
		struct pv_runkey key;
		struct pv_str f[8];

		for (k = 0; k < 8; k++) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			f[k] = S(str[(x >> 33) % (i < 3000 ? 10 : 2)]);
		}
		key.role = f[0];
		key.version = f[1];
		key.experiment = f[2];
		key.suite = f[3];
		key.test = f[4];
		key.operation = f[5];
		key.metric = f[6];
		key.unit = f[7];
		key.direction = (x >> 20) & 1 ? PV_LOWER_BETTER :
			PV_HIGHER_BETTER;
		key.level = level[(x >> 40) % 6];
		pv_runtab_get(&t, &key);
	}
	ck_assert_uint_gt(t.nset, 3500);
	v = pv_runtab_sorted(&t);
	w = pv_runtab_sorted_sides(&t);
	for (i = 1; i < t.nset; i++) {
		ck_assert_int_lt(pv_rec_key_cmp(&v[i - 1]->key, &v[i]->key), 0);
		ck_assert_int_lt(cmp_sides(&w[i - 1]->key, &w[i]->key), 0);
	}
	free(v);
	free(w);
	pv_runtab_release(&t);
}
END_TEST

START_TEST(test_order)
{
	struct pv_runtab t;
	struct pv_runset **v;
	struct pv_record r;

	pv_runtab_init(&t);
	r = sample("b", 2, 1, 1);
	pv_runtab_add_sample(&t, S("target"), S("v"), S("e"), &r);
	r = sample("b", 10, 1, 1);
	pv_runtab_add_sample(&t, S("baseline"), S("v"), S("e"), &r);
	r = sample("b", 2, 1, 1);
	pv_runtab_add_sample(&t, S("baseline"), S("v"), S("e"), &r);
	r = sample("b", PV_NONE, 1, 1);
	pv_runtab_add_sample(&t, S("baseline"), S("v"), S("e"), &r);
	v = pv_runtab_sorted(&t);
	ck_assert(v[0]->key.level == PV_NONE);
	ck_assert(v[1]->key.level == 2 && v[2]->key.level == 10);
	ck_assert(pv_str_eq(v[3]->key.role, "target"));
	free(v);
	pv_runtab_release(&t);
}
END_TEST

/*
 * Saved and loaded back into a cleared table, the sets are as they were:
 * keys and their text, runs in their order, and a later stream's runs
 * still numbered on after them; the stream survives the clear.
 */
START_TEST(test_save_load)
{
	struct pv_runtab t;
	struct pv_strbuf sb = PV_STRBUF_INIT, a = PV_STRBUF_INIT;
	struct pv_strbuf b = PV_STRBUF_INIT;
	struct pv_record r;
	size_t i;

	pv_runtab_init(&t);
	pv_runtab_stream(&t);
	r = sample("a", 1, 2, 10);
	pv_runtab_add_sample(&t, S("baseline"), S("v1"), S("e"), &r);
	r = sample("a", 1, 1, 7.25);
	pv_runtab_add_sample(&t, S("baseline"), S("v1"), S("e"), &r);
	r = sample("a", 2, 1, 3);
	pv_runtab_add_sample(&t, S("baseline"), S("v1"), S("e"), &r);
	pv_runtab_save(&t, &sb);
	/* (formatting sorts a set's runs: after the save) */
	for (i = 0; i < t.nset; i++)
		pv_runset_format(&a, &t, &t.set[i]);
	pv_runtab_clear(&t);
	ck_assert_uint_eq(t.nset, 0);
	ck_assert_uint_eq(t.stream, 1);
	ck_assert_int_eq(pv_runtab_load(&t, sb.buf, sb.len), 0);
	ck_assert_uint_eq(t.nset, 2);
	ck_assert_uint_eq(t.set[0].nrun, 2);
	ck_assert_uint_eq(t.set[0].run[0].id, 2);
	ck_assert_uint_eq(t.set[0].max_id, 2);
	for (i = 0; i < t.nset; i++)
		pv_runset_format(&b, &t, &t.set[i]);
	ck_assert_str_eq(a.buf, b.buf);
	/* loading the same keys again is refused */
	ck_assert_int_eq(pv_runtab_load(&t, sb.buf, sb.len), -1);
	pv_runtab_clear(&t);
	/* bytes cut short are refused */
	ck_assert_int_eq(pv_runtab_load(&t, sb.buf, sb.len - 3), -1);
	pv_runtab_clear(&t);
	ck_assert_int_eq(pv_runtab_load(&t, sb.buf, sb.len), 0);
	/* a later stream repeating RUN 1 is numbered on after RUN 2 */
	pv_runtab_stream(&t);
	r = sample("a", 1, 1, 5);
	pv_runtab_add_sample(&t, S("baseline"), S("v1"), S("e"), &r);
	ck_assert_uint_eq(t.last_run, 3);
	pv_runtab_release(&t);
	pv_strbuf_release(&sb);
	pv_strbuf_release(&a);
	pv_strbuf_release(&b);
}
END_TEST

/*
 * Cleared in place, a table that held many keys (several arena chunks,
 * a hash table of thousands of slots) formats a group added after it as
 * a new table does; and a small group after a large one finds its keys.
 */
START_TEST(test_clear_reuse)
{
	struct pv_runtab t, u;
	struct pv_strbuf a = PV_STRBUF_INIT, b = PV_STRBUF_INIT;
	struct pv_record r;
	char name[32];
	size_t i, round;

	pv_runtab_init(&t);
	pv_runtab_stream(&t);
	for (round = 0; round < 3; round++) {
		size_t n = round == 1 ? 3 : 5000;

		pv_runtab_clear(&t);
		pv_runtab_init(&u);
		pv_runtab_stream(&u);
		for (i = 0; i < 2 * n; i++) {
			snprintf(name, sizeof(name), "t%zu-%zu", i % n, round);
			r = sample(name, 1, 1 + i / n, (double)i);
			pv_runtab_add_sample(&t, S("baseline"), S("v1"),
					     S("e"), &r);
			pv_runtab_add_sample(&u, S("baseline"), S("v1"),
					     S("e"), &r);
		}
		ck_assert_uint_eq(t.nset, n);
		pv_strbuf_reset(&a);
		pv_strbuf_reset(&b);
		for (i = 0; i < t.nset; i++) {
			ck_assert_uint_eq(t.set[i].nrun, 2);
			pv_runset_format(&a, &t, &t.set[i]);
			pv_runset_format(&b, &u, &u.set[i]);
		}
		ck_assert_str_eq(a.buf, b.buf);
		pv_runtab_release(&u);
	}
	pv_runtab_release(&t);
	pv_strbuf_release(&a);
	pv_strbuf_release(&b);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("runtab");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, test_reduce);
	tcase_add_test(tc, test_sum_overflow);
	tcase_add_test(tc, test_runval_roundtrip);
	tcase_add_test(tc, test_add_run);
	tcase_add_test(tc, test_quantum);
	tcase_add_test(tc, test_order);
	tcase_add_test(tc, test_order_random);
	tcase_add_test(tc, test_key_text);
	tcase_add_test(tc, test_key_text_from_lines);
	tcase_add_test(tc, test_save_load);
	tcase_add_test(tc, test_clear_reuse);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
