/*
 * sha256: the SHA-256 digest (FIPS 180-4) and its base64 form, for the
 * Content-Security-Policy hashes of the HTML report's inline script and
 * style.  Pure computation: no allocation, no errors.
 */
#ifndef PV_SHA256_H
#define PV_SHA256_H

#include <stddef.h>
#include <stdint.h>

#include "strbuf.h"

#define PV_SHA256_LEN 32

void pv_sha256_digest(const void *data, size_t len,
		      unsigned char out[PV_SHA256_LEN]);
/* Append the base64 (RFC 4648, padded) of the digest of data to sb. */
void pv_sha256_base64(struct pv_strbuf *sb, const void *data, size_t len);

#endif
