import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';

/** The policy the example pages are served under: everything from the page's own origin only. */
export const STRICT_CSP = "default-src 'self'";

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.png': 'image/png',
};

/** Where serveStatic takes CSP violation reports (`report-uri /__csp-report`) when asked to. */
export const CSP_REPORT_PATH = '/__csp-report';

export interface StaticServer {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  url: string;
  /** Stops listening and drops open connections; resolves once the server is closed. */
  close: () => Promise<void>;
}

/**
 * A static file server for the folder `dir` on 127.0.0.1 (a free port), for the e2e tests that
 * load built pages the way a user's server would. Every answer (403 and 404 too) carries `csp`
 * as its Content-Security-Policy, and `cache-control: no-store`. A path outside `dir` is 403. A
 * folder serves its index.html and a missing file is 404; with `spa`, a folder or a missing file
 * serves `dir`/index.html instead (a single-page app's build, such as Vite's). With `onReport`,
 * a POST to {@link CSP_REPORT_PATH} (name it in the policy's `report-uri`) hands its body, the
 * browser's JSON violation report, to `onReport` and answers 204.
 */
export function serveStatic(
  dir: string,
  {
    csp = STRICT_CSP,
    spa = false,
    onReport,
  }: { csp?: string; spa?: boolean; onReport?: (report: string) => void } = {},
): Promise<StaticServer> {
  const root = resolve(dir);
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    let file = normalize(join(root, path));
    const headers = { 'content-security-policy': csp, 'cache-control': 'no-store' };
    if (onReport && req.method === 'POST' && path === CSP_REPORT_PATH) {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        onReport(body);
        res.writeHead(204, headers).end();
      });
      return;
    }
    if (!file.startsWith(root + sep) && file !== root) {
      res.writeHead(403, headers).end();
      return;
    }
    const isDir = existsSync(file) && statSync(file).isDirectory();
    if (spa) {
      if (isDir || !existsSync(file)) file = join(root, 'index.html');
    } else if (isDir) file = join(file, 'index.html');
    if (!existsSync(file)) {
      res.writeHead(404, { ...headers, 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, {
      ...headers,
      'content-type': MIME[extname(file)] ?? 'application/octet-stream',
    });
    res.end(readFileSync(file));
  });
  const close = () =>
    new Promise<void>((done) => {
      server.close(() => done());
      server.closeAllConnections();
    });
  return new Promise((done) => {
    server.listen(0, '127.0.0.1', () => {
      const addr = server.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      done({ url: `http://127.0.0.1:${port}`, close });
    });
  });
}
