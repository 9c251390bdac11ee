/*
 * textenc: UTF-8 checked, and text escaped for XML and JSON (textenc.h).
 */
#include "config.h"

#include <stdint.h>

#include "textenc.h"

static const char replacement[] = "\xef\xbf\xbd";	/* U+FFFD */

size_t
pv_textenc_utf8_len(const unsigned char *s, size_t len)
{
	uint32_t c;
	size_t n, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, c = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, c = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, c = s[0] & 0x07;
	else
		return 0;
	if (len < n)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && c < 0x800) || (n == 4 && c < 0x10000) ||
	    c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff) ||
	    c == 0xfffe || c == 0xffff)
		return 0;
	return n;
}

void
pv_textenc_xml(struct pv_strbuf *sb, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, n;

	while (i < len) {
		n = pv_textenc_utf8_len(p + i, len - i);
		if (n == 0 || (p[i] < 0x20 && p[i] != '\t' && p[i] != '\n' &&
			       p[i] != '\r')) {
			pv_strbuf_add(sb, replacement, 3);
			i++;
			continue;
		}
		switch (p[i]) {
		case '&': pv_strbuf_addstr(sb, "&amp;"); break;
		case '<': pv_strbuf_addstr(sb, "&lt;"); break;
		case '>': pv_strbuf_addstr(sb, "&gt;"); break;
		case '"': pv_strbuf_addstr(sb, "&quot;"); break;
		case '\'': pv_strbuf_addstr(sb, "&apos;"); break;
		default: pv_strbuf_add(sb, s + i, n); break;
		}
		i += n;
	}
}

void
pv_textenc_json(struct pv_strbuf *sb, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, n;

	while (i < len) {
		n = pv_textenc_utf8_len(p + i, len - i);
		if (n == 0) {
			pv_strbuf_add(sb, replacement, 3);
			i++;
			continue;
		}
		if (p[i] == '"' || p[i] == '\\') {
			pv_strbuf_addch(sb, '\\');
			pv_strbuf_addch(sb, p[i]);
		} else if (p[i] < 0x20 || p[i] == 0x7f) {
			pv_strbuf_addf(sb, "\\u%04x", p[i]);
		} else {
			pv_strbuf_add(sb, s + i, n);
		}
		i += n;
	}
}
