/**
 * The few 4x4 matrix operations the camera needs (column-major Float32Array(16), as WebGL and
 * WGSL take them), written out so the package ships no matrix library. Same formulas and float32
 * storage as gl-matrix's mat4 (the unit test holds them to it), so matrices are bit-identical.
 */

export type Mat4 = Float32Array;
type V3 = ArrayLike<number>;

const EPSILON = 0.000001;

/** A new matrix: the identity. */
function create(): Mat4 {
  const out = new Float32Array(16);
  out[0] = out[5] = out[10] = out[15] = 1;
  return out;
}

/** out = a * b. */
function multiply(out: Mat4, a: Mat4, b: Mat4): Mat4 {
  const r = new Float32Array(16);
  for (let col = 0; col < 4; col++) {
    const b0 = b[4 * col]!;
    const b1 = b[4 * col + 1]!;
    const b2 = b[4 * col + 2]!;
    const b3 = b[4 * col + 3]!;
    for (let row = 0; row < 4; row++) {
      r[4 * col + row] = b0 * a[row]! + b1 * a[4 + row]! + b2 * a[8 + row]! + b3 * a[12 + row]!;
    }
  }
  out.set(r);
  return out;
}

/** A view matrix looking from `eye` at `center`, `up` roughly up (identity when eye = center). */
function lookAt(out: Mat4, eye: V3, center: V3, up: V3): Mat4 {
  const [ex, ey, ez] = [eye[0]!, eye[1]!, eye[2]!];
  const [ux, uy, uz] = [up[0]!, up[1]!, up[2]!];
  const [cx, cy, cz] = [center[0]!, center[1]!, center[2]!];
  if (Math.abs(ex - cx) < EPSILON && Math.abs(ey - cy) < EPSILON && Math.abs(ez - cz) < EPSILON) {
    out.set(create());
    return out;
  }
  let z0 = ex - cx;
  let z1 = ey - cy;
  let z2 = ez - cz;
  let len = 1 / Math.sqrt(z0 * z0 + z1 * z1 + z2 * z2);
  z0 *= len;
  z1 *= len;
  z2 *= len;
  let x0 = uy * z2 - uz * z1;
  let x1 = uz * z0 - ux * z2;
  let x2 = ux * z1 - uy * z0;
  len = Math.sqrt(x0 * x0 + x1 * x1 + x2 * x2);
  if (!len) x0 = x1 = x2 = 0;
  else {
    len = 1 / len;
    x0 *= len;
    x1 *= len;
    x2 *= len;
  }
  let y0 = z1 * x2 - z2 * x1;
  let y1 = z2 * x0 - z0 * x2;
  let y2 = z0 * x1 - z1 * x0;
  len = Math.sqrt(y0 * y0 + y1 * y1 + y2 * y2);
  if (!len) y0 = y1 = y2 = 0;
  else {
    len = 1 / len;
    y0 *= len;
    y1 *= len;
    y2 *= len;
  }
  out.set([
    x0,
    y0,
    z0,
    0,
    x1,
    y1,
    z1,
    0,
    x2,
    y2,
    z2,
    0,
    -(x0 * ex + x1 * ey + x2 * ez),
    -(y0 * ex + y1 * ey + y2 * ez),
    -(z0 * ex + z1 * ey + z2 * ez),
    1,
  ]);
  return out;
}

/** Perspective projection, vertical field of view `fovy` (radians), clip z in [-zNear, 1]. */
function perspective(
  out: Mat4,
  fovy: number,
  aspect: number,
  near: number,
  far: number,
  zeroToOne: boolean,
): Mat4 {
  const f = 1.0 / Math.tan(fovy / 2);
  out.fill(0);
  out[0] = f / aspect;
  out[5] = f;
  out[11] = -1;
  if (far !== Infinity) {
    const nf = 1 / (near - far);
    out[10] = zeroToOne ? far * nf : (far + near) * nf;
    out[14] = zeroToOne ? far * near * nf : 2 * far * near * nf;
  } else {
    out[10] = -1;
    out[14] = zeroToOne ? -near : -2 * near;
  }
  return out;
}

/** The matrix functions, named as gl-matrix names them. */
export const mat4 = {
  create,
  multiply,
  lookAt,
  /** Clip z in [-1, 1] (WebGL). */
  perspectiveNO: (out: Mat4, fovy: number, aspect: number, near: number, far: number) =>
    perspective(out, fovy, aspect, near, far, false),
  /** Clip z in [0, 1] (WebGPU). */
  perspectiveZO: (out: Mat4, fovy: number, aspect: number, near: number, far: number) =>
    perspective(out, fovy, aspect, near, far, true),
};

export const vec3 = {
  fromValues: (x: number, y: number, z: number): Float32Array => new Float32Array([x, y, z]),
};
