/*
 * Unit tests of lib/elfsym: kallsyms (aliases, modules, bounds, hidden
 * addresses), this program's own symbols through its mapping, a build id
 * that does not match, separate debuginfo found by build id (with strip
 * and objcopy from binutils), names of unresolved frames, inlined frames
 * from DWARF (this file is built with -g).
 */
#include "config.h"

#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elfsym.h"

void elfsym_target(void);
void elfsym_outer(void);

static char tmp[] = "/tmp/check_elfsym.XXXXXX";
static void *volatile probed;

__attribute__((noinline)) void
elfsym_target(void)
{
	__asm__ volatile("");
}

__attribute__((noinline)) static void
probe(void)
{
	probed = __builtin_return_address(0);
}

static inline __attribute__((always_inline)) void
elfsym_inner(void)
{
	probe();
	__asm__ volatile("");
}

__attribute__((noinline)) void
elfsym_outer(void)
{
	elfsym_inner();
	__asm__ volatile("");
}

static const char *
put(const char *name, const char *text)
{
	static char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmp, name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
	return path;
}

static void
setup(void)
{
	ck_assert_ptr_nonnull(mkdtemp(tmp));
}

static void
teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmp);
	ck_assert_int_eq(system(cmd), 0);
}

START_TEST(kallsyms)
{
	struct pv_elfsym *es = pv_elfsym_new(0);
	const char *mod;

	ck_assert_int_eq(pv_elfsym_load_kernel(es, put("k",
		"ffffffff81000000 T _stext\n"
		"ffffffff81000100 t zfoo\n"
		"ffffffff81000100 T afoo\n"
		"ffffffff81000200 D data\n"
		"ffffffff81000300 W weakf\n"
		"ffffffffc0000000 t modf\t[mymod]\n")), 4);
	ck_assert_str_eq(pv_elfsym_kernel(es, 0xffffffff81000150, &mod),
			 "afoo");
	ck_assert_ptr_null(mod);
	/* data symbols are not functions: the text symbol before holds */
	ck_assert_str_eq(pv_elfsym_kernel(es, 0xffffffff81000250, &mod),
			 "afoo");
	ck_assert_str_eq(pv_elfsym_kernel(es, 0xffffffff81000300, &mod),
			 "weakf");
	ck_assert_str_eq(pv_elfsym_kernel(es, 0xffffffffc0000010, &mod),
			 "modf");
	ck_assert_str_eq(mod, "mymod");
	ck_assert_ptr_null(pv_elfsym_kernel(es, 0xffffffffc0002000, &mod));
	ck_assert_ptr_null(pv_elfsym_kernel(es, 0xffffffff80000000, &mod));
	pv_elfsym_free(es);

	es = pv_elfsym_new(0);
	ck_assert_int_eq(pv_elfsym_load_kernel(es, put("z",
		"0000000000000000 T _stext\n0000000000000000 t foo\n")), -1);
	ck_assert_ptr_null(pv_elfsym_kernel(es, 0, &mod));
	ck_assert_int_eq(pv_elfsym_load_kernel(es, "/nonexistent"), -1);
	pv_elfsym_free(es);
}
END_TEST

/* The mapped file and file offset of an address of this process. */
static int
locate(const void *addr, char *path, size_t len, uint64_t *off)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[1024];
	uintptr_t a = (uintptr_t)addr;
	int found = 0;

	ck_assert_ptr_nonnull(f);
	while (!found && fgets(line, sizeof(line), f) != NULL) {
		unsigned long long lo, hi, pgoff;
		int n = 0;

		if (sscanf(line, "%llx-%llx %*s %llx %*s %*s %n", &lo, &hi,
			   &pgoff, &n) < 3 || n == 0 || a < lo || a >= hi)
			continue;
		line[strcspn(line, "\n")] = '\0';
		snprintf(path, len, "%s", line + n);
		*off = a - lo + pgoff;
		found = 1;
	}
	fclose(f);
	return found;
}

START_TEST(own_symbols)
{
	struct pv_elfsym *es = pv_elfsym_new(0);
	const char *names[8];
	struct pv_elfsym_dso *d, *bad;
	char path[512];
	uint64_t off;
	static const unsigned char other_id[] = { 1, 2, 3, 4 };

	ck_assert(locate((const void *)elfsym_target, path, sizeof(path),
			 &off));
	d = pv_elfsym_dso(es, path, NULL, 0);
	ck_assert_ptr_eq(pv_elfsym_dso(es, path, NULL, 0), d);
	ck_assert_uint_eq(pv_elfsym_resolve(es, d, off, names, 8), 1);
	ck_assert_str_eq(names[0], "elfsym_target");
	ck_assert_str_eq(pv_elfsym_dso_unknown(d), "[check_elfsym]");
	/* replaced since mapped: another build id, no names */
	bad = pv_elfsym_dso(es, path, other_id, sizeof(other_id));
	ck_assert_ptr_ne(bad, d);
	ck_assert_uint_eq(pv_elfsym_resolve(es, bad, off, names, 8), 0);
	pv_elfsym_free(es);
}
END_TEST

