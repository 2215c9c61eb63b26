// The README's framework sections show the code of the tested examples verbatim: each example
// file marks what the README copies with `readme:start` / `readme:end` comment lines, and the
// README must hold that text (dedented) as one fenced code block. tests/e2e/frameworks.test.ts
// builds and runs the examples themselves.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';

const root = join(import.meta.dirname, '../..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');

/** The example files whose marked part the README shows, by README section. */
const SNIPPETS: Record<string, string[]> = {
  React: ['examples/react-app/src/Flock.tsx'],
  Vue: ['examples/vue-app/src/components/Flock.vue', 'examples/vue-app/vite.config.ts'],
  Svelte: ['examples/svelte-app/src/lib/Flock.svelte'],
  'Next.js': ['examples/next-app/app/flock.tsx'],
  SvelteKit: ['examples/sveltekit-app/src/routes/+page.svelte'],
};

/** The lines between the markers, with their common indentation removed. */
function markedSnippet(text: string): string {
  const lines = text.split('\n');
  const a = lines.findIndex((l) => l.includes('readme:start'));
  const b = lines.findIndex((l) => l.includes('readme:end'));
  if (a < 0 || b <= a) throw new Error('no readme:start ... readme:end markers');
  const body = lines.slice(a + 1, b);
  const indent = Math.min(
    ...body.filter((l) => l.trim() !== '').map((l) => l.length - l.trimStart().length),
  );
  return body.map((l) => l.slice(indent)).join('\n');
}

/** Every fenced code block of a Markdown text. */
function codeBlocks(md: string): string[] {
  return [...md.matchAll(/^```[\w-]*\n([\s\S]*?)\n```$/gm)].map((m) => m[1]!);
}

describe('README framework sections', () => {
  const blocks = codeBlocks(readme);
  for (const [section, files] of Object.entries(SNIPPETS)) {
    for (const file of files) {
      test(`${section}: the README shows ${file} verbatim`, () => {
        const snippet = markedSnippet(readFileSync(join(root, file), 'utf8'));
        expect(snippet.split('\n').length).toBeGreaterThan(2);
        expect(blocks, `no README code block equals the marked part of ${file}`).toContainEqual(
          snippet,
        );
      });
    }
  }

  test('SvelteKit uses the Svelte example component unchanged', () => {
    expect(readFileSync(join(root, 'examples/sveltekit-app/src/lib/Flock.svelte'), 'utf8')).toBe(
      readFileSync(join(root, 'examples/svelte-app/src/lib/Flock.svelte'), 'utf8'),
    );
  });

  test('the marker lines come out of a snippet, its indentation too', () => {
    expect(markedSnippet('a\n  // readme:start\n    x\n      y\n  // readme:end\nb')).toBe(
      'x\n  y',
    );
    expect(() => markedSnippet('no markers')).toThrow(/markers/);
  });
});
