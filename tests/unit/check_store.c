/*
 * check_store: lib/store in a temporary directory: creating and opening,
 * the index (escapes, duplicates, rm, a torn last line skipped by readers
 * and cut by the next writer), objects (names are SHA-256 of the bytes,
 * one copy per content, corruption found), copying with roles, and gc.
 */
#include "config.h"

#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sha256.h"
#include "store.h"

static char dir[256];

static void
setup(void)
{
	char tmpl[] = "/tmp/check_store.XXXXXX";

	ck_assert_ptr_nonnull(mkdtemp(tmpl));
	snprintf(dir, sizeof(dir), "%s/s", tmpl);
}

static void
teardown(void)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%.*s'", (int)(strlen(dir) - 2),
		 dir);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", dir);
}

/* Read a whole small file into a malloc'd string. */
static char *
slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = calloc(1, 1 << 16);
	size_t n;

	ck_assert_ptr_nonnull(f);
	n = fread(buf, 1, (1 << 16) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void
spit(const char *path, const char *s, const char *mode)
{
	FILE *f = fopen(path, mode);

	ck_assert_ptr_nonnull(f);
	fputs(s, f);
	ck_assert_int_eq(fclose(f), 0);
}

static void
index_path(char *buf, size_t len)
{
	snprintf(buf, len, "%s/index", dir);
}

/* Store s as an object; its hash in hash. */
static void
put(struct pv_store *st, const char *s, char hash[65])
{
	struct pv_store_obj *obj = pv_store_obj_begin(st);

	ck_assert_ptr_nonnull(obj);
	ck_assert_int_eq(pv_store_obj_write(st, obj, s, strlen(s)), 0);
	ck_assert_int_eq(pv_store_obj_finish(st, obj), 0);
	memcpy(hash, obj->hash, 65);
	ck_assert_int_ge(pv_store_obj_commit(st, obj), 0);
}

static void
add_entry(struct pv_store *st, const char *version, const char *hash,
	  const char **x, size_t nx)
{
	struct pv_store_entry e;
	struct pv_strbuf sb = PV_STRBUF_INIT;

	memset(&e, 0, sizeof(e));
	e.version = version;
	memcpy(e.hash, hash, 65);
	e.size = 10;
	e.csize = 20;
	e.time = 1700000000;
	e.kinds = "stack";
	e.experiment = x;
	e.nexperiment = nx;
	pv_store_index_format_add(&sb, &e);
	ck_assert_int_eq(pv_store_index_append(st, &sb), 0);
	pv_strbuf_release(&sb);
}

START_TEST(test_create_open)
{
	struct pv_store st = PV_STORE_INIT;
	char p[512];

	ck_assert_int_lt(pv_store_open(&st, dir), 0);
	ck_assert_int_eq(pv_store_create(&st, dir), 0);
	ck_assert_int_eq(pv_store_create(&st, dir), 0);	/* again: fine */
	pv_store_release(&st);
	ck_assert_int_eq(pv_store_open(&st, dir), 0);
	ck_assert_int_eq(pv_store_index_load(&st), 0);
	ck_assert_uint_eq(st.nentry, 0);
	pv_store_release(&st);
	/* a directory holding something else is not made a store */
	snprintf(p, sizeof(p), "%s/other", dir);
	ck_assert_int_eq(mkdir(p, 0777), 0);
	snprintf(p, sizeof(p), "%s/other/file", dir);
	spit(p, "x", "w");
	snprintf(p, sizeof(p), "%s/other", dir);
	ck_assert_int_lt(pv_store_create(&st, p), 0);
	ck_assert_ptr_nonnull(strstr(pv_err_msg(&st.err),
				     "is not a pv store"));
	pv_store_release(&st);
}
END_TEST

START_TEST(test_index_roundtrip)
{
	struct pv_store st = PV_STORE_INIT;
	const char *x[] = { "fu\ttex", "", "pipe\\" };
	char h1[65], h2[65];

	ck_assert_int_eq(pv_store_create(&st, dir), 0);
	put(&st, "pv-format\t1\n", h1);
	put(&st, "pv-format\t1\nmeta\ta\tb\n", h2);
	add_entry(&st, "v6.12", h1, x, 3);
	add_entry(&st, "v6.12", h1, NULL, 0);	/* a duplicate: ignored */
	add_entry(&st, "v6.12", h2, NULL, 0);
	add_entry(&st, "v6.11", h1, NULL, 0);
	ck_assert_int_eq(pv_store_index_load(&st), 0);
	ck_assert_uint_eq(st.nentry, 3);
	ck_assert_str_eq(st.entry[0].version, "v6.12");
	ck_assert_str_eq(st.entry[0].hash, h1);
	ck_assert_uint_eq(st.entry[0].nexperiment, 3);
	ck_assert_str_eq(st.entry[0].experiment[0], "fu\ttex");
	ck_assert_str_eq(st.entry[0].experiment[1], "");
	ck_assert_str_eq(st.entry[0].experiment[2], "pipe\\");
	ck_assert_ptr_null(st.entry[0].commit);
	ck_assert_int_eq(st.entry[0].time, 1700000000);
	ck_assert_ptr_nonnull(pv_store_index_find(&st, "v6.11", h1));
	ck_assert_ptr_null(pv_store_index_find(&st, "v6.11", h2));
	pv_store_release(&st);
}
END_TEST

START_TEST(test_rm_and_readd)
{
	struct pv_store st = PV_STORE_INIT;
	struct pv_strbuf sb = PV_STRBUF_INIT;
	char h[65];

	ck_assert_int_eq(pv_store_create(&st, dir), 0);
	put(&st, "pv-format\t1\n", h);
	add_entry(&st, "a", h, NULL, 0);
	pv_store_index_format_rm(&sb, "a", h, 1);
	ck_assert_int_eq(pv_store_index_append(&st, &sb), 0);
	ck_assert_int_eq(pv_store_index_load(&st), 0);
	ck_assert_ptr_null(pv_store_index_find(&st, "a", h));
	add_entry(&st, "a", h, NULL, 0);
	ck_assert_int_eq(pv_store_index_load(&st), 0);
	ck_assert_ptr_nonnull(pv_store_index_find(&st, "a", h));
	ck_assert_uint_eq(st.nentry, 2);
	ck_assert_int_eq(st.entry[0].live, 0);
	ck_assert_int_eq(st.entry[1].live, 1);
	pv_strbuf_release(&sb);
	pv_store_release(&st);
}
END_TEST

START_TEST(test_torn_line)
{
	struct pv_store st = PV_STORE_INIT;
	char p[512], h[65], *text, *want;

	ck_assert_int_eq(pv_store_create(&st, dir), 0);
	put(&st, "pv-format\t1\n", h);
	add_entry(&st, "a", h, NULL, 0);
	index_path(p, sizeof(p));
	want = slurp(p);
	/* a crash in the middle of an append */
	spit(p, "add\tb\t0123", "a");
	ck_assert_int_eq(pv_store_index_load(&st), 0);
	ck_assert_uint_eq(st.torn, 3);		/* its line */
	ck_assert_uint_eq(st.nentry, 1);
	/* the next writer cuts it off before appending */
	add_entry(&st, "c", h, NULL, 0);
	ck_assert_int_eq(pv_store_index_load(&st), 0);
	ck_assert_int_eq(st.torn, 0);
	ck_assert_uint_eq(st.nentry, 2);
	ck_assert_str_eq(st.entry[1].version, "c");
	text = slurp(p);
	ck_assert_int_eq(strncmp(text, want, strlen(want)), 0);
	ck_assert_ptr_null(strstr(text, "0123"));
	free(text);
	free(want);
	pv_store_release(&st);
}
END_TEST

START_TEST(test_bad_index)
{
	struct pv_store st = PV_STORE_INIT;
	char p[512];

	ck_assert_int_eq(pv_store_create(&st, dir), 0);
	index_path(p, sizeof(p));
	spit(p, "add\tv\tnot-a-hash\t1\t1\t1\t-\t-\t-\t-\n", "a");
	ck_assert_int_lt(pv_store_index_load(&st), 0);
	ck_assert_str_eq(pv_err_msg(&st.err), "'not-a-hash' is not an object "
			 "name (64 hex digits)");
	ck_assert_uint_eq(st.err_line, 2);
	spit(p, "garbage\n", "w");
	ck_assert_int_lt(pv_store_index_load(&st), 0);
	ck_assert_str_eq(pv_err_msg(&st.err), "not a pv store index");
	ck_assert_uint_eq(st.err_line, 1);
	pv_store_release(&st);
}
END_TEST

START_TEST(test_objects)
{
	struct pv_store st = PV_STORE_INIT;
	struct pv_sha256 c;
	unsigned char d[PV_SHA256_LEN];
	char h[65], h2[65], want[65], p[512];
	const char *s = "pv-format\t1\nstack\t-\t1\t1\ta;b\n";
	char **names;
	size_t n, stray;
	uint64_t size;
	FILE *out;
	char *text;
	int fd;

	pv_sha256_init(&c);
	pv_sha256_update(&c, s, strlen(s));
	pv_sha256_final(&c, d);
	pv_sha256_hex(d, want);
	ck_assert_int_eq(pv_store_create(&st, dir), 0);
	put(&st, s, h);
	ck_assert_str_eq(h, want);
	put(&st, s, h2);	/* stored once */
	ck_assert_int_eq(pv_store_obj_list(&st, &names, &n, &stray), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(stray, 0);
	ck_assert_str_eq(names[0], want);
	free(names[0]);
	free(names);
	/* written back byte for byte */
	snprintf(p, sizeof(p), "%s/out", dir);
	out = fopen(p, "wb");
	ck_assert_int_eq(pv_store_verify(&st, h, &size), 0);
	ck_assert_int_eq(pv_store_cat(&st, h, out), 0);
	fclose(out);
	ck_assert_uint_eq(size, strlen(s));
	text = slurp(p);
	ck_assert_str_eq(text, s);
	free(text);
	/* one flipped byte is found and named */
	snprintf(p, sizeof(p), "%s/objects/%.2s/%s", dir, h, h + 2);
	ck_assert_int_eq(chmod(p, 0644), 0);
	fd = open(p, O_RDWR);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(pwrite(fd, "\xff", 1, 12), 1);
	close(fd);
	ck_assert_int_eq(pv_store_verify(&st, h, NULL), 1);
	ck_assert_ptr_nonnull(strstr(pv_err_msg(&st.err), h));
	ck_assert_ptr_nonnull(strstr(pv_err_msg(&st.err), "corrupt"));
	ck_assert_int_eq(unlink(p), 0);
	ck_assert_int_eq(pv_store_verify(&st, h, NULL), 2);
	pv_store_release(&st);
}
END_TEST

START_TEST(test_copy_roles)
{
	struct pv_store st = PV_STORE_INIT;
	const char *s = "pv-format\t1\nmeta\tk\tv\n"
			"section\t-\t-\tfutex\nstack\t-\t1\t1\ta\n"
			"section\ttarget\tv1\tpipe\nstack\t-\t2\t2\tb\n";
	char h[65], p[512], *text;
	FILE *out;

	ck_assert_int_eq(pv_store_create(&st, dir), 0);
	put(&st, s, h);
	snprintf(p, sizeof(p), "%s/out", dir);
	out = fopen(p, "wb");
	ck_assert_int_eq(pv_store_cat_records(&st, h, out, "baseline", "v0",
					      NULL, NULL), 0);
	ck_assert_int_eq(pv_store_cat_records(&st, h, out, NULL, NULL, "pipe",
					      NULL), 0);
	ck_assert_int_eq(pv_store_cat_records(&st, h, out, "target", "v2", "",
					      NULL), 0);
	fclose(out);
	text = slurp(p);
	ck_assert_str_eq(text,
			 "section\tbaseline\tv0\t-\nmeta\tk\tv\n"
			 "section\tbaseline\tv0\tfutex\nstack\t-\t1\t1\ta\n"
			 /* the stored version, not the stream's v1 */
			 "section\tbaseline\tv0\tpipe\nstack\t-\t2\t2\tb\n"
			 "section\ttarget\tv1\tpipe\nstack\t-\t2\t2\tb\n"
			 "section\ttarget\tv2\t-\nmeta\tk\tv\n");
	free(text);
	pv_store_release(&st);
}
END_TEST

/* pv_store_scan() of the file path */
static int
scan(const char *path, struct pv_store_scan *sc)
{
	int fd = open(path, O_RDONLY), rc;

	ck_assert_int_ge(fd, 0);
	rc = pv_store_scan(fd, sc);
	close(fd);
	return rc;
}

START_TEST(test_scan)
{
	struct pv_store_scan sc;
	char p[512];

	snprintf(p, sizeof(p), "%s.in", dir);
	spit(p, "pv-format\t1\nsection\t-\t-\tb\nsection\t-\t-\ta\n"
	     "sample\ts\tt\to\tm\tu\thigher\t-\t1\t-\t2.5\n"
	     "section\t-\t-\tb\nsection\t-\t-\t-\n", "w");
	ck_assert_int_eq(scan(p, &sc), 0);
	ck_assert_uint_eq(sc.kinds, PV_KIND_SAMPLE);
	ck_assert_uint_eq(sc.nexperiment, 3);
	ck_assert_str_eq(sc.experiment[0], "b");
	ck_assert_str_eq(sc.experiment[1], "a");
	ck_assert_str_eq(sc.experiment[2], "");
	pv_store_scan_release(&sc);
	spit(p, "pv-format\t1\nstack\t-\tx\t1\ta\n", "w");
	ck_assert_int_lt(scan(p, &sc), 0);
	ck_assert_uint_eq(sc.line, 2);
	ck_assert_ptr_nonnull(strstr(pv_err_msg(&sc.err), "sample count"));
	pv_store_scan_release(&sc);
	unlink(p);
}
END_TEST

/*
 * The tests of a stream: counted by scan (runs are distinct LEVEL and RUN
 * pairs, in whatever order they come), written with the add line, read
 * back onto it; a tests line whose add line never came is ignored, an add
 * line without one has no tests known; gc keeps them.
 */
START_TEST(test_tests)
{
	struct pv_store st = PV_STORE_INIT;
	struct pv_store_scan sc;
	struct pv_store_entry e;
	struct pv_store_gc_stats gs;
	struct pv_strbuf sb = PV_STRBUF_INIT;
	const char *s = "pv-format\t1\nsection\t-\t-\tx\n"
		"sample\ts\tt\to\tm\tu\thigher\t1\t1\t-\t1\n"
		"sample\ts\tt\to\tm\tu\thigher\t2\t1\t-\t1\n"
		"sample\ts\tt\to\tm2\tu\thigher\t1\t1\t-\t1\n"
		"sample\ts\tu\to\tm\tu\thigher\t-\t1\t-\t1\n"
		"sample\ts\tt\to\tm\tu\thigher\t1\t2\t-\t1\n"
		"section\t-\t-\t-\n"
		"runval\t-\t-\ty\ts\tt\to\tm\tu\thigher\t-\t3\t1\t5\n"
		"stack\tc\t1\t1\tmain\n";
	char h[65], h2[65], p[512];

	ck_assert_int_eq(pv_store_create(&st, dir), 0);
	snprintf(p, sizeof(p), "%s.in", dir);
	spit(p, s, "w");
	ck_assert_int_eq(scan(p, &sc), 0);
	unlink(p);
	ck_assert_uint_eq(sc.nexperiment, 3);
	ck_assert_uint_eq(sc.ntest, 3);
	ck_assert_str_eq(sc.test[0].experiment, "x");
	ck_assert_str_eq(sc.test[0].test, "t");
	ck_assert_uint_eq(sc.test[0].runs, 3);	/* (1,1) (2,1) (1,2) */
	ck_assert_str_eq(sc.test[1].test, "u");
	ck_assert_uint_eq(sc.test[1].runs, 1);
	ck_assert_str_eq(sc.test[2].experiment, "y");	/* the runval's */
	ck_assert_uint_eq(sc.test[2].runs, 1);
	put(&st, s, h);
	memset(&e, 0, sizeof(e));
	e.version = "v1";
	memcpy(e.hash, h, 65);
	e.kinds = "stack,sample";
	e.experiment = (const char **)sc.experiment;
	e.nexperiment = sc.nexperiment;
	e.test = sc.test;
	e.ntest = sc.ntest;
	e.has_tests = 1;
	pv_store_index_format_add(&sb, &e);
	ck_assert_int_eq(strncmp(sb.buf, "tests\tv1\t", 9), 0);
	ck_assert_int_eq(pv_store_index_append(&st, &sb), 0);
	pv_store_scan_release(&sc);
	/* a tests line cut from its add (a write cut short), then an add
	   line of before tests lines */
	put(&st, "pv-format\t1\n", h2);
	pv_strbuf_reset(&sb);
	pv_strbuf_addf(&sb, "tests\tv2\t%s\tx\ts\tt\t9\n", h2);
	ck_assert_int_eq(pv_store_index_append(&st, &sb), 0);
	add_entry(&st, "v2", h2, NULL, 0);
	pv_strbuf_reset(&sb);
	pv_strbuf_addf(&sb, "tests\tv3\t%s\tx\ts\tt\t9\n", h2);
	ck_assert_int_eq(pv_store_index_append(&st, &sb), 0);
	add_entry(&st, "v4", h2, NULL, 0);
	ck_assert_int_eq(pv_store_index_load(&st), 0);
	ck_assert_uint_eq(st.nentry, 3);
	ck_assert_int_eq(st.entry[0].has_tests, 1);
	ck_assert_uint_eq(st.entry[0].ntest, 3);
	ck_assert_str_eq(st.entry[0].test[2].experiment, "y");
	ck_assert_str_eq(st.entry[0].test[2].suite, "s");
	ck_assert_uint_eq(st.entry[0].test[0].runs, 3);
	ck_assert_int_eq(st.entry[1].has_tests, 1);	/* v2: its line */
	ck_assert_uint_eq(st.entry[1].test[0].runs, 9);
	ck_assert_int_eq(st.entry[2].has_tests, 0);	/* v4: not v3's */
	/* gc's rewrite keeps them */
	ck_assert_int_eq(pv_store_gc(&st, &gs), 0);
	ck_assert_int_eq(pv_store_index_load(&st), 0);
	ck_assert_uint_eq(st.nentry, 3);
	ck_assert_uint_eq(st.entry[0].ntest, 3);
	ck_assert_uint_eq(st.entry[1].ntest, 1);
	ck_assert_int_eq(st.entry[2].has_tests, 0);
	pv_strbuf_release(&sb);
	pv_store_release(&st);
}
END_TEST

static void
count_bad(void *arg, unsigned long line, const char *msg)
{
	unsigned long *n = arg;

	(void)msg;
	n[n[0] + 1] = line;
	n[0]++;
}

static void
count_link(void *arg, const char *rel, int repaired)
{
	int *n = arg;

	(void)rel;
	n[repaired]++;
}

/*
 * The index read past its damaged lines, each named, the good entries
 * kept; repaired, it holds its good lines as they were; links found, and
 * those of tmp and lock replaced.
 */
START_TEST(test_fsck)
{
	struct pv_store st = PV_STORE_INIT;
	unsigned long lines[8] = { 0 };
	int links[2] = { 0, 0 };
	char h[65], p[512], q[512], *text, *want;

	ck_assert_int_eq(pv_store_create(&st, dir), 0);
	put(&st, "pv-format\t1\n", h);
	add_entry(&st, "a", h, NULL, 0);
	index_path(p, sizeof(p));
	spit(p, "add\tv\tzz\t1\t1\t1\t-\t-\t-\t-\n", "a");
	spit(p, "later\tline\n", "a");
	want = slurp(p);
	spit(p, "rm\tv\n", "a");
	add_entry(&st, "b", h, NULL, 0);
	spit(p, "add\tcut", "a");
	ck_assert_int_lt(pv_store_index_load(&st), 0);
	ck_assert_int_eq(pv_store_index_check(&st, count_bad, lines), 2);
	ck_assert_uint_eq(lines[0], 2);
	ck_assert_uint_eq(lines[1], 3);
	ck_assert_uint_eq(lines[2], 5);
	ck_assert_uint_eq(st.nentry, 2);	/* a and b, past the damage */
	ck_assert_uint_eq(st.torn, 7);
	ck_assert_int_eq(pv_store_index_repair(&st), 2);
	text = slurp(p);
	/* the good lines as they were: line 1, a, "later", b */
	ck_assert_int_eq(strncmp(text, want, strlen("pv-format\t1\n")), 0);
	ck_assert_ptr_null(strstr(text, "zz"));
	ck_assert_ptr_nonnull(strstr(text, "later\tline\n"));
	ck_assert_ptr_null(strstr(text, "rm\tv\n"));
	ck_assert_ptr_null(strstr(text, "cut"));
	free(text);
	free(want);
	ck_assert_int_eq(pv_store_index_load(&st), 0);
	ck_assert_uint_eq(st.nentry, 2);
	ck_assert_uint_eq(st.torn, 0);
	/* links: tmp and lock replaced, the index's named only */
	snprintf(p, sizeof(p), "%s/tmp", dir);
	ck_assert_int_eq(rmdir(p), 0);
	ck_assert_int_eq(symlink("/", p), 0);
	snprintf(q, sizeof(q), "%s/lock", dir);
	ck_assert_int_eq(unlink(q), 0);
	ck_assert_int_eq(symlink("/nonexistent/lock", q), 0);
	ck_assert_int_eq(pv_store_check_links(&st, 0, count_link, links), 2);
	ck_assert_int_eq(links[0], 2);
	ck_assert_int_eq(pv_store_check_links(&st, 1, count_link, links), 2);
	ck_assert_int_eq(links[1], 2);
	ck_assert_int_eq(pv_store_check_links(&st, 0, count_link, links), 0);
	ck_assert_int_eq(pv_store_prepare(&st), 0);
	pv_store_release(&st);
}
END_TEST

START_TEST(test_gc)
{
	struct pv_store st = PV_STORE_INIT;
	struct pv_strbuf sb = PV_STRBUF_INIT;
	char h1[65], h2[65], p[512];
	char **names;
	size_t n, stray;
	struct pv_store_gc_stats gs;

	ck_assert_int_eq(pv_store_create(&st, dir), 0);
	put(&st, "pv-format\t1\n", h1);
	put(&st, "pv-format\t1\nmeta\ta\tb\n", h2);
	add_entry(&st, "a", h1, NULL, 0);
	add_entry(&st, "b", h2, NULL, 0);
	pv_store_index_format_rm(&sb, "b", h2, 5);
	ck_assert_int_eq(pv_store_index_append(&st, &sb), 0);
	snprintf(p, sizeof(p), "%s/tmp/obj-leftover", dir);
	spit(p, "x", "w");
	ck_assert_int_eq(pv_store_gc(&st, &gs), 0);
	ck_assert_uint_eq(gs.objects, 1);
	ck_assert_uint_gt(gs.bytes, 0);
	ck_assert_uint_eq(gs.tmpfiles, 1);
	ck_assert_uint_eq(gs.tmpbytes, 1);
	ck_assert_uint_eq(gs.withdrawn, 1);
	ck_assert_int_ne(access(p, F_OK), 0);
	ck_assert_int_eq(pv_store_obj_list(&st, &names, &n, &stray), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(names[0], h1);
	free(names[0]);
	free(names);
	ck_assert_int_eq(pv_store_index_load(&st), 0);
	ck_assert_uint_eq(st.nentry, 1);	/* the index was compacted */
	ck_assert_str_eq(st.entry[0].version, "a");
	pv_strbuf_release(&sb);
	pv_store_release(&st);
}
END_TEST

static Suite *
store_suite(void)
{
	Suite *s = suite_create("store");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_create_open);
	tcase_add_test(tc, test_index_roundtrip);
	tcase_add_test(tc, test_rm_and_readd);
	tcase_add_test(tc, test_torn_line);
	tcase_add_test(tc, test_bad_index);
	tcase_add_test(tc, test_objects);
	tcase_add_test(tc, test_copy_roles);
	tcase_add_test(tc, test_scan);
	tcase_add_test(tc, test_tests);
	tcase_add_test(tc, test_fsck);
	tcase_add_test(tc, test_gc);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(store_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
