/*
 * Unit tests of lib/record.c: the reader and writer of pv-format(5).
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rec_profile.h"
#include "record.h"
#include "strbuf.h"

/* Write s to a temporary file and open a reader on it. */
static struct pv_reader *
reader_on(const char *s, size_t len, char *path)
{
	int fd;
	struct pv_reader *r;

	strcpy(path, "/tmp/check_record.XXXXXX");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, s, len), (ssize_t)len);
	close(fd);
	r = pv_reader_open(path);
	ck_assert_ptr_nonnull(r);
	return r;
}

struct fixture {
	char path[64];
	struct pv_reader *r;
	struct pv_record rec;
};

static void
open_str(struct fixture *f, const char *s)
{
	f->r = reader_on(s, strlen(s), f->path);
}

static void
close_fix(struct fixture *f)
{
	pv_reader_close(f->r);
	unlink(f->path);
}

static int
str_is(struct pv_str s, const char *want)
{
	return s.len == strlen(want) && memcmp(s.s, want, s.len) == 0;
}

START_TEST(test_every_type)
{
	struct fixture f;

	open_str(&f, "pv-format\t1\n"
		 "section\tbaseline\tv6.12\texp1\n"
		 "meta\tcommit\tabc123\n"
		 "env\tos-release\t6.12.0\n"
		 "stack\tcpu-clock\t3\t750\tbash;main;do_work\n"
		 "sample\tstress-ng\tfutex\tbogo-ops\tbogo-ops-per-second\t"
		 "ops/s\thigher\t4\t2\t-\t12345.5\n"
		 "frob\tx\ty\n");
	ck_assert_int_eq(pv_reader_next(f.r, &f.rec), 1);
	ck_assert_int_eq(f.rec.type, PV_REC_VERSION);
	ck_assert_int_eq(pv_reader_next(f.r, &f.rec), 1);
	ck_assert_int_eq(f.rec.type, PV_REC_SECTION);
	ck_assert(str_is(f.rec.role, "baseline"));
	ck_assert(str_is(f.rec.version, "v6.12"));
	ck_assert(str_is(f.rec.experiment, "exp1"));
	ck_assert_int_eq(pv_reader_next(f.r, &f.rec), 1);
	ck_assert_int_eq(f.rec.type, PV_REC_META);
	ck_assert(str_is(f.rec.key, "commit"));
	ck_assert(str_is(f.rec.value, "abc123"));
	ck_assert_int_eq(pv_reader_next(f.r, &f.rec), 1);
	ck_assert_int_eq(f.rec.type, PV_REC_ENV);
	ck_assert_int_eq(pv_reader_next(f.r, &f.rec), 1);
	ck_assert_int_eq(f.rec.type, PV_REC_STACK);
	ck_assert(str_is(f.rec.event, "cpu-clock"));
	ck_assert_uint_eq(f.rec.samples, 3);
	ck_assert_uint_eq(f.rec.period, 750);
	ck_assert_uint_eq(f.rec.nframe, 3);
	ck_assert(str_is(f.rec.frame[0], "bash"));
	ck_assert(str_is(f.rec.frame[2], "do_work"));
	ck_assert_int_eq(f.rec.folded, 0);
	ck_assert_int_eq(pv_reader_next(f.r, &f.rec), 1);
	ck_assert_int_eq(f.rec.type, PV_REC_SAMPLE);
	ck_assert(str_is(f.rec.suite, "stress-ng"));
	ck_assert(str_is(f.rec.unit, "ops/s"));
	ck_assert_int_eq(f.rec.direction, PV_HIGHER_BETTER);
	ck_assert_uint_eq(f.rec.level, 4);
	ck_assert_uint_eq(f.rec.run, 2);
	ck_assert_uint_eq(f.rec.seq, PV_NONE);
	ck_assert(f.rec.val == 12345.5);
	ck_assert_int_eq(pv_reader_next(f.r, &f.rec), 1);
	ck_assert_int_eq(f.rec.type, PV_REC_OTHER);
	ck_assert_uint_eq(f.rec.nfield, 3);
	ck_assert(str_is(f.rec.raw, "frob\tx\ty"));
	ck_assert_int_eq(pv_reader_next(f.r, &f.rec), 0);
	close_fix(&f);
}
END_TEST

START_TEST(test_absent_fields)
{
	struct fixture f;

	open_str(&f, "section\t-\t-\t-\nstack\t-\t1\t1\t\n");
	ck_assert_int_eq(pv_reader_next(f.r, &f.rec), 1);
	ck_assert_uint_eq(f.rec.role.len, 0);
	ck_assert_uint_eq(f.rec.version.len, 0);
	ck_assert_int_eq(pv_reader_next(f.r, &f.rec), 1);
	ck_assert_uint_eq(f.rec.event.len, 0);
	ck_assert_uint_eq(f.rec.nframe, 0);
	close_fix(&f);
}
END_TEST

