/*
 * fuzz_mmtests: pv-parse --format=mmtests, the reader of an MMTests
 * results tree (lib/bench_mmtests.c), over a tree written for each input
 * into a temporary directory made once.  The input is a list of files:
 *
 *   == PATH
 *   the file's lines
 *   == PATH
 *   ...
 *
 * PATH is relative to the tree's root (work/log/RUN/iter-I/TEST/logs/FILE
 * in an MMTests tree); its empty, "." and ".." components are dropped and
 * a path ending in '/' makes a directory.  The first byte picks the
 * handle's options (a fixed VERSION, ROLE and EXPERIMENT, or none) and
 * whether the tree is read from its root or from work/log.
 */
#include "config.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench.h"
#include "fuzz.h"
#include "strbuf.h"

#define MAXFILES 64
#define MAXDEPTH 8
#define MAXNAME 64

static char dir[64];

static void
die(const char *what)
{
	perror(what);
	abort();
}

static int
rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	if ((flag == FTW_DP ? rmdir(path) : unlink(path)) < 0)
		die(path);
	return 0;
}

/* Remove DIR/t and all below it. */
static void
rmtree(void)
{
	struct pv_strbuf p = PV_STRBUF_INIT;

	pv_strbuf_addf(&p, "%s/t", dir);
	if (nftw(p.buf, rm_one, 16, FTW_DEPTH | FTW_PHYS) < 0 &&
	    errno != ENOENT)
		die(p.buf);
	pv_strbuf_release(&p);
}

static void
cleanup(void)
{
	rmtree();
	if (rmdir(dir) < 0)
		perror(dir);
}

static void
setup(void)
{
	/* on tmpfs where there is one: a disk's directory updates are slow */
	snprintf(dir, sizeof(dir), "/dev/shm/fuzz_mmtests.XXXXXX");
	if (mkdtemp(dir) == NULL) {
		snprintf(dir, sizeof(dir), "/tmp/fuzz_mmtests.XXXXXX");
		if (mkdtemp(dir) == NULL)
			die("mkdtemp");
	}
	atexit(cleanup);
}

static void
warn(void *arg, const char *file, unsigned long line, const char *msg)
{
	(void)arg;
	(void)file;
	(void)line;
	(void)msg;
}

/*
 * Make the path of name[0..len) under DIR/t in p, creating its
 * directories; 0 for a file to write, 1 for a directory only, -1 when
 * the path cannot be made (a file where a directory is wanted).
 */
static int
make_path(struct pv_strbuf *p, const char *name, size_t len)
{
	const char *s = name, *end = name + len;
	int depth = 0;

	pv_strbuf_reset(p);
	pv_strbuf_addf(p, "%s/t", dir);
	while (s < end && depth < MAXDEPTH) {
		const char *slash = memchr(s, '/', (size_t)(end - s));
		size_t n = (size_t)((slash ? slash : end) - s), i;

		if (n == 0 || (n == 1 && s[0] == '.') ||
		    (n == 2 && s[0] == '.' && s[1] == '.')) {
			s += n + 1;
			continue;
		}
		if (n > MAXNAME)
			n = MAXNAME;
		pv_strbuf_addch(p, '/');
		for (i = 0; i < n; i++)
			pv_strbuf_addch(p, s[i] == '\0' ? '_' : s[i]);
		depth++;
		if (slash == NULL)
			return 0;
		if (mkdir(p->buf, 0777) < 0 && errno != EEXIST)
			return -1;
		s = slash + 1;
	}
	return 1;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pv_bench_opts opts = PV_BENCH_OPTS_INIT;
	struct pv_strbuf p = PV_STRBUF_INIT;
	struct pv_bench *b;
	const char *s, *end;
	FILE *f = NULL;
	int nfiles = 0;

	if (size == 0)
		return 0;
	if (dir[0] == '\0')
		setup();
	else
		rmtree();
	pv_strbuf_addf(&p, "%s/t", dir);
	if (mkdir(p.buf, 0777) < 0)
		die(p.buf);

	s = (const char *)data + 1;
	end = (const char *)data + size;
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t len = nl != NULL ? (size_t)(nl - s) : (size_t)(end - s);

		if (len >= 3 && memcmp(s, "== ", 3) == 0) {
			if (f != NULL && fclose(f) != 0)
				die("fclose");
			f = NULL;
			if (nfiles++ < MAXFILES &&
			    make_path(&p, s + 3, len - 3) == 0 &&
			    (f = fopen(p.buf, "w")) == NULL &&
			    errno != EISDIR && errno != ENOTDIR)
				die(p.buf);
		} else if (f != NULL) {
			fwrite(s, 1, len, f);
			if (nl != NULL)
				putc('\n', f);
		}
		s += len + 1;
	}
	if (f != NULL && fclose(f) != 0)
		die("fclose");

	opts.warn = warn;
	if (data[0] & 1)
		opts.version = "v1";
	if (data[0] & 2)
		opts.role = "baseline";
	if (data[0] & 4)
		opts.experiment = "x";
	b = pv_bench_new("mmtests", &opts, fuzz_devnull());
	if (b == NULL)
		__builtin_trap();
	pv_strbuf_reset(&p);
	pv_strbuf_addf(&p, data[0] & 8 ? "%s/t/work/log/" : "%s/t", dir);
	(void)pv_bench_read_tree(b, p.buf);	/* pv-parse does no more */
	(void)pv_bench_error(b);
	(void)pv_bench_error_file(b);
	(void)pv_bench_error_line(b);
	(void)pv_bench_samples(b);
	pv_bench_free(b);
	pv_strbuf_release(&p);
	return 0;
}
