#!/bin/sh
# The pv-store examples: nightly-store.sh stores, finds no baseline on the
# first night, pairs on the second and passes on the comparison's verdict;
# import-stores.sh gathers two machines' stores into one, keeping object
# names and dates, and a second import changes nothing.
. "${top_srcdir:-.}/tests/lib.sh"

E=$top_srcdir/examples
D=$top_srcdir/tests/data/pv-store
GIT_CEILING_DIRECTORIES=$(dirname "$T")
export GIT_CEILING_DIRECTORIES
cd "$T" || exit 99

# a comparison that records what it got and finds a regression
cat >compare <<'EOS'
#!/bin/sh
cat >compared.pv
exit 1
EOS
chmod +x compare
PV_STORE=$T/nightly PV_COMPARE=$T/compare
export PV_STORE PV_COMPARE
expect_status 0 "first night" sh "$E/nightly-store.sh" v6.11 "$D/v6.11.pv" \
	>night1.out
printf 'nightly-store: no baseline for v6.11 yet; stored only\n' >night1.want
if test_cmp night1.want night1.out; then pass; else fail "first night"; fi
expect_status 1 "second night: regression" sh "$E/nightly-store.sh" \
	v6.12-rc1 "$D/v6.12.pv" >night2.out
pv-store pair v6.12-rc1 >pair.want
if test_cmp pair.want compared.pv; then pass; else fail "compared pair"; fi
PV_COMPARE=true
expect_status 0 "third night: none" sh "$E/nightly-store.sh" v6.12-rc2 \
	"$D/v6.12.pv" >/dev/null
expect_status 2 "nightly usage" sh "$E/nightly-store.sh" v1 2>/dev/null
unset PV_STORE PV_COMPARE

# two machines, one central store
pv-store --store=m1 init && pv-store --store=m2 init || exit 99
pv-store --store=m1 add -v v6.11 -d 1732000000 "$D/v6.11.pv" >/dev/null
pv-store --store=m1 add -v v6.12 -d 1732100000 "$D/v6.12.pv" >/dev/null
pv-store --store=m2 add -v v6.12 -d 1732200000 "$D/crlf.pv" >/dev/null
pv-store --store=m2 add -v v6.12 -d 1732200000 "$D/v6.12.pv" >/dev/null
if date -u -d 2024-11-19T07:06:40Z +%s >/dev/null 2>&1; then
	expect_status 0 "import" sh "$E/import-stores.sh" central m1 m2
	{ pv-store --store=m1 log; pv-store --store=m2 log; } |
	    sort >want.log
	pv-store --store=central log | sort >central.log
	# the stream m2 and m1 both hold under v6.12 is one entry, with the
	# date of the first import (m1 sorts first: it is older)
	awk -F'\t' '!seen[$1 FS $3]++' want.log >want-uniq.log
	if test_cmp want-uniq.log central.log; then pass; else
		fail "central log"; fi
	cp central/index index.1
	expect_status 0 "import again" sh "$E/import-stores.sh" central m1 m2
	if test_cmp index.1 central/index; then pass; else
		fail "a second import changed the index"; fi
	expect_status 0 "central verify" pv-store --store=central verify
fi
finish
