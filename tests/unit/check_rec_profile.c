/*
 * Unit tests of lib/rec_profile: the stack, frame, rootmerge, total,
 * dstack, func, group, match and path records
 * written byte for byte, read back to the same values through the reader,
 * and their malformed forms refused with the message that names the field.
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rec_profile.h"

/*
 * Read the first record of text (written to a temporary file) into *rec;
 * the reader stays open, so that rec's strings stay valid, until the next
 * call or done().
 */
static struct pv_reader *reader;
static char path[] = "/tmp/check_rec_profile.XXXXXX";

static void
done(void)
{
	if (reader != NULL) {
		pv_reader_close(reader);
		unlink(path);
		reader = NULL;
	}
}

static void
read_one(const char *text, struct pv_record *rec)
{
	FILE *f;
	int fd;

	done();
	memcpy(path + strlen(path) - 6, "XXXXXX", 6);
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
	reader = pv_reader_open(path);
	ck_assert_ptr_nonnull(reader);
	ck_assert_int_eq(pv_reader_next(reader, rec), 1);
}

static struct pv_str
S(const char *s)
{
	struct pv_str v = { s, strlen(s) };

	return v;
}

START_TEST(test_stack)
{
	struct pv_strbuf sb = PV_STRBUF_INIT;
	struct pv_str fr[3] = { { "main", 4 }, { "a;b", 3 }, { "t\tb\\", 4 } };
	struct pv_rec_stack s = { { "", 0 }, 2, 18446744073709551615ULL, fr,
				  3 };
	struct pv_record rec;

	pv_rec_stack_write(&sb, &s);
	ck_assert_str_eq(sb.buf, "stack\t-\t2\t18446744073709551615\t"
			 "main;a\\;b;t\\tb\\\\\n");
	read_one(sb.buf, &rec);
	ck_assert_int_eq(rec.type, PV_REC_STACK);
	ck_assert_uint_eq(rec.nframe, 3);
	ck_assert(pv_str_eq(rec.frame[1], "a;b"));
	ck_assert(pv_str_eq(rec.frame[2], "t\tb\\"));
	ck_assert_uint_eq(rec.period, 18446744073709551615ULL);
	/* an event, escaped as a field; an empty frame list */
	pv_strbuf_reset(&sb);
	s.event = S("c\ty;");
	s.nframe = 0;
	pv_rec_stack_write(&sb, &s);
	ck_assert_str_eq(sb.buf, "stack\tc\\ty;\t2\t18446744073709551615\t\n");
	done();
	pv_strbuf_release(&sb);
}
END_TEST

START_TEST(test_total)
{
	struct pv_strbuf sb = PV_STRBUF_INIT;
	struct pv_rec_total t = { { "cycles", 6 }, { 10, 20 }, { 1, 2 } }, b;
	struct pv_record rec;
	struct pv_err e = PV_ERR_INIT;

	pv_rec_total_write(&sb, &t);
	ck_assert_str_eq(sb.buf, "total\tcycles\t10\t20\t1\t2\n");
	read_one(sb.buf, &rec);
	ck_assert_int_eq(pv_rec_total_parse(&rec, &b, &e), 0);
	ck_assert(pv_str_eq(b.event, "cycles"));
	ck_assert_uint_eq(b.period[0], 10);
	ck_assert_uint_eq(b.period[1], 20);
	ck_assert_uint_eq(b.samples[0], 1);
	ck_assert_uint_eq(b.samples[1], 2);
	read_one("total\t-\t1\t2\t3\t4\n", &rec);
	ck_assert_int_eq(pv_rec_total_parse(&rec, &b, &e), 0);
	ck_assert_uint_eq(b.event.len, 0);
	done();
	pv_strbuf_release(&sb);
}
END_TEST

