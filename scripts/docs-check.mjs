// `npm run docs:check` (part of `npm test`): TypeDoc converts the public API (typedoc.json: the
// `gpu-flock` and `gpu-flock/element` entries) and fails when a public export or member has no
// docstring (validation.notDocumented, warnings as errors) or a {@link} is broken; then it renders
// the Markdown reference (typedoc-plugin-markdown) into a temporary folder and fails when the
// committed docs/api/ differs from it (a file added, missing or changed): `npm run docs` writes
// it. Links into docs/api/ (pages and #anchors) are checked by tests/unit/readme.test.ts.
// No git is needed: typedoc.json sets disableSources (no "Defined in" links, which would need
// a remote to point at and would change with every edit of a source line).
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Application, TSConfigReader, TypeDocReader } from 'typedoc';

const root = join(import.meta.dirname, '..');
const committed = join(root, 'docs/api');
const app = await Application.bootstrapWithPlugins({ options: join(root, 'typedoc.json') }, [
  new TypeDocReader(),
  new TSConfigReader(),
]);
const project = await app.convert();
if (!project) {
  console.error('docs:check: TypeDoc could not convert the project');
  process.exit(1);
}
app.validate(project);
const problems = [];
if (app.logger.hasErrors() || app.logger.hasWarnings())
  problems.push('TypeDoc reported the warnings above (a public export without a docstring?)');

/** Every file under `dir`, by path relative to it, with its text. */
function tree(dir) {
  const files = new Map();
  const walk = (d) => {
    let names;
    try {
      names = readdirSync(d);
    } catch {
      return;
    }
    for (const name of names) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else files.set(relative(dir, p).replaceAll('\\', '/'), readFileSync(p, 'utf8'));
    }
  };
  walk(dir);
  return files;
}

const fresh = mkdtempSync(join(tmpdir(), 'gpu-flock-api-'));
try {
  app.options.setValue('out', fresh);
  await app.generateOutputs(project);
  const want = tree(fresh);
  const have = tree(committed);
  const stale = [];
  for (const [f, text] of want) {
    if (!have.has(f)) stale.push(`docs/api/${f} is missing`);
    else if (have.get(f) !== text) stale.push(`docs/api/${f} is out of date`);
  }
  for (const f of have.keys()) if (!want.has(f)) stale.push(`docs/api/${f} is no longer generated`);
  if (want.size === 0) problems.push('TypeDoc wrote no Markdown reference');
  if (stale.length)
    problems.push(
      `${stale.slice(0, 10).join('\n')}${stale.length > 10 ? `\n... ${stale.length - 10} more` : ''}\n` +
        'The API reference in docs/api/ is stale: run `npm run docs` and commit docs/api/.',
    );
} finally {
  rmSync(fresh, { recursive: true, force: true });
}
if (problems.length) {
  console.error(`docs:check:\n${problems.join('\n')}`);
  process.exit(1);
}
console.log('docs:check: every public export documented; docs/api/ matches the sources');
