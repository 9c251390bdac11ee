/*
 * elfsym: kernel and ELF symbol lookup, inlined frames from DWARF
 * (elfsym.h).
 *
 * Every table is a sorted array searched by bisection; names are copied
 * into one arena, so the ELF handles are needed only for DWARF and are
 * closed otherwise.  The DWARF of source files (pv_elfsym_decl_file()) is
 * opened apart from that of inlined frames, when first asked for, since it
 * may come from another file (the search order of elfsym.h).
 */
#include "config.h"

#include <dwarf.h>
#include <elf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "arena.h"
#include "elfsym.h"
#include "hash.h"
#include "hmap.h"
#include "input.h"
#include "strbuf.h"
#include "xalloc.h"

#define DEBUG_DIR "/usr/lib/debug/.build-id"

struct sym {
	uint64_t start, end;
	const char *name;
	int rank;		/* for choosing among aliases; lower wins */
};

struct seg {
	uint64_t off, size, vaddr;
};

struct inl {
	uint64_t addr;		/* vaddr */
	size_t n;
	const char **name;
};

struct pv_elfsym_dso {
	char *path;
	const char *name;	/* "libc.so.6", "[vdso]", "anon" */
	const char *unknown;	/* the name in brackets */
	int relative;		/* addresses named by file offset */
	uint64_t hash;
	struct seg *seg;
	size_t nseg;
	struct sym *sym;
	size_t nsym;
	/* DWARF for inlined frames: the file or its debuginfo, kept open */
	int fd;
	Elf *elf;
	Dwarf *dw;
	struct inl *inl;	/* looked up so far, by id */
	size_t ninl, inl_alloc;
	struct pv_hmap inl_map;	/* their ids by address */
	char *image;	/* the vdso's copy */
	/* DWARF for source files, opened on first use (src_tried) */
	int src_tried, src_fd;
	Elf *src_elf;
	Dwarf *src_dw;
	uint32_t *byname;	/* sym indices sorted by name */
	struct decl *decl;	/* subprogram DIEs by name, read on demand */
	size_t ndecl;
	int decl_read;
};

/* a subprogram DIE's name and source file (pv_elfsym_decl_file()) */
struct decl {
	const char *name, *file;
	size_t seq;		/* the order read: the first of a name wins */
};

struct ksym {
	uint64_t addr;
	const char *name, *module;
};

struct pv_elfsym {
	int inline_frames;
	char *debug_dir;
	struct pv_arena arena;
	struct ksym *k;
	size_t nk;
	struct pv_elfsym_dso **dso;	/* by id */
	size_t ndso, dso_alloc;
	struct pv_hmap dso_map;		/* their ids by path and build id */
};

struct pv_elfsym *
pv_elfsym_new(int inline_frames)
{
	struct pv_elfsym *es = pv_xcalloc(1, sizeof(*es));

	elf_version(EV_CURRENT);
	es->inline_frames = inline_frames;
	es->debug_dir = pv_xstrdup(DEBUG_DIR);
	return es;
}

void
pv_elfsym_set_debug_dir(struct pv_elfsym *es, const char *dir)
{
	free(es->debug_dir);
	es->debug_dir = pv_xstrdup(dir);
}

static void
dso_free(struct pv_elfsym_dso *d)
{
	free(d->path);
	free(d->seg);
	free(d->sym);
	free(d->inl);
	pv_hmap_release(&d->inl_map);
	if (d->dw != NULL)
		dwarf_end(d->dw);
	if (d->elf != NULL)
		elf_end(d->elf);
	if (d->fd >= 0)
		close(d->fd);
	if (d->src_dw != NULL)
		dwarf_end(d->src_dw);
	if (d->src_elf != NULL)
		elf_end(d->src_elf);
	if (d->src_fd >= 0)
		close(d->src_fd);
	free(d->byname);
	free(d->decl);
	free(d->image);
	free(d);
}

