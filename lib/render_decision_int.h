/*
 * render_decision_int.h: what the two halves of the decision pages share,
 * inside lib/ only: render_decision_read.c reads the records into the
 * tables below, render_decision.c writes the pages from them.  Keys are
 * kept as arrays of ten 64-bit words (the ids of their strings, the
 * direction and the level), hashed and compared whole, in hmaps: a
 * comparison's key is BASE TARGET EXPERIMENT SUITE TEST OPERATION METRIC
 * UNIT DIRECTION LEVEL, a side's VERSION '-' and the rest, a series' (a
 * trend) '-' '-' and the rest.
 */
#ifndef PV_RENDER_DECISION_INT_H
#define PV_RENDER_DECISION_INT_H

#include <stddef.h>
#include <stdint.h>

#include "hmap.h"
#include "render_decision.h"

/* the words of a key */
enum {
	K_A,			/* BASE, or a side's VERSION */
	K_B,			/* TARGET, or NOKEY */
	K_EXPERIMENT,
	K_SUITE,
	K_TEST,
	K_OPERATION,
	K_METRIC,
	K_UNIT,
	K_DIRECTION,
	K_LEVEL,
	NK
};

#define NOKEY UINT32_MAX
#define NONE ((size_t)-1)

/* a verdict, with its cmp record's flags and figures when it had one */
struct vd {
	uint64_t k[NK];
	enum pv_class cls;
	int severity;
	enum pv_band band;
	double change, lo, hi, q;
	size_t nb, nt, runs;
	uint32_t reason;
	unsigned flags;
	int have_cmp;
	double p_welch, p_mwu, g, cliff, rcv_b, rcv_t;
	size_t out_b, out_t;
	double mde;		/* of its detect record, or NaN */
};

/* what a cmp record adds to its verdict */
struct cmpx {
	uint64_t k[NK];
	unsigned flags;
	double p_welch, p_mwu, g, cliff, rcv_b, rcv_t;
	size_t out_b, out_t;
};

/* a version's runs of a key, and its stat record */
struct skey {
	uint64_t k[NK];
	double *val;
	uint64_t *run;
	size_t n, alloc, more;	/* more: values not kept */
	int runval;		/* the values are runval records' */
	int have_stat;
	double median, lo, hi;
	size_t nstat;
};

struct sysreg {
	uint64_t k[NK];		/* K_LEVEL unused */
	struct pv_sysreg s;
	uint32_t levels;
};

/* A change point, outlier or trend record of pv-series: a mark. */
enum { MARK_CP, MARK_OUTLIER, MARK_TREND, NMARKKIND };

struct mark {
	uint64_t k[NK];		/* K_A, K_B: NOKEY */
	int kind;
	uint32_t a, b;		/* BEFORE AFTER, VERSION -, FIRST LAST */
	double change, lo, hi, p;
	unsigned flags;		/* a change point's PV_CHANGEPOINT_* */
};

struct pv_render_decision {
	struct pv_symtab *str;
	uint32_t empty;
	struct vd *v;
	size_t nv, valloc;
	struct pv_hmap vmap;
	struct cmpx *c;
	size_t nc, calloc;
	struct pv_hmap cmap;
	struct skey *sk;
	size_t nsk, skalloc;
	struct pv_hmap skmap;
	struct sysreg *sys;
	size_t nsys, sysalloc;
	struct mark *mark;
	size_t nmark, markalloc;
	const char *artifacts;	/* where the artifact directories are now */
	struct pv_err err;
};

/* The index of the side key k in d->sk, or NONE. */
size_t pv_render_decision_find_side(const struct pv_render_decision *d,
				    const uint64_t *k);
/*
 * Whether d->v[i] is its key's verdict: a key decided twice counts once,
 * by the verdict its key's entry names.
 */
int pv_render_decision_kept(const struct pv_render_decision *d, size_t i);

#endif
