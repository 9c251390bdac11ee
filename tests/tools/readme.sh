#!/bin/sh
# The README's first command, as a new user copies it: it runs in a root
# shell of a fresh Debian machine, where there is no sudo, and as a user
# through sudo.  apt-get, the build and the report are stand-ins that say
# how they were called; sudo, where given, is one that runs its command.
. "${top_srcdir:-.}/tests/lib.sh"

cd "$T" || exit 99
sed -n '/^On a fresh Debian 12 machine/,/^Run the whole test suite/p' \
	"$top_srcdir/README" | sed -n 's/^    //p' | head -n 1 >cmd
[ -s cmd ] || { fail "no command after 'On a fresh Debian 12 machine'"; finish; }

mkdir bin examples
for t in apt-get autoreconf make; do
	printf '#!/bin/sh\necho %s "$@" >>"%s/calls"\n' "$t" "$T" >bin/$t
done
printf '#!/bin/sh\necho configure >>"%s/calls"\n' "$T" >configure
printf '#!/bin/sh\necho report.sh >>"%s/calls"\n' "$T" >examples/report.sh
chmod +x bin/* configure examples/report.sh
sh_=$(command -v sh)

# root, no sudo anywhere on PATH
: >calls
PATH=$T/bin "$sh_" ./cmd >out 2>&1
st=$?
sed 's/ .*//' calls >calls.got
printf '%s\n' apt-get apt-get autoreconf configure make report.sh >calls.want
if [ $st -eq 0 ] && test_cmp calls.want calls.got; then pass; else
	fail "as root without sudo: status $st"; cat out >&2; fi

# a user with sudo
printf '#!/bin/sh\necho sudo >>"%s/calls"\nexec "$@"\n' "$T" >bin/sudo
chmod +x bin/sudo
: >calls
PATH=$T/bin "$sh_" ./cmd >out 2>&1
st=$?
sed 's/ .*//' calls >calls.got
printf '%s\n' sudo apt-get sudo apt-get autoreconf configure make report.sh >calls.want
if [ $st -eq 0 ] && test_cmp calls.want calls.got; then pass; else
	fail "as a user with sudo: status $st"; cat out >&2; fi
finish
