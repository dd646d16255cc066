# MPI-IO and one-sided time on the HTML report in a real browser (browser/io_rma.js;
# browser/lib.sh: chromium, and firefox-esr when present): programs/io_rma on 2
# processes writes 16 bytes per rank with MPI_File_write_all in interval 1 and puts 8
# bytes per rank in a fence epoch in interval 2.  The JSON report's figures are checked
# by hand first: the whole run and interval 1 wrote 2 x 16 = 32 bytes, the whole run and
# interval 2 put 2 x 8 = 16, nothing was read or got; then the page must show them as
# the JSON report gives them, in its interactive views (the per-process chart and the
# timeline drawing I/O and one-sided time and calls in colours of their own) and in its
# tables.  The page of a synthetic run of bench/gentrace, without such calls, must have
# none of these colours.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

. "$PZ_TOP_SRCDIR/tests/browser/lib.sh"
prog=$(pz_program io_rma) || exit 77
pz_record_ok io_rma 2 "$prog" "$PZ_WORK/io_rma.dat"
test -e "$PZ_WORK/io_rma.dat" && pz_fail "io_rma: the program did not delete its file"
"$PZ_PROGNOZ" report "$PZ_WORK/io_rma" --per-process --format html -o "$PZ_WORK/io_rma.html" ||
    pz_fail "io_rma: report --format html"
"$PZ_PROGNOZ" report "$PZ_WORK/io_rma" --per-process --format json -o "$PZ_WORK/io_rma.json" ||
    pz_fail "io_rma: report --format json"
"${PZ_PYTHON:-python3}" - "$PZ_WORK/io_rma.json" <<'PY' || pz_fail "io_rma: the JSON report's I/O and one-sided figures are not as expected"
import json, sys
ivs = json.load(open(sys.argv[1]))["intervals"]
assert [iv["id"] for iv in ivs[1:]] == [1, 2], ivs
# (read, written, put, got) of the whole run, interval 1, interval 2; per process, half
expected = [(0, 32, 16, 0), (0, 32, 0, 0), (0, 0, 16, 0)]
for iv, e in zip(ivs, expected):
    m = iv["main"]
    assert (m["io_bytes_read"], m["io_bytes_written"], m["rma_bytes_put"], m["rma_bytes_got"]) == e, m
    for p in iv["per_process"]:
        v = p["values"]
        assert (v["io_bytes_read"], v["io_bytes_written"], v["rma_bytes_put"], v["rma_bytes_got"]) == tuple(x / 2 for x in e), v
assert 0 < ivs[1]["main"]["io_time"] <= ivs[1]["main"]["mpi_time"], ivs[1]["main"]
assert 0 < ivs[2]["main"]["rma_time"] <= ivs[2]["main"]["mpi_time"], ivs[2]["main"]
PY

${MAKE:-make} -s -C "$PZ_TOP_BUILDDIR" bench/gentrace >/dev/null ||
    pz_fail "cannot build bench/gentrace"
"$PZ_TOP_BUILDDIR/bench/gentrace" "$PZ_WORK/plain" --ranks 4 --iterations 1 >/dev/null ||
    pz_fail "bench/gentrace of 4 ranks"
"$PZ_PROGNOZ" report "$PZ_WORK/plain" --format html -o "$PZ_WORK/plain.html" ||
    pz_fail "report --format html of the run without I/O"

cd "$pz_browser_dir" || exit 1
for browser in $(pz_browsers); do
    timeout "$PZ_TIMEOUT" node io_rma.js "$browser" "$(pz_artifacts "$browser")" \
        "$PZ_WORK/io_rma.html" "$PZ_WORK/io_rma.json" "$PZ_WORK/plain.html" ||
        pz_fail "the page of io_rma does not behave in ${browser%%:*} (above)"
done
