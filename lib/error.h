/*
 * error: the one way lib/ reports a failure.  A module that can fail keeps
 * a struct pv_err in its handle (or takes one from its caller, for
 * functions without a handle), fills it when it returns its error value
 * (-1, NULL), and never prints or exits; the tool reads the message with
 * pv_err_msg() and reports it, with the file and line of the input where
 * it has them.  The model is libarchive's archive_set_error() and
 * archive_error_string().
 *
 * The message is lowercase, without a final period, and says what went
 * wrong first; pv_err_set_errno() appends ": strerror(errnum)".  It is
 * kept in a fixed buffer (truncated at PV_ERR_MAX - 1 bytes), so setting
 * an error never allocates and never fails.  errnum keeps the errno value
 * of a system error (0 for the others), for callers that tell ENOENT from
 * the rest.
 */
#ifndef PV_ERROR_H
#define PV_ERROR_H

#include <stdarg.h>

#define PV_ERR_MAX 1024

struct pv_err {
	int errnum;
	char msg[PV_ERR_MAX];
};

#define PV_ERR_INIT { 0, "" }

/* Set e's message from fmt; errnum 0.  Returns -1, for "return pv_err_set(...)". */
int pv_err_set(struct pv_err *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int pv_err_vset(struct pv_err *e, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
/* The same, with ": strerror(errnum)" appended and errnum kept.  Returns -1. */
int pv_err_set_errno(struct pv_err *e, int errnum, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/*
 * Put fmt's text and ": " before the message already set, as a caller
 * names the object that a callee's error is about.  Returns -1.
 */
int pv_err_prefix(struct pv_err *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void pv_err_clear(struct pv_err *e);
/* The message, "" when none was set. */
static inline const char *
pv_err_msg(const struct pv_err *e)
{
	return e->msg;
}

#endif