void
pv_elfsym_free(struct pv_elfsym *es)
{
	size_t i;

	if (es == NULL)
		return;
	for (i = 0; i < es->ndso; i++)
		dso_free(es->dso[i]);
	free(es->dso);
	pv_hmap_release(&es->dso_map);
	free(es->k);
	free(es->debug_dir);
	pv_arena_release(&es->arena);
	free(es);
}

static int
cmp_ksym(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return strcmp(x->name, y->name);
}

long
pv_elfsym_load_kernel(struct pv_elfsym *es, const char *path)
{
	struct pv_input *in = pv_input_open(path);
	size_t alloc = 0, len, i, n;
	int rc, nonzero = 0;
	char *line;

	if (in == NULL)
		return -1;
	while ((rc = pv_input_getline(in, &line, &len)) > 0) {
		char *end, *name, *mod;
		uint64_t a = strtoull(line, &end, 16);
		char t;

		if (*end != ' ' || end[1] == '\0' || end[2] != ' ')
			continue;
		t = end[1];
		if (t != 't' && t != 'T' && t != 'w' && t != 'W')
			continue;
		name = end + 3;
		mod = strchr(name, '\t');
		if (mod != NULL) {
			*mod++ = '\0';
			if (*mod == '[')
				mod++;
			mod[strcspn(mod, "]")] = '\0';
		}
		if (a != 0)
			nonzero = 1;
		PV_GROW(es->k, es->nk + 1, alloc);
		es->k[es->nk].addr = a;
		es->k[es->nk].name = pv_arena_memdup(&es->arena, name,
						     strlen(name));
		es->k[es->nk].module = mod == NULL ? NULL :
			pv_arena_memdup(&es->arena, mod, strlen(mod));
		es->nk++;
	}
	pv_input_close(in);
	if (rc < 0 || !nonzero) {
		es->nk = 0;
		return -1;
	}
	qsort(es->k, es->nk, sizeof(*es->k), cmp_ksym);
	/* one name per address: the first byte-wise */
	for (i = n = 0; i < es->nk; i++)
		if (n == 0 || es->k[i].addr != es->k[n - 1].addr)
			es->k[n++] = es->k[i];
	es->nk = n;
	return (long)n;
}

