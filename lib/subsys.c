/*
 * subsys: source files to subsystems, from MAINTAINERS or a plain map
 * (see subsys.h).
 *
 * Rules are kept in the order read and indexed by the directory each
 * starts in: the bytes of its pattern up to the last '/' before its first
 * wildcard ("kernel/sched/" for "kernel/sched/ext*", "" for "*" or a
 * regular expression).  A lookup tries the rules of each directory that
 * begins the path, so that a file meets the few rules that may hold it,
 * not the thousands of a real MAINTAINERS.
 */
#include "config.h"

#include <errno.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "subsys.h"
#include "xalloc.h"

enum kind {
	RULE_F,		/* MAINTAINERS F: */
	RULE_X,		/* X: */
	RULE_N,		/* N: */
	RULE_MAP	/* a plain map's prefix */
};

struct pv_subsys_rule {
	char *pat;
	size_t len;
	enum kind kind;
	uint32_t name;		/* the entry's, in names */
	int depth;		/* path components, for the most specific */
	size_t literal;		/* bytes other than wildcards */
	regex_t *re;		/* N: */
};

void
pv_subsys_init(struct pv_subsys *s)
{
	memset(s, 0, sizeof(*s));
	pv_symtab_init(&s->names);
	pv_symtab_init(&s->dirs);
}

void
pv_subsys_release(struct pv_subsys *s)
{
	size_t i;

	for (i = 0; i < s->nrule; i++) {
		free(s->rule[i].pat);
		if (s->rule[i].re != NULL) {
			regfree(s->rule[i].re);
			free(s->rule[i].re);
		}
	}
	free(s->rule);
	for (i = 0; i < s->dirs.nsym; i++)
		free(s->bydir[i]);
	free(s->bydir);
	free(s->nbydir);
	pv_symtab_release(&s->names);
	pv_symtab_release(&s->dirs);
	memset(s, 0, sizeof(*s));
}

int
pv_subsys_empty(const struct pv_subsys *s)
{
	return s->nrule == 0;
}

static int
is_wild(char c)
{
	return c == '*' || c == '?';
}

static size_t
slashes(const char *s, size_t len)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++)
		n += s[i] == '/';
	return n;
}

/*
 * File the rule under the directory its pattern starts in: up to the last
 * '/' before a wildcard; a prefix's, up to its last '/'; none for a
 * regular expression.
 */
static void
index_rule(struct pv_subsys *s, size_t r)
{
	const struct pv_subsys_rule *ru = &s->rule[r];
	size_t i, dir = 0, old = s->bydir_alloc;
	uint32_t id;

	for (i = 0; ru->kind != RULE_N && i < ru->len; i++) {
		if (ru->kind != RULE_MAP && is_wild(ru->pat[i]))
			break;
		if (ru->pat[i] == '/')
			dir = i + 1;
	}
	id = pv_symtab_intern(&s->dirs, ru->pat, dir);
	if (id >= s->bydir_alloc) {
		PV_GROW(s->bydir, (size_t)id + 1, s->bydir_alloc);
		s->nbydir = pv_xreallocarray(s->nbydir, s->bydir_alloc,
					     sizeof(*s->nbydir));
		memset(s->bydir + old, 0,
		       (s->bydir_alloc - old) * sizeof(*s->bydir));
		memset(s->nbydir + old, 0,
		       (s->bydir_alloc - old) * sizeof(*s->nbydir));
	}
	s->bydir[id] = pv_xreallocarray(s->bydir[id], s->nbydir[id] + 1,
					sizeof(**s->bydir));
	s->bydir[id][s->nbydir[id]++] = (uint32_t)r;
}

static struct pv_subsys_rule *
new_rule(struct pv_subsys *s, enum kind kind, const char *pat, size_t len,
	 uint32_t name)
{
	struct pv_subsys_rule *r;
	size_t i;

	PV_GROW(s->rule, s->nrule + 1, s->rule_alloc);
	r = &s->rule[s->nrule++];
	memset(r, 0, sizeof(*r));
	r->pat = pv_xmemdup(pat, len);
	r->len = len;
	r->kind = kind;
	r->name = name;
	for (i = 0; i < len; i++)
		r->literal += !is_wild(pat[i]);
	if (kind == RULE_N || (len > 0 && pat[0] == '*'))
		r->depth = 0;
	else
		r->depth = (int)slashes(pat, len) +
			   (len > 0 && pat[len - 1] != '/');
	return r;
}

