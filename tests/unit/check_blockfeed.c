/*
 * check_blockfeed: a stream cut into blocks comes back whole and in
 * order, each unit within one block or a chain of joined blocks folded by
 * one worker, the first block by worker 0, whatever the block size and
 * the number of workers; a failed input ends with the bytes before the
 * error; take() returning -1 stops the reading.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "blockfeed.h"
#include "input.h"
#include "strbuf.h"

/* Units of 1 to 40 lines, every 97th of 3000 lines: "U:I\n" ... "\n". */
static void
make_units(struct pv_strbuf *sb, size_t units)
{
	size_t u, i, n;

	for (u = 0; u < units; u++) {
		n = u % 97 == 0 ? 3000 : 1 + u % 40;
		for (i = 0; i < n; i++)
			pv_strbuf_addf(sb, "%zu:%zu\n", u, i);
		pv_strbuf_addch(sb, '\n');
	}
}

static char *
write_temp(const char *data, size_t len, int gz)
{
	char *path = strdup("/tmp/check_blockfeed.XXXXXX");
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	if (gz) {
		gzFile g = gzdopen(fd, "wb");

		ck_assert_int_eq(gzwrite(g, data, (unsigned)len), (int)len);
		gzclose(g);
	} else {
		ck_assert_int_eq(write(fd, data, len), (ssize_t)len);
		close(fd);
	}
	return path;
}

struct seen {
	struct pv_strbuf out;	/* the blocks' bytes, as taken */
	size_t worker[64];	/* of the block in each slot */
	size_t prev_worker;
	size_t next;		/* the index take() expects */
	size_t bad;
	size_t failed, stop_at;
};

static size_t
cut(void *arg, const char *buf, size_t len, size_t index, int *whole)
{
	const char *q;
	size_t n = len;

	(void)arg;
	(void)index;
	while ((q = memrchr(buf, '\n', n)) != NULL) {
		if (q > buf && q[-1] == '\n') {
			*whole = 1;
			return (size_t)(q - buf) + 1;
		}
		n = (size_t)(q - buf);
	}
	*whole = 0;
	q = memrchr(buf, '\n', len);
	return q != NULL ? (size_t)(q - buf) + 1 : 0;
}

static void
work(void *arg, size_t worker, const struct pv_blockfeed_block *b)
{
	struct seen *s = arg;

	s->worker[b->slot] = worker;
}

static int
take(void *arg, const struct pv_blockfeed_block *b)
{
	struct seen *s = arg;
	size_t w = s->worker[b->slot];

	if (b->index != s->next++)
		s->bad++;
	if (b->index == 0 && w != 0)
		s->bad++;
	if (b->joined && b->index > 0 && w != s->prev_worker)
		s->bad++;
	/* a whole block ends at a unit's end, a part at a line's */
	if (!b->last && b->whole &&
	    (b->len < 2 || memcmp(b->buf + b->len - 2, "\n\n", 2) != 0))
		s->bad++;
	if (!b->last && !b->whole &&
	    (b->len < 1 || b->buf[b->len - 1] != '\n'))
		s->bad++;
	s->failed += b->failed;
	s->prev_worker = w;
	pv_strbuf_add(&s->out, b->buf, b->len);
	return s->stop_at && b->index + 1 == s->stop_at ? -1 : 0;
}

static size_t
run(const char *path, size_t block, size_t jobs, struct seen *s)
{
	struct pv_input *in = pv_input_open(path);
	struct pv_blockfeed job;
	size_t n;

	ck_assert_ptr_nonnull(in);
	ck_assert_int_le(pv_blockfeed_slots(jobs), 64);
	memset(&job, 0, sizeof(job));
	job.in = in;
	job.block = block;
	job.jobs = jobs;
	job.cut = cut;
	job.work = work;
	job.take = take;
	job.arg = s;
	n = pv_blockfeed_run(&job);
	pv_input_close(in);
	return n;
}