const char *
pv_elfsym_kernel(const struct pv_elfsym *es, uint64_t addr,
		 const char **module)
{
	size_t lo = 0, hi = es->nk;

	*module = NULL;
	if (es->nk == 0 || addr < es->k[0].addr)
		return NULL;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (es->k[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	/* the last symbol has no successor to bound it: a page at most */
	if (lo == es->nk - 1 && addr - es->k[lo].addr >= 4096)
		return NULL;
	/* a module's last symbol does not extend into the next module */
	if (lo + 1 < es->nk && es->k[lo].module != es->k[lo + 1].module &&
	    (es->k[lo].module == NULL || es->k[lo + 1].module == NULL ||
	     strcmp(es->k[lo].module, es->k[lo + 1].module) != 0) &&
	    addr - es->k[lo].addr >= 1 << 20)
		return NULL;
	*module = es->k[lo].module;
	return es->k[lo].name;
}

/* perf's preference among symbols at one address: lower is better */
static int
rank(const GElf_Sym *s, const char *name)
{
	int r = 0, us = 0;

	if (s->st_size == 0)
		r += 1 << 20;
	if (GELF_ST_BIND(s->st_info) == STB_WEAK)
		r += 1 << 18;
	else if (GELF_ST_BIND(s->st_info) != STB_GLOBAL)
		r += 2 << 18;
	while (name[us] == '_')
		us++;
	r += (us > 15 ? 15 : us) << 14;
	return r;
}

static int
cmp_sym(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;
	size_t lx, ly;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	lx = strlen(x->name);
	ly = strlen(y->name);
	if (lx != ly)
		return lx < ly ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Read the function symbols of elf; 0 if it has none. */
static size_t
read_symbols(struct pv_elfsym *es, struct pv_elfsym_dso *d, Elf *elf)
{
	Elf_Scn *scn = NULL, *use = NULL;
	GElf_Shdr sh, ush = { 0 };
	Elf_Data *data;
	size_t i, n, alloc = 0, out;

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		if (gelf_getshdr(scn, &sh) == NULL)
			continue;
		if (sh.sh_type == SHT_SYMTAB ||
		    (sh.sh_type == SHT_DYNSYM && use == NULL)) {
			use = scn;
			ush = sh;
		}
	}
	if (use == NULL || (data = elf_getdata(use, NULL)) == NULL ||
	    ush.sh_entsize == 0)
		return 0;
	n = ush.sh_size / ush.sh_entsize;
	for (i = 0; i < n; i++) {
		GElf_Sym s;
		const char *name;
		int t;

		if (gelf_getsym(data, (int)i, &s) == NULL)
			continue;
		t = GELF_ST_TYPE(s.st_info);
		if ((t != STT_FUNC && t != STT_GNU_IFUNC) ||
		    s.st_shndx == SHN_UNDEF || s.st_value == 0)
			continue;
		name = elf_strptr(elf, ush.sh_link, s.st_name);
		if (name == NULL || *name == '\0')
			continue;
		PV_GROW(d->sym, d->nsym + 1, alloc);
		d->sym[d->nsym].start = s.st_value;
		d->sym[d->nsym].end = s.st_value + s.st_size;
		d->sym[d->nsym].name = pv_arena_memdup(&es->arena, name,
						       strlen(name));
		d->sym[d->nsym].rank = rank(&s, name);
		d->nsym++;
	}
	if (d->nsym == 0)
		return 0;
	qsort(d->sym, d->nsym, sizeof(*d->sym), cmp_sym);
	for (i = out = 0; i < d->nsym; i++)
		if (out == 0 || d->sym[i].start != d->sym[out - 1].start)
			d->sym[out++] = d->sym[i];
	d->nsym = out;
	/* an unsized symbol extends to the next one */
	for (i = 0; i < d->nsym; i++)
		if (d->sym[i].end == d->sym[i].start)
			d->sym[i].end = i + 1 < d->nsym ?
				d->sym[i + 1].start : d->sym[i].start + 1;
	return d->nsym;
}

static void
read_segments(struct pv_elfsym_dso *d, Elf *elf)
{
	size_t n, i, alloc = 0;

	if (elf_getphdrnum(elf, &n) != 0)
		return;
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(elf, (int)i, &ph) == NULL ||
		    ph.p_type != PT_LOAD)
			continue;
		PV_GROW(d->seg, d->nseg + 1, alloc);
		d->seg[d->nseg].off = ph.p_offset;
		d->seg[d->nseg].size = ph.p_filesz;
		d->seg[d->nseg].vaddr = ph.p_vaddr;
		d->nseg++;
	}
}

/* The GNU build id of elf: its length, 0 if none; id holds up to 64. */
static size_t
build_id(Elf *elf, unsigned char *id)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		Elf_Data *data;
		GElf_Nhdr nh;
		size_t off = 0, noff, doff;

		if (gelf_getshdr(scn, &sh) == NULL ||
		    sh.sh_type != SHT_NOTE ||
		    (data = elf_getdata(scn, NULL)) == NULL)
			continue;
		while ((off = gelf_getnote(data, off, &nh, &noff,
					   &doff)) > 0) {
			if (nh.n_type == NT_GNU_BUILD_ID &&
			    nh.n_namesz == 4 && nh.n_descsz <= 64 &&
			    memcmp((char *)data->d_buf + noff, "GNU", 4) ==
			    0) {
				memcpy(id, (char *)data->d_buf + doff,
				       nh.n_descsz);
				return nh.n_descsz;
			}
		}
	}
	return 0;
}

static Elf *
open_elf(const char *path, int *fd)
{
	Elf *elf;

	*fd = open(path, O_RDONLY | O_CLOEXEC);
	if (*fd < 0)
		return NULL;
	elf = elf_begin(*fd, ELF_C_READ_MMAP, NULL);
	if (elf == NULL || elf_kind(elf) != ELF_K_ELF) {
		if (elf != NULL)
			elf_end(elf);
		close(*fd);
		*fd = -1;
		return NULL;
	}
	return elf;
}

