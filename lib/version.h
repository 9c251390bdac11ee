/*
 * version: Linux kernel version names, their order, and the baseline rule
 * of kernel regression testing.
 *
 * A kernel version name is a release tag as in the kernel's git tree, or
 * the name git-describe(1) gives a commit after one:
 *
 *   vMAJOR.MINOR            a mainline release (v6.12)
 *   vMAJOR.MINOR.PATCH      a stable point release, PATCH >= 1 (v6.12.5)
 *   ...-rcN                 a release candidate (v6.12-rc3, v6.12.5-rc1)
 *   ...-COUNT-gHEX          COUNT >= 1 commits after the tag named before
 *                           (v6.12-45-g1a2b3c4, v6.12-rc3-7-gdeadbee)
 *
 * Numbers are decimal without leading zeros (v6.012 is not a kernel
 * version, nor is v6.12.0).  Names from v3.0 on are meant: the
 * three-number mainline releases of the 2.6 era are read as point releases.
 *
 * Order: by MAJOR, MINOR, PATCH; then release candidates before the
 * release; then by rc number; then the tag before commits after it, by
 * COUNT.  So v6.12-rc1 < v6.12-rc1-5-gX < v6.12-rc2 < v6.12 < v6.12-3-gX
 * < v6.12.1-rc1 < v6.12.1 < v6.13-rc1.
 *
 * The baseline rule: a version's baseline is its nearest *ancestor
 * release* among the candidates (the versions in the store).  Release
 * candidates and commits after a tag are never baselines.  The ancestor
 * releases of vX.Y-rcN and of vX.Y are the mainline releases before X.Y
 * (so v6.12-rc3 and v6.12 both get v6.11, or v6.10 where no v6.11 is
 * stored).  A commit after vX.Y (vX.Y-N-g..., the next merge window) has
 * vX.Y too.  A stable point release vX.Y.Z (and vX.Y.Z-rcN) has the earlier
 * point releases of its series, then vX.Y, then the mainline before: so
 * v6.12.5 gets v6.12.4 if stored, else the nearest earlier of v6.12.3 ..
 * v6.12.1, v6.12, v6.11, ...; and vX.Y.Z-N-g... has vX.Y.Z as well.
 * Point releases are never baselines of mainline versions (v6.13-rc1 gets
 * v6.12, never v6.12.5), since mainline does not descend from them.
 */
#ifndef PV_VERSION_H
#define PV_VERSION_H

#include <stddef.h>

struct pv_kver {
	unsigned long major, minor, patch;	/* patch 0: none */
	unsigned long rc;			/* 0: not a release candidate */
	unsigned long post;			/* commits after the tag, or 0 */
};

/* Parse a kernel version name: 0 and *v filled, or -1 if s is not one. */
int pv_kver_parse(const char *s, struct pv_kver *v);

/* Whether v is a release (no -rc, no commits after the tag). */
int pv_kver_is_release(const struct pv_kver *v);

/* The order described above: <0, 0, >0. */
int pv_kver_cmp(const struct pv_kver *a, const struct pv_kver *b);

/* Whether release r is an ancestor release of t, by the rule above. */
int pv_kver_is_ancestor(const struct pv_kver *r, const struct pv_kver *t);

/*
 * The baseline of the kernel version target among the names cand[0..n):
 * the index of the nearest ancestor release (names that are not kernel
 * versions are skipped), or -1 when there is none or target is not a
 * kernel version.  Equal versions cannot occur (the names would be equal),
 * so the answer does not depend on the candidates' order.
 */
long pv_kver_baseline(const char *target, const char *const *cand, size_t n);

#endif
