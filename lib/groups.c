/*
 * groups: frames to groups, and the frame and group records of pv-diff's
 * output (see groups.h).
 *
 * Group names are interned in d->gnames with what the frame records said;
 * a group is a kind and such a name, numbered in d->gdef.  Every frame
 * name's groups are found once, here, so that the walk that counts them
 * (stackdiff.c) only reads d->gid; the derived names (a module's base
 * name, a file's subsystem) are found once per distinct module and file.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "groups.h"
#include "xalloc.h"

#define NONE UINT32_MAX

static int
ends_with(struct pv_str s, const char *suffix)
{
	size_t n = strlen(suffix);

	return s.len >= n && memcmp(s.s + s.len - n, suffix, n) == 0;
}

static int
starts_with(struct pv_str s, const char *prefix)
{
	size_t n = strlen(prefix);

	return s.len >= n && memcmp(s.s, prefix, n) == 0;
}

/* The module group of module m (see groups.h), interned in gnames. */
static uint32_t
module_group(struct pv_symtab *gnames, struct pv_str m)
{
	static const char *const ko[] = { ".ko", ".ko.gz", ".ko.xz",
					  ".ko.zst" };
	struct pv_strbuf sb = PV_STRBUF_INIT;
	struct pv_str base = m;
	uint32_t id;
	size_t i;

	if (m.len == 0)
		return pv_symtab_intern(gnames, "unknown", 7);
	for (i = 0; i < m.len; i++)
		if (m.s[i] == '/') {
			base.s = m.s + i + 1;
			base.len = m.len - i - 1;
		}
	if ((starts_with(m, "/tmp/perf-") && ends_with(m, ".map")) ||
	    (starts_with(base, "jitted-") && ends_with(base, ".so")))
		return pv_symtab_intern(gnames, "[jit]", 5);
	if (base.len == 0 || m.s[0] == '[')
		base = m;
	for (i = 0; i < sizeof(ko) / sizeof(ko[0]); i++) {
		if (ends_with(base, ko[i]) && base.len > strlen(ko[i])) {
			pv_strbuf_addch(&sb, '[');
			pv_strbuf_add(&sb, base.s, base.len - strlen(ko[i]));
			pv_strbuf_addch(&sb, ']');
			id = pv_symtab_intern(gnames, sb.buf, sb.len);
			pv_strbuf_release(&sb);
			return id;
		}
	}
	return pv_symtab_intern(gnames, base.s, base.len);
}

/* The frame record of name id that counts: the target's, else the base's. */
static const struct pv_stackdiff_frame *
frame_of(const struct pv_stackdiff *d, uint32_t id)
{
	int side;

	for (side = 1; side >= 0; side--)
		if (id < d->frame_alloc[side] &&
		    d->frame[side][id].space != NONE)
			return &d->frame[side][id];
	return NULL;
}

void
pv_groups_prepare(struct pv_stackdiff *d)
{
	size_t nsym = d->names.nsym, ng = d->gnames.nsym, i, k;
	uint32_t unknown, kernel, user, empty, *module, *subsys, *index;
	int known[PV_GROUP_NKINDS] = { 0, 0, 0, 0 };

	unknown = pv_symtab_intern(&d->gnames, "unknown", 7);
	kernel = pv_symtab_intern(&d->gnames, "kernel", 6);
	user = pv_symtab_intern(&d->gnames, "user", 4);
	empty = pv_symtab_intern(&d->gnames, "", 0);
	/* the derived names, once per gnames id that frames name */
	module = pv_xreallocarray(NULL, ng + 1, sizeof(*module));
	subsys = pv_xreallocarray(NULL, ng + 1, sizeof(*subsys));
	memset(module, 0xff, (ng + 1) * sizeof(*module));
	memset(subsys, 0xff, (ng + 1) * sizeof(*subsys));

	d->gid = pv_xreallocarray(NULL, nsym + 1,
				  PV_GROUP_NKINDS * sizeof(*d->gid));
	for (i = 0; i < nsym; i++) {
		const struct pv_stackdiff_frame *f = frame_of(d, (uint32_t)i);
		uint32_t *g = &d->gid[i * PV_GROUP_NKINDS];

		if (f == NULL) {
			for (k = 0; k < PV_GROUP_NKINDS; k++)
				g[k] = NONE;
			continue;
		}
		g[PV_GROUP_SPACE] = f->space == kernel || f->space == user ?
			f->space : unknown;
		if (module[f->module] == NONE)
			module[f->module] = module_group(&d->gnames,
				pv_symtab_get(&d->gnames, f->module));
		g[PV_GROUP_MODULE] = module[f->module];
		g[PV_GROUP_FILE] = f->file != empty ? f->file : unknown;
		if (subsys[f->file] == NONE) {
			struct pv_str file = pv_symtab_get(&d->gnames,
							   f->file);
			const char *s = NULL;

			if (d->opt.subsys != NULL && file.len > 0)
				s = pv_subsys_lookup(d->opt.subsys, file.s,
						     file.len);
			subsys[f->file] = s != NULL ?
				pv_symtab_intern(&d->gnames, s, strlen(s)) :
				NONE - 1;
		}
		g[PV_GROUP_SUBSYSTEM] = subsys[f->file] != NONE - 1 ?
			subsys[f->file] : f->subsys != empty ? f->subsys :
			unknown;
		for (k = 0; k < PV_GROUP_NKINDS; k++)
			if (g[k] != unknown)
				known[k] = 1;
	}
	free(module);
	free(subsys);

	/* gnames ids to groups, kind by kind; the kinds never known out */
	ng = d->gnames.nsym;
	index = pv_xreallocarray(NULL, ng + 1, sizeof(*index));
	for (k = 0; k < PV_GROUP_NKINDS; k++) {
		memset(index, 0xff, (ng + 1) * sizeof(*index));
		for (i = 0; i < nsym; i++) {
			uint32_t *g = &d->gid[i * PV_GROUP_NKINDS + k];

			if (*g == NONE)
				continue;
			if (!known[k]) {
				*g = NONE;
				continue;
			}
			if (index[*g] == NONE) {
				PV_GROW(d->gdef, d->ngdef + 1, d->gdef_alloc);
				d->gdef[d->ngdef].kind = (unsigned)k;
				d->gdef[d->ngdef].name = *g;
				index[*g] = (uint32_t)d->ngdef++;
			}
			*g = index[*g];
		}
	}
	free(index);
}

