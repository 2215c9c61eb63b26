/**
 * Pass 6, draw: the picture of src/core/scene.ts into the default framebuffer. The boid's mesh
 * (src/core/look.ts) once per boid, oriented along the boid's velocity, scaled by
 * view.boidSize and coloured by the view's colour mode (src/webgl2/boid-color.glsl, the twin of
 * render-draw.ts boidColor); then the predators (the same mesh, larger and red), the obstacles
 * (ray-traced sphere impostors; flat circles in 2D), the box outline and the attractor's soft
 * marker, over the view's background (premultiplied alpha: `transparent` clears to 0).
 * The boid vertex shader fetches the state with texelFetch, either by gl_InstanceID
 * ('instanced') or by gl_VertexID / 12 in one plain draw ('vertex-id': on SwiftShader instancing
 * costs 10-20x more; both give the same pixels).
 * `trail` keeps the picture in an offscreen target between frames (faded, then drawn over, then
 * composited onto the canvas); with `antialias` that target is a 4x multisampled renderbuffer
 * (the fade and the boids per sample, resolved by blitFramebuffer before the composite), so
 * trails keep their smooth edges. A resize or a new context re-makes it: the trail restarts.
 */
import type { RenderView } from '../backend';
import type { FlockParams } from '../core/params';
import { lookFrame, meshVertices } from '../core/look';
import { lookUniformValues } from '../core/look-uniforms';
import { SCENE_COLORS, viewBasis } from '../core/render-draw';
import { defaultScene } from '../core/default-scene';
import type { RenderScene } from '../core/scene';
import type { PassEnv } from './pass-env';
import type { Target } from './textures';
import { useProgram, type ProgramSpec } from './program';

export type DrawMode = 'instanced' | 'vertex-id';

/** How far a sphere's quad reaches, in radii (its perspective silhouette stays inside). */
const SPHERE_PAD_3D = 1.6;

