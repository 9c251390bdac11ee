/*
 * diag: messages and exit statuses of the pv tools (see diag.h).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "record.h"
#include "strbuf.h"
#include "xalloc.h"

const char *pv_progname = "pv";

/*
 * Records stream through pipes by the hundred megabytes: write them in
 * blocks of 64 KiB instead of stdio's 4 KiB for a pipe, and ask for a
 * pipe of 1 MiB, so that the tools of a pipeline switch less often.  A
 * terminal keeps its line buffering.
 */
static void
stream_stdout(void)
{
	static char buf[1 << 16];
	struct stat st;

	if (isatty(STDOUT_FILENO))
		return;
	setvbuf(stdout, buf, _IOFBF, sizeof(buf));
#ifdef F_SETPIPE_SZ
	if (fstat(STDOUT_FILENO, &st) == 0 && S_ISFIFO(st.st_mode))
		(void)fcntl(STDOUT_FILENO, F_SETPIPE_SZ, 1 << 20);
#else
	(void)st;
#endif
}

void
pv_diag_init(const char *argv0)
{
	const char *slash;

	if (argv0 != NULL && *argv0 != '\0') {
		slash = strrchr(argv0, '/');
		pv_progname = slash != NULL ? slash + 1 : argv0;
	}
	pv_xalloc_set_name(pv_progname);
	signal(SIGPIPE, SIG_DFL);
	stream_stdout();
}

static void
vmsg(const char *prefix, const char *file, unsigned long line,
     const char *fmt, va_list ap, int errnum)
	__attribute__((format(printf, 4, 0)));

static void
vmsg(const char *prefix, const char *file, unsigned long line,
     const char *fmt, va_list ap, int errnum)
{
	struct pv_strbuf msg = PV_STRBUF_INIT, out = PV_STRBUF_INIT;

	fflush(stdout);
	if (file != NULL)
		pv_strbuf_addf(&msg, "%s:%s:%lu: %s", pv_progname, file, line,
			       prefix);
	else
		pv_strbuf_addf(&msg, "%s: %s", pv_progname, prefix);
	pv_strbuf_vaddf(&msg, fmt, ap);
	if (errnum != 0)
		pv_strbuf_addf(&msg, ": %s", strerror(errnum));
	/*
	 * The names in a message (of files, frames, tests) are the input's:
	 * its control bytes go to the terminal as \xHH, never raw (record.h)
	 */
	pv_escape_visible(&out, msg.buf, msg.len, 0);
	pv_strbuf_addch(&out, '\n');
	fwrite(out.buf, 1, out.len, stderr);
	pv_strbuf_release(&msg);
	pv_strbuf_release(&out);
}

void
pv_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("warning: ", NULL, 0, fmt, ap, 0);
	va_end(ap);
}

void
pv_warn_at(const char *file, unsigned long line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("warning: ", file, line, fmt, ap, 0);
	va_end(ap);
}

void
pv_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("", NULL, 0, fmt, ap, 0);
	va_end(ap);
}

void
pv_die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("", NULL, 0, fmt, ap, 0);
	va_end(ap);
	exit(PV_EXIT_TROUBLE);
}

void
pv_die_at(const char *file, unsigned long line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("", file, line, fmt, ap, 0);
	va_end(ap);
	exit(PV_EXIT_TROUBLE);
}

void
pv_die_errno(const char *fmt, ...)
{
	va_list ap;
	int errnum = errno;

	va_start(ap, fmt);
	vmsg("", NULL, 0, fmt, ap, errnum);
	va_end(ap);
	exit(PV_EXIT_TROUBLE);
}

void
pv_close_stdout(void)
{
	int bad;

	bad = fflush(stdout) != 0 || ferror(stdout);
	if (fclose(stdout) != 0)
		bad = 1;
	if (bad) {
		/* errno from the failed write, where stdio kept it */
		if (errno != 0)
			pv_die_errno("write error on standard output");
		pv_die("write error on standard output");
	}
}

void
pv_version_exit(void)
{
	printf("%s (%s) %s\n", pv_progname, PACKAGE_NAME, PACKAGE_VERSION);
	pv_close_stdout();
	exit(PV_EXIT_OK);
}

void
pv_usage_exit(const char *usage, const char *help, int status)
{
	FILE *f = status == PV_EXIT_OK ? stdout : stderr;

	fprintf(f, "usage: %s\n", usage);
	if (status == PV_EXIT_OK) {
		printf("\n%s", help);
		pv_close_stdout();
		exit(PV_EXIT_OK);
	}
	fprintf(stderr, "Try '%s --help' for more information.\n",
		pv_progname);
	exit(status);
}
