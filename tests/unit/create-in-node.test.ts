// createFlock in Node (no document, no HTMLCanvasElement): a FlockError like every other bad input,
// naming field 'target', what it needs ("a browser with a DOM") and what is missing here.
import { describe, expect, test } from 'vitest';
import { FlockError, createFlock } from '../../src/index';

describe('createFlock without a DOM', () => {
  test('rejects with a FlockError on field target naming a browser with a DOM', async () => {
    expect(typeof document).toBe('undefined');
    const err: unknown = await createFlock(undefined, { params: { count: 301 } }).then(
      () => 'resolved',
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(FlockError);
    const fe = err as FlockError;
    expect(fe.field).toBe('target');
    expect(fe.value).toBeUndefined();
    expect(fe.allowed).toMatch(/^a browser with a DOM \(document and HTMLCanvasElement/);
    expect(fe.message).toContain('there is no document');
    expect(fe.message).toContain('Node or server rendering');
    expect(fe.message).toContain('referenceStep');
  });

  test('a target given in Node is the value the error names', async () => {
    const target = { tagName: 'CANVAS' };
    const err = (await createFlock(target as unknown as HTMLCanvasElement).catch(
      (e: unknown) => e,
    )) as FlockError;
    expect(err).toBeInstanceOf(FlockError);
    expect(err.field).toBe('target');
    expect(err.value).toBe(target);
    expect(err.message).toMatch(
      /^target = \{"tagName":"CANVAS"\} is not allowed; allowed: a browser with a DOM/,
    );
  });
});
