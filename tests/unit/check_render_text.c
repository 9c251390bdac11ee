/*
 * Unit tests of lib/render_text: diff-folded lines (with difffolded.pl's
 * normalisation, exact for large counts) and the table of suspects (top,
 * colours, relative changes, names made safe for a terminal).
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render_text.h"
#include "stackdiff.h"

static void
add(struct pv_stackdiff *d, int side, const char *stack, uint64_t period)
{
	struct pv_str f[8], ev = { "", 0 };
	size_t n = 0;
	const char *p = stack, *semi;

	for (;;) {
		semi = strchr(p, ';');
		f[n].s = p;
		f[n++].len = semi ? (size_t)(semi - p) : strlen(p);
		if (semi == NULL)
			break;
		p = semi + 1;
	}
	pv_stackdiff_add(d, side, ev, f, n, 1, period);
}

static int joined;	/* give the frames joined too */

static void
dadd(struct pv_dfold *d, const char *stack, uint64_t base, uint64_t target)
{
	struct pv_str f[8], j = { stack, strlen(stack) };
	size_t n = 0;
	const char *p = stack, *semi;

	for (;;) {
		semi = strchr(p, ';');
		f[n].s = p;
		f[n++].len = semi ? (size_t)(semi - p) : strlen(p);
		if (semi == NULL)
			break;
		p = semi + 1;
	}
	pv_dfold_add(d, f, n, joined ? &j : NULL, base, target);
}

static char *
folded(struct pv_dfold *d, int normalize, int *rc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	*rc = pv_render_diff_folded(f, d, normalize);
	fclose(f);
	return buf;
}

START_TEST(test_diff_folded)
{
	struct pv_dfold d;
	char *out;
	int rc;

	/*
	 * out of order, a stack twice, and a name that sorts before ';';
	 * given joined too, the lines move to the table at the second
	 */
	joined = _i;
	pv_dfold_init(&d);
	dadd(&d, "m;b", 14, 0);
	dadd(&d, "m;a", 50, 30);
	dadd(&d, "m;c", 0, 10);
	dadd(&d, "m;a", 1, 40);
	dadd(&d, "m-x", 0, 0);
	out = folded(&d, 0, &rc);
	ck_assert_int_eq(rc, 0);
	ck_assert_str_eq(out, "m-x 0 0\nm;a 51 70\nm;b 14 0\nm;c 0 10\n");
	free(out);
	/* 51 * 80 / 65 = 62.8, 14 * 80 / 65 = 17.2: rounded down */
	out = folded(&d, 1, &rc);
	ck_assert_str_eq(out, "m-x 0 0\nm;a 62 70\nm;b 17 0\nm;c 0 10\n");
	free(out);
	pv_dfold_release(&d);
}
END_TEST

/*
 * pv_dfold_add_joined(): lines in order kept, their counts copied as read
 * where they are written so ("007" is not: 7), the first out of order
 * refused for pv_dfold_add(), which moves the lines into the table.
 */
START_TEST(test_diff_folded_joined)
{
	struct pv_str t1[2] = { { "12", 2 }, { "0", 1 } };
	struct pv_str t2[2] = { { "007", 3 }, { "5", 1 } };
	struct pv_str a = { "m;a", 3 }, b = { "m;b", 3 };
	struct pv_str fa[2] = { { "m", 1 }, { "a", 1 } };
	struct pv_dfold d;
	char *out;
	int rc;

	pv_dfold_init(&d);
	ck_assert_int_eq(pv_dfold_add_joined(&d, &a, 12, 0, t1), 1);
	ck_assert_int_eq(pv_dfold_add_joined(&d, &b, 7, 5, t2), 1);
	ck_assert_int_eq(pv_dfold_add_joined(&d, &a, 1, 1, NULL), 0);
	out = folded(&d, 0, &rc);
	ck_assert_int_eq(rc, 0);
	ck_assert_str_eq(out, "m;a 12 0\nm;b 7 5\n");
	free(out);
	ck_assert_int_eq(pv_dfold_add(&d, fa, 2, &a, 1, 1), 0);
	out = folded(&d, 0, &rc);
	ck_assert_str_eq(out, "m;a 13 1\nm;b 7 5\n");
	free(out);
	pv_dfold_release(&d);
}
END_TEST

