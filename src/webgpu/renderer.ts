/**
 * The WebGPU renderer: the same picture as src/webgl2/renderer.ts (boids coloured by the view's
 * colour mode over its background, premultiplied alpha; predators, obstacles, the box outline,
 * the attractor's marker: src/core/scene.ts) into a configured canvas context, with a depth
 * buffer. The scene's pipelines are made on first use (a plain flock never builds them). Reads the
 * simulation's state buffer directly: its position and velocity blocks as instance vertex data
 * ('instanced', works in
 * compatibility mode) or, where the vertex stage may read storage buffers, as a storage buffer
 * indexed by vertex_index / verts ('vertex-id'). Owns its pipelines' buffers and depth texture.
 *
 * The look (DESIGN section 7): `antialias` draws into a 4x multisampled texture resolved into the
 * canvas (pipelines of sampleCount 4, built in the background the first time they are asked
 * for: until then the frame draws with what is built). `trail` > 0 keeps a colour texture of the
 * canvas's size between frames: each frame fades it (dst * trail - 1/255, so nothing lingers as
 * an 8-bit residue), draws the scene into it with a fresh depth buffer, then the canvas pass
 * clears to the background, composites it (premultiplied "over") and draws the attractor's
 * marker on top. The texture is re-made on resize and with the device (the trail restarts, the
 * flock does not). With `antialias` the trail is kept in a 4x multisampled texture (faded and
 * drawn per sample, stored between frames) that resolves into that colour texture each frame, and
 * the canvas pass is multisampled too: trails keep their smooth edges.
 */
import { lookFrame, meshVertices } from '../core/look';
import { viewBasis } from '../core/render-draw';
import { defaultScene } from '../core/default-scene';
import type { RenderView } from '../backend';
import { BufferUsage, ShaderStage } from './constants';
import { createCheckedModule, shaderFiles } from './shaders';
import { BOID_BYTES, type FlockSimulation } from './simulation';
import { LazyPassTimer } from './pass-timer';
import { RENDER_UNIFORMS } from './uniforms';

export type DrawMode = 'instanced' | 'vertex-id';

const DEPTH_FORMAT: GPUTextureFormat = 'depth24plus';

export interface BoidRenderer {
  /** Modes this device can draw with ('vertex-id' needs storage buffers in the vertex stage). */
  readonly modes: readonly DrawMode[];
  drawMode: DrawMode;
  /**
   * The boid pipelines, shared with every renderer of the same device, module and format
   * (vertexId made on its first read).
   */
  readonly pipelines: {
    readonly instanced: GPURenderPipeline;
    readonly vertexId: GPURenderPipeline | null;
  };
  /** Draws the simulation's current state into the context's current texture. */
  render(context: GPUCanvasContext, view: RenderView): void;
  /** ms of the last timed draw batch, or null. */
  drawMs(): number | null;
  dispose(): void;
}

/**
 * Storage buffers the vertex stage may bind: the newer limit where the device reports it (0 in
 * compatibility mode unless requested), else core WebGPU's per-stage limit.
 */
export function vertexStorageBuffers(device: GPUDevice): number {
  const l = device.limits as GPUSupportedLimits & { maxStorageBuffersInVertexStage?: number };
  return typeof l.maxStorageBuffersInVertexStage === 'number'
    ? l.maxStorageBuffersInVertexStage
    : l.maxStorageBuffersPerShaderStage;
}

/**
 * The render pipelines and layouts of one (device, shader module, canvas format): what makes a
 * pipeline differ. Shared by every renderer on the device (flocks on one page share the device,
 * device.ts), so the second flock on a page compiles nothing. Held per module in a WeakMap (the
 * module itself is cached per device and source by createCheckedModule), so they go with the
 * device when the last flock releases it.
 */
interface RenderPipelines {
  readonly modes: readonly DrawMode[];
  readonly instancedLayout: GPUBindGroupLayout;
  readonly vertexIdLayout: GPUBindGroupLayout | null;
  readonly instanced: GPURenderPipeline;
  readonly vertexId: GPURenderPipeline | null;
  /** The scene's pipelines (predators, obstacles, bounds, marker, trail), made on first use. */
  scene(
    vertex: string,
    fragment: string,
    options?: { lines?: boolean; blend?: 'over' | 'marker' | 'fade'; trailLayout?: boolean },
  ): GPURenderPipeline;
  /** The trail composite's layout: the trail texture at group 0, binding 0. */
  readonly trailLayout: GPUBindGroupLayout;
  readonly samples: number;
}

