/**
 * `gpu-flock/vue`: <gpu-flock> in Vue 3's template checker (vue-tsc; types only, nothing runs),
 * as Vue's guide types a custom element: an entry of GlobalComponents. Bring it in once, e.g.
 * `import type {} from 'gpu-flock/vue';` beside `import 'gpu-flock/element';`, and tell Vue's
 * compiler the tag is a custom element (`isCustomElement: (tag) => tag === 'gpu-flock'`).
 *
 * Every attribute of the schemas is typed (GpuFlockAttributes, generated from them, as camelCase
 * props: vue-tsc matches `color-mode` to `colorMode`), and the element's events as `@ready`,
 * `@error`, ... (`onReady`, ... props).
 */
import type { DefineComponent } from 'vue';
import type { GpuFlockAttributes, GpuFlockEventMap } from './index';

/** `color-mode` -> `colorMode`: vue-tsc matches a component's attributes to camelCase props. */
type Camel<S extends string> = S extends `${infer H}-${infer T}`
  ? `${H}${Capitalize<Camel<T>>}`
  : S;

/** GpuFlockAttributes with camelCase keys (templates write them kebab-case, as attributes). */
export type GpuFlockVueProps = {
  [K in keyof GpuFlockAttributes as K extends string ? Camel<K> : K]: GpuFlockAttributes[K];
};

/** `onReady`, `onError`, ...: what `@ready`, `@error`, ... handlers must take. */
export type GpuFlockVueEvents = {
  [K in keyof GpuFlockEventMap as `on${Capitalize<K>}`]?: (event: GpuFlockEventMap[K]) => void;
};

declare module 'vue' {
  interface GlobalComponents {
    'gpu-flock': DefineComponent<GpuFlockVueProps & GpuFlockVueEvents>;
  }
}
