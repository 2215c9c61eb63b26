// The demo's URL beyond the schemas: preset=, camera=, scaleBox=, and the "copy link" query
// that reopens the same state.
import { describe, expect, test } from 'vitest';
import { demoQuery, parseCamera, parseDemoQuery } from '../../src/app/app-state';
import { defaultParams, validateParams } from '../../src/core/params';
import { presetOptions } from '../../src/core/presets';

describe('parseDemoQuery', () => {
  test('no query: the default scene, box from the density (16,384 boids in 64 units)', () => {
    const q = parseDemoQuery('');
    expect(q.errors).toEqual([]);
    expect(q.preset).toBeNull();
    expect(q.camera).toBeNull();
    expect(q.scaleBox).toBe(true);
    expect(q.options.params).toEqual({ boundsMin: [-32, -32, -32], boundsMax: [32, 32, 32] });
  });

  test('the box scales with the URL count (3D and 2D)', () => {
    const q = parseDemoQuery('?count=128000');
    // 64 * (128000/16384)^(1/3) = 126.99 -> half 63.5
    expect(q.options.params!.boundsMax![0]).toBeCloseTo(63.5, 1);
    const d = parseDemoQuery('?count=5000&dimensions=2');
    // sqrt(5000 / 0.5) = 100 -> half 50
    expect(d.options.params).toEqual({
      count: 5000,
      dimensions: 2,
      boundsMin: [-50, -50, -50],
      boundsMax: [50, 50, 50],
    });
  });

  test('explicit bounds turn scaleBox off; scaleBox=0 keeps the defaults', () => {
    const q = parseDemoQuery('?boundsMin=-10,-10,-10&boundsMax=10,10,10&count=30000');
    expect(q.scaleBox).toBe(false);
    expect(q.options.params).toEqual({
      boundsMin: [-10, -10, -10],
      boundsMax: [10, 10, 10],
      count: 30000,
    });
    const r = parseDemoQuery('?scaleBox=0&count=30000');
    expect(r.options.params).toEqual({ count: 30000 });
    expect(parseDemoQuery('?scaleBox=maybe').errors[0]).toMatch(
      /scaleBox=maybe ignored: allowed: 1, 0/,
    );
  });

  test('preset=school: its parameters and view, then the URL overrides', () => {
    const q = parseDemoQuery('?preset=school&count=2048&turbulence=3');
    expect(q.errors).toEqual([]);
    expect(q.preset).toBe('school');
    const p = validateParams(q.options.params);
    expect([p.species, p.turbulence, p.count]).toEqual([2, 3, 2048]);
    // 2,048 boids at the 3D density: side 32; the rocks scaled into it.
    expect(p.boundsMax).toEqual([16, 16, 16]);
    expect(p.obstacles[0]!.radius).toBeCloseTo(0.3 * 16, 2);
    expect((q.options as { view?: Record<string, unknown> }).view?.colorMode).toBe('species');
  });

  test('a URL parameter is checked over the preset: wrap with r too large for its box', () => {
    // swarm wraps a 256-unit square; r = 100 leaves 2 cells: rejected, the rest starts.
    const q = parseDemoQuery('?preset=swarm&perceptionRadius=100&seed=3');
    expect(q.errors).toHaveLength(1);
    expect(q.errors[0]).toMatch(/perceptionRadius=100 ignored: .*wrap needs 3 cells/);
    expect(q.options.params!.seed).toBe(3);
    expect(q.options.params!.boundary).toBe('wrap');
  });

  test('bad preset and camera values are errors; the rest applies', () => {
    const q = parseDemoQuery('?preset=flocky&camera=1,2,3&seed=4');
    expect(q.preset).toBeNull();
    expect(q.camera).toBeNull();
    expect(q.errors).toEqual([
      'URL parameter preset=flocky ignored: allowed: one of "murmuration", "school", "swarm", "stress"',
      'URL parameter camera=1,2,3 ignored: allowed: 6 numbers yaw,pitch,distance,x,y,z: |yaw| <= 10000 radians, pitch in (-pi/2, pi/2) radians, distance in (0, 40000000] world units, x, y, z in [-1000000, 1000000] world units',
    ]);
    expect(q.options.params!.seed).toBe(4);
  });
});