/** Premultiplied "over". */
const OVER: GPUBlendState = {
  color: { srcFactor: 'one', dstFactor: 'one-minus-src-alpha' },
  alpha: { srcFactor: 'one', dstFactor: 'one-minus-src-alpha' },
};
/** The trail's fade: dst * constant - src (the blend constant is the trail factor). */
const FADE: GPUBlendState = {
  color: { operation: 'reverse-subtract', srcFactor: 'one', dstFactor: 'constant' },
  alpha: { operation: 'reverse-subtract', srcFactor: 'one', dstFactor: 'constant' },
};

interface CacheEntry {
  /** Set once built (at once by a sync build, on resolve by an async one). */
  ready: RenderPipelines | null;
  promise: Promise<RenderPipelines>;
}
const pipelineCache = new WeakMap<GPUShaderModule, Map<string, CacheEntry>>();

function cacheOf(module: GPUShaderModule): Map<string, CacheEntry> {
  let byKey = pipelineCache.get(module);
  if (!byKey) pipelineCache.set(module, (byKey = new Map()));
  return byKey;
}

function renderPipelines(
  device: GPUDevice,
  module: GPUShaderModule,
  format: GPUTextureFormat,
  samples: number,
): Promise<RenderPipelines> {
  const cache = cacheOf(module);
  const key = `${format}/${samples}`;
  let entry = cache.get(key);
  if (!entry) {
    const promise = buildRenderPipelines(
      device,
      module,
      format,
      samples,
      false,
    ) as Promise<RenderPipelines>;
    const made: CacheEntry = { ready: null, promise };
    entry = made;
    cache.set(key, made);
    promise.then(
      (p) => (made.ready ??= p),
      () => {
        if (cache.get(key) === made) cache.delete(key);
      },
    );
  }
  return entry.promise;
}

/**
 * The pipelines of (format, samples) now: the cached ones, or made synchronously (one stall the
 * first time a renderer asks for another sample count, so that frame already uses them).
 */
function renderPipelinesNow(
  device: GPUDevice,
  module: GPUShaderModule,
  format: GPUTextureFormat,
  samples: number,
): RenderPipelines {
  const cache = cacheOf(module);
  const key = `${format}/${samples}`;
  const entry = cache.get(key);
  if (entry?.ready) return entry.ready;
  const ready = buildRenderPipelines(device, module, format, samples, true) as RenderPipelines;
  cache.set(key, { ready, promise: Promise.resolve(ready) });
  return ready;
}