/* This process's vdso, copied (one kernel: the sampled tasks' too). */
static Elf *
open_vdso(struct pv_elfsym_dso *d)
{
	const unsigned char *base =
		(const unsigned char *)getauxval(AT_SYSINFO_EHDR);
	Elf64_Ehdr eh;
	size_t size;

	if (base == NULL)
		return NULL;
	memcpy(&eh, base, sizeof(eh));
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64)
		return NULL;
	size = eh.e_shoff + (size_t)eh.e_shnum * eh.e_shentsize;
	if (size < sizeof(eh) || size > (1 << 20))
		return NULL;
	d->image = pv_xmemdup(base, size);
	return elf_memory((char *)d->image, size);
}

static void
dso_load(struct pv_elfsym *es, struct pv_elfsym_dso *d,
	 const unsigned char *want, size_t wantlen)
{
	unsigned char id[64];
	size_t idlen = 0, i;
	int fd = -1, dfd = -1;
	Elf *elf, *dbg = NULL;

	if (strcmp(d->path, "[vdso]") == 0)
		elf = open_vdso(d);
	else if (d->path[0] == '/')
		elf = open_elf(d->path, &fd);
	else
		return;		/* [heap], [stack], anonymous: no file */
	if (elf == NULL)
		return;
	idlen = build_id(elf, id);
	if (wantlen > 0 && idlen > 0 &&
	    (idlen < wantlen ? idlen : wantlen) > 0 &&
	    memcmp(id, want, idlen < wantlen ? idlen : wantlen) != 0) {
		/* the file was replaced since it was mapped */
		elf_end(elf);
		if (fd >= 0)
			close(fd);
		return;
	}
	read_segments(d, elf);
	if (idlen > 1) {
		struct pv_strbuf p = PV_STRBUF_INIT;

		pv_strbuf_addf(&p, "%s/%02x/", es->debug_dir, id[0]);
		for (i = 1; i < idlen; i++)
			pv_strbuf_addf(&p, "%02x", id[i]);
		pv_strbuf_addstr(&p, ".debug");
		dbg = open_elf(p.buf, &dfd);
		pv_strbuf_release(&p);
	}
	if (dbg == NULL || read_symbols(es, d, dbg) == 0)
		read_symbols(es, d, elf);
	if (es->inline_frames) {
		/* DWARF from the debuginfo if any, else from the file */
		Elf *src = dbg != NULL ? dbg : elf;
		Dwarf *dw = dwarf_begin_elf(src, DWARF_C_READ, NULL);

		if (dw != NULL) {
			d->dw = dw;
			d->elf = src;
			d->fd = src == dbg ? dfd : fd;
			if (src == dbg)
				dbg = NULL, dfd = -1;
			else
				elf = NULL, fd = -1;
		}
	}
	if (dbg != NULL)
		elf_end(dbg);
	if (dfd >= 0)
		close(dfd);
	if (elf != NULL)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
}

/*
 * Anonymous memory as perf tells it from files (util/map.c): JIT code and
 * the like, which perf names after its map file /tmp/perf-PID.map.
 */
static int
is_anon(const char *path)
{
	return strcmp(path, "//anon") == 0 || strcmp(path, "/dev/zero") == 0 ||
		strncmp(path, "/anon_hugepage", 14) == 0 ||
		strncmp(path, "/SYSV", 5) == 0;
}

/* a dso looked for: its path, and the hash of the path and build id */
struct dsokey {
	const char *path;
	uint64_t hash;
};

static int
dso_eq(const void *ctx, uint32_t id, const void *key)
{
	const struct pv_elfsym *es = ctx;
	const struct pv_elfsym_dso *d = es->dso[id];
	const struct dsokey *k = key;

	return d->hash == k->hash && strcmp(d->path, k->path) == 0;
}

