/*
 * Unit tests of lib/render_svg: XML escaping of hostile and malformed
 * names, the layout (totals, order, merging of narrow frames) and the
 * colours of a differential flame graph.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flametree.h"
#include "render_svg.h"
#include "strbuf.h"
#include "symtab.h"

static const char *
esc(const char *s, size_t len)
{
	static struct pv_strbuf sb = PV_STRBUF_INIT;

	pv_strbuf_reset(&sb);
	pv_svg_escape(&sb, s, len);
	return sb.buf;
}

#define ESC(lit) esc(lit, sizeof(lit) - 1)
#define FFFD "\xef\xbf\xbd"

START_TEST(test_escape)
{
	ck_assert_str_eq(ESC("<img src=x onerror=alert(1)>"),
			 "&lt;img src=x onerror=alert(1)&gt;");
	ck_assert_str_eq(ESC("a&b \"q\" 'a'"),
			 "a&amp;b &quot;q&quot; &apos;a&apos;");
	ck_assert_str_eq(ESC("caf\xc3\xa9 \xf0\x9f\x94\xa5"),
			 "caf\xc3\xa9 \xf0\x9f\x94\xa5");
	ck_assert_str_eq(ESC("a\x01z\x7f"), "a" FFFD "z" FFFD);
	ck_assert_str_eq(ESC("tab\there"), "tab" FFFD "here");
	ck_assert_str_eq(ESC("nul\0x"), "nul" FFFD "x");
	/* invalid: a stray byte, overlong, a surrogate, truncated, U+FFFE */
	ck_assert_str_eq(ESC("\xff"), FFFD);
	ck_assert_str_eq(ESC("\xc0\x80"), FFFD FFFD);
	ck_assert_str_eq(ESC("\xed\xa0\x80"), FFFD FFFD FFFD);
	ck_assert_str_eq(ESC("x\xe2\x82"), "x" FFFD FFFD);
	ck_assert_str_eq(ESC("\xef\xbf\xbe"), FFFD FFFD FFFD);
	ck_assert_str_eq(ESC("\xf4\x90\x80\x80"), FFFD FFFD FFFD FFFD);
}
END_TEST

struct fixture {
	struct pv_symtab names;
	struct pv_flametree tree;
};

static void
add(struct fixture *fx, const char *stack, uint64_t count, uint64_t base)
{
	uint32_t f[8];
	size_t n = 0;
	const char *p = stack, *semi;

	for (;;) {
		semi = strchr(p, ';');
		f[n++] = pv_symtab_intern(&fx->names, p,
				semi ? (size_t)(semi - p) : strlen(p));
		if (semi == NULL)
			break;
		p = semi + 1;
	}
	pv_flametree_add(&fx->tree, f, n, base, count);
}

/* Render to a string the caller frees. */
static char *
render(struct fixture *fx, struct pv_svg_opts *o, int *rc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	*rc = pv_svg_write(f, o, &fx->names, &fx->tree);
	fclose(f);
	return buf;
}

static size_t
count(const char *hay, const char *needle)
{
	size_t n = 0;

	while ((hay = strstr(hay, needle)) != NULL) {
		n++;
		hay += strlen(needle);
	}
	return n;
}

START_TEST(test_layout)
{
	struct fixture fx;
	struct pv_svg_opts o = { NULL, 1000, 0.1, 0 };
	char *svg, *a, *b;
	int rc;

	memset(&fx, 0, sizeof(fx));
	pv_symtab_init(&fx.names);
	pv_flametree_init(&fx.tree);
	/* given out of order; "m;b" is the prefix of another stack */
	add(&fx, "m;b;x", 30, 0);
	add(&fx, "m;a", 50, 0);
	add(&fx, "m;b", 20, 0);
	svg = render(&fx, &o, &rc);
	ck_assert_int_eq(rc, 0);
	ck_assert_ptr_nonnull(strstr(svg, "<title>all (100, 100.00%)"));
	ck_assert_ptr_nonnull(strstr(svg, "<title>m (100, 100.00%)"));
	ck_assert_ptr_nonnull(strstr(svg, "<title>b (50, 50.00%)"));
	ck_assert_ptr_nonnull(strstr(svg, "<title>x (30, 30.00%)"));
	/* a (the lesser name) on the left: x = 10, width 490 of 980 */
	a = strstr(svg, "<title>a (50");
	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(strstr(a, "<rect x=\"10.0\" y=\"52.0\" "
				     "width=\"490.0\""));
	b = strstr(svg, "<title>b (50");
	ck_assert_ptr_nonnull(strstr(b, "<rect x=\"500.0\""));
	ck_assert_uint_eq(count(svg, "<g>"), 5);
	ck_assert_ptr_nonnull(strstr(svg, "Flame Graph</text>"));
	free(svg);
	pv_flametree_release(&fx.tree);
	pv_symtab_release(&fx.names);
}
END_TEST

