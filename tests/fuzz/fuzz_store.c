/*
 * fuzz_store: the readers of pv-store's files (lib/store*.c) over a store
 * in a temporary directory, made once: the input up to its first NUL byte
 * is DIR/index, read by pv_store_index_load(); what follows the NUL is an
 * object (gzip or plain bytes), filed under the hash of the first entry
 * (or the hash of nothing when there is none) and read by pv_store_cat(),
 * pv_store_cat_records() and pv_store_scan(), as show, verify and pair
 * read it.  The live entries are looked up, baselined by the kernel rule
 * (no git) and written back with the index writers, whose lines the
 * reader must take.  Then fsck's path: the index read past its damaged
 * lines and repaired (pv_store_index_check(), pv_store_index_repair()),
 * after which it must read without a fault.
 */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"
#include "record.h"
#include "store.h"
#include "strbuf.h"

static char dir[64];

static void
die(const char *what)
{
	perror(what);
	abort();
}

static void
cleanup(void)
{
	struct pv_strbuf p = PV_STRBUF_INIT;

	/* the object directories made on the way, then the fixed files */
	pv_strbuf_addf(&p, "rm -rf '%s'", dir);
	if (system(p.buf) != 0)
		fprintf(stderr, "fuzz_store: cannot remove %s\n", dir);
	pv_strbuf_release(&p);
}

/* DIR/rel with contents data[0..size) */
static void
put(const char *rel, const void *data, size_t size)
{
	struct pv_strbuf p = PV_STRBUF_INIT;
	FILE *f;

	pv_strbuf_addf(&p, "%s/%s", dir, rel);
	f = fopen(p.buf, "wb");
	if (f == NULL || fwrite(data, 1, size, f) != size || fclose(f) != 0)
		die(p.buf);
	pv_strbuf_release(&p);
}

static void
setup(void)
{
	struct pv_store st = PV_STORE_INIT;

	/* on tmpfs where there is one: a disk's directory updates are slow */
	snprintf(dir, sizeof(dir), "/dev/shm/fuzz_store.XXXXXX");
	if (mkdtemp(dir) == NULL) {
		snprintf(dir, sizeof(dir), "/tmp/fuzz_store.XXXXXX");
		if (mkdtemp(dir) == NULL)
			die("mkdtemp");
	}
	atexit(cleanup);
	if (pv_store_create(&st, dir) < 0) {
		fprintf(stderr, "fuzz_store: %s\n", pv_err_msg(&st.err));
		abort();
	}
	pv_store_release(&st);
}

static void
object(struct pv_store *st, const char *hash, const uint8_t *data,
       size_t size)
{
	struct pv_strbuf rel = PV_STRBUF_INIT, p = PV_STRBUF_INIT;
	struct pv_store_scan sc;
	uint64_t n;
	int fd;

	pv_strbuf_addf(&rel, "objects/%.2s", hash);
	pv_strbuf_addf(&p, "%s/%s", dir, rel.buf);
	if (mkdir(p.buf, 0777) < 0 && access(p.buf, F_OK) < 0)
		die(p.buf);
	pv_strbuf_addf(&rel, "/%s", hash + 2);
	put(rel.buf, data, size);
	(void)pv_store_verify(st, hash, &n);
	(void)pv_store_cat(st, hash, fuzz_devnull());
	(void)pv_store_cat_records(st, hash, fuzz_devnull(), NULL, NULL, NULL,
				   NULL);
	(void)pv_store_cat_records(st, hash, fuzz_devnull(), "baseline", "v1",
				   "", NULL);
	pv_store_obj_path(st, hash, &p);
	if ((fd = open(p.buf, O_RDONLY)) < 0)
		die(p.buf);
	if (pv_store_scan(fd, &sc) == 0)
		(void)pv_store_scan_kinds(sc.kinds);
	pv_store_scan_release(&sc);
	close(fd);
	if (unlink(p.buf) < 0)
		die(p.buf);
	pv_strbuf_release(&rel);
	pv_strbuf_release(&p);
}

static void
ignore(void *arg, unsigned long line, const char *msg)
{
	(void)arg;
	(void)line;
	(void)msg;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char none[] = "e3b0c44298fc1c149afbf4c8996fb924"
				   "27ae41e4649b934ca495991b7852b855";
	struct pv_store st = PV_STORE_INIT;
	struct pv_strbuf lines = PV_STRBUF_INIT;
	const uint8_t *nul = memchr(data, '\0', size);
	size_t ilen = nul != NULL ? (size_t)(nul - data) : size, i;
	const char *hash = none, *found;

	if (dir[0] == '\0')
		setup();
	pv_strbuf_addstr(&lines, PV_FORMAT_NAME "\t1\n");
	put("index", data, ilen);
	if (pv_store_open(&st, dir) < 0)
		die(pv_err_msg(&st.err));
	if (pv_store_index_load(&st) == 0) {
		for (i = 0; i < st.nentry; i++) {
			const struct pv_store_entry *e = &st.entry[i];

			if (i == 0)
				hash = e->hash;
			if (!e->live) {
				pv_store_index_format_rm(&lines, e->version,
							 e->hash, e->time);
				continue;
			}
			if (pv_store_index_find(&st, e->version, e->hash) != e)
				__builtin_trap();
			pv_store_index_format_add(&lines, e);
		}
		(void)pv_store_version_baseline(&st, "v6.12", &found);
		(void)pv_store_version_baseline(&st, "v6.12-rc3", &found);
	}
	if (nul != NULL)
		object(&st, hash, nul + 1, size - ilen - 1);
	pv_store_release(&st);

	/*
	 * fsck's path: the index read past its damaged lines, then repaired;
	 * the repaired index must read with no damage at all
	 */
	if (pv_store_open(&st, dir) < 0)
		die(pv_err_msg(&st.err));
	if (pv_store_index_check(&st, ignore, NULL) >= 0) {
		if (pv_store_index_repair(&st) < 0)
			die(pv_err_msg(&st.err));
		if (pv_store_index_load(&st) < 0 || st.torn) {
			fprintf(stderr, "fuzz_store: the repaired index does "
				"not read: %s\n", pv_err_msg(&st.err));
			__builtin_trap();
		}
	}
	pv_store_release(&st);

	/* what the writers wrote, the reader reads */
	put("index", lines.buf, lines.len);
	if (pv_store_open(&st, dir) < 0 || pv_store_index_load(&st) < 0) {
		fprintf(stderr, "fuzz_store: the index written back does not "
			"read: %s\n", pv_err_msg(&st.err));
		__builtin_trap();
	}
	pv_store_release(&st);
	pv_strbuf_release(&lines);
	return 0;
}
