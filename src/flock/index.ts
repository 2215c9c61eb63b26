// The Flock's public face (src/index.ts re-exports it): createFlock, the Flock object and the
// types and constants of its options. The parts behind it live beside it in this folder.
export { Flock, MAX_STEPS_PER_CALL } from './flock';
export { createFlock } from './create';
export { RESTORE_TIMEOUT_MS } from './recovery';
export {
  DISABLE_NAMES,
  POINTER_STRENGTH,
  type BackendChoice,
  type FlockOptions,
  type FlockStats,
  type RecoveryDetail,
} from './options';
import { PARAM_SCHEMA } from '../core/params';

/** The names of every parameter, for embedders building their own UI. */
export const PARAM_NAMES = PARAM_SCHEMA.map((s) => s.name);
