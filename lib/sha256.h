/*
 * sha256: the SHA-256 hash of FIPS 180-4, for content addressing in the
 * version store (lib/store.h), where a stream's name is the hash of its
 * bytes, and for the Content-Security-Policy hashes of the HTML report's
 * inline script and style (pv_sha256_base64()).  Written from the standard; checked against its test vectors
 * (tests/unit/check_sha256.c).
 *
 * Usage: pv_sha256_init(), any number of pv_sha256_update() calls with the
 * data in pieces of any size, then pv_sha256_final() for the 32-byte
 * digest.  The context holds no allocated memory.  pv_sha256_hex() writes
 * a digest as 64 lowercase hex digits and a NUL.
 */
#ifndef PV_SHA256_H
#define PV_SHA256_H

#include <stddef.h>
#include <stdint.h>

#include "strbuf.h"

#define PV_SHA256_LEN 32
#define PV_SHA256_HEXLEN 64

struct pv_sha256 {
	uint32_t h[8];		/* the intermediate hash value */
	uint64_t nbytes;	/* message length so far */
	unsigned char block[64];	/* a partial block */
	size_t fill;		/* bytes in block */
};

void pv_sha256_init(struct pv_sha256 *c);
void pv_sha256_update(struct pv_sha256 *c, const void *data, size_t len);
/* Pad, finish and write the digest; c must be initialised again for reuse. */
void pv_sha256_final(struct pv_sha256 *c, unsigned char out[PV_SHA256_LEN]);

void pv_sha256_hex(const unsigned char digest[PV_SHA256_LEN],
		   char hex[PV_SHA256_HEXLEN + 1]);

/* The digest of data in one piece. */
void pv_sha256_digest(const void *data, size_t len,
		      unsigned char out[PV_SHA256_LEN]);
/*
 * Append the base64 (RFC 4648, padded) of the digest of data to sb: the
 * form of a Content-Security-Policy hash.
 */
void pv_sha256_base64(struct pv_strbuf *sb, const void *data, size_t len);

#endif
