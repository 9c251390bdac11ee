/*
 * input: buffered line reading with transparent gzip (see input.h).
 *
 * The buffer holds raw (decompressed) bytes in [pos, end); lines are found
 * with memchr and handed out in place.  When no newline is left, the tail is
 * moved to the front and the buffer refilled, doubling it only when one
 * line fills it.  NUL bytes are looked for once per refill, so that the
 * common case costs one memchr over the block.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <zlib.h>

#include "error.h"
#include "input.h"
#include "xalloc.h"

#define BLOCK (1u << 20)
#define ZBLOCK (256u << 10)
#define FIRST (64u << 10)	/* the first read: enough to tell the kind */
#define NONUL ((size_t)-1)
#define MAX_LINE ((size_t)64 << 20)	/* unless PV_MAX_LINE says */

struct pv_input {
	char *name;
	int fd;
	int is_stdin;
	int eof;		/* no more raw bytes will come */
	int failed;
	int bytes;		/* read by pv_input_read() */
	int pending;		/* an error, due after the bytes before it */
	int discarded;		/* the buffer no longer starts at the start */
	unsigned long lineno;
	int nocount;		/* pv_input_read() counts no lines */
	size_t max_line;	/* the longest line taken (0: PV_MAX_LINE bad) */
	/*
	 * While a rewind is possible: a bit a line read, set where the byte
	 * pv_input_getline() overwrote was the CR of a CRLF, not the LF
	 */
	unsigned char *crlf;
	size_t crlf_alloc;
	size_t run;		/* bytes: of the line being returned, so far */

	char *buf;		/* decompressed bytes */
	size_t cap, pos, end;
	size_t nul_at;		/* offset of the first NUL in the buffer,
				   or NONUL */

	int gz;			/* 0 plain, 1 gzip */
	int ranged;		/* read [off, off + left) with pread */
	uint64_t off, left;
	int gz_member_done;	/* the last inflate() ended a member */
	z_stream zs;
	unsigned char *zbuf;
	int zeof;

	struct pv_err err;	/* errnum: of a failed read(2), else 0 */
};

/*
 * The line limit: PV_MAX_LINE, a number of bytes with an optional K, M or
 * G (powers of 1024), else MAX_LINE; 0 when PV_MAX_LINE is not that.
 */
static size_t
max_line(void)
{
	const char *s = getenv("PV_MAX_LINE");
	unsigned long long v = 0, mult = 1;

	if (s == NULL || *s == '\0')
		return MAX_LINE;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (v > (ULLONG_MAX - 9) / 10)
			return 0;
		v = v * 10 + (unsigned long long)(*s - '0');
	}
	switch (*s) {
	case 'K': case 'k': mult = 1ULL << 10; s++; break;
	case 'M': case 'm': mult = 1ULL << 20; s++; break;
	case 'G': case 'g': mult = 1ULL << 30; s++; break;
	}
	if (*s != '\0' || v == 0 || v > SIZE_MAX / 4 / mult)
		return 0;
	return (size_t)(v * mult);
}

struct pv_input *
pv_input_open_fd(int fd, const char *name)
{
	struct pv_input *in = pv_xcalloc(1, sizeof(*in));

	in->fd = fd;
	in->is_stdin = fd == 0;
	in->name = pv_xstrdup(name);
	in->cap = BLOCK;
	in->buf = pv_xmalloc(in->cap + 1);
	in->gz = -1;		/* not known until the first bytes */
	in->nul_at = NONUL;
	in->max_line = max_line();
	return in;
}

struct pv_input *
pv_input_open(const char *path)
{
	int fd;

	if (path == NULL || strcmp(path, "-") == 0)
		return pv_input_open_fd(0, "(standard input)");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	return pv_input_open_fd(fd, path);
}

void
pv_input_close(struct pv_input *in)
{
	if (in == NULL)
		return;
	if (in->gz == 1)
		inflateEnd(&in->zs);
	if (!in->is_stdin)
		close(in->fd);
	free(in->zbuf);
	free(in->crlf);
	free(in->buf);
	free(in->name);
	free(in);
}