START_TEST(test_whole_in_order)
{
	static const size_t units[] = { 0, 1, 5, 2000 };
	static const size_t block[] = { 1, 100, 4096, 1u << 20 };
	static const size_t jobs[] = { 1, 2, 3, 8 };
	size_t a, b, c;

	for (a = 0; a < sizeof(units) / sizeof(units[0]); a++) {
		struct pv_strbuf in = PV_STRBUF_INIT;
		char *path;

		make_units(&in, units[a]);
		path = write_temp(in.buf ? in.buf : "", in.len, 0);
		for (b = 0; b < sizeof(block) / sizeof(block[0]); b++)
		for (c = 0; c < sizeof(jobs) / sizeof(jobs[0]); c++) {
			struct seen s;
			size_t n;

			memset(&s, 0, sizeof(s));
			pv_strbuf_init(&s.out, 0);
			n = run(path, block[b], jobs[c], &s);
			ck_assert_msg(s.bad == 0 && s.next == n &&
				      s.out.len == in.len &&
				      memcmp(s.out.buf, in.buf, in.len) == 0,
				      "units %zu block %zu jobs %zu: %zu bad, "
				      "%zu of %zu blocks, %zu of %zu bytes",
				      units[a], block[b], jobs[c], s.bad,
				      s.next, n, s.out.len, in.len);
			ck_assert_uint_eq(s.failed, 0);
			if (units[a] == 0)
				ck_assert_uint_eq(n, 0);
			if (block[b] == 1 && units[a] > 1)
				ck_assert_uint_gt(n, units[a]);
			pv_strbuf_release(&s.out);
		}
		unlink(path);
		free(path);
		pv_strbuf_release(&in);
	}
}
END_TEST

/* No line end at all: one block that grows to hold it. */
START_TEST(test_long_line)
{
	struct pv_strbuf in = PV_STRBUF_INIT;
	struct seen s;
	char *path;
	size_t i;

	for (i = 0; i < 100000; i++)
		pv_strbuf_addch(&in, (char)('a' + i % 26));
	path = write_temp(in.buf, in.len, 0);
	memset(&s, 0, sizeof(s));
	pv_strbuf_init(&s.out, 0);
	ck_assert_uint_eq(run(path, 64, 2, &s), 1);
	ck_assert_uint_eq(s.bad, 0);
	ck_assert_uint_eq(s.out.len, in.len);
	pv_strbuf_release(&s.out);
	unlink(path);
	free(path);
	pv_strbuf_release(&in);
}
END_TEST

/* Truncated gzip data: the bytes before the error, then failed. */
START_TEST(test_failed)
{
	struct pv_strbuf in = PV_STRBUF_INIT;
	struct seen s;
	char *path, *cut_path, buf[65536];
	FILE *f, *g;
	size_t n;
	long size;

	make_units(&in, 3000);
	path = write_temp(in.buf, in.len, 1);
	f = fopen(path, "rb");
	ck_assert_ptr_nonnull(f);
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	rewind(f);
	cut_path = strdup("/tmp/check_blockfeed_cut.XXXXXX");
	g = fdopen(mkstemp(cut_path), "wb");
	ck_assert_ptr_nonnull(g);
	/* keep the first half */
	size /= 2;
	while (size > 0 && (n = fread(buf, 1, (size_t)size < sizeof(buf) ?
				      (size_t)size : sizeof(buf), f)) > 0) {
		fwrite(buf, 1, n, g);
		size -= (long)n;
	}
	fclose(f);
	fclose(g);
	memset(&s, 0, sizeof(s));
	pv_strbuf_init(&s.out, 0);
	run(cut_path, 4096, 2, &s);
	ck_assert_uint_eq(s.bad, 0);
	ck_assert_uint_eq(s.failed, 1);
	ck_assert_uint_gt(s.out.len, 0);
	ck_assert_uint_lt(s.out.len, in.len);
	ck_assert(memcmp(s.out.buf, in.buf, s.out.len) == 0);
	pv_strbuf_release(&s.out);
	unlink(path);
	unlink(cut_path);
	free(path);
	free(cut_path);
	pv_strbuf_release(&in);
}
END_TEST

/* take() says stop: the blocks in flight, and no more. */
START_TEST(test_stop)
{
	struct pv_strbuf in = PV_STRBUF_INIT;
	struct seen s;
	char *path;
	size_t n;

	make_units(&in, 2000);
	path = write_temp(in.buf, in.len, 0);
	memset(&s, 0, sizeof(s));
	pv_strbuf_init(&s.out, 0);
	s.stop_at = 3;
	n = run(path, 256, 2, &s);
	ck_assert_uint_eq(s.bad, 0);
	ck_assert_uint_eq(s.next, n);
	ck_assert_uint_ge(n, 3);
	ck_assert_uint_le(n, 3 + pv_blockfeed_slots(2));
	pv_strbuf_release(&s.out);
	unlink(path);
	free(path);
	pv_strbuf_release(&in);
}
END_TEST

static Suite *
blockfeed_suite(void)
{
	Suite *s = suite_create("blockfeed");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_whole_in_order);
	tcase_add_test(tc, test_long_line);
	tcase_add_test(tc, test_failed);
	tcase_add_test(tc, test_stop);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(blockfeed_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
