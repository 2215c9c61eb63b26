// The element's events as addEventListener types them (not loaded by the page: `tsc` and the
// strict consumer check, tsconfig.strict.json, compile it against the installed package).
import type { GpuFlockElement } from 'gpu-flock/element';

const el: GpuFlockElement = document.createElement('gpu-flock');
const found: GpuFlockElement | null = document.querySelector('gpu-flock');

el.addEventListener('ready', (e) => console.log(e.detail.flock.backend));
found?.addEventListener('error', (e) => console.warn(e.detail.error, e.detail.attribute));
const onFallback = (e: CustomEvent<{ from: string; to: string }>) => console.log(e.detail.to);
el.addEventListener('fallback', onFallback);
el.removeEventListener('fallback', onFallback);
// The built-in events keep their types, any other name gets an Event.
el.addEventListener('click', (e) => console.log(e.clientX));
el.addEventListener('some-event', (e) => console.log(e.type));
// @ts-expect-error: 'ready' carries the flock, no `backend` of its own.
el.addEventListener('ready', (e) => e.detail.backend);

export {};
