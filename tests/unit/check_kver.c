/*
 * check_kver: kernel version names (what parses and what does not),
 * their order, and the baseline rule as a table: target, the versions in
 * the store, the expected baseline.
 */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "kver.h"

START_TEST(test_parse)
{
	static const char *const good[] = {
		"v6.12", "v6.12.5", "v6.12-rc3", "v6.12.5-rc1", "v3.0",
		"v6.12-45-g1a2b3c4", "v6.12-rc3-7-gdeadbee",
		"v6.12.5-3-gabc", "v10.0", "v6.0-rc1",
		/* kernel releases as uname -r prints them */
		"6.12.0", "6.12.5", "6.10.0-rc3", "6.10.0-rc3+",
		"6.10.0-rc3-00045-g1a2b3c4d5e6f", "6.1.0-27-amd64",
		"6.8.0-45-generic", "5.14.0-427.13.1.el9_4.x86_64",
		"6.18.44-fc-v782", "6.12.38+deb13-amd64", "6.1.0-1015-gcp",
		"6.1.0-rc-x", "6.1.0.x", "6.1.0_x", "6.1.0~x",
	};
	static const char *const bad[] = {
		"", "v", "6.12", "v6", "v6.", "v6.12.", "v6.12.0", "v6.012",
		"v06.1", "v6.12-rc", "v6.12-rc0", "v6.12-rc01", "v6.12-45",
		"v6.12-45-g", "v6.12-0-gabc", "v6.12-45-gXYZ", "v6.12-dirty",
		"v6.12 ", "V6.12", "v6.12.1.1", "v-6.12", "v6.12rc3",
		"v99999999999999999999999.1",
		"6.12", "6.12.01", "06.12.0", "6.12.0-", "x6.12.0",
		"6.12.0rc3", "6.12.0-rc0", "6.12.0-rc01", "6.12.0 x",
		"6.12.0-a b", "6.12.0-x\t", "6.12.0x", "v6.12.0-27-amd64",
		"v6.12-amd64", "6.12.0.", "6.12.0/x",
	};
	struct pv_kver v;
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		ck_assert_msg(pv_kver_parse(good[i], &v) == 0, "%s", good[i]);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(pv_kver_parse(bad[i], &v) < 0, "%s", bad[i]);
	ck_assert_int_eq(pv_kver_parse("v6.12.5-rc2-3-gab", &v), 0);
	ck_assert_uint_eq(v.major, 6);
	ck_assert_uint_eq(v.minor, 12);
	ck_assert_uint_eq(v.patch, 5);
	ck_assert_uint_eq(v.rc, 2);
	ck_assert_uint_eq(v.post, 3);
	ck_assert_str_eq(v.local, "");
	ck_assert_int_eq(pv_kver_parse("6.10.0-rc3-00045-g1a2b3c4d", &v), 0);
	ck_assert_uint_eq(v.patch, 0);
	ck_assert_uint_eq(v.rc, 3);
	ck_assert_uint_eq(v.post, 45);
	ck_assert_str_eq(v.local, "");
	ck_assert_int_eq(pv_kver_parse("6.10.0-rc3+", &v), 0);
	ck_assert_uint_eq(v.post, PV_KVER_POST_UNKNOWN);
	ck_assert_int_eq(pv_kver_parse("6.8.0-45-generic", &v), 0);
	ck_assert_uint_eq(v.major, 6);
	ck_assert_uint_eq(v.minor, 8);
	ck_assert_uint_eq(v.patch, 0);
	ck_assert_uint_eq(v.post, 0);
	ck_assert_str_eq(v.local, "-45-generic");
	ck_assert_int_eq(pv_kver_parse("5.14.0-427.13.1.el9_4.x86_64", &v),
			 0);
	ck_assert_str_eq(v.local, "-427.13.1.el9_4.x86_64");
}
END_TEST

