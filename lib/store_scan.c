/*
 * store_scan: what a stream holds, read as every pv tool reads it before
 * it is added to the store (see store.h): the kinds of its records for the
 * index's KINDS field, the experiments of its sections for its EXPERIMENT
 * fields.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input.h"
#include "record.h"
#include "store.h"
#include "xalloc.h"

void
pv_store_scan_release(struct pv_store_scan *sc)
{
	size_t i;

	for (i = 0; i < sc->nexperiment; i++)
		free(sc->experiment[i]);
	free(sc->experiment);
	memset(sc, 0, sizeof(*sc));
}

const char *
pv_store_scan_kinds(unsigned kinds)
{
	switch (kinds & (PV_KIND_STACK | PV_KIND_SAMPLE)) {
	case PV_KIND_STACK: return "stack";
	case PV_KIND_SAMPLE: return "sample";
	case PV_KIND_STACK | PV_KIND_SAMPLE: return "stack,sample";
	default: return "-";
	}
}

int
pv_store_scan(int fd, struct pv_store_scan *sc)
{
	struct pv_reader *r;
	struct pv_record rec;
	size_t i;
	int rc, in_section = 0;

	memset(sc, 0, sizeof(*sc));
	if ((fd = dup(fd)) < 0)
		return pv_err_set_errno(&sc->err, errno, "cannot read");
	r = pv_reader_open_input(pv_input_open_fd(fd, "stream"));
	while ((rc = pv_reader_next(r, &rec)) > 0) {
		if (rec.type == PV_REC_STACK)
			sc->kinds |= PV_KIND_STACK;
		else if (rec.type == PV_REC_SAMPLE)
			sc->kinds |= PV_KIND_SAMPLE;
		if (rec.type == PV_REC_VERSION)
			continue;
		if (rec.type != PV_REC_SECTION) {
			/* records before any section: the absent experiment */
			if (in_section)
				continue;
			rec.experiment.s = "";
			rec.experiment.len = 0;
		}
		in_section = 1;
		/* few experiments a stream: a linear search is enough */
		for (i = 0; i < sc->nexperiment; i++)
			if (pv_str_eq(rec.experiment, sc->experiment[i]))
				break;
		if (i < sc->nexperiment)
			continue;
		if (memchr(rec.experiment.s, '\0', rec.experiment.len)) {
			pv_err_set(&sc->err, "an experiment identity with a "
				   "NUL byte");
			rc = -2;
			break;
		}
		PV_GROW(sc->experiment, sc->nexperiment + 1, sc->alloc);
		sc->experiment[sc->nexperiment++] =
		    pv_xmemdup(rec.experiment.s, rec.experiment.len);
	}
	sc->line = pv_reader_lineno(r);
	if (rc == -1)
		pv_err_set(&sc->err, "%s", pv_reader_error(r));
	pv_reader_close(r);
	return rc < 0 ? -1 : 0;
}
