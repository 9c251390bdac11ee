/*
 * kver: kernel version names, their order and the baseline rule (see
 * kver.h for the rule and the reasons behind it).
 */
#include "config.h"

#include <string.h>

#include "kver.h"

static int
is_digit(int c)
{
	return c >= '0' && c <= '9';
}

/*
 * A decimal number, without leading zeros unless padded; *p advanced past
 * it.
 */
static int
number_pad(const char **p, unsigned long *out, int padded)
{
	const char *s = *p;
	unsigned long v = 0;

	if (!is_digit(*s) || (!padded && s[0] == '0' && is_digit(s[1])))
		return -1;
	for (; is_digit(*s); s++) {
		if (v > (~0UL - 9) / 10)
			return -1;
		v = v * 10 + (unsigned long)(*s - '0');
	}
	*p = s;
	*out = v;
	return 0;
}

static int
number(const char **p, unsigned long *out)
{
	return number_pad(p, out, 0);
}

/* "-COUNT-gHEX" to the end, COUNT >= 1: 0 and *post, or -1. */
static int
describe(const char *p, unsigned long *post, int padded)
{
	if (*p++ != '-' || number_pad(&p, post, padded) < 0 || *post == 0 ||
	    *post == PV_KVER_POST_UNKNOWN || strncmp(p, "-g", 2) != 0)
		return -1;
	p += 2;
	if (*p == '\0')
		return -1;
	for (; *p != '\0'; p++)
		if (!(is_digit(*p) || (*p >= 'a' && *p <= 'f')))
			return -1;
	return 0;
}

/* "-rcN", N >= 1, at *p: 0 and *p advanced, or -1 (*p unchanged). */
static int
release_candidate(const char **p, unsigned long *rc)
{
	const char *s = *p;

	if (strncmp(s, "-rc", 3) != 0)
		return -1;
	s += 3;
	if (number(&s, rc) < 0 || *rc == 0)
		return -1;
	*p = s;
	return 0;
}

/* vMAJOR.MINOR[.PATCH][-rcN][-COUNT-gHEX] */
static int
parse_tag(const char *p, struct pv_kver *v)
{
	if (*p++ != 'v' || number(&p, &v->major) < 0 || *p++ != '.' ||
	    number(&p, &v->minor) < 0)
		return -1;
	if (*p == '.') {
		p++;
		if (number(&p, &v->patch) < 0 || v->patch == 0)
			return -1;
	}
	if (strncmp(p, "-rc", 3) == 0 && release_candidate(&p, &v->rc) < 0)
		return -1;
	if (*p == '\0')
		return 0;
	return describe(p, &v->post, 0);
}

/* MAJOR.MINOR.SUBLEVEL[-rcN][+|-COUNT-gHEX|LOCAL] */
static int
parse_release(const char *p, struct pv_kver *v)
{
	if (number(&p, &v->major) < 0 || *p++ != '.' ||
	    number(&p, &v->minor) < 0 || *p++ != '.' ||
	    number(&p, &v->patch) < 0)
		return -1;
	if (strncmp(p, "-rc", 3) == 0 && is_digit(p[3]) &&
	    release_candidate(&p, &v->rc) < 0)
		return -1;	/* -rc0, -rc01 */
	if (*p == '\0')
		return 0;
	if (strcmp(p, "+") == 0) {
		v->post = PV_KVER_POST_UNKNOWN;
		return 0;
	}
	if (describe(p, &v->post, 1) == 0)
		return 0;
	v->post = 0;
	if (strchr("-+._~", *p) == NULL || p[1] == '\0')
		return -1;
	v->local = p;
	for (; *p != '\0'; p++)
		if ((unsigned char)*p <= ' ' || *p == 0x7f)
			return -1;
	return 0;
}

int
pv_kver_parse(const char *s, struct pv_kver *v)
{
	memset(v, 0, sizeof(*v));
	v->local = "";
	if ((s[0] == 'v' ? parse_tag(s, v) : parse_release(s, v)) == 0)
		return 0;
	memset(v, 0, sizeof(*v));
	v->local = "";
	return -1;
}

int
pv_kver_is_release(const struct pv_kver *v)
{
	return v->rc == 0 && v->post == 0;
}

static int
ucmp(unsigned long a, unsigned long b)
{
	return a < b ? -1 : a > b;
}

