/*
 * check_input: lib/input read as bytes (pv_input_read()), in a temporary
 * directory: plain and gzip input in pieces of 1 byte to 4 MiB,
 * concatenated members, an empty file, and the errors (a truncated member,
 * a damaged one, bytes after a member, a directory), each after the bytes
 * before it; and bytes read after lines given back by pv_input_rewind().
 * The bytes and the line limit with no lines counted, too
 * (pv_input_count_lines()).
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "input.h"
#include "strbuf.h"

static char dir[256], file[300];

static void
setup(void)
{
	char tmpl[] = "/tmp/check_input.XXXXXX";

	ck_assert_ptr_nonnull(mkdtemp(tmpl));
	snprintf(dir, sizeof(dir), "%s", tmpl);
	snprintf(file, sizeof(file), "%s/in", dir);
}

static void
teardown(void)
{
	unlink(file);
	rmdir(dir);
}

static void
spit(const void *data, size_t len)
{
	FILE *f = fopen(file, "wb");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(data, 1, len, f), len);
	ck_assert_int_eq(fclose(f), 0);
}

/* data gzip-compressed, appended to sb */
static void
gzip_add(struct pv_strbuf *sb, const char *data, size_t len)
{
	z_stream z;
	unsigned char out[1 << 16];

	memset(&z, 0, sizeof(z));
	ck_assert_int_eq(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8,
				      Z_DEFAULT_STRATEGY), Z_OK);
	z.next_in = (unsigned char *)(uintptr_t)data;
	z.avail_in = (uInt)len;
	do {
		z.next_out = out;
		z.avail_out = sizeof(out);
		ck_assert_int_ne(deflate(&z, Z_FINISH), Z_STREAM_ERROR);
		pv_strbuf_add(sb, out, sizeof(out) - z.avail_out);
	} while (z.avail_out == 0);
	deflateEnd(&z);
}

/* Lines enough to fill several reads (and not compress to nothing). */
static void
text(struct pv_strbuf *sb, int n, int seed)
{
	int i;

	for (i = 0; i < n; i++)
		pv_strbuf_addf(sb, "stack\tcycles\t%d\t%d\tmain;f%d;g%d\n",
			       i, i * seed, (i * 7919 + seed) % 10007, i);
}

/*
 * Read file whole in pieces of size piece into got; the last return
 * value (0 at the end, -1 on an error).
 */
static long
slurp(struct pv_input *in, size_t piece, struct pv_strbuf *got)
{
	char *buf = malloc(piece);
	long n;

	ck_assert_ptr_nonnull(buf);
	pv_strbuf_reset(got);
	while ((n = pv_input_read(in, buf, piece)) > 0) {
		ck_assert_int_le(n, (long)piece);
		pv_strbuf_add(got, buf, (size_t)n);
	}
	free(buf);
	return n;
}

/*
 * Read file whole in pieces of every size of pieces[], and then of 1 and
 * 7 bytes where it is small (in a second or so).
 */
static void
check_reads(const struct pv_strbuf *want)
{
	static const size_t pieces[] = { 4096, 65536, 1 << 22, 1, 7 };
	struct pv_strbuf got = PV_STRBUF_INIT;
	struct pv_input *in;
	unsigned long lines = 0;
	size_t i;

	for (i = 0; i < want->len; i++)
		lines += want->buf[i] == '\n';
	for (i = 0; i < sizeof(pieces) / sizeof(pieces[0]); i++) {
		if (pieces[i] < 64 && want->len > (256u << 10))
			break;
		in = pv_input_open(file);
		ck_assert_ptr_nonnull(in);
		ck_assert_int_eq(slurp(in, pieces[i], &got), 0);
		ck_assert_uint_eq(got.len, want->len);
		ck_assert_int_eq(memcmp(got.buf, want->buf, want->len), 0);
		ck_assert_int_eq(pv_input_read(in, got.buf, 1), 0);
		ck_assert_uint_eq(pv_input_lineno(in), lines);
		pv_input_close(in);
		/* the same bytes when the input counts no lines */
		in = pv_input_open(file);
		pv_input_count_lines(in, 0);
		ck_assert_int_eq(slurp(in, pieces[i], &got), 0);
		ck_assert_uint_eq(got.len, want->len);
		ck_assert_int_eq(memcmp(got.buf, want->buf, want->len), 0);
		ck_assert_uint_eq(pv_input_lineno(in), 0);
		pv_input_close(in);
	}
	pv_strbuf_release(&got);
}

