/**
 * `npm run order`: how well the model flocks (issue 9 item 4). Runs the CPU reference from the
 * seed's start for 10 s of simulated time in the default 3D scene and the default 2D scene, with
 * `reynolds` (the default) and `sum` steering, and prints the local order parameter (1 = every
 * neighbourhood aligned) and the fraction of grid cells occupied relative to the start (< 1:
 * the flock gathers into groups). Targets: order >= 0.9 in 3D and 2D with reynolds; occupancy
 * at most half of the start's in 3D.
 *
 *   npm run order -- [--count 16384] [--seconds 10] [--steering reynolds,sum] [--dims 3,2]
 *                    [--json file] [--set name=value ...]
 */
import { parseArgs } from 'node:util';
import { writeFileSync } from 'node:fs';
import { validateParams, type FlockParams } from '../src/core/params';
import { initialState } from '../src/core/state';
import { referenceStep } from '../src/core/reference';
import { localOrder, occupiedCells } from '../src/core/order';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '16384' },
    seconds: { type: 'string', default: '10' },
    steering: { type: 'string', default: 'reynolds,sum' },
    dims: { type: 'string', default: '3,2' },
    json: { type: 'string' },
    set: { type: 'string', multiple: true, default: [] },
    every: { type: 'string', default: '0' },
  },
});

const count = Number(values.count);
const seconds = Number(values.seconds);
const every = Number(values.every);
const extra: Record<string, unknown> = {};
for (const kv of values.set ?? []) {
  const [k, v] = kv.split('=');
  extra[k!] = v!.includes(',')
    ? v!.split(',').map(Number)
    : Number.isNaN(Number(v))
      ? v
      : Number(v);
}

interface Row {
  dimensions: number;
  steering: string;
  count: number;
  seconds: number;
  orderStart: number;
  order: number;
  meanNeighbors: number;
  occupancyRatio: number;
  msPerStep: number;
}
const rows: Row[] = [];
for (const dims of values.dims!.split(',').map(Number) as (2 | 3)[]) {
  for (const steering of values.steering!.split(',') as FlockParams['steering'][]) {
    const params = validateParams({ count, dimensions: dims, steering, ...extra });
    let s = initialState(params);
    const start = localOrder(s, params);
    const occ0 = occupiedCells(s, params);
    const steps = Math.round(seconds / params.timeStep);
    const t0 = performance.now();
    for (let k = 0; k < steps; k++) {
      s = referenceStep(s, params, 'grid', k * params.timeStep);
      if (every > 0 && (k + 1) % every === 0) {
        const o = localOrder(s, params);
        console.log(
          `  ${dims}D ${steering} t=${((k + 1) * params.timeStep).toFixed(1)}s order ${o.order.toFixed(3)} |N| ${o.meanNeighbors.toFixed(1)} occ ${(occupiedCells(s, params) / occ0).toFixed(3)}`,
        );
      }
    }
    const ms = (performance.now() - t0) / steps;
    const end = localOrder(s, params);
    rows.push({
      dimensions: dims,
      steering,
      count,
      seconds,
      orderStart: start.order,
      order: end.order,
      meanNeighbors: end.meanNeighbors,
      occupancyRatio: occupiedCells(s, params) / occ0,
      msPerStep: ms,
    });
  }
}

const pad = (x: string, n: number) => x.padStart(n);
console.log(
  `\nlocal order after ${seconds} s of simulated time (CPU reference, seed ${String(extra.seed ?? 1)}, ${count} boids)`,
);
console.log(
  ['dims', 'steering', 'order@0', 'order', 'mean |N_i|', 'cells used vs start', 'target']
    .map((h, i) => pad(h, i === 1 ? 9 : 11))
    .join(' '),
);
for (const r of rows) {
  const target =
    r.steering === 'reynolds'
      ? r.order >= 0.9 && (r.dimensions === 2 || r.occupancyRatio <= 0.5)
        ? 'met'
        : 'NOT met'
      : '-';
  console.log(
    [
      pad(`${r.dimensions}D`, 11),
      pad(r.steering, 9),
      pad(r.orderStart.toFixed(3), 11),
      pad(r.order.toFixed(3), 11),
      pad(r.meanNeighbors.toFixed(1), 11),
      pad(r.occupancyRatio.toFixed(3), 11),
      pad(target, 11),
    ].join(' '),
  );
}
if (values.json) writeFileSync(values.json, JSON.stringify({ rows }, null, 2));
