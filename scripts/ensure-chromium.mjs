// Makes sure a Chromium exists for the browser tests and benchmarks (scripts/chromium.mjs looks in
// $CHROME_PATH, the system's standard paths, then Playwright's own download). Where none is found
// and apt-get can be used as root, installs Debian's chromium; otherwise exits with one line that
// says what to install: a system Chromium, or Playwright's (`npx playwright install chromium`).
import { execSync } from 'node:child_process';
import { findChromium } from './chromium.mjs';

let found = findChromium();
if (!found && !process.env.CHROME_PATH) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  let hasApt = false;
  try {
    execSync('command -v apt-get', { stdio: 'ignore' });
    hasApt = true;
  } catch {
    hasApt = false;
  }
  if (isRoot && hasApt) {
    console.log('ensure-chromium: no Chromium found; installing Debian chromium with apt-get');
    execSync(
      'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium',
      {
        stdio: 'inherit',
        shell: '/bin/bash',
      },
    );
    found = findChromium();
  }
}
if (!found) {
  console.error(
    process.env.CHROME_PATH
      ? `ensure-chromium: CHROME_PATH is ${process.env.CHROME_PATH}, which does not exist`
      : 'ensure-chromium: no Chromium found: run `npx playwright install chromium` (Playwright downloads its own), install one (Debian: apt-get install chromium), or set CHROME_PATH to its binary',
  );
  process.exit(1);
}