/* pv_reader_use(): the types not used come back unchecked, as read. */
START_TEST(test_reader_use)
{
	static const char *const use[] = { "cmp", NULL };
	static const char bad_sample[] =
		"sample\ts\tt\to\tm\tu\thigher\t-\t1\t-\tnan";
	struct fixture f;

	open_str(&f, "section\tbaseline\tv\\tx\te\n"
		 "sample\ts\tt\to\tm\tu\thigher\t-\t1\t-\tnan\n"
		 "cmp\ta\\tb\tc\n"
		 "section\tx\n");
	pv_reader_use(f.r, use);
	ck_assert_int_eq(pv_reader_next(f.r, &f.rec), 1);
	ck_assert_int_eq(f.rec.type, PV_REC_SECTION);
	ck_assert(pv_str_eq(f.rec.version, "v\tx"));	/* unescaped */
	ck_assert_int_eq(pv_reader_next(f.r, &f.rec), 1);
	ck_assert_int_eq(f.rec.type, PV_REC_OTHER);
	ck_assert_uint_eq(f.rec.nfield, 1);
	ck_assert(pv_str_eq(f.rec.field[0], "sample"));
	ck_assert_uint_eq(f.rec.raw.len, strlen(bad_sample));
	ck_assert(memcmp(f.rec.raw.s, bad_sample, f.rec.raw.len) == 0);
	ck_assert_int_eq(pv_reader_next(f.r, &f.rec), 1);
	ck_assert_uint_eq(f.rec.nfield, 3);
	ck_assert(pv_str_eq(f.rec.field[1], "a\tb"));
	/* sections are always checked */
	ck_assert_int_eq(pv_reader_next(f.r, &f.rec), -1);
	close_fix(&f);
}
END_TEST

/*
 * pv_reader_keep_frames(): dstack and path lists unsplit until
 * pv_reader_split_frames(), which splits them as the reader would, or
 * fails on a bad escape; stack records are split as ever.
 */
START_TEST(test_reader_keep_frames)
{
	struct fixture f;

	open_str(&f, "dstack\tcycles\t1\t2\ta;b\\;c;d\n"
		 "stack\tcycles\t1\t2\ta;b\n"
		 "dstack\tcycles\t1\t2\ta;b\\q\n");
	pv_reader_keep_frames(f.r, 1);
	ck_assert_int_eq(pv_reader_next(f.r, &f.rec), 1);
	ck_assert_int_eq(f.rec.type, PV_REC_OTHER);
	ck_assert_uint_eq(f.rec.nframe, 0);
	ck_assert(f.rec.frame == NULL);
	ck_assert(pv_str_eq(f.rec.field[4], "a;b\\;c;d"));
	ck_assert_int_eq(pv_reader_split_frames(f.r, &f.rec), 0);
	ck_assert_uint_eq(f.rec.nframe, 3);
	ck_assert(pv_str_eq(f.rec.frame[0], "a"));
	ck_assert(pv_str_eq(f.rec.frame[1], "b;c"));
	ck_assert(pv_str_eq(f.rec.frame[2], "d"));
	ck_assert_int_eq(pv_reader_next(f.r, &f.rec), 1);
	ck_assert_int_eq(f.rec.type, PV_REC_STACK);
	ck_assert_uint_eq(f.rec.nframe, 2);
	ck_assert_int_eq(pv_reader_split_frames(f.r, &f.rec), 0);
	ck_assert_uint_eq(f.rec.nframe, 2);
	/* the bad escape is found when the list is split */
	ck_assert_int_eq(pv_reader_next(f.r, &f.rec), 1);
	ck_assert_int_eq(pv_reader_split_frames(f.r, &f.rec), -1);
	ck_assert_ptr_nonnull(strstr(pv_reader_error(f.r), "escape"));
	close_fix(&f);
}
END_TEST

/* pv_reader_rewind(): the same records again, line ends restored. */
START_TEST(test_reader_rewind)
{
	struct fixture f;
	int k;

	open_str(&f, "pv-format\t1\r\n\nsection\tbaseline\tv\te\n"
		 "meta\tk\tv\r\nstack\tcycles\t2\t3\ta;b");
	for (k = 0; k < 3; k++) {
		ck_assert_int_eq(pv_reader_next(f.r, &f.rec), 1);
		ck_assert_int_eq(f.rec.type, PV_REC_VERSION);
		ck_assert_int_eq(pv_reader_next(f.r, &f.rec), 1);
		ck_assert_int_eq(f.rec.type, PV_REC_SECTION);
		ck_assert_uint_eq(pv_reader_lineno(f.r), 3);
		ck_assert_int_eq(pv_reader_next(f.r, &f.rec), 1);
		ck_assert(pv_str_eq(f.rec.value, "v"));
		if (k == 1) {
			/* in the middle */
			ck_assert_int_eq(pv_reader_rewind(f.r), 0);
			continue;
		}
		ck_assert_int_eq(pv_reader_next(f.r, &f.rec), 1);
		ck_assert_uint_eq(f.rec.nframe, 2);
		ck_assert(pv_str_eq(f.rec.frame[1], "b"));
		ck_assert_int_eq(pv_reader_next(f.r, &f.rec), 0);
		ck_assert_int_eq(pv_reader_rewind(f.r), 0);
	}
	close_fix(&f);
}
END_TEST

