/**
 * gpu-flock's public API (DESIGN.md section 4): createFlock, the Flock object, the parameter
 * schema, FlockError. Importing it has no side effects (the package's `sideEffects` relies on
 * that): the backends of the `auto` ladder are registered by the first createFlock call
 * (src/builtin-backends.ts), and each backend's code is loaded on first use (dynamic import), so a
 * page pays only for the path it runs. In Node the schema works (and the CPU reference, from the
 * `gpu-flock/reference` subpath: src/reference.ts); createFlock throws there.
 */
export { createFlock, Flock, DISABLE_NAMES, PARAM_NAMES, POINTER_STRENGTH } from './flock';
export { CPU_MAX_COUNT, PASS_NAMES } from './backend';
export type { FlockOptions, FlockStats, BackendChoice } from './flock';
export type { BackendKind, PassTimes, PassName } from './backend';
export { BACKEND_LADDER } from './backend';
export { FlockError } from './core/errors';
export { PHONE_LIMITS, type DeviceLimits } from './core/limits';
export { PARAM_SCHEMA, defaultParams, validateParams, paramSpec, allowedText } from './core/params';
export type {
  FlockParams,
  ParamSpec,
  Vec3,
  Boundary,
  NeighborSearch,
  SortKind,
  StartShape,
} from './core/params';
export {
  VIEW_SCHEMA,
  defaultView,
  resolvedShape,
  validateView,
  viewSpec,
  viewAllowedText,
} from './core/view';
export { viewValueFromText } from './core/codec';
export type { ViewOptions, ViewInput, ViewSpec, ColorMode, Fit, ColorMapName } from './core/view';
export { parseCssColor } from './core/color';
export { initialState, validateState, mulberry32 } from './core/state';
export type { FlockState } from './core/state';
export { defaultCamera, type OrbitCamera } from './core/render-math';
export { ShaderError } from './core/shader-source';
export type { ShaderMessage } from './core/shader-source';
export {
  PRESETS,
  PRESET_NAMES,
  SCENE_DENSITY,
  STRESS_COUNT,
  MIN_SCENE_SIDE,
  sceneBounds,
  boxDensity,
  presetOptions,
  rescaleForCount,
  scaledRocks,
  isPresetName,
} from './core/presets';
export type { Preset, PresetName } from './core/presets';
export { DebugLayer, neighboursOf } from './debug-layer';
export type { DebugView, PickedBoid } from './debug-layer';
export {
  DEFAULT_BOX_DENSITY,
  autoBoundsBox,
  densityCount,
  drawingBufferSize,
  type BufferSize,
} from './core/page';
export {
  WARMUP_BUDGET_MS,
  runWarmup,
  warmupPlan,
  warmupTimeStep,
  type WarmupPlan,
  type WarmupResult,
} from './core/warmup-runner';
export { FrameCap } from './core/frame-clock';
export type { PointerTarget } from './core/view';
