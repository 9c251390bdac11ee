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
 * pv_format_double() of record.h instead.
 */
#ifndef PV_NUMFMT_H
#define PV_NUMFMT_H

#include "strbuf.h"

void pv_numfmt(struct pv_strbuf *sb, double v);

#endif