/* Frame names with every special byte survive a write and a read. */
START_TEST(test_escape_round_trip)
{
	static const char *names[] = {
		"a;b", "tab\there", "back\\slash", "new\nline", "cr\rx",
		"\xff\xfe non-UTF-8 \xc3\xa9", "trailing\\", ";", "", "\\;\\t",
	};
	size_t n = sizeof(names) / sizeof(names[0]), i;
	struct pv_str fr[sizeof(names) / sizeof(names[0]) + 1];
	struct pv_str ev = { "ev\tent;x", 8 };
	char *buf = NULL;
	size_t blen = 0;
	FILE *mem = open_memstream(&buf, &blen);
	struct fixture f;
	struct pv_strbuf sb = PV_STRBUF_INIT;
	struct pv_rec_stack stack;

	for (i = 0; i < n; i++) {
		fr[i].s = names[i];
		fr[i].len = strlen(names[i]);
	}
	/* a NUL inside a name */
	fr[n].s = "nul\0inside";
	fr[n].len = 10;
	pv_write_version(mem);
	pv_write_kv(mem, "meta", "key\twith\\tab", "value\nline");
	stack.event = ev;
	stack.samples = 7;
	stack.period = 9;
	stack.frame = fr;
	stack.nframe = n + 1;
	pv_rec_stack_write(&sb, &stack);
	fwrite(sb.buf, 1, sb.len, mem);
	pv_strbuf_release(&sb);
	fclose(mem);
	/* the written line has exactly the record's four TABs */
	f.r = reader_on(buf, blen, f.path);
	ck_assert_int_eq(pv_reader_next(f.r, &f.rec), 1);
	ck_assert_int_eq(pv_reader_next(f.r, &f.rec), 1);
	ck_assert(str_is(f.rec.key, "key\twith\\tab"));
	ck_assert(str_is(f.rec.value, "value\nline"));
	ck_assert_int_eq(pv_reader_next(f.r, &f.rec), 1);
	ck_assert_int_eq(f.rec.type, PV_REC_STACK);
	ck_assert_uint_eq(f.rec.nfield, 5);
	ck_assert(str_is(f.rec.event, "ev\tent;x"));
	ck_assert_uint_eq(f.rec.nframe, n + 1);
	for (i = 0; i < n; i++)
		ck_assert_msg(str_is(f.rec.frame[i], names[i]),
			      "frame %zu differs", i);
	ck_assert_uint_eq(f.rec.frame[n].len, 10);
	ck_assert(memcmp(f.rec.frame[n].s, "nul\0inside", 10) == 0);
	ck_assert_int_eq(pv_reader_next(f.r, &f.rec), 0);
	close_fix(&f);
	free(buf);
}
END_TEST

START_TEST(test_escape_form)
{
	struct pv_strbuf sb = PV_STRBUF_INIT;

	pv_escape(&sb, "a;b\tc\\d", 7, 1);
	ck_assert_str_eq(sb.buf, "a\\;b\\tc\\\\d");
	pv_strbuf_reset(&sb);
	pv_escape(&sb, "a;b", 3, 0);
	ck_assert_str_eq(sb.buf, "a;b");
	pv_strbuf_release(&sb);
}
END_TEST

/*
 * pv_escape() against a byte-at-a-time escaper, on strings of every
 * length up to 70 whose bytes are mostly plain, each special byte at
 * every place (its SSE2 blocks of sixteen and their tails).
 */
static void
escape_ref(struct pv_strbuf *sb, const char *s, size_t len, int frame)
{
	size_t i;

	for (i = 0; i < len; i++) {
		switch (s[i]) {
		case '\t': pv_strbuf_addstr(sb, "\\t"); break;
		case '\n': pv_strbuf_addstr(sb, "\\n"); break;
		case '\r': pv_strbuf_addstr(sb, "\\r"); break;
		case '\0': pv_strbuf_addstr(sb, "\\0"); break;
		case '\\': pv_strbuf_addstr(sb, "\\\\"); break;
		case ';':
			pv_strbuf_addstr(sb, frame ? "\\;" : ";");
			break;
		default: pv_strbuf_addch(sb, s[i]); break;
		}
	}
}

START_TEST(test_escape_spans)
{
	static const char special[] = { '\t', '\n', '\r', '\0', '\\', ';' };
	struct pv_strbuf got = PV_STRBUF_INIT, want = PV_STRBUF_INIT;
	char s[70];
	size_t len, at, k;
	int frame;

	for (len = 0; len <= sizeof(s); len++)
		for (at = 0; at <= len; at++)
			for (k = 0; k < sizeof(special); k++)
				for (frame = 0; frame < 2; frame++) {
					size_t i;

					for (i = 0; i < len; i++)
						s[i] = (char)('a' + (i * 7 + k) % 26);
					if (at < len)	/* at == len: all plain */
						s[at] = special[k];
					if (len > 40)	/* and a second one */
						s[len - 3] = special[(k + 1) %
								     sizeof(special)];
					pv_strbuf_reset(&got);
					pv_strbuf_reset(&want);
					pv_escape(&got, s, len, frame);
					escape_ref(&want, s, len, frame);
					ck_assert_uint_eq(got.len, want.len);
					ck_assert(memcmp(got.buf, want.buf,
							 got.len) == 0);
				}
	pv_strbuf_release(&got);
	pv_strbuf_release(&want);
}
END_TEST