struct pv_elfsym_dso *
pv_elfsym_dso(struct pv_elfsym *es, const char *path,
	      const unsigned char *bid, size_t len)
{
	uint64_t h = pv_hash(path, strlen(path), len);
	struct pv_strbuf sb = PV_STRBUF_INIT;
	const char *base;
	struct pv_elfsym_dso *d;
	struct dsokey key;
	size_t pos;
	uint32_t id;

	h = pv_hash(bid, len, h);
	key.path = path;
	key.hash = h;
	id = pv_hmap_find(&es->dso_map, h, dso_eq, es, &key, &pos);
	if (id != PV_HMAP_NONE)
		return es->dso[id];
	d = pv_xcalloc(1, sizeof(*d));
	d->path = pv_xstrdup(path);
	d->hash = h;
	d->fd = d->src_fd = -1;
	base = strrchr(path, '/');
	base = base != NULL && path[0] != '[' ? base + 1 : path;
	if (is_anon(path))
		base = "anon";
	else if (*base == '\0')
		base = "unknown";
	d->name = pv_arena_memdup(&es->arena, base, strlen(base));
	pv_strbuf_addf(&sb, "[%s]", base);
	d->unknown = pv_arena_memdup(&es->arena, sb.buf, sb.len);
	pv_strbuf_release(&sb);
	/* perf script's addresses: file offsets in files, else as mapped */
	d->relative = (path[0] == '/' && !is_anon(path)) ||
		strcmp(path, "[vdso]") == 0;
	dso_load(es, d, bid, len);
	/* NOLINTNEXTLINE(bugprone-sizeof-expression) */
	PV_GROW(es->dso, es->ndso + 1, es->dso_alloc);
	es->dso[es->ndso] = d;
	pv_hmap_add_at(&es->dso_map, pos, h, (uint32_t)es->ndso++);
	return d;
}

const char *
pv_elfsym_dso_name(const struct pv_elfsym_dso *dso)
{
	return dso->name;
}

const char *
pv_elfsym_dso_unknown(const struct pv_elfsym_dso *dso)
{
	return dso->unknown;
}

int
pv_elfsym_dso_relative(const struct pv_elfsym_dso *dso)
{
	return dso->relative;
}

static int
inl_eq(const void *ctx, uint32_t id, const void *key)
{
	const struct pv_elfsym_dso *d = ctx;

	return d->inl[id].addr == *(const uint64_t *)key;
}

/* The inlined subroutines at vaddr, outermost first, cached. */
static const struct inl *
inlined(struct pv_elfsym *es, struct pv_elfsym_dso *d, uint64_t vaddr)
{
	Dwarf_Die cu, *scopes = NULL;
	uint64_t h = pv_hash_fold(vaddr + 1, PV_HASH_K0);
	struct inl *e;
	size_t pos;
	uint32_t id;
	int n, k;

	id = pv_hmap_find(&d->inl_map, h, inl_eq, d, &vaddr, &pos);
	if (id != PV_HMAP_NONE)
		return &d->inl[id];
	PV_GROW(d->inl, d->ninl + 1, d->inl_alloc);
	e = &d->inl[d->ninl];
	memset(e, 0, sizeof(*e));
	e->addr = vaddr;
	pv_hmap_add_at(&d->inl_map, pos, h, (uint32_t)d->ninl++);
	if (dwarf_addrdie(d->dw, vaddr, &cu) == NULL)
		return e;
	n = dwarf_getscopes(&cu, vaddr, &scopes);
	for (k = n - 1; k >= 0; k--) {
		const char *name;

		if (dwarf_tag(&scopes[k]) != DW_TAG_inlined_subroutine ||
		    (name = dwarf_diename(&scopes[k])) == NULL)
			continue;
		e->name = pv_xreallocarray(e->name, e->n + 1,
					   sizeof(*e->name));
		e->name[e->n++] = pv_arena_memdup(&es->arena, name,
						  strlen(name));
	}
	free(scopes);
	if (e->n > 0) {
		/* keep the list in the arena; the slot holds the pointer */
		const char **v = pv_arena_alloc(&es->arena,
						e->n * sizeof(*v));

		memcpy(v, e->name, e->n * sizeof(*v));
		free(e->name);
		e->name = v;
	}
	return e;
}