START_TEST(test_plain)
{
	struct pv_strbuf want = PV_STRBUF_INIT;

	text(&want, 20000, 3);
	spit(want.buf, want.len);
	check_reads(&want);
	/* beyond the first read (64 KiB), in small pieces too */
	pv_strbuf_reset(&want);
	text(&want, 3000, 3);
	spit(want.buf, want.len);
	check_reads(&want);
	/* bytes are bytes: NUL, CR, no final newline */
	pv_strbuf_reset(&want);
	pv_strbuf_add(&want, "a\0b\r\nc", 6);
	spit(want.buf, want.len);
	check_reads(&want);
	pv_strbuf_release(&want);
}
END_TEST

START_TEST(test_gzip)
{
	struct pv_strbuf want = PV_STRBUF_INIT, gz = PV_STRBUF_INIT;
	struct pv_strbuf part = PV_STRBUF_INIT;

	text(&part, 30000, 5);
	gzip_add(&gz, part.buf, part.len);
	pv_strbuf_add(&want, part.buf, part.len);
	/* a second member, and an empty third: one stream */
	pv_strbuf_reset(&part);
	text(&part, 100, 11);
	gzip_add(&gz, part.buf, part.len);
	gzip_add(&gz, "", 0);
	pv_strbuf_add(&want, part.buf, part.len);
	spit(gz.buf, gz.len);
	check_reads(&want);
	/* small enough for pieces of a byte */
	pv_strbuf_reset(&want);
	pv_strbuf_reset(&gz);
	pv_strbuf_reset(&part);
	text(&part, 2000, 5);
	gzip_add(&gz, part.buf, part.len);
	gzip_add(&gz, part.buf, part.len);
	pv_strbuf_add(&want, part.buf, part.len);
	pv_strbuf_add(&want, part.buf, part.len);
	spit(gz.buf, gz.len);
	check_reads(&want);
	pv_strbuf_release(&want);
	pv_strbuf_release(&gz);
	pv_strbuf_release(&part);
}
END_TEST

START_TEST(test_empty)
{
	struct pv_strbuf want = PV_STRBUF_INIT;

	spit("", 0);
	check_reads(&want);
	pv_strbuf_release(&want);
}
END_TEST

/* The input fails after a prefix of want at least min bytes long. */
static void
check_fails(const struct pv_strbuf *want, size_t min, const char *msg)
{
	struct pv_strbuf got = PV_STRBUF_INIT;
	struct pv_input *in = pv_input_open(file);
	char c;

	ck_assert_ptr_nonnull(in);
	ck_assert_int_eq(slurp(in, 65536, &got), -1);
	ck_assert_uint_ge(got.len, min);
	ck_assert_uint_le(got.len, want->len);
	ck_assert_int_eq(memcmp(got.buf, want->buf, got.len), 0);
	ck_assert_str_eq(pv_input_error(in), msg);
	ck_assert_int_eq(pv_input_errno(in), 0);
	ck_assert_int_eq(pv_input_read(in, &c, 1), -1);	/* and stays so */
	pv_input_close(in);
	pv_strbuf_release(&got);
}

START_TEST(test_gzip_errors)
{
	struct pv_strbuf want = PV_STRBUF_INIT, gz = PV_STRBUF_INIT;
	struct pv_strbuf bad = PV_STRBUF_INIT;

	text(&want, 30000, 7);
	gzip_add(&gz, want.buf, want.len);
	/* cut: everything that inflates comes first */
	spit(gz.buf, gz.len - 100);
	check_fails(&want, want.len / 2, "truncated gzip data");
	/* bytes after a member are not a member */
	pv_strbuf_add(&bad, gz.buf, gz.len);
	pv_strbuf_addstr(&bad, "garbage");
	spit(bad.buf, bad.len);
	check_fails(&want, want.len,
		    "invalid gzip data: incorrect header check");
	/* a damaged trailer: all the data, then the error */
	pv_strbuf_reset(&bad);
	pv_strbuf_add(&bad, gz.buf, gz.len);
	bad.buf[bad.len - 6] ^= 0x55;
	spit(bad.buf, bad.len);
	check_fails(&want, want.len, "invalid gzip data: incorrect data check");
	pv_strbuf_release(&want);
	pv_strbuf_release(&gz);
	pv_strbuf_release(&bad);
}
END_TEST

