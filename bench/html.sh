#!/bin/sh
# make bench, last part: the interactive HTML report of a synthetic 10^6-event trace,
# how long prognoz takes to write it against the JSON report of the same trace, and how
# long headless chromium takes to open it and draw its timeline (bench/README.md, "The
# HTML report").  Targets: under 2 times the JSON report; open in under 3 s.
#
# Usage: html.sh BUILDDIR        (make bench passes it, after building bench/gentrace)
# Environment:
#   PROGNOZ_BENCH_HTML_ITERATIONS  iterations of the trace (default 977: 64 ranks,
#                                  1,000,704 events)
#   PROGNOZ_BENCH_HTML_REPS        runs of each measure (default 3); the figures are
#                                  medians, [min-max] after them
#   PZ_CHROMIUM                    the browser (default /usr/bin/chromium)
#
# The browser's part needs chromium and tests/browser/node_modules (scripts/setup.sh);
# without them it is skipped.  The script fails only when something fails, never
# because a target is missed.
set -u
. "$(dirname "$0")/lib.sh"

if [ $# -ne 1 ]; then
    echo "usage: $0 BUILDDIR" >&2
    exit 2
fi
builddir=$1
top=$(cd "$(dirname "$0")/.." && pwd)
gentrace=$builddir/bench/gentrace
prognoz=$builddir/tools/prognoz
iterations=${PROGNOZ_BENCH_HTML_ITERATIONS:-977}
reps=${PROGNOZ_BENCH_HTML_REPS:-3}
chromium=${PZ_CHROMIUM:-/usr/bin/chromium}
modules=$top/tests/browser/node_modules

for v in "$iterations" "$reps"; do
    case $v in
        '' | *[!0-9]* | 0) fail "'$v' is not a positive number (PROGNOZ_BENCH_HTML_*)" ;;
    esac
done
[ -x "$gentrace" ] && [ -x "$prognoz" ] || fail "$gentrace or $prognoz is missing: run make bench"

work=$(mktemp -d "${TMPDIR:-/tmp}/prognoz-bench-html.XXXXXX") || fail "cannot create a work directory"
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

# spread of the numbers on standard input: [min-max]
spread() {
    sort -g | awk 'NR == 1 { min = $1 } { max = $1 } END { printf "[%s-%s]", min, max }'
}

# seconds COMMAND...: the wall-clock seconds COMMAND took
seconds() {
    start=$(date +%s.%N)
    "$@" || fail "$* failed"
    end=$(date +%s.%N)
    awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f\n", b - a }'
}

echo
echo "The HTML report ($(date -u '+%Y-%m-%d %H:%M UTC'), load average $(load))"
line=$("$gentrace" "$work/trace" --ranks 64 --iterations "$iterations") || fail "gentrace failed"
echo "  trace: $(value events "$line") events of 64 ranks"

: >"$work/json"
: >"$work/html"
: >"$work/ratio"
i=0
while [ $i -lt "$reps" ]; do
    j=$(seconds "$prognoz" report "$work/trace" --format json -o "$work/r.json")
    h=$(seconds "$prognoz" report "$work/trace" --format html -o "$work/r.html")
    echo "$j" >>"$work/json"
    echo "$h" >>"$work/html"
    awk -v a="$h" -v b="$j" 'BEGIN { printf "%.2f\n", a / b }' >>"$work/ratio"
    i=$((i + 1))
done
printf '  report --format json: %s s %s; --format html: %s s %s (%d KB)\n' \
    "$(median <"$work/json")" "$(spread <"$work/json")" "$(median <"$work/html")" \
    "$(spread <"$work/html")" $(($(wc -c <"$work/r.html") / 1024))
printf '  ratio html / json, run by run: %s %s (target < 2)\n' "$(median <"$work/ratio")" \
    "$(spread <"$work/ratio")"

if [ ! -x "$chromium" ] || ! command -v node >/dev/null 2>&1 || [ ! -d "$modules/puppeteer-core" ]; then
    echo "  opening the page: skipped (no chromium, node or $modules)"
    exit 0
fi
: >"$work/open"
i=0
while [ $i -lt "$reps" ]; do
    NODE_PATH=$modules node - "$chromium" "$work/r.html" >>"$work/open" <<'JS' ||
const puppeteer = require('puppeteer-core');
(async () => {
    const [chromium, page] = process.argv.slice(2);
    const browser = await puppeteer.launch({ executablePath: chromium, headless: true,
                                             args: ['--no-sandbox', '--disable-gpu'] });
    const tab = await browser.newPage();
    await tab.setViewport({ width: 1200, height: 900 });
    const start = Date.now();
    await tab.goto('file://' + page, { waitUntil: 'load', timeout: 60000 });
    await tab.waitForFunction(() => window.prognozStats && window.prognozStats.renders >= 2,
                              { timeout: 60000 });
    console.log(((Date.now() - start) / 1000).toFixed(3));
    await browser.close();
})().catch((e) => { console.error(e); process.exit(1); });
JS
        fail "chromium could not open the page"
    i=$((i + 1))
done
mode=$(grep -o '"mode": "[a-z]*"' "$work/r.html" | head -n 1 | cut -d'"' -f4)
printf '  the page (timeline %s) opens and draws in chromium in %s s %s (target < 3)\n' \
    "$mode" "$(median <"$work/open")" "$(spread <"$work/open")"
