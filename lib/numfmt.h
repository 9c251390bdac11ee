/*
 * numfmt: fast decimal output of derived statistics.
 *
 * pv_numfmt() appends v with 10 significant digits in the style of
 * printf's "%.10g" (trailing zeros dropped, an exponent below 1e-4 and
 * from 1e10), computed with integer arithmetic instead of the exact
 * bignum conversion of printf, which dominates the run time of a tool
 * that writes a few million numbers.  The last digit may differ from
 * printf's in cases within 1e-15 of a rounding tie; the output is the
 * same for the same input on every IEEE-754 machine.  NaN is written
 * "-" (the format's absent value), infinities "inf" and "-inf".  Values
 * that must read back exactly (sample and runval values) use
 * pv_numfmt_exact() instead.
 */
#ifndef PV_NUMFMT_H
#define PV_NUMFMT_H

#include <stddef.h>
#include <stdint.h>

#include "strbuf.h"

void pv_numfmt(struct pv_strbuf *sb, double v);

/*
 * The longest text pv_numfmt_exact() and pv_numfmt_u64() write, with the
 * final NUL: "-2.2250738585072014e-308" is 24 bytes.
 */
#define PV_NUMFMT_MAX 32

/*
 * pv_numfmt_exact() writes v into buf (PV_NUMFMT_MAX bytes, all of which
 * it may overwrite), NUL terminated, and returns its length: printf's
 * "%.15g", else "%.16g", else "%.17g", whichever is the first that
 * strtod() reads back as v.  Doubles that are whole numbers below 1e15,
 * and the others whose digits the exact 128-bit arithmetic here can
 * produce (decimal exponents from -11 to 15), are formatted without
 * printf and without strtod, the three forms from one computation; the
 * rest (subnormals, very large or small magnitudes, NaN, infinities) fall
 * back to the two.  The result is exact in every case, not an
 * approximation.
 */
size_t pv_numfmt_exact(char *buf, double v);

/* The same appended to sb. */
void pv_numfmt_exact_add(struct pv_strbuf *sb, double v);

/* The longest "%+.6f" of a double, with the final NUL */
#define PV_NUMFMT_FIXED_MAX 320

/*
 * pv_numfmt_fixed() writes v into buf (PV_NUMFMT_FIXED_MAX bytes), NUL
 * terminated, as printf's "%.<prec>f" (prec 0 to 6), or "%+.<prec>f" with
 * plus set, and returns its length: exactly, ties of the binary value
 * rounded to even as glibc rounds them, "-0.0" for a negative value that
 * rounds to zero.  Magnitudes from 2^63 / 10^prec, NaN and infinities go
 * to snprintf().
 */
size_t pv_numfmt_fixed(char *buf, double v, int prec, int plus);

/*
 * Percentages for people to read: pv_numfmt_percent() writes p as
 * pv_numfmt_fixed() does while its magnitude is below a million, and
 * with three significant digits from there ("%.3g", so 1e+112, never a
 * hundred digits); "inf" and "-" (NaN) as pv_numfmt() writes them.
 * pv_numfmt_change() writes the percentage of the change whose log is d,
 * 100 (e^d - 1), the same way, also where e^d overflows a double: its
 * digits come from d then ("6.31e+601", never "inf").  Both NUL
 * terminate buf (PV_NUMFMT_FIXED_MAX bytes) and return the length; plus
 * writes a '+' before a positive value.
 */
size_t pv_numfmt_percent(char *buf, double p, int prec, int plus);
size_t pv_numfmt_change(char *buf, double d, int prec, int plus);

/*
 * v in decimal into buf (21 bytes, no NUL; those after the digits may be
 * overwritten); returns the length
 */
size_t pv_numfmt_u64(char *buf, uint64_t v);

#endif
