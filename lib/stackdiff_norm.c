/*
 * stackdiff_norm: the normalisation of frame names that pv-diff compares
 * by (see stackdiff.h): compiler suffixes removed, hexadecimal addresses
 * masked.
 */
#include "config.h"

#include <string.h>

#include "stackdiff.h"

static int
is_hex(int c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	       (c >= 'A' && c <= 'F');
}

/* The compiler suffixes, each followed by ".N" unless bare is set. */
static const struct {
	const char *s;
	size_t len;
	int bare;	/* may stand without a number */
	int number;	/* may be followed by ".N" */
} suffix[] = {
	{ ".isra", 5, 0, 1 },
	{ ".constprop", 10, 0, 1 },
	{ ".part", 5, 0, 1 },
	{ ".cold", 5, 1, 1 },
	{ ".llvm", 5, 0, 1 },
	{ ".lto_priv", 9, 0, 1 },
};

/* The length of s[0..len) without one compiler suffix at its end. */
static size_t
strip_one(const char *s, size_t len)
{
	size_t i, end = len, k;

	/* ".N" at the end? */
	while (end > 0 && s[end - 1] >= '0' && s[end - 1] <= '9')
		end--;
	if (end < len && end > 0 && s[end - 1] == '.') {
		end--;
		for (k = 0; k < sizeof(suffix) / sizeof(suffix[0]); k++) {
			if (end > suffix[k].len &&
			    memcmp(s + end - suffix[k].len, suffix[k].s,
				   suffix[k].len) == 0)
				return end - suffix[k].len;
		}
	}
	for (k = 0; k < sizeof(suffix) / sizeof(suffix[0]); k++) {
		i = suffix[k].len;
		if (suffix[k].bare && len > i &&
		    memcmp(s + len - i, suffix[k].s, i) == 0)
			return len - i;
	}
	return len;
}

void
pv_stackdiff_normalize(struct pv_strbuf *out, const char *s, size_t len,
		       const struct pv_stackdiff_opts *opt)
{
	size_t start = out->len, i, n, note = 0;

	if (opt->strip_hex) {
		for (i = 0; i < len; i++) {
			if (s[i] == '0' && i + 2 < len && s[i + 1] == 'x' &&
			    is_hex((unsigned char)s[i + 2])) {
				pv_strbuf_add(out, "0x...", 5);
				for (i += 2; i < len &&
				     is_hex((unsigned char)s[i]); i++)
					;
				i--;
			} else {
				pv_strbuf_addch(out, s[i]);
			}
		}
	} else {
		pv_strbuf_add(out, s, len);
	}
	if (opt->keep_suffixes)
		return;
	s = out->buf + start;
	len = out->len - start;
	/* keep an annotation such as "_[k]" aside */
	if (len >= 4 && s[len - 4] == '_' && s[len - 3] == '[' &&
	    s[len - 1] == ']' && strchr("kjiw", s[len - 2]) != NULL &&
	    s[len - 2] != '\0')
		note = 4;
	n = len - note;
	for (;;) {
		size_t m = strip_one(s, n);

		if (m == n || m == 0)
			break;
		n = m;
	}
	if (n == len - note)
		return;
	memmove(out->buf + start + n, s + len - note, note);
	pv_strbuf_setlen(out, start + n + note);
}
