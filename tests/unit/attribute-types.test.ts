// The framework declarations' attribute types (src/element/attribute-types.gen.ts) must be what
// the schemas give (npm run docs:attributes writes them), and each framework's declaration file
// must be shipped as a type-only subpath export. The consumer-side checks (a strict React, Vue
// and Svelte app accepts the attributes and rejects a wrong type) are in tests/e2e/frameworks.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as prettier from 'prettier';
import { describe, expect, test } from 'vitest';
import { PARAM_SCHEMA } from '../../src/core/params';
import { VIEW_SCHEMA } from '../../src/core/view';
import { ELEMENT_ATTRIBUTES, kebabCase } from '../../src/element/attributes';
import { ATTRIBUTE_TYPES_FILE, attributeTypesSource } from '../../src/element/attribute-types';

const root = join(import.meta.dirname, '../..');
const file = join(root, ATTRIBUTE_TYPES_FILE);
const committed = readFileSync(file, 'utf8');

/** The properties of one generated interface: name -> type text. */
function props(text: string, name: string): Map<string, string> {
  const start = text.indexOf(`export interface ${name} {`);
  const end = text.indexOf('\n}', start);
  const out = new Map<string, string>();
  for (const m of text.slice(start, end).matchAll(/^ {2}'?([\w-]+)'?\?: ([^;]+);$/gm)) {
    out.set(m[1]!, m[2]!.replace(/\s+/g, ' ').trim());
  }
  return out;
}

describe('framework attribute types', () => {
  test('attribute-types.gen.ts matches the schemas (run `npm run docs:attributes` after changing a schema)', async () => {
    const fresh = await prettier.format(attributeTypesSource(), {
      ...(await prettier.resolveConfig(file)),
      filepath: file,
    });
    expect(committed).toBe(fresh);
  });

  test('one typed property per schema and element attribute, in both interfaces', () => {
    const names = [
      ...PARAM_SCHEMA.map((s) => kebabCase(s.name)),
      ...VIEW_SCHEMA.map((s) => kebabCase(s.name)),
      ...ELEMENT_ATTRIBUTES.map((a) => a.attribute),
    ];
    for (const iface of ['GpuFlockAttributes', 'GpuFlockReactAttributes']) {
      const p = props(committed, iface);
      expect([...p.keys()].sort(), iface).toEqual([...names].sort());
    }
    const dom = props(committed, 'GpuFlockAttributes');
    const react = props(committed, 'GpuFlockReactAttributes');
    expect(dom.get('count')).toBe('number | `${number}`');
    expect(dom.get('dimensions')).toBe("2 | '2' | 3 | '3'");
    expect(dom.get('boundary')).toBe("'soft' | 'bounce' | 'wrap'");
    expect(dom.get('color-mode')).toBe("'speed' | 'species' | 'density' | 'heading' | 'uniform'");
    expect(dom.get('bounds-min')).toBe('Vec3Attribute');
    expect(dom.get('obstacles')).toBe('string');
    expect(dom.get('backend')).toBe("'auto' | 'webgpu' | 'webgl2' | 'webgl2-tf' | 'cpu'");
    expect(dom.get('paused')).toBe('boolean');
    // React removes an attribute given false: a boolean that defaults to true takes 'false'.
    expect(dom.get('show-obstacles')).toBe("boolean | 'true' | 'false'");
    expect(react.get('show-obstacles')).toBe("true | 'true' | 'false'");
    expect(react.get('show-bounds')).toBe("boolean | 'true' | 'false'");
  });

  test('a schema change shows in the generated text', () => {
    const spec = VIEW_SCHEMA.find((s) => s.name === 'fit') as unknown as { options: string[] };
    const before = spec.options;
    try {
      spec.options = [...before, 'stretch'];
      expect(attributeTypesSource()).toContain("fit?: 'contain' | 'cover' | 'stretch';");
    } finally {
      spec.options = before;
    }
  });

  test('gpu-flock/react, /vue and /svelte are type-only exports of the shipped declarations', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      exports: Record<string, unknown>;
    };
    for (const fw of ['react', 'vue', 'svelte']) {
      expect(pkg.exports[`./${fw}`]).toEqual({ types: `./dist/types/element/${fw}.d.ts` });
      const text = readFileSync(join(root, `src/element/${fw}.d.ts`), 'utf8');
      expect(text).toMatch(/from '\.\/index'/);
      expect(text).toMatch(fw === 'react' ? /GpuFlockReactAttributes/ : /GpuFlockAttributes\b/);
    }
  });
});
