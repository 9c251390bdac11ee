/*
 * Unit tests of lib/envinfo: the facts read from a fake system tree, what
 * cannot be read recorded as unavailable, CPU topology and range lists,
 * kernel configuration hash and differences, the identity hash (facts of
 * the version under test left out), git facts of a tree that is not one.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "envinfo.h"

static char root[] = "/tmp/check_envinfo.XXXXXX";

static void
put(const char *path, const char *text)
{
	char full[512], *p;
	FILE *f;

	snprintf(full, sizeof(full), "%s%s", root, path);
	for (p = full + strlen(root) + 1; (p = strchr(p, '/')) != NULL; p++) {
		*p = '\0';
		mkdir(full, 0755);
		*p = '/';
	}
	f = fopen(full, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

static void
setup(void)
{
	ck_assert_ptr_nonnull(mkdtemp(root));
	put("/proc/sys/kernel/osrelease", "6.1.0-test\n");
	put("/proc/sys/kernel/arch", "aarch64\n");
	put("/proc/cpuinfo", "processor\t: 0\nBogoMIPS\t: 1\n"
	    "model name\t: Fake CPU\n");
	put("/proc/meminfo", "MemTotal:        8000000 kB\n");
	put("/sys/devices/system/cpu/cpu0/topology/physical_package_id", "0\n");
	put("/sys/devices/system/cpu/cpu0/topology/core_id", "0\n");
	put("/sys/devices/system/cpu/cpu1/topology/physical_package_id", "0\n");
	put("/sys/devices/system/cpu/cpu1/topology/core_id", "0\n");
	put("/sys/devices/system/cpu/cpu2/topology/physical_package_id", "0\n");
	put("/sys/devices/system/cpu/cpu2/topology/core_id", "1\n");
	put("/sys/devices/system/cpu/cpufreq/boost", "1\n");
	put("/sys/devices/system/node/online", "0-2,5,7-8\n");
	put("/sys/devices/system/cpu/vulnerabilities/b", "Vulnerable\n");
	put("/sys/devices/system/cpu/vulnerabilities/a", "Not affected\n");
	put("/boot/config-6.1.0-test", "CONFIG_X=y\n# CONFIG_Y is not set\n"
	    "CONFIG_CC_VERSION_TEXT=\"gcc 1\"\n");
	put("/ref", "CONFIG_X=y\nCONFIG_Y=m\nCONFIG_Z=y\n");
}

static void
teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	ck_assert_int_eq(system(cmd), 0);
}

START_TEST(facts)
{
	struct pv_envinfo env;
	struct pv_envinfo_opts o = { root, NULL };
	struct pv_err err;
	char ref[128];

	snprintf(ref, sizeof(ref), "%s/ref", root);
	o.config_ref = ref;
	pv_envinfo_init(&env);
	ck_assert_int_eq(pv_envinfo_collect(&env, &o, &err), 0);
	ck_assert_str_eq(pv_envinfo_get(&env, "kernel-release"),
			 "6.1.0-test");
	ck_assert_str_eq(pv_envinfo_get(&env, "kernel-version"),
			 "unavailable");
	ck_assert_str_eq(pv_envinfo_get(&env, "machine"), "aarch64");
	ck_assert_str_eq(pv_envinfo_get(&env, "cpu-model"), "Fake CPU");
	ck_assert_str_eq(pv_envinfo_get(&env, "cpu-sockets"), "1");
	ck_assert_str_eq(pv_envinfo_get(&env, "cpu-cores"), "2");
	ck_assert_str_eq(pv_envinfo_get(&env, "cpu-threads"), "3");
	ck_assert_str_eq(pv_envinfo_get(&env, "numa-nodes"), "6");
	ck_assert_str_eq(pv_envinfo_get(&env, "memory"), "8000000 kB");
	ck_assert_str_eq(pv_envinfo_get(&env, "memory-gib"), "8");
	ck_assert_str_eq(pv_envinfo_get(&env, "boost"), "on");
	ck_assert_str_eq(pv_envinfo_get(&env, "cpufreq-governor"),
			 "unavailable");
	ck_assert_str_eq(pv_envinfo_get(&env, "smt"), "unavailable");
	ck_assert_str_eq(pv_envinfo_get(&env, "vulnerability.a"),
			 "Not affected");
	ck_assert_str_eq(pv_envinfo_get(&env, "vulnerability.b"),
			 "Vulnerable");
	ck_assert_str_eq(pv_envinfo_get(&env, "kernel-config-source"),
			 "/boot/config-6.1.0-test");
	ck_assert_str_eq(pv_envinfo_get(&env, "kernel-config-diff.CONFIG_Y"),
			 "n, reference m");
	ck_assert_str_eq(pv_envinfo_get(&env, "kernel-config-diff.CONFIG_Z"),
			 "absent, reference y");
	ck_assert_ptr_null(pv_envinfo_get(&env, "kernel-config-diff.CONFIG_X"));
	ck_assert_str_eq(pv_envinfo_get(&env, "kernel-config-differences"),
			 "3");	/* Y, Z and CC_VERSION_TEXT */
	ck_assert_str_eq(pv_envinfo_get(&env, "compiler"), "unavailable");
	pv_envinfo_release(&env);
}
END_TEST