START_TEST(test_dstack)
{
	struct pv_strbuf sb = PV_STRBUF_INIT, esc = PV_STRBUF_INIT;
	struct pv_str fr[2] = { { "m", 1 }, { "a;b\n", 4 } }, efr[2];
	struct pv_rec_dstack d = { { "", 0 }, { 3, 0 }, fr, 2, 0, { "", 0 } }, b;
	struct pv_record rec;
	struct pv_err e = PV_ERR_INIT;
	size_t i, off[3];

	pv_rec_dstack_write(&sb, &d);
	ck_assert_str_eq(sb.buf, "dstack\t-\t3\t0\tm;a\\;b\\n\n");
	/* the same line from names escaped beforehand */
	for (i = 0; i < 2; i++) {
		off[i] = esc.len;
		pv_rec_frame_escape(&esc, fr[i].s, fr[i].len);
	}
	off[2] = esc.len;
	for (i = 0; i < 2; i++) {
		efr[i].s = esc.buf + off[i];
		efr[i].len = off[i + 1] - off[i];
	}
	d.frame = efr;
	d.escaped = 1;
	pv_strbuf_reset(&sb);
	pv_rec_dstack_write(&sb, &d);
	ck_assert_str_eq(sb.buf, "dstack\t-\t3\t0\tm;a\\;b\\n\n");
	read_one(sb.buf, &rec);
	ck_assert_int_eq(pv_rec_dstack_parse(&rec, &b, &e), 0);
	ck_assert_uint_eq(b.event.len, 0);
	ck_assert_uint_eq(b.period[0], 3);
	ck_assert_uint_eq(b.period[1], 0);
	ck_assert_int_eq(b.escaped, 0);
	ck_assert_uint_eq(b.nframe, 2);
	ck_assert(pv_str_eq(b.frame[1], "a;b\n"));
	ck_assert(pv_str_eq(b.frames_raw, "m;a\\;b\\n"));
	done();
	/* and from them joined beforehand, as a walk keeps its path */
	d.frame = NULL;
	d.nframe = 0;
	pv_strbuf_reset(&esc);
	pv_rec_frame_escape(&esc, fr[0].s, fr[0].len);
	pv_strbuf_addch(&esc, ';');
	pv_rec_frame_escape(&esc, fr[1].s, fr[1].len);
	d.frames_raw.s = esc.buf;
	d.frames_raw.len = esc.len;
	pv_strbuf_reset(&sb);
	pv_rec_dstack_write(&sb, &d);
	ck_assert_str_eq(sb.buf, "dstack\t-\t3\t0\tm;a\\;b\\n\n");
	/* an empty path: the stack of the event alone */
	d.frames_raw.len = 0;
	pv_strbuf_reset(&sb);
	pv_rec_dstack_write(&sb, &d);
	ck_assert_str_eq(sb.buf, "dstack\t-\t3\t0\t\n");
	pv_strbuf_release(&sb);
	pv_strbuf_release(&esc);
}
END_TEST

