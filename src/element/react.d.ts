/**
 * `gpu-flock/react`: <gpu-flock> in React 19's JSX checker (types only, nothing runs). Bring it
 * in once, e.g. `import type {} from 'gpu-flock/react';` beside `import 'gpu-flock/element';`,
 * or `"types": ["gpu-flock/react"]` in tsconfig.json.
 *
 * Every attribute of the schemas is typed (GpuFlockReactAttributes, generated from them), and
 * the element's events as lowercase `on` + name props: React 19 adds a listener for the event
 * named by the rest of the prop (`onready` -> 'ready'; `onReady` would listen for 'Ready').
 */
import type { DetailedHTMLProps, HTMLAttributes } from 'react';
import type { GpuFlockElement, GpuFlockEventMap, GpuFlockReactAttributes } from './index';

/** `onready`, `onerror`, ...: one listener prop per event of GpuFlockEventMap. */
export type GpuFlockReactEvents = {
  [K in keyof GpuFlockEventMap as `on${K}`]?: (event: GpuFlockEventMap[K]) => void;
};

/** The props of <gpu-flock> in JSX: React's HTML props, the attributes, the events. */
export type GpuFlockProps = Omit<
  DetailedHTMLProps<HTMLAttributes<GpuFlockElement>, GpuFlockElement>,
  keyof GpuFlockReactAttributes | keyof GpuFlockReactEvents
> &
  GpuFlockReactAttributes &
  GpuFlockReactEvents;

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'gpu-flock': GpuFlockProps;
    }
  }
}
