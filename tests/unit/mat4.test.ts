// src/core/mat4.ts against gl-matrix (a devDependency for this test and the demo): the package's
// camera matrices must stay bit-identical to the library they replace.
import { mat4 as gl, vec3 as glv } from 'gl-matrix';
import { describe, expect, test } from 'vitest';
import { mat4, vec3 } from '../../src/core/mat4';
import { mulberry32 } from '../../src/core/state';

describe('mat4 (gl-matrix formulas)', () => {
  const rand = mulberry32(97);
  const r = (s: number) => (rand() * 2 - 1) * s;

  test('lookAt, perspectiveNO/ZO and multiply equal gl-matrix bit for bit', () => {
    for (let i = 0; i < 37; i++) {
      const eye = [r(50), r(50), r(50)] as const;
      const center = [r(5), r(5), r(5)] as const;
      const fov = 0.3 + rand() * 1.2;
      const aspect = 0.4 + rand() * 3;
      const near = 0.01 + rand();
      const far = near + 1 + rand() * 500;
      const v = mat4.lookAt(mat4.create(), vec3.fromValues(...eye), center, [0, 1, 0]);
      const gv = gl.lookAt(gl.create(), glv.fromValues(...eye), center, [0, 1, 0]);
      expect(Array.from(v)).toEqual(Array.from(gv));
      const pn = mat4.perspectiveNO(mat4.create(), fov, aspect, near, far);
      expect(Array.from(pn)).toEqual(
        Array.from(gl.perspectiveNO(gl.create(), fov, aspect, near, far)),
      );
      const pz = mat4.perspectiveZO(mat4.create(), fov, aspect, near, far);
      const gpz = gl.perspectiveZO(gl.create(), fov, aspect, near, far);
      expect(Array.from(pz)).toEqual(Array.from(gpz));
      expect(Array.from(mat4.multiply(mat4.create(), pz, v))).toEqual(
        Array.from(gl.multiply(gl.create(), gpz, gv)),
      );
    }
  });

  test('eye at the target gives the identity; infinite far plane', () => {
    const id = mat4.lookAt(mat4.create(), [1, 2, 3], [1, 2, 3], [0, 1, 0]);
    expect(Array.from(id)).toEqual([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
    const p = mat4.perspectiveNO(mat4.create(), Math.PI / 2, 2, 0.5, Infinity);
    expect(p[0]).toBeCloseTo(0.5, 6);
    expect(p[10]).toBe(-1);
    expect(p[14]).toBe(-1);
    expect(p[11]).toBe(-1);
  });
});