START_TEST(test_func)
{
	struct pv_strbuf sb = PV_STRBUF_INIT;
	struct pv_rec_func f, b;
	struct pv_record rec;
	struct pv_err e = PV_ERR_INIT;

	memset(&f, 0, sizeof(f));
	f.event = S("cpu-clock");
	f.name = S("f\tx");
	f.incl[0] = 3;
	f.excl[0] = 1;
	f.incl[1] = 4;
	f.excl[1] = 0;
	f.incl_pct[0] = 100.0 * 3 / 7;
	f.excl_pct[0] = 100.0 / 7;
	f.incl_pct[1] = 50;
	f.excl_pct[1] = 0;
	f.delta_incl = f.incl_pct[1] - f.incl_pct[0];
	f.delta_excl = -f.excl_pct[0];
	f.rel_incl = f.incl_pct[1] / f.incl_pct[0] - 1;
	f.rel_excl = -1;
	f.presence = PV_IN_BASE | PV_IN_TARGET;
	pv_rec_func_write(&sb, &f);
	ck_assert_str_eq(sb.buf, "func\tcpu-clock\tf\\tx\t3\t1\t4\t0\t"
			 "42.857142857142854\t14.285714285714286\t50\t0\t"
			 "7.142857142857146\t-14.285714285714286\t"
			 "0.16666666666666674\t-1\tboth\n");
	read_one(sb.buf, &rec);
	ck_assert_int_eq(pv_rec_func_parse(&rec, &b, &e), 0);
	ck_assert(pv_str_eq(b.event, "cpu-clock"));
	ck_assert(pv_str_eq(b.name, "f\tx"));
	ck_assert_uint_eq(b.incl[1], 4);
	ck_assert_uint_eq(b.excl[0], 1);
	/* the shortest form reads back to the same double */
	ck_assert(b.incl_pct[0] == f.incl_pct[0]);
	ck_assert(b.delta_incl == f.delta_incl);
	ck_assert(b.rel_incl == f.rel_incl);
	ck_assert_uint_eq(b.presence, PV_IN_BASE | PV_IN_TARGET);

	/* no share in the baseline: '-' for the relative changes */
	f.event = S("");
	f.rel_incl = f.rel_excl = NAN;
	f.presence = PV_IN_TARGET;
	pv_strbuf_reset(&sb);
	pv_rec_func_write(&sb, &f);
	ck_assert_ptr_nonnull(strstr(sb.buf, "\t-\t-\ttarget\n"));
	ck_assert_int_eq(strncmp(sb.buf, "func\t-\t", 7), 0);
	read_one(sb.buf, &rec);
	ck_assert_int_eq(pv_rec_func_parse(&rec, &b, &e), 0);
	ck_assert(isnan(b.rel_incl) && isnan(b.rel_excl));
	ck_assert_uint_eq(b.presence, PV_IN_TARGET);
	ck_assert_uint_eq(b.event.len, 0);
	done();
	pv_strbuf_release(&sb);
}
END_TEST

START_TEST(test_frame)
{
	struct pv_strbuf sb = PV_STRBUF_INIT;
	struct pv_rec_frame f = { { "do_sys;x_[k]", 12 }, { "kernel", 6 },
				  { "[kernel.kallsyms]", 17 },
				  { "fs/read\twrite.c", 15 }, { "", 0 } }, b;
	struct pv_record rec;
	struct pv_err e = PV_ERR_INIT;

	pv_rec_frame_write(&sb, &f);
	ck_assert_str_eq(sb.buf, "frame\tdo_sys;x_[k]\tkernel\t"
			 "[kernel.kallsyms]\tfs/read\\twrite.c\t-\n");
	read_one(sb.buf, &rec);
	ck_assert_int_eq(rec.type, PV_REC_OTHER);
	ck_assert_int_eq(pv_rec_frame_parse(&rec, &b, &e), 0);
	ck_assert(pv_str_eq(b.name, "do_sys;x_[k]"));
	ck_assert(pv_str_eq(b.space, "kernel"));
	ck_assert(pv_str_eq(b.module, "[kernel.kallsyms]"));
	ck_assert(pv_str_eq(b.file, "fs/read\twrite.c"));
	ck_assert_uint_eq(b.subsys.len, 0);
	read_one("frame\tmain\t-\t-\t-\tSCHEDULER\n", &rec);
	ck_assert_int_eq(pv_rec_frame_parse(&rec, &b, &e), 0);
	ck_assert_uint_eq(b.space.len + b.module.len + b.file.len, 0);
	ck_assert(pv_str_eq(b.subsys, "SCHEDULER"));
	done();
	pv_strbuf_release(&sb);
}
END_TEST

static void
some_figures(struct pv_rec_figures *g)
{
	memset(g, 0, sizeof(*g));
	g->incl[0] = 3;
	g->excl[0] = 1;
	g->incl[1] = 4;
	g->incl_pct[0] = 30;
	g->excl_pct[0] = 10;
	g->incl_pct[1] = 40;
	g->delta_incl = 10;
	g->delta_excl = -10;
	g->rel_incl = 1.0 / 3;
	g->rel_excl = -1;
}

