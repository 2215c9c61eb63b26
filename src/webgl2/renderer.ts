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
import { MAX_MESH_VERTICES, MESHES, SHAPE_CODE, lookFrame, meshVertices } from '../core/look';
import { SCENE_COLORS, viewBasis } from '../core/render-math';
import { defaultScene, type RenderScene } from '../core/scene';
import type { PassEnv } from './pass-env';
import type { Target } from './textures';
import { useProgram } from './program';

export type DrawMode = 'instanced' | 'vertex-id';

/** Each shape's mesh as look.glsl's uMesh (vec4[2 * MAX_MESH_VERTICES]), zero-padded. */
const MESH_UNIFORMS = Object.fromEntries(
  Object.entries(MESHES).map(([shape, m]) => {
    const out = new Float32Array(8 * MAX_MESH_VERTICES);
    out.set(m);
    return [shape, out];
  }),
) as Record<keyof typeof MESHES, Float32Array>;
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
  time = 0,
): void {
  const { gl } = env;
  const scene = view.scene ?? defaultScene(params, view.boidSize);
  const basis = viewBasis(view.viewProj);
  const dims = params.dimensions === 2 ? 2 : 3;
  const prog = env.programs.get('boid.vert.glsl', 'boid.frag.glsl', {
    DIMS: dims,
    DRAW_VERTEX_ID: mode === 'vertex-id' ? 1 : 0,
    PREDATORS: 0,
  });
  const [r, g, b, a] = scene.background;
  // Trails, or no multisampling: the scene goes to an offscreen target first (below).
  const offscreen = scene.trail > 0 || !scene.antialias;
  gl.disable(gl.SCISSOR_TEST);
  gl.disable(gl.BLEND);
  gl.disable(gl.CULL_FACE);
  gl.depthMask(true);
  gl.clearDepth(1);
  gl.bindVertexArray(env.vao);
  if (offscreen) {
    const t = drawTarget(env, view.width, view.height);
    gl.bindFramebuffer(gl.FRAMEBUFFER, t.fbo);
    gl.viewport(0, 0, view.width, view.height);
    if (t.fresh || scene.trail === 0) {
      gl.clearColor(0, 0, 0, 0);
      gl.clear(gl.COLOR_BUFFER_BIT);
      t.fresh = false;
    } else {
      gl.disable(gl.DEPTH_TEST);
      gl.enable(gl.BLEND);
      gl.blendEquation(gl.FUNC_REVERSE_SUBTRACT);
      gl.blendFunc(gl.ONE, gl.CONSTANT_ALPHA);
      gl.blendColor(0, 0, 0, scene.trail);
      useProgram(gl, env.programs.get('fullscreen.vert.glsl', 'fade.frag.glsl'), {});
      gl.drawArrays(gl.TRIANGLES, 0, 3);
      gl.blendEquation(gl.FUNC_ADD);
      gl.disable(gl.BLEND);
    }
    gl.clear(gl.DEPTH_BUFFER_BIT);
  } else {
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    gl.viewport(0, 0, view.width, view.height);
    // The canvas is premultiplied: a translucent background is written as (rgb * a, a).
    gl.clearColor(r * a, g * a, b * a, a);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
  }
  gl.enable(gl.DEPTH_TEST);
  gl.depthFunc(gl.LESS);
  const verts = meshVertices(scene.shape);
  const common = {
    uViewProj: view.viewProj,
    uRamp: new Float32Array(scene.ramp.flat()),
    uMinSpeed: params.minSpeed,
    uMaxSpeed: params.maxSpeed,
    uVerts: verts,
    ...lookUniforms(params, scene, view, basis, time),
  };
  // Fogged boids are translucent on a transparent background: premultiplied "over".
  if (scene.fog > 0) {
    gl.enable(gl.BLEND);
    gl.blendFunc(gl.ONE, gl.ONE_MINUS_SRC_ALPHA);
  }
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
  if (mode === 'vertex-id') gl.drawArrays(gl.TRIANGLES, 0, count * verts);
  else gl.drawArraysInstanced(gl.TRIANGLES, 0, verts, count);

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
    gl.drawArraysInstanced(gl.TRIANGLES, 0, verts, predators);
  }
  gl.disable(gl.BLEND);

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

  if (offscreen) {
    // The trail (or single-sampled) target over the background, premultiplied "over".
    const t = drawTarget(env, view.width, view.height);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    gl.viewport(0, 0, view.width, view.height);
    gl.clearColor(r * a, g * a, b * a, a);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
    gl.disable(gl.DEPTH_TEST);
    gl.enable(gl.BLEND);
    gl.blendFunc(gl.ONE, gl.ONE_MINUS_SRC_ALPHA);
    useProgram(gl, env.programs.get('fullscreen.vert.glsl', 'trail.frag.glsl'), {
      uTrail: t.texture,
    });
    gl.drawArrays(gl.TRIANGLES, 0, 3);
    gl.disable(gl.BLEND);
    gl.enable(gl.DEPTH_TEST);
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

/** look.glsl's uniforms for one frame (src/core/look.ts lookFrame). */
function lookUniforms(
  params: FlockParams,
  scene: RenderScene,
  view: RenderView,
  basis: ReturnType<typeof viewBasis>,
  time: number,
): Record<string, unknown> {
  const f = lookFrame(params, scene.shape, scene.light, basis, view.viewProj, view.height, time);
  return {
    uMesh: MESH_UNIFORMS[scene.shape],
    uShape: SHAPE_CODE[scene.shape],
    uClock: f.clock,
    uLook: [scene.flap, scene.lighting, scene.fog, scene.lodPixels],
    uLightDir: f.lightDir,
    uSkyDir: f.skyDir,
    uLightColor: f.lightColor,
    uSkyColor: f.skyColor,
    uGroundColor: f.groundColor,
    uEye: basis.eye,
    uCamForward: basis.forward,
    uFog: [f.fogNear, f.fogInvSpan, f.pxPerUnit],
    uViewport: [view.width, view.height],
  };
}

/** The offscreen colour target of trails (kept between frames) with its depth buffer. */
interface DrawTarget {
  fbo: WebGLFramebuffer;
  texture: WebGLTexture;
  depth: WebGLRenderbuffer;
  width: number;
  height: number;
  /** Not drawn into yet: cleared, not faded. */
  fresh: boolean;
}

/** One per PassEnv: a context restore or a rebuild makes a new env, so the trail restarts. */
const drawTargets = new WeakMap<PassEnv, DrawTarget>();

/** The env's draw target at w x h (re-made on a resize: the trail restarts). */
function drawTarget(env: PassEnv, width: number, height: number): DrawTarget {
  const { gl } = env;
  const have = drawTargets.get(env);
  if (have && have.width === width && have.height === height) return have;
  freeDrawTarget(env);
  const texture = gl.createTexture()!;
  gl.bindTexture(gl.TEXTURE_2D, texture);
  gl.texStorage2D(gl.TEXTURE_2D, 1, gl.RGBA8, width, height);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
  gl.bindTexture(gl.TEXTURE_2D, null);
  const depth = gl.createRenderbuffer()!;
  gl.bindRenderbuffer(gl.RENDERBUFFER, depth);
  gl.renderbufferStorage(gl.RENDERBUFFER, gl.DEPTH_COMPONENT24, width, height);
  gl.bindRenderbuffer(gl.RENDERBUFFER, null);
  const fbo = gl.createFramebuffer()!;
  gl.bindFramebuffer(gl.FRAMEBUFFER, fbo);
  gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, texture, 0);
  gl.framebufferRenderbuffer(gl.FRAMEBUFFER, gl.DEPTH_ATTACHMENT, gl.RENDERBUFFER, depth);
  const t = { fbo, texture, depth, width, height, fresh: true };
  drawTargets.set(env, t);
  return t;
}

/** Deletes the env's draw target, if any (the backend calls it before deleting the env). */
export function freeDrawTarget(env: PassEnv): void {
  const t = drawTargets.get(env);
  if (!t) return;
  drawTargets.delete(env);
  const { gl } = env;
  gl.deleteFramebuffer(t.fbo);
  gl.deleteTexture(t.texture);
  gl.deleteRenderbuffer(t.depth);
}
