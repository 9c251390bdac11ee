/*
 * check_rec_section: the pv-format, section, meta and env records written
 * (exact bytes, escapes, '-' for an absent section field) and read back by
 * the reader, their parser; and record.c's stream writers, which write
 * what these format.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rec_check.h"
#include "rec_section.h"

START_TEST(test_version)
{
	struct pv_strbuf sb = PV_STRBUF_INIT;
	struct rec_back b;

	pv_rec_pv_format_write(&sb);
	ck_assert_str_eq(sb.buf, "pv-format\t1\n");
	read_back(&b, &sb);
	ck_assert_int_eq(b.rec.type, PV_REC_VERSION);
	read_done(&b);
	pv_strbuf_release(&sb);
}
END_TEST

START_TEST(test_section)
{
	struct pv_strbuf sb = PV_STRBUF_INIT;
	struct rec_back b;

	pv_rec_section_write(&sb, S("baseline"), S("v6.12\t1"), S(""));
	ck_assert_str_eq(sb.buf, "section\tbaseline\tv6.12\\t1\t-\n");
	read_back(&b, &sb);
	ck_assert_int_eq(b.rec.type, PV_REC_SECTION);
	ck_assert(str_is(b.rec.role, "baseline"));
	ck_assert(str_is(b.rec.version, "v6.12\t1"));
	ck_assert_uint_eq(b.rec.experiment.len, 0);
	read_done(&b);
	pv_strbuf_reset(&sb);
	pv_rec_section_write(&sb, S(""), S(""), S("e;1"));
	ck_assert_str_eq(sb.buf, "section\t-\t-\te;1\n");
	pv_strbuf_release(&sb);
}
END_TEST

START_TEST(test_kv)
{
	struct pv_strbuf sb = PV_STRBUF_INIT;
	struct rec_back b;

	pv_rec_meta_write(&sb, S("param.threads"), S("4\\8"));
	pv_rec_env_write(&sb, S("cmdline"), S(""));
	ck_assert_str_eq(sb.buf, "meta\tparam.threads\t4\\\\8\n"
			 "env\tcmdline\t\n");
	read_back(&b, &sb);
	ck_assert_int_eq(b.rec.type, PV_REC_META);
	ck_assert(str_is(b.rec.key, "param.threads"));
	ck_assert(str_is(b.rec.value, "4\\8"));
	ck_assert_int_eq(pv_reader_next(b.r, &b.rec), 1);
	ck_assert_int_eq(b.rec.type, PV_REC_ENV);
	ck_assert(str_is(b.rec.key, "cmdline"));
	ck_assert_uint_eq(b.rec.value.len, 0);
	read_done(&b);
	pv_strbuf_release(&sb);
}
END_TEST

/* the stream writers of record.h write what the codecs format */
START_TEST(test_stream)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	pv_write_version(f);
	pv_write_section(f, "target", NULL, "x");
	pv_write_kv(f, "meta", "k", "v\n");
	pv_write_kv(f, "env", "k", "v");
	pv_write_kv(f, "other", "k\t", "v");
	fclose(f);
	ck_assert_str_eq(buf, "pv-format\t1\nsection\ttarget\t-\tx\n"
			 "meta\tk\tv\\n\nenv\tk\tv\nother\tk\\t\tv\n");
	free(buf);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("rec_section");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_version);
	tcase_add_test(tc, test_section);
	tcase_add_test(tc, test_kv);
	tcase_add_test(tc, test_stream);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
