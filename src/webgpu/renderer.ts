/**
 * The WebGPU renderer: the same picture as src/webgl2/renderer.ts (boids coloured by the view's
 * colour mode over its background, premultiplied alpha; predators, obstacles, the box outline,
 * the attractor's marker: src/core/scene.ts) into a configured canvas context, with a depth
 * buffer. The scene's pipelines are made on first use (a plain flock never builds them). Reads the
 * simulation's state buffer directly: its position and velocity blocks as instance vertex data
 * ('instanced', works in
 * compatibility mode) or, where the vertex stage may read storage buffers, as a storage buffer
 * indexed by vertex_index / 12 ('vertex-id'). Owns its pipelines' buffers and depth texture.
 */
import { BOID_MESH_VERTICES, viewBasis } from '../core/render-math';
import { defaultScene } from '../core/scene';
import type { RenderView } from '../backend';
import { BufferUsage, ShaderStage } from './constants';
import { createCheckedModule, shaderFiles } from './shaders';
import { BOID_BYTES, type FlockSimulation } from './simulation';
import { PassTimer } from './timing';
import { RENDER_UNIFORMS } from './uniforms';

export type DrawMode = 'instanced' | 'vertex-id';

const DEPTH_FORMAT: GPUTextureFormat = 'depth24plus';

export interface BoidRenderer {
  /** Modes this device can draw with ('vertex-id' needs storage buffers in the vertex stage). */
  readonly modes: readonly DrawMode[];
  drawMode: DrawMode;
  /** The boid pipelines, shared with every renderer of the same device, module and format. */
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
  /** The scene's pipelines (predators, obstacles, bounds, marker), made on first use. */
  scene(
    vertex: string,
    fragment: string,
    options?: { lines?: boolean; blend?: boolean },
  ): GPURenderPipeline;
}

const pipelineCache = new WeakMap<
  GPUShaderModule,
  Map<GPUTextureFormat, Promise<RenderPipelines>>
>();

function renderPipelines(
  device: GPUDevice,
  module: GPUShaderModule,
  format: GPUTextureFormat,
): Promise<RenderPipelines> {
  let byFormat = pipelineCache.get(module);
  if (!byFormat) pipelineCache.set(module, (byFormat = new Map()));
  let made = byFormat.get(format);
  if (!made) {
    made = buildRenderPipelines(device, module, format);
    byFormat.set(format, made);
    const cache = byFormat;
    made.catch(() => {
      if (cache.get(format) === made) cache.delete(format);
    });
  }
  return made;
}

async function buildRenderPipelines(
  device: GPUDevice,
  module: GPUShaderModule,
  format: GPUTextureFormat,
): Promise<RenderPipelines> {
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
  const common = {
    fragment: { module, entryPoint: 'fs', targets: [{ format }] },
    primitive: { topology: 'triangle-list' as const, cullMode: 'none' as const },
    depthStencil: { format: DEPTH_FORMAT, depthWriteEnabled: true, depthCompare: 'less' as const },
  };
  const uniformOnly = device.createPipelineLayout({ bindGroupLayouts: [instancedLayout] });
  const scenePipelines = new Map<string, GPURenderPipeline>();
  const scene: RenderPipelines['scene'] = (vertex, fragment, options = {}) => {
    let p = scenePipelines.get(vertex);
    if (!p) {
      p = device.createRenderPipeline({
        label: `flock.render.${vertex}`,
        layout: uniformOnly,
        vertex: { module, entryPoint: vertex },
        fragment: {
          module,
          entryPoint: fragment,
          targets: [
            options.blend
              ? {
                  format,
                  blend: {
                    color: { srcFactor: 'one', dstFactor: 'one-minus-src-alpha' },
                    alpha: { srcFactor: 'one', dstFactor: 'one-minus-src-alpha' },
                  },
                }
              : { format },
          ],
        },
        primitive: {
          topology: options.lines ? 'line-list' : 'triangle-list',
          cullMode: 'none',
        },
        depthStencil: {
          format: DEPTH_FORMAT,
          // The blended marker is a cursor: over everything.
          depthWriteEnabled: !options.blend,
          depthCompare: options.blend ? 'always' : 'less',
        },
      });
      scenePipelines.set(vertex, p);
    }
    return p;
  };
  const [instanced, vertexId] = await Promise.all([
    device.createRenderPipelineAsync({
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
    }),
    vertexIdLayout
      ? device.createRenderPipelineAsync({
          label: 'flock.render.vertexId',
          layout: device.createPipelineLayout({ bindGroupLayouts: [vertexIdLayout] }),
          vertex: { module, entryPoint: 'vsVertexId' },
          ...common,
        })
      : null,
  ]);
  return { modes, instancedLayout, vertexIdLayout, instanced, vertexId, scene };
}

/**
 * A renderer of `sim` into canvases of `format`. Its pipelines come from the device's cache
 * (renderPipelines); it owns its uniform buffer, bind groups and depth texture.
 * @throws ShaderError when render.wgsl (with `options.shaderFiles`) does not compile.
 */
