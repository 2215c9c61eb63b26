/**
 * Pass 6, draw: the picture of src/core/scene.ts into the default framebuffer. BOID_MESH
 * (src/core/render-math.ts) once per boid, oriented along the boid's velocity, scaled by
 * view.boidSize and coloured by the view's colour mode (glsl/boid-color.glsl, the twin of
 * render-math.ts boidColor); then the predators (the same mesh, larger and red), the obstacles
 * (ray-traced sphere impostors; flat circles in 2D), the box outline and the attractor's soft
 * marker, over the view's background (premultiplied alpha: `transparent` clears to 0).
 * The boid vertex shader fetches the state with texelFetch, either by gl_InstanceID
 * ('instanced') or by gl_VertexID / 12 in one plain draw ('vertex-id': on SwiftShader instancing
 * costs 10-20x more; both give the same pixels).
 */
import type { RenderView } from '../backend';
import type { FlockParams } from '../core/params';
import {
  BOID_MESH,
  BOID_MESH_SHADE,
  BOID_MESH_VERTICES,
  SCENE_COLORS,
  SPEED_RAMP,
  viewBasis,
} from '../core/render-math';
import { defaultScene } from '../core/scene';
import type { PassEnv } from './pass-env';
import type { Target } from './textures';
import { useProgram } from './program';

export type DrawMode = 'instanced' | 'vertex-id';

/** BOID_MESH xyz + BOID_MESH_SHADE as vec4[12]. */
const MESH = new Float32Array(4 * BOID_MESH_VERTICES);
for (let v = 0; v < BOID_MESH_VERTICES; v++) {
  MESH.set(BOID_MESH.subarray(3 * v, 3 * v + 3), 4 * v);
  MESH[4 * v + 3] = BOID_MESH_SHADE[v]!;
}
const RAMP = new Float32Array(SPEED_RAMP.flat());
/** How far a sphere's quad reaches, in radii (its perspective silhouette stays inside). */
const SPHERE_PAD_3D = 1.6;

/**
 * Clears the default framebuffer and draws `count` boids of `state`: RGBA32F positions and
 * velocities (textures[0], [1]) of one layout; a render target or sampled copies alike.
 * Then the rest of view.scene (defaultScene when the view carries none).
 */
export function runDraw(
  env: PassEnv,
  state: Pick<Target, 'textures' | 'layout'>,
  count: number,
  params: FlockParams,
  view: RenderView,
  mode: DrawMode,
): void {
  const { gl } = env;
  const scene = view.scene ?? defaultScene(params, view.boidSize);
  const dims = params.dimensions === 2 ? 2 : 3;
  const prog = env.programs.get('boid.vert.glsl', 'boid.frag.glsl', {
    DIMS: dims,
    DRAW_VERTEX_ID: mode === 'vertex-id' ? 1 : 0,
    PREDATORS: 0,
  });
  gl.bindFramebuffer(gl.FRAMEBUFFER, null);
  gl.viewport(0, 0, view.width, view.height);
  gl.disable(gl.SCISSOR_TEST);
  gl.disable(gl.BLEND);
  gl.disable(gl.CULL_FACE);
  gl.enable(gl.DEPTH_TEST);
  gl.depthFunc(gl.LESS);
  gl.depthMask(true);
  const [r, g, b, a] = scene.background;
  // The canvas is premultiplied: a translucent background is written as (rgb * a, a).
  gl.clearColor(r * a, g * a, b * a, a);
  gl.clearDepth(1);
  gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
  const common = {
    uViewProj: view.viewProj,
    uMesh: MESH,
    uRamp: RAMP,
    uMinSpeed: params.minSpeed,
    uMaxSpeed: params.maxSpeed,
  };
  useProgram(gl, prog, {
    ...common,
    uPos: state.textures[0],
    uVel: state.textures[1],
    // |N_i| (density mode) where the state has its third texture.
    uNbr: state.textures[2] ?? state.textures[1],
    uHasNbr: state.textures[2] ? 1 : 0,
    uShift: state.layout.shift,
    uBoidSize: view.boidSize,
    uColorMode: scene.colorMode,
    uColor: scene.color,
    uTable: scene.table,
    uDensityMax: scene.densityMax,
  });
  gl.bindVertexArray(env.vao);
  if (mode === 'vertex-id') gl.drawArrays(gl.TRIANGLES, 0, count * BOID_MESH_VERTICES);
  else gl.drawArraysInstanced(gl.TRIANGLES, 0, BOID_MESH_VERTICES, count);

  const predators = scene.predators.length / 8;
  if (predators > 0) {
    const p = env.programs.get('boid.vert.glsl', 'boid.frag.glsl', {
      DIMS: dims,
      DRAW_VERTEX_ID: 0,
      PREDATORS: 1,
    });
    const data = new Float32Array(64);
    data.set(scene.predators.subarray(0, 64));
    useProgram(gl, p, {
      ...common,
      uBoidSize: scene.predatorSize,
      uPredators: data,
      uPredatorColor: SCENE_COLORS.predator,
    });
    gl.drawArraysInstanced(gl.TRIANGLES, 0, BOID_MESH_VERTICES, predators);
  }

  const basis = viewBasis(view.viewProj);
  const billboard = {
    uViewProj: view.viewProj,
    uRight: basis.right,
    uUp: basis.up,
  };
  const obstacles = scene.obstacles.length / 4;
  if (obstacles > 0) {
    const p = env.programs.get('billboard.vert.glsl', 'sphere.frag.glsl', { DIMS: dims });
    const spheres = new Float32Array(64);
    spheres.set(scene.obstacles.subarray(0, 64));
    useProgram(gl, p, {
      ...billboard,
      uSpheres: spheres,
      uPad: dims === 2 ? 1 : SPHERE_PAD_3D,
      uEye: basis.eye,
      uForward: basis.forward,
      uObstacleColor: SCENE_COLORS.obstacle,
    });
    gl.drawArraysInstanced(gl.TRIANGLES, 0, 6, obstacles);
  }

  if (scene.bounds) {
    const p = env.programs.get('bounds.vert.glsl', 'flat.frag.glsl', { DIMS: dims });
    useProgram(gl, p, {
      uViewProj: view.viewProj,
      uMin: scene.bounds.min,
      uMax: scene.bounds.max,
      uFlatColor: SCENE_COLORS.bounds,
    });
    gl.drawArrays(gl.LINES, 0, dims === 2 ? 8 : 24);
  }

  if (scene.attractor) {
    const p = env.programs.get('billboard.vert.glsl', 'marker.frag.glsl', { DIMS: dims });
    const at = scene.attractor;
    const spheres = new Float32Array(64);
    spheres.set([at[0], at[1], at[2], scene.attractorRadius]);
    // A cursor: over everything (no depth test), blended (premultiplied).
    gl.enable(gl.BLEND);
    gl.blendFunc(gl.ONE, gl.ONE_MINUS_SRC_ALPHA);
    gl.disable(gl.DEPTH_TEST);
    gl.depthMask(false);
    useProgram(gl, p, {
      ...billboard,
      uSpheres: spheres,
      uPad: 1.05,
      uMarkerColor: at[3] > 0 ? SCENE_COLORS.attract : SCENE_COLORS.repel,
    });
    gl.drawArraysInstanced(gl.TRIANGLES, 0, 6, 1);
    gl.depthMask(true);
    gl.enable(gl.DEPTH_TEST);
    gl.disable(gl.BLEND);
  }
  gl.bindVertexArray(null);
}
