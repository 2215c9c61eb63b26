// scripts/chromium.mjs: where `npm test` looks for Chromium, in order: $CHROME_PATH, the system's
// standard paths (Linux packages, macOS apps, Windows installs), then Playwright's own download
// where that file exists (issue 30 item 7). A fake file system and a fake Playwright path stand in
// for the machine.
import { describe, expect, test } from 'vitest';
import { findChromium, systemChromiumPaths } from '../../scripts/chromium.mjs';

const PLAYWRIGHT = '/home/u/.cache/ms-playwright/chromium-1255/chrome-linux64/chrome';

/** findChromium on a machine holding exactly `files`, with Playwright's path `own`. */
function find(
  files: string[],
  { platform = 'linux', env = {}, own = PLAYWRIGHT as string | null } = {},
): string | null {
  const present = new Set(files);
  return findChromium({
    env,
    platform,
    exists: (p) => present.has(p),
    playwrightPath: () => own,
  });
}

describe('findChromium', () => {
  test('$CHROME_PATH wins when it exists, and is never silently replaced when it does not', () => {
    const files = ['/opt/c/chrome', '/usr/bin/chromium', PLAYWRIGHT];
    expect(find(files, { env: { CHROME_PATH: '/opt/c/chrome' } })).toBe('/opt/c/chrome');
    expect(find(files, { env: { CHROME_PATH: '/opt/missing' } })).toBeNull();
  });

  test('Linux: chromium, then chromium-browser, then google-chrome, then Playwright', () => {
    const all = [
      '/usr/bin/chromium',
      '/usr/bin/chromium-browser',
      '/usr/bin/google-chrome',
      PLAYWRIGHT,
    ];
    expect(find(all)).toBe('/usr/bin/chromium');
    expect(find(all.slice(1))).toBe('/usr/bin/chromium-browser');
    expect(find(all.slice(2))).toBe('/usr/bin/google-chrome');
    expect(find(['/usr/bin/google-chrome-stable', PLAYWRIGHT])).toBe(
      '/usr/bin/google-chrome-stable',
    );
    expect(find([PLAYWRIGHT])).toBe(PLAYWRIGHT);
  });

  test("Playwright's path counts only where its file exists; none at all gives null", () => {
    expect(find([])).toBeNull();
    expect(find([], { own: null })).toBeNull();
    expect(find(['/usr/bin/chromium'], { own: null })).toBe('/usr/bin/chromium');
  });

  test('macOS: Chromium.app, then Google Chrome.app, then Playwright', () => {
    const chromiumApp = '/Applications/Chromium.app/Contents/MacOS/Chromium';
    const chromeApp = '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome';
    const own = '/Users/u/Library/Caches/ms-playwright/chromium-1255/chrome-mac/Chromium.app';
    expect(find([chromiumApp, chromeApp, own], { platform: 'darwin', own })).toBe(chromiumApp);
    expect(find([chromeApp, own], { platform: 'darwin', own })).toBe(chromeApp);
    expect(find([own], { platform: 'darwin', own })).toBe(own);
    // A Linux path means nothing on macOS.
    expect(find(['/usr/bin/chromium'], { platform: 'darwin', own: null })).toBeNull();
  });

  test('Windows: Program Files, Program Files (x86), then the user install, then Playwright', () => {
    const env = {
      PROGRAMFILES: 'C:\\Program Files',
      'PROGRAMFILES(X86)': 'C:\\Program Files (x86)',
      LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local',
    };
    const x86 = 'C:\\Program Files (x86)\\Google\\Chrome\\Application\\chrome.exe';
    const user = 'C:\\Users\\u\\AppData\\Local\\Google\\Chrome\\Application\\chrome.exe';
    const own =
      'C:\\Users\\u\\AppData\\Local\\ms-playwright\\chromium-1255\\chrome-win\\chrome.exe';
    expect(find([user, x86, own], { platform: 'win32', env, own })).toBe(x86);
    expect(find([user, own], { platform: 'win32', env, own })).toBe(user);
    expect(find([own], { platform: 'win32', env, own })).toBe(own);
    expect(systemChromiumPaths('win32', env)).toEqual([
      'C:\\Program Files\\Chromium\\Application\\chrome.exe',
      'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
      'C:\\Program Files (x86)\\Chromium\\Application\\chrome.exe',
      x86,
      'C:\\Users\\u\\AppData\\Local\\Chromium\\Application\\chrome.exe',
      user,
    ]);
    // An unset folder variable adds no path.
    expect(systemChromiumPaths('win32', { LOCALAPPDATA: env.LOCALAPPDATA })).toEqual([
      'C:\\Users\\u\\AppData\\Local\\Chromium\\Application\\chrome.exe',
      user,
    ]);
  });

  test('this machine: the real lookup finds a file that exists', async () => {
    const { existsSync } = await import('node:fs');
    const found = findChromium();
    if (found !== null) expect(existsSync(found)).toBe(true);
  });
});
