/*
 * subsys: source files rolled up into subsystems, for pv-diff(1)'s
 * subsystem groups.  A map is read from either of two files:
 *
 *   - the Linux kernel's MAINTAINERS file (pv_subsys_load_maintainers()):
 *     an entry is a title line (the subsystem's name) and its field
 *     lines "X:<TAB>VALUE".  Its F: patterns say which files it holds, its
 *     X: patterns which it does not, as scripts/get_maintainer.pl reads
 *     them: a pattern ending in '/' holds every file below that directory;
 *     any other holds the files it matches that are as deep as it (the
 *     same number of '/'), or below it when it names a directory; '*'
 *     matches any run of bytes, '?' any one byte.  N: patterns are
 *     extended regular expressions (regex(7)) searched anywhere in the
 *     path.  Other fields (M:, L:, K: ...) and the text before the first
 *     entry are not read.  Where several entries hold a file, the most
 *     specific pattern wins: the one with the most path components (the
 *     number of '/', plus one unless it ends in '/'; a pattern that starts
 *     with '*', and an N: pattern, count none), then the one with the most
 *     bytes other than wildcards, then the first in the file;
 *   - a plain map (pv_subsys_load_map()): lines "PREFIX<TAB>NAME", blank
 *     lines and lines starting with '#' skipped; the longest PREFIX that
 *     begins a path wins, ties going to the first line.
 *
 * Both may be loaded into one map; a plain map's prefix is then taken
 * before any MAINTAINERS pattern.  Paths are looked up as given, relative
 * to the root of the source tree (pv-parse(1) makes them so).
 *
 * Errors (a file that cannot be read, a malformed line, a regular
 * expression regcomp() refuses) are -1 with a message in err, naming the
 * file and line ("FILE:LINE: ..."); nothing is printed.  Lifecycle:
 * pv_subsys_init(), loads, lookups, pv_subsys_release().
 */
#ifndef PV_SUBSYS_H
#define PV_SUBSYS_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "hmap.h"
#include "symtab.h"

struct pv_subsys_rule;

struct pv_subsys {
	struct pv_symtab names;		/* subsystem names */
	struct pv_subsys_rule *rule;	/* in the order read */
	size_t nrule, rule_alloc;
	struct pv_symtab dirs;		/* the directories rules start in */
	uint32_t **bydir;		/* dirs id -> rule indices */
	size_t *nbydir, bydir_alloc;
	struct pv_err err;
};

void pv_subsys_init(struct pv_subsys *s);
void pv_subsys_release(struct pv_subsys *s);

int pv_subsys_load_maintainers(struct pv_subsys *s, const char *path);
int pv_subsys_load_map(struct pv_subsys *s, const char *path);

/* Whether anything was loaded. */
int pv_subsys_empty(const struct pv_subsys *s);

/*
 * The subsystem of the file path[0..len), or NULL when no rule holds it.
 * The name stays valid until pv_subsys_release().
 */
const char *pv_subsys_lookup(const struct pv_subsys *s, const char *path,
			     size_t len);

#endif
