/**
 * The entry of dist/gpu-flock.element.js (a <script type="module"> tag, no bundler): defines
 * <gpu-flock> and exports only what a page script may want beside it (createFlock, FlockError,
 * the element class). The build inlines every backend into that one file (no sibling files to
 * copy); only the cpu backend's worker is its own file beside it.
 */
import { defineGpuFlockElement } from './gpu-flock-element';

defineGpuFlockElement();

export { GpuFlockElement, defineGpuFlockElement } from './gpu-flock-element';
export { createFlock, FlockError } from '../index';
