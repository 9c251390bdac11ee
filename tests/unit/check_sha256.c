/*
 * check_sha256: the SHA-256 digest and its base64 form against the
 * FIPS 180-4 examples and the padding boundaries.
 */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "sha256.h"
#include "strbuf.h"

static void
expect_b64(const char *in, size_t len, const char *want)
{
	struct pv_strbuf sb = PV_STRBUF_INIT;

	pv_sha256_base64(&sb, in, len);
	ck_assert_str_eq(sb.buf, want);
	pv_strbuf_release(&sb);
}

START_TEST(test_vectors)
{
	/* FIPS 180-4 examples, base64 of the digests */
	expect_b64("abc", 3, "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=");
	expect_b64("", 0, "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=");
	expect_b64("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		   56, "JI1qYdIGOLjlwCaTDD5gOaM85Flk/yFn9uzt1BnbBsE=");
}
END_TEST

START_TEST(test_million_a)
{
	char *a = malloc(1000000);
	unsigned char d[PV_SHA256_LEN];
	static const unsigned char want[4] = { 0xcd, 0xc7, 0x6e, 0x5c };

	ck_assert_ptr_nonnull(a);
	memset(a, 'a', 1000000);
	pv_sha256_digest(a, 1000000, d);
	ck_assert_mem_eq(d, want, 4);
	free(a);
}
END_TEST

START_TEST(test_lengths)
{
	/* every padding case: 55, 56, 63, 64 and 65 bytes differ */
	unsigned char d[5][PV_SHA256_LEN];
	static const size_t len[5] = { 55, 56, 63, 64, 65 };
	char buf[65];
	int i, j;

	memset(buf, 'x', sizeof(buf));
	for (i = 0; i < 5; i++)
		pv_sha256_digest(buf, len[i], d[i]);
	for (i = 0; i < 5; i++)
		for (j = i + 1; j < 5; j++)
			ck_assert_mem_ne(d[i], d[j], PV_SHA256_LEN);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("sha256");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_vectors);
	tcase_add_test(tc, test_million_a);
	tcase_add_test(tc, test_lengths);
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
