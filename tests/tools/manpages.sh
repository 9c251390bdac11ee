#!/bin/sh
# Man pages: mandoc finds nothing to warn about, and each tool's --help
# starts with the SYNOPSIS of its page, word for word.
. "${top_srcdir:-.}/tests/lib.sh"

command -v mandoc >/dev/null || skip_all "mandoc is not installed"
for page in "$top_srcdir"/man/*.[157]; do
	if mandoc -T lint -W warning "$page" >"$T/lint" 2>&1; then
		pass
	else
		fail "mandoc -T lint ${page##*/}"
		cat "$T/lint" >&2
	fi
done

for tool in "$top_builddir"/tools/pv-*; do
	[ -x "$tool" ] || continue
	name=${tool##*/}
	page=$top_srcdir/man/$name.1
	[ -f "$page" ] || { fail "$name has no man page"; continue; }
	# the SYNOPSIS as mandoc renders it, in one line
	mandoc -T ascii "$page" | col -b |
		sed -n '/^SYNOPSIS/,/^DESCRIPTION/p' | sed '1d;$d' |
		tr '\t\n' '  ' | tr -s ' ' | sed 's/^ //; s/ $//' >"$T/synopsis"
	"$tool" --help >"$T/help" || fail "$name --help exit status"
	sed '/^$/,$d; s/^usage: //' "$T/help" | tr '\t\n' '  ' | tr -s ' ' |
		sed 's/^ //; s/ $//' >"$T/usage"
	if test_cmp "$T/synopsis" "$T/usage"; then
		pass
	else
		fail "$name --help does not match the SYNOPSIS of $name.1"
	fi
	"$tool" --version >"$T/version" || fail "$name --version exit status"
	grep -q "^$name (pv-tools) " "$T/version" && pass ||
		fail "$name --version: $(cat "$T/version")"
	"$tool" --no-such-option >/dev/null 2>"$T/err"
	[ $? -eq 2 ] && pass || fail "$name: an unknown option does not exit 2"
done
# Every long option the pages give a pv tool, in an example or in the
# text ("pv-parse --subject=v6.12 ..."), is one that tool's --help lists.
for page in "$top_srcdir"/man/*.[157]; do
	mandoc -T ascii "$page" | col -b |
		grep -oE 'pv-(parse|collect|stat|diff|classify|render|store)( +[^ |;&()<>`"]+)*' |
		while read -r name rest; do
			for w in $rest; do
				case $w in --[a-z]*) ;; *) continue ;; esac
				o=${w%%=*}
				o=${o%%[],.]*}
				"$top_builddir/tools/$name" --help 2>/dev/null |
					grep -qE -- "$o([^a-z-]|\$)" ||
					echo "${page##*/}: $name $o"
			done
		done
done | sort -u >"$T/options"
if test_cmp /dev/null "$T/options"; then pass; else
	fail "options in the man pages that the tools do not have"; fi

# Every env key the tools write (in their golden outputs: pv-collect's on
# a fake system, pv-parse's of a perf header, the benchmark readers') is
# listed under ENVIRONMENT KEYS in pv-format(5) (its ".It Li KEY , KEY"
# items); KEY.NAME keys by their "KEY . Ns Ar NAME" item.
sed -n '/^\.Sh ENVIRONMENT KEYS/,/^\.Sh /p' "$top_srcdir/man/pv-format.5" |
	awk '/^\.It Li / {
		sub(/^\.It Li /, "")
		if (sub(/ \. Ns Ar [A-Z]+.*/, ".")) { print; next }
		sub(/ *\(.*/, ""); gsub(/ *, */, " "); n = split($0, w, " ")
		for (i = 1; i <= n; i++) print w[i] }' | sort -u >"$T/env.doc"
cat "$top_srcdir/tests/data/pv-collect/matrix.out" \
	"$top_srcdir/tests/data/pv-parse/header.out" \
	"$top_srcdir"/tests/data/bench/*.pv |
	awk -F'\t' '$1 == "env" { print $2 }' | sort -u |
	while read -r k; do
		grep -qxF -- "$k" "$T/env.doc" ||
			grep -qxF -- "${k%%.*}." "$T/env.doc" || echo "$k"
	done >"$T/env.undoc"
if test_cmp /dev/null "$T/env.undoc"; then pass; else
	fail "env keys the tools write that pv-format(5) does not list"; fi

# pv-render: the formats of its page's --format are those of its --help
sed -n '/^\.It Fl f , Fl -format/,/^\.It/p' "$top_srcdir/man/pv-render.1" |
	sed -n 's/^\.Cm \([a-z-]*\).*/\1/p' | sort >"$T/formats.man"
"$top_builddir/tools/pv-render" --help |
	sed -n '/-f, --format=FORMAT/,/--event=/p' | sed '$d' |
	grep -oE '[a-z-]+:' | tr -d : | sort >"$T/formats.help"
if test_cmp "$T/formats.help" "$T/formats.man"; then pass; else
	fail "pv-render's formats: its --help and its page differ"; fi
finish
