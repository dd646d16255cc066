# The HTML page of a prediction on several machines in headless chromium, and
# firefox-esr when present (browser/machines.js; browser/lib.sh, nothing downloaded):
# programs/intervals recorded on 2 processes, predicted on two shipped machines with
# their predicted traces kept.  The page must load without a console error, show for
# every interval the recorded run's and each machine's values as `prognoz predict
# --format json` gives them, in the tree's columns and beside the details, and the
# selector of the run shown must change the timeline and the per-process chart.
. "$PZ_TOP_SRCDIR/tests/integration/lib.sh"

. "$PZ_TOP_SRCDIR/tests/browser/lib.sh"
intervals=$(pz_program intervals) || exit 77

pz_record_ok intervals 2 "$intervals"
for format in html json; do
    "$PZ_PROGNOZ" predict "$PZ_WORK/intervals" --machine gigabit-switch \
        --machine ethernet-100-hub --format $format -o "$PZ_WORK/machines.$format" \
        --trace-out "$PZ_WORK/predicted-$format" --quiet 2>"$PZ_WORK/machines.$format.err" ||
        pz_fail "predict --format $format on two machines: $(cat "$PZ_WORK/machines.$format.err")"
done

cd "$pz_browser_dir" || exit 1
for browser in $(pz_browsers); do
    timeout "$PZ_TIMEOUT" node machines.js "$browser" "$(pz_artifacts "$browser")" \
        "$PZ_WORK/machines.html" "$PZ_WORK/machines.json" ||
        pz_fail "the page of two machines does not behave in ${browser%%:*} (above)"
done
