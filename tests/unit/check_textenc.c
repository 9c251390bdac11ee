/*
 * Unit tests of lib/textenc: the UTF-8 check at its edges, XML and JSON
 * escaping, and what becomes U+FFFD.
 */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"
#include "textenc.h"

#define U(s) ((const unsigned char *)(s))

START_TEST(utf8_len)
{
	ck_assert_uint_eq(pv_textenc_utf8_len(U("a"), 1), 1);
	ck_assert_uint_eq(pv_textenc_utf8_len(U("\xc3\xa9"), 2), 2);
	ck_assert_uint_eq(pv_textenc_utf8_len(U("\xe2\x82\xac"), 3), 3);
	ck_assert_uint_eq(pv_textenc_utf8_len(U("\xf0\x9f\x94\xa5"), 4), 4);
	ck_assert_uint_eq(pv_textenc_utf8_len(U("\xf4\x8f\xbf\xbf"), 4), 4);
	/* a cut character, a lone continuation, overlong forms */
	ck_assert_uint_eq(pv_textenc_utf8_len(U("\xe2\x82"), 2), 0);
	ck_assert_uint_eq(pv_textenc_utf8_len(U("\x80"), 1), 0);
	ck_assert_uint_eq(pv_textenc_utf8_len(U("\xc0\xaf"), 2), 0);
	ck_assert_uint_eq(pv_textenc_utf8_len(U("\xe0\x80\xaf"), 3), 0);
	ck_assert_uint_eq(pv_textenc_utf8_len(U("\xf0\x80\x80\xaf"), 4), 0);
	/* a surrogate, past U+10FFFF, the noncharacters U+FFFE, U+FFFF */
	ck_assert_uint_eq(pv_textenc_utf8_len(U("\xed\xa0\x80"), 3), 0);
	ck_assert_uint_eq(pv_textenc_utf8_len(U("\xf4\x90\x80\x80"), 4), 0);
	ck_assert_uint_eq(pv_textenc_utf8_len(U("\xef\xbf\xbe"), 3), 0);
	ck_assert_uint_eq(pv_textenc_utf8_len(U("\xef\xbf\xbf"), 3), 0);
	ck_assert_uint_eq(pv_textenc_utf8_len(U("\xff"), 1), 0);
}
END_TEST

START_TEST(xml)
{
	struct pv_strbuf sb = PV_STRBUF_INIT;
	static const char in[] = "a<b>&\"'\tx\ny\rz\x01\x1f\x7f\xff\xc3\xa9";

	pv_textenc_xml(&sb, in, sizeof(in) - 1);
	ck_assert_str_eq(sb.buf, "a&lt;b&gt;&amp;&quot;&apos;\tx\ny\rz"
			 "\xef\xbf\xbd\xef\xbf\xbd\x7f\xef\xbf\xbd\xc3\xa9");
	pv_strbuf_reset(&sb);
	/* a NUL byte (a name may hold one: \0 in pv-format) */
	pv_textenc_xml(&sb, "a\0b", 3);
	ck_assert_uint_eq(sb.len, 5);
	ck_assert(memcmp(sb.buf, "a\xef\xbf\xbd" "b", 5) == 0);
	/* never a character reference */
	ck_assert_ptr_null(strstr(sb.buf, "&#"));
	pv_strbuf_release(&sb);
}
END_TEST

START_TEST(json)
{
	struct pv_strbuf sb = PV_STRBUF_INIT;
	static const char in[] = "\"\\/\t\n\x01\x7f<\xe2\x82\xac\xe2\x82";

	pv_textenc_json(&sb, in, sizeof(in) - 1);
	ck_assert_str_eq(sb.buf, "\\\"\\\\/\\u0009\\u000a\\u0001\\u007f<"
			 "\xe2\x82\xac\xef\xbf\xbd\xef\xbf\xbd");
	pv_strbuf_release(&sb);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("textenc");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, utf8_len);
	tcase_add_test(tc, xml);
	tcase_add_test(tc, json);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