/** The pipelines of (format, samples): at once with `sync`, else as a promise (async compiles). */
function buildRenderPipelines(
  device: GPUDevice,
  module: GPUShaderModule,
  format: GPUTextureFormat,
  samples: number,
  sync: boolean,
): RenderPipelines | Promise<RenderPipelines> {
  const modes: DrawMode[] = ['instanced'];
  // vertex-id reads the state and |N_i| as two storage buffers in the vertex stage.
  if (vertexStorageBuffers(device) >= 2) modes.push('vertex-id');
  const bothStages = ShaderStage.VERTEX | ShaderStage.FRAGMENT;
  const instancedLayout = device.createBindGroupLayout({
    label: 'flock.render.instanced',
    entries: [{ binding: 0, visibility: bothStages, buffer: { type: 'uniform' } }],
  });
  const vertexIdLayout = modes.includes('vertex-id')
    ? device.createBindGroupLayout({
        label: 'flock.render.vertexId',
        entries: [
          { binding: 0, visibility: bothStages, buffer: { type: 'uniform' } },
          { binding: 1, visibility: ShaderStage.VERTEX, buffer: { type: 'read-only-storage' } },
          { binding: 2, visibility: ShaderStage.VERTEX, buffer: { type: 'read-only-storage' } },
        ],
      })
    : null;
  // Boids are premultiplied (fog fades colour and alpha together): drawn "over".
  const common = {
    fragment: { module, entryPoint: 'fs', targets: [{ format, blend: OVER }] },
    primitive: { topology: 'triangle-list' as const, cullMode: 'none' as const },
    depthStencil: { format: DEPTH_FORMAT, depthWriteEnabled: true, depthCompare: 'less' as const },
    multisample: { count: samples },
  };
  const uniformOnly = device.createPipelineLayout({ bindGroupLayouts: [instancedLayout] });
  const trailLayout = device.createBindGroupLayout({
    label: 'flock.render.trail',
    entries: [{ binding: 0, visibility: ShaderStage.FRAGMENT, texture: { sampleType: 'float' } }],
  });
  const trailPipelineLayout = device.createPipelineLayout({ bindGroupLayouts: [trailLayout] });
  const scenePipelines = new Map<string, GPURenderPipeline>();
  const scene: RenderPipelines['scene'] = (vertex, fragment, options = {}) => {
    let p = scenePipelines.get(`${vertex}/${fragment}`);
    if (!p) {
      const blend = options.blend;
      p = device.createRenderPipeline({
        label: `flock.render.${vertex}`,
        layout: options.trailLayout ? trailPipelineLayout : uniformOnly,
        vertex: { module, entryPoint: vertex },
        fragment: {
          module,
          entryPoint: fragment,
          targets: [blend ? { format, blend: blend === 'fade' ? FADE : OVER } : { format }],
        },
        primitive: {
          topology: options.lines ? 'line-list' : 'triangle-list',
          cullMode: 'none',
        },
        depthStencil: {
          format: DEPTH_FORMAT,
          // The marker is a cursor: over everything; the predators are boids.
          depthWriteEnabled: !blend || vertex === 'vsPredator',
          depthCompare: !blend || vertex === 'vsPredator' ? 'less' : 'always',
        },
        multisample: { count: samples },
      });
      scenePipelines.set(`${vertex}/${fragment}`, p);
    }
    return p;
  };
  const instancedDesc: GPURenderPipelineDescriptor = {
    label: 'flock.render.instanced',
    layout: uniformOnly,
    vertex: {
      module,
      entryPoint: 'vsInstanced',
      // The state buffer's position block and velocity block, bound at two offsets.
      buffers: [
        ...[0, 1].map((shaderLocation) => ({
          arrayStride: 16,
          stepMode: 'instance' as const,
          attributes: [{ shaderLocation, offset: 0, format: 'float32x4' as const }],
        })),
        // |N_i|, one f32 per boid (the simulation's nbr buffer).
        {
          arrayStride: 4,
          stepMode: 'instance' as const,
          attributes: [{ shaderLocation: 2, offset: 0, format: 'float32' as const }],
        },
      ],
    },
    ...common,
  };
  const vertexIdDesc: GPURenderPipelineDescriptor | null = vertexIdLayout
    ? {
        label: 'flock.render.vertexId',
        layout: device.createPipelineLayout({ bindGroupLayouts: [vertexIdLayout] }),
        vertex: { module, entryPoint: 'vsVertexId' },
        ...common,
      }
    : null;
  // The vertex-id pipeline is made when first drawn with (drawMode 'vertex-id': one stall then):
  // the default instanced one is all a first frame waits for (issue 27: the wait for the render
  // pipelines after the simulation is made, median 70 -> 37 ms on SwiftShader).
  let vertexId: GPURenderPipeline | null = null;
  const finish = (instanced: GPURenderPipeline): RenderPipelines => ({
    modes,
    instancedLayout,
    vertexIdLayout,
    instanced,
    get vertexId() {
      if (vertexIdDesc) vertexId ??= device.createRenderPipeline(vertexIdDesc);
      return vertexId;
    },
    scene,
    trailLayout,
    samples,
  });
  if (sync) return finish(device.createRenderPipeline(instancedDesc));
  return device.createRenderPipelineAsync(instancedDesc).then(finish);
}

/** Multisampling of a frame: 4x with `antialias` (trails included). */
function samplesFor(scene: { antialias: boolean }): number {
  return scene.antialias ? 4 : 1;
}

/**
 * Starts compiling what createBoidRenderer awaits (render.wgsl's module and the antialiased
 * pipelines of `format`), so that it overlaps other start-up work (the simulation's modules);
 * both are cached per device and module, and createBoidRenderer finds them. Errors are left to
 * createBoidRenderer, which reports them (ShaderError).
 */
export function prepareBoidRenderer(device: GPUDevice, format: GPUTextureFormat): void {
  void createCheckedModule(device, 'render.wgsl', shaderFiles())
    .then((module) => renderPipelines(device, module, format, 4))
    .catch(() => undefined);
}

