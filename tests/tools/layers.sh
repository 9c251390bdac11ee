#!/bin/sh
# Layers: lib/ neither prints nor exits; it returns errors in its handles
# (lib/error.h) and only xalloc dies, on out of memory.  The front-end
# helpers of lib/fe/ (libpvfe.a: messages, exit statuses, options) are
# the tools' alone.  Checked three ways:
#   1. no line of lib/*.c but xalloc.c, comments aside, mentions stderr
#      or calls exit(), _exit(), abort() or pv_die*() (the grep of issue
#      12, with word boundaries, so that a name such as
#      pv_store_obj_abort() is not abort(3); the children of fork() that
#      fail to exec end with _Exit(127));
#   2. no object of lib/libpv.a but xalloc's refers to exit, _exit,
#      abort, stderr, stdout or a printing function of libc, _Exit only
#      in those children (envinfo, git, runner), and none to a symbol
#      of lib/fe/libpvfe.a;
#   3. no file of lib/ includes a header of lib/fe/.
. "${top_srcdir:-.}/tests/lib.sh"

# 1. the sources, comments removed (strings kept), line numbers kept
bad='(^|[^A-Za-z0-9_])(stderr([^A-Za-z0-9_]|$)|'
bad="$bad"'(_?exit|abort|pv_die[a-z_]*)[ 	]*[(])'
for f in "$top_srcdir"/lib/*.c; do
	case ${f##*/} in xalloc.c) continue ;; esac
	awk -v bad="$bad" '
	{
		out = ""; instr = 0; n = length($0)
		for (i = 1; i <= n; i++) {
			c = substr($0, i, 1); c2 = substr($0, i, 2)
			if (incomment) {
				if (c2 == "*/") { incomment = 0; i++ }
				continue
			}
			if (instr) {
				out = out c
				if (c == "\\") {
					out = out substr($0, i + 1, 1); i++
				} else if (c == q) {
					instr = 0
				}
				continue
			}
			if (c2 == "/*") { incomment = 1; i++; continue }
			if (c2 == "//") break
			if (c == "\"" || c == "\047") { instr = 1; q = c }
			out = out c
		}
		if (out ~ bad)
			printf "%s:%d: %s\n", FILENAME, FNR, $0
	}' "$f"
done >"$T/src"
if [ -s "$T/src" ]; then
	fail "lib/ prints or exits outside xalloc.c:"
	sed "s|^$top_srcdir/||" "$T/src" >&2
else
	pass
fi

# 2. the objects of the library
nm=${NM:-nm}
lib=$top_builddir/lib/libpv.a
fe=$top_builddir/lib/fe/libpvfe.a
if [ ! -f "$lib" ] || [ ! -f "$fe" ]; then
	fail "no $lib or $fe (make builds them)"
	finish
fi
if ! "$nm" -A -u "$lib" >"$T/undef" 2>"$T/nm.err"; then
	fail "$nm -u $lib: $(cat "$T/nm.err")"
	finish
fi
# "ARCHIVE:OBJECT: U SYMBOL" (GNU nm -A on an archive; leading spaces)
sed 's/^[^:]*:\([^:]*\):[ 	]*U[ 	]*/\1 /' "$T/undef" >"$T/refs"
say='^(exit|_exit|abort|stderr|stdout|printf|vprintf|puts|putchar|perror'
say="$say|err|errx|verr|verrx|warn|warnx|vwarn|vwarnx|error|error_at_line"
say="$say|psignal)\$"
awk -v say="$say" '
	$2 ~ say && $1 !~ /(^|-)xalloc\.o$/ { print }
	$2 == "_Exit" && $1 !~ /(^|-)(envinfo|git|runner)\.o$/ { print }
' "$T/refs" >"$T/bad"
if [ -s "$T/bad" ]; then
	fail "objects of libpv.a that print or exit (object, symbol):"
	cat "$T/bad" >&2
else
	pass
fi
"$nm" --defined-only -g "$fe" | awk 'NF == 3 { print $3 }' | sort -u >"$T/fe"
if [ ! -s "$T/fe" ]; then
	fail "no symbols defined in $fe"
else
	awk '{ print $2 }' "$T/refs" | sort -u | comm -12 - "$T/fe" >"$T/up"
	if [ -s "$T/up" ]; then
		fail "libpv.a uses the front end's $(tr '\n' ' ' <"$T/up")"
	else
		pass
	fi
fi

# 3. the headers
if grep -nE '#[ 	]*include[ 	]*"(fe/)?(diag|opt)\.h"' \
    "$top_srcdir"/lib/*.[ch] >"$T/inc"; then
	fail "lib/ includes a front-end header:"
	sed "s|^$top_srcdir/||" "$T/inc" >&2
else
	pass
fi
finish
