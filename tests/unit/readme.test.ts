// The README is for users: every link stays inside the repository (a clone has nothing beside
// it), it names no issue or session of the project's work log, and every snippet marked
// `<!-- snippet: FILE -->` is, as is, in the example that builds and runs it (tests/e2e/examples).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { describe, expect, test } from 'vitest';

const root = join(import.meta.dirname, '../..');
const read = (f: string) => readFileSync(join(root, f), 'utf8');
const readme = read('README.md');

/** Markdown link and image targets of `md`, fenced code left out. */
export function linkTargets(md: string): string[] {
  const prose = md.replace(/```[\s\S]*?```/g, '');
  return [...prose.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!);
}

/** Each `<!-- snippet: FILE -->` and the fenced block right after it. */
export function snippets(md: string): { file: string; lang: string; code: string }[] {
  return [...md.matchAll(/<!-- snippet: (\S+) -->\s*```(\w+)\n([\s\S]*?)```/g)].map((m) => ({
    file: m[1]!,
    lang: m[2]!,
    code: m[3]!,
  }));
}

/** Where a relative link of file `from` points, relative to the repository root. */
function resolveLink(from: string, target: string): string {
  const path = decodeURIComponent(target.split('#')[0]!);
  return normalize(join(dirname(from), path));
}

/**
 * The files a fresh clone has: git's tracked files (and those added but not committed yet),
 * or, in a copy without git, the files on disk outside node_modules and the build outputs.
 */
