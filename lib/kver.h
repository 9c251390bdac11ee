/*
 * kver: Linux kernel version names, their order, and the baseline rule
 * of kernel regression testing.
 *
 * A kernel version name is spelt in one of two ways.  As a release tag of
 * the kernel's git tree, or the name git-describe(1) gives a commit after
 * one:
 *
 *   vMAJOR.MINOR            a mainline release (v6.12)
 *   vMAJOR.MINOR.PATCH      a stable point release, PATCH >= 1 (v6.12.5)
 *   ...-rcN                 a release candidate (v6.12-rc3, v6.12.5-rc1)
 *   ...-COUNT-gHEX          COUNT >= 1 commits after the tag named before
 *                           (v6.12-45-g1a2b3c4, v6.12-rc3-7-gdeadbee)
 *
 * Or as a kernel release, as uname -r prints it ("make kernelrelease"):
 *
 *   MAJOR.MINOR.SUBLEVEL    three numbers; SUBLEVEL 0 is the mainline
 *                           release (6.12.0 is v6.12), others the point
 *                           release (6.12.5 is v6.12.5)
 *   ...-rcN                 a release candidate (6.10.0-rc3)
 *   ...+                    commits after the tag, how many unknown
 *                           (6.10.0-rc3+: CONFIG_LOCALVERSION_AUTO off)
 *   ...-COUNT-gHEX          COUNT >= 1 commits after the tag, COUNT as
 *                           setlocalversion pads it (6.10.0-rc3-00045-g1a2b)
 *   ...LOCAL                any other suffix that starts with '-', '+',
 *                           '.', '_' or '~' and has more after it: a
 *                           distribution's or builder's local version
 *                           (6.1.0-27-amd64, 6.8.0-45-generic,
 *                           5.14.0-427.13.1.el9_4.x86_64, 6.18.44-fc-v782,
 *                           6.12.38+deb13-amd64)
 *
 * Numbers are decimal without leading zeros (v6.012 is not a kernel
 * version, nor is v6.12.0, nor 6.12); only the COUNT of a release may be
 * padded.  Names from v3.0 on are meant: the three-number mainline
 * releases of the 2.6 era are read as point releases.  A three-number
 * name of other software (1.2.3) is read as a kernel release too.
 *
 * The version without its LOCAL suffix is its base.  The suffix is split
 * into its flavour, the suffix with each run of digits standing for any
 * number ("-27-amd64" and "-26-amd64" are builds of one flavour, "-amd64"
 * and "-cloud-amd64" are not), and its build numbers, those runs of
 * digits in order (27; 427, 13, 1, 9, 4, 86, 64).  A distribution numbers
 * its builds of one base and flavour upwards (Debian's ABI number,
 * Ubuntu's, Red Hat's release and z-stream), and one flavour is one
 * configuration: so builds are compared within their flavour only, by
 * their build numbers.  A name without a suffix has the empty flavour.
 *
 * Order: by MAJOR, MINOR, PATCH; then release candidates before the
 * release; then by rc number; then the tag before commits after it, by
 * COUNT (an unknown count after every known one); then the empty flavour
 * first, other flavours byte-wise; then by build numbers.  So v6.12-rc1 <
 * v6.12-rc1-5-gX < v6.12-rc2 < v6.12 = 6.12.0 < 6.12.0-1-amd64 <
 * 6.12.0-2-amd64 < v6.12-3-gX < 6.12.0+ < v6.12.1-rc1 < v6.12.1 <
 * v6.13-rc1.
 *
 * The baseline rule: a version's baseline is, among the candidates (the
 * versions in the store) of its own flavour,
 *
 *  1. the latest earlier build of its own base: 6.1.0-27-amd64 gets
 *     6.1.0-26-amd64 (or 6.1.0-24-amd64 where 25 and 26 are not stored),
 *     5.14.0-503.11.1.el9_5.x86_64 gets 5.14.0-427.42.1.el9_4.x86_64;
 *
 *  2. else the latest build of the base that is its base's nearest
 *     *ancestor release* below; for the empty flavour, the nearest
 *     ancestor release itself.
 *
 * Release candidates and commits after a tag are never ancestor releases.
 * The ancestor releases of vX.Y-rcN and of vX.Y are the mainline releases
 * before X.Y (so v6.12-rc3 and v6.12 both get v6.11, or v6.10 where no
 * v6.11 is stored).  A commit after vX.Y (vX.Y-N-g..., the next merge
 * window) has vX.Y too.  A stable point release vX.Y.Z (and vX.Y.Z-rcN)
 * has the earlier point releases of its series, then vX.Y, then the
 * mainline before: so v6.12.5 gets v6.12.4 if stored, else the nearest
 * earlier of v6.12.3 .. v6.12.1, v6.12, v6.11, ...; and vX.Y.Z-N-g... has
 * vX.Y.Z as well.  Point releases are never baselines of mainline
 * versions (v6.13-rc1 gets v6.12, never v6.12.5), since mainline does not
 * descend from them.  So 6.8.0-45-generic gets 6.8.0-44-generic, and the
 * first stored 6.8.0 build of that flavour gets the latest stored
 * 6.5.0-N-generic; 6.12.41+deb13-amd64 gets 6.12.38+deb13-amd64.
 *
 * A build is never the baseline of another flavour, nor of a plain
 * version (a distribution's kernel differs from mainline by its patches
 * and configuration: compare them with --baseline where that is meant).
 * Two spellings of one version (v6.12 and 6.12.0) are equal: neither is
 * the other's baseline, and where both are candidates the one whose name
 * sorts last byte-wise is chosen, so the answer does not depend on the
 * candidates' order.
 */
#ifndef PV_KVER_H
#define PV_KVER_H

#include <stddef.h>

/* commits after the tag, how many unknown ("6.10.0-rc3+") */
#define PV_KVER_POST_UNKNOWN (~0UL)

struct pv_kver {
	unsigned long major, minor, patch;	/* patch 0: none */
	unsigned long rc;			/* 0: not a release candidate */
	unsigned long post;			/* commits after the tag, or 0 */
	const char *local;	/* the LOCAL suffix in the parsed string
				   (not copied), "" when none */
};

/*
 * Parse a kernel version name: 0 and *v filled (v->local points into s),
 * or -1 if s is not one.
 */
int pv_kver_parse(const char *s, struct pv_kver *v);

/* Whether v is a release (no -rc, no commits after the tag). */
int pv_kver_is_release(const struct pv_kver *v);

/* The order described above: <0, 0, >0. */
int pv_kver_cmp(const struct pv_kver *a, const struct pv_kver *b);

/* Whether a and b are of one flavour (both without a suffix, say). */
int pv_kver_same_flavour(const struct pv_kver *a, const struct pv_kver *b);

/*
 * Whether the base of r is an ancestor release of the base of t, by the
 * rule above (suffixes are not looked at).
 */
int pv_kver_is_ancestor(const struct pv_kver *r, const struct pv_kver *t);

/*
 * The baseline of the kernel version target among the names cand[0..n):
 * the index of the name the rule above chooses (names that are not kernel
 * versions are skipped), or -1 when there is none or target is not a
 * kernel version.  The answer does not depend on the candidates' order.
 */
long pv_kver_baseline(const char *target, const char *const *cand, size_t n);

#endif