/** The boids' program of a draw in `dims` dimensions by `mode` (to build it before the first draw). */
export function boidProgramSpec(dims: 2 | 3, mode: DrawMode): ProgramSpec {
  return {
    vert: 'boid.vert.glsl',
    frag: 'boid.frag.glsl',
    defines: { DIMS: dims, DRAW_VERTEX_ID: mode === 'vertex-id' ? 1 : 0, PREDATORS: 0 },
  };
}

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
  const boid = boidProgramSpec(dims, mode);
  const prog = env.programs.get(boid.vert, boid.frag, boid.defines);
  const [r, g, b, a] = scene.background;
  /** The canvas's framebuffer, whole, cleared to the background (depth to 1). */
  const clearCanvas = (): void => {
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    gl.viewport(0, 0, view.width, view.height);
    // The canvas is premultiplied: a translucent background is written as (rgb * a, a).
    gl.clearColor(r * a, g * a, b * a, a);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
  };
  // Trails, or no multisampling: the scene goes to an offscreen target first (below). Trails
  // with antialias keep a multisampled colour buffer between frames (faded and drawn per sample)
  // and resolve it into the target's texture before the composite.
  const offscreen = scene.trail > 0 || !scene.antialias;
  const samples = scene.trail > 0 && scene.antialias ? msaaSamples(env) : 0;
  gl.disable(gl.SCISSOR_TEST);
  gl.disable(gl.BLEND);
  gl.disable(gl.CULL_FACE);
  gl.depthMask(true);
  gl.clearDepth(1);
  gl.bindVertexArray(env.vao);
  if (offscreen) {
    const t = drawTarget(env, view.width, view.height, samples);
    gl.bindFramebuffer(gl.FRAMEBUFFER, t.ms?.fbo ?? t.fbo);
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
    clearCanvas();
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
    const t = drawTarget(env, view.width, view.height, samples);
    if (t.ms) {
      // Resolve: the samples' average into the texture the composite reads.
      gl.bindFramebuffer(gl.READ_FRAMEBUFFER, t.ms.fbo);
      gl.bindFramebuffer(gl.DRAW_FRAMEBUFFER, t.fbo);
      const [w, h] = [view.width, view.height];
      gl.blitFramebuffer(0, 0, w, h, 0, 0, w, h, gl.COLOR_BUFFER_BIT, gl.NEAREST);
      gl.bindFramebuffer(gl.READ_FRAMEBUFFER, null);
    }
    clearCanvas();
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

/** look.glsl's uniforms for one frame: the look table's values (src/core/look-uniforms.ts). */
function lookUniforms(
  params: FlockParams,
  scene: RenderScene,
  view: RenderView,
  basis: ReturnType<typeof viewBasis>,
  time: number,
): Record<string, unknown> {
  const look = lookFrame(params, scene.shape, scene.light, basis, view.viewProj, view.height, time);
  return lookUniformValues({ scene, look, basis, width: view.width, height: view.height });
}

/**
 * The offscreen colour target of trails and of antialias off (kept between frames) with its depth
 * buffer; with `ms`, the frame is drawn into ms's multisampled colour and depth renderbuffers (the
 * trail kept per sample) and `texture` only receives its resolve.
 */
interface DrawTarget {
  fbo: WebGLFramebuffer;
  texture: WebGLTexture;
  /** Single-sampled depth; null where `ms` draws. */
  depth: WebGLRenderbuffer | null;
  ms: { fbo: WebGLFramebuffer; color: WebGLRenderbuffer; depth: WebGLRenderbuffer } | null;
  width: number;
  height: number;
  samples: number;
  /** Not drawn into yet: cleared, not faded. */
  fresh: boolean;
}

/** One per PassEnv: a context restore or a rebuild makes a new env, so the trail restarts. */
const drawTargets = new WeakMap<PassEnv, DrawTarget>();
const envSamples = new WeakMap<PassEnv, number>();

/**
 * Samples of a multisampled RGBA8 trail on this context: 4 where RGBA8 renderbuffers take 4 (the
 * WebGL2 minimum of MAX_SAMPLES is 4), else the most it takes; 0 where it takes none.
 */
function msaaSamples(env: PassEnv): number {
  let s = envSamples.get(env);
  if (s === undefined) {
    const { gl } = env;
    const got = gl.getInternalformatParameter(
      gl.RENDERBUFFER,
      gl.RGBA8,
      gl.SAMPLES,
    ) as Int32Array | null;
    const counts = got ? Array.from(got) : [];
    s = counts.includes(4) ? 4 : Math.min(4, Math.max(0, ...counts));
    if (s < 2) s = 0;
    envSamples.set(env, s);
  }
  return s;
}

/** The env's draw target at w x h, `samples` (0: single) (re-made on a change: the trail restarts). */
function drawTarget(env: PassEnv, width: number, height: number, samples: number): DrawTarget {
  const { gl } = env;
  const have = drawTargets.get(env);
  if (have && have.width === width && have.height === height && have.samples === samples)
    return have;
  freeDrawTarget(env);
  const texture = gl.createTexture()!;
  gl.bindTexture(gl.TEXTURE_2D, texture);
  gl.texStorage2D(gl.TEXTURE_2D, 1, gl.RGBA8, width, height);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
  gl.bindTexture(gl.TEXTURE_2D, null);
  const renderbuffer = (format: number) => {
    const rb = gl.createRenderbuffer()!;
    gl.bindRenderbuffer(gl.RENDERBUFFER, rb);
    if (samples > 0)
      gl.renderbufferStorageMultisample(gl.RENDERBUFFER, samples, format, width, height);
    else gl.renderbufferStorage(gl.RENDERBUFFER, format, width, height);
    gl.bindRenderbuffer(gl.RENDERBUFFER, null);
    return rb;
  };
  let depth: WebGLRenderbuffer | null = null;
  let ms: DrawTarget['ms'] = null;
  if (samples > 0) {
    const color = renderbuffer(gl.RGBA8);
    const msDepth = renderbuffer(gl.DEPTH_COMPONENT24);
    const msFbo = gl.createFramebuffer()!;
    gl.bindFramebuffer(gl.FRAMEBUFFER, msFbo);
    gl.framebufferRenderbuffer(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.RENDERBUFFER, color);
    gl.framebufferRenderbuffer(gl.FRAMEBUFFER, gl.DEPTH_ATTACHMENT, gl.RENDERBUFFER, msDepth);
    ms = { fbo: msFbo, color, depth: msDepth };
  } else {
    depth = renderbuffer(gl.DEPTH_COMPONENT24);
  }
  const fbo = gl.createFramebuffer()!;
  gl.bindFramebuffer(gl.FRAMEBUFFER, fbo);
  gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, texture, 0);
  if (depth)
    gl.framebufferRenderbuffer(gl.FRAMEBUFFER, gl.DEPTH_ATTACHMENT, gl.RENDERBUFFER, depth);
  const t = { fbo, texture, depth, ms, width, height, samples, fresh: true };
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
  if (t.depth) gl.deleteRenderbuffer(t.depth);
  if (t.ms) {
    gl.deleteFramebuffer(t.ms.fbo);
    gl.deleteRenderbuffer(t.ms.color);
    gl.deleteRenderbuffer(t.ms.depth);
  }
}
