// The capacity sentence and the device label of the benchmark page (src/bench/report.ts).
import { describe, expect, test } from 'vitest';
import type { CapacityResult } from '../../src/core/capacity-search';
import {
  capacitySentence,
  deviceLabel,
  parseImport,
  winnerSentence,
  type BackendCapacity,
} from '../../src/bench/report';
import type { DeviceReport } from '../../src/bench/device-report';

const r = (
  fps: number,
  count: number,
  failsAt: number | null,
  bounded = false,
): CapacityResult => ({
  fps,
  steps: fps === 30 ? 2 : 1,
  count,
  frameMs: count ? 10 : null,
  failsAt,
  bounded,
});
const cap = (backend: BackendCapacity['backend'], results: CapacityResult[]): BackendCapacity => ({
  backend,
  available: true,
  device: 'x',
  results,
  probes: [],
  ms: 1,
});

describe('capacitySentence', () => {
  test('every backend in ladder order, its cap and bounded searches said so', () => {
    expect(
      capacitySentence([
        cap('webgpu', [r(60, 180000, 200000), r(30, 240000, 260000)]),
        cap('webgl2', [r(60, 120000, 130000), r(30, 150000, 160000, true)]),
        { ...cap('webgl2-tf', []), available: false, reason: 'no WebGL2' },
        cap('cpu', [r(60, 0, 64), r(30, 4096, null)]),
      ]),
    ).toBe(
      'On this device: WebGPU holds 180,000 boids at 60 fps and 240,000 at 30 fps, ' +
        'WebGL2 120,000 and at least 150,000, CPU under 64 and 4,096 (its limit); ' +
        'not available here: transform feedback.',
    );
    expect(capacitySentence([])).toBe('');
  });
});

describe('deviceLabel and parseImport', () => {
  const report = {
    hardwareConcurrency: 2,
    webgl2: {
      unmaskedRenderer:
        'ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)',
    },
    webgpu: { info: { vendor: 'google', architecture: 'swiftshader' } },
  } as unknown as DeviceReport;

  test('a software GPU is named as one, with the cores', () => {
    expect(deviceLabel(report)).toBe('SwiftShader (software GPU), 2 cores');
    const nvidia = {
      hardwareConcurrency: 16,
      webgl2: {
        unmaskedRenderer:
          'ANGLE (NVIDIA, NVIDIA GeForce RTX 4070 (0x00002786) Direct3D11 vs_5_0 ps_5_0, D3D11)',
      },
      webgpu: {},
    } as unknown as DeviceReport;
    expect(deviceLabel(nvidia)).toBe(
      'NVIDIA, NVIDIA GeForce RTX 4070 (0x00002786) Direct3D11 vs_5_0 ps_5_0, 16 cores',
    );
  });

  test('an import must be an export of this page', () => {
    expect(() => parseImport({ rows: [] }, 'a.json')).toThrow(
      /a\.json: not a gpu-flock benchmark export/,
    );
    expect(() => parseImport(null)).toThrow(/not a gpu-flock benchmark export/);
    const e = parseImport({ tool: 'gpu-flock bench', rows: [], device: report });
    expect(e.label).toBe('SwiftShader (software GPU), 2 cores');
    expect(parseImport({ tool: 'gpu-flock bench', rows: [], label: 'my phone' }).label).toBe(
      'my phone',
    );
  });
});

describe('winnerSentence (issue 31 item 2: the quick run says which backend holds the most)', () => {
  test('the swiftshader run: the most at each rate and its ratio over the next', () => {
    const caps = [
      cap('webgpu', [r(60, 840, 920), r(30, 1500, 1600)]),
      cap('webgl2', [r(60, 710, 760), r(30, 1500, 1600)]),
      cap('webgl2-tf', [r(60, 460, 500), r(30, 1200, 1300)]),
      cap('cpu', [r(60, 460, 500), r(30, 3300, 3500)]),
    ];
    // 840 / 710 = 1.18; 3,300 / 1,500 = 2.2.
    expect(winnerSentence(caps)).toBe(
      "Most boids on this device: at 60 fps WebGPU, 840 (1.2x WebGL2's 710); at 30 fps CPU, 3,300 (2.2x WebGPU's 1,500).",
    );
  });

  test('a bound cut short says "at least", a lone backend and none holding are said so', () => {
    expect(
      winnerSentence([
        cap('webgpu', [r(60, 40000, null, true), r(30, 0, 1024)]),
        cap('webgl2', [r(60, 2000, 2200), r(30, 0, 1024)]),
        { ...cap('cpu', []), available: false },
      ]),
    ).toBe(
      "Most boids on this device: at 60 fps WebGPU, at least 40,000 (20x WebGL2's 2,000); at 30 fps no backend holds even the smallest count.",
    );
    expect(winnerSentence([cap('webgl2', [r(60, 1000, 1100), r(30, 2100, 2300)])])).toBe(
      'Most boids on this device: at 60 fps only WebGL2 holds any: 1,000; at 30 fps only WebGL2 holds any: 2,100.',
    );
    expect(winnerSentence([])).toBe('');
  });
});
