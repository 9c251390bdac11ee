/*
 * opt: the options every pv tool parses alike, on top of getopt_long(3):
 * checked numbers in option arguments.  A front-end helper (lib/fe/): it
 * prints and exits through diag.h.
 */
#ifndef PV_OPT_H
#define PV_OPT_H

/*
 * The number in an option's argument s, checked: a finite decimal number
 * from min to max, or else "PROG: WHAT 'S' is not a number from MIN to
 * MAX" and exit with PV_EXIT_TROUBLE.
 */
double pv_opt_number(const char *what, const char *s, double min, double max);
/* The same for a count: a whole number from min to max. */
unsigned long pv_opt_count(const char *what, const char *s,
			   unsigned long min, unsigned long max);

#endif
