#!/bin/sh
# shards: a night cut into shards gives the records of the whole (issue
# 19), on a small night of tests/bench/gen-fleet.awk, grouped by key and
# run by run.
#
# Key shards (whole keys, both sides, in every shard): pv-stat | pv-diff
# on each shard, pv-classify on their outputs concatenated; the stat and
# cmp records are those of the whole (in their shard's order: compared
# sorted), and pv-classify's verdict, systematic and detect records are
# the whole's byte for byte.  The statroll records of a suite or a
# section span shards and are not compared.
#
# pv-stat --shard=I/N cuts by the hash of SUITE and TEST (lib/shard.h):
# its N shards hold the whole's samples, each once, and their pv-stat |
# pv-diff outputs give the records of the whole as above.
#
# Run shards (every key in every shard, its runs spread): pv-stat -S on
# each shard, pv-stat -m -S on their outputs concatenated and on them as
# FILEs (read side by side): the runval, stat and statroll records of
# pv-stat -S on the whole.
. "${top_srcdir:-.}/tests/lib.sh"

gen=$top_srcdir/tests/bench/gen-fleet.awk

# key_split FILE N OUT FIELDS: each distinct key (the sample's fields 2 to
# FIELDS) to shard (its number in order of appearance) mod N, the other
# records to every shard
key_split() {
	awk -F '\t' -v n="$2" -v out="$3" -v last="$4" '
	$1 != "sample" { for (i = 0; i < n; i++) print > (out "." i); next }
	{
		k = $2
		for (i = 3; i <= last; i++)
			k = k FS $i
		if (!(k in s))
			s[k] = nk++ % n
		print > (out "." s[k])
	}' "$1"
}

# run_split FILE N OUT: run R of every key to shard (R - 1) mod N
run_split() {
	awk -F '\t' -v n="$2" -v out="$3" '
	$1 != "sample" { for (i = 0; i < n; i++) print > (out "." i); next }
	{ print > (out "." (($9 - 1) % n)) }' "$1"
}

# records TYPE... <FILE: the records of those types, sorted
records() {
	pat=$(echo "$*" | sed 's/ /|/g')
	grep -E "^($pat)	" | sort
}

# classified: pv-classify's own records, as written
classified() {
	grep -E '^(verdict|systematic|detect)	'
}

# night STAT DIFF CLASSIFY: the pipeline on standard input, each tool's
# output kept; pv-diff and pv-classify exit 1 when they find something
night() {
	pv-stat >"$1" || fail "pv-stat exit $?"
	pv-diff "$1" >"$2"
	[ $? -le 1 ] || fail "pv-diff exit >1"
	pv-classify "$2" >"$3"
	[ $? -le 1 ] || fail "pv-classify exit >1"
}

