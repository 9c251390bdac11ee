/*
 * Unit tests of lib/stackdiff: the name normalisation rules, the figures
 * computed per function, the pairing of events, and the func and dstack
 * records written and read back (through their codecs, rec_profile.h).
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record.h"
#include "stackdiff.h"

static const char *
norm(const char *s, int keep, int hex)
{
	static struct pv_strbuf sb = PV_STRBUF_INIT;
	struct pv_stackdiff_opts o = { .keep_suffixes = keep, .strip_hex = hex };

	pv_strbuf_reset(&sb);
	pv_strbuf_addstr(&sb, "<");	/* appends after what is there */
	pv_stackdiff_normalize(&sb, s, strlen(s), &o);
	return sb.buf + 1;
}

START_TEST(test_suffixes)
{
	ck_assert_str_eq(norm("tcp_sendmsg.isra.0", 0, 0), "tcp_sendmsg");
	ck_assert_str_eq(norm("f.constprop.12", 0, 0), "f");
	ck_assert_str_eq(norm("f.part.3", 0, 0), "f");
	ck_assert_str_eq(norm("f.cold", 0, 0), "f");
	ck_assert_str_eq(norm("f.cold.7", 0, 0), "f");
	ck_assert_str_eq(norm("f.llvm.6270514296165467371", 0, 0), "f");
	ck_assert_str_eq(norm("f.lto_priv.0", 0, 0), "f");
	ck_assert_str_eq(norm("f.isra.0.constprop.1.part.2.cold", 0, 0), "f");
	ck_assert_str_eq(norm("f.constprop.0.isra.0", 0, 0), "f");
	ck_assert_str_eq(norm("f.part.0_[k]", 0, 0), "f_[k]");
	ck_assert_str_eq(norm("f.isra.1.cold_[j]", 0, 0), "f_[j]");
}
END_TEST

START_TEST(test_not_suffixes)
{
	/* a suffix needs its number, and a name is never emptied */
	ck_assert_str_eq(norm("f.isra", 0, 0), "f.isra");
	ck_assert_str_eq(norm("f.isra.x", 0, 0), "f.isra.x");
	ck_assert_str_eq(norm("f.cold1", 0, 0), "f.cold1");
	ck_assert_str_eq(norm(".cold", 0, 0), ".cold");
	ck_assert_str_eq(norm(".isra.0", 0, 0), ".isra.0");
	ck_assert_str_eq(norm("f.12", 0, 0), "f.12");
	ck_assert_str_eq(norm("libc.so.6", 0, 0), "libc.so.6");
	ck_assert_str_eq(norm("fisra.0", 0, 0), "fisra.0");
	ck_assert_str_eq(norm("", 0, 0), "");
	ck_assert_str_eq(norm("f_[x]", 0, 0), "f_[x]");
	ck_assert_str_eq(norm("f.part.1_[x]", 0, 0), "f.part.1_[x]");
	/* switched off */
	ck_assert_str_eq(norm("f.isra.0", 1, 0), "f.isra.0");
}
END_TEST

START_TEST(test_hex)
{
	ck_assert_str_eq(norm("0x234f2abc", 0, 1), "0x...");
	ck_assert_str_eq(norm("[unknown] 0xF1BDE348 at 0x1", 0, 1),
			 "[unknown] 0x... at 0x...");
	ck_assert_str_eq(norm("0x", 0, 1), "0x");
	ck_assert_str_eq(norm("0xg", 0, 1), "0xg");
	ck_assert_str_eq(norm("a0x1b", 0, 1), "a0x...");
	ck_assert_str_eq(norm("0x1f", 0, 0), "0x1f");
	ck_assert_str_eq(norm("f.isra.0+0x12", 0, 1), "f.isra.0+0x...");
	ck_assert_str_eq(norm("0xab.cold", 0, 1), "0x...");
}
END_TEST

static struct pv_str ev_none = { "", 0 };

/* Add a stack written "f;g;h", "\\;" standing for a ';' in a name. */
static void
add(struct pv_stackdiff *d, int side, const char *ev, const char *stack,
    uint64_t period)
{
	static char buf[256];
	struct pv_str f[16], e = { ev, strlen(ev) };
	size_t n = 0, k = 0;
	const char *p;

	f[0].s = buf;
	for (p = stack;; p++) {
		if (*p == '\\' && p[1] == ';') {
			buf[k++] = *++p;
		} else if (*p == ';' || *p == '\0') {
			f[n].len = (size_t)(buf + k - f[n].s);
			n++;
			if (*p == '\0')
				break;
			f[n].s = buf + k;
		} else {
			buf[k++] = *p;
		}
	}
	pv_stackdiff_add(d, side, e, f, n, 1, period);
}

