/*
 * version: kernel version names, their order and the baseline rule (see
 * version.h for the rule and the reasons behind it).
 */
#include "config.h"

#include <string.h>

#include "version.h"

/* A decimal number without leading zeros; *p advanced past it. */
static int
number(const char **p, unsigned long *out)
{
	const char *s = *p;
	unsigned long v = 0;

	if (*s < '0' || *s > '9' || (s[0] == '0' && s[1] >= '0' &&
				     s[1] <= '9'))
		return -1;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (v > (~0UL - 9) / 10)
			return -1;
		v = v * 10 + (unsigned long)(*s - '0');
	}
	*p = s;
	*out = v;
	return 0;
}

int
pv_kver_parse(const char *s, struct pv_kver *v)
{
	const char *p = s;

	memset(v, 0, sizeof(*v));
	if (*p++ != 'v' || number(&p, &v->major) < 0 || *p++ != '.' ||
	    number(&p, &v->minor) < 0)
		return -1;
	if (*p == '.') {
		p++;
		if (number(&p, &v->patch) < 0 || v->patch == 0)
			return -1;
	}
	if (strncmp(p, "-rc", 3) == 0) {
		p += 3;
		if (number(&p, &v->rc) < 0 || v->rc == 0)
			return -1;
	}
	if (*p == '-') {
		p++;
		if (number(&p, &v->post) < 0 || v->post == 0 ||
		    strncmp(p, "-g", 2) != 0)
			return -1;
		p += 2;
		if (*p == '\0')
			return -1;
		for (; *p != '\0'; p++)
			if (!((*p >= '0' && *p <= '9') ||
			      (*p >= 'a' && *p <= 'f')))
				return -1;
	}
	return *p == '\0' ? 0 : -1;
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

int
pv_kver_cmp(const struct pv_kver *a, const struct pv_kver *b)
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
	size_t i;

	if (pv_kver_parse(target, &t) < 0)
		return -1;
	for (i = 0; i < n; i++) {
		if (pv_kver_parse(cand[i], &c) < 0 ||
		    !pv_kver_is_ancestor(&c, &t))
			continue;
		if (found < 0 || pv_kver_cmp(&c, &best) > 0) {
			best = c;
			found = (long)i;
		}
	}
	return found;
}