const char *
pv_input_name(const struct pv_input *in)
{
	return in->name;
}

unsigned long
pv_input_lineno(const struct pv_input *in)
{
	return in->lineno;
}

const char *
pv_input_error(const struct pv_input *in)
{
	return pv_err_msg(&in->err);
}

int
pv_input_errno(const struct pv_input *in)
{
	return in->err.errnum;
}

int
pv_input_is_gzip(const struct pv_input *in)
{
	return in->gz == 1;
}

static int
fail(struct pv_input *in, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int
fail(struct pv_input *in, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pv_err_vset(&in->err, fmt, ap);
	va_end(ap);
	in->failed = 1;
	return -1;
}

/* fail() for a system call's failure: "what: strerror(errno)" */
static int
fail_errno(struct pv_input *in, const char *what)
{
	pv_err_set_errno(&in->err, errno, "%s", what);
	in->failed = 1;
	return -1;
}

/* read(2) that retries on EINTR; returns bytes, 0 at EOF, -1 on error */
static ssize_t
xread(int fd, void *p, size_t n)
{
	ssize_t r;

	do
		r = read(fd, p, n);
	while (r < 0 && errno == EINTR);
	return r;
}

/* Fill up to n raw bytes at dst; returns bytes, 0 at the end, -1 on error. */
static ssize_t
fill_plain(struct pv_input *in, char *dst, size_t n)
{
	ssize_t r;

	if (in->ranged) {
		if (n > in->left)
			n = (size_t)in->left;
		if (n == 0)
			return 0;
		do
			r = pread(in->fd, dst, n, (off_t)in->off);
		while (r < 0 && errno == EINTR);
		if (r > 0) {
			in->off += (uint64_t)r;
			in->left -= (uint64_t)r;
		}
	} else {
		r = xread(in->fd, dst, n);
	}

	if (r < 0)
		return fail_errno(in, "read error");
	return r;
}

/* zlib's allocations die on failure, as every other one (xalloc.h). */
static voidpf
gz_alloc(voidpf opaque, uInt items, uInt size)
{
	(void)opaque;
	return pv_xreallocarray(NULL, items, size);
}

static void
gz_free(voidpf opaque, voidpf p)
{
	(void)opaque;
	free(p);
}

static ssize_t
fill_gz(struct pv_input *in, char *dst, size_t n)
{
	int rc;

	in->zs.next_out = (unsigned char *)dst;
	in->zs.avail_out = (uInt)n;
	while (in->zs.avail_out == n) {
		if (in->zs.avail_in == 0 && !in->zeof) {
			ssize_t r = xread(in->fd, in->zbuf, ZBLOCK);

			if (r < 0)
				return fail_errno(in, "read error");
			if (r == 0)
				in->zeof = 1;
			in->zs.next_in = in->zbuf;
			in->zs.avail_in = (uInt)r;
		}
		if (in->gz_member_done) {
			if (in->zs.avail_in == 0 && in->zeof)
				return 0;	/* clean end after a member */
			/* another member follows (concatenated gzip) */
			if (inflateReset(&in->zs) != Z_OK)
				return fail(in, "invalid gzip data");
			in->gz_member_done = 0;
		}
		if (in->zs.avail_in == 0 && in->zeof)
			return fail(in, "truncated gzip data");
		rc = inflate(&in->zs, Z_NO_FLUSH);
		if (rc == Z_STREAM_END) {
			in->gz_member_done = 1;
		} else if (rc == Z_BUF_ERROR) {
			if (in->zs.avail_in == 0 && in->zeof)
				return fail(in, "truncated gzip data");
		} else if (rc != Z_OK) {
			fail(in, "invalid gzip data: %s",
			     in->zs.msg ? in->zs.msg : "unknown error");
			/* a byte reader has the bytes before the error first */
			if (in->bytes && in->zs.avail_out < n) {
				in->failed = 0;
				in->pending = 1;
				break;
			}
			return -1;
		}
	}
	return (ssize_t)(n - in->zs.avail_out);
}

/* Note the first NUL among the bytes just added at [from, end). */
static void
scan_nul(struct pv_input *in, size_t from)
{
	char *z;

	if (in->nul_at != NONUL)
		return;
	z = memchr(in->buf + from, '\0', in->end - from);
	if (z != NULL)
		in->nul_at = (size_t)(z - in->buf);
}

/* Decide plain or gzip from the first bytes. */
static int
sniff(struct pv_input *in)
{
	ssize_t r;
	size_t have = 0;

	/*
	 * two bytes decide; a short read may give only one.  A caller may
	 * want no more than the first line or so (pv-diff's look at the
	 * mode): a first read of FIRST bytes touches no more of the buffer.
	 */
	while (have < 2) {
		r = fill_plain(in, in->buf + have,
			       (in->cap < FIRST ? in->cap : FIRST) - have);
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		have += (size_t)r;
	}
	if (have >= 2 && (unsigned char)in->buf[0] == 0x1f &&
	    (unsigned char)in->buf[1] == 0x8b) {
		in->gz = 1;
		/* the sniffing read may have taken more than ZBLOCK */
		in->zbuf = pv_xmalloc(have > ZBLOCK ? have : ZBLOCK);
		memset(&in->zs, 0, sizeof(in->zs));
		in->zs.zalloc = gz_alloc;
		in->zs.zfree = gz_free;
		if (inflateInit2(&in->zs, 15 + 16) != Z_OK)
			return fail(in, "cannot initialise zlib");
		memcpy(in->zbuf, in->buf, have);
		in->zs.next_in = in->zbuf;
		in->zs.avail_in = (uInt)have;
		in->pos = in->end = 0;
	} else {
		in->gz = 0;
		in->pos = 0;
		in->end = have;
		if (have == 0)
			in->eof = 1;
		scan_nul(in, 0);
	}
	return 0;
}

/*
 * A line longer than the limit: the reading stops there, before a buffer
 * grows past it, with the line's number.
 */
static int
bad_limit(struct pv_input *in)
{
	return fail(in, "PV_MAX_LINE '%s' is not a number of bytes (such "
		    "as 1048576 or 64M)", getenv("PV_MAX_LINE"));
}

/* Whether s[0..n) has a CR that no LF follows: text of CR line ends. */
static int
lone_cr(const char *s, size_t n)
{
	const char *cr = memchr(s, '\r', n);

	return cr != NULL && cr + 1 < s + n;
}

static const char cr_text[] = "the line ends are CRs alone, not LFs "
	"(convert them with tr '\\r' '\\n')";

static int
too_long(struct pv_input *in)
{
	/*
	 * one line of all the input, CRs in it: no LF anywhere (not known
	 * when no lines are counted)
	 */
	if (in->lineno == 0 && !in->nocount &&
	    lone_cr(in->buf + in->pos, in->end - in->pos)) {
		in->lineno++;
		return fail(in, "%s", cr_text);
	}
	in->lineno++;
	return fail(in, "a line of more than %zu bytes (the limit; "
		    "PV_MAX_LINE=BYTES sets another)", in->max_line);
}

/*
 * UTF-16 text: a byte order mark FF FE or FE FF, or ASCII with a NUL
 * before or after each byte.
 */
static int
is_utf16(const unsigned char *s, size_t n)
{
	if (n >= 2 && ((s[0] == 0xff && s[1] == 0xfe) ||
		       (s[0] == 0xfe && s[1] == 0xff)))
		return 1;
	return n >= 4 && ((s[0] != 0 && s[1] == 0 && s[2] != 0 && s[3] == 0) ||
			  (s[0] == 0 && s[1] != 0 && s[2] == 0 && s[3] != 0));
}

/* Add raw bytes after end; 1 if some came, 0 at the end, -1 on error. */
static int
refill(struct pv_input *in)
{
	ssize_t r;

	if (in->end == in->cap && in->pos > 0) {
		/* make room: drop the lines read (no rewind after this) */
		in->discarded = 1;
		memmove(in->buf, in->buf + in->pos, in->end - in->pos);
		in->end -= in->pos;
		if (in->nul_at != NONUL)
			in->nul_at -= in->pos;
		in->pos = 0;
	} else if (in->end == in->cap) {
		/*
		 * one line fills the buffer: grow it, to the limit at most
		 * (pv_input_getline() stops a line longer than the limit
		 * before it comes here again)
		 */
		in->cap = in->cap > in->max_line / 2 ? in->max_line + 1 :
			in->cap * 2;
		in->buf = pv_xrealloc(in->buf, in->cap + 1);
	}
	if (in->gz == 1)
		r = fill_gz(in, in->buf + in->end, in->cap - in->end);
	else
		r = fill_plain(in, in->buf + in->end, in->cap - in->end);
	if (r < 0)
		return -1;
	if (r == 0) {
		in->eof = 1;
		return 0;
	}
	in->end += (size_t)r;
	scan_nul(in, in->end - (size_t)r);
	return 1;
}

/* Note that line (from 0) ends in CRLF, for pv_input_rewind(). */
static void
mark_crlf(struct pv_input *in, unsigned long line)
{
	size_t byte = line / 8, old = in->crlf_alloc;

	if (byte >= in->crlf_alloc) {
		in->crlf_alloc = byte + 1 > 2 * old ? byte + 1 : 2 * old;
		in->crlf = pv_xrealloc(in->crlf, in->crlf_alloc);
		memset(in->crlf + old, 0, in->crlf_alloc - old);
	}
	in->crlf[byte] |= (unsigned char)(1u << line % 8);
}

int
pv_input_getline(struct pv_input *in, char **line, size_t *len)
{
	char *start, *nl;
	size_t n, scanned = 0;

	if (in->failed)
		return -1;
	if (in->max_line == 0)
		return bad_limit(in);
	if (in->gz < 0 && sniff(in) < 0)
		return -1;

	for (;;) {
		start = in->buf + in->pos;
		nl = memchr(start + scanned, '\n', in->end - in->pos - scanned);
		if (nl != NULL)
			break;
		if (in->eof) {
			if (in->pos == in->end)
				return 0;
			nl = in->buf + in->end;	/* last line, no newline */
			break;
		}
		scanned = in->end - in->pos;
		if (scanned > in->max_line)
			return too_long(in);
		if (refill(in) < 0)
			return -1;
	}
	n = (size_t)(nl - start);
	if (n > in->max_line)
		return too_long(in);
	if (in->lineno == 0 && is_utf16((unsigned char *)start,
					in->end - in->pos)) {
		in->lineno++;
		return fail(in, "UTF-16 text, not UTF-8 (convert it with "
			    "iconv -f UTF-16 -t UTF-8)");
	}
	if (in->lineno == 0 && nl == in->buf + in->end && lone_cr(start, n)) {
		in->lineno++;
		return fail(in, "%s", cr_text);
	}
	in->pos += n + (nl < in->buf + in->end);
	in->lineno++;
	if (in->nul_at < (size_t)(nl - in->buf)) {
		if (in->lineno == 1 && n >= 7 && memcmp(start, "PERFILE", 7) == 0)
			return fail(in, "a perf.data file, not text "
				    "(convert it with 'perf script')");
		if (in->lineno == 1 && n >= 4 && memcmp(start, "\177ELF", 4) == 0)
			return fail(in, "an ELF binary, not text");
		return fail(in, "NUL byte in input (a binary file?)");
	}
	/* a byte order mark is no part of the first line (UTF-8 has none) */
	if (in->lineno == 1 && n >= 3 && memcmp(start, "\xef\xbb\xbf", 3) == 0) {
		start += 3;
		n -= 3;
	}
	if (n > 0 && start[n - 1] == '\r') {
		n--;
		/* a rewind must put a CR back here, not an LF */
		if (!in->discarded)
			mark_crlf(in, in->lineno - 1);
	}
	start[n] = '\0';
	*line = start;
	*len = n;
	return 1;
}

/*
 * The bytes buf[0..n) just read, as lines: counted, and cut before a line
 * longer than the limit, whose error then comes after them.  Returns how
 * many bytes to return (-1: none, the error now).
 */
static long
take_bytes(struct pv_input *in, const char *buf, size_t n)
{
	const char *p = buf, *end = buf + n, *nl;

	if (in->nocount && in->run + n <= in->max_line) {
		/* no line of them can pass the limit: where the last ends */
		nl = memrchr(buf, '\n', n);
		in->run = nl != NULL ? (size_t)(end - nl - 1) : in->run + n;
		return (long)n;
	}
	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (in->run + (size_t)((nl != NULL ? nl : end) - p) >
		    in->max_line) {
			too_long(in);
			if (p == buf)
				return -1;
			/* the lines before it first */
			in->failed = 0;
			in->pending = 1;
			return (long)(p - buf);
		}
		if (nl == NULL) {
			in->run += (size_t)(end - p);
			break;
		}
		in->lineno += !in->nocount;
		in->run = 0;
		p = nl + 1;
	}
	return (long)n;
}