/* A frame list of one megabyte, and a line longer than the buffer. */
START_TEST(test_long_line)
{
	size_t nfr = 100000, i;
	struct pv_strbuf sb = PV_STRBUF_INIT;
	struct fixture f;

	pv_strbuf_addstr(&sb, "stack\tcpu-clock\t1\t1\t");
	for (i = 0; i < nfr; i++)
		pv_strbuf_addf(&sb, "%sframe%04zu", i ? ";" : "", i % 10000);
	pv_strbuf_addch(&sb, '\n');
	pv_strbuf_addstr(&sb, "a;b 2\n");
	ck_assert_uint_gt(sb.len, 1000000);
	f.r = reader_on(sb.buf, sb.len, f.path);
	ck_assert_int_eq(pv_reader_next(f.r, &f.rec), 1);
	ck_assert_uint_eq(f.rec.nframe, nfr);
	ck_assert(str_is(f.rec.frame[nfr - 1], "frame9999"));
	ck_assert_int_eq(pv_reader_next(f.r, &f.rec), 1);
	ck_assert_int_eq(f.rec.folded, 1);
	close_fix(&f);
	pv_strbuf_release(&sb);
}
END_TEST

START_TEST(test_crlf)
{
	struct fixture f;

	open_str(&f, "meta\tk\tv\r\na;b 3\r\n");
	ck_assert_int_eq(pv_reader_next(f.r, &f.rec), 1);
	ck_assert(str_is(f.rec.value, "v"));
	ck_assert_int_eq(pv_reader_next(f.r, &f.rec), 1);
	ck_assert_uint_eq(f.rec.period, 3);
	ck_assert(str_is(f.rec.frame[1], "b"));
	close_fix(&f);
}
END_TEST

START_TEST(test_folded)
{
	struct fixture f;

	open_str(&f, "# comment\n\nmain;foo bar;baz 12\nx;y 5 7\nsolo 1\n");
	ck_assert_int_eq(pv_reader_next(f.r, &f.rec), 1);
	ck_assert_int_eq(f.rec.type, PV_REC_STACK);
	ck_assert_int_eq(f.rec.folded, 1);
	ck_assert_uint_eq(f.rec.nframe, 3);
	ck_assert(str_is(f.rec.frame[1], "foo bar"));
	ck_assert_uint_eq(f.rec.period, 12);
	ck_assert_uint_eq(pv_reader_lineno(f.r), 3);
	ck_assert_int_eq(pv_reader_next(f.r, &f.rec), 1);
	ck_assert_int_eq(f.rec.folded, 2);
	ck_assert_uint_eq(f.rec.period, 5);
	ck_assert_uint_eq(f.rec.period2, 7);
	ck_assert_uint_eq(f.rec.nframe, 2);
	ck_assert_int_eq(pv_reader_next(f.r, &f.rec), 1);
	ck_assert_uint_eq(f.rec.nframe, 1);
	ck_assert(str_is(f.rec.frame[0], "solo"));
	close_fix(&f);
}
END_TEST

/* Each bad line gives -1, the line number and a message naming the fault. */
static void
expect_error(const char *text, unsigned long line, const char *msg)
{
	struct fixture f;
	int rc;

	open_str(&f, text);
	while ((rc = pv_reader_next(f.r, &f.rec)) > 0)
		;
	ck_assert_int_eq(rc, -1);
	ck_assert_uint_eq(pv_reader_lineno(f.r), line);
	ck_assert_msg(strstr(pv_reader_error(f.r), msg) != NULL,
		      "error '%s' lacks '%s'", pv_reader_error(f.r), msg);
	/* errors stick */
	ck_assert_int_eq(pv_reader_next(f.r, &f.rec), -1);
	close_fix(&f);
}

START_TEST(test_errors)
{
	expect_error("pv-format\t1\nsection\tbaseline\tv1\n", 2,
		     "has 2 fields, expected 3");
	expect_error("meta\tkey\n", 1, "has 1 fields, expected 2");
	expect_error("stack\tev\tx\t1\ta\n", 1, "sample count 'x'");
	expect_error("stack\tev\t1\t18446744073709551616\ta\n", 1,
		     "period '18446744073709551616'");
	expect_error("stack\tev\t1\t1\ta\\qb\n", 1, "unknown escape");
	expect_error("meta\tk\tv\\\n", 1, "backslash at the end");
	expect_error("pv-format\t2\n", 1, "version 2 is not supported");
	expect_error("a;b;c\n", 1, "not a pv record or a folded stack");
	expect_error("ok 1\na;b x\n", 2, "count 'x'");
	expect_error("sample\ts\tt\to\tm\tu\tup\t1\t1\t-\t1\n", 1,
		     "direction 'up'");
	expect_error("sample\ts\tt\to\tm\tu\thigher\t1\t1\t-\tnan\n", 1,
		     "value 'nan' is not a finite number");
	expect_error("sample\ts\tt\to\tm\tu\thigher\t1\t1\t-\tinf\n", 1,
		     "not a finite number");
	expect_error("sample\ts\tt\to\tm\tu\thigher\t1\t1\t-\t1e999\n", 1,
		     "not a finite number");
	expect_error("sample\ts\tt\to\tm\tu\thigher\t-\t1\t-\tabc\n", 1,
		     "value 'abc'");
	expect_error("sample\ts\tt\to\tm\tu\thigher\t1\t-\t-\t1\n", 1,
		     "run '-'");
}
END_TEST

