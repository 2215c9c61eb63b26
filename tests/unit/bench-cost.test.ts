// The benchmark's cost rows (src/bench/cost-rows.ts runCosts, cases.ts, report.ts): each variant's parameters
// are valid and switch on only its own term; labels, table order and the "vs plain" cell.
import { describe, expect, test } from 'vitest';
import {
  TERM_VARIANTS,
  caseLabel,
  caseParams,
  type BehaviourVariant,
  type TermName,
} from '../../src/bench/cases';
import type { BenchRow } from '../../src/bench/rows';
import { ratioSpread, sortRows } from '../../src/bench/report';
import { defaultParams, validateParams } from '../../src/core/params';

const OWN: Record<TermName, string[]> = {
  species: ['species'],
  obstacles: ['obstacles'],
  // attractorRadius h/2 and turbulenceScale h/2 are 16 at N = 16,384: the defaults.
  attractor: ['attractor', 'attractorStrength'],
  predators: ['predators'],
  wind: ['wind'],
  turbulence: ['turbulence'],
};

/** The parameters that differ from the plain case's. */
function changed(v: BehaviourVariant, d: 2 | 3): string[] {
  const base = { backend: 'webgl2' as const, mode: 'grid' as const, count: 16384, dimensions: d };
  const plain = validateParams(caseParams({ ...base, behaviours: 'plain' }));
  const mine = validateParams(caseParams({ ...base, behaviours: v }));
  return Object.keys(plain).filter(
    (k) =>
      JSON.stringify(plain[k as keyof typeof plain]) !==
      JSON.stringify(mine[k as keyof typeof mine]),
  );
}

describe('bench cost rows', () => {
  for (const d of [3, 2] as const) {
    test(`${d}D: each term variant switches on only its own parameters; plain is the default`, () => {
      for (const v of ['removed', 'removed-species', 'removed-forces'] as const)
        expect(changed(v, d)).toEqual([]);
      for (const [v, keys] of Object.entries(OWN))
        expect(changed(v as BehaviourVariant, d)).toEqual(keys);
      expect(changed('all', d).sort()).toEqual(Object.values(OWN).flat().sort());
      expect(changed('first', d).sort()).toEqual(['boundary', 'separationRadius', 'steering']);
      const plain = validateParams(
        caseParams({
          backend: 'webgpu',
          mode: 'grid',
          count: 16384,
          dimensions: d,
          behaviours: 'plain',
        }),
      );
      const def = defaultParams();
      // The benchmark starts uniform (DESIGN section 6) whatever the params' default start: with
      // the default 'groups' start every row measured a denser scene than older results.
      expect(plain.start).toBe('uniform');
      expect([plain.steering, plain.boundary, plain.species, plain.obstacles.length]).toEqual([
        def.steering,
        def.boundary,
        1,
        0,
      ]);
    });
  }

  test('labels, order and the vs-plain cell', () => {
    expect(
      caseLabel({ backend: 'webgpu', mode: 'grid', sort: 'counting', behaviours: 'all' }),
    ).toBe('webgpu counting + all behaviours');
    expect(caseLabel({ backend: 'webgl2', mode: 'grid', behaviours: 'removed' })).toBe(
      'webgl2 grid off-term code removed',
    );
    const row = (backend: 'webgl2' | 'webgpu', count: number, behaviours?: BehaviourVariant) =>
      ({
        backend,
        mode: 'grid',
        ...(backend === 'webgpu' ? { sort: 'counting' } : {}),
        count,
        ...(behaviours ? { behaviours } : {}),
        label: caseLabel({ backend, mode: 'grid', sort: 'counting', behaviours }),
      }) as BenchRow;
    const rows = [
      row('webgl2', 65536, 'all'),
      row('webgl2', 16384, 'plain'),
      row('webgpu', 16384, 'all'),
      row('webgl2', 16384),
      row('webgpu', 16384, 'plain'),
      row('webgl2', 16384, 'all'),
    ];
    expect(sortRows(rows).map((r) => `${r.count} ${r.label}`)).toEqual([
      '16384 webgl2 grid',
      '16384 webgpu counting plain',
      '16384 webgpu counting + all behaviours',
      '16384 webgl2 grid plain',
      '16384 webgl2 grid + all behaviours',
      '65536 webgl2 grid + all behaviours',
    ]);
    expect(TERM_VARIANTS[0]).toBe('all');
    expect(ratioSpread([1.4, 1.0, 1.2, 1.3, 1.1])).toBe('1.20x (1.10-1.30)');
    expect(ratioSpread([0.99])).toBe('0.99x');
    expect(ratioSpread(undefined)).toBe('-');
  });
});
