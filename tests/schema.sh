#!/bin/sh
# The JSON schemas of share/schema: each is a valid draft 2020-12 schema, and every kind
# of JSON document prognoz writes follows its own: report (with --per-process, and of a
# predicted trace), predict on one machine and on several; a document with a member too
# many, or without "format", does not.  The traces are bench/gentrace's, at 2 and 4
# processes.  The integration tests validate every document they make as well
# (tests/integration/lib.sh): scale's in integration/scale.sh.
# The environment (make check): PZ_TOP_SRCDIR, PZ_TOP_BUILDDIR, PZ_PROGNOZ, PZ_PYTHON,
# MAKE, PROGNOZ_MACHINES.
py=${PZ_PYTHON:-python3}
"$py" -c 'import jsonschema, referencing' 2>/dev/null ||
    { echo "SKIP: python3's jsonschema module is not installed (python3-jsonschema)"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pz-schema.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
schemas=$PZ_TOP_SRCDIR/share/schema
status=0

fail() {
    echo "FAIL: $*"
    status=1
}

"$py" - "$schemas" <<'EOF2' || fail "a schema is not a valid draft 2020-12 schema (above)"
import json, os, sys
import jsonschema
for name in sorted(os.listdir(sys.argv[1])):
    with open(os.path.join(sys.argv[1], name)) as f:
        jsonschema.Draft202012Validator.check_schema(json.load(f))
    print("schema %s: valid" % name)
EOF2

${MAKE:-make} -s -C "$PZ_TOP_BUILDDIR" bench/gentrace >/dev/null ||
    { echo "FAIL: cannot build bench/gentrace"; exit 1; }
for n in 2 4; do
    "$PZ_TOP_BUILDDIR/bench/gentrace" "$tmp/run$n" --ranks "$n" --iterations 20 >/dev/null ||
        { echo "FAIL: bench/gentrace"; exit 1; }
done

# run NAME ARGS...: prognoz ARGS into $tmp/NAME.json, which must succeed
run() {
    name=$1
    shift
    "$PZ_PROGNOZ" "$@" >"$tmp/$name.json" 2>"$tmp/$name.err" ||
        fail "prognoz $*: $(cat "$tmp/$name.err")"
}
run report report "$tmp/run2" --format json
run report-per-process report "$tmp/run4" --format=json --per-process
run predict-one predict "$tmp/run2" --machine gigabit-switch --format json --per-process \
    --trace-out "$tmp/predicted"
run predicted-report report "$tmp/predicted" --format json
run predict-several predict "$tmp/run4" --machine gigabit-switch --machine ethernet-100-hub \
    --machine myrinet-2proc --format json
"$py" "$PZ_TOP_SRCDIR/tests/schema_check.py" "$schemas" "$tmp"/*.json ||
    fail "a document does not follow its schema (above)"
echo "validated: $(cd "$tmp" && echo *.json)"

# what the schemas refuse
"$py" - "$tmp/report.json" "$tmp/predict-several.json" "$tmp/bad" <<'EOF2'
import json, sys
report, several, bad = sys.argv[1:4]
with open(report) as f:
    d = json.load(f)
d["intervals"][0]["extra"] = 1
json.dump(d, open(bad + "-extra.json", "w"))
del d["format"]
json.dump(d, open(bad + "-no-format.json", "w"))
with open(several) as f:
    d = json.load(f)
d["predictions"][1]["report"]["messages"] = "many"
json.dump(d, open(bad + "-nested.json", "w"))
EOF2
for doc in extra no-format nested; do
    "$py" "$PZ_TOP_SRCDIR/tests/schema_check.py" "$schemas" "$tmp/bad-$doc.json" >/dev/null &&
        fail "the invalid document bad-$doc.json passes"
done
exit $status