START_TEST(test_nul_byte)
{
	struct fixture f;
	static const char text[] = "a;b 1\nc\0d 2\n";

	f.r = reader_on(text, sizeof(text) - 1, f.path);
	ck_assert_int_eq(pv_reader_next(f.r, &f.rec), 1);
	ck_assert_int_eq(pv_reader_next(f.r, &f.rec), -1);
	ck_assert_uint_eq(pv_reader_lineno(f.r), 2);
	ck_assert(strstr(pv_reader_error(f.r), "NUL byte") != NULL);
	close_fix(&f);
}
END_TEST

START_TEST(test_sample_round_trip)
{
	struct fixture f;
	char *buf = NULL;
	size_t blen = 0;
	FILE *mem;
	static const char line[] =
		"sample\tsysbench\tcpu\tevents\tlatency-p95\tms\tlower\t-\t3\t2"
		"\t0.10000000000000001\n";

	open_str(&f, line);
	ck_assert_int_eq(pv_reader_next(f.r, &f.rec), 1);
	ck_assert(f.rec.val == 0.1);
	mem = open_memstream(&buf, &blen);
	pv_write_sample(mem, &f.rec);
	fclose(mem);
	/* the shortest form that reads back the same */
	ck_assert_str_eq(buf, "sample\tsysbench\tcpu\tevents\tlatency-p95\tms"
			 "\tlower\t-\t3\t2\t0.1\n");
	free(buf);
	close_fix(&f);
}
END_TEST

/*
 * Samples of one key in a row: the reader takes the key from the previous
 * sample's bytes; every field, the escapes after RUN and the errors must
 * come out as when each line is parsed alone.
 */
START_TEST(test_sample_same_key)
{
	struct fixture f;
	static const char text[] =
		"sample\ts\tt\to\tm\tu\tlower\t4\t1\t-\t1.5\n"
		"sample\ts\tt\to\tm\tu\tlower\t4\t2\t7\t2.5\n"
		"section\ttarget\t-\t-\n"
		"sample\ts\tt\to\tm\tu\tlower\t4\t3\t-\t3\n"
		"sample\ts\tt\to\tm\tu\tlower\t5\t1\t-\t4\n"
		"sample\ts\tt\to\tm\tu\tlower\t5\t1\t-\t5\textra\n"
		"sample\ts\tt\to\tm\tu\tlower\t5\t1\t-\t6\n";
	static const struct { uint64_t level, run, seq; double val; } want[] = {
		{ 4, 1, PV_NONE, 1.5 }, { 4, 2, 7, 2.5 }, { 0, 0, 0, 0 },
		{ 4, 3, PV_NONE, 3 }, { 5, 1, PV_NONE, 4 },
	};
	size_t i;

	open_str(&f, text);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		ck_assert_int_eq(pv_reader_next(f.r, &f.rec), 1);
		if (i == 2) {
			ck_assert_int_eq(f.rec.type, PV_REC_SECTION);
			continue;
		}
		ck_assert_int_eq(f.rec.type, PV_REC_SAMPLE);
		ck_assert_uint_eq(f.rec.nfield, 11);
		ck_assert(str_is(f.rec.suite, "s") && str_is(f.rec.test, "t"));
		ck_assert(str_is(f.rec.operation, "o"));
		ck_assert(str_is(f.rec.metric, "m") && str_is(f.rec.unit, "u"));
		ck_assert(str_is(f.rec.field[6], "lower"));
		ck_assert_int_eq(f.rec.direction, PV_LOWER_BETTER);
		ck_assert_uint_eq(f.rec.level, want[i].level);
		ck_assert_uint_eq(f.rec.run, want[i].run);
		ck_assert_uint_eq(f.rec.seq, want[i].seq);
		ck_assert(f.rec.val == want[i].val);
	}
	ck_assert_int_eq(pv_reader_next(f.r, &f.rec), -1);
	ck_assert_uint_eq(pv_reader_lineno(f.r), 6);
	ck_assert(strstr(pv_reader_error(f.r), "has 11 fields, expected 10"));
	close_fix(&f);

	/* an escape after RUN, then the same key, then errors after it */
	open_str(&f, "sample\ta\tb\tc\td\te\thigher\t-\t1\t-\t1\n"
		 "sample\ta\tb\tc\td\te\thigher\t-\t2\\x\t-\t1\n");
	ck_assert_int_eq(pv_reader_next(f.r, &f.rec), 1);
	ck_assert_int_eq(pv_reader_next(f.r, &f.rec), -1);
	ck_assert(strstr(pv_reader_error(f.r), "unknown escape"));
	close_fix(&f);
	expect_error("sample\ta\tb\tc\td\te\thigher\t-\t1\t-\t1\n"
		     "sample\ta\tb\tc\td\te\thigher\t-\t2\t-\tnan\n", 2,
		     "value 'nan' is not a finite number");
	expect_error("sample\ta\tb\tc\td\te\thigher\t-\t1\t-\t1\n"
		     "sample\ta\tb\tc\td\te\thigher\t-\tx\t-\t1\n", 2,
		     "run 'x'");
	expect_error("sample\ta\tb\tc\td\te\thigher\t-\t1\t-\t1\n"
		     "sample\ta\tb\tc\td\te\thigher\t-\t2\t-\n", 2,
		     "has 9 fields, expected 10");
}
END_TEST

