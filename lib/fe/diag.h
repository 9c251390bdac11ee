/*
 * diag: the program name, messages on stderr and the exit-status contract
 * shared by every pv tool.  A front-end helper (lib/fe/, libpvfe.a, as
 * libarchive's libarchive_fe/): only the tools link it, and lib/ is built
 * without its directory on the include path, so that the library cannot
 * print or exit through it.  Code in lib/ reports errors in its handles
 * (error.h); the tool reports them here.
 *
 * Messages follow the GNU form that error_at_line(3) prints:
 *   "pv-parse: message" and, for input, "pv-parse:FILE:LINE: message".
 */
#ifndef PV_DIAG_H
#define PV_DIAG_H

#include <stdnoreturn.h>

/* Exit statuses, as diff(1) uses them. */
enum {
	PV_EXIT_OK = 0,		/* success, nothing found */
	PV_EXIT_FOUND = 1,	/* something found: a difference, a regression */
	PV_EXIT_TROUBLE = 2	/* usage, I/O, malformed input, out of memory */
};

/* The name messages start with; set once by pv_diag_init(). */
extern const char *pv_progname;

/*
 * Set the program name from argv[0] (its last path component), for these
 * messages and xalloc's out-of-memory one; restore the default SIGPIPE
 * action so that a closed pipe ends the tool quietly, and make stdout
 * fully buffered in blocks of 64 KiB (unless a terminal), a pipe on it
 * 1 MiB large where the system allows.
 */
void pv_diag_init(const char *argv0);

void pv_warn(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
void pv_warn_at(const char *file, unsigned long line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void pv_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/* Print and exit with PV_EXIT_TROUBLE. */
noreturn void pv_die(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
/* "PROG:FILE:LINE: message", then exit with PV_EXIT_TROUBLE. */
noreturn void pv_die_at(const char *file, unsigned long line,
			const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Like pv_die(), appending ": strerror(errno)". */
noreturn void pv_die_errno(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/* Print "PROG (pv-tools) VERSION" to stdout and exit 0 (for --version). */
noreturn void pv_version_exit(void);

/*
 * Print "usage: " and usage (the man page's SYNOPSIS, one line per form,
 * without a final newline), then exit.  Asked for (--help, status 0): to
 * stdout, followed by a blank line and help (the options and the exit
 * statuses).  After a usage error (status 2): to stderr, with a pointer to
 * --help.
 */
noreturn void pv_usage_exit(const char *usage, const char *help, int status);

/*
 * Flush and close stdout; a write error (a full disk, /dev/full) is reported
 * and exits PV_EXIT_TROUBLE.  Call once, at the end of main().
 */
void pv_close_stdout(void);

#endif
