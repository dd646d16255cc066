/* The browsers the tests drive (tests/browser/lib.sh lists those present): a browser is
 * given as NAME:EXECUTABLE, NAME chromium (over the DevTools protocol) or firefox
 * (Debian's firefox-esr, over WebDriver BiDi).  Both are the system's: puppeteer-core
 * downloads nothing. */
'use strict';
const puppeteer = require('puppeteer-core');

const OPTIONS = {
    chromium: { args: ['--no-sandbox', '--disable-gpu', '--allow-file-access-from-files'] },
    firefox: { browser: 'firefox' },
};

/* The browser of spec NAME:EXECUTABLE, launched headless; its name in .name. */
async function launch(spec) {
    const colon = spec.indexOf(':'), name = spec.slice(0, colon);
    if (colon < 0 || !OPTIONS[name])
        throw new Error('unknown browser ' + JSON.stringify(spec) + ' (chromium:PATH or firefox:PATH)');
    const browser = await puppeteer.launch(Object.assign(
        { executablePath: spec.slice(colon + 1), headless: true }, OPTIONS[name]));
    browser.name = name;
    return browser;
}

module.exports = { launch };
