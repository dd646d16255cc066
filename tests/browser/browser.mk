# The interactive HTML report in headless chromium, and firefox-esr when present
# (browser/lib.sh, browser/launch.js): browser/report.sh, browser/report.js; the page of
# several machines: browser/machines.sh, browser/machines.js; of 4096 processes:
# browser/processes.sh, browser/processes.js.
PZ_IT_TESTS += browser/report.sh browser/machines.sh browser/processes.sh
EXTRA_DIST += browser/lib.sh browser/launch.js browser/report.js browser/machines.js \
	browser/processes.js browser/package.json browser/package-lock.json
