/*
 * render_groups: the roll-ups of the HTML report's profile page (see
 * render_html_private.h): what pv-diff's frame and group records say,
 * kept per profile comparison and written into its data for
 * lib/html/report/groups.js, which draws the group tables and the
 * treemap, and filters the flame graphs to the stacks touching a group.
 * Nothing is counted here: a group's figures are its record's, and a
 * frame's groups its frame record's.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rec_profile.h"
#include "render_html_private.h"
#include "xalloc.h"

#define NONE UINT32_MAX

static int
bad_rec(struct pv_html *h, const struct pv_err *e)
{
	snprintf(h->err, sizeof(h->err), "%s", pv_err_msg(e));
	return -1;
}

static struct event *
event_named(struct profile *p, struct pv_str name)
{
	size_t i;

	for (i = 0; i < p->nev; i++)
		if (strlen(p->ev[i].name) == name.len &&
		    memcmp(p->ev[i].name, name.s, name.len) == 0)
			return &p->ev[i];
	return NULL;
}

static int
frame(struct pv_html *h, struct profile *p, const struct pv_record *rec)
{
	struct pv_err err = PV_ERR_INIT;
	struct pv_rec_frame f;
	const struct pv_str *g[PV_GROUP_NKINDS] = {
		&f.space, &f.module, &f.file, &f.subsys
	};
	uint32_t id;
	size_t k, old;

	if (pv_rec_frame_parse(rec, &f, &err) < 0)
		return bad_rec(h, &err);
	id = pv_symtab_intern(&h->names, f.name.s, f.name.len);
	if (id >= p->fgroup_alloc) {
		old = p->fgroup_alloc;
		p->fgroup_alloc = (size_t)id + 1 > 2 * old ? (size_t)id + 1 :
			2 * old;
		p->fgroup = pv_xreallocarray(p->fgroup, p->fgroup_alloc,
					     PV_GROUP_NKINDS *
					     sizeof(*p->fgroup));
		memset(p->fgroup + old * PV_GROUP_NKINDS, 0xff,
		       (p->fgroup_alloc - old) * PV_GROUP_NKINDS *
		       sizeof(*p->fgroup));
	}
	for (k = 0; k < PV_GROUP_NKINDS; k++)
		p->fgroup[(size_t)id * PV_GROUP_NKINDS + k] = g[k]->len == 0 ?
			NONE : pv_symtab_intern(&h->str, g[k]->s, g[k]->len);
	return 0;
}

static int
group(struct pv_html *h, struct profile *p, const struct pv_record *rec)
{
	struct pv_err err = PV_ERR_INIT;
	struct pv_rec_group r;
	struct event *e;
	struct grp *g;

	if (pv_rec_group_parse(rec, &r, &err) < 0)
		return bad_rec(h, &err);
	if ((e = event_named(p, r.event)) == NULL)
		return 0;
	PV_GROW(e->grp, e->ngrp + 1, e->grp_alloc);
	g = &e->grp[e->ngrp++];
	g->kind = r.kind;
	g->name = pv_symtab_intern(&h->str, r.name.s, r.name.len);
	g->fig = r.fig;
	g->presence = r.presence;
	return 0;
}

int
pv_render_groups_add(struct pv_html *h, const struct pv_record *rec)
{
	struct profile *p;

	/* a diff section's: pv-diff writes them with its comparison */
	if (!h->in_diff || h->nprof == 0)
		return 0;
	p = &h->prof[h->nprof - 1];
	if (pv_str_eq(rec->field[0], "frame"))
		return frame(h, p, rec);
	return group(h, p, rec);
}

/* The page's number of group name id, given one on first use. */
static uint32_t
gname(uint32_t *index, uint32_t **list, size_t *n, size_t *alloc,
      uint32_t id)
{
	if (index[id] == NONE) {
		PV_GROW(*list, *n + 1, *alloc);
		(*list)[*n] = id;
		index[id] = (uint32_t)(*n)++;
	}
	return index[id];
}