START_TEST(test_parse_numbers)
{
	uint64_t u;
	double d;

	ck_assert_int_eq(pv_parse_u64("18446744073709551615", 20, &u), 0);
	ck_assert(u == UINT64_MAX);
	ck_assert_int_eq(pv_parse_u64("18446744073709551616", 20, &u), -1);
	ck_assert_int_eq(pv_parse_u64("99999999999999999999", 20, &u), -1);
	ck_assert_int_eq(pv_parse_u64("1844674407370955161x", 20, &u), -1);
	ck_assert_int_eq(pv_parse_u64("9999999999999999999", 19, &u), 0);
	ck_assert(u == 9999999999999999999ULL);
	ck_assert_int_eq(pv_parse_u64("00000000000000000042", 20, &u), 0);
	ck_assert(u == 42);
	ck_assert_int_eq(pv_parse_u64("000000000000000000042", 21, &u), -1);
	ck_assert_int_eq(pv_parse_u64("12 ", 3, &u), -1);
	ck_assert_int_eq(pv_parse_u64("12345678", 8, &u), 0);
	ck_assert(u == 12345678);
	ck_assert_int_eq(pv_parse_u64("12345678901234567890", 20, &u), 0);
	ck_assert(u == 12345678901234567890ULL);
	ck_assert_int_eq(pv_parse_u64("1234:678", 8, &u), -1);
	ck_assert_int_eq(pv_parse_u64("1234/678", 8, &u), -1);
	ck_assert_int_eq(pv_parse_u64("123456789012345\x7f", 16, &u), -1);
	ck_assert_int_eq(pv_parse_u64("-1", 2, &u), -1);
	ck_assert_int_eq(pv_parse_u64("", 0, &u), -1);
	ck_assert_int_eq(pv_parse_u64("+1", 2, &u), -1);
	ck_assert_int_eq(pv_parse_double("1e-320", 6, &d), 0);
	ck_assert(d > 0);			/* a subnormal, kept */
	ck_assert_int_eq(pv_parse_double("4.9e-324", 8, &d), 0);
	ck_assert(d > 0);
	/* nonzero, but 0 as a double: refused, and said why */
	ck_assert_int_eq(pv_parse_double("1e-400", 6, &d), -1);
	ck_assert_int_eq(pv_parse_double("-2e-330", 7, &d), -1);
	ck_assert_str_eq(pv_double_fault("1e-400", 6), "a number a double "
			 "holds (it is not 0, and would read as 0)");
	ck_assert_int_eq(pv_parse_double("0e-400", 6, &d), 0);
	ck_assert(d == 0);
	ck_assert_int_eq(pv_parse_double("0.000", 5, &d), 0);
	ck_assert_int_eq(pv_parse_double("1e400", 5, &d), -1);
	ck_assert_str_eq(pv_double_fault("1e400", 5), "a finite number");
	ck_assert_int_eq(pv_parse_double(" 1", 2, &d), -1);
	ck_assert_int_eq(pv_parse_double("1x", 2, &d), -1);
	ck_assert_int_eq(pv_parse_double("-2.5", 4, &d), 0);
	ck_assert(d == -2.5);
}
END_TEST

/* The fast path of pv_parse_double() gives strtod's bits, or refuses. */
static void
same_as_strtod(const char *s)
{
	double d, ref;
	char *end;
	int rc;

	rc = pv_parse_double(s, strlen(s), &d);
	ref = strtod(s, &end);
	if (*end != '\0' || !isfinite(ref) || s[0] == ' ') {
		ck_assert_msg(rc == -1, "'%s' accepted", s);
		return;
	}
	ck_assert_msg(rc == 0, "'%s' refused", s);
	ck_assert_msg(memcmp(&d, &ref, sizeof(d)) == 0,
		      "'%s': %.17g, strtod %.17g", s, d, ref);
}

