# What the browser tests share, sourced after tests/integration/lib.sh: the checks that
# skip them, and the browsers to drive, each as NAME:EXECUTABLE for launch.js.
# chromium is required (PZ_CHROMIUM, default /usr/bin/chromium); Debian's firefox-esr
# (PZ_FIREFOX, default /usr/bin/firefox-esr) is driven too when present, over WebDriver
# BiDi, and said skipped otherwise.  scripts/setup.sh installs both and runs npm ci.

pz_browser_dir=$PZ_TOP_SRCDIR/tests/browser
pz_chromium=${PZ_CHROMIUM:-/usr/bin/chromium}
pz_firefox=${PZ_FIREFOX:-/usr/bin/firefox-esr}
test -x "$PZ_PROGNOZ" || pz_skip "the prognoz command '$PZ_PROGNOZ' is not built"
test -x "$pz_chromium" || pz_skip "no chromium at $pz_chromium (scripts/setup.sh installs it)"
command -v node >/dev/null 2>&1 || pz_skip "no node"
test -d "$pz_browser_dir/node_modules/puppeteer-core" ||
    pz_skip "no $pz_browser_dir/node_modules (scripts/setup.sh runs npm ci there)"

# pz_browsers: the browsers to drive, one a line; tells when firefox is left out.
pz_browsers() {
    echo "chromium:$pz_chromium"
    if test -x "$pz_firefox"; then
        echo "firefox:$pz_firefox"
    else
        echo "firefox skipped: no firefox-esr at $pz_firefox (apt-get install firefox-esr, or PZ_FIREFOX)" >&2
    fi
}

# pz_artifacts NAME:EXECUTABLE: where that browser's screenshots go, in the build tree
# where the test started: browser/ for chromium, browser/firefox/ for firefox; created.
pz_artifacts_top=$PWD/browser
pz_artifacts() {
    case $1 in
        chromium:*) _dir=$pz_artifacts_top ;;
        *) _dir=$pz_artifacts_top/${1%%:*} ;;
    esac
    mkdir -p "$_dir" && echo "$_dir"
}