START_TEST(test_group)
{
	struct pv_strbuf sb = PV_STRBUF_INIT;
	struct pv_rec_group g, b;
	struct pv_record rec;
	struct pv_err e = PV_ERR_INIT;

	memset(&g, 0, sizeof(g));
	g.event = S("cycles");
	g.kind = PV_GROUP_SUBSYSTEM;
	g.name = S("SCHEDULER");
	some_figures(&g.fig);
	g.presence = PV_IN_BASE | PV_IN_TARGET;
	pv_rec_group_write(&sb, &g);
	ck_assert_str_eq(sb.buf, "group\tcycles\tsubsystem\tSCHEDULER\t3\t1\t"
			 "4\t0\t30\t10\t40\t0\t10\t-10\t"
			 "0.3333333333333333\t-1\tboth\n");
	read_one(sb.buf, &rec);
	ck_assert_int_eq(pv_rec_group_parse(&rec, &b, &e), 0);
	ck_assert(pv_str_eq(b.event, "cycles"));
	ck_assert_uint_eq(b.kind, PV_GROUP_SUBSYSTEM);
	ck_assert(pv_str_eq(b.name, "SCHEDULER"));
	ck_assert(memcmp(&b.fig, &g.fig, sizeof(g.fig)) == 0);
	ck_assert_uint_eq(b.presence, PV_IN_BASE | PV_IN_TARGET);
	done();
	pv_strbuf_release(&sb);
}
END_TEST

START_TEST(test_match)
{
	struct pv_strbuf sb = PV_STRBUF_INIT;
	struct pv_rec_match m, b;
	struct pv_record rec;
	struct pv_err e = PV_ERR_INIT;

	memset(&m, 0, sizeof(m));
	m.name[0] = S("parse_old");
	m.name[1] = S("parse_new");
	some_figures(&m.fig);
	m.fig.rel_incl = NAN;
	m.score = 0.75;
	pv_rec_match_write(&sb, &m);
	ck_assert_str_eq(sb.buf, "match\t-\tparse_old\tparse_new\t3\t1\t4\t0\t"
			 "30\t10\t40\t0\t10\t-10\t-\t-1\t0.75\n");
	read_one(sb.buf, &rec);
	ck_assert_int_eq(pv_rec_match_parse(&rec, &b, &e), 0);
	ck_assert_uint_eq(b.event.len, 0);
	ck_assert(pv_str_eq(b.name[0], "parse_old"));
	ck_assert(pv_str_eq(b.name[1], "parse_new"));
	ck_assert(isnan(b.fig.rel_incl));
	ck_assert(b.score == 0.75);
	done();
	pv_strbuf_release(&sb);
}
END_TEST

START_TEST(test_path)
{
	struct pv_strbuf sb = PV_STRBUF_INIT;
	struct pv_str fr[3] = { { "f", 1 }, { "a;b", 3 }, { "main", 4 } };
	struct pv_rec_path p, b;
	struct pv_record rec;
	struct pv_err e = PV_ERR_INIT;

	memset(&p, 0, sizeof(p));
	p.event = S("cpu-clock");
	p.dir = PV_PATH_CALLERS;
	some_figures(&p.fig);
	p.frame = fr;
	p.nframe = 3;
	pv_rec_path_write(&sb, &p);
	ck_assert_str_eq(sb.buf, "path\tcpu-clock\tcallers\t3\t1\t4\t0\t30\t"
			 "10\t40\t0\t10\t-10\t0.3333333333333333\t-1\t"
			 "f;a\\;b;main\n");
	read_one(sb.buf, &rec);
	ck_assert_int_eq(pv_rec_path_parse(&rec, &b, &e), 0);
	ck_assert_uint_eq(b.dir, PV_PATH_CALLERS);
	ck_assert_uint_eq(b.nframe, 3);
	ck_assert(pv_str_eq(b.frame[1], "a;b"));
	ck_assert(pv_str_eq(b.frame[2], "main"));
	ck_assert(memcmp(&b.fig, &p.fig, sizeof(p.fig)) == 0);
	p.dir = PV_PATH_CALLEES;
	p.nframe = 1;
	pv_strbuf_reset(&sb);
	pv_rec_path_write(&sb, &p);
	read_one(sb.buf, &rec);
	ck_assert_int_eq(pv_rec_path_parse(&rec, &b, &e), 0);
	ck_assert_uint_eq(b.dir, PV_PATH_CALLEES);
	ck_assert_uint_eq(b.nframe, 1);
	ck_assert(pv_str_eq(b.frame[0], "f"));
	done();
	pv_strbuf_release(&sb);
}
END_TEST

