/*
 * opt: the options every tool parses alike (see opt.h).
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "diag.h"
#include "opt.h"
#include "record.h"

double
pv_opt_number(const char *what, const char *s, double min, double max)
{
	double v;

	if (pv_parse_double(s, strlen(s), &v) < 0 || v < min || v > max)
		pv_die("%s '%s' is not a number from %g to %g", what, s, min,
		       max);
	return v;
}

unsigned long
pv_opt_count(const char *what, const char *s, unsigned long min,
	     unsigned long max)
{
	uint64_t v;

	if (pv_parse_u64(s, strlen(s), &v) < 0 || v < min || v > max)
		pv_die("%s '%s' is not a whole number from %lu to %lu", what,
		       s, min, max);
	return (unsigned long)v;
}

void
pv_opt_common(int c, const char *usage, const char *help)
{
	switch (c) {
	case 'h':
		pv_usage_exit(usage, help, PV_EXIT_OK);
	case 'V':
		pv_version_exit();
	default:
		pv_usage_exit(usage, help, PV_EXIT_TROUBLE);
	}
}

void
pv_opt_files(int n, char *const *file)
{
	int i, stdin_seen = 0;

	for (i = 0; i < n; i++) {
		if (strcmp(file[i], "-") != 0)
			continue;
		if (stdin_seen++)
			pv_die("standard input ('-') is given twice; it can be "
			       "read once");
	}
}