START_TEST(test_diff_folded_sorted)
{
	static const char *const in[] = {
		"", "a", "a-b", "a;b", "a;b;c", "a;c", "b"
	};
	struct pv_dfold d, t;
	char *out, *want;
	size_t i;
	int rc;

	/* in folded order, each kept as its line; the same as the table's */
	pv_dfold_init(&d);
	pv_dfold_init(&t);
	for (i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		joined = 1;
		dadd(&d, in[i], i, 10 * i);
		joined = 0;
		dadd(&t, in[i], i, 10 * i);
	}
	ck_assert_int_eq(d.table, 0);
	ck_assert_int_eq(t.table, 1);
	ck_assert_uint_eq(pv_dfold_count(&d), 7);
	out = folded(&d, 1, &rc);
	ck_assert_int_eq(rc, 0);
	want = folded(&t, 1, &rc);
	ck_assert_str_eq(out, want);
	free(out);
	free(want);
	out = folded(&d, 0, &rc);
	ck_assert_str_eq(out, " 0 0\na 1 10\na-b 2 20\na;b 3 30\n"
			 "a;b;c 4 40\na;c 5 50\nb 6 60\n");
	free(out);
	/* a repeated stack: to the table, added up */
	joined = 1;
	dadd(&d, "a;c", 1, 1);
	ck_assert_int_eq(d.table, 1);
	ck_assert_uint_eq(pv_dfold_count(&d), 7);
	out = folded(&d, 0, &rc);
	ck_assert_ptr_nonnull(strstr(out, "\na;c 6 51\n"));
	ck_assert_ptr_nonnull(strstr(out, "\na;b;c 4 40\n"));
	free(out);
	pv_dfold_release(&d);
	pv_dfold_release(&t);
}
END_TEST

/*
 * Lines kept past one segment of text (64 KiB), one longer than a
 * segment among them: written whole, normalised and moved into the table
 * as the table has them.
 */
START_TEST(test_diff_folded_segments)
{
	struct pv_dfold d, t;
	char name[32], *out, *want, *big;
	size_t i, n = 20000, blen = 100000;
	int rc, pass;

	big = malloc(blen + 3);
	ck_assert_ptr_nonnull(big);
	memcpy(big, "m;", 2);
	memset(big + 2, 'x', blen);
	big[blen + 2] = '\0';
	for (pass = 0; pass < 2; pass++) {
		pv_dfold_init(&d);
		pv_dfold_init(&t);
		for (i = 0; i < n; i++) {
			snprintf(name, sizeof(name), "m;f%06zu", i);
			joined = 1;
			dadd(&d, name, i, 2 * i + 1);
			joined = 0;
			dadd(&t, name, i, 2 * i + 1);
		}
		joined = 1;	/* "m;f..." < "m;x..." */
		dadd(&d, big, 7, 8);
		joined = 0;
		dadd(&t, big, 7, 8);
		if (pass == 1) {	/* out of order: all to the table */
			joined = 1;
			dadd(&d, "a", 1, 2);
			joined = 0;
			dadd(&t, "a", 1, 2);
		}
		ck_assert_int_eq(d.table, pass);
		ck_assert_int_eq(d.table || d.nseg > 3, 1);
		out = folded(&d, 0, &rc);
		ck_assert_int_eq(rc, 0);
		want = folded(&t, 0, &rc);
		ck_assert_uint_eq(strlen(out), strlen(want));
		ck_assert_int_eq(strcmp(out, want), 0);
		free(out);
		free(want);
		out = folded(&d, 1, &rc);
		want = folded(&t, 1, &rc);
		ck_assert_int_eq(strcmp(out, want), 0);
		free(out);
		free(want);
		pv_dfold_release(&d);
		pv_dfold_release(&t);
	}
	free(big);
}
END_TEST

