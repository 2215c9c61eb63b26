// scripts/ensure-deps.mjs: `npm start` and `npm test` install the dependencies first when
// node_modules is missing or does not match package-lock.json (the README's two commands in a
// fresh clone), and leave a matching install alone.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { staleReason } from '../../scripts/ensure-deps.mjs';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function project(installed: Record<string, string> | null): string {
  const dir = mkdtempSync(join(tmpdir(), 'gpu-flock-deps-'));
  dirs.push(dir);
  const json = (f: string, v: unknown) => writeFileSync(join(dir, f), JSON.stringify(v));
  json('package.json', {
    dependencies: { 'gl-matrix': '^3.4.4' },
    devDependencies: { vite: '8.3.8' },
  });
  json('package-lock.json', {
    packages: {
      'node_modules/gl-matrix': { version: '3.4.4' },
      'node_modules/vite': { version: '8.3.8' },
    },
  });
  if (installed) {
    for (const [name, version] of Object.entries(installed)) {
      mkdirSync(join(dir, 'node_modules', name), { recursive: true });
      json(`node_modules/${name}/package.json`, { name, version });
    }
  }
  return dir;
}

describe('ensure-deps', () => {
  test('a fresh clone: node_modules is missing', () => {
    expect(staleReason(project(null))).toBe('node_modules is missing');
  });

  test('a package missing or at another version than the lockfile pins', () => {
    expect(staleReason(project({ 'gl-matrix': '3.4.4' }))).toBe('vite is not installed');
    expect(staleReason(project({ 'gl-matrix': '3.4.4', vite: '8.3.7' }))).toBe(
      'vite is 8.3.7, package-lock.json pins 8.3.8',
    );
  });

  test('an install that matches: nothing to do', () => {
    expect(staleReason(project({ 'gl-matrix': '3.4.4', vite: '8.3.8' }))).toBeNull();
  });
});
