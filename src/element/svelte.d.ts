/**
 * `gpu-flock/svelte`: <gpu-flock> in Svelte 5's checker (svelte-check; types only, nothing
 * runs). Bring it in once, e.g. `import type {} from 'gpu-flock/svelte';` beside
 * `import 'gpu-flock/element';`.
 *
 * The element joins `svelte/elements`' SvelteHTMLElements, as Svelte's docs type a custom
 * element; svelteHTML.IntrinsicElements extends that, so it is there too. (An entry added to
 * svelteHTML.IntrinsicElements itself lost `class` in svelte-check 4.7.) Every attribute of the
 * schemas is typed (GpuFlockAttributes, generated from them), and the element's events as
 * `onready`, `onerror`, ... attributes (Svelte 5 listens for the event named by the rest).
 */
import type { HTMLAttributes } from 'svelte/elements';
import type { GpuFlockAttributes, GpuFlockElement, GpuFlockEventMap } from './index';

/** `onready`, `onerror`, ...: one listener attribute per event of GpuFlockEventMap. */
export type GpuFlockSvelteEvents = {
  [K in keyof GpuFlockEventMap as `on${K}`]?: (event: GpuFlockEventMap[K]) => void;
};

/** The attributes of <gpu-flock> in markup: Svelte's HTML ones, the element's, the events. */
export type GpuFlockSvelteAttributes = Omit<
  HTMLAttributes<GpuFlockElement>,
  keyof GpuFlockAttributes | keyof GpuFlockSvelteEvents
> &
  GpuFlockAttributes &
  GpuFlockSvelteEvents;

declare module 'svelte/elements' {
  interface SvelteHTMLElements {
    'gpu-flock': GpuFlockSvelteAttributes;
  }
}
