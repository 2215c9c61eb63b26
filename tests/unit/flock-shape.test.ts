// The default shape (DESIGN section 7: `bird` in 3D, `arrow` in 2D) as a Flock on fake parts
// reports it: flock.view.shape is the mesh drawn, never `auto`, and it follows the dimensions
// until a shape is chosen; reading the view back and giving it again is not a choice.
import { describe, expect, test } from 'vitest';
import { embedCode } from '../../src/element/embed-code';
import { validateParams } from '../../src/core/params';
import { validateView } from '../../src/core/view';
import { fakeFlock } from '../support/fake-flock';

describe('shape default', () => {
  test('bird in 3D, arrow in 2D, following the dimensions until one is chosen', async () => {
    const f = await fakeFlock({ params: { count: 300 } });
    expect(f.flock.view.shape).toBe('bird');
    await f.flock.setParams({ dimensions: 2 });
    expect(f.flock.view.shape).toBe('arrow');
    // A spread of the view read back (shape 'arrow') does not pin it.
    f.flock.setView({ ...f.flock.view, lighting: 0.4 });
    await f.flock.setParams({ dimensions: 3 });
    expect(f.flock.view.shape).toBe('bird');
    // A chosen shape stays whatever the dimensions.
    f.flock.setView({ shape: 'fish' });
    await f.flock.setParams({ dimensions: 2 });
    expect(f.flock.view.shape).toBe('fish');
    // An arrow chosen in 3D stays an arrow (it differs from the 3D default).
    await f.flock.setParams({ dimensions: 3 });
    f.flock.setView({ shape: 'arrow' });
    expect(f.flock.view.shape).toBe('arrow');
    // `auto` gives the default back.
    f.flock.setView({ shape: 'auto' });
    expect(f.flock.view.shape).toBe('bird');
  });

  test('createFlock in 2D starts with arrows; a bad shape names the listed values', async () => {
    const f = await fakeFlock({ params: { count: 300, dimensions: 2 } });
    expect(f.flock.view.shape).toBe('arrow');
    expect(() => f.flock.setView({ shape: 'cat' as never })).toThrow(
      /shape.*one of "arrow", "bird", "fish", "dot"/s,
    );
    expect(f.flock.view.shape).toBe('arrow');
  });

  test('the embed line leaves the default shape out and keeps a chosen one', () => {
    const p3 = validateParams({ count: 500 });
    const p2 = validateParams({ count: 500, dimensions: 2 });
    const bird = validateView({ shape: 'bird' });
    expect(embedCode({ params: p3, view: bird })).not.toContain('shape');
    expect(embedCode({ params: p2, view: validateView({ shape: 'arrow' }) })).not.toContain(
      'shape',
    );
    expect(embedCode({ params: p2, view: bird })).toContain('shape="bird"');
  });
});
