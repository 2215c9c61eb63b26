// `npm run docs:attributes`: writes the <gpu-flock> attribute table into README.md from the
// schemas (src/element/readme-table.ts, loaded through Vite's module runner: it is TypeScript).
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runnerImport } from 'vite';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { module } = await runnerImport(join(root, 'src/element/readme-table.ts'), {
  root,
  configFile: false,
  logLevel: 'error',
});
const file = join(root, 'README.md');
const before = readFileSync(file, 'utf8');
const after = module.withAttributeTable(before);
if (after !== before) writeFileSync(file, after);
console.log(
  after === before
    ? 'README.md: attribute table up to date'
    : 'README.md: attribute table rewritten',
);