static const struct pv_stackdiff_func *
find(const struct pv_stackdiff *d, const char *name)
{
	size_t i;

	for (i = 0; i < d->nfunc; i++) {
		if (pv_str_eq(pv_symtab_get(&d->names, d->func[i].name), name))
			return &d->func[i];
	}
	return NULL;
}

START_TEST(test_compute)
{
	struct pv_stackdiff d;
	const struct pv_stackdiff_func *f;

	pv_stackdiff_init(&d, NULL);
	add(&d, PV_SIDE_BASE, "", "main;a;b", 30);
	add(&d, PV_SIDE_BASE, "", "main;a", 10);
	add(&d, PV_SIDE_BASE, "", "main;r;r;r", 60);
	add(&d, PV_SIDE_TARGET, "", "main;a;b.isra.0", 100);
	add(&d, PV_SIDE_TARGET, "", "main;a;b", 20);
	add(&d, PV_SIDE_TARGET, "", "main;c", 80);
	ck_assert_int_eq(pv_stackdiff_compute(&d), 0);
	ck_assert_uint_eq(d.ntotal, 1);
	ck_assert_uint_eq(d.total[0].period[0], 100);
	ck_assert_uint_eq(d.total[0].period[1], 200);
	ck_assert_uint_eq(d.total[0].samples[1], 3);
	ck_assert_uint_eq(pv_stackdiff_nstacks(&d), 4);	/* b.isra.0 merged into b */

	f = find(&d, "b");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->excl[0], 30);
	ck_assert_uint_eq(f->excl[1], 120);
	ck_assert(f->excl_pct[0] == 30.0 && f->excl_pct[1] == 60.0);
	ck_assert(f->delta_excl == 30.0);
	ck_assert(f->rel_excl == 1.0);
	ck_assert_uint_eq(f->presence, PV_IN_BASE | PV_IN_TARGET);
	/* the largest growth comes first: c (+40), then b (+30) */
	ck_assert_ptr_eq(f, &d.func[1]);
	ck_assert_ptr_eq(find(&d, "c"), &d.func[0]);

	f = find(&d, "r");	/* recursive: inclusive once per stack */
	ck_assert_uint_eq(f->incl[0], 60);
	ck_assert_uint_eq(f->excl[0], 60);
	ck_assert_uint_eq(f->presence, PV_IN_BASE);
	ck_assert(f->excl_pct[1] == 0.0 && f->rel_excl == -1.0);

	f = find(&d, "c");
	ck_assert_uint_eq(f->presence, PV_IN_TARGET);
	ck_assert(isnan(f->rel_excl) && isnan(f->rel_incl));
	ck_assert(f->incl_pct[1] == 40.0);

	f = find(&d, "main");
	ck_assert(f->incl_pct[0] == 100.0 && f->incl_pct[1] == 100.0);
	ck_assert(f->delta_incl == 0.0 && f->excl[0] == 0);

	ck_assert_int_eq(pv_stackdiff_moved(&d, 1.0), 1);
	ck_assert_int_eq(pv_stackdiff_moved(&d, 60.0), 0);
	pv_stackdiff_release(&d);
}
END_TEST

/* Room reserved too small, or large: the same counts as without. */
START_TEST(test_reserve)
{
	static const size_t room[] = { 1, 3, 4, 1000 };
	struct pv_stackdiff d;
	const struct pv_stackdiff_func *f;
	size_t k;

	for (k = 0; k < sizeof(room) / sizeof(room[0]); k++) {
		pv_stackdiff_init(&d, NULL);
		pv_stackdiff_reserve(&d, room[k]);
		add(&d, PV_SIDE_BASE, "", "main;a;b", 30);
		add(&d, PV_SIDE_BASE, "", "main;a", 10);
		add(&d, PV_SIDE_TARGET, "", "main;a;b", 20);
		add(&d, PV_SIDE_TARGET, "", "main;c", 80);
		add(&d, PV_SIDE_BASE, "", "main;c;d", 60);
		add(&d, PV_SIDE_TARGET, "", "main;a", 5);
		ck_assert_int_eq(pv_stackdiff_compute(&d), 0);
		ck_assert_uint_eq(pv_stackdiff_nstacks(&d), 4);
		ck_assert_uint_eq(d.total[0].period[0], 100);
		ck_assert_uint_eq(d.total[0].period[1], 105);
		f = find(&d, "a");
		ck_assert_uint_eq(f->excl[0], 10);
		ck_assert_uint_eq(f->excl[1], 5);
		ck_assert_uint_eq(f->incl[0], 40);
		ck_assert_uint_eq(f->incl[1], 25);
		f = find(&d, "d");
		ck_assert_uint_eq(f->presence, PV_IN_BASE);
		ck_assert_uint_eq(f->excl[1], 0);
		pv_stackdiff_release(&d);
	}
}
END_TEST

