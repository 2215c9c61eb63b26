/**
 * `gpu-flock/reference`: the model's CPU reference step (DESIGN.md section 1), the ground truth
 * every backend is tested against. Plain TypeScript, no DOM and no GPU: it works in Node and in a
 * worker. A subpath of its own so that a page importing `createFlock` from `gpu-flock` does not
 * load it (esbuild keeps a module the package index re-exports when a backend chunk shares it).
 * Build its input with `initialState` and `defaultParams` from `gpu-flock`.
 */
export { referenceStep, referenceSteps, neighborCounts } from './core/reference';