START_TEST(test_order)
{
	/* ascending */
	static const char *const seq[] = {
		"v5.19", "v6.0-rc1", "v6.0", "v6.1", "v6.9", "v6.10-rc1",
		"v6.12-rc1", "v6.12-rc1-5-gab", "v6.12-rc2", "v6.12-rc10",
		"v6.12", "6.12.0-1-amd64", "6.12.0-2-amd64",
		"6.12.0-10-amd64", "6.12.0-1-cloud-amd64", "v6.12-3-gab",
		"6.12.0-00004-gab", "v6.12-40-gab", "6.12.0+", "v6.12.1-rc1",
		"v6.12.1", "v6.12.2", "v6.12.10", "v6.13-rc1", "v7.0",
	};
	struct pv_kver a, b;
	size_t i, j, n = sizeof(seq) / sizeof(seq[0]);

	for (i = 0; i < n; i++) {
		ck_assert_int_eq(pv_kver_parse(seq[i], &a), 0);
		for (j = 0; j < n; j++) {
			int c;

			ck_assert_int_eq(pv_kver_parse(seq[j], &b), 0);
			c = pv_kver_cmp(&a, &b);
			ck_assert_msg((i < j && c < 0) || (i == j && c == 0) ||
				      (i > j && c > 0), "%s vs %s: %d",
				      seq[i], seq[j], c);
		}
	}
	/* two spellings of one version */
	ck_assert_int_eq(pv_kver_parse("v6.12", &a), 0);
	ck_assert_int_eq(pv_kver_parse("6.12.0", &b), 0);
	ck_assert_int_eq(pv_kver_cmp(&a, &b), 0);
	ck_assert_int_eq(pv_kver_parse("v6.12.5-rc1", &a), 0);
	ck_assert_int_eq(pv_kver_parse("6.12.5-rc1", &b), 0);
	ck_assert_int_eq(pv_kver_cmp(&a, &b), 0);
	/* flavours: digits stand for any number */
	ck_assert_int_eq(pv_kver_parse("6.1.0-27-amd64", &a), 0);
	ck_assert_int_eq(pv_kver_parse("6.9.0-3-amd64", &b), 0);
	ck_assert(pv_kver_same_flavour(&a, &b));
	ck_assert_int_eq(pv_kver_parse("6.9.0-3-cloud-amd64", &b), 0);
	ck_assert(!pv_kver_same_flavour(&a, &b));
	ck_assert_int_eq(pv_kver_parse("v6.9", &b), 0);
	ck_assert(!pv_kver_same_flavour(&a, &b));
}
END_TEST

/* The stored versions of the table's store. */
static const char *const store[] = {
	"v5.19", "v6.0-rc1", "v6.0", "v6.10", "v6.11-rc1", "v6.11",
	"v6.11.3", "v6.11-12-g1234abc", "v6.12-rc1", "v6.12",
	"v6.12.1", "v6.12.2", "v6.12.4", "nightly", "1a2b3c4d",
	/* kernel releases as uname -r prints them, distributions' builds */
	"6.10.0", "6.0.0-5-amd64", "6.1.0-25-amd64", "6.1.0-26-amd64",
	"6.1.0-28-amd64", "6.1.0-26-cloud-amd64", "6.5.0-35-generic",
	"6.8.0-40-generic", "6.8.0-44-generic", "6.8.0-44-lowlatency",
	"5.14.0-362.8.1.el9_3.x86_64", "5.14.0-427.13.1.el9_4.x86_64",
	"5.14.0-427.42.1.el9_4.x86_64", "6.18.43-fc-v781",
	"6.18.44-fc-v780", "6.12.38+deb13-amd64",
};