START_TEST(config_hash)
{
	struct pv_envinfo a, b;
	struct pv_envinfo_opts o = { root, NULL };
	struct pv_err err;

	pv_envinfo_init(&a);
	pv_envinfo_init(&b);
	ck_assert_int_eq(pv_envinfo_collect(&a, &o, &err), 0);
	/* another compiler, a comment: the same configuration */
	put("/boot/config-6.1.0-test", "# new\nCONFIG_X=y\n"
	    "# CONFIG_Y is not set\nCONFIG_CC_VERSION_TEXT=\"gcc 2\"\n");
	ck_assert_int_eq(pv_envinfo_collect(&b, &o, &err), 0);
	ck_assert_str_eq(pv_envinfo_get(&a, "kernel-config-hash"),
			 pv_envinfo_get(&b, "kernel-config-hash"));
	pv_envinfo_release(&b);
	put("/boot/config-6.1.0-test", "CONFIG_X=m\n# CONFIG_Y is not set\n");
	pv_envinfo_init(&b);
	ck_assert_int_eq(pv_envinfo_collect(&b, &o, &err), 0);
	ck_assert_str_ne(pv_envinfo_get(&a, "kernel-config-hash"),
			 pv_envinfo_get(&b, "kernel-config-hash"));
	pv_envinfo_release(&a);
	pv_envinfo_release(&b);
}
END_TEST

START_TEST(missing_ref)
{
	struct pv_envinfo env;
	struct pv_envinfo_opts o = { root, "/nonexistent/ref" };
	struct pv_err err;

	pv_envinfo_init(&env);
	ck_assert_int_eq(pv_envinfo_collect(&env, &o, &err), -1);
	ck_assert_str_eq(pv_err_msg(&err), "cannot read the reference kernel "
			 "configuration '/nonexistent/ref': No such file or "
			 "directory");
	pv_envinfo_release(&env);
}
END_TEST

START_TEST(ident)
{
	struct pv_envinfo a, b;
	uint64_t ha, hb;

	pv_envinfo_init(&a);
	pv_envinfo_init(&b);
	pv_envinfo_add(&a, "kernel-release", "6.1", 0);
	pv_envinfo_add(&a, "cpu-model", "X", 1);
	pv_envinfo_add(&b, "kernel-release", "6.2", 0);
	pv_envinfo_add(&b, "cpu-model", "X", 1);
	ha = pv_envinfo_ident(&a, 7);
	hb = pv_envinfo_ident(&b, 7);
	ck_assert_uint_eq(ha, hb);
	ck_assert_uint_ne(ha, pv_envinfo_ident(&a, 8));
	pv_envinfo_add(&b, "machine", "x86_64", 1);
	ck_assert_uint_ne(ha, pv_envinfo_ident(&b, 7));
	ck_assert_str_eq(pv_envinfo_get(&a, "cpu-model"), "X");
	pv_envinfo_add(&a, "absent", NULL, 0);
	ck_assert_str_eq(pv_envinfo_get(&a, "absent"), "unavailable");
	pv_envinfo_release(&a);
	pv_envinfo_release(&b);
}
END_TEST

START_TEST(git_not_a_tree)
{
	char *commit, *branch, *dirty;

	pv_envinfo_git(root, &commit, &branch, &dirty);
	ck_assert_ptr_null(commit);
	ck_assert_ptr_null(dirty);
	free(branch);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("envinfo");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, facts);
	tcase_add_test(tc, config_hash);
	tcase_add_test(tc, missing_ref);
	tcase_add_test(tc, ident);
	tcase_add_test(tc, git_not_a_tree);
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
