/*
 * testspill: one test of a table held at a time, the others saved to a
 * temporary file and read back at the end (see testspill.h); what pv-stat
 * and pv-diff (sampdiff.c) share.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testspill.h"
#include "xalloc.h"

void
pv_testspill_file_init(struct pv_testspill_file *f, const char *tool)
{
	memset(f, 0, sizeof(*f));
	f->tool = tool;
	f->fd = -1;
	pv_strbuf_init(&f->buf, 0);
}

void
pv_testspill_file_release(struct pv_testspill_file *f)
{
	pv_strbuf_release(&f->buf);
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
}

void
pv_testspill_init(struct pv_testspill *ts, struct pv_runtab *tab,
		  struct pv_testspill_file *file)
{
	memset(ts, 0, sizeof(*ts));
	ts->tab = tab;
	ts->file = file;
	pv_symtab_init(&ts->gid);
	pv_symtab_init(&ts->gstr);
	pv_strbuf_init(&ts->idbuf, 0);
	ts->cur = PV_TESTSPILL_NONE;
}

void
pv_testspill_release(struct pv_testspill *ts)
{
	pv_symtab_release(&ts->gid);
	pv_symtab_release(&ts->gstr);
	pv_strbuf_release(&ts->idbuf);
	free(ts->g);
	ts->g = NULL;
	ts->n = ts->alloc = 0;
}

static struct pv_str
gkeep(struct pv_testspill *ts, struct pv_str s)
{
	if (s.len == 0)
		s.s = "";	/* (an empty string may be NULL) */
	return pv_symtab_get(&ts->gstr, pv_symtab_intern(&ts->gstr, s.s,
							   s.len));
}

static void
id_add(struct pv_strbuf *sb, struct pv_str s)
{
	uint32_t n = (uint32_t)s.len;

	pv_strbuf_add(sb, &n, sizeof(n));
	if (s.len > 0)		/* (an empty string may be NULL) */
		pv_strbuf_add(sb, s.s, s.len);
}

static int
spill_open(struct pv_testspill *ts)
{
	const char *dir = getenv("TMPDIR");
	struct pv_strbuf path = PV_STRBUF_INIT;

	pv_strbuf_addf(&path, "%s/%s.XXXXXX",
		       dir != NULL && *dir != '\0' ? dir : "/tmp",
		       ts->file->tool);
	if ((ts->file->fd = mkstemp(path.buf)) < 0) {
		pv_err_set_errno(&ts->err, errno, "cannot create a "
				 "temporary file '%s'", path.buf);
		pv_strbuf_release(&path);
		return -1;
	}
	unlink(path.buf);
	pv_strbuf_release(&path);
	return 0;
}

/* The sets of the table, of group g, saved to the spill and dropped. */
static int
spill_group(struct pv_testspill *ts, struct pv_testspill_group *g)
{
	struct pv_testspill_file *f = ts->file;
	const char *p;
	size_t left;

	if (ts->tab->nset == 0)
		return 0;
	if (f->fd < 0 && spill_open(ts) < 0)
		return -1;
	pv_strbuf_reset(&f->buf);
	pv_runtab_save(ts->tab, &f->buf);
	g->off = f->end;
	g->len = f->buf.len;
	g->saved = 1;
	for (p = f->buf.buf, left = f->buf.len; left > 0;) {
		ssize_t n = write(f->fd, p, left);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return pv_err_set_errno(&ts->err, errno, "cannot "
						"write the temporary file");
		p += n;
		left -= (size_t)n;
	}
	f->end += (off_t)g->len;
	pv_runtab_clear(ts->tab);
	return 0;
}

int
pv_testspill_load(struct pv_testspill *ts,
		  const struct pv_testspill_group *g, struct pv_runtab *t)
{
	struct pv_testspill_file *f = ts->file;
	size_t done = 0;

	if (!g->saved)
		return 0;
	pv_strbuf_reset(&f->buf);
	pv_strbuf_grow(&f->buf, g->len);
	while (done < g->len) {
		ssize_t n = pread(f->fd, f->buf.buf + done, g->len - done,
				  g->off + (off_t)done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return pv_err_set_errno(&ts->err, errno, "cannot "
						"read the temporary file");
		done += (size_t)n;
	}
	if (pv_runtab_load(t, f->buf.buf, g->len) < 0)
		return pv_err_set(&ts->err, "the temporary file: %s",
				  pv_err_msg(&t->err));
	return 0;
}

int
pv_testspill_take(struct pv_testspill *ts, struct pv_testspill_group *g)
{
	if (pv_testspill_load(ts, g, ts->tab) < 0)
		return -1;
	g->saved = 0;
	return 0;
}

int
pv_testspill_hold_all(struct pv_testspill *ts)
{
	size_t i;

	ts->hold = 1;
	for (i = 0; i < ts->n; i++)
		if (pv_testspill_take(ts, &ts->g[i]) < 0)
			return -1;
	return 0;
}

int
pv_testspill_save_current(struct pv_testspill *ts)
{
	if (ts->cur != PV_TESTSPILL_NONE && !ts->hold &&
	    spill_group(ts, &ts->g[ts->cur]) < 0)
		return -1;
	ts->cur = PV_TESTSPILL_NONE;
	return 0;
}

int
pv_testspill_enter(struct pv_testspill *ts, struct pv_str role,
		   struct pv_str version, struct pv_str experiment,
		   struct pv_str suite, struct pv_str test)
{
	struct pv_testspill_group *g;
	uint32_t id;

	if (ts->cur != PV_TESTSPILL_NONE) {
		const struct pv_runkey *k = &ts->g[ts->cur].key;

		if (pv_str_cmp(k->suite, suite) == 0 &&
		    pv_str_cmp(k->test, test) == 0 &&
		    pv_str_cmp(k->role, role) == 0 &&
		    pv_str_cmp(k->version, version) == 0 &&
		    pv_str_cmp(k->experiment, experiment) == 0)
			return 0;
	}
	pv_strbuf_reset(&ts->idbuf);
	id_add(&ts->idbuf, role);
	id_add(&ts->idbuf, version);
	id_add(&ts->idbuf, experiment);
	id_add(&ts->idbuf, suite);
	id_add(&ts->idbuf, test);
	id = pv_symtab_intern(&ts->gid, ts->idbuf.buf, ts->idbuf.len);
	if (id == ts->n) {
		PV_GROW(ts->g, ts->n + 1, ts->alloc);
		g = &ts->g[ts->n++];
		memset(g, 0, sizeof(*g));
		g->key.role = gkeep(ts, role);
		g->key.version = gkeep(ts, version);
		g->key.experiment = gkeep(ts, experiment);
		g->key.suite = gkeep(ts, suite);
		g->key.test = gkeep(ts, test);
		g->key.operation = g->key.metric = g->key.unit =
			gkeep(ts, g->key.operation);
		g->key.level = PV_NONE;
	}
	if (!ts->hold && ts->cur != PV_TESTSPILL_NONE &&
	    spill_group(ts, &ts->g[ts->cur]) < 0)
		return -1;
	ts->cur = id;
	if (!ts->g[id].saved)
		return 0;
	ts->hold = 1;
	return 1;
}