static void
flush(struct pv_strbuf *sb, FILE *out)
{
	if (sb->len >= 65536) {
		fwrite(sb->buf, 1, sb->len, out);
		pv_strbuf_reset(sb);
	}
}

static const struct pv_symtab *sort_names;

static int
cmp_name(const void *pa, const void *pb)
{
	return pv_str_cmp(pv_symtab_get(sort_names, *(const uint32_t *)pa),
			  pv_symtab_get(sort_names, *(const uint32_t *)pb));
}

void
pv_groups_write_frames(const struct pv_stackdiff *d, struct pv_strbuf *sb,
		       FILE *out)
{
	const struct pv_flametree *t = &d->tree;
	unsigned char *used;
	uint32_t *id;
	size_t i, n = 0, k;

	if (d->gid == NULL)
		return;
	/* the names of the frames of the stacks, not of the events */
	used = pv_xcalloc(d->names.nsym + 1, 1);
	for (i = 1; i < t->nnode; i++)
		if (t->node[i].parent != 0)
			used[t->node[i].name] = 1;
	id = pv_xreallocarray(NULL, d->names.nsym + 1, sizeof(*id));
	for (i = 0; i < d->names.nsym; i++)
		if (used[i] && d->gid[i * PV_GROUP_NKINDS] != NONE)
			id[n++] = (uint32_t)i;
	free(used);
	/* names met first in frame records are in order already, often */
	sort_names = &d->names;
	for (i = 1; i < n && cmp_name(&id[i - 1], &id[i]) < 0; i++)
		;
	if (i < n)
		qsort(id, n, sizeof(*id), cmp_name);
	sort_names = NULL;
	for (i = 0; i < n; i++) {
		struct pv_rec_frame r;
		struct pv_str *f[PV_GROUP_NKINDS] = {
			&r.space, &r.module, &r.file, &r.subsys
		};

		memset(&r, 0, sizeof(r));
		r.name = pv_symtab_get(&d->names, id[i]);
		for (k = 0; k < PV_GROUP_NKINDS; k++) {
			uint32_t g = d->gid[(size_t)id[i] * PV_GROUP_NKINDS +
					    k];

			if (g != NONE)
				*f[k] = pv_symtab_get(&d->gnames,
						      d->gdef[g].name);
		}
		pv_rec_frame_write(sb, &r);
		flush(sb, out);
	}
	free(id);
}

void
pv_groups_write(const struct pv_stackdiff *d, struct pv_strbuf *sb, FILE *out)
{
	size_t i;

	for (i = 0; i < d->ngroup; i++) {
		const struct pv_stackdiff_group *g = &d->group[i];
		struct pv_rec_group r;

		r.event = pv_symtab_get(&d->names, g->event);
		r.kind = g->kind;
		r.name = pv_symtab_get(&d->gnames, g->name);
		r.fig = g->fig;
		r.presence = g->presence;
		pv_rec_group_write(sb, &r);
		flush(sb, out);
	}
}
