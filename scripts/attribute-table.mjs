// `npm run docs:attributes`: writes the <gpu-flock> attribute table into README.md and the
// attribute types of the framework declarations into src/element/attribute-types.gen.ts, both
// from the schemas (src/element/readme-table.ts and attribute-types.ts, loaded through Vite's
// module runner: they are TypeScript).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
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

const types = await runnerImport(join(root, 'src/element/attribute-types.ts'), {
  root,
  configFile: false,
  logLevel: 'error',
});
const typesFile = join(root, types.module.ATTRIBUTE_TYPES_FILE);
const typesBefore = existsSync(typesFile) ? readFileSync(typesFile, 'utf8') : '';
const typesAfter = await prettier.format(types.module.attributeTypesSource(), {
  ...(await prettier.resolveConfig(typesFile)),
  filepath: typesFile,
});
if (typesAfter !== typesBefore) writeFileSync(typesFile, typesAfter);
console.log(
  `${types.module.ATTRIBUTE_TYPES_FILE}: ${typesAfter === typesBefore ? 'up to date' : 'rewritten'}`,
);