size_t
pv_elfsym_resolve(struct pv_elfsym *es, struct pv_elfsym_dso *d, uint64_t off,
		  const char **names, size_t max)
{
	uint64_t vaddr = 0;
	size_t i, lo = 0, hi = d->nsym, n = 0;
	int found = 0;

	if (max == 0 || d->nsym == 0)
		return 0;
	for (i = 0; i < d->nseg; i++)
		if (off >= d->seg[i].off &&
		    off - d->seg[i].off < d->seg[i].size) {
			vaddr = off - d->seg[i].off + d->seg[i].vaddr;
			found = 1;
			break;
		}
	if (!found || vaddr < d->sym[0].start)
		return 0;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (d->sym[mid].start <= vaddr)
			lo = mid;
		else
			hi = mid;
	}
	if (vaddr >= d->sym[lo].end)
		return 0;
	names[n++] = d->sym[lo].name;
	if (d->dw != NULL) {
		const struct inl *e = inlined(es, d, vaddr);

		for (i = 0; i < e->n && n < max; i++)
			names[n++] = e->name[i];
	}
	return n;
}

/*
 * Open the DWARF of d's file for source files, in the order of elfsym.h:
 * the file, the debug directory by build id, /usr/lib/debug/PATH.debug.
 */
static void
src_open(struct pv_elfsym *es, struct pv_elfsym_dso *d)
{
	struct pv_strbuf p = PV_STRBUF_INIT;
	unsigned char id[64];
	size_t idlen = 0, i;
	int k, fd;

	d->src_tried = 1;
	if (d->path[0] != '/')
		return;
	for (k = 0; k < 3 && d->src_dw == NULL; k++) {
		Dwarf *dw;
		Elf *elf;

		pv_strbuf_reset(&p);
		if (k == 0) {
			pv_strbuf_addstr(&p, d->path);
		} else if (k == 1) {
			if (idlen < 2)
				continue;
			pv_strbuf_addf(&p, "%s/%02x/", es->debug_dir, id[0]);
			for (i = 1; i < idlen; i++)
				pv_strbuf_addf(&p, "%02x", id[i]);
			pv_strbuf_addstr(&p, ".debug");
		} else {
			pv_strbuf_addf(&p, "/usr/lib/debug%s.debug", d->path);
		}
		if ((elf = open_elf(p.buf, &fd)) == NULL)
			continue;
		if (k == 0)
			idlen = build_id(elf, id);
		if ((dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL)) == NULL) {
			elf_end(elf);
			close(fd);
			continue;
		}
		d->src_dw = dw;
		d->src_elf = elf;
		d->src_fd = fd;
	}
	pv_strbuf_release(&p);
}

int
pv_elfsym_has_dwarf(struct pv_elfsym *es, const char *path)
{
	struct pv_elfsym_dso *d;
	int fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	close(fd);
	d = pv_elfsym_dso(es, path, NULL, 0);
	if (!d->src_tried)
		src_open(es, d);
	return d->src_dw != NULL;
}

/* below dir: the rest of file after "dir/", else NULL */
static const char *
below(const char *file, const char *dir)
{
	size_t n;

	if (dir == NULL || *dir == '\0')
		return NULL;
	n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	if (strncmp(file, dir, n) != 0 || file[n] != '/')
		return NULL;
	file += n;
	while (*file == '/')
		file++;
	return *file != '\0' ? file : NULL;
}

/*
 * Take the "." and "DIR/.." components out of path sb, in place, as the
 * names read ("/b/glibc/csu/../sysdeps/x.h"); ".." above the root stays.
 */