START_TEST(test_raw)
{
	struct pv_stackdiff d;
	struct pv_stackdiff_opts o = { .raw = 1 };
	const struct pv_stackdiff_func *f;

	pv_stackdiff_init(&d, &o);
	add(&d, PV_SIDE_BASE, "cycles", "m;a", 50);
	add(&d, PV_SIDE_BASE, "cycles", "m;b", 50);
	add(&d, PV_SIDE_TARGET, "cycles", "m;a", 100);
	add(&d, PV_SIDE_TARGET, "cycles", "m;b", 100);
	ck_assert_int_eq(pv_stackdiff_compute(&d), 0);
	f = find(&d, "a");
	ck_assert(f->excl_pct[0] == 50.0 && f->excl_pct[1] == 100.0);
	ck_assert(f->rel_excl == 1.0);
	pv_stackdiff_release(&d);

	/* the same, normalised: nothing moved */
	pv_stackdiff_init(&d, NULL);
	add(&d, PV_SIDE_BASE, "cycles", "m;a", 50);
	add(&d, PV_SIDE_BASE, "cycles", "m;b", 50);
	add(&d, PV_SIDE_TARGET, "cycles", "m;a", 100);
	add(&d, PV_SIDE_TARGET, "cycles", "m;b", 100);
	ck_assert_int_eq(pv_stackdiff_compute(&d), 0);
	ck_assert_int_eq(pv_stackdiff_moved(&d, 0.0), 0);
	pv_stackdiff_release(&d);
}
END_TEST

START_TEST(test_events)
{
	struct pv_stackdiff d;

	/* folded baseline (no event) against one event: paired */
	pv_stackdiff_init(&d, NULL);
	add(&d, PV_SIDE_BASE, "", "m;a", 5);
	add(&d, PV_SIDE_TARGET, "cpu-clock", "m;a", 7);
	ck_assert_int_eq(pv_stackdiff_compute(&d), 0);
	ck_assert_uint_eq(d.ntotal, 1);
	ck_assert(pv_str_eq(pv_symtab_get(&d.names, d.total[0].event),
			    "cpu-clock"));
	ck_assert_uint_eq(pv_stackdiff_nstacks(&d), 1);
	ck_assert_uint_eq(d.total[0].period[0], 5);
	pv_stackdiff_release(&d);

	/* two events on a side: kept apart, sorted by name */
	pv_stackdiff_init(&d, NULL);
	add(&d, PV_SIDE_BASE, "instructions", "m;a", 5);
	add(&d, PV_SIDE_BASE, "cycles", "m;a", 5);
	add(&d, PV_SIDE_TARGET, "cycles", "m;b", 7);
	ck_assert_int_eq(pv_stackdiff_compute(&d), 0);
	ck_assert_uint_eq(d.ntotal, 2);
	ck_assert(pv_str_eq(pv_symtab_get(&d.names, d.total[0].event),
			    "cycles"));
	ck_assert_uint_eq(d.total[1].period[1], 0);
	ck_assert(pv_str_eq(pv_symtab_get(&d.names, d.func[0].event),
			    "cycles"));
	pv_stackdiff_release(&d);
	(void)ev_none;
}
END_TEST

START_TEST(test_overflow)
{
	struct pv_stackdiff d;

	pv_stackdiff_init(&d, NULL);
	add(&d, PV_SIDE_BASE, "", "m", UINT64_MAX);
	add(&d, PV_SIDE_BASE, "", "n", 1);
	ck_assert_int_eq(pv_stackdiff_compute(&d), -1);
	ck_assert_str_eq(pv_err_msg(&d.err), "a count does not fit in 64 bits");
	pv_stackdiff_release(&d);
}
END_TEST

/*
 * pv_stackdiff_merge(): a baseline added to one struct and a target
 * gathered in another (pv_stackdiff_collect()), merged, compute and write
 * what adding both to one does, byte for byte (names ids, call paths,
 * events, frame records, a stack repeated); a tree that might not hold
 * both is refused with d unchanged.
 */
