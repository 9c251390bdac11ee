/*
 * fuzz_stats: the readers of the statistics records, each fed every
 * record of one stream as its tool feeds it: pv-stat's run table
 * (lib/runtab: sample records by section, or with -m the runval records)
 * and its summaries; pv-diff's sample comparison (lib/sampdiff:
 * pv_sampdiff_add(), pv_sampdiff_finish()); pv-classify's reading of cmp
 * records and its classifier (lib/classifier); pv-render's reading of the
 * verdict, systematic and detect records (lib/render_verdict) and its text
 * and JUnit reports.  The first byte picks pv-stat's -m and the
 * bootstrap's resamples (none, or pv-diff's 1000).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "classifier.h"
#include "fuzz.h"
#include "record.h"
#include "render_verdict.h"
#include "runtab.h"
#include "sampdiff.h"
#include "stats.h"
#include "strbuf.h"
#include "xalloc.h"

static struct pv_str
sbstr(const struct pv_strbuf *sb)
{
	struct pv_str s = { sb->buf, sb->len };

	return s;
}

static void
copy(struct pv_strbuf *sb, struct pv_str s)
{
	pv_strbuf_reset(sb);
	pv_strbuf_add(sb, s.s, s.len);
}

/* pv-stat's summaries of every key, as it writes them */
static void
summarise(struct pv_runtab *tab, FILE *out)
{
	struct pv_runset **v = pv_runtab_sorted(tab);
	double *x = NULL, *sorted = NULL;
	size_t alloc = 0, i;

	for (i = 0; i < tab->nset; i++) {
		struct pv_runset *set = v[i];
		struct pv_summary s;

		if (set->nrun == 0)
			continue;
		PV_GROW(x, set->nrun, alloc);
		sorted = pv_xreallocarray(sorted, alloc, sizeof(*sorted));
		pv_runset_values(set, x);
		memcpy(sorted, x, set->nrun * sizeof(*x));
		pv_stats_sort(sorted, set->nrun);
		pv_stats_summary(x, sorted, set->nrun, 0.95, &s);
		pv_runset_write(out, tab, set);
	}
	free(x);
	free(sorted);
	free(v);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pv_cmp_opts copt = PV_CMP_OPTS_INIT;
	struct pv_classifier_opts vopt = PV_CLASSIFIER_OPTS_INIT;
	struct pv_strbuf role = PV_STRBUF_INIT, version = PV_STRBUF_INIT;
	struct pv_strbuf experiment = PV_STRBUF_INIT;
	struct pv_runtab tab;
	struct pv_sampdiff sd;
	struct pv_classifier cl;
	struct pv_render_verdict vr;
	struct pv_reader *r;
	struct pv_record rec;
	struct pv_cmp c;
	FILE *out = fuzz_devnull();
	struct pv_err err = PV_ERR_INIT;
	int merge, tab_ok = 1, sd_ok = 1, cl_ok = 1, vr_ok = 1;

	if (size == 0)
		return 0;
	merge = data[0] & 1;
	copt.boot = data[0] & 2 ? 1000 : 0;
	r = pv_reader_open(fuzz_file(data + 1, size - 1));
	if (r == NULL)
		return 0;
	pv_runtab_init(&tab);
	pv_sampdiff_init(&sd, &copt);
	pv_classifier_init(&cl, &vopt);
	pv_render_verdict_init(&vr);
	while (pv_reader_next(r, &rec) > 0) {
		if (rec.type == PV_REC_SECTION) {
			copy(&role, rec.role);
			copy(&version, rec.version);
			copy(&experiment, rec.experiment);
		} else if (rec.type == PV_REC_SAMPLE && !merge && tab_ok) {
			pv_runtab_add_sample(&tab, sbstr(&role),
					     sbstr(&version),
					     sbstr(&experiment), &rec);
		} else if (rec.type == PV_REC_OTHER && merge && tab_ok &&
			   pv_str_eq(rec.field[0], "runval")) {
			tab_ok = pv_runtab_add_runval(&tab, &rec) == 0;
		} else if (rec.type == PV_REC_OTHER && cl_ok &&
			   pv_str_eq(rec.field[0], "cmp")) {
			cl_ok = pv_rec_cmp_parse(&rec, &c, &err) == 0;
			if (cl_ok)
				pv_classifier_add(&cl, &c);
		}
		/* each tool stops at the first malformed record */
		if (sd_ok && pv_sampdiff_add(&sd, &rec) < 0)
			sd_ok = 0;
		if (vr_ok && pv_render_verdict_add(&vr, &rec) < 0)
			vr_ok = 0;
	}
	(void)pv_reader_error(r);
	pv_reader_close(r);

	if (tab_ok)
		summarise(&tab, out);
	if (sd_ok)
		(void)pv_sampdiff_finish(&sd, out, pv_kvset_default_ignore,
					 pv_kvset_default_nignore);
	if (cl_ok) {
		pv_classifier_run(&cl);
		pv_classifier_write(&cl, out);
		(void)pv_classifier_worst(&cl);
	}
	if (vr_ok) {
		pv_render_verdict_text(&vr, out);
		pv_render_verdict_junit(&vr, out);
	}

	pv_render_verdict_release(&vr);
	pv_classifier_release(&cl);
	pv_sampdiff_release(&sd);
	pv_runtab_release(&tab);
	pv_strbuf_release(&role);
	pv_strbuf_release(&version);
	pv_strbuf_release(&experiment);
	return 0;
}