START_TEST(test_baseline_table)
{
	static const struct {
		const char *target;
		const char *want;	/* NULL: none */
	} t[] = {
		/* the rule of the issue: rc and release get the previous */
		{ "v6.12-rc3", "v6.11" },
		{ "v6.12", "v6.11" },
		{ "v6.12-rc1", "v6.11" },
		{ "v6.12-rc3-7-gabcdef0", "v6.11" },
		/* never an rc, a post-release commit or a point release */
		{ "v6.13-rc1", "v6.12" },
		{ "v6.13", "v6.12" },
		/* a commit after a release: the release (next merge window) */
		{ "v6.12-45-gabc", "v6.12" },
		/* stable point releases: the previous of the series */
		{ "v6.12.5", "v6.12.4" },
		{ "v6.12.4", "v6.12.2" },
		{ "v6.12.3", "v6.12.2" },
		{ "v6.12.2", "v6.12.1" },
		{ "v6.12.1", "v6.12" },
		{ "v6.12.5-rc1", "v6.12.4" },
		{ "v6.12.4-2-gab", "v6.12.4" },
		{ "v6.11.4", "v6.11.3" },
		{ "v6.11.3", "v6.11" },
		/* a gap: the nearest stored ancestor release */
		{ "v6.11-rc4", "v6.10" },
		{ "v6.10", "v6.0" },
		{ "v6.1", "v6.0" },
		/* across a major version */
		{ "v6.0", "v5.19" },
		{ "v6.0-rc3", "v5.19" },
		/* nothing earlier */
		{ "v5.19", NULL },
		{ "v4.0", NULL },
		/* not kernel versions */
		{ "nightly", NULL },
		{ "1a2b3c4d", NULL },
		/*
		 * Kernel releases as uname -r prints them: 6.12.0 is v6.12,
		 * and of two spellings of one version the last by name
		 */
		{ "6.12.0", "v6.11" },
		{ "6.11.0", "v6.10" },
		{ "6.12.3", "v6.12.2" },
		{ "6.10.0-rc3+", "v6.0" },
		{ "6.12.0+", "v6.12" },
		{ "6.12.0-rc3-00007-gabcdef012345", "v6.11" },
		/* a build: the latest earlier build of its base and flavour */
		{ "6.1.0-27-amd64", "6.1.0-26-amd64" },
		{ "6.1.0-26-amd64", "6.1.0-25-amd64" },
		{ "6.1.0-27-cloud-amd64", "6.1.0-26-cloud-amd64" },
		{ "6.8.0-45-generic", "6.8.0-44-generic" },
		{ "5.14.0-503.11.1.el9_5.x86_64",
		  "5.14.0-427.42.1.el9_4.x86_64" },
		{ "5.14.0-427.42.1.el9_4.x86_64",
		  "5.14.0-427.13.1.el9_4.x86_64" },
		{ "6.18.44-fc-v782", "6.18.44-fc-v780" },
		/* none: the latest build of the nearest ancestor release */
		{ "6.1.0-25-amd64", "6.0.0-5-amd64" },
		{ "6.8.0-40-generic", "6.5.0-35-generic" },
		{ "6.18.45-fc-v790", "6.18.44-fc-v780" },
		{ "6.12.41+deb13-amd64", "6.12.38+deb13-amd64" },
		/* never another flavour, a plain version, or a later build */
		{ "6.1.0-27-arm64", NULL },
		{ "6.8.0-41-lowlatency", NULL },
		{ "5.14.0-362.8.1.el9_3.x86_64", NULL },
		{ "6.18.43-fc-v781", NULL },
		{ "6.0.0-5-amd64", NULL },
	};
	size_t i, n = sizeof(store) / sizeof(store[0]);

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		long k = pv_kver_baseline(t[i].target, store, n);

		if (t[i].want == NULL)
			ck_assert_msg(k < 0, "%s: got %s", t[i].target,
				      k >= 0 ? store[k] : "");
		else
			ck_assert_msg(k >= 0 && strcmp(store[k],
						       t[i].want) == 0,
				      "%s: got %s, want %s", t[i].target,
				      k >= 0 ? store[k] : "none", t[i].want);
	}
}
END_TEST

/* the answer does not depend on the order of the candidates */
START_TEST(test_baseline_order_free)
{
	const char *rev[sizeof(store) / sizeof(store[0])];
	size_t i, n = sizeof(store) / sizeof(store[0]);
	long k;

	for (i = 0; i < n; i++)
		rev[i] = store[n - 1 - i];
	k = pv_kver_baseline("v6.12", rev, n);
	ck_assert_int_ge(k, 0);
	ck_assert_str_eq(rev[k], "v6.11");
	k = pv_kver_baseline("v6.12.5", rev, n);
	ck_assert_int_ge(k, 0);
	ck_assert_str_eq(rev[k], "v6.12.4");
	k = pv_kver_baseline("6.11.0", rev, n);
	ck_assert_int_ge(k, 0);
	ck_assert_str_eq(rev[k], "v6.10");
	k = pv_kver_baseline("5.14.0-503.11.1.el9_5.x86_64", rev, n);
	ck_assert_int_ge(k, 0);
	ck_assert_str_eq(rev[k], "5.14.0-427.42.1.el9_4.x86_64");
	ck_assert_int_lt(pv_kver_baseline("v6.12", NULL, 0), 0);
}
END_TEST

static Suite *
version_suite(void)
{
	Suite *s = suite_create("kver");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_parse);
	tcase_add_test(tc, test_order);
	tcase_add_test(tc, test_baseline_table);
	tcase_add_test(tc, test_baseline_order_free);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(version_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
