/*
 * check_kvset: the comparability of two sections by their meta and env
 * records: what differs, what is ignored, a key given twice.
 */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "kvset.h"

static struct pv_str
S(const char *s)
{
	struct pv_str r = { s, strlen(s) };

	return r;
}

START_TEST(test_kvset)
{
	struct pv_kvset a, b;
	struct pv_strbuf why = PV_STRBUF_INIT;
	const char *ign[] = { "os-release", "env.cpu*" };

	pv_kvset_init(&a);
	pv_kvset_init(&b);
	pv_kvset_add(&a, S("meta"), S("param.threads"), S("4"));
	pv_kvset_add(&b, S("meta"), S("param.threads"), S("8"));
	pv_kvset_add(&a, S("env"), S("os-release"), S("6.1"));
	pv_kvset_add(&b, S("env"), S("os-release"), S("6.2"));
	pv_kvset_add(&a, S("env"), S("cpudesc"), S("EPYC"));
	pv_kvset_add(&b, S("env"), S("cpudesc"), S("Xeon"));
	pv_kvset_add(&b, S("meta"), S("kconfig"), S("abc"));
	pv_kvset_add(&a, S("meta"), S("cc"), S("gcc-12"));
	pv_kvset_add(&a, S("meta"), S("cc"), S("gcc-13"));
	ck_assert_uint_eq(pv_kvset_diff(&a, &b, ign, 2, &why), 3);
	ck_assert_str_eq(why.buf, "meta 'cc' ('(several values)' vs "
			 "'(none)'), meta 'kconfig' ('(none)' vs 'abc'), "
			 "meta 'param.threads' ('4' vs '8')");
	pv_strbuf_release(&why);
	pv_kvset_release(&a);
	pv_kvset_release(&b);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("kvset");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, test_kvset);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