/* Whether pattern p matches a prefix of s ('*' any run, '?' any byte). */
static int
glob_prefix(const char *p, size_t plen, const char *s, size_t slen)
{
	while (plen > 0) {
		if (*p == '*') {
			size_t k;

			while (plen > 0 && *p == '*')
				p++, plen--;
			if (plen == 0)
				return 1;
			for (k = 0; k <= slen; k++)
				if (glob_prefix(p, plen, s + k, slen - k))
					return 1;
			return 0;
		}
		if (slen == 0 || (*p != '?' && *p != *s))
			return 0;
		p++, plen--;
		s++, slen--;
	}
	return 1;
}

/* Whether an F:, X: or map rule holds the file path[0..len). */
static int
holds(const struct pv_subsys_rule *r, const char *path, size_t len)
{
	size_t i;

	if (r->kind == RULE_MAP)
		return len >= r->len && memcmp(path, r->pat, r->len) == 0;
	if (r->len > 0 && r->pat[r->len - 1] == '/')
		return glob_prefix(r->pat, r->len, path, len);
	if (glob_prefix(r->pat, r->len, path, len) &&
	    slashes(path, len) == slashes(r->pat, r->len))
		return 1;
	/* a directory named without its '/' */
	for (i = 0; i < r->len && !is_wild(r->pat[i]); i++)
		;
	return i == r->len && len > r->len && path[r->len] == '/' &&
	       memcmp(path, r->pat, r->len) == 0;
}

/* Whether rule a is more specific than rule b (a later than b). */
static int
better(const struct pv_subsys_rule *a, const struct pv_subsys_rule *b)
{
	if (a->kind == RULE_MAP || b->kind == RULE_MAP) {
		if (a->kind != b->kind)
			return a->kind == RULE_MAP;
		return a->len > b->len;
	}
	if (a->depth != b->depth)
		return a->depth > b->depth;
	return a->literal > b->literal;
}

/* Whether an X: rule of entry name holds the path. */
static int
excluded(const struct pv_subsys *s, uint32_t name, const char *path,
	 size_t len)
{
	size_t i;

	for (i = 0; i < s->nrule; i++)
		if (s->rule[i].kind == RULE_X && s->rule[i].name == name &&
		    holds(&s->rule[i], path, len))
			return 1;
	return 0;
}

const char *
pv_subsys_lookup(const struct pv_subsys *s, const char *path, size_t len)
{
	const struct pv_subsys_rule *best = NULL;
	char *z = NULL;
	size_t i, k;

	for (i = 0; i <= len; i++) {
		uint32_t id;

		if (i > 0 && path[i - 1] != '/')
			continue;
		if ((id = pv_symtab_find(&s->dirs, path, i)) == PV_HMAP_NONE)
			continue;
		for (k = 0; k < s->nbydir[id]; k++) {
			const struct pv_subsys_rule *r =
				&s->rule[s->bydir[id][k]];
			int ok;

			if (r->kind == RULE_X ||
			    (best != NULL && !better(r, best)))
				continue;
			if (r->kind == RULE_N) {
				if (z == NULL)
					z = pv_xmemdup(path, len);
				ok = regexec(r->re, z, 0, NULL, 0) == 0;
			} else {
				ok = holds(r, path, len);
			}
			if (ok && (r->kind == RULE_MAP ||
				   !excluded(s, r->name, path, len)))
				best = r;
		}
	}
	free(z);
	if (best == NULL)
		return NULL;
	return pv_symtab_get(&s->names, best->name).s;
}

/* "FILE:LINE: message" */
static int
bad_line(struct pv_subsys *s, const char *path, unsigned long line,
	 const char *msg)
{
	return pv_err_set(&s->err, "%s:%lu: %s", path, line, msg);
}