/* The order of the bases: numbers, rc, commits after the tag. */
static int
base_cmp(const struct pv_kver *a, const struct pv_kver *b)
{
	int c;

	if ((c = ucmp(a->major, b->major)) != 0 ||
	    (c = ucmp(a->minor, b->minor)) != 0 ||
	    (c = ucmp(a->patch, b->patch)) != 0)
		return c;
	/* release candidates (rc > 0) before the release (rc == 0) */
	if ((a->rc == 0) != (b->rc == 0))
		return a->rc == 0 ? 1 : -1;
	if ((c = ucmp(a->rc, b->rc)) != 0)
		return c;
	return ucmp(a->post, b->post);
}

/* The flavours of two suffixes, each run of digits as one '#'. */
static int
flavour_cmp(const char *a, const char *b)
{
	for (;;) {
		int ca = (unsigned char)*a, cb = (unsigned char)*b;

		if (is_digit(ca)) {
			while (is_digit(*a))
				a++;
			ca = '#';
		} else if (ca != '\0') {
			a++;
		}
		if (is_digit(cb)) {
			while (is_digit(*b))
				b++;
			cb = '#';
		} else if (cb != '\0') {
			b++;
		}
		if (ca != cb)
			return ca < cb ? -1 : 1;
		if (ca == '\0')
			return 0;
	}
}

/*
 * The build numbers of two suffixes of one flavour, in order; numbers of
 * any length, compared without converting them.
 */
static int
build_cmp(const char *a, const char *b)
{
	for (;;) {
		const char *ea, *eb;
		size_t la, lb;
		int c;

		while (*a != '\0' && !is_digit(*a))
			a++;
		while (*b != '\0' && !is_digit(*b))
			b++;
		if (*a == '\0' || *b == '\0')
			return (*a != '\0') - (*b != '\0');
		while (a[0] == '0' && is_digit(a[1]))
			a++;
		while (b[0] == '0' && is_digit(b[1]))
			b++;
		for (ea = a; is_digit(*ea); ea++)
			;
		for (eb = b; is_digit(*eb); eb++)
			;
		la = (size_t)(ea - a);
		lb = (size_t)(eb - b);
		if (la != lb)
			return la < lb ? -1 : 1;
		if ((c = memcmp(a, b, la)) != 0)
			return c < 0 ? -1 : 1;
		a = ea;
		b = eb;
	}
}

int
pv_kver_cmp(const struct pv_kver *a, const struct pv_kver *b)
{
	int c;

	if ((c = base_cmp(a, b)) != 0)
		return c;
	/* the empty flavour first, then byte-wise */
	if ((*a->local == '\0') != (*b->local == '\0'))
		return *a->local == '\0' ? -1 : 1;
	if ((c = flavour_cmp(a->local, b->local)) != 0)
		return c;
	return build_cmp(a->local, b->local);
}

int
pv_kver_same_flavour(const struct pv_kver *a, const struct pv_kver *b)
{
	return flavour_cmp(a->local, b->local) == 0;
}

int
pv_kver_is_ancestor(const struct pv_kver *r, const struct pv_kver *t)
{
	int c;

	if (!pv_kver_is_release(r))
		return 0;
	c = ucmp(r->major, t->major);
	if (c == 0)
		c = ucmp(r->minor, t->minor);
	if (c > 0)
		return 0;
	if (c < 0)
		return r->patch == 0;	/* mainline before t's series */
	/* the same series X.Y */
	if (r->patch == 0)
		return t->patch > 0 || (t->rc == 0 && t->post > 0);
	return r->patch < t->patch ||
	    (r->patch == t->patch && t->rc == 0 && t->post > 0);
}

long
pv_kver_baseline(const char *target, const char *const *cand, size_t n)
{
	struct pv_kver t, c, best;
	long found = -1;
	int tier, best_tier = 0, k;
	size_t i;

	if (pv_kver_parse(target, &t) < 0)
		return -1;
	for (i = 0; i < n; i++) {
		if (pv_kver_parse(cand[i], &c) < 0 ||
		    !pv_kver_same_flavour(&c, &t))
			continue;
		/* 1: an earlier build of the same base; 2: an ancestor's */
		if (base_cmp(&c, &t) == 0)
			tier = build_cmp(c.local, t.local) < 0 ? 1 : 0;
		else
			tier = pv_kver_is_ancestor(&c, &t) ? 2 : 0;
		if (tier == 0)
			continue;
		if (found >= 0) {
			if (tier != best_tier) {
				if (tier > best_tier)
					continue;
			} else {
				k = pv_kver_cmp(&c, &best);
				if (k < 0 || (k == 0 &&
				    strcmp(cand[i], cand[found]) < 0))
					continue;
			}
		}
		best = c;
		best_tier = tier;
		found = (long)i;
	}
	return found;
}