START_TEST(test_merge)
{
	struct fixture fx;
	struct pv_svg_opts o = { "T", 1020, 5, 0 };
	char *svg;
	int rc;

	memset(&fx, 0, sizeof(fx));
	pv_symtab_init(&fx.names);
	pv_flametree_init(&fx.tree);
	add(&fx, "m;wide", 996, 0);
	add(&fx, "m;narrow;deeper", 2, 0);	/* 2 px: merged */
	add(&fx, "m;narrow2", 2, 0);
	svg = render(&fx, &o, &rc);
	ck_assert_int_eq(rc, 0);
	/* m keeps the narrow frames' counts; they are not drawn */
	ck_assert_ptr_nonnull(strstr(svg, "<title>all (1000, 100.00%)"));
	ck_assert_ptr_nonnull(strstr(svg, "<title>m (1000, 100.00%)"));
	ck_assert_ptr_null(strstr(svg, "narrow"));
	ck_assert_ptr_null(strstr(svg, "deeper"));
	ck_assert_uint_eq(count(svg, "<g>"), 3);
	/* the image is as tall as the frames drawn: all, m, wide */
	ck_assert_ptr_nonnull(strstr(svg, "height=\"118\""));
	free(svg);
	pv_flametree_release(&fx.tree);
	pv_symtab_release(&fx.names);
}
END_TEST

START_TEST(test_differential)
{
	struct fixture fx;
	struct pv_svg_opts o = { NULL, 1200, 0.1, 1 };
	char *svg, *p;
	int rc;

	memset(&fx, 0, sizeof(fx));
	pv_symtab_init(&fx.names);
	pv_flametree_init(&fx.tree);
	add(&fx, "m;grew", 60, 20);
	add(&fx, "m;shrank", 20, 60);
	add(&fx, "m;same", 20, 20);
	add(&fx, "m;gone", 0, 10);
	svg = render(&fx, &o, &rc);
	ck_assert_int_eq(rc, 0);
	p = strstr(svg, "<title>grew (target 60, 60.00%; baseline 20, "
		   "18.18%; self +41.82 pp)");
	ck_assert_ptr_nonnull(p);
	ck_assert_ptr_nonnull(strstr(p, "fill=\"rgb(255,0,0)\""));
	p = strstr(svg, "<title>shrank");
	ck_assert_ptr_nonnull(p);
	ck_assert_ptr_nonnull(strstr(p, "fill=\"rgb(36,36,255)\""));
	p = strstr(svg, "<title>same");
	ck_assert_ptr_nonnull(p);
	ck_assert_ptr_nonnull(strstr(p, "fill=\"rgb(255,200,200)\""));
	/* no width in the target: not drawn, but in the baseline's total */
	ck_assert_ptr_null(strstr(svg, "gone"));
	ck_assert_ptr_nonnull(strstr(svg, "<title>all (target 100, 100.00%; "
				      "baseline 110, 100.00%"));
	ck_assert_ptr_nonnull(strstr(svg, "Differential Flame Graph"));
	free(svg);
	pv_flametree_release(&fx.tree);
	pv_symtab_release(&fx.names);
}
END_TEST

START_TEST(test_overflow)
{
	struct fixture fx;
	struct pv_svg_opts o = { NULL, 0, -1, 0 };
	char *svg;
	int rc;

	memset(&fx, 0, sizeof(fx));
	pv_symtab_init(&fx.names);
	pv_flametree_init(&fx.tree);
	add(&fx, "a", UINT64_MAX, 0);
	add(&fx, "b", 1, 0);
	svg = render(&fx, &o, &rc);
	ck_assert_int_eq(rc, -1);
	free(svg);
	pv_flametree_release(&fx.tree);
	pv_symtab_release(&fx.names);
}
END_TEST

static Suite *
render_svg_suite(void)
{
	Suite *s = suite_create("render_svg");
	TCase *tc = tcase_create("escape");

	tcase_add_test(tc, test_escape);
	suite_add_tcase(s, tc);
	tc = tcase_create("layout");
	tcase_add_test(tc, test_layout);
	tcase_add_test(tc, test_merge);
	tcase_add_test(tc, test_differential);
	tcase_add_test(tc, test_overflow);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(render_svg_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
