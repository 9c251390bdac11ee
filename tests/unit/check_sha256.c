/*
 * check_sha256: lib/sha256 against the SHA-256 examples of FIPS 180-2
 * (appendix B: "abc", the 448-bit message, one million 'a') and of the
 * NIST CSRC example values (the empty message, the 896-bit message), fed
 * whole and in pieces of every size around the 64-byte block.
 */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "sha256.h"
#include "strbuf.h"

static const struct {
	const char *msg;
	const char *hex;
} vectors[] = {
	{ "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
	{ "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
	{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
	  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
	{ "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
	  "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
	  "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1" },
};

static void
digest_hex(const void *msg, size_t len, size_t piece, char hex[65])
{
	struct pv_sha256 c;
	unsigned char d[PV_SHA256_LEN];
	const char *p = msg;
	size_t off;

	pv_sha256_init(&c);
	for (off = 0; off < len; off += piece)
		pv_sha256_update(&c, p + off, len - off < piece ?
				 len - off : piece);
	pv_sha256_final(&c, d);
	pv_sha256_hex(d, hex);
}

START_TEST(test_vectors)
{
	char hex[65];
	size_t i, piece;

	for (i = 0; i < sizeof(vectors) / sizeof(vectors[0]); i++) {
		size_t len = strlen(vectors[i].msg);

		for (piece = 1; piece <= 130; piece++) {
			digest_hex(vectors[i].msg, len, piece, hex);
			ck_assert_str_eq(hex, vectors[i].hex);
		}
	}
}
END_TEST

START_TEST(test_million_a)
{
	char *m = malloc(1000000), hex[65];

	ck_assert_ptr_nonnull(m);
	memset(m, 'a', 1000000);
	digest_hex(m, 1000000, 1000000, hex);
	ck_assert_str_eq(hex, "cdc76e5c9914fb9281a1c7e284d73e67"
			 "f1809a48a497200e046d39ccc7112cd0");
	digest_hex(m, 1000000, 997, hex);
	ck_assert_str_eq(hex, "cdc76e5c9914fb9281a1c7e284d73e67"
			 "f1809a48a497200e046d39ccc7112cd0");
	free(m);
}
END_TEST

/* padding edges: 55, 56 and 64 bytes need one, two and two blocks */
START_TEST(test_padding_edges)
{
	static const struct {
		size_t len;
		const char *hex;
	} v[] = {
		/* values computed with coreutils sha256sum */
		{ 55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318" },
		{ 56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a" },
		{ 64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb" },
	};
	char m[64], hex[65];
	size_t i;

	memset(m, 'a', sizeof(m));
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		digest_hex(m, v[i].len, 1, hex);
		ck_assert_str_eq(hex, v[i].hex);
		digest_hex(m, v[i].len, v[i].len, hex);
		ck_assert_str_eq(hex, v[i].hex);
	}
}
END_TEST

/* The base64 form, as Content-Security-Policy hashes are written. */
static void
expect_b64(const char *in, size_t len, const char *want)
{
	struct pv_strbuf sb = PV_STRBUF_INIT;

	pv_sha256_base64(&sb, in, len);
	ck_assert_str_eq(sb.buf, want);
	pv_strbuf_release(&sb);
}

START_TEST(test_base64)
{
	expect_b64("abc", 3, "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=");
	expect_b64("", 0, "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=");
	expect_b64("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		   56, "JI1qYdIGOLjlwCaTDD5gOaM85Flk/yFn9uzt1BnbBsE=");
}
END_TEST

static Suite *
sha256_suite(void)
{
	Suite *s = suite_create("sha256");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_vectors);
	tcase_add_test(tc, test_million_a);
	tcase_add_test(tc, test_padding_edges);
	tcase_add_test(tc, test_base64);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(sha256_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