static void
frame_rec(struct pv_stackdiff *d, int side, const char *name,
	  const char *module)
{
	struct pv_rec_frame f;

	memset(&f, 0, sizeof(f));
	f.name.s = name;
	f.name.len = strlen(name);
	f.module.s = module;
	f.module.len = strlen(module);
	f.space.s = "user";
	f.space.len = 4;
	f.file.s = f.subsys.s = "";	/* absent, as a record reads */
	pv_stackdiff_add_frame(d, side, &f);
}

static void
fill(struct pv_stackdiff *d, int side)
{
	if (side == PV_SIDE_BASE) {
		frame_rec(d, side, "main", "prog");
		frame_rec(d, side, "f.isra.0", "libc");
		add(d, side, "cycles", "main;f.isra.0;g", 10);
		add(d, side, "cycles", "main;f;h", 5);
		add(d, side, "cycles", "main;x", 3);
		add(d, side, "", "other;y", 2);
	} else {
		frame_rec(d, side, "f", "libm");
		frame_rec(d, side, "z", "libz");
		add(d, side, "cycles", "main;f;g", 7);
		add(d, side, "cycles", "main;z;w", 4);
		add(d, side, "instructions", "main;z", 9);
		add(d, side, "cycles", "main;x", 6);
		add(d, side, "cycles", "main;f;g", 1);
	}
}

static char *
written(struct pv_stackdiff *d, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(pv_stackdiff_compute(d), 0);
	pv_stackdiff_write(d, f);
	fclose(f);
	return buf;
}

START_TEST(test_merge)
{
	struct pv_stackdiff_opts o = { .groups = 1, .match = 1,
				       .merge_roots = 1 };
	struct pv_stackdiff one, base, target;
	char *a, *b;
	size_t alen, blen, nnode;

	pv_stackdiff_init(&one, &o);
	fill(&one, PV_SIDE_BASE);
	fill(&one, PV_SIDE_TARGET);
	pv_stackdiff_init(&base, &o);
	fill(&base, PV_SIDE_BASE);
	pv_stackdiff_init(&target, &o);
	pv_stackdiff_collect(&target, PV_SIDE_TARGET);
	fill(&target, PV_SIDE_TARGET);
	ck_assert_int_eq(pv_stackdiff_merge(&base, &target), 0);
	a = written(&one, &alen);
	b = written(&base, &blen);
	ck_assert_uint_gt(alen, 0);
	ck_assert_uint_eq(alen, blen);
	ck_assert(memcmp(a, b, alen) == 0);
	ck_assert_ptr_nonnull(strstr(a, "dstack\tcycles\t10\t8\tmain;f;g\n"));
	free(a);
	free(b);
	pv_stackdiff_release(&one);
	pv_stackdiff_release(&base);

	/* no room: refused, nothing changed */
	pv_stackdiff_init(&base, &o);
	fill(&base, PV_SIDE_BASE);
	base.tree.max = base.tree.nnode;
	nnode = base.tree.nnode;
	ck_assert_int_eq(pv_stackdiff_merge(&base, &target), -1);
	ck_assert_uint_eq(base.tree.nnode, nnode);
	pv_stackdiff_release(&base);
	pv_stackdiff_release(&target);
}
END_TEST

/*
 * Computed and written in two parts, the stacks' before the functions',
 * with every option that adds records: the bytes of one part and one
 * write, and the stacks written before the functions are counted.
 */
START_TEST(test_parts)
{
	struct pv_stackdiff_opts o = { .groups = 1, .match = 1,
				       .merge_roots = 1, .function = "f" };
	struct pv_stackdiff one, two;
	char *a, *b = NULL;
	size_t alen, blen, stacks;
	FILE *f;

	pv_stackdiff_init(&one, &o);
	fill(&one, PV_SIDE_BASE);
	fill(&one, PV_SIDE_TARGET);
	pv_stackdiff_init(&two, &o);
	fill(&two, PV_SIDE_BASE);
	fill(&two, PV_SIDE_TARGET);
	a = written(&one, &alen);
	f = open_memstream(&b, &blen);
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(pv_stackdiff_compute_stacks(&two), 0);
	ck_assert_uint_eq(two.nfunc, 0);
	pv_stackdiff_write_stacks(&two, f);
	ck_assert_int_eq(fflush(f), 0);
	stacks = blen;
	ck_assert_int_eq(pv_stackdiff_compute_funcs(&two), 0);
	ck_assert_uint_gt(two.nfunc, 0);
	pv_stackdiff_write_funcs(&two, f);
	fclose(f);
	ck_assert_uint_eq(alen, blen);
	ck_assert(memcmp(a, b, alen) == 0);
	/* the parts split where the dstack records end */
	ck_assert_ptr_null(strstr(b + stacks, "dstack\t"));
	ck_assert(strncmp(b + stacks, "func\t", 5) == 0);
	ck_assert_ptr_nonnull(strstr(a, "\npath\t"));
	free(a);
	free(b);
	pv_stackdiff_release(&one);
	pv_stackdiff_release(&two);
}
END_TEST

