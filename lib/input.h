/*
 * input: a line source over a file or standard input, gzip-compressed or
 * not, for every reader of the project.
 *
 * Lines are handed out without copying: pv_input_getline() returns a
 * pointer into the handle's buffer, valid (and writable) until the next
 * call.  The line excludes its "\n" and a "\r" before it (CRLF input), and
 * is followed by a '\0' so that C string functions stop at its end.  A last
 * line without a final newline is returned like any other.  Memory is the
 * buffer, which grows with the longest line, never with the input.
 *
 * Lines are at most 64 MiB long, or as many bytes as the environment
 * variable PV_MAX_LINE says (a number, with an optional K, M or G for
 * powers of 1024): a longer one is an error, found before any buffer grows
 * past the limit, with pv_input_lineno() its number, so that one line of
 * a gzip bomb costs no more memory than that.  A PV_MAX_LINE that is not
 * a number of bytes is an error at the first read.
 *
 * Compression is detected by content (the gzip magic), not by file name;
 * concatenated gzip members are read as one stream.  A UTF-8 byte order
 * mark at the start is no part of the first line; UTF-16 text, and text
 * whose lines end in CRs alone (no LF in it at all), are errors that say
 * so and how to convert them.
 *
 * Errors (I/O, corrupt or truncated gzip data, a NUL byte in a line) are
 * returned as -1 with a message in pv_input_error() (a struct pv_err in
 * the handle, error.h); the functions never print.
 */
#ifndef PV_INPUT_H
#define PV_INPUT_H

#include <stddef.h>
#include <stdint.h>

struct pv_input;

/*
 * Open path ("-" or NULL is standard input).  Returns NULL with errno set
 * on failure (the caller names the file in its message).
 */
struct pv_input *pv_input_open(const char *path);
/*
 * A handle on fd, open for reading (0: standard input), named name in
 * messages.  The handle owns fd and closes it (standard input excepted).
 */
struct pv_input *pv_input_open_fd(int fd, const char *name);
void pv_input_close(struct pv_input *in);

/*
 * Read the next line: 1 and (*line, *len) on a line, 0 at the end of the
 * input, -1 on an error.
 */
int pv_input_getline(struct pv_input *in, char **line, size_t *len);

/* The name to use in messages: the path, or "(standard input)". */
const char *pv_input_name(const struct pv_input *in);
/* The number of the line last returned, counting from 1. */
unsigned long pv_input_lineno(const struct pv_input *in);
/* The message of the last error. */
const char *pv_input_error(const struct pv_input *in);
/*
 * The errno value of the last error when a system call failed (reading a
 * directory: EISDIR), 0 when the data was at fault (corrupt or truncated
 * gzip data, a NUL byte), for callers that word the two apart.
 */
int pv_input_errno(const struct pv_input *in);
/*
 * Start again from the first line: possible while the lines read are all
 * still in the buffer (the first MiB or so, of a pipe as of a file).
 * Returns 0, or -1 when not possible (or after an error).
 */
int pv_input_rewind(struct pv_input *in);

/* Whether the input is gzip-compressed. */
int pv_input_is_gzip(const struct pv_input *in);

/*
 * The input as bytes rather than lines, for a reader that keeps it whole
 * (pv-store add): up to n of its bytes, decompressed, into buf.  Returns
 * how many (at most n, at most 1 GiB), 0 at the end of the input, -1 on an
 * error.  Gzip data is read as pv_input_getline() reads it: concatenated
 * members as one stream, and anything else after a member is an error.
 * The bytes that came before an error have all been returned.  The line
 * limit holds here too: the bytes are returned up to the line that is too
 * long, and at most the limit's worth of it, and the error comes after
 * them.  One handle is read either by lines or by bytes, not both, but for
 * one case: lines read and then given back by pv_input_rewind() (to tell
 * the input's kind from its first line) are read again as bytes from the
 * start (pv-parse on a pipe).  pv_input_lineno() counts the newlines
 * returned (the number of the line too long, after that error).
 */
long pv_input_read(struct pv_input *in, void *buf, size_t n);
/*
 * Whether pv_input_read() counts the newlines it returns (on, the
 * default).  A reader that counts them itself, on other threads than the
 * one that reads (pv-parse on a pipe, lib/blockfeed.h), turns it off, so
 * that the reading thread does not look at every line: the line limit
 * still holds, and pv_input_lineno() then stays where it was (0 after
 * pv_input_rewind()), one more after the error of a line too long (the
 * line after the newlines returned).
 */
void pv_input_count_lines(struct pv_input *in, int on);

/*
 * Parts of a file, for readers that split their work between threads
 * (pv-parse).  pv_input_plain_size() gives the size of a regular file that
 * is not compressed (0), or -1 for anything else (a pipe, gzip data, an
 * error), which must be read whole with pv_input_open().
 * pv_input_open_range() reads the bytes [off, off + len) of such a file
 * with pread(2), so that several handles on one file do not share an
 * offset; its line numbers count from 1 at off.
 */
int pv_input_plain_size(const char *path, uint64_t *size);
struct pv_input *pv_input_open_range(const char *path, uint64_t off,
				     uint64_t len);

#endif