export async function createBoidRenderer(
  device: GPUDevice,
  format: GPUTextureFormat,
  sim: FlockSimulation,
  options: { drawMode?: DrawMode; timestamps?: boolean; shaderFiles?: Record<string, string> } = {},
): Promise<BoidRenderer> {
  const module = await createCheckedModule(device, 'render.wgsl', shaderFiles(options.shaderFiles));
  const { modes, instancedLayout, vertexIdLayout, instanced, vertexId, scene } =
    await renderPipelines(device, module, format);
  const scenePipeline = scene;
  const uniformBuffer = device.createBuffer({
    label: 'flock.render.uniforms',
    size: RENDER_UNIFORMS.size,
    usage: BufferUsage.UNIFORM | BufferUsage.COPY_DST,
  });
  const timer = new PassTimer(device, options.timestamps ?? true, 'flock.render');

  let depth: GPUTexture | null = null;
  let instancedGroup: GPUBindGroup | null = null;
  let vertexIdGroup: { group: GPUBindGroup; state: GPUBuffer; nbr: GPUBuffer } | null = null;
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
  let disposed = false;
  let mode: DrawMode =
    options.drawMode && modes.includes(options.drawMode) ? options.drawMode : 'instanced';

  return {
    modes,
    pipelines: { instanced, vertexId },
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
      const params = sim.params;
      const scene = view.scene ?? defaultScene(params, view.boidSize);
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
          basis: viewBasis(view.viewProj),
        }),
      );
      const [br, bgr, bb, ba] = scene.background;
      const target = context.getCurrentTexture();
      if (!depth || depth.width !== target.width || depth.height !== target.height) {
        depth?.destroy();
        depth = device.createTexture({
          label: 'flock.render.depth',
          size: [target.width, target.height],
          format: DEPTH_FORMAT,
          usage: GPUTextureUsageRenderAttachment,
        });
      }
      const state = sim.buffers.state;
      const nbr = nbrBuffer(sim.count);
      const encoder = device.createCommandEncoder({ label: 'flock.render' });
      const timed = timer.beginStep();
      const timestampWrites = timed ? timer.writes('draw') : undefined;
      const pass = encoder.beginRenderPass({
        label: 'draw',
        colorAttachments: [
          {
            view: target.createView(),
            // The canvas is premultiplied: a translucent background is (rgb * a, a).
            clearValue: [br * ba, bgr * ba, bb * ba, ba],
            loadOp: 'clear',
            storeOp: 'store',
          },
        ],
        depthStencilAttachment: {
          view: depth.createView(),
          depthClearValue: 1,
          depthLoadOp: 'clear',
          depthStoreOp: 'discard',
        },
        ...(timestampWrites ? { timestampWrites } : {}),
      });
      if (mode === 'vertex-id' && vertexId && vertexIdLayout) {
        if (!vertexIdGroup || vertexIdGroup.state !== state || vertexIdGroup.nbr !== nbr) {
          vertexIdGroup = {
            state,
            nbr,
            group: device.createBindGroup({
              layout: vertexIdLayout,
              entries: [
                { binding: 0, resource: { buffer: uniformBuffer } },
                { binding: 1, resource: { buffer: state, size: sim.count * BOID_BYTES } },
                { binding: 2, resource: { buffer: nbr, size: sim.count * 4 } },
              ],
            }),
          };
        }
        pass.setPipeline(vertexId);
        pass.setBindGroup(0, vertexIdGroup.group);
        pass.draw(sim.count * BOID_MESH_VERTICES);
      } else {
        instancedGroup ??= device.createBindGroup({
          layout: instancedLayout,
          entries: [{ binding: 0, resource: { buffer: uniformBuffer } }],
        });
        pass.setPipeline(instanced);
        pass.setBindGroup(0, instancedGroup);
        pass.setVertexBuffer(0, state, 0, sim.count * 16);
        pass.setVertexBuffer(1, state, sim.count * 16, sim.count * 16);
        pass.setVertexBuffer(2, nbr, 0, sim.count * 4);
        pass.draw(BOID_MESH_VERTICES, sim.count);
      }
      instancedGroup ??= device.createBindGroup({
        layout: instancedLayout,
        entries: [{ binding: 0, resource: { buffer: uniformBuffer } }],
      });
      pass.setBindGroup(0, instancedGroup);
      const predators = Math.min(8, scene.predators.length / 8);
      if (predators > 0) {
        pass.setPipeline(scenePipeline('vsPredator', 'fs'));
        pass.draw(BOID_MESH_VERTICES, predators);
      }
      const obstacles = Math.min(16, scene.obstacles.length / 4);
      if (obstacles > 0) {
        pass.setPipeline(scenePipeline('vsObstacle', 'fsObstacle'));
        pass.draw(6, obstacles);
      }
      if (scene.bounds) {
        pass.setPipeline(scenePipeline('vsBounds', 'fsBounds', { lines: true }));
        pass.draw(params.dimensions === 2 ? 8 : 24);
      }
      if (scene.attractor) {
        pass.setPipeline(scenePipeline('vsMarker', 'fsMarker', { blend: true }));
        pass.draw(6);
      }
      pass.end();
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
      zeros?.destroy();
      uniformBuffer.destroy();
    },
  };
}

/** GPUTextureUsage.RENDER_ATTACHMENT (spec value; not a global in Node). */
const GPUTextureUsageRenderAttachment = 0x10;