START_TEST(test_diff_folded_large)
{
	struct pv_dfold d;
	char *out;
	int rc;

	/* c0 * t1 overflows 64 bits; the result does not */
	pv_dfold_init(&d);
	dadd(&d, "a", 6000000000000000000ULL, 9000000000000000000ULL);
	dadd(&d, "b", 3000000000000000000ULL, 0);
	out = folded(&d, 1, &rc);
	ck_assert_int_eq(rc, 0);
	ck_assert_str_eq(out, "a 6000000000000000000 9000000000000000000\n"
			 "b 3000000000000000000 0\n");
	free(out);
	/* a total past 64 bits: nothing written */
	dadd(&d, "c", 0, 10000000000000000000ULL);
	out = folded(&d, 0, &rc);
	ck_assert_int_eq(rc, -1);
	ck_assert_str_eq(out, "");
	free(out);
	pv_dfold_release(&d);
}
END_TEST

static char *
table(struct pv_stackdiff *d, size_t top, int color)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	pv_render_text(f, d->func, d->nfunc, &d->names, top, color);
	fclose(f);
	return buf;
}

START_TEST(test_table)
{
	struct pv_stackdiff d;
	char *out;

	pv_stackdiff_init(&d, NULL);
	add(&d, PV_SIDE_BASE, "m;a", 50);
	add(&d, PV_SIDE_BASE, "m;esc\033[2Jx", 50);
	add(&d, PV_SIDE_TARGET, "m;a", 25);
	add(&d, PV_SIDE_TARGET, "m;new", 75);
	ck_assert_int_eq(pv_stackdiff_compute(&d), 0);
	out = table(&d, 2, 0);
	ck_assert_str_eq(out,
		"event -: 2 of 4 functions, largest growth of exclusive "
		"share first\n"
		" excl.b%  excl.t%  excl.pp     rel   incl.b%  incl.t%  "
		"incl.pp     rel  function\n"
		"    0.00    75.00   +75.00     new      0.00    75.00   "
		"+75.00     new  new\n"
		"    0.00     0.00    +0.00       -    100.00   100.00    "
		"+0.00     +0%  m\n");
	free(out);
	out = table(&d, 10, 0);
	/* the escape sequence in a name is shown, not sent */
	ck_assert_ptr_nonnull(strstr(out, "  esc\\x1b[2Jx\n"));
	ck_assert_ptr_null(strchr(out, '\033'));
	ck_assert_ptr_nonnull(strstr(out, "-50.00   -100%"));
	free(out);
	out = table(&d, 1, 1);
	ck_assert_ptr_nonnull(strstr(out, "\033[31m  +75.00\033[0m"));
	free(out);
	pv_stackdiff_release(&d);
}
END_TEST

START_TEST(test_factor)
{
	struct pv_stackdiff d;
	char *out;

	pv_stackdiff_init(&d, NULL);
	add(&d, PV_SIDE_BASE, "m;a", 1);
	add(&d, PV_SIDE_BASE, "m;b", 999);
	add(&d, PV_SIDE_TARGET, "m;a", 500);
	add(&d, PV_SIDE_TARGET, "m;b", 500);
	ck_assert_int_eq(pv_stackdiff_compute(&d), 0);
	out = table(&d, 1, 0);
	/* 0.1% -> 50%: five hundred times */
	ck_assert_ptr_nonnull(strstr(out, "+500x"));
	free(out);
	pv_stackdiff_release(&d);
}
END_TEST

static Suite *
render_text_suite(void)
{
	Suite *s = suite_create("render_text");
	TCase *tc = tcase_create("diff-folded");

	tcase_add_loop_test(tc, test_diff_folded, 0, 2);
	tcase_add_test(tc, test_diff_folded_joined);
	tcase_add_test(tc, test_diff_folded_sorted);
	tcase_add_test(tc, test_diff_folded_segments);
	tcase_add_test(tc, test_diff_folded_large);
	suite_add_tcase(s, tc);
	tc = tcase_create("table");
	tcase_add_test(tc, test_table);
	tcase_add_test(tc, test_factor);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(render_text_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