static int
open_failed(struct pv_subsys *s, const char *path)
{
	return pv_err_set_errno(&s->err, errno, "cannot open '%s'", path);
}

/* The lines of path, blanks at the ends of each cut off, to fn. */
static int
each_line(struct pv_subsys *s, const char *path,
	  int (*fn)(struct pv_subsys *, const char *, unsigned long,
		    char *, size_t, uint32_t *),
	  uint32_t *state)
{
	struct pv_input *in = pv_input_open(path);
	char *line;
	size_t len;
	int rc;

	if (in == NULL)
		return open_failed(s, path);
	while ((rc = pv_input_getline(in, &line, &len)) > 0) {
		while (len > 0 && (line[len - 1] == ' ' ||
				   line[len - 1] == '\t'))
			len--;
		if (fn(s, path, pv_input_lineno(in), line, len, state) < 0) {
			pv_input_close(in);
			return -1;
		}
	}
	if (rc < 0) {
		pv_err_set(&s->err, "%s:%lu: %s", path, pv_input_lineno(in),
			   pv_input_error(in));
		pv_input_close(in);
		return -1;
	}
	pv_input_close(in);
	return 0;
}

#define NO_ENTRY UINT32_MAX

static int
maintainers_line(struct pv_subsys *s, const char *path, unsigned long lineno,
		 char *line, size_t len, uint32_t *entry)
{
	struct pv_subsys_rule *r;
	const char *v;
	size_t vlen;
	int rc;

	if (len == 0)
		return 0;
	if (!(len >= 2 && line[0] >= 'A' && line[0] <= 'Z' &&
	      line[1] == ':')) {
		/* a title, or the text before the entries */
		if (line[0] != '\t' && line[0] != ' ')
			*entry = pv_symtab_intern(&s->names, line, len);
		return 0;
	}
	if (*entry == NO_ENTRY ||
	    (line[0] != 'F' && line[0] != 'X' && line[0] != 'N'))
		return 0;
	for (v = line + 2; v < line + len && (*v == ' ' || *v == '\t'); v++)
		;
	vlen = (size_t)(line + len - v);
	if (vlen == 0)
		return bad_line(s, path, lineno, "a pattern is missing");
	r = new_rule(s, line[0] == 'F' ? RULE_F : line[0] == 'X' ? RULE_X :
		     RULE_N, v, vlen, *entry);
	if (r->kind == RULE_N) {
		r->re = pv_xmalloc(sizeof(*r->re));
		rc = regcomp(r->re, r->pat, REG_EXTENDED | REG_NOSUB);
		if (rc != 0) {
			char msg[256];
			struct pv_strbuf sb = PV_STRBUF_INIT;

			regerror(rc, r->re, msg, sizeof(msg));
			free(r->re);
			r->re = NULL;
			pv_strbuf_addf(&sb, "N: pattern '%.40s': %s", r->pat,
				       msg);
			rc = bad_line(s, path, lineno, sb.buf);
			pv_strbuf_release(&sb);
			free(r->pat);
			s->nrule--;
			return rc;
		}
	}
	index_rule(s, s->nrule - 1);
	return 0;
}

int
pv_subsys_load_maintainers(struct pv_subsys *s, const char *path)
{
	uint32_t entry = NO_ENTRY;

	return each_line(s, path, maintainers_line, &entry);
}

static int
map_line(struct pv_subsys *s, const char *path, unsigned long lineno,
	 char *line, size_t len, uint32_t *unused)
{
	const char *tab;

	(void)unused;
	if (len == 0 || line[0] == '#')
		return 0;
	tab = memchr(line, '\t', len);
	if (tab == NULL || tab == line || tab + 1 == line + len)
		return bad_line(s, path, lineno,
				"expected 'PREFIX<TAB>NAME'");
	new_rule(s, RULE_MAP, line, (size_t)(tab - line),
		 pv_symtab_intern(&s->names, tab + 1,
				  (size_t)(line + len - tab - 1)));
	index_rule(s, s->nrule - 1);
	return 0;
}

int
pv_subsys_load_map(struct pv_subsys *s, const char *path)
{
	return each_line(s, path, map_line, NULL);
}
