import { spawn, type ChildProcess } from 'node:child_process';

/** Where Debian's `xvfb` package puts the X server. */
export const XVFB = '/usr/bin/Xvfb';

/**
 * Starts a private Xvfb (1280x1024, 24-bit, no TCP) on a free display, for the browsers that need
 * a display to give WebGL2 (Firefox ESR, WebKitGTK's MiniBrowser: ../shared/BROWSER.md). Xvfb
 * picks the display and writes its number to fd 3 (`-displayfd`) once it accepts clients.
 * @returns the process (kill it when done) and the display, e.g. ':1'.
 * @throws Error (rejects) when Xvfb exits before it is ready, with its stderr.
 */
export function startXvfb(): Promise<{ proc: ChildProcess; display: string }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(
      XVFB,
      ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'],
      { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] },
    );
    let err = '';
    proc.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    proc.once('exit', (code) => reject(new Error(`Xvfb exited (${code}): ${err}`)));
    let out = '';
    (proc.stdio[3] as NodeJS.ReadableStream).on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve({ proc, display: `:${out.trim()}` });
    });
  });
}
