/**
 * The entry of dist/gpu-flock.element.js (a <script type="module"> tag, no bundler): defines
 * <gpu-flock> and exports only what a page script may want beside it (createFlock, FlockError,
 * the element class), so the file a page loads first stays small; each backend is a sibling
 * file loaded only when it runs.
 */
import { defineGpuFlockElement } from './gpu-flock-element';

defineGpuFlockElement();

export { GpuFlockElement, defineGpuFlockElement } from './gpu-flock-element';
export { createFlock, FlockError } from '../index';