START_TEST(test_rootmerge)
{
	struct pv_strbuf sb = PV_STRBUF_INIT;
	struct pv_rec_rootmerge m = { { { "slow-a", 6 }, { "slow\tb", 6 } },
				      0.5 }, b;
	struct pv_record rec;
	struct pv_err e = PV_ERR_INIT;

	pv_rec_rootmerge_write(&sb, &m);
	ck_assert_str_eq(sb.buf, "rootmerge\tslow-a\tslow\\tb\t0.5\n");
	read_one(sb.buf, &rec);
	ck_assert_int_eq(pv_rec_rootmerge_parse(&rec, &b, &e), 0);
	ck_assert(pv_str_eq(b.name[0], "slow-a"));
	ck_assert(pv_str_eq(b.name[1], "slow\tb"));
	ck_assert(b.score == 0.5);
	done();
	pv_strbuf_release(&sb);
}
END_TEST

/* The message of the first record of text, which must be refused. */
static const char *
refused(const char *text)
{
	static struct pv_err e;
	struct pv_record rec;
	union {
		struct pv_rec_total t;
		struct pv_rec_dstack d;
		struct pv_rec_func f;
		struct pv_rec_frame fr;
		struct pv_rec_group g;
		struct pv_rec_match m;
		struct pv_rec_path p;
		struct pv_rec_rootmerge r;
	} u;
	int rc = 0;

	pv_err_clear(&e);
	read_one(text, &rec);
	if (pv_str_eq(rec.field[0], "total"))
		rc = pv_rec_total_parse(&rec, &u.t, &e);
	else if (pv_str_eq(rec.field[0], "dstack"))
		rc = pv_rec_dstack_parse(&rec, &u.d, &e);
	else if (pv_str_eq(rec.field[0], "func"))
		rc = pv_rec_func_parse(&rec, &u.f, &e);
	else if (pv_str_eq(rec.field[0], "frame"))
		rc = pv_rec_frame_parse(&rec, &u.fr, &e);
	else if (pv_str_eq(rec.field[0], "group"))
		rc = pv_rec_group_parse(&rec, &u.g, &e);
	else if (pv_str_eq(rec.field[0], "match"))
		rc = pv_rec_match_parse(&rec, &u.m, &e);
	else if (pv_str_eq(rec.field[0], "path"))
		rc = pv_rec_path_parse(&rec, &u.p, &e);
	else if (pv_str_eq(rec.field[0], "rootmerge"))
		rc = pv_rec_rootmerge_parse(&rec, &u.r, &e);
	ck_assert_int_eq(rc, -1);
	return pv_err_msg(&e);
}