/* Records written, then read back by the reader and parsed. */
START_TEST(test_roundtrip)
{
	struct pv_stackdiff d, back;
	struct pv_err e = PV_ERR_INIT;
	char path[] = "/tmp/check_stackdiff.XXXXXX";
	struct pv_reader *r;
	struct pv_record rec;
	FILE *f;
	int fd, rc;
	size_t nfunc = 0, ndstack = 0;

	pv_stackdiff_init(&d, NULL);
	add(&d, PV_SIDE_BASE, "ev\tx", "m;a\\;b;c", 3);
	add(&d, PV_SIDE_TARGET, "ev\tx", "m;a\\;b", 4);
	add(&d, PV_SIDE_TARGET, "ev\tx", "m;d", 4);
	ck_assert_int_eq(pv_stackdiff_compute(&d), 0);
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	pv_stackdiff_write(&d, f);
	ck_assert_int_eq(fclose(f), 0);

	pv_stackdiff_init(&back, NULL);
	r = pv_reader_open(path);
	ck_assert_ptr_nonnull(r);
	while ((rc = pv_reader_next(r, &rec)) > 0) {
		struct pv_rec_dstack ds;
		struct pv_rec_func fn;
		const struct pv_stackdiff_func *want;

		ck_assert_int_eq(rec.type, PV_REC_OTHER);
		if (pv_str_eq(rec.field[0], "dstack")) {
			ck_assert_int_eq(pv_rec_dstack_parse(&rec, &ds, &e), 0);
			ck_assert_int_eq(pv_stackdiff_add_dstack(&back, &ds), 0);
			ndstack++;
		} else if (pv_str_eq(rec.field[0], "func")) {
			ck_assert_int_eq(pv_rec_func_parse(&rec, &fn, &e), 0);
			want = &d.func[nfunc++];
			ck_assert(pv_str_eq(fn.name,
				  pv_symtab_get(&d.names, want->name).s));
			ck_assert(pv_str_eq(fn.event, "ev\tx"));
			ck_assert_uint_eq(fn.incl[1], want->incl[1]);
			ck_assert(fn.delta_excl == want->delta_excl);
			ck_assert(isnan(fn.rel_excl) == isnan(want->rel_excl));
			ck_assert_uint_eq(fn.presence, want->presence);
		}
	}
	ck_assert_int_eq(rc, 0);
	pv_reader_close(r);
	unlink(path);
	ck_assert_uint_eq(nfunc, d.nfunc);
	ck_assert_uint_eq(ndstack, 3);
	/* the frame with an escaped ';' came back as one frame */
	ck_assert_int_eq(pv_stackdiff_compute(&back), 0);
	ck_assert_ptr_nonnull(find(&back, "a;b"));
	ck_assert_uint_eq(back.nfunc, d.nfunc);
	ck_assert_uint_eq(back.total[0].period[1], 8);
	pv_stackdiff_release(&back);
	pv_stackdiff_release(&d);
}
END_TEST

static Suite *
stackdiff_suite(void)
{
	Suite *s = suite_create("stackdiff");
	TCase *tc = tcase_create("normalise");

	tcase_add_test(tc, test_suffixes);
	tcase_add_test(tc, test_not_suffixes);
	tcase_add_test(tc, test_hex);
	suite_add_tcase(s, tc);
	tc = tcase_create("compute");
	tcase_add_test(tc, test_compute);
	tcase_add_test(tc, test_raw);
	tcase_add_test(tc, test_reserve);
	tcase_add_test(tc, test_events);
	tcase_add_test(tc, test_overflow);
	tcase_add_test(tc, test_merge);
	suite_add_tcase(s, tc);
	tc = tcase_create("records");
	tcase_add_test(tc, test_parts);
	tcase_add_test(tc, test_roundtrip);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(stackdiff_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
