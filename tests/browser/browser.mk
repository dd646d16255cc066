# The interactive HTML report in headless chromium (browser/report.sh, browser/report.js;
# the page of several machines: browser/machines.sh, browser/machines.js).
PZ_IT_TESTS += browser/report.sh browser/machines.sh
EXTRA_DIST += browser/report.js browser/machines.js browser/package.json \
	browser/package-lock.json
