/**
 * The one Chromium launch of the end-to-end tests: the system Chromium that scripts/chromium.mjs
 * finds, headless with the project's flags (CHROMIUM_ARGS: SwiftShader WebGL2 and WebGPU), in a
 * persistent context whose fresh profile folder (under the OS temporary folder) is removed on
 * close. Used only in the e2e project (it runs in Node).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { findChromium, CHROMIUM_ARGS } from '../../scripts/chromium.mjs';

/** The system Chromium's executable, or null where there is none (the e2e files skip then). */
export const chromiumPath: string | null = findChromium();

/** A launched Chromium: its one persistent context, and how to close it and remove its profile. */
export interface LaunchedChromium {
  readonly context: BrowserContext;
  /** Closes the context (the browser with it) and removes the profile folder. */
  close(): Promise<void>;
}

/**
 * Launches the system Chromium in a fresh profile `gpu-flock-<name>-XXXXXX` with a page
 * viewport of `viewport` CSS pixels, with the project's flags and then `extraArgs`.
 * @throws Error when no Chromium is installed (check `chromiumPath` first), or Playwright's
 *   launch error (the profile folder is removed then).
 */
export async function launchChromium(
  name: string,
  viewport: { width: number; height: number },
  extraArgs: readonly string[] = [],
): Promise<LaunchedChromium> {
  if (!chromiumPath) throw new Error('no system Chromium (scripts/chromium.mjs found none)');
  const profile = mkdtempSync(join(tmpdir(), `gpu-flock-${name}-`));
  const removeProfile = () => rmSync(profile, { recursive: true, force: true });
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: chromiumPath,
      headless: true,
      args: [...CHROMIUM_ARGS, ...extraArgs],
      viewport,
    });
  } catch (e) {
    removeProfile();
    throw e;
  }
  return {
    context,
    close: async () => {
      try {
        await context.close();
      } finally {
        removeProfile();
      }
    },
  };
}

/**
 * Launches the system Chromium as a plain browser (no persistent profile), headless with the
 * project's flags, for a test that makes its own contexts (a phone's viewport, a strict CSP).
 * @throws Error when no Chromium is installed, or Playwright's launch error.
 */
export function launchBrowser(): Promise<Browser> {
  if (!chromiumPath) throw new Error('no system Chromium (scripts/chromium.mjs found none)');
  return chromium.launch({ executablePath: chromiumPath, headless: true, args: CHROMIUM_ARGS });
}