for order in grouped runs; do
	awk -v keys=400 -v order=$order -f "$gen" >"$T/night.pv" ||
		fail "gen-fleet.awk $order"
	night "$T/w.stat" "$T/w.diff" "$T/w.cls" <"$T/night.pv"
	records stat <"$T/w.stat" >"$T/w.stat.r"
	records cmp <"$T/w.diff" >"$T/w.cmp.r"
	classified <"$T/w.cls" >"$T/w.cls.r"
	[ -s "$T/w.cmp.r" ] && [ -s "$T/w.cls.r" ] && pass ||
		fail "$order: the whole gives no cmp or verdict records"
	for n in 2 3; do
		# by test (fields 2-3) and by the whole key (fields 2-8)
		for last in 3 8; do
			what="$order, $n key shards by fields 2-$last"
			rm -f "$T"/ks.*
			key_split "$T/night.pv" "$n" "$T/ks" "$last"
			: >"$T/s.stat"
			: >"$T/s.diff"
			i=0
			while [ "$i" -lt "$n" ]; do
				pv-stat "$T/ks.$i" >>"$T/s.stat" ||
					fail "$what: pv-stat shard $i"
				pv-stat "$T/ks.$i" | pv-diff >>"$T/s.diff"
				[ $? -le 1 ] || fail "$what: pv-diff shard $i"
				i=$((i + 1))
			done
			pv-classify "$T/s.diff" >"$T/s.cls"
			[ $? -le 1 ] || fail "$what: pv-classify"
			records stat <"$T/s.stat" >"$T/s.stat.r"
			records cmp <"$T/s.diff" >"$T/s.cmp.r"
			classified <"$T/s.cls" >"$T/s.cls.r"
			test_cmp "$T/w.stat.r" "$T/s.stat.r" && pass ||
				fail "$what: stat records"
			test_cmp "$T/w.cmp.r" "$T/s.cmp.r" && pass ||
				fail "$what: cmp records"
			test_cmp "$T/w.cls.r" "$T/s.cls.r" && pass ||
				fail "$what: verdict, systematic, detect records"
		done
	done

	records sample <"$T/night.pv" >"$T/w.sample.r"
	for n in 1 2 3; do
		what="$order, pv-stat --shard=I/$n"
		: >"$T/s.sample"
		: >"$T/s.stat"
		: >"$T/s.diff"
		i=0
		while [ "$i" -lt "$n" ]; do
			pv-stat --shard=$i/$n "$T/night.pv" >"$T/one.stat" ||
				fail "$what: pv-stat shard $i"
			records sample <"$T/one.stat" >>"$T/s.sample"
			cat "$T/one.stat" >>"$T/s.stat"
			pv-diff "$T/one.stat" >>"$T/s.diff"
			[ $? -le 1 ] || fail "$what: pv-diff shard $i"
			i=$((i + 1))
		done
		pv-classify "$T/s.diff" >"$T/s.cls"
		[ $? -le 1 ] || fail "$what: pv-classify"
		sort "$T/s.sample" >"$T/s.sample.r"
		records stat <"$T/s.stat" >"$T/s.stat.r"
		records cmp <"$T/s.diff" >"$T/s.cmp.r"
		classified <"$T/s.cls" >"$T/s.cls.r"
		test_cmp "$T/w.sample.r" "$T/s.sample.r" && pass ||
			fail "$what: the shards' samples are not the whole's"
		test_cmp "$T/w.stat.r" "$T/s.stat.r" && pass ||
			fail "$what: stat records"
		test_cmp "$T/w.cmp.r" "$T/s.cmp.r" && pass ||
			fail "$what: cmp records"
		test_cmp "$T/w.cls.r" "$T/s.cls.r" && pass ||
			fail "$what: verdict, systematic, detect records"
	done

	pv-stat -S "$T/night.pv" | records runval stat statroll >"$T/w.S" ||
		fail "$order: pv-stat -S"
	[ -s "$T/w.S" ] && pass || fail "$order: pv-stat -S gives nothing"
	for n in 2 4; do
		what="$order, $n run shards"
		rm -f "$T"/rs.*
		run_split "$T/night.pv" "$n" "$T/rs"
		: >"$T/parts.S"
		i=0
		while [ "$i" -lt "$n" ]; do
			pv-stat -S "$T/rs.$i" >>"$T/parts.S" ||
				fail "$what: pv-stat -S shard $i"
			i=$((i + 1))
		done
		pv-stat -m -S "$T/parts.S" | records runval stat statroll \
			>"$T/m.S" || fail "$what: pv-stat -m -S"
		test_cmp "$T/w.S" "$T/m.S" && pass ||
			fail "$what: runval, stat and statroll records"
		# the shards' outputs as FILEs, read side by side
		: >"$T/m.S"
		i=0
		while [ "$i" -lt "$n" ]; do
			pv-stat -S "$T/rs.$i" >"$T/rs.$i.S" ||
				fail "$what: pv-stat -S shard $i"
			i=$((i + 1))
		done
		pv-stat -m -S "$T"/rs.*.S | records runval stat statroll \
			>"$T/m.S" || fail "$what: pv-stat -m -S FILE..."
		test_cmp "$T/w.S" "$T/m.S" && pass ||
			fail "$what, side by side: runval, stat and statroll records"
	done
done

finish
