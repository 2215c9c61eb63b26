// An attribute written in the API's camelCase (perceptionRadius="5": HTML lowercases it to
// perceptionradius) set nothing and said nothing: the flock ran with the default radius. The
// start now fires 'error' naming the attribute, its value and the kebab-case name to use, and
// leaves the parameter at its default (it does not guess).
import { describe, expect, test } from 'vitest';
import '../../src/element/index';
import { elementMaker } from '../support/browser';

const { addFlock } = elementMaker();

interface AttributeErrorDetail {
  attribute: string;
  value: string | null;
  allowed: string;
}

describe('<gpu-flock> attributes in camelCase', () => {
  test('perceptionRadius="5" and colorMode="heading": errors naming perception-radius and color-mode', async () => {
    const el = addFlock({
      backend: 'cpu',
      count: '64',
      perceptionRadius: '5',
      colorMode: 'heading',
      'max-speed': '6',
    });
    // The start reads the attributes once the element is near the viewport (a later task).
    const errors: AttributeErrorDetail[] = [];
    el.addEventListener('error', (e) =>
      errors.push((e as unknown as CustomEvent<AttributeErrorDetail>).detail),
    );
    const flock = await el.ready;
    expect(flock.params.perceptionRadius).toBe(2);
    expect(flock.params.maxSpeed).toBe(6);
    expect(flock.view.colorMode).toBe('speed');
    expect(
      errors
        .map((d) => [d.attribute, d.value, d.allowed])
        .sort((a, b) => a[0]!.localeCompare(b[0]!)),
    ).toEqual([
      ['colormode', 'heading', 'the attribute color-mode (attributes are kebab case)'],
      ['perceptionradius', '5', 'the attribute perception-radius (attributes are kebab case)'],
    ]);
  });
});
