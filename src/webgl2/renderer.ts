/**
 * Pass 6, draw: BOID_MESH (src/core/render-math.ts) once per boid into the default framebuffer,
 * oriented along the boid's velocity, scaled by view.boidSize and coloured by speed with the
 * SPEED_RAMP stops. The vertex shader fetches the state with texelFetch, either by gl_InstanceID
 * ('instanced') or by gl_VertexID / 12 in one plain draw ('vertex-id': on SwiftShader instancing
 * costs 10-20x more; both give the same pixels).
 */
import type { RenderView } from '../backend';
import type { FlockParams } from '../core/params';
import { BOID_MESH, BOID_MESH_SHADE, BOID_MESH_VERTICES, SPEED_RAMP } from '../core/render-math';
import type { PassEnv } from './pass-env';
import type { Target } from './textures';
import { useProgram } from './program';

export type DrawMode = 'instanced' | 'vertex-id';

/** Background colour, linear RGB. */
export const BACKGROUND: readonly [number, number, number] = [0.02, 0.03, 0.06];

/** BOID_MESH xyz + BOID_MESH_SHADE as vec4[12]. */
const MESH = new Float32Array(4 * BOID_MESH_VERTICES);
for (let v = 0; v < BOID_MESH_VERTICES; v++) {
  MESH.set(BOID_MESH.subarray(3 * v, 3 * v + 3), 4 * v);
  MESH[4 * v + 3] = BOID_MESH_SHADE[v]!;
}
const RAMP = new Float32Array(SPEED_RAMP.flat());

/**
 * Clears the default framebuffer and draws `count` boids of `state`: RGBA32F positions and
 * velocities (textures[0], [1]) of one layout; a render target or sampled copies alike.
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
  const prog = env.programs.get('boid.vert.glsl', 'boid.frag.glsl', {
    DIMS: params.dimensions === 2 ? 2 : 3,
    DRAW_VERTEX_ID: mode === 'vertex-id' ? 1 : 0,
  });
  gl.bindFramebuffer(gl.FRAMEBUFFER, null);
  gl.viewport(0, 0, view.width, view.height);
  gl.disable(gl.SCISSOR_TEST);
  gl.disable(gl.BLEND);
  gl.disable(gl.CULL_FACE);
  gl.enable(gl.DEPTH_TEST);
  gl.depthFunc(gl.LESS);
  gl.depthMask(true);
  gl.clearColor(BACKGROUND[0], BACKGROUND[1], BACKGROUND[2], 1);
  gl.clearDepth(1);
  gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
  useProgram(gl, prog, {
    uPos: state.textures[0],
    uVel: state.textures[1],
    uShift: state.layout.shift,
    uViewProj: view.viewProj,
    uBoidSize: view.boidSize,
    uMesh: MESH,
    uRamp: RAMP,
    uMinSpeed: params.minSpeed,
    uMaxSpeed: params.maxSpeed,
  });
  gl.bindVertexArray(env.vao);
  if (mode === 'vertex-id') gl.drawArrays(gl.TRIANGLES, 0, count * BOID_MESH_VERTICES);
  else gl.drawArraysInstanced(gl.TRIANGLES, 0, BOID_MESH_VERTICES, count);
  gl.bindVertexArray(null);
}