static void
normalise(struct pv_strbuf *sb)
{
	char *p = sb->buf, *out = sb->buf;
	size_t keep = sb->buf[0] == '/';	/* the root, never taken out */

	out += keep;
	p += keep;
	while (*p != '\0') {
		size_t n = strcspn(p, "/");

		if (n == 0 || (n == 1 && p[0] == '.')) {
			/* "//" or "/./": nothing */
		} else if (n == 2 && p[0] == '.' && p[1] == '.' &&
			   out > sb->buf + keep &&
			   !(out - sb->buf - keep >= 2 && out[-1] == '.' &&
			     out[-2] == '.' && (out - 2 == sb->buf + keep ||
						out[-3] == '/'))) {
			/* back over the last component kept */
			while (out > sb->buf + keep && out[-1] != '/')
				out--;
			if (out > sb->buf + keep)
				out--;
		} else {
			if (out > sb->buf + keep)
				*out++ = '/';
			memmove(out, p, n);
			out += n;
		}
		p += n;
		if (*p == '/')
			p++;
	}
	pv_strbuf_setlen(sb, (size_t)(out - sb->buf));
}

/*
 * The source file of subprogram die, made relative (elfsym.h), or NULL.
 * libdw leaves a name relative when its directory entry is (DWARF 5's
 * "dir/file.c" for "cc dir/file.c"): it is under the compilation
 * directory, which may be relative itself (a reproducible build's
 * "./csu", whose "../sysdeps/x.h" is then "sysdeps/x.h" of the tree).
 */
static const char *
die_file(struct pv_elfsym *es, Dwarf_Die *die, const char *root)
{
	struct pv_strbuf sb = PV_STRBUF_INIT, cb = PV_STRBUF_INIT;
	Dwarf_Die cu;
	Dwarf_Attribute a;
	const char *f = dwarf_decl_file(die), *rel, *comp = NULL, *out;

	if (f == NULL || *f == '\0')
		return NULL;
	if (dwarf_diecu(die, &cu, NULL, NULL) != NULL)
		comp = dwarf_formstring(dwarf_attr(&cu, DW_AT_comp_dir, &a));
	/* a relative comp_dir too ("./csu", a reproducible build's) */
	if (f[0] != '/' && comp != NULL && *comp != '\0')
		pv_strbuf_addf(&sb, "%s/%s", comp, f);
	else
		pv_strbuf_addstr(&sb, f);
	normalise(&sb);
	f = sb.buf;
	if (comp != NULL) {
		pv_strbuf_addstr(&cb, comp);
		normalise(&cb);
		comp = cb.buf;
	}
	if ((rel = below(f, root)) == NULL && (root != NULL ||
	    (rel = below(f, comp)) == NULL))
		rel = f;
	out = pv_arena_memdup(&es->arena, rel, strlen(rel));
	pv_strbuf_release(&sb);
	pv_strbuf_release(&cb);
	return out;
}

static const struct pv_elfsym_dso *sort_dso;

static int
cmp_byname(const void *a, const void *b)
{
	return strcmp(sort_dso->sym[*(const uint32_t *)a].name,
		      sort_dso->sym[*(const uint32_t *)b].name);
}

static int
cmp_decl(const void *a, const void *b)
{
	const struct decl *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c != 0)
		return c;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The subprogram DIEs below die (namespaces, classes too) into d->decl. */
static void
read_decls(struct pv_elfsym *es, struct pv_elfsym_dso *d, Dwarf_Die *die,
	   const char *root, size_t *alloc, int depth)
{
	Dwarf_Die c;

	if (depth > 8 || dwarf_child(die, &c) != 0)
		return;
	do {
		int tag = dwarf_tag(&c);
		const char *name, *file;

		if (tag == DW_TAG_namespace || tag == DW_TAG_class_type ||
		    tag == DW_TAG_structure_type) {
			read_decls(es, d, &c, root, alloc, depth + 1);
			continue;
		}
		/* a declaration says where a prototype is, not the code */
		if (tag != DW_TAG_subprogram ||
		    dwarf_hasattr(&c, DW_AT_declaration) ||
		    (name = dwarf_diename(&c)) == NULL ||
		    (file = die_file(es, &c, root)) == NULL)
			continue;
		PV_GROW(d->decl, d->ndecl + 1, *alloc);
		d->decl[d->ndecl].name = name;
		d->decl[d->ndecl].file = file;
		d->decl[d->ndecl].seq = d->ndecl;
		d->ndecl++;
	} while (dwarf_siblingof(&c, &c) == 0);
}

