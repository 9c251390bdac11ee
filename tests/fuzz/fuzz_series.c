/*
 * fuzz_series: the readers of pv-series, over its library: the record
 * stream (sections, sample and runval records, read by
 * pv_seriestab_read() as tools/pv-series.c reads them) and the state file
 * of --state (pv_seriestab_load()).  The first byte picks which:
 *
 *   bit 0 clear: the rest is a record stream; its series are analysed
 *          (lib/series.c) and their change points written, then the
 *          table is saved as a state file and loaded back, which must
 *          succeed;
 *   bit 0 set:   the rest is a state file, its checksum appended here so
 *          that the mutations reach the parser behind it; a state that
 *          loads is analysed as above.
 *
 * Errors are the expected outcome of most inputs; a crash, a leak or a
 * state the table wrote and cannot read is a finding.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "fuzz.h"
#include "rec_changepoint.h"
#include "series.h"
#include "seriestab.h"
#include "strbuf.h"

static char dir[64];

static const char *
state_path(void)
{
	static char path[96];

	if (dir[0] == '\0') {
		strcpy(dir, "/tmp/fuzz_series.XXXXXX");
		if (mkdtemp(dir) == NULL) {
			perror("mkdtemp");
			abort();
		}
		snprintf(path, sizeof(path), "%s/state", dir);
	}
	return path;
}

/* Analyse every key of a closed t and write its change points. */
static void
analyse(struct pv_seriestab *t)
{
	const struct pv_series_opts o = PV_SERIES_OPTS_INIT;
	struct pv_series_result res;
	struct pv_strbuf sb = PV_STRBUF_INIT;
	struct pv_skey **v = pv_seriestab_sorted(t);
	size_t i, j;

	pv_series_result_init(&res);
	for (i = 0; i < t->nkey; i++) {
		struct pv_skey *k = v[i];

		if (k->bad)
			continue;
		pv_series_analyse(&k->series, &o, &res);
		for (j = 0; j < res.nev; j++) {
			const struct pv_series_event *e = &res.ev[j];
			struct pv_changepoint c;

			if (e->kind != PV_SERIES_CHANGE)
				continue;
			memset(&c, 0, sizeof(c));
			c.key = k->key;
			c.before = pv_seriestab_version_name(t,
							     k->ver[e->before]);
			c.after = pv_seriestab_version_name(t, k->ver[e->at]);
			c.change = e->change;
			c.lo = e->lo;
			c.hi = e->hi;
			c.p = e->p;
			c.nbefore = e->nbefore;
			c.nafter = e->nafter;
			pv_rec_changepoint_write(&sb, &c, k->text);
		}
		pv_strbuf_reset(&sb);
	}
	pv_series_result_release(&res);
	pv_strbuf_release(&sb);
	free(v);
}

/* Save a closed t as a state and load it back: what it wrote, it reads. */
static void
round_trip(struct pv_seriestab *t)
{
	const struct pv_series_opts o = PV_SERIES_OPTS_INIT;
	const char *path = state_path();
	struct pv_strbuf tmp = PV_STRBUF_INIT;
	struct pv_seriestab back;
	double alpha;
	size_t window;

	if (pv_seriestab_save(t, path, &o, &tmp) < 0) {
		if (tmp.len > 0)
			unlink(tmp.buf);
		pv_strbuf_release(&tmp);
		return;		/* a full disk, say: not the reader's fault */
	}
	if (rename(tmp.buf, path) < 0) {
		perror("rename");
		abort();
	}
	pv_strbuf_release(&tmp);
	pv_seriestab_init(&back);
	if (pv_seriestab_load(&back, path, &alpha, &window) != 1 ||
	    back.nkey != t->nkey) {
		fprintf(stderr, "fuzz_series: a saved state does not load: "
			"%s\n", pv_err_msg(&back.err));
		abort();
	}
	pv_seriestab_release(&back);
	unlink(path);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pv_seriestab t;
	double alpha;
	size_t window;

	if (size == 0)
		return 0;
	pv_seriestab_init(&t);
	if (!(data[0] & 1)) {
		if (pv_seriestab_read(&t, fuzz_file(data + 1, size - 1), NULL,
				      NULL) == 0) {
			pv_seriestab_close(&t);
			analyse(&t);
			round_trip(&t);
		}
	} else {
		uint8_t *buf = malloc(size + 3);
		uLong crc = crc32(0L, Z_NULL, 0);
		int i;

		if (buf == NULL)
			abort();
		memcpy(buf, data + 1, size - 1);
		crc = crc32(crc, buf, (uInt)(size - 1));
		for (i = 0; i < 4; i++)
			buf[size - 1 + i] = (uint8_t)(crc >> (8 * i));
		if (pv_seriestab_load(&t, fuzz_file(buf, size + 3), &alpha,
				      &window) == 1) {
			pv_seriestab_close(&t);
			analyse(&t);
		}
		free(buf);
	}
	pv_seriestab_release(&t);
	return 0;
}
