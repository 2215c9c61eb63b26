// readme:start
'use client'; // a client component: it has event handlers (the server renders it too)
import { useEffect, useRef } from 'react';
import 'gpu-flock/element'; // defines <gpu-flock> in the browser; on the server it defines nothing
import type {} from 'gpu-flock/react'; // types <gpu-flock> in JSX
import type { ColorMode, Flock as FlockObject, GpuFlockElement } from 'gpu-flock/element';

export function Flock(props: {
  count: number;
  colorMode: ColorMode;
  cohesion: number;
  onReady: (flock: FlockObject) => void;
  onError: (error: unknown) => void;
}) {
  const ref = useRef<GpuFlockElement>(null);
  // React 19 adds a server-rendered custom element's on* listeners only when it renders it
  // again after hydration: the first start comes from the element's `ready` promise.
  useEffect(() => {
    ref.current?.ready.then(props.onReady, props.onError);
  }, []);
  return (
    <gpu-flock
      ref={ref}
      className="flock"
      bounds="auto"
      palette="dusk"
      fit="cover"
      count={props.count}
      color-mode={props.colorMode}
      cohesion-weight={props.cohesion}
      onready={(e) => props.onReady(e.detail.flock)}
      onerror={(e) => props.onError(e.detail.error)}
    />
  );
}
// readme:end