START_TEST(test_refused)
{
	ck_assert_str_eq(refused("total\tc\t1\t2\t3\n"),
			 "'total' record has 4 fields, expected 5");
	ck_assert_str_eq(refused("total\tc\t1\t2\t3\tx\n"),
			 "total record: target sample count 'x' is not a "
			 "whole number in range");
	ck_assert_str_eq(refused("dstack\tc\t1\t2\n"),
			 "'dstack' record has 3 fields, expected 4");
	ck_assert_str_eq(refused("dstack\tc\t4\tsix\tmain;a\n"),
			 "dstack record: target period 'six' is not a whole "
			 "number in range");
	ck_assert_str_eq(refused("dstack\tc\t-1\t6\tmain;a\n"),
			 "dstack record: baseline period '-1' is not a "
			 "whole number in range");
	ck_assert_str_eq(refused("func\t-\tf\t1\n"),
			 "'func' record has 3 fields, expected 15");
	ck_assert_str_eq(refused("func\tc\tf\t1\t0\t1\t0\t100\t0\t100\t0\t"
				 "0\t0\t0\t-\tnowhere\n"),
			 "func record: presence 'nowhere' is not both, base "
			 "or target");
	ck_assert_str_eq(refused("func\tc\tf\t1\t0\t1\tx\t100\t0\t100\t0\t"
				 "0\t0\t0\t-\tboth\n"),
			 "func record: target exclusive count 'x' is not a "
			 "whole number in range");
	ck_assert_str_eq(refused("func\tc\tf\t1\t0\t1\t0\t100\t0\tinf\t0\t"
				 "0\t0\t0\t-\tboth\n"),
			 "func record: target inclusive share 'inf' is not a "
			 "finite number");
	ck_assert_str_eq(refused("func\tc\tf\t1\t0\t1\t0\t100\t0\t100\t0\t"
				 "0\t-\t0\t-\tboth\n"),
			 "func record: exclusive change '-' is not a finite "
			 "number");
	ck_assert_str_eq(refused("func\tc\tf\t1\t0\t1\t0\t100\t0\t100\t0\t"
				 "0\t0\tnan\t-\tboth\n"),
			 "func record: relative inclusive change 'nan' is not "
			 "a finite number or '-'");
	ck_assert_str_eq(refused("frame\tf\tkernel\tm\t-\n"),
			 "'frame' record has 4 fields, expected 5");
	ck_assert_str_eq(refused("frame\tf\tguest\tm\t-\t-\n"),
			 "frame record: space 'guest' is not kernel, user or "
			 "'-'");
	ck_assert_str_eq(refused("group\tc\tdso\tm\t1\t0\t1\t0\t100\t0\t100\t"
				 "0\t0\t0\t0\t-\tboth\n"),
			 "group record: kind 'dso' is not space, module, file "
			 "or subsystem");
	ck_assert_str_eq(refused("group\tc\tfile\tm\t1\t0\t1\t0\t100\t0\t100\t"
				 "0\t0\t0\t0\t-\tall\n"),
			 "group record: presence 'all' is not both, base or "
			 "target");
	ck_assert_str_eq(refused("match\tc\ta\tb\t1\t0\t1\t0\t100\t0\t100\t"
				 "0\t0\t0\t0\t-\t1.5\n"),
			 "match record: score '1.5' is not a number from 0 to 1");
	ck_assert_str_eq(refused("path\tc\tup\t1\t0\t1\t0\t100\t0\t100\t"
				 "0\t0\t0\t0\t-\tf\n"),
			 "path record: direction 'up' is not callers or "
			 "callees");
	ck_assert_str_eq(refused("path\tc\tcallees\t1\t0\t1\t0\t100\t0\t100\t"
				 "0\t0\t0\t0\t-\t\n"),
			 "path record: no frames");
	ck_assert_str_eq(refused("rootmerge\ta\tb\n"),
			 "'rootmerge' record has 2 fields, expected 3");
	ck_assert_str_eq(refused("rootmerge\ta\tb\t-\n"),
			 "rootmerge record: score '-' is not a number from 0 "
			 "to 1");
	done();
}
END_TEST

static Suite *
rec_profile_suite(void)
{
	Suite *s = suite_create("rec_profile");
	TCase *tc = tcase_create("records");

	tcase_add_test(tc, test_stack);
	tcase_add_test(tc, test_total);
	tcase_add_test(tc, test_dstack);
	tcase_add_test(tc, test_func);
	tcase_add_test(tc, test_frame);
	tcase_add_test(tc, test_group);
	tcase_add_test(tc, test_match);
	tcase_add_test(tc, test_path);
	tcase_add_test(tc, test_rootmerge);
	tcase_add_test(tc, test_refused);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(rec_profile_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
