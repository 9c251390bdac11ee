/*
 * opt: the options every pv tool parses alike, on top of getopt_long(3):
 * checked numbers in option arguments, and -h/--help, -V/--version and
 * the answer to a usage error, which end every tool's option switch.
 * A front-end helper (lib/fe/): it prints and exits through diag.h.
 */
#ifndef PV_OPT_H
#define PV_OPT_H

#include <stdnoreturn.h>

/*
 * The number in an option's argument s, checked: a finite decimal number
 * from min to max, or else "PROG: WHAT 'S' is not a number from MIN to
 * MAX" and exit with PV_EXIT_TROUBLE.
 */
double pv_opt_number(const char *what, const char *s, double min, double max);
/* The same for a count: a whole number from min to max. */
unsigned long pv_opt_count(const char *what, const char *s,
			   unsigned long min, unsigned long max);

/*
 * The last case of a tool's getopt_long() switch, for every c the tool
 * does not handle itself:
 *
 *	default:
 *		pv_opt_common(c, usage, help);
 *
 * 'h' (--help) prints the usage and help to stdout and exits 0, 'V'
 * (--version) prints the version and exits 0, and anything else (the '?'
 * of an unknown option or a missing argument, which getopt has reported)
 * prints the usage to stderr and exits 2; see pv_usage_exit().  The tool
 * keeps "hV" in its option string and { "help", no_argument, NULL, 'h' },
 * { "version", no_argument, NULL, 'V' } in its long options, so that its
 * table lists all it takes.
 */
noreturn void pv_opt_common(int c, const char *usage, const char *help);

/*
 * The FILE operands of a tool, n of them: standard input ('-') may be
 * one of them once, since it can be read only once (pv-diff - - compared
 * standard input with an empty second side); else "PROG: standard input
 * ('-') is given twice; it can be read once" and exit 2.
 */
void pv_opt_files(int n, char *const *file);

#endif