describe('parseCamera', () => {
  test('six numbers; pitch inside (-pi/2, pi/2), distance > 0', () => {
    expect(parseCamera('0.6,0.35,120,1,-2,3.5')).toEqual({
      yaw: 0.6,
      pitch: 0.35,
      distance: 120,
      target: [1, -2, 3.5],
    });
    expect(parseCamera('0,1.6,10,0,0,0')).toMatch(/^pitch 1.6 out of range; allowed: /);
    expect(parseCamera('0,0,0,0,0,0')).toMatch(/^distance 0 out of range; allowed: /);
    expect(parseCamera('0,0,1,0,0,x')).toMatch(/^allowed: 6 numbers/);
    expect(parseCamera('0,0,1,0,0,')).toMatch(/^allowed: 6 numbers/);
  });

  test('each number within its range: huge distances, targets and yaws are errors naming the range (issue 21)', () => {
    expect(parseCamera('0,0,1e308,0,0,0')).toMatch(
      /^distance 1e\+308 out of range; allowed: .*distance in \(0, 40000000\] world units/,
    );
    expect(parseCamera('0,0,10,1e7,0,0')).toMatch(
      /^x 10000000 out of range; .*x, y, z in \[-1000000, 1000000\]/,
    );
    expect(parseCamera('0,0,10,0,0,-1e300')).toMatch(/^z -1e\+300 out of range/);
    expect(parseCamera('1e21,0,10,0,0,0')).toMatch(/^yaw 1e\+21 out of range/);
    // The edges themselves are allowed.
    expect(parseCamera('-10000,1.5,40000000,1000000,-1000000,0')).toEqual({
      yaw: -10000,
      pitch: 1.5,
      distance: 4e7,
      target: [1e6, -1e6, 0],
    });
    const q = parseDemoQuery('?camera=0,0,1e308,0,0,0');
    expect(q.camera).toBeNull();
    expect(q.errors).toHaveLength(1);
    expect(q.errors[0]).toMatch(/^URL parameter camera=0,0,1e308,0,0,0 ignored: distance 1e\+308/);
  });
});

describe('a key given twice: the last value counts, for every key (issue 21)', () => {
  test('preset, camera and scaleBox as the schema keys do', () => {
    const q = parseDemoQuery(
      '?preset=school&seed=3&preset=swarm&seed=4&camera=0,0,5,0,0,0&camera=0.5,0,9,0,0,0' +
        '&scaleBox=0&scaleBox=1',
    );
    expect(q.preset).toBe('swarm');
    expect(q.options.params!.seed).toBe(4);
    expect(q.camera).toEqual({ yaw: 0.5, pitch: 0, distance: 9, target: [0, 0, 0] });
    expect(q.scaleBox).toBe(true);
    expect(q.errors).toEqual([]);
    // A bad last value is the one reported (and the earlier good one is not used).
    const bad = parseDemoQuery('?preset=school&preset=flocky');
    expect(bad.preset).toBeNull();
    expect(bad.errors[0]).toMatch(/^URL parameter preset=flocky ignored/);
  });
});

describe('demoQuery (copy link)', () => {
  const camera = { yaw: 0.12345678, pitch: -0.2, distance: 88.5, target: [1, 2, 3] as const };

  test('writes only what differs from the preset, and the camera; parses back to the same', () => {
    const params = validateParams({
      ...presetOptions('school').params,
      cohesionWeight: 1.25,
    });
    const link = demoQuery({
      params,
      view: { colorMode: 'density', palette: 'ocean', shape: 'fish' },
      viewDefaults: { colorMode: 'speed', palette: 'default', shape: 'auto' },
      preset: 'school',
      camera: { ...camera, target: [...camera.target] },
      scaleBox: true,
      paused: true,
      backend: 'webgl2',
      disable: [],
    });
    expect(link).toBe(
      '?backend=webgl2&preset=school&cohesionWeight=1.25&colorMode=density' +
        '&camera=0.1235,-0.2,88.5,1,2,3&paused=1',
    );
    const back = parseDemoQuery(link);
    expect(back.errors).toEqual([]);
    // The preset's view, then the link's colour mode over it.
    expect(back.options.view).toEqual({
      shape: 'fish',
      palette: 'ocean',
      colorMode: 'density',
      boidSize: 1.5,
      showObstacles: true,
    });
    expect(validateParams(back.options.params)).toEqual(params);
    expect(back.camera).toEqual({ yaw: 0.1235, pitch: -0.2, distance: 88.5, target: [1, 2, 3] });
    expect(back.paused).toBe(true);
  });

  test('an explicit box is written with scaleBox=0 and comes back', () => {
    const params = validateParams({
      boundsMin: [-5, -5, -5],
      boundsMax: [5, 7.5, 5],
      obstacles: [{ center: [1, 0, 0], radius: 2 }],
    });
    const link = demoQuery({
      params,
      view: {},
      viewDefaults: {},
      preset: null,
      camera: { ...camera, target: [...camera.target] },
      scaleBox: false,
      paused: false,
      backend: null,
      disable: ['webgpu'],
    });
    expect(link).toContain('boundsMax=5,7.5,5');
    expect(link).toContain('obstacles=1,0,0,2');
    expect(link).toContain('scaleBox=0');
    const back = parseDemoQuery(link);
    expect(back.errors).toEqual([]);
    expect(validateParams(back.options.params)).toEqual(params);
    expect(back.options.disable).toEqual(['webgpu']);
    expect(defaultParams().count).toBe(params.count);
  });
});