static void
decls_read(struct pv_elfsym *es, struct pv_elfsym_dso *d, const char *root)
{
	Dwarf_Off off = 0, next;
	size_t hsize, alloc = 0, i;

	d->decl_read = 1;
	while (dwarf_nextcu(d->src_dw, off, &next, &hsize, NULL, NULL,
			    NULL) == 0) {
		Dwarf_Die cu;

		if (dwarf_offdie(d->src_dw, off + hsize, &cu) != NULL)
			read_decls(es, d, &cu, root, &alloc, 0);
		off = next;
	}
	/* names live in the DWARF: copy them before it may close */
	for (i = 0; i < d->ndecl; i++)
		d->decl[i].name = pv_arena_memdup(&es->arena, d->decl[i].name,
						  strlen(d->decl[i].name));
	if (d->ndecl > 1)
		qsort(d->decl, d->ndecl, sizeof(*d->decl), cmp_decl);
}

/* The symbol named name (len bytes) of d, or NULL. */
static const struct sym *
sym_named(struct pv_elfsym_dso *d, const char *name, size_t len)
{
	size_t lo = 0, hi = d->nsym, i;

	if (d->byname == NULL && d->nsym > 0) {
		d->byname = pv_xreallocarray(NULL, d->nsym,
					     sizeof(*d->byname));
		for (i = 0; i < d->nsym; i++)
			d->byname[i] = (uint32_t)i;
		sort_dso = d;
		qsort(d->byname, d->nsym, sizeof(*d->byname), cmp_byname);
		sort_dso = NULL;
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const char *s = d->sym[d->byname[mid]].name;
		int c = strncmp(s, name, len);

		if (c == 0 && s[len] != '\0')
			c = 1;
		if (c == 0)
			return &d->sym[d->byname[mid]];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

int
pv_elfsym_decl_file(struct pv_elfsym *es, const char *path, const char *func,
		    size_t len, const char *root, const char **file)
{
	return pv_elfsym_dso_decl_file(es, pv_elfsym_dso(es, path, NULL, 0),
				       func, len, root, file);
}

const char *
pv_elfsym_dso_path(const struct pv_elfsym_dso *dso)
{
	return dso->path;
}

int
pv_elfsym_dso_decl_file(struct pv_elfsym *es, struct pv_elfsym_dso *d,
			const char *func, size_t len, const char *root,
			const char **file)
{
	const struct sym *sym;
	Dwarf_Die cu, *scopes = NULL;
	size_t lo, hi;
	int n, k;

	*file = NULL;
	if (!d->src_tried)
		src_open(es, d);
	if (d->src_dw == NULL)
		return 0;
	/* the subprogram at the symbol's address: the outermost one */
	if ((sym = sym_named(d, func, len)) != NULL &&
	    dwarf_addrdie(d->src_dw, sym->start, &cu) != NULL &&
	    (n = dwarf_getscopes(&cu, sym->start, &scopes)) > 0) {
		for (k = n - 1; k >= 0; k--)
			if (dwarf_tag(&scopes[k]) == DW_TAG_subprogram)
				break;
		if (k >= 0)
			*file = die_file(es, &scopes[k], root);
	}
	free(scopes);
	if (*file != NULL)
		return 1;
	/* else a subprogram of that name, the first read */
	if (!d->decl_read)
		decls_read(es, d, root);
	lo = 0;
	hi = d->ndecl;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strncmp(d->decl[mid].name, func, len);

		if (c == 0 && d->decl[mid].name[len] != '\0')
			c = 1;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < d->ndecl && strncmp(d->decl[lo].name, func, len) == 0 &&
	    d->decl[lo].name[len] == '\0') {
		*file = d->decl[lo].file;
		return 1;
	}
	return 0;
}