/**
 * A renderer of `sim` into canvases of `format`. Its pipelines come from the device's cache
 * (renderPipelines); it owns its uniform buffer, bind groups, depth, multisample and trail
 * textures.
 * @throws ShaderError when render.wgsl (with `options.shaderFiles`) does not compile.
 */
export async function createBoidRenderer(
  device: GPUDevice,
  format: GPUTextureFormat,
  sim: FlockSimulation,
  options: { drawMode?: DrawMode; timestamps?: boolean; shaderFiles?: Record<string, string> } = {},
): Promise<BoidRenderer> {
  const module = await createCheckedModule(device, 'render.wgsl', shaderFiles(options.shaderFiles));
  // The default view antialiases: its pipelines first; the single-sampled ones (antialias off)
  // are made when first asked for.
  const first = await renderPipelines(device, module, format, 4);
  const pipelinesFor = (samples: number): RenderPipelines =>
    samples === 4 ? first : renderPipelinesNow(device, module, format, samples);
  const { modes, instanced } = first;
  const uniformBuffer = device.createBuffer({
    label: 'flock.render.uniforms',
    size: RENDER_UNIFORMS.size,
    usage: BufferUsage.UNIFORM | BufferUsage.COPY_DST,
  });
  const timer = new LazyPassTimer(device, options.timestamps ?? true, 'flock.render');

  /** Size-dependent textures, re-made when the canvas size or sample count changes. */
  let depth: GPUTexture | null = null;
  let msaa: GPUTexture | null = null;
  /** The trail: `texture` is sampled by the composite; `ms`, when multisampled, is what persists. */
  let trail: {
    texture: GPUTexture;
    ms: GPUTexture | null;
    group: GPUBindGroup;
    fresh: boolean;
  } | null = null;
  const groups = new Map<GPUBindGroupLayout, GPUBindGroup>();
  let vertexIdGroup: {
    layout: GPUBindGroupLayout;
    group: GPUBindGroup;
    state: GPUBuffer;
    nbr: GPUBuffer;
  } | null = null;
  /** Zeros standing in for |N_i| where the simulation keeps none. */
  let zeros: GPUBuffer | null = null;
  const nbrBuffer = (count: number): GPUBuffer => {
    const own = (sim.buffers as { nbr?: GPUBuffer }).nbr;
    if (own) return own;
    if (!zeros || zeros.size < 4 * count) {
      zeros?.destroy();
      zeros = device.createBuffer({
        label: 'flock.render.nbrZeros',
        size: Math.max(16, 4 * count),
        usage: BufferUsage.VERTEX | BufferUsage.STORAGE,
      });
    }
    return zeros;
  };
  const uniformGroup = (layout: GPUBindGroupLayout): GPUBindGroup => {
    let g = groups.get(layout);
    if (!g) {
      g = device.createBindGroup({
        layout,
        entries: [{ binding: 0, resource: { buffer: uniformBuffer } }],
      });
      groups.set(layout, g);
    }
    return g;
  };
  const sized = (t: GPUTexture | null, w: number, h: number, samples: number) =>
    t !== null && t.width === w && t.height === h && t.sampleCount === samples;
  let disposed = false;
  let mode: DrawMode =
    options.drawMode && modes.includes(options.drawMode) ? options.drawMode : 'instanced';

  /** Boids, predators, obstacles and the box outline into an open pass. */
  const drawScene = (
    pass: GPURenderPassEncoder,
    pl: RenderPipelines,
    scene: ReturnType<typeof defaultScene>,
    dims: number,
  ): void => {
    const state = sim.buffers.state;
    const nbr = nbrBuffer(sim.count);
    const verts = meshVertices(scene.shape);
    if (mode === 'vertex-id' && pl.vertexId && pl.vertexIdLayout) {
      if (
        !vertexIdGroup ||
        vertexIdGroup.layout !== pl.vertexIdLayout ||
        vertexIdGroup.state !== state ||
        vertexIdGroup.nbr !== nbr
      ) {
        vertexIdGroup = {
          layout: pl.vertexIdLayout,
          state,
          nbr,
          group: device.createBindGroup({
            layout: pl.vertexIdLayout,
            entries: [
              { binding: 0, resource: { buffer: uniformBuffer } },
              { binding: 1, resource: { buffer: state, size: sim.count * BOID_BYTES } },
              { binding: 2, resource: { buffer: nbr, size: sim.count * 4 } },
            ],
          }),
        };
      }
      pass.setPipeline(pl.vertexId);
      pass.setBindGroup(0, vertexIdGroup.group);
      pass.draw(sim.count * verts);
    } else {
      pass.setPipeline(pl.instanced);
      pass.setBindGroup(0, uniformGroup(pl.instancedLayout));
      pass.setVertexBuffer(0, state, 0, sim.count * 16);
      pass.setVertexBuffer(1, state, sim.count * 16, sim.count * 16);
      pass.setVertexBuffer(2, nbr, 0, sim.count * 4);
      pass.draw(verts, sim.count);
    }
    pass.setBindGroup(0, uniformGroup(pl.instancedLayout));
    const predators = Math.min(8, scene.predators.length / 8);
    if (predators > 0) {
      pass.setPipeline(pl.scene('vsPredator', 'fs', { blend: 'over' }));
      pass.draw(verts, predators);
    }
    const obstacles = Math.min(16, scene.obstacles.length / 4);
    if (obstacles > 0) {
      pass.setPipeline(pl.scene('vsObstacle', 'fsObstacle'));
      pass.draw(6, obstacles);
    }
    if (scene.bounds) {
      pass.setPipeline(pl.scene('vsBounds', 'fsBounds', { lines: true }));
      pass.draw(dims === 2 ? 8 : 24);
    }
  };

  return {
    modes,
    pipelines: {
      instanced,
      get vertexId() {
        return first.vertexId;
      },
    },
    get drawMode() {
      return mode;
    },
    set drawMode(m: DrawMode) {
      if (!modes.includes(m))
        throw new Error(`draw mode '${m}' is not available on this device (${modes.join(', ')})`);
      mode = m;
    },
    render(context, view) {
      if (disposed || sim.disposed) return;
      // A 0x0 canvas has no swap-chain texture: nothing to draw, and drawing is a device error.
      if (!context.canvas.width || !context.canvas.height) return;
      const params = sim.params;
      const scene = view.scene ?? defaultScene(params, view.boidSize);
      const basis = viewBasis(view.viewProj);
      device.queue.writeBuffer(
        uniformBuffer,
        0,
        RENDER_UNIFORMS.pack({
          viewProj: view.viewProj,
          boidSize: view.boidSize,
          minSpeed: params.minSpeed,
          maxSpeed: params.maxSpeed,
          dimensions: params.dimensions,
          scene,
          basis,
          look: lookFrame(
            params,
            scene.shape,
            scene.light,
            basis,
            view.viewProj,
            view.height,
            sim.time,
          ),
          width: view.width,
          height: view.height,
        }),
      );
      const [br, bgr, bb, ba] = scene.background;
      // The canvas is premultiplied: a translucent background is (rgb * a, a).
      const clearValue = [br * ba, bgr * ba, bb * ba, ba];
      const target = context.getCurrentTexture();
      const w = target.width;
      const h = target.height;
      const pl = pipelinesFor(samplesFor(scene));
      const samples = pl.samples;
      if (!sized(depth, w, h, samples)) {
        depth?.destroy();
        depth = device.createTexture({
          label: 'flock.render.depth',
          size: [w, h],
          format: DEPTH_FORMAT,
          sampleCount: samples,
          usage: GPUTextureUsageRenderAttachment,
        });
      }
      if (samples > 1 && !sized(msaa, w, h, samples)) {
        msaa?.destroy();
        msaa = device.createTexture({
          label: 'flock.render.msaa',
          size: [w, h],
          format,
          sampleCount: samples,
          usage: GPUTextureUsageRenderAttachment,
        });
      }
      const useTrail = scene.trail > 0;
      if (
        useTrail &&
        (!sized(trail?.texture ?? null, w, h, 1) || (trail?.ms?.sampleCount ?? 1) !== samples)
      ) {
        trail?.texture.destroy();
        trail?.ms?.destroy();
        const texture = device.createTexture({
          label: 'flock.render.trail',
          size: [w, h],
          format,
          usage: GPUTextureUsageRenderAttachment | GPUTextureUsageTextureBinding,
        });
        trail = {
          texture,
          ms:
            samples > 1
              ? device.createTexture({
                  label: 'flock.render.trailMsaa',
                  size: [w, h],
                  format,
                  sampleCount: samples,
                  usage: GPUTextureUsageRenderAttachment,
                })
              : null,
          fresh: true,
          group: device.createBindGroup({
            layout: pl.trailLayout,
            entries: [{ binding: 0, resource: texture.createView() }],
          }),
        };
      } else if (!useTrail && trail) {
        trail.texture.destroy();
        trail.ms?.destroy();
        trail = null;
      }
      /** The canvas, through the multisampled texture where the frame is multisampled. */
      const canvasAttachment = (
        canvasView: GPUTextureView,
        clearValue: number[],
      ): GPURenderPassColorAttachment =>
        samples > 1
          ? {
              view: msaa!.createView(),
              resolveTarget: canvasView,
              clearValue,
              loadOp: 'clear',
              storeOp: 'discard',
            }
          : { view: canvasView, clearValue, loadOp: 'clear', storeOp: 'store' };
      const encoder = device.createCommandEncoder({ label: 'flock.render' });
      const timed = timer.beginStep();
      const timestampWrites = timed ? timer.writes('draw') : undefined;
      const canvasView = target.createView();
      const depthAttachment: GPURenderPassDepthStencilAttachment = {
        view: depth!.createView(),
        depthClearValue: 1,
        depthLoadOp: 'clear',
        depthStoreOp: 'discard',
      };
      if (useTrail && trail) {
        // Fade what the trail holds, draw the scene into it, then composite it over the
        // background in the canvas pass (the marker, a cursor, on top and unsmeared).
        const trailPass = encoder.beginRenderPass({
          label: 'draw',
          colorAttachments: [
            {
              view: (trail.ms ?? trail.texture).createView(),
              ...(trail.ms ? { resolveTarget: trail.texture.createView() } : {}),
              clearValue: [0, 0, 0, 0],
              loadOp: trail.fresh ? 'clear' : 'load',
              storeOp: 'store',
            },
          ],
          depthStencilAttachment: depthAttachment,
          ...(timestampWrites ? { timestampWrites } : {}),
        });
        trail.fresh = false;
        trailPass.setBindGroup(0, uniformGroup(pl.instancedLayout));
        trailPass.setPipeline(pl.scene('vsFull', 'fsFade', { blend: 'fade' }));
        trailPass.setBlendConstant([scene.trail, scene.trail, scene.trail, scene.trail]);
        trailPass.draw(3);
        drawScene(trailPass, pl, scene, params.dimensions);
        trailPass.end();
        const pass = encoder.beginRenderPass({
          label: 'composite',
          colorAttachments: [canvasAttachment(canvasView, clearValue)],
          depthStencilAttachment: { ...depthAttachment, depthLoadOp: 'clear' },
        });
        pass.setPipeline(pl.scene('vsFull', 'fsTrail', { blend: 'over', trailLayout: true }));
        pass.setBindGroup(0, trail.group);
        pass.draw(3);
        drawMarker(pass, pl, scene);
        pass.end();
      } else {
        const pass = encoder.beginRenderPass({
          label: 'draw',
          colorAttachments: [canvasAttachment(canvasView, clearValue)],
          depthStencilAttachment: depthAttachment,
          ...(timestampWrites ? { timestampWrites } : {}),
        });
        drawScene(pass, pl, scene, params.dimensions);
        drawMarker(pass, pl, scene);
        pass.end();
      }
      timer.resolve(encoder);
      device.queue.submit([encoder.finish()]);
      timer.collect();
    },
    drawMs() {
      return timer.latest()?.passes.draw ?? null;
    },
    dispose() {
      if (disposed) return;
      disposed = true;
      timer.dispose();
      depth?.destroy();
      msaa?.destroy();
      trail?.texture.destroy();
      trail?.ms?.destroy();
      zeros?.destroy();
      uniformBuffer.destroy();
    },
  };

  function drawMarker(
    pass: GPURenderPassEncoder,
    pl: RenderPipelines,
    scene: ReturnType<typeof defaultScene>,
  ): void {
    if (!scene.attractor) return;
    pass.setBindGroup(0, uniformGroup(pl.instancedLayout));
    pass.setPipeline(pl.scene('vsMarker', 'fsMarker', { blend: 'marker' }));
    pass.draw(6);
  }
}

/** GPUTextureUsage.RENDER_ATTACHMENT and TEXTURE_BINDING (spec values; not globals in Node). */
const GPUTextureUsageRenderAttachment = 0x10;
const GPUTextureUsageTextureBinding = 0x04;
