/**
 * WGSL sources of the WebGPU backend (the .wgsl files beside this module) plus the generated
 * chunks (uniform structs from uniforms.ts), resolved with
 * `#include` by src/core/shader-source.ts, compiled with their compilation info checked, and
 * turned into compute pipelines with explicit bind group layouts.
 */
import { ShaderError, mapWgslMessages, resolveShader } from '../core/shader-source';
import { generatedChunks } from './uniforms';
import { ShaderStage } from './constants';

const RAW = import.meta.glob('./*.wgsl', {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;

/** The .wgsl files beside this module, by file name. */
export const WGSL_FILES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(RAW).map(([path, text]) => [path.replace(/^.*\//, ''), text]),
);

/** Every shader file by name: the .wgsl files, the generated chunks, then `overrides` on top. */
export function shaderFiles(
  overrides: Readonly<Record<string, string>> = {},
): Record<string, string> {
  return {
    ...WGSL_FILES,
    ...generatedChunks(),
    ...overrides,
  };
}

/**
 * Creates the module of `file` (includes resolved) and checks its compilation info.
 * @throws ShaderError naming the original file and 1-based line of the first error, with every
 * message mapped to file:line:column.
 */
export async function createCheckedModule(
  device: GPUDevice,
  file: string,
  files: Readonly<Record<string, string>> = shaderFiles(),
): Promise<GPUShaderModule> {
  const src = resolveShader(file, files);
  // Flocks on one page share the device (device.ts): compile each source once per device.
  let modules = moduleCache.get(device);
  if (!modules) moduleCache.set(device, (modules = new Map()));
  const key = `${file}\n${src.code}`;
  let made = modules.get(key);
  if (!made) {
    made = compileChecked(device, file, src);
    modules.set(key, made);
    made.catch(() => modules.delete(key));
  }
  return made;
}

/** Compiled modules per device, keyed by file and full source. */
const moduleCache = new WeakMap<GPUDevice, Map<string, Promise<GPUShaderModule>>>();

/** A compute pipeline shared by every simulation on one device: its layouts and, once made, itself. */
interface SharedProgram {
  layouts: GPUBindGroupLayout[];
  descriptor: GPUComputePipelineDescriptor;
  pipeline: GPUComputePipeline | null;
  compiling: Promise<GPUComputePipeline> | null;
}
/** Compute programs per device, keyed by spec and module source. */
const programCache = new WeakMap<GPUDevice, Map<string, SharedProgram>>();

/** The pipeline of `p`, compiled asynchronously once (shared by every caller). */
function compileAsync(device: GPUDevice, p: SharedProgram): Promise<GPUComputePipeline> {
  p.compiling ??= device.createComputePipelineAsync(p.descriptor).then((made) => {
    p.pipeline ??= made;
    return p.pipeline;
  });
  return p.compiling;
}

async function compileChecked(
  device: GPUDevice,
  file: string,
  src: ReturnType<typeof resolveShader>,
): Promise<GPUShaderModule> {
  // A failed module is also a validation error on the device: keep it out of `uncapturederror`
  // (which the backend treats as a lost device); the ShaderError below reports it.
  device.pushErrorScope('validation');
  const module = device.createShaderModule({ label: file, code: src.code });
  const info = await module.getCompilationInfo();
  const scoped = await device.popErrorScope();
  const errors = info.messages.filter((m) => m.type === 'error');
  if (errors.length > 0 || scoped) {
    const { text, first, messages } = mapWgslMessages(info.messages, src);
    throw new ShaderError(
      `WGSL compile error in ${file}:\n${text || scoped?.message || 'unknown error'}`,
      first?.file ?? file,
      first?.line ?? null,
      messages,
    );
  }
  return module;
}

/** How a compute entry point uses one binding. */
export type BindingKind = 'uniform' | 'uniform-dynamic' | 'read-only-storage' | 'storage';

/** One compute pipeline: file, entry point, bindings per group (binding number -> kind). */
export interface ComputeSpec {
  file: string;
  entry: string;
  groups: readonly Readonly<Record<number, BindingKind>>[];
  /** Value of the `WG` override (workgroup size). */
  workgroupSize: number;
  /** Other override constants of the module. */
  constants?: Readonly<Record<string, number>>;
}

export interface ComputeProgram {
  pipeline: GPUComputePipeline;
  layouts: GPUBindGroupLayout[];
  spec: ComputeSpec;
  /**
   * Pipelines 'on-use' only: false until the pipeline exists (reading `pipeline` then creates it
   * on the spot, and a compile stalls a software GPU's frames for seconds).
   */
  readonly compiled?: boolean;
  /** Pipelines 'on-use' only: compiles the pipeline in the background (once; shared). */
  compileAsync?(): Promise<void>;
}

/** Whether every program of `names` has its pipeline (eager ones always have). */
export function compiled<K extends string>(
  programs: Readonly<Record<K, ComputeProgram>>,
  names: readonly K[],
): boolean {
  return names.every((n) => programs[n].compiled !== false);
}

/** Compiles the pipelines of `names` that do not exist yet, one after the other, in the background. */
export async function compileInBackground<K extends string>(
  programs: Readonly<Record<K, ComputeProgram>>,
  names: readonly K[],
): Promise<void> {
  for (const n of names) {
    const p = programs[n];
    if (p.compiled === false) await p.compileAsync?.();
  }
}

function layoutEntry(binding: number, kind: BindingKind): GPUBindGroupLayoutEntry {
  const visibility = ShaderStage.COMPUTE;
  switch (kind) {
    case 'uniform':
      return { binding, visibility, buffer: { type: 'uniform' } };
    case 'uniform-dynamic':
      return { binding, visibility, buffer: { type: 'uniform', hasDynamicOffset: true } };
    case 'read-only-storage':
      return { binding, visibility, buffer: { type: 'read-only-storage' } };
    case 'storage':
      return { binding, visibility, buffer: { type: 'storage' } };
  }
}

/** How createComputePrograms makes the pipelines. */
export interface ComputeProgramOptions {
  /**
   * 'eager' (default): every pipeline with createComputePipelineAsync, awaited.
   * 'on-use': none awaited; a pipeline is created (createComputePipeline) the first time a pass
   * asks for it, unless a background compile (`background`) has delivered it by then. A slow
   * compiler (SwiftShader: seconds for 18 pipelines) then costs nothing before the first frame,
   * and pipelines a configuration never runs (bitonic sort, brute force, test hooks) are never
   * compiled. The modules are still compiled and checked up front (ShaderError as before).
   */
  pipelines?: 'eager' | 'on-use';
  /**
   * With 'on-use': these names are compiled in the background (createComputePipelineAsync) once
   * `after` settles (e.g. when the render pipelines are done, so the first frame goes first).
   */
  warm?: { names: readonly string[]; after: Promise<unknown> };
}

/**
 * Compiles the modules the specs name (each once) and creates every pipeline, in parallel (or on
 * first use: options.pipelines).
 * @throws ShaderError for a module that does not compile; the pipeline error otherwise (eager).
 */
export async function createComputePrograms<K extends string>(
  device: GPUDevice,
  specs: Readonly<Record<K, ComputeSpec>>,
  files: Readonly<Record<string, string>> = shaderFiles(),
  options: ComputeProgramOptions = {},
): Promise<Record<K, ComputeProgram>> {
  const names = [...new Set(Object.values<ComputeSpec>(specs).map((s) => s.file))];
  const modules = new Map<string, GPUShaderModule>();
  await Promise.all(
    names.map(async (f) => modules.set(f, await createCheckedModule(device, f, files))),
  );
  // Flocks on one page share the device: each pipeline (and its layouts) is made once per device.
  let cache = programCache.get(device);
  if (!cache) programCache.set(device, (cache = new Map()));
  const shared = cache;
  const entries = await Promise.all(
    (Object.entries(specs) as [K, ComputeSpec][]).map(async ([name, spec]) => {
      const key = JSON.stringify([spec, resolveShader(spec.file, files).code]);
      let p = shared.get(key);
      if (!p) {
        const layouts = spec.groups.map((g) =>
          device.createBindGroupLayout({
            label: `${spec.entry}.layout`,
            entries: Object.entries(g).map(([b, kind]) => layoutEntry(Number(b), kind)),
          }),
        );
        const descriptor: GPUComputePipelineDescriptor = {
          label: `${spec.file}:${spec.entry}`,
          layout: device.createPipelineLayout({ bindGroupLayouts: layouts }),
          compute: {
            module: modules.get(spec.file)!,
            entryPoint: spec.entry,
            constants: { WG: spec.workgroupSize, ...spec.constants },
          },
        };
        p = { layouts, descriptor, pipeline: null, compiling: null };
        shared.set(key, p);
      }
      const program = p;
      const { layouts } = program;
      if (options.pipelines !== 'on-use') {
        let pipeline: GPUComputePipeline;
        try {
          pipeline = program.pipeline ?? (await compileAsync(device, program));
        } catch (e) {
          if (shared.get(key) === program) shared.delete(key);
          throw e;
        }
        return [name, { pipeline, layouts, spec }] as const;
      }
      if (options.warm?.names.includes(name) && !program.pipeline) {
        void options.warm.after
          .catch(() => undefined)
          .then(() => program.pipeline ?? compileAsync(device, program))
          .catch(() => undefined); // the on-use creation below reports the same error
      }
      const lazy: ComputeProgram = {
        get pipeline() {
          return (program.pipeline ??= device.createComputePipeline(program.descriptor));
        },
        get compiled() {
          return program.pipeline !== null;
        },
        compileAsync: () => compileAsync(device, program).then(() => undefined),
        layouts,
        spec,
      };
      return [name, lazy] as const;
    }),
  );
  return Object.fromEntries(entries) as Record<K, ComputeProgram>;
}