/*
 * The line limit (PV_MAX_LINE here: the suite runs each test in a process
 * of its own): a line of the limit's length is read, one byte more is an
 * error with its number, by lines and by bytes, plain and gzip; the bytes
 * before it come first.  A PV_MAX_LINE that is not a number is an error.
 */
START_TEST(test_max_line)
{
	static const char *const limit[] = { "100", "1K", "", "0.1K", "0" };
	struct pv_strbuf want = PV_STRBUF_INIT, gz = PV_STRBUF_INIT;
	struct pv_strbuf got = PV_STRBUF_INIT;
	struct pv_input *in;
	char *line;
	size_t len, i;
	int gzip;

	ck_assert_int_eq(setenv("PV_MAX_LINE", "100", 1), 0);
	pv_strbuf_addstr(&want, "short\n");
	for (i = 0; i < 100; i++)
		pv_strbuf_addch(&want, 'a');
	pv_strbuf_addch(&want, '\n');
	len = want.len;
	for (i = 0; i < 101; i++)
		pv_strbuf_addch(&want, 'b');
	pv_strbuf_addstr(&want, "\nafter\n");
	gzip_add(&gz, want.buf, want.len);
	for (gzip = 0; gzip < 2; gzip++) {
		if (gzip)
			spit(gz.buf, gz.len);
		else
			spit(want.buf, want.len);
		in = pv_input_open(file);
		ck_assert_int_eq(pv_input_getline(in, &line, &i), 1);
		ck_assert_int_eq(pv_input_getline(in, &line, &i), 1);
		ck_assert_uint_eq(i, 100);	/* at the limit: a line */
		ck_assert_int_eq(pv_input_getline(in, &line, &i), -1);
		ck_assert_uint_eq(pv_input_lineno(in), 3);
		ck_assert_str_eq(pv_input_error(in), "a line of more than 100 "
				 "bytes (the limit; PV_MAX_LINE=BYTES sets "
				 "another)");
		pv_input_close(in);
		/*
		 * by bytes: the two lines before, no more than the limit of
		 * the third, then the error
		 */
		in = pv_input_open(file);
		ck_assert_int_eq(slurp(in, 7, &got), -1);
		ck_assert_uint_ge(got.len, len);
		ck_assert_uint_le(got.len, len + 100);
		ck_assert_int_eq(memcmp(got.buf, want.buf, got.len), 0);
		ck_assert_uint_eq(pv_input_lineno(in), 3);
		ck_assert_str_eq(pv_input_error(in), "a line of more than 100 "
				 "bytes (the limit; PV_MAX_LINE=BYTES sets "
				 "another)");
		pv_input_close(in);
		/*
		 * and with no lines counted: the same bytes and error, in
		 * pieces within the limit and past it, the line too long
		 * the one after the newlines returned
		 */
		for (i = 7; i < 1000; i += 990) {
			in = pv_input_open(file);
			pv_input_count_lines(in, 0);
			ck_assert_int_eq(slurp(in, i, &got), -1);
			ck_assert_uint_ge(got.len, len);
			ck_assert_uint_le(got.len, len + 100);
			ck_assert_int_eq(memcmp(got.buf, want.buf, got.len), 0);
			ck_assert_uint_eq(pv_input_lineno(in), 1);
			ck_assert_str_eq(pv_input_error(in), "a line of more "
					 "than 100 bytes (the limit; "
					 "PV_MAX_LINE=BYTES sets another)");
			pv_input_close(in);
		}
	}
	/* a last line without its newline counts as well */
	spit(want.buf + len, 101);
	in = pv_input_open(file);
	ck_assert_int_eq(pv_input_getline(in, &line, &i), -1);
	ck_assert_uint_eq(pv_input_lineno(in), 1);
	pv_input_close(in);
	/* the limit's spellings; "" is the default, 64 MiB */
	spit(want.buf, want.len);
	for (i = 0; i < sizeof(limit) / sizeof(limit[0]); i++) {
		ck_assert_int_eq(setenv("PV_MAX_LINE", limit[i], 1), 0);
		in = pv_input_open(file);
		ck_assert_int_eq(pv_input_getline(in, &line, &len), (i < 3 ? 1 :
				 -1));
		if (i >= 3)
			ck_assert_ptr_nonnull(strstr(pv_input_error(in),
						     "is not a number of bytes"));
		pv_input_close(in);
	}
	ck_assert_int_eq(setenv("PV_MAX_LINE", "1k", 1), 0);
	in = pv_input_open(file);
	ck_assert_int_eq(slurp(in, 4096, &got), 0);	/* 1024: all lines */
	pv_input_close(in);
	unsetenv("PV_MAX_LINE");
	pv_strbuf_release(&want);
	pv_strbuf_release(&gz);
	pv_strbuf_release(&got);
}
END_TEST

