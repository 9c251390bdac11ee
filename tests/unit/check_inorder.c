/*
 * check_inorder: blocks computed by several threads come back in order,
 * each item once, whatever the number of threads and the block size.
 */
#include "config.h"

#include <check.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inorder.h"

struct seen {
	size_t next;		/* the item take() expects next */
	size_t bad;		/* items out of order or wrong */
};

static atomic_int ended;

static void
work(void *arg, struct pv_inorder_block *b)
{
	size_t i;

	(void)arg;
	for (i = b->start; i < b->end; i++) {
		char num[32];

		snprintf(num, sizeof(num), "%zu\n", i);
		pv_strbuf_addstr(&b->text, num);
		b->mark[i - b->start] = b->text.len;
	}
}

static void
take(void *arg, const struct pv_inorder_block *b)
{
	struct seen *s = arg;
	size_t i, from = 0;

	if (b->start != s->next)
		s->bad++;
	for (i = b->start; i < b->end; i++) {
		char num[32];
		size_t to = b->mark[i - b->start];

		snprintf(num, sizeof(num), "%zu\n", i);
		if (to - from != strlen(num) ||
		    memcmp(b->text.buf + from, num, to - from) != 0)
			s->bad++;
		from = to;
		s->next = i + 1;
	}
}

static void
thread_end(void)
{
	atomic_fetch_add(&ended, 1);
}

START_TEST(test_order)
{
	static const size_t n[] = { 0, 1, 255, 256, 257, 10000 };
	static const size_t block[] = { 1, 7, 256 };
	static const size_t jobs[] = { 1, 2, 3, 8 };
	size_t a, b, c;

	for (a = 0; a < sizeof(n) / sizeof(n[0]); a++)
	for (b = 0; b < sizeof(block) / sizeof(block[0]); b++)
	for (c = 0; c < sizeof(jobs) / sizeof(jobs[0]); c++) {
		struct seen s = { 0, 0 };
		struct pv_inorder job;

		memset(&job, 0, sizeof(job));
		job.n = n[a];
		job.block = block[b];
		job.jobs = jobs[c];
		job.per_thread = 1;
		job.work = work;
		job.take = take;
		job.thread_end = thread_end;
		job.arg = &s;
		atomic_store(&ended, 0);
		pv_inorder_run(&job);
		ck_assert_msg(s.bad == 0 && s.next == n[a],
			      "n %zu block %zu jobs %zu: %zu bad, %zu taken",
			      n[a], block[b], jobs[c], s.bad, s.next);
		/* the threads started besides this one, each ended */
		ck_assert_int_le(atomic_load(&ended), (int)jobs[c] - 1);
	}
}
END_TEST

static Suite *
inorder_suite(void)
{
	Suite *s = suite_create("inorder");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_order);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(inorder_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
