#!/bin/sh
# The bad-input table: every tool fed hostile input (tests/tools/
# bad-input.tab, its rows; tests/tools/bad-input-gen.sh, its inputs) must
# end with the documented status and message, never crash, hang or exit 0
# with partial output.
. "${top_srcdir:-.}/tests/lib.sh"
. "$top_srcdir/tests/tools/bad-input-gen.sh"

tab=$(printf '\t')
made=
while IFS=$tab read -r cmd input status errpat outpat; do
	case $cmd in
	'#'* | '') continue ;;
	esac
	name="$cmd < $input"
	case " $made " in
	*" $input "*) ;;
	*)
		(cd "$T" && "gen_$input" "in.$input") ||
			{ fail "$name: generator failed"; continue; }
		made="$made $input"
		;;
	esac
	case $cmd in
	*'{}'*) args=$(printf '%s\n' "$cmd" | sed "s/{}/in.$input/g") ;;
	*) args="$cmd in.$input" ;;
	esac
	# pv-store rows: a fresh store, found through PV_STORE
	case $cmd in
	pv-store*)
		rm -rf "$T/store"
		pv-store --store="$T/store" init ||
			{ fail "$name: pv-store init failed"; continue; }
		;;
	esac
	# shellcheck disable=SC2086
	(cd "$T" && export PV_STORE="$T/store" && exec timeout 120 $args </dev/null \
		>"$T/out" 2>"$T/err")
	got=$?
	if [ "$got" -eq 124 ]; then
		fail "$name: hung (killed after 120 s)"
		continue
	fi
	if [ "$got" -ge 128 ]; then
		fail "$name: crashed (status $got)"
		sed 3q "$T/err" >&2
		continue
	fi
	if [ "$got" -ne "$status" ]; then
		fail "$name: exit status $got, expected $status"
		sed 3q "$T/err" | cut -c1-200 >&2
		continue
	fi
	err=$(tr '\n' '|' <"$T/err" | sed 's/|$//')
	if [ "$errpat" = - ]; then
		if [ -n "$err" ]; then
			fail "$name: unexpected stderr: $(printf '%s' "$err" | cut -c1-200)"
			continue
		fi
	elif ! printf '%s\n' "$err" | grep -Eq -- "$errpat"; then
		fail "$name: stderr '$(printf '%s' "$err" | cut -c1-200)' does not match '$errpat'"
		continue
	fi
	if [ "$status" -ne 2 ]; then
		if [ "${outpat:--}" = - ]; then
			[ -s "$T/out" ] && { fail "$name: unexpected stdout"; continue; }
		else
			pat=$(printf '%s' "$outpat" | sed "s/\\\\t/$tab/g")
			grep -Eq -- "$pat" "$T/out" ||
				{ fail "$name: no line of stdout matches '$outpat'"; continue; }
		fi
	fi
	pass
done <"$top_srcdir/tests/tools/bad-input.tab"
finish
