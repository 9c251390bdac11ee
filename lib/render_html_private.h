/*
 * render_html_private: what the files of the HTML report share
 * (render_html.c, the document and its context tables; render_profile.c,
 * the data of the profile comparisons): the collected state.  Not for
 * other modules.
 */
#ifndef PV_RENDER_HTML_PRIVATE_H
#define PV_RENDER_HTML_PRIVATE_H

#include <stddef.h>
#include <stdint.h>

#include "flametree.h"
#include "rec_profile.h"
#include "render_decision.h"
#include "render_html.h"
#include "strbuf.h"
#include "symtab.h"

enum role { ROLE_OTHER, ROLE_BASE, ROLE_TARGET, ROLE_DIFF };

/* suspects listed in a profile's summary, by each ranking */
#define TOP_SUSPECTS 5

struct kv {
	int env;		/* 0 meta, 1 env */
	char *key, *value;
};

/* what the sections of one role (or a diff section) say of their subject */
struct side {
	char *version, *experiment;
	int seen;
	struct kv *kv;
	size_t nkv, alloc;
};

/*
 * A function's inclusive and exclusive weights, baseline then target, and
 * the changes of its shares in points, as pv-diff wrote them.
 */
struct func {
	uint32_t name;
	uint64_t v[4];		/* incl base, excl base, incl target, excl target */
	double dincl, dexcl;
};

/* a group record of pv-diff, as read (render_groups.c) */
struct grp {
	unsigned kind;		/* PV_GROUP_* */
	uint32_t name;		/* in str */
	struct pv_rec_figures fig;
	unsigned presence;
};

struct event {
	char *name;
	struct pv_flametree tree;
	uint64_t total[2], samples[2];
	int have_total;
	/*
	 * func records of pv-diff, in their order; without them (from_func
	 * 0), the figures stackdiff computes from the tree's stacks, in the
	 * order of their names (funcs())
	 */
	struct func *func;
	size_t nfunc, func_alloc;
	int from_func;
	struct grp *grp;	/* group records, in their order */
	size_t ngrp, grp_alloc;
};

/*
 * A profile comparison: the records of one diff section of pv-diff (or,
 * for the stacks of the input, everything).
 */
/* A rootmerge record: the root frames (ids in str) taken as one. */
struct rootmerge {
	uint32_t name[2];
	double score;
};

struct profile {
	struct side diff;	/* the diff section: BASE..TARGET, experiment */
	uint32_t base, target, experiment;	/* ids in str */
	uint64_t level;		/* its meta level, or PV_NONE */
	int raw;		/* meta shares baseline: pv-diff --raw */
	struct rootmerge *rm;	/* its rootmerge records */
	size_t nrm, rm_alloc;
	struct event *ev;
	size_t nev, ev_alloc;
	/*
	 * the frame records' groups: names id * PV_GROUP_NKINDS + kind ->
	 * the group's name in str, UINT32_MAX where the record has none
	 */
	uint32_t *fgroup;
	size_t fgroup_alloc;	/* in names ids */
};

struct pv_html {
	struct pv_symtab names;	/* frame names */
	struct pv_symtab str;	/* versions, experiments, facts */
	struct side side[2];	/* every baseline and target section */
	struct pv_html_sect *sect;	/* every section but diff ones */
	size_t nsect, sect_alloc;
	enum role role;
	size_t cur_sect;	/* the section records are in; nsect: none */
	uint32_t cur_version, cur_experiment;
	struct profile *prof;	/* one a diff section */
	size_t nprof, prof_alloc;
	int in_diff;		/* the records are in prof[nprof - 1] */
	struct profile stacks;	/* stack records, diff-folded lines */
	struct pv_render_decision *dec;
	uint32_t *frames;
	size_t frames_alloc;
	double min_share;
	const char *only;	/* the one event shown, or NULL */
	uint32_t empty;		/* the id of "" */
	char err[256];
};

/*
 * render_profile.c.  funcs(): an event's function table from its tree,
 * where the input had no func records (-1, h->err set, when the stacks
 * pass the stack table's limit).  shown(): whether an event is drawn.
 * top(): the first n functions of e by the change of their exclusive
 * (incl 0) or inclusive (1) share, into idx[]; how many.  summary(): an
 * event's summary for the page's profile list.  data(): a profile's trees
 * and functions, the JSON of its own element, children in the order of
 * rank[] (rank(): each name's rank in byte order; the caller frees it).
 */
int pv_render_profile_funcs(struct pv_html *h, struct event *e);
int pv_render_profile_shown(const struct pv_html *h, const struct event *e);
size_t pv_render_profile_top(struct pv_html *h, const struct event *e,
			     int incl, size_t *idx, size_t n);
void pv_render_profile_summary(struct pv_html *h, struct pv_strbuf *sb,
			       const struct profile *p, const struct event *e);
uint32_t *pv_render_profile_rank(const struct pv_html *h);
void pv_render_profile_data(struct pv_html *h, const struct profile *p,
			    struct pv_strbuf *sb, const uint32_t *rank);
/* v as a packed number (render_profile.c: unpack() of the page reads it) */
void pv_render_profile_pack(struct pv_strbuf *sb, uint64_t v);

/*
 * render_groups.c: the roll-ups of the profile page.  add(): a frame or
 * group record of a diff section, kept in its profile (the event of a
 * group record is one a func record named; others are dropped); -1 with
 * h->err on a bad record.  data(): ',"groups":' and the profile's groups
 * as JSON, for its own element (render_profile.c): the group names, each
 * used name's group of each kind (used[k] is the names id of the page's
 * name k; packed, one plus the group's number, 0 for none), and the group
 * records of each event shown; null when the profile has none.
 */
int pv_render_groups_add(struct pv_html *h, const struct pv_record *rec);
void pv_render_groups_data(const struct pv_html *h, const struct profile *p,
			   struct pv_strbuf *sb, const uint32_t *used,
			   size_t nused);

#endif