START_TEST(test_parse_double_exact)
{
	static const char *const fixed[] = {
		"0", "-0", "+0", "0.0", "-0.000", "1.", ".5", "-.5", ".", "-",
		"+", "e5", "1e", "1e+", "1e-", "1.5e3", "1.5E-3", "00012.50",
		"123456789012345", "1234567890123456", "0.1", "0.3",
		"9007199254740993", "1e22", "1e23", "1e-22", "1e-23",
		"4.35", "123456.789e-5", "1e-320", "2.2250738585072014e-308",
		"1.7976931348623157e308", "1e309", "nan", "inf", "-infinity",
		"0x1p3", "1_0", "1.2.3", "3.14159265358979", "0.000000000001",
		"999999999999999e22", "999999999999999e-22", "5e-324"
	};
	char buf[64];
	size_t i;

	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		same_as_strtod(fixed[i]);
	srand(7);
	for (i = 0; i < 200000; i++) {
		int digits = rand() % 18 + 1, point = rand() % (digits + 1);
		int e = rand() % 60 - 30, k, n = 0;

		if (rand() % 2)
			buf[n++] = '-';
		for (k = 0; k < digits; k++) {
			if (k == point && rand() % 2)
				buf[n++] = '.';
			buf[n++] = (char)('0' + rand() % 10);
		}
		if (rand() % 3 == 0)
			n += snprintf(buf + n, sizeof(buf) - (size_t)n, "e%d", e);
		buf[n] = '\0';
		same_as_strtod(buf);
	}
}
END_TEST

/*
 * The tokenizer against the format's rules written plainly: random lines
 * of TABs, ';'s and escapes, across the reader's 16- and 64-byte blocks,
 * split here byte by byte and compared field by field, frame by frame.
 */
static unsigned long rnd_state = 12345;

static unsigned
rnd(unsigned n)
{
	rnd_state = rnd_state * 6364136223846793005UL + 1442695040888963407UL;
	return (unsigned)(rnd_state >> 33) % n;
}

/* A field of random bytes and escapes, ';' only in a frame list. */
static void
rnd_field(struct pv_strbuf *sb, int frames)
{
	static const char plain[] = "ab; -x";
	static const char esc[] = "\\tnr0;";
	unsigned n = rnd(4) == 0 ? rnd(140) : rnd(24), i;

	for (i = 0; i < n; i++) {
		unsigned k = rnd(10);

		if (k == 0 && rnd(3) == 0) {
			pv_strbuf_addch(sb, '\\');
			pv_strbuf_addch(sb, esc[rnd(6)]);
		} else if (k < 3 && frames) {
			pv_strbuf_addch(sb, ';');
		} else {
			pv_strbuf_addch(sb, plain[rnd(sizeof(plain) - 1)]);
		}
	}
}

/* Unescape s[0..len) into sb, the rules of pv-format(5) byte by byte. */
static void
plain_unescape(struct pv_strbuf *sb, const char *s, size_t len)
{
	size_t i;

	pv_strbuf_reset(sb);
	for (i = 0; i < len; i++) {
		char c = s[i];

		if (c == '\\') {
			c = s[++i];
			c = c == 't' ? '\t' : c == 'n' ? '\n' : c == 'r' ? '\r' :
				c == '0' ? '\0' : c;
		}
		pv_strbuf_addch(sb, c);
	}
}

static int
same_str(struct pv_str a, const struct pv_strbuf *b)
{
	return a.len == b->len && memcmp(a.s, b->buf, a.len) == 0;
}

/* Check rec against line, split by hand: its frame list is field fl. */
static void
check_split(const struct pv_record *rec, const char *line, size_t fl)
{
	struct pv_strbuf sb = PV_STRBUF_INIT;
	const char *f[32];
	size_t flen[32], n = 0, i, start = 0, nfr = 0;

	for (i = 0;; i++) {
		if (line[i] == '\t' || line[i] == '\0') {
			f[n] = line + start;
			flen[n++] = i - start;
			start = i + 1;
		}
		if (line[i] == '\0')
			break;
	}
	ck_assert_uint_eq(rec->nfield, n);
	if (fl == 15 && n != 16)
		fl = 0;
	for (i = 1; i < n; i++) {
		if (i == fl) {
			ck_assert(rec->field[i].len == flen[i] &&
				  memcmp(rec->field[i].s, f[i], flen[i]) == 0);
			continue;
		}
		plain_unescape(&sb, f[i], flen[i]);
		ck_assert_msg(same_str(rec->field[i], &sb), "field %zu of '%s'",
			      i, line);
	}
	if (fl == 0 || n != fl + 1) {
		ck_assert_uint_eq(rec->nframe, 0);
		pv_strbuf_release(&sb);
		return;
	}
	for (i = 0, start = 0; flen[fl] > 0 && i <= flen[fl]; i++) {
		if (i < flen[fl] && f[fl][i] == '\\') {
			i++;
			continue;
		}
		if (i < flen[fl] && f[fl][i] != ';')
			continue;
		ck_assert_uint_gt(rec->nframe, nfr);
		plain_unescape(&sb, f[fl] + start, i - start);
		ck_assert_msg(same_str(rec->frame[nfr], &sb), "frame %zu of '%s'",
			      nfr, line);
		nfr++;
		start = i + 1;
	}
	ck_assert_uint_eq(rec->nframe, nfr);
	pv_strbuf_release(&sb);
}

