/*
 * sha256: SHA-256 as specified in FIPS 180-4 (sections 4.1.2, 4.2.2, 5.1.1,
 * 5.3.3 and 6.2), processing one 512-bit block at a time.
 */
#include "config.h"

#include <string.h>

#include "sha256.h"
#include "strbuf.h"

/* 4.2.2: the first 32 bits of the fractional parts of the cube roots of
   the first 64 primes */
static const uint32_t k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5,
	0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc,
	0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
	0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3,
	0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5,
	0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#define ROTR(x, n)	(((x) >> (n)) | ((x) << (32 - (n))))
#define CH(x, y, z)	(((x) & (y)) ^ (~(x) & (z)))
#define MAJ(x, y, z)	(((x) & (y)) ^ ((x) & (z)) ^ ((y) & (z)))
#define BSIG0(x)	(ROTR(x, 2) ^ ROTR(x, 13) ^ ROTR(x, 22))
#define BSIG1(x)	(ROTR(x, 6) ^ ROTR(x, 11) ^ ROTR(x, 25))
#define SSIG0(x)	(ROTR(x, 7) ^ ROTR(x, 18) ^ ((x) >> 3))
#define SSIG1(x)	(ROTR(x, 17) ^ ROTR(x, 19) ^ ((x) >> 10))

void
pv_sha256_init(struct pv_sha256 *c)
{
	/* 5.3.3: the fractional parts of the square roots of the first
	   eight primes */
	static const uint32_t h0[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};

	memcpy(c->h, h0, sizeof(h0));
	c->nbytes = 0;
	c->fill = 0;
}

/* 6.2.2: the hash computation for one block */
static void
compress(uint32_t h[8], const unsigned char *p)
{
	uint32_t w[64], a, b, cc, d, e, f, g, hh, t1, t2;
	int t;

	for (t = 0; t < 16; t++, p += 4)
		w[t] = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
		    (uint32_t)p[2] << 8 | p[3];
	for (; t < 64; t++)
		w[t] = SSIG1(w[t - 2]) + w[t - 7] + SSIG0(w[t - 15]) +
		    w[t - 16];
	a = h[0]; b = h[1]; cc = h[2]; d = h[3];
	e = h[4]; f = h[5]; g = h[6]; hh = h[7];
	for (t = 0; t < 64; t++) {
		t1 = hh + BSIG1(e) + CH(e, f, g) + k[t] + w[t];
		t2 = BSIG0(a) + MAJ(a, b, cc);
		hh = g;
		g = f;
		f = e;
		e = d + t1;
		d = cc;
		cc = b;
		b = a;
		a = t1 + t2;
	}
	h[0] += a; h[1] += b; h[2] += cc; h[3] += d;
	h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
}

void
pv_sha256_update(struct pv_sha256 *c, const void *data, size_t len)
{
	const unsigned char *p = data;

	c->nbytes += len;
	if (c->fill > 0) {
		size_t n = 64 - c->fill < len ? 64 - c->fill : len;

		memcpy(c->block + c->fill, p, n);
		c->fill += n;
		p += n;
		len -= n;
		if (c->fill < 64)
			return;
		compress(c->h, c->block);
		c->fill = 0;
	}
	for (; len >= 64; p += 64, len -= 64)
		compress(c->h, p);
	memcpy(c->block, p, len);
	c->fill = len;
}

void
pv_sha256_final(struct pv_sha256 *c, unsigned char out[PV_SHA256_LEN])
{
	/* 5.1.1: a 1 bit, zeros, then the length in bits in 64 bits */
	uint64_t bits = c->nbytes * 8;
	int i;

	c->block[c->fill++] = 0x80;
	if (c->fill > 56) {
		memset(c->block + c->fill, 0, 64 - c->fill);
		compress(c->h, c->block);
		c->fill = 0;
	}
	memset(c->block + c->fill, 0, 56 - c->fill);
	for (i = 0; i < 8; i++)
		c->block[56 + i] = (unsigned char)(bits >> (56 - 8 * i));
	compress(c->h, c->block);
	for (i = 0; i < 8; i++) {
		out[4 * i] = (unsigned char)(c->h[i] >> 24);
		out[4 * i + 1] = (unsigned char)(c->h[i] >> 16);
		out[4 * i + 2] = (unsigned char)(c->h[i] >> 8);
		out[4 * i + 3] = (unsigned char)c->h[i];
	}
}

void
pv_sha256_hex(const unsigned char digest[PV_SHA256_LEN],
	      char hex[PV_SHA256_HEXLEN + 1])
{
	static const char digits[] = "0123456789abcdef";
	int i;

	for (i = 0; i < PV_SHA256_LEN; i++) {
		hex[2 * i] = digits[digest[i] >> 4];
		hex[2 * i + 1] = digits[digest[i] & 15];
	}
	hex[PV_SHA256_HEXLEN] = '\0';
}

void
pv_sha256_digest(const void *data, size_t len, unsigned char out[PV_SHA256_LEN])
{
	struct pv_sha256 c;

	pv_sha256_init(&c);
	pv_sha256_update(&c, data, len);
	pv_sha256_final(&c, out);
}

void
pv_sha256_base64(struct pv_strbuf *sb, const void *data, size_t len)
{
	static const char b64[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	unsigned char d[PV_SHA256_LEN];
	size_t i;

	pv_sha256_digest(data, len, d);
	/* 32 bytes: ten groups of three, then two bytes and one '=' */
	for (i = 0; i < PV_SHA256_LEN; i += 3) {
		uint32_t v = (uint32_t)d[i] << 16 | (uint32_t)d[i + 1] << 8 |
		    (i + 2 < PV_SHA256_LEN ? d[i + 2] : 0);

		pv_strbuf_addch(sb, b64[v >> 18 & 63]);
		pv_strbuf_addch(sb, b64[v >> 12 & 63]);
		pv_strbuf_addch(sb, b64[v >> 6 & 63]);
		pv_strbuf_addch(sb, i + 2 < PV_SHA256_LEN ? b64[v & 63] : '=');
	}
}
