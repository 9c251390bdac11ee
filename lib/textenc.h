/*
 * textenc: names from the input (bytes, not necessarily UTF-8, pv-format(5))
 * made text that other formats accept: checked as UTF-8, and escaped for
 * XML 1.0 and for JSON (RFC 8259), as the JUnit and JSON renderers write
 * them.  A byte that starts no valid UTF-8 character becomes U+FFFD, the
 * replacement character, as its three UTF-8 bytes, and so does (in XML) a
 * control character other than TAB, LF and CR: XML 1.0 cannot hold those,
 * not even as a character reference, and a parser such as expat refuses a
 * document that has one.
 *
 * Writers append to a strbuf and never fail (but for out of memory, in
 * the allocator).
 */
#ifndef PV_TEXTENC_H
#define PV_TEXTENC_H

#include <stddef.h>

#include "strbuf.h"

/*
 * The length (1 to 4) of the valid UTF-8 character at s[0..len), or 0: an
 * invalid lead or continuation byte, an overlong form, a surrogate, a code
 * point past U+10FFFF, the noncharacters U+FFFE and U+FFFF, a character
 * cut by the end.  len must be at least 1.
 */
size_t pv_textenc_utf8_len(const unsigned char *s, size_t len);

/*
 * s as XML character data or an attribute value: & < > " ' as entities,
 * invalid UTF-8 and control characters but TAB, LF and CR as U+FFFD.
 */
void pv_textenc_xml(struct pv_strbuf *sb, const char *s, size_t len);

/*
 * s as the inside of a JSON string (without the quotes): " and \ escaped,
 * control characters (and DEL) as \u00XX, invalid UTF-8 as U+FFFD.
 */
void pv_textenc_json(struct pv_strbuf *sb, const char *s, size_t len);

#endif