function cloneFiles(): Set<string> {
  try {
    const out = execFileSync('git', ['ls-files', '-z', '--cached'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const files = out.split('\0').filter((f) => f !== '' && existsSync(join(root, f)));
    if (files.length > 0) return new Set(files);
  } catch {
    // no git here (an unpacked archive): fall through
  }
  const files = new Set<string>();
  const skip = /^(node_modules|dist|dist-demo|\.git|\.pack|\.vitest-attachments)$/;
  const walk = (dir: string) => {
    for (const e of readdirSync(join(root, dir), { withFileTypes: true })) {
      const p = dir ? `${dir}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (!skip.test(e.name)) walk(p);
      } else files.add(p);
    }
  };
  walk('');
  return files;
}

/** GitHub's anchors of the headings of `md` (lower case, punctuation dropped, repeats numbered). */
export function headingAnchors(md: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const m of md.replace(/```[\s\S]*?```/g, '').matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const base = m[1]!
      .replace(/<[^>]+>/g, '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** The Markdown files whose links are checked: README.md, docs/ (the API reference too), examples' READMEs. */
function markdownFiles(files: Set<string>): string[] {
  return [...files]
    .filter(
      (f) =>
        f === 'README.md' ||
        /^docs\/[^/]+\.md$/.test(f) ||
        /^docs\/api\/.+\.md$/.test(f) ||
        /^examples\/[^/]+\/README\.md$/.test(f),
    )
    .sort();
}

describe('README and docs links', () => {
  const files = cloneFiles();
  const dirs = new Set<string>();
  for (const f of files) for (let d = dirname(f); d !== '.'; d = dirname(d)) dirs.add(d);

  test('the checked Markdown files include README.md, every docs/*.md and the API reference', () => {
    const md = markdownFiles(files);
    expect(md).toContain('README.md');
    expect(md).toContain('docs/guide.md');
    expect(md).toContain('docs/api/README.md');
    expect(md).toContain('docs/api/index/classes/Flock.md');
  });

  test('every relative link in README.md and docs/ resolves to a file of a fresh clone (and its #anchor to a heading)', () => {
    const bad: string[] = [];
    let checked = 0;
    for (const file of markdownFiles(files)) {
      const md = read(file);
      for (const t of linkTargets(md)) {
        if (/^(https?:|mailto:)/.test(t)) continue;
        checked++;
        const [path, anchor] = t.split('#') as [string, string | undefined];
        const to = path === '' ? file : resolveLink(file, t).split(sep).join('/');
        const inside = !relative(root, join(root, to)).startsWith('..') && !to.startsWith('/');
        if (!inside) {
          bad.push(`${file}: ${t} (outside the repository)`);
        } else if (!files.has(to) && !dirs.has(to.replace(/\/$/, ''))) {
          bad.push(`${file}: ${t} (not a file of a fresh clone)`);
        } else if (anchor && to.endsWith('.md') && !headingAnchors(read(to)).has(anchor)) {
          bad.push(`${file}: ${t} (no heading #${anchor} in ${to})`);
        }
      }
    }
    expect(bad).toEqual([]);
    expect(checked).toBeGreaterThan(100);
  });

  test('every examples/ folder has a README (install from the tarball, open it), and the Layout lists it', () => {
    const examples = readdirSync(join(root, 'examples'), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    expect(examples.length).toBeGreaterThanOrEqual(8);
    const layout = /## Layout\n\n```\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    const problems: string[] = [];
    for (const name of examples) {
      if (!files.has(`examples/${name}/README.md`)) {
        problems.push(`examples/${name}: no README.md`);
        continue;
      }
      const text = read(`examples/${name}/README.md`);
      if (!/## Install/.test(text) || !text.includes('npm run examples:pack'))
        problems.push(
          `examples/${name}/README.md: no install section naming npm run examples:pack`,
        );
      if (!/## Open it/.test(text)) problems.push(`examples/${name}/README.md: no Open it section`);
      const pkg = JSON.parse(read(`examples/${name}/package.json`)) as {
        dependencies?: Record<string, string>;
      };
      // Installs without the registry: the tarball `npm run examples:pack` writes.
      if (pkg.dependencies?.['gpu-flock'] !== 'file:../../.pack/frameworks/gpu-flock.tgz')
        problems.push(
          `examples/${name}/package.json: gpu-flock is ${pkg.dependencies?.['gpu-flock']}`,
        );
      if (!new RegExp(`^\\s+${name}/`, 'm').test(layout))
        problems.push(`README Layout: no line for examples/${name}`);
    }
    expect(problems).toEqual([]);
  });

  test('README names no path outside the repository, in links or in prose', () => {
    expect(readme).not.toMatch(/\.\.\/shared|\/work\/|file:\/\//);
    expect(readme).not.toMatch(/DESIGN\.md|GPU\.md/);
  });

  test('README names no issue or session of the work log', () => {
    const hits = readme.match(/\b(issues?|sessions?)\s*#?\d+|#\d+\b|\bsession\b/gi) ?? [];
    expect(hits).toEqual([]);
  });

  test('the API links point into the committed reference (docs/api)', () => {
    const api = linkTargets(readme).filter((t) => t.startsWith('docs/api/'));
    expect(api.length).toBeGreaterThan(30);
    for (const m of ['render', 'stop', 'timings', 'deviceinfo', 'time', 'step', 'dispose'])
      expect(api).toContain(`docs/api/index/classes/Flock.md#${m}`);
  });
});

describe('README snippets are pasted, as is, into the examples', () => {
  const found = snippets(readme);

  test('the bundler snippet and the one-line embed are marked', () => {
    expect(found.map((s) => s.file)).toEqual(
      expect.arrayContaining(['examples/vite-app/src/flock.ts', 'examples/plain-html/index.html']),
    );
  });

  for (const s of found) {
    test(`${s.file} holds the README's ${s.lang} snippet`, () => {
      const file = read(s.file);
      if (s.lang === 'ts') {
        // The whole file: the snippet is what a new create-vite app's src/main.ts becomes.
        expect(file).toBe(s.code);
      } else {
        // HTML: the same markup, however the example's formatter wrapped its lines.
        const flat = (x: string) => x.replace(/\s+/g, ' ').replace(/\s*>/g, '>').trim();
        expect(flat(file)).toContain(flat(s.code));
      }
    });
  }
});
