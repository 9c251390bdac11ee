#!/bin/sh
# The format has one owner (issue 12):
#  - every record type of pv-format(5) (the entries of its RECORDS) has
#    exactly one codec in lib/libpv.a: one definition of
#    pv_rec_TYPE_write(), and of pv_rec_TYPE_parse() unless the reader
#    parses the type itself (the types of enum pv_rec_type in
#    lib/record.h), when there is none; '-' in TYPE is '_' in the name.
#    The types of a subsection "FAMILY records" may instead share one
#    codec, pv_rec_FAMILY_write() and pv_rec_FAMILY_parse() (the store's
#    index: "Index records", add and rm, lib/rec_index.c), never both;
#  - every codec is in a file lib/rec_*.c and is of a type or a family
#    pv-format(5) describes;
#  - no file of lib/ and tools/ joins fields with TABs but the codecs,
#    record.c and field.c, and the files listed below that use a TAB for
#    other text: no other file has a \t (a wider net than issue 12's grep
#    for '\t' and "\t, which misses "%s\t%s");
#  - pv-render does not link GSL: the verdict codec needs no statistics.
# The lists below are exact: a file or type that no longer needs its
# entry fails the test until the entry is taken off.
. "${top_srcdir:-.}/tests/lib.sh"

command -v nm >/dev/null || skip_all "nm is not installed"
lib=$top_builddir/lib/libpv.a
man=$top_srcdir/man/pv-format.5
[ -f "$lib" ] || skip_all "$lib is not built"

# Codecs that another branch of this round brings, with the types.  Until
# a codec exists its type is only noted; once it does, take the type off
# this list, and the checks below hold for it like for any other.
pending_types=""

# Files that use a TAB for something other than a record line: reading
# the blanks of benchmark output, perf script and /proc files, keeping
# TABs in HTML and XML text (lib/textenc.c: a TAB is what XML keeps and
# JSON escapes), pv-store add's "HASH VERSION" line, the fields of
# MAINTAINERS and of a subsystem map (lib/subsys.c).
text_files="lib/bench.c lib/bench_generic.c lib/bench_stressng.c
lib/elfsym.c lib/envinfo.c lib/perfscript.c lib/render_html.c
lib/subsys.c lib/textenc.c tools/pv-store.c"
# Files that still build record lines by hand, in another branch's hands.
pending_files=""

listed() {
	case " $(echo $2) " in
	*" $1 "*) return 0 ;;
	esac
	return 1
}

# the record types, "TYPE FAMILY" ('-': none): the ".It Li TYPE" entries
# of RECORDS, in their subsections ".Ss FAMILY records"
awk '/^\.Sh RECORDS/ { on = 1; next }
	/^\.Sh / { on = 0 }
	on && /^\.Ss / { fam = $NF == "records" ? tolower($2) : "" }
	on && /^\.It Li [a-z][a-z0-9_-]*/ { print $3, fam == "" ? "-" : fam }' \
	"$man" >"$T/typefam"
cut -d' ' -f1 "$T/typefam" >"$T/types"
cut -d' ' -f2 "$T/typefam" | grep -vx -- - | sort -u >"$T/families"
[ -s "$T/types" ] && pass || fail "no record types found in $man"
# the types the reader parses: the comments of enum pv_rec_type
sed -n '/^enum pv_rec_type {/,/^};/p' "$top_srcdir/lib/record.h" |
	sed -n 's/^[[:space:]]*PV_REC_[A-Z]*,[[:space:]]*\/\* \([a-z][a-z0-9_-]*\) .*/\1/p' \
	>"$T/reader"
[ -s "$T/reader" ] && pass || fail "no reader types found in record.h"

# the codecs defined in the library: "OBJECT SYMBOL" lines
nm -A --defined-only "$lib" 2>/dev/null |
	sed -n 's/^[^:]*:\([^:]*\):[0-9a-f]* T \(pv_rec_[a-z0-9_]*_\(write\|parse\)\)$/\1 \2/p' |
	sort >"$T/codecs"

# count NAME KIND: the definitions of pv_rec_NAME_KIND
count() {
	grep -c " pv_rec_$1_$2\$" "$T/codecs"
}

while read -r type fam; do
	name=$(echo "$type" | tr - _)
	nw=$(count "$name" write) np=$(count "$name" parse)
	fw=0 fp=0
	[ "$fam" = - ] || { fw=$(count "$fam" write) fp=$(count "$fam" parse); }
	if listed "$type" "$pending_types"; then
		if [ $((nw + np + fw + fp)) -eq 0 ]; then
			echo "note: $type: codec pending (another branch)"
			pass
			continue
		fi
		fail "$type has a codec now: take it off pending_types in" \
			"tests/tools/codecs.sh"
	fi
	if [ $((nw + np)) -gt 0 ] && [ $((fw + fp)) -gt 0 ]; then
		fail "$type: a codec of its own and its family's ($fam)"
		continue
	fi
	if [ $((fw + fp)) -gt 0 ]; then
		name=$fam nw=$fw np=$fp
	fi
	if [ "$nw" -eq 1 ]; then
		pass
	else
		fail "$type: $nw definitions of pv_rec_${name}_write, not one"
	fi
	if grep -qx -- "$type" "$T/reader"; then
		want=0 why="the reader parses $type records"
	else
		want=1 why="one parser"
	fi
	if [ "$np" -eq "$want" ]; then
		pass
	else
		fail "$type: $np definitions of pv_rec_${name}_parse, not" \
			"$want ($why)"
	fi
done <"$T/typefam"

# every codec: in lib/rec_*.c, of a type of pv-format(5)
while read -r obj sym; do
	case $obj in
	rec_*.o | *-rec_*.o) pass ;;
	*) fail "$sym is defined in $obj, not in a lib/rec_*.c" ;;
	esac
	type=$(echo "$sym" | sed 's/^pv_rec_//; s/_\(write\|parse\)$//' |
		tr _ -)
	if grep -qx -- "$type" "$T/types" ||
	    grep -qx -- "$type" "$T/families"; then
		pass
	else
		fail "$sym: pv-format(5) has no '$type' record, nor" \
			"'$type records'"
	fi
done <"$T/codecs"
# pending types the page does not describe yet
for type in $pending_types; do
	grep -qx -- "$type" "$T/types" ||
		echo "note: $type: not in pv-format(5) yet (another branch)"
done

# TABs joined by hand
(cd "$top_srcdir" && grep -lF '\t' lib/*.c tools/*.c) | sort >"$T/tabs"
while read -r f; do
	case $f in
	lib/rec_*.c | lib/record.c | lib/field.c)
		pass
		;;
	*)
		if listed "$f" "$text_files $pending_files"; then
			pass
		else
			fail "$f joins fields with TABs: a record line is" \
				"the codec's to write (lib/rec_*.c)"
			(cd "$top_srcdir" && grep -nF '\t' "$f") >&2
		fi
		;;
	esac
done <"$T/tabs"
for f in $text_files $pending_files; do
	if grep -qx -- "$f" "$T/tabs"; then
		pass
	else
		fail "$f has no TAB any more: take it off the lists of" \
			"tests/tools/codecs.sh"
	fi
done

# pv-render without GSL
render=$top_builddir/tools/pv-render
if command -v ldd >/dev/null && [ -x "$render" ]; then
	: >"$T/want-gsl"
	ldd "$render" | sed -n 's/^[[:space:]]*\(libgsl[^ ]*\).*/\1/p' \
		>"$T/gsl"
	if test_cmp "$T/want-gsl" "$T/gsl"; then
		pass
	else
		fail "pv-render links GSL"
	fi
fi
finish
