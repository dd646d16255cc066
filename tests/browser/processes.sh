# The HTML report of 4096 processes in headless chromium, and firefox-esr when present
# (browser/processes.js; browser/lib.sh, nothing downloaded): a synthetic trace of
# bench/gentrace, its page with the default size limit (every process's values, every
# call) and with a limit of 256 KiB (the processes' values in groups, no timeline).
# Each page must open without a console error within 60 s, and its per-process chart
# must be aggregated to what its canvas can show: at most one bar per pixel column,
# each of at most six parts, however many processes.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

. "$PZ_TOP_SRCDIR/tests/browser/lib.sh"
${MAKE:-make} -s -C "$PZ_TOP_BUILDDIR" bench/gentrace >/dev/null ||
    pz_fail "cannot build bench/gentrace"

"$PZ_TOP_BUILDDIR/bench/gentrace" "$PZ_WORK/p4096" --ranks 4096 --iterations 1 >/dev/null ||
    pz_fail "bench/gentrace of 4096 ranks"
"$PZ_PROGNOZ" report "$PZ_WORK/p4096" --format html -o "$PZ_WORK/p4096.html" ||
    pz_fail "report --format html of 4096 processes"
PROGNOZ_HTML_LIMIT=256k "$PZ_PROGNOZ" report "$PZ_WORK/p4096" --format html \
    -o "$PZ_WORK/p4096-grouped.html" ||
    pz_fail "report --format html of 4096 processes in 256 KiB"

cd "$pz_browser_dir" || exit 1
for browser in $(pz_browsers); do
    timeout "$PZ_TIMEOUT" node processes.js "$browser" "$(pz_artifacts "$browser")" 4096 \
        "$PZ_WORK/p4096.html" "$PZ_WORK/p4096-grouped.html" ||
        pz_fail "the pages of 4096 processes do not behave in ${browser%%:*} (above)"
done
