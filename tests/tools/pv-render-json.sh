#!/bin/sh
# pv-render --format=json: the documents of a comparison of samples
# (verdicts of every class, a systematic regression) and of two profiles
# (function changes), compared with goldens and valid against
# man/pv-render-json.schema.json (python3-jsonschema); names that are not
# UTF-8; pv-series's change points; a malformed changepoint record;
# nothing to render is trouble.
. "${top_srcdir:-.}/tests/lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
python3 -c 'import jsonschema' 2>/dev/null ||
	skip_all "python3-jsonschema is not installed"
D=$top_srcdir/tests/data/pv-render-json
S=$top_srcdir/man/pv-render-json.schema.json
cd "$T" || exit 99

# valid FILE: strict UTF-8, JSON, and valid against the schema
valid() {
	python3 - "$S" "$1" <<'PY'
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft7Validator.check_schema(schema)
with open(sys.argv[2], "rb") as f:
    doc = json.loads(f.read().decode("utf-8", errors="strict"))
jsonschema.Draft7Validator(schema).validate(doc)
PY
}

# samples: pv-diff, pv-classify, the document
pv-diff "$top_srcdir/tests/data/pv-classify/mix.in" | pv-classify |
	pv-render --format=json >mix.json 2>mix.err
expect_golden "$D/mix.json" mix.json "samples"
test_cmp /dev/null mix.err && pass || fail "samples: stderr"
valid mix.json && pass || fail "samples: not valid against the schema"

# profiles: the functions of pv-diff's func records, and the same from
# its dstack records alone
P=$top_srcdir/tests/data/pv-diff/folded.out
pv-render --format=json "$P" >func.json 2>func.err
expect_golden "$D/func.json" func.json "profiles"
test_cmp /dev/null func.err && pass || fail "profiles: stderr"
valid func.json && pass || fail "profiles: not valid against the schema"
grep -v '^func' "$P" | pv-render --format=json >dstack.json 2>&1
test_cmp func.json dstack.json && pass || fail "functions from dstack"

# names with bytes that are not UTF-8 and control characters
awk -F'\t' 'BEGIN { OFS = "\t" } $1 == "sample" && $3 == "reg10" {
	$3 = "r\001e\377g\"\\\\" } { print }' \
	"$top_srcdir/tests/data/pv-classify/mix.in" | pv-diff | pv-classify |
	pv-render --format=json >hostile.json 2>/dev/null
valid hostile.json && pass || fail "hostile names: not valid"
python3 -c 'import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
print(ascii(sorted({c["test"] for c in d["comparisons"] if c["test"].startswith("r")})))' \
	hostile.json >names.got
printf '%s\n' "['r\\x01e\\ufffdg\"\\\\', 'reg3']" >names.want
test_cmp names.want names.got && pass || fail "hostile names"

# each verdict's FLAGS are its own record's: the same without the cmp
# records
pv-diff "$top_srcdir/tests/data/pv-classify/mix.in" | pv-classify |
	grep -v '^cmp' | pv-render --format=json >vonly.json 2>/dev/null
vflags() {
	python3 -c 'import json, sys
for v in json.load(open(sys.argv[1]))["verdicts"]:
    print(v["test"], v["level"], ",".join(v["flags"]) or "-")' "$1"
}
vflags mix.json >vflags.want && vflags vonly.json >vflags.got &&
	test_cmp vflags.want vflags.got && pass ||
	fail "verdict flags without cmp records"
[ "$(grep -vc ' -$' vflags.want)" -gt 0 ] && pass ||
	fail "verdict flags: none to compare"

# change points (pv-series), read through their codec
pv-series "$top_srcdir/tests/data/pv-series/series.in" | pv-classify |
	pv-render --format=json >cp.json 2>cp.err
valid cp.json && pass || fail "with changepoints: not valid"
expect_golden "$D/series.json" cp.json "changepoints: the document"
test -s cp.err && fail "changepoints: stderr $(cat cp.err)" || pass
st=$(printf 'changepoint\tv1\tv2\n' | pv-render --format=json 2>cp.err \
	>cp.out; echo $?)
if [ "$st" -eq 2 ] && [ ! -s cp.out ]; then pass; else
	fail "bad changepoint: status $st"; fi
printf 'pv-render:(standard input):1: a changepoint record has 18 fields, not 3\n' >cp.want
test_cmp cp.want cp.err && pass || fail "bad changepoint: message"

# nothing to render: no document that reads as nothing found
printf 'pv-format\t1\nsection\tbaseline\tv1\t-\n' | pv-render --format=json \
	>none.json 2>none.err
st=$(printf 'pv-format\t1\n' | pv-render --format=json >/dev/null 2>&1; echo $?)
if [ "$st" -eq 2 ] && [ ! -s none.json ]; then pass; else
	fail "nothing to render: status $st"; fi
printf 'pv-render: nothing to render as json: no cmp, verdict, systematic, detect, changepoint, func or dstack records (give it the output of pv-diff, pv-classify or pv-series)\n' >none.want
test_cmp none.want none.err && pass || fail "nothing: message"
finish
