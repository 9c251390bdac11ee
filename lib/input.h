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
 * Compression is detected by content (the gzip magic), not by file name;
 * concatenated gzip members are read as one stream.
 *
 * Errors (I/O, corrupt or truncated gzip data, a NUL byte in a line) are
 * returned as -1 with a message in pv_input_error(); the functions never
 * print.
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
/* Whether the input is gzip-compressed. */
int pv_input_is_gzip(const struct pv_input *in);

#endif
