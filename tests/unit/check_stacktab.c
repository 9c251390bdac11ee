/*
 * Unit tests of lib/stacktab: counts added up by distinct stack, and the
 * folded order of pv_stacktab_sorted() against its definition (events in
 * order of first appearance, then the frame names joined with ';'
 * compared byte-wise, equal joined forms in the order they were added),
 * on names made to trip a comparison that looks at frames rather than
 * bytes: names holding ';', names one the prefix of another, bytes below
 * and above ';', the empty name.
 */
#include "config.h"

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stacktab.h"
#include "strbuf.h"
#include "symtab.h"

static const char *const tricky[] = {
	"a", "a;", "a!", "ab", ";", "b", "a;b", "", "a:", "a<", "ab;a",
	"main", "main!", "main;a"
};
#define NTRICKY (sizeof(tricky) / sizeof(tricky[0]))

static uint64_t
next_random(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* the joined form of a stack */
static void
joined(struct pv_strbuf *sb, const struct pv_symtab *names,
       const struct pv_stack *s)
{
	uint32_t k;

	pv_strbuf_reset(sb);
	for (k = 0; k < s->nframe; k++) {
		struct pv_str f = pv_symtab_get(names, s->frame[k]);

		if (k > 0)
			pv_strbuf_addch(sb, ';');
		pv_strbuf_add(sb, f.s, f.len);
	}
}

/* the definition: event, then joined bytes, then the order added */
static int
before(const struct pv_symtab *names, const struct pv_stack *a,
       const struct pv_stack *b)
{
	struct pv_strbuf ja = PV_STRBUF_INIT, jb = PV_STRBUF_INIT;
	size_t n;
	int c;

	if (a->event != b->event)
		return a->event < b->event;
	joined(&ja, names, a);
	joined(&jb, names, b);
	n = ja.len < jb.len ? ja.len : jb.len;
	c = memcmp(ja.buf, jb.buf, n);
	if (c == 0 && ja.len != jb.len)
		c = ja.len < jb.len ? -1 : 1;
	pv_strbuf_release(&ja);
	pv_strbuf_release(&jb);
	if (c != 0)
		return c < 0;
	return a < b;		/* added first: earlier in the table */
}

static void
check_order(uint64_t seed, size_t nstack, int shuffled)
{
	struct pv_symtab names;
	struct pv_stacktab t;
	struct pv_stack **v;
	uint32_t ev[2], frame[6], id[NTRICKY];
	size_t i, k;

	pv_symtab_init(&names);
	pv_stacktab_init(&t);
	ev[0] = pv_symtab_intern(&names, "cycles", 6);
	ev[1] = pv_symtab_intern(&names, "", 0);
	for (i = 0; i < NTRICKY; i++)
		id[i] = pv_symtab_intern(&names, tricky[i], strlen(tricky[i]));
	for (i = 0; i < nstack; i++) {
		size_t nf = next_random(&seed) % 6;

		for (k = 0; k < nf; k++)
			frame[k] = id[next_random(&seed) % NTRICKY];
		pv_stacktab_add(&t, ev[next_random(&seed) % 2], frame, nf,
				1, 1);
	}
	if (!shuffled) {
		/* re-add in sorted order: one run, as from a sorted file */
		struct pv_stacktab u;

		v = pv_stacktab_sorted(&t, &names);
		pv_stacktab_init(&u);
		for (i = 0; i < t.nstack; i++)
			pv_stacktab_add(&u, v[i]->event, v[i]->frame,
					v[i]->nframe, 1, 1);
		free(v);
		pv_stacktab_release(&t);
		t = u;
	}
	v = pv_stacktab_sorted(&t, &names);
	for (i = 1; i < t.nstack; i++)
		ck_assert_msg(before(&names, v[i - 1], v[i]),
			      "stacks %zu and %zu out of order", i - 1, i);
	free(v);
	pv_stacktab_release(&t);
	pv_symtab_release(&names);
}

START_TEST(test_sorted)
{
	check_order(88172645463325252ULL, 0, 1);
	check_order(88172645463325252ULL, 1, 1);
	check_order(88172645463325252ULL, 2000, 1);
	check_order(362436069ULL, 2000, 0);
	check_order(521288629ULL, 50, 1);
}
END_TEST

START_TEST(test_add)
{
	struct pv_symtab names;
	struct pv_stacktab t;
	uint32_t f[3], e;
	struct pv_stack *s;

	pv_symtab_init(&names);
	pv_stacktab_init(&t);
	f[0] = pv_symtab_intern(&names, "main", 4);
	f[1] = pv_symtab_intern(&names, "a", 1);
	f[2] = pv_symtab_intern(&names, "b", 1);
	e = pv_symtab_intern(&names, "", 0);
	pv_stacktab_add(&t, e, f, 3, 1, 10);
	pv_stacktab_add(&t, e, f, 2, 1, 5);
	s = pv_stacktab_add(&t, e, f, 3, 2, 20);
	ck_assert_uint_eq(t.nstack, 2);
	ck_assert_uint_eq(s->samples, 3);
	ck_assert_uint_eq(s->period, 30);
	pv_stacktab_add(&t, e, NULL, 0, 1, 1);
	s = pv_stacktab_add(&t, e, NULL, 0, 1, 1);
	ck_assert_uint_eq(t.nstack, 3);
	ck_assert_uint_eq(s->samples, 2);
	s = pv_stacktab_add(&t, e, f, 3, UINT64_MAX, 1);
	ck_assert_uint_eq(s->samples, UINT64_MAX);
	ck_assert(pv_stacktab_overflowed(&t));
	pv_stacktab_release(&t);
	pv_symtab_release(&names);
}
END_TEST

/* enough distinct stacks for the table to grow several times */
/* Reserved room: the stacks stay where they are while it lasts. */
START_TEST(test_reserve)
{
	struct pv_stacktab t;
	struct pv_stack *first;
	uint32_t f[2];
	size_t i;

	pv_stacktab_init(&t);
	pv_stacktab_reserve(&t, 5000);
	pv_stacktab_reserve(&t, 10);	/* never shrinks */
	ck_assert_uint_ge(t.alloc, 5000);
	f[0] = 7;
	f[1] = 0;
	first = pv_stacktab_add(&t, 1, f, 2, 1, 1);
	for (i = 1; i < 5000; i++) {
		f[1] = (uint32_t)i;
		pv_stacktab_add(&t, 1, f, 2, 1, 1);
	}
	ck_assert_ptr_eq(t.stack, first);
	ck_assert_uint_eq(t.nstack, 5000);
	for (i = 0; i < 5000; i++) {
		f[1] = (uint32_t)i;
		ck_assert_ptr_eq(pv_stacktab_add(&t, 1, f, 2, 1, 1),
				 &t.stack[i]);
		ck_assert_uint_eq(t.stack[i].samples, 2);
	}
	pv_stacktab_release(&t);
}
END_TEST

START_TEST(test_many)
{
	struct pv_symtab names;
	struct pv_stacktab t;
	uint32_t f[2];
	size_t i;

	pv_symtab_init(&names);
	pv_stacktab_init(&t);
	for (i = 0; i < 3 * 20000; i++) {
		f[0] = (uint32_t)(i % 20000);
		f[1] = (uint32_t)(i % 20000 / 7);
		pv_stacktab_add(&t, 0, f, 2, 1, i);
	}
	ck_assert_uint_eq(t.nstack, 20000);
	for (i = 0; i < t.nstack; i++) {
		ck_assert_uint_eq(t.stack[i].samples, 3);
		ck_assert_uint_eq(t.stack[i].period, 3 * i + 60000);
	}
	pv_stacktab_release(&t);
	pv_symtab_release(&names);
}
END_TEST

/* Stack records in the folded order, names escaped as pv-format(5) says. */
START_TEST(test_write)
{
	struct pv_symtab names;
	struct pv_stacktab t;
	uint32_t f[3], ev, ev2;
	char *buf = NULL;
	size_t len = 0;
	FILE *out;

	pv_symtab_init(&names);
	pv_stacktab_init(&t);
	ev = pv_symtab_intern(&names, "cycles", 6);
	ev2 = pv_symtab_intern(&names, "", 0);
	f[0] = pv_symtab_intern(&names, "main", 4);
	f[1] = pv_symtab_intern(&names, "b;c", 3);
	f[2] = pv_symtab_intern(&names, "a\tx", 3);
	pv_stacktab_add(&t, ev, f, 2, 1, 10);
	pv_stacktab_add(&t, ev2, f, 1, 2, 5);
	pv_stacktab_add(&t, ev, (uint32_t[]){ f[0], f[2] }, 2, 3, 7);
	pv_stacktab_add(&t, ev, f, 2, 1, 1);
	out = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(out);
	pv_stacktab_write(&t, &names, out);
	ck_assert_int_eq(fclose(out), 0);
	ck_assert_str_eq(buf,
			 "stack\tcycles\t3\t7\tmain;a\\tx\n"
			 "stack\tcycles\t2\t11\tmain;b\\;c\n"
			 "stack\t-\t2\t5\tmain\n");
	free(buf);
	pv_stacktab_release(&t);
	pv_symtab_release(&names);
}
END_TEST

/*
 * Past the limit (lowered here; PV_STACKTAB_MAX cannot be reached in a
 * test): a new stack is refused with a message and the table is left as
 * it was, a known one still counts; a merge stops at the limit.
 */
START_TEST(test_limit)
{
	struct pv_symtab names, src_names;
	struct pv_stacktab t, src;
	uint32_t f[1];
	size_t i;

	pv_symtab_init(&names);
	pv_stacktab_init(&t);
	ck_assert_uint_eq(t.max, PV_STACKTAB_MAX);
	t.max = 3;
	for (i = 0; i < 3; i++) {
		f[0] = (uint32_t)i;
		ck_assert_ptr_nonnull(pv_stacktab_add(&t, 9, f, 1, 1, 1));
	}
	f[0] = 3;
	ck_assert_ptr_null(pv_stacktab_add(&t, 9, f, 1, 1, 1));
	ck_assert_str_eq(pv_err_msg(&t.err),
			 "too many distinct stacks (more than 3)");
	ck_assert_uint_eq(t.nstack, 3);
	f[0] = 1;
	ck_assert_ptr_eq(pv_stacktab_add(&t, 9, f, 1, 1, 1), &t.stack[1]);
	ck_assert_uint_eq(t.stack[1].samples, 2);

	/* a merge into a table with room for one more of src's stacks */
	pv_symtab_init(&src_names);
	pv_stacktab_init(&src);
	f[0] = pv_symtab_intern(&src_names, "a", 1);
	pv_stacktab_add(&src, f[0], f, 1, 1, 1);
	f[0] = pv_symtab_intern(&src_names, "b", 1);
	pv_stacktab_add(&src, f[0], f, 1, 1, 1);
	t.max = 4;
	ck_assert_int_eq(pv_stacktab_merge(&t, &names, &src, &src_names), -1);
	ck_assert_uint_eq(t.nstack, 4);
	t.max = 5;
	ck_assert_int_eq(pv_stacktab_merge(&t, &names, &src, &src_names), 0);
	ck_assert_uint_eq(t.nstack, 5);
	ck_assert_uint_eq(t.stack[3].samples, 2);
	pv_stacktab_release(&src);
	pv_symtab_release(&src_names);
	pv_stacktab_release(&t);
	pv_symtab_release(&names);
}
END_TEST

/* PV_TEST_MAX_STACKS lowers the limit of a new table, never raises it. */
START_TEST(test_limit_env)
{
	struct pv_stacktab t;

	setenv("PV_TEST_MAX_STACKS", "7", 1);
	pv_stacktab_init(&t);
	ck_assert_uint_eq(t.max, 7);
	pv_stacktab_release(&t);
	setenv("PV_TEST_MAX_STACKS", "99999999999999", 1);
	pv_stacktab_init(&t);
	ck_assert_uint_eq(t.max, PV_STACKTAB_MAX);
	pv_stacktab_release(&t);
	setenv("PV_TEST_MAX_STACKS", "seven", 1);
	pv_stacktab_init(&t);
	ck_assert_uint_eq(t.max, PV_STACKTAB_MAX);
	pv_stacktab_release(&t);
	unsetenv("PV_TEST_MAX_STACKS");
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("stacktab");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, test_add);
	tcase_add_test(tc, test_many);
	tcase_add_test(tc, test_reserve);
	tcase_add_test(tc, test_sorted);
	tcase_add_test(tc, test_write);
	tcase_add_test(tc, test_limit);
	tcase_add_test(tc, test_limit_env);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