/*
 * A rewind after any number of lines gives the same lines again: LF and
 * CRLF lines mixed, and a line read just before an empty one (whose LF a
 * rewind once took for the LF of a CRLF, joining two lines in one).
 */
START_TEST(test_rewind)
{
	static const char text[] = "a\n\nb\r\n\r\n\nc\r\nd\n\n\n";
	static const char *const want[] = {
		"a", "", "b", "", "", "c", "d", "", ""
	};
	const size_t nwant = sizeof(want) / sizeof(want[0]);
	struct pv_input *in;
	char *line;
	size_t len, k, i;

	spit(text, sizeof(text) - 1);
	for (k = 0; k <= nwant; k++) {
		in = pv_input_open(file);
		for (i = 0; i < k; i++)
			ck_assert_int_eq(pv_input_getline(in, &line, &len), 1);
		ck_assert_int_eq(pv_input_rewind(in), 0);
		for (i = 0; i < nwant; i++) {
			ck_assert_int_eq(pv_input_getline(in, &line, &len), 1);
			ck_assert_str_eq(line, want[i]);
			ck_assert_uint_eq(pv_input_lineno(in), i + 1);
		}
		ck_assert_int_eq(pv_input_getline(in, &line, &len), 0);
		pv_input_close(in);
	}
}
END_TEST

/*
 * Lines read, given back by pv_input_rewind(), then read as bytes: every
 * byte from the start, line ends and CRs as they were (pv-parse on a
 * pipe looks at the first line and then cuts blocks).
 */
static void
check_rewind_bytes(const struct pv_strbuf *want, int lines)
{
	struct pv_strbuf got = PV_STRBUF_INIT;
	struct pv_input *in = pv_input_open(file);
	char *line;
	size_t len;
	int i;

	ck_assert_ptr_nonnull(in);
	for (i = 0; i < lines; i++)
		ck_assert_int_eq(pv_input_getline(in, &line, &len), 1);
	ck_assert_int_eq(pv_input_rewind(in), 0);
	ck_assert_int_eq(slurp(in, 4096, &got), 0);
	ck_assert_uint_eq(got.len, want->len);
	ck_assert_int_eq(memcmp(got.buf, want->buf, want->len), 0);
	pv_input_close(in);
	pv_strbuf_release(&got);
}

START_TEST(test_rewind_bytes)
{
	struct pv_strbuf want = PV_STRBUF_INIT, gz = PV_STRBUF_INIT;

	pv_strbuf_addstr(&want, "\n\r\nfirst\r\nsecond\n");
	text(&want, 20000, 13);
	spit(want.buf, want.len);
	check_rewind_bytes(&want, 1);
	check_rewind_bytes(&want, 4);
	gzip_add(&gz, want.buf, want.len);
	spit(gz.buf, gz.len);
	check_rewind_bytes(&want, 3);
	pv_strbuf_release(&want);
	pv_strbuf_release(&gz);
}
END_TEST

START_TEST(test_directory)
{
	struct pv_input *in = pv_input_open(dir);
	char buf[16];

	ck_assert_ptr_nonnull(in);
	ck_assert_int_eq(pv_input_read(in, buf, sizeof(buf)), -1);
	ck_assert_int_eq(pv_input_errno(in), EISDIR);
	ck_assert_str_eq(pv_input_error(in), "read error: Is a directory");
	pv_input_close(in);
	ck_assert_ptr_null(pv_input_open(file));	/* none yet */
	ck_assert_int_eq(errno, ENOENT);
}
END_TEST

static Suite *
input_suite(void)
{
	Suite *s = suite_create("input");
	TCase *tc = tcase_create("read");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_plain);
	tcase_add_test(tc, test_gzip);
	tcase_add_test(tc, test_empty);
	tcase_add_test(tc, test_gzip_errors);
	tcase_add_test(tc, test_max_line);
	tcase_add_test(tc, test_rewind);
	tcase_add_test(tc, test_rewind_bytes);
	tcase_add_test(tc, test_directory);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(input_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