static long
read_bytes(struct pv_input *in, void *buf, size_t n)
{
	size_t have;
	ssize_t r;

	if (in->pending) {
		in->pending = 0;
		in->failed = 1;
	}
	if (in->failed)
		return -1;
	in->bytes = 1;
	if (in->gz < 0 && sniff(in) < 0)
		return -1;
	if (n > (1u << 30))
		n = 1u << 30;	/* within zlib's uInt and a long */
	/* first the bytes that sniff() read of plain input */
	if (in->pos < in->end) {
		have = in->end - in->pos < n ? in->end - in->pos : n;
		memcpy(buf, in->buf + in->pos, have);
		in->pos += have;
		return (long)have;
	}
	if (in->eof || n == 0)
		return 0;
	if (in->gz == 1)
		r = fill_gz(in, buf, n);
	else
		r = fill_plain(in, buf, n);
	if (r == 0)
		in->eof = 1;
	return (long)r;
}

long
pv_input_read(struct pv_input *in, void *buf, size_t n)
{
	long r;

	if (!in->failed && !in->pending && in->max_line == 0)
		return bad_limit(in);
	if ((r = read_bytes(in, buf, n)) <= 0)
		return r;
	return take_bytes(in, buf, (size_t)r);
}

void
pv_input_count_lines(struct pv_input *in, int on)
{
	in->nocount = !on;
}

