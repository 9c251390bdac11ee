/*
 * error: failures of lib/ as messages in a handle (see error.h).
 */
#include <stdio.h>
#include <string.h>

#include "error.h"

int
pv_err_vset(struct pv_err *e, const char *fmt, va_list ap)
{
	e->errnum = 0;
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	return -1;
}

int
pv_err_set(struct pv_err *e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pv_err_vset(e, fmt, ap);
	va_end(ap);
	return -1;
}

int
pv_err_set_errno(struct pv_err *e, int errnum, const char *fmt, ...)
{
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	pv_err_vset(e, fmt, ap);
	va_end(ap);
	n = strlen(e->msg);
	snprintf(e->msg + n, sizeof(e->msg) - n, ": %s", strerror(errnum));
	e->errnum = errnum;
	return -1;
}

int
pv_err_prefix(struct pv_err *e, const char *fmt, ...)
{
	char old[PV_ERR_MAX];
	va_list ap;
	size_t n;

	memcpy(old, e->msg, sizeof(old));
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	n = strlen(e->msg);
	snprintf(e->msg + n, sizeof(e->msg) - n, ": %s", old);
	return -1;
}

void
pv_err_clear(struct pv_err *e)
{
	e->errnum = 0;
	e->msg[0] = '\0';
}
