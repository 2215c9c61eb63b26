// custom-elements.json (at the package root, beside package.json), the Custom Elements Manifest (schema 1.0.0,
// https://github.com/webcomponents/custom-elements-manifest) of <gpu-flock>, which IDEs,
// Storybook and framework tooling read; package.json names it (`customElements`). Written by
// build-lib.mjs from what the build made, as @custom-elements-manifest/analyzer cannot see the
// attributes (observedAttributes is computed from the schemas at run time):
//   attributes  GpuFlockAttributes (dist/types/element/attribute-types.gen.d.ts, generated from
//               the schemas): name, type, description; checked against the built element's
//               observedAttributes, so one missing or extra fails the build
//   members     the public members of GpuFlockElement's declaration (static ones marked)
//   events      GpuFlockEventMap (dist/types/element/events.d.ts): name, event type, description
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

const TAG = 'gpu-flock';

/** The declarations of `file` whose name is `name` (an interface or a class). */
function declaration(file, name) {
  const src = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  let found = null;
  src.forEachChild((n) => {
    if ((ts.isInterfaceDeclaration(n) || ts.isClassDeclaration(n)) && n.name?.text === name)
      found = n;
  });
  if (!found) throw new Error(`custom-elements: no ${name} in ${file}`);
  return { node: found, src };
}

/** The JSDoc text of a node, tags left out, on one line. */
function doc(node) {
  const parts = (node.jsDoc ?? []).map((d) =>
    typeof d.comment === 'string' ? d.comment : (d.comment ?? []).map((c) => c.text).join(''),
  );
  return parts.join(' ').replace(/\s+/g, ' ').trim();
}

const nameOf = (m) =>
  m.name && (ts.isIdentifier(m.name) || ts.isStringLiteral(m.name)) ? m.name.text : null;
const typeText = (m, src) =>
  m.type
    ? m.type
        .getText(src)
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/\s+/g, ' ')
        .replace(/;\s*}/g, ' }')
    : undefined;
const isPrivate = (m) =>
  (m.modifiers ?? []).some((k) => k.kind === ts.SyntaxKind.PrivateKeyword) ||
  nameOf(m)?.startsWith('_');
const isStatic = (m) => (m.modifiers ?? []).some((k) => k.kind === ts.SyntaxKind.StaticKeyword);

/**
 * Writes `custom-elements.json` into `outDir` (the package root); returns the manifest.
 * @throws Error when the declared attributes differ from the element's observedAttributes.
 */
export async function writeCustomElementsManifest(dist, outDir) {
  const types = join(dist, 'types/element');
  const attrs = declaration(join(types, 'attribute-types.gen.d.ts'), 'GpuFlockAttributes');
  const attributes = attrs.node.members
    .filter(ts.isPropertySignature)
    .map((m) => ({ name: nameOf(m), description: doc(m), type: { text: typeText(m, attrs.src) } }));

  const { GpuFlockElement } = await import(pathToFileURL(join(dist, 'element.js')).href);
  const observed = [...GpuFlockElement.observedAttributes].sort();
  const declared = attributes.map((a) => a.name).sort();
  const missing = observed.filter((a) => !declared.includes(a));
  const extra = declared.filter((a) => !observed.includes(a));
  if (missing.length || extra.length)
    throw new Error(
      `custom-elements: GpuFlockAttributes and observedAttributes differ: missing ${missing.join(', ') || 'none'}; not observed ${extra.join(', ') || 'none'}`,
    );

  const cls = declaration(join(types, 'gpu-flock-element.d.ts'), 'GpuFlockElement');
  const members = [];
  for (const m of cls.node.members) {
    const name = nameOf(m);
    if (!name || isPrivate(m) || ts.isConstructorDeclaration(m)) continue;
    if (/Callback$/.test(name) || name === 'observedAttributes') continue; // custom elements API
    const entry = { kind: ts.isMethodDeclaration(m) ? 'method' : 'field', name };
    if (isStatic(m)) entry.static = true;
    const description = doc(m);
    if (description) entry.description = description;
    if (ts.isGetAccessorDeclaration(m)) {
      entry.type = { text: typeText(m, cls.src) };
      const setter = cls.node.members.some(
        (s) => ts.isSetAccessorDeclaration(s) && nameOf(s) === name,
      );
      if (!setter) entry.readonly = true;
    } else if (ts.isPropertyDeclaration(m)) {
      entry.type = { text: typeText(m, cls.src) };
    } else if (ts.isMethodDeclaration(m)) {
      entry.return = { type: { text: typeText(m, cls.src) } };
      entry.parameters = m.parameters.map((p) => ({
        name: p.name.getText(cls.src),
        type: { text: typeText(p, cls.src) },
      }));
    }
    if (!members.some((x) => x.name === name)) members.push(entry);
  }

  const ev = declaration(join(types, 'events.d.ts'), 'GpuFlockEventMap');
  const events = ev.node.members
    .filter(ts.isPropertySignature)
    .map((m) => ({ name: nameOf(m), type: { text: typeText(m, ev.src) }, description: doc(m) }));

  const classDoc = doc(cls.node);
  const element = {
    kind: 'class',
    name: 'GpuFlockElement',
    tagName: TAG,
    customElement: true,
    description: classDoc,
    superclass: { name: 'HTMLElement' },
    attributes,
    members,
    events,
  };
  const definition = (module) => ({
    kind: 'custom-element-definition',
    name: TAG,
    declaration: { name: 'GpuFlockElement', module },
  });
  const manifest = {
    schemaVersion: '1.0.0',
    readme: 'README.md',
    modules: [
      {
        kind: 'javascript-module',
        path: 'dist/element.js',
        description:
          "gpu-flock/element: the element's class; `defineGpuFlockElement()` defines <gpu-flock>.",
        declarations: [element],
        exports: [
          {
            kind: 'js',
            name: 'GpuFlockElement',
            declaration: { name: 'GpuFlockElement', module: 'dist/element.js' },
          },
        ],
      },
      {
        kind: 'javascript-module',
        path: 'dist/gpu-flock.element.js',
        description:
          'The one file for a <script type="module"> tag: defines <gpu-flock> when loaded.',
        declarations: [],
        exports: [
          {
            kind: 'js',
            name: 'GpuFlockElement',
            declaration: { name: 'GpuFlockElement', module: 'dist/element.js' },
          },
          definition('dist/element.js'),
        ],
      },
    ],
  };
  writeFileSync(join(outDir, 'custom-elements.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}
