# The interactive HTML report in headless chromium (browser/report.sh, browser/report.js).
PZ_IT_TESTS += browser/report.sh
EXTRA_DIST += browser/report.js browser/package.json browser/package-lock.json