void
pv_render_groups_data(const struct pv_html *h, const struct profile *p,
		      struct pv_strbuf *sb, const uint32_t *used, size_t nused)
{
	struct pv_strbuf body = PV_STRBUF_INIT;
	uint32_t *index, *list = NULL;
	size_t i, k, j, n = 0, alloc = 0, ngrp = 0, nev = 0;

	for (i = 0; i < p->nev; i++)
		ngrp += p->ev[i].ngrp;
	if (ngrp == 0) {
		pv_strbuf_addstr(sb, ",\"groups\":null");
		return;
	}
	index = pv_xreallocarray(NULL, h->str.nsym + 1, sizeof(*index));
	memset(index, 0xff, (h->str.nsym + 1) * sizeof(*index));
	/* of[kind]: the group of each page's name, plus one (0: none) */
	pv_strbuf_addstr(&body, ",\"of\":[");
	for (k = 0; k < PV_GROUP_NKINDS; k++) {
		pv_strbuf_addstr(&body, k > 0 ? ",\"" : "\"");
		for (j = 0; j < nused; j++) {
			uint32_t g = used[j] < p->fgroup_alloc ?
				p->fgroup[(size_t)used[j] * PV_GROUP_NKINDS +
					  k] : NONE;

			pv_render_profile_pack(&body, g == NONE ? 0 :
				(uint64_t)gname(index, &list, &n, &alloc, g) +
				1);
		}
		pv_strbuf_addch(&body, '"');
	}
	/* rows: KIND NAME INCL_B EXCL_B INCL_T EXCL_T the four shares, the
	 * two changes in points, the two relative ones, PRESENCE (bits) */
	pv_strbuf_addstr(&body, "],\"events\":[");
	for (i = 0; i < p->nev; i++) {
		const struct event *e = &p->ev[i];

		if (!pv_render_profile_shown(h, e))
			continue;
		pv_strbuf_addstr(&body, nev++ > 0 ? ",[" : "[");
		for (j = 0; j < e->ngrp; j++) {
			const struct grp *g = &e->grp[j];
			const struct pv_rec_figures *f = &g->fig;
			const double v[] = {
				f->incl_pct[0], f->excl_pct[0], f->incl_pct[1],
				f->excl_pct[1], f->delta_incl, f->delta_excl,
				f->rel_incl, f->rel_excl
			};

			pv_strbuf_addf(&body, "%s[%u,%u,%llu,%llu,%llu,%llu",
				       j > 0 ? "," : "", g->kind,
				       gname(index, &list, &n, &alloc,
					     g->name),
				       (unsigned long long)f->incl[0],
				       (unsigned long long)f->excl[0],
				       (unsigned long long)f->incl[1],
				       (unsigned long long)f->excl[1]);
			for (k = 0; k < sizeof(v) / sizeof(v[0]); k++) {
				pv_strbuf_addch(&body, ',');
				pv_html_json_num(&body, v[k]);
			}
			pv_strbuf_addf(&body, ",%u]", g->presence);
		}
		pv_strbuf_addch(&body, ']');
	}
	pv_strbuf_addstr(&body, "]}");
	pv_strbuf_addstr(sb, ",\"groups\":{\"kinds\":[");
	for (k = 0; k < PV_GROUP_NKINDS; k++) {
		if (k > 0)
			pv_strbuf_addch(sb, ',');
		pv_html_json(sb, pv_rec_group_kind[k],
			     strlen(pv_rec_group_kind[k]));
	}
	pv_strbuf_addstr(sb, "],\"names\":[");
	for (j = 0; j < n; j++) {
		struct pv_str s = pv_symtab_get(&h->str, list[j]);

		if (j > 0)
			pv_strbuf_addch(sb, ',');
		pv_html_json(sb, s.s, s.len);
	}
	pv_strbuf_addch(sb, ']');
	pv_strbuf_add(sb, body.buf, body.len);
	pv_strbuf_release(&body);
	free(index);
	free(list);
}