START_TEST(test_tokenizer_random)
{
	static const char *const type[] = { "stack", "dstack", "path", "frob" };
	static const size_t frames_at[] = { 4, 4, 15, 0 };
	struct pv_strbuf text = PV_STRBUF_INIT, line = PV_STRBUF_INIT;
	size_t off[600], t[600], k, nline = 600;
	struct fixture f;

	for (k = 0; k < nline; k++) {
		unsigned nf, i;

		off[k] = text.len;
		t[k] = rnd(4);
		nf = t[k] == 0 ? 5 : t[k] == 1 ? 4 + rnd(3) :
			t[k] == 2 ? 14 + rnd(4) : 1 + rnd(20);
		pv_strbuf_addstr(&text, type[t[k]]);
		for (i = 1; i < nf; i++) {
			pv_strbuf_addch(&text, '\t');
			if (t[k] == 0 && (i == 2 || i == 3))
				pv_strbuf_addf(&text, "%u", rnd(100000));
			else
				rnd_field(&text, i == frames_at[t[k]]);
		}
		pv_strbuf_addch(&text, '\n');
	}
	f.r = reader_on(text.buf, text.len, f.path);
	for (k = 0; k < nline; k++) {
		size_t end = k + 1 < nline ? off[k + 1] - 1 : text.len - 1;

		pv_strbuf_reset(&line);
		pv_strbuf_add(&line, text.buf + off[k], end - off[k]);
		ck_assert_int_eq(pv_reader_next(f.r, &f.rec), 1);
		check_split(&f.rec, line.buf, frames_at[t[k]]);
	}
	ck_assert_int_eq(pv_reader_next(f.r, &f.rec), 0);
	close_fix(&f);
	pv_strbuf_release(&text);
	pv_strbuf_release(&line);
}
END_TEST

/* Whole numbers of every length, and with each byte spoiled, as strtoull. */
START_TEST(test_parse_u64_lengths)
{
	static const char bad[] = " /:+-a\x80\xb0";
	char buf[24];
	size_t len, i, k;
	uint64_t u;

	for (len = 1; len <= 20; len++) {
		for (i = 0; i < len; i++)
			buf[i] = (char)('0' + (rnd(10) + i) % 10);
		if (len == 20)
			buf[0] = '1';
		buf[len] = '\0';
		ck_assert_int_eq(pv_parse_u64(buf, len, &u), 0);
		ck_assert_msg(u == strtoull(buf, NULL, 10), "'%s'", buf);
		for (i = 0; i < len; i++) {
			for (k = 0; k < sizeof(bad) - 1; k++) {
				char c = buf[i];

				buf[i] = bad[k];
				ck_assert_msg(pv_parse_u64(buf, len, &u) == -1,
					      "'%s'", buf);
				buf[i] = c;
			}
		}
	}
}
END_TEST

/* Folded lines of every length around the blocks: frames split at ';'. */
START_TEST(test_folded_lengths)
{
	struct pv_strbuf text = PV_STRBUF_INIT;
	struct fixture f;
	size_t len, i;

	for (len = 1; len <= 140; len++) {
		for (i = 0; i < len; i++)
			pv_strbuf_addch(&text, i % 7 == 3 ? ';' : i % 11 == 5 ?
					'\\' : i % 13 == 6 && i + 1 < len ? '\t' :
					'a');
		pv_strbuf_addstr(&text, " 1\n");
	}
	f.r = reader_on(text.buf, text.len, f.path);
	for (len = 1; len <= 140; len++) {
		size_t nfr = 1, at = 0, n = 0;

		ck_assert_int_eq(pv_reader_next(f.r, &f.rec), 1);
		ck_assert_int_eq(f.rec.folded, 1);
		for (i = 0; i < len; i++)
			nfr += i % 7 == 3;
		ck_assert_uint_eq(f.rec.nframe, nfr);
		for (i = 0; i < f.rec.nframe; i++) {
			ck_assert(f.rec.frame[i].s == f.rec.raw.s + at);
			at += f.rec.frame[i].len + 1;
			n += f.rec.frame[i].len;
		}
		ck_assert_uint_eq(n + nfr - 1, len);
	}
	close_fix(&f);
	pv_strbuf_release(&text);
}
END_TEST

static Suite *
record_suite(void)
{
	Suite *s = suite_create("record");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_every_type);
	tcase_add_test(tc, test_parse_double_exact);
	tcase_add_test(tc, test_reader_use);
	tcase_add_test(tc, test_reader_keep_frames);
	tcase_add_test(tc, test_reader_rewind);
	tcase_add_test(tc, test_absent_fields);
	tcase_add_test(tc, test_escape_round_trip);
	tcase_add_test(tc, test_escape_form);
	tcase_add_test(tc, test_escape_spans);
	tcase_add_test(tc, test_long_line);
	tcase_add_test(tc, test_crlf);
	tcase_add_test(tc, test_folded);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_nul_byte);
	tcase_add_test(tc, test_sample_round_trip);
	tcase_add_test(tc, test_sample_same_key);
	tcase_add_test(tc, test_parse_numbers);
	tcase_add_test(tc, test_tokenizer_random);
	tcase_add_test(tc, test_folded_lengths);
	tcase_add_test(tc, test_parse_u64_lengths);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(record_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
