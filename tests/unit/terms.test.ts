// steerTerms: one bit of each on/off pair of steer.wgsl's TERMS (terms.gen.wgsl), from the parameters.
import { describe, expect, test } from 'vitest';
import { validateParams } from '../../src/core/params';
import { GENERIC_TERMS, steerTerms, switchesWgsl } from '../../src/core/terms';

/** The ON_/OFF_ constants of the generated chunk steer.wgsl includes, by name. */
function wgslBits(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of switchesWgsl().matchAll(/const ((?:ON|OFF)_[A-Z0-9]+): u32 = (\d+)u;/g))
    out[m[1]!] = Number(m[2]);
  return out;
}

describe('steerTerms', () => {
  test('terms.gen.wgsl declares bit 2k (on) and 2k + 1 (off) for 10 switches', () => {
    const bits = wgslBits();
    const names = [
      'WRAP',
      '3D',
      'REYNOLDS',
      'SOFT',
      'SPECIES',
      'OBSTACLES',
      'ATTRACTOR',
      'PREDATORS',
      'TURBULENCE',
      'FOV',
    ];
    names.forEach((n, k) => {
      expect(bits[`ON_${n}`], n).toBe(2 ** (2 * k));
      expect(bits[`OFF_${n}`], n).toBe(2 ** (2 * k + 1));
    });
    expect(Object.keys(bits)).toHaveLength(20);
  });

  test('defaults: 3D, reynolds and soft walls on, every other switch off', () => {
    const bits = wgslBits();
    const want =
      bits.OFF_WRAP! |
      bits.ON_3D! |
      bits.ON_REYNOLDS! |
      bits.ON_SOFT! |
      bits.OFF_SPECIES! |
      bits.OFF_OBSTACLES! |
      bits.OFF_ATTRACTOR! |
      bits.OFF_PREDATORS! |
      bits.OFF_TURBULENCE! |
      bits.OFF_FOV!;
    expect(steerTerms(validateParams({}))).toBe(want);
  });

  test('every term on, 2D wrap with sum steering', () => {
    const bits = wgslBits();
    const p = validateParams({
      dimensions: 2,
      boundary: 'wrap',
      steering: 'sum',
      species: 3,
      obstacles: [{ center: [1, 2, 0], radius: 3 }],
      attractorStrength: 2,
      predators: 1,
      turbulence: 0.5,
      fieldOfView: 359.5,
    });
    const want =
      bits.ON_WRAP! |
      bits.OFF_3D! |
      bits.OFF_REYNOLDS! |
      bits.OFF_SOFT! |
      bits.ON_SPECIES! |
      bits.ON_OBSTACLES! |
      bits.ON_ATTRACTOR! |
      bits.ON_PREDATORS! |
      bits.ON_TURBULENCE! |
      bits.ON_FOV!;
    expect(steerTerms(p)).toBe(want);
    // One bit of each pair, never the generic mask.
    expect(steerTerms(p)).not.toBe(GENERIC_TERMS);
  });

  test('a strength that rounds to 0 in float32 is off, as the generic branch sees it', () => {
    const bits = wgslBits();
    const p = validateParams({ attractorStrength: 1e-50, turbulence: 1e-60 });
    expect(steerTerms(p) & bits.OFF_ATTRACTOR!).toBe(bits.OFF_ATTRACTOR);
    expect(steerTerms(p) & bits.OFF_TURBULENCE!).toBe(bits.OFF_TURBULENCE);
  });
});
