/*
 * rec_check: what the codec suites (tests/unit/check_rec_*.c) share: a
 * record a codec wrote, read back through the real reader (record.h), so
 * that its escapes are undone as a tool's input would have them undone,
 * and the record a parser is given is the one a tool gives it.
 */
#ifndef PV_REC_CHECK_H
#define PV_REC_CHECK_H

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record.h"
#include "strbuf.h"

struct rec_back {
	char path[64];
	struct pv_reader *r;
	struct pv_record rec;
};

/* Open a reader on text[0..len) and read its first record into b->rec. */
static inline void
read_back_text(struct rec_back *b, const char *text, size_t len)
{
	int fd;

	strcpy(b->path, "/tmp/check_rec.XXXXXX");
	fd = mkstemp(b->path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, len), (ssize_t)len);
	close(fd);
	b->r = pv_reader_open(b->path);
	ck_assert_ptr_nonnull(b->r);
	ck_assert_int_eq(pv_reader_next(b->r, &b->rec), 1);
}

static inline void
read_back_str(struct rec_back *b, const char *text)
{
	read_back_text(b, text, strlen(text));
}

static inline void
read_back(struct rec_back *b, const struct pv_strbuf *sb)
{
	read_back_text(b, sb->buf, sb->len);
}

static inline void
read_done(struct rec_back *b)
{
	pv_reader_close(b->r);
	unlink(b->path);
}

static inline struct pv_str
S(const char *s)
{
	struct pv_str r = { s, strlen(s) };

	return r;
}

static inline int
str_is(struct pv_str s, const char *want)
{
	return s.len == strlen(want) && memcmp(s.s, want, s.len) == 0;
}

/* Run one suite of tests, as every check_*.c does. */
static inline int
run_suite(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

#endif