/*
 * Separate debuginfo: a stripped copy of this program has no name for
 * elfsym_target, until its debug file is found by build id.
 */
START_TEST(debuginfo)
{
	struct pv_elfsym *es;
	const char *names[4];
	char path[512], cmd[4096], id[128] = "", dbg[600];
	uint64_t off;
	FILE *p;

	ck_assert(locate((const void *)elfsym_target, path, sizeof(path),
			 &off));
	snprintf(cmd, sizeof(cmd), "readelf -n '%s' 2>/dev/null | "
		 "sed -n 's/.*Build ID: *//p'", path);
	p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	if (fgets(id, sizeof(id), p) == NULL)
		id[0] = '\0';
	pclose(p);
	id[strcspn(id, "\n")] = '\0';
	if (strlen(id) < 4) {
		fprintf(stderr, "check_elfsym: no build id or readelf: "
			"debuginfo not tested\n");
		return;
	}
	snprintf(dbg, sizeof(dbg), "%s/debug/%.2s", tmp, id);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s' && "
		 "strip -o '%s/stripped' '%s' && "
		 "objcopy --only-keep-debug '%s' '%s/%s.debug'", dbg, tmp, path,
		 path, dbg, id + 2);
	ck_assert_int_eq(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/stripped", tmp);
	es = pv_elfsym_new(0);
	pv_elfsym_set_debug_dir(es, "/nonexistent");
	ck_assert_uint_eq(pv_elfsym_resolve(es, pv_elfsym_dso(es, path, NULL,
				0), off, names, 4), 0);
	pv_elfsym_free(es);
	snprintf(dbg, sizeof(dbg), "%s/debug", tmp);
	es = pv_elfsym_new(0);
	pv_elfsym_set_debug_dir(es, dbg);
	ck_assert_uint_eq(pv_elfsym_resolve(es, pv_elfsym_dso(es, path, NULL,
				0), off, names, 4), 1);
	ck_assert_str_eq(names[0], "elfsym_target");
	pv_elfsym_free(es);
}
END_TEST

START_TEST(unknown_names)
{
	/* perf script's "[unknown] (MODULE)" as pv-parse names it */
	static const struct {
		const char *path, *name, *unknown;
		int relative;
	} t[] = {
		{ "/nonexistent/libx.so.1", "libx.so.1", "[libx.so.1]", 1 },
		{ "/usr/bin/true", "true", "[true]", 1 },
		{ "[vdso]", "[vdso]", "[[vdso]]", 1 },
		{ "[heap]", "[heap]", "[[heap]]", 0 },
		{ "[stack]", "[stack]", "[[stack]]", 0 },
		{ "//anon", "anon", "[anon]", 0 },
		{ "/dev/zero", "anon", "[anon]", 0 },
		{ "/anon_hugepage (deleted)", "anon", "[anon]", 0 },
		{ "/SYSV00000000 (deleted)", "anon", "[anon]", 0 },
		{ "/tmp/", "unknown", "[unknown]", 1 },
	};
	struct pv_elfsym *es = pv_elfsym_new(0);
	const char *names[2];
	struct pv_elfsym_dso *d;
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		d = pv_elfsym_dso(es, t[i].path, NULL, 0);
		ck_assert_str_eq(pv_elfsym_dso_name(d), t[i].name);
		ck_assert_str_eq(pv_elfsym_dso_unknown(d), t[i].unknown);
		ck_assert_int_eq(pv_elfsym_dso_relative(d), t[i].relative);
	}
	d = pv_elfsym_dso(es, "/nonexistent/libx.so.1", NULL, 0);
	ck_assert_uint_eq(pv_elfsym_resolve(es, d, 0x1000, names, 2), 0);
	pv_elfsym_free(es);
}
END_TEST

START_TEST(inline_frames)
{
	struct pv_elfsym *es = pv_elfsym_new(1);
	const char *names[8];
	char path[512];
	uint64_t off;
	struct pv_elfsym_dso *d;

	elfsym_outer();
	/* the call instruction, inside the inlined body */
	ck_assert(locate((const char *)probed - 1, path, sizeof(path), &off));
	d = pv_elfsym_dso(es, path, NULL, 0);
	ck_assert_uint_eq(pv_elfsym_resolve(es, d, off, names, 8), 2);
	ck_assert_str_eq(names[0], "elfsym_outer");
	ck_assert_str_eq(names[1], "elfsym_inner");
	pv_elfsym_free(es);
	/* without the option: the symbol only */
	es = pv_elfsym_new(0);
	d = pv_elfsym_dso(es, path, NULL, 0);
	ck_assert_uint_eq(pv_elfsym_resolve(es, d, off, names, 8), 1);
	pv_elfsym_free(es);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("elfsym");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, kallsyms);
	tcase_add_test(tc, own_symbols);
	tcase_add_test(tc, debuginfo);
	tcase_add_test(tc, unknown_names);
	tcase_add_test(tc, inline_frames);
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
