// `npm run docs:check` (part of `npm test`): TypeDoc converts the public API (typedoc.json: the
// `gpu-flock` and `gpu-flock/element` entries) without writing anything, and fails when a public
// export or member has no docstring (validation.notDocumented, warnings as errors) or a {@link}
// is broken; then every README link into the generated reference (docs/api/...#member) must name
// a reflection that exists. `npm run docs` writes the HTML.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Application, TSConfigReader, TypeDocReader } from 'typedoc';

const root = join(import.meta.dirname, '..');
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

// README links such as docs/api/classes/index.Flock.html#render: module "index", "Flock", "render".
const readme = readFileSync(join(root, 'README.md'), 'utf8');
for (const m of readme.matchAll(/\]\((docs\/api\/[^)\s]+)\)/g)) {
  const link = m[1];
  const page =
    /^docs\/api\/(classes|interfaces|functions|variables|types)\/(\w+)\.(\w+)\.html(?:#(\w+))?$/.exec(
      link,
    );
  if (!page) {
    problems.push(`README: ${link} is not a reference page this check knows`);
    continue;
  }
  const [, , mod, name, anchor] = page;
  const target = project.getChildByName([mod, name]);
  if (!target) {
    problems.push(`README: ${link}: no ${name} in ${mod}`);
    continue;
  }
  if (anchor && !target.children?.some((c) => c.name.toLowerCase() === anchor))
    problems.push(`README: ${link}: ${name} has no member "${anchor}"`);
}
if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log('docs:check: every public export documented; README reference links resolve');