int
pv_input_rewind(struct pv_input *in)
{
	size_t i, line;

	if (in->failed || in->discarded)
		return -1;
	/*
	 * Put back the line ends that pv_input_getline() overwrote: no
	 * NUL came before pos (it would have failed), so each is one, the
	 * CR of a CRLF where the line's bit says so, else an LF.  (The byte
	 * after it cannot tell: an LF after the end of a line is also the
	 * next line's, when that one is empty.)
	 */
	for (i = 0, line = 0; i < in->pos; i++)
		if (in->buf[i] == '\0') {
			in->buf[i] = line / 8 < in->crlf_alloc &&
				(in->crlf[line / 8] & (1u << line % 8)) ?
				'\r' : '\n';
			line++;
		}
	in->pos = 0;
	in->lineno = 0;
	return 0;
}

int
pv_input_plain_size(const char *path, uint64_t *size)
{
	struct stat st;
	unsigned char magic[2];
	int fd, rc = -1;

	if (path == NULL || strcmp(path, "-") == 0)
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= 2 &&
	    pread(fd, magic, 2, 0) == 2 && !(magic[0] == 0x1f && magic[1] == 0x8b)) {
		*size = (uint64_t)st.st_size;
		rc = 0;
	}
	close(fd);
	return rc;
}

struct pv_input *
pv_input_open_range(const char *path, uint64_t off, uint64_t len)
{
	struct pv_input *in = pv_input_open(path);

	if (in == NULL)
		return NULL;
	in->gz = 0;		/* the caller checked: plain */
	in->ranged = 1;
	in->off = off;
	in->left = len;
	if (len == 0)
		in->eof = 1;
	return in;
}
