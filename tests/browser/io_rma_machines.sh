# MPI-IO and one-sided time on the HTML page of a prediction on several machines, in a
# real browser (browser/io_rma_machines.js; browser/lib.sh: chromium, and firefox-esr
# when present): programs/io_rma on 2 processes (browser/io_rma.sh: a collective write
# in interval 1, a Put in a fence epoch in interval 2) predicted on gigabit-switch and
# on slow-io, the same machine with io_scale = 2, their predicted traces kept.  The JSON
# prediction is checked by hand first: an MPI-IO call takes its recorded time x
# io_scale (docs/machines.md), so every interval's I/O time is the recorded one on
# gigabit-switch and twice it on slow-io; every run has I/O time in interval 1 and
# one-sided time in interval 2, wrote 2 x 16 = 32 bytes and put 2 x 8 = 16 bytes, and
# every predicted trace has the recorded I/O records.  Then, for every run chosen
# on the page, its per-process chart and timeline must draw I/O and one-sided time and
# calls in their colours with their legends and tooltips, and its figures be the JSON's.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

. "$PZ_TOP_SRCDIR/tests/browser/lib.sh"
prog=$(pz_program io_rma) || exit 77
pz_record_ok io_rma 2 "$prog" "$PZ_WORK/io_rma.dat"
sed 's/^name = .*/name = slow-io/' "$PZ_TOP_SRCDIR/share/machines/gigabit-switch.conf" \
    >"$PZ_WORK/slow-io.conf" && echo 'io_scale = 2' >>"$PZ_WORK/slow-io.conf" ||
    pz_fail "cannot write $PZ_WORK/slow-io.conf"
for format in html json; do
    "$PZ_PROGNOZ" predict "$PZ_WORK/io_rma" --machine gigabit-switch \
        --machine "$PZ_WORK/slow-io.conf" --format $format -o "$PZ_WORK/machines.$format" \
        --trace-out "$PZ_WORK/predicted-$format" --quiet 2>"$PZ_WORK/machines.$format.err" ||
        pz_fail "predict --format $format on two machines: $(cat "$PZ_WORK/machines.$format.err")"
done
# each run's values per process, for its per-process chart
"$PZ_PROGNOZ" report "$PZ_WORK/io_rma" --per-process --format json -o "$PZ_WORK/run-0.json" ||
    pz_fail "report --per-process --format json"
run=0
for machine in gigabit-switch "$PZ_WORK/slow-io.conf"; do
    run=$((run + 1))
    "$PZ_PROGNOZ" predict "$PZ_WORK/io_rma" --machine "$machine" --per-process --format json \
        -o "$PZ_WORK/run-$run.json" --quiet 2>"$PZ_WORK/run-$run.err" ||
        pz_fail "predict on $machine --per-process: $(cat "$PZ_WORK/run-$run.err")"
done

"${PZ_PYTHON:-python3}" - "$PZ_WORK/machines.json" "$PZ_WORK"/run-1.json "$PZ_WORK"/run-2.json <<'PY' || pz_fail "the JSON prediction's I/O and one-sided figures are not as expected"
import json, sys
both = json.load(open(sys.argv[1]))
recorded = both["recorded"]["intervals"]
names = [p["machine"]["name"] for p in both["predictions"]]
assert names == ["gigabit-switch", "slow-io"], names
assert both["predictions"][1]["machine"]["io_scale"] == 2, both["predictions"][1]["machine"]
for p, scale, alone in zip(both["predictions"], (1, 2), sys.argv[2:]):
    ivs = p["report"]["intervals"]
    assert [iv["id"] for iv in ivs] == [iv["id"] for iv in recorded] == [0, 1, 2], ivs
    for iv, rec in zip(ivs, recorded):
        # the JSON's 9 significant digits round each side by up to half a unit of the
        # ninth: the doubled time agrees to 1e-8 of itself, a missing io_scale by 50%
        doubled = scale * rec["main"]["io_time"]
        assert abs(iv["main"]["io_time"] - doubled) <= 1e-8 * doubled, (p["machine"], iv, rec)
    # the prediction on the machine alone is the same
    same = json.load(open(alone))["predictions"][0]["report"]["intervals"]
    for iv, one in zip(ivs, same):
        for key in ("execution_time", "io_time", "rma_time"):
            assert iv["main"][key] == one["main"][key], (key, iv, one)
for ivs in [recorded] + [p["report"]["intervals"] for p in both["predictions"]]:
    assert ivs[1]["main"]["io_time"] > 0 and ivs[2]["main"]["rma_time"] > 0, ivs
    assert ivs[0]["main"]["rma_bytes_put"] == ivs[2]["main"]["rma_bytes_put"] == 16, ivs
    assert ivs[0]["main"]["io_bytes_written"] == ivs[1]["main"]["io_bytes_written"] == 32, ivs
PY
# each I/O record without its time, a location's in their order
io_records() {
    "$OTF2_PRINT" "$1" | awk '$1 ~ /^IO_/ { $3 = ""; print }' | sort -s -k2,2n
}
for predicted in "$PZ_WORK"/predicted-*/*/traces.otf2; do
    pz_expect_eq "the I/O records of $predicted" \
        "$(io_records "$PZ_WORK/io_rma/traces.otf2")" "$(io_records "$predicted")"
done

cd "$pz_browser_dir" || exit 1
for browser in $(pz_browsers); do
    timeout "$PZ_TIMEOUT" node io_rma_machines.js "$browser" "$(pz_artifacts "$browser")" \
        "$PZ_WORK/machines.html" "$PZ_WORK/machines.json" "$PZ_WORK"/run-0.json \
        "$PZ_WORK"/run-1.json "$PZ_WORK"/run-2.json ||
        pz_fail "the page of io_rma on two machines does not behave in ${browser%%:*} (above)"
done
