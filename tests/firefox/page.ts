// ?file=/tests/browser/x.test.ts&grep=REGEX: imports the file (its tests register with the shim),
// runs those whose full name matches, and leaves the results on window.__testResults.
import { run, type CaseResult } from './vitest-shim';

declare global {
  interface Window {
    __testResults?: { results: CaseResult[] } | { error: string };
  }
}

const q = new URLSearchParams(location.search);
const file = q.get('file') ?? '';
const grep = new RegExp(q.get('grep') ?? '.*');
try {
  await import(/* @vite-ignore */ file);
  const results = await run(grep);
  window.__testResults = { results };
} catch (e) {
  window.__testResults = { error: e instanceof Error ? `${e.message}\n${e.stack}` : String(e) };
}
