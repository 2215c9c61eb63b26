// Each line marked `wrong` is a compile error: tests/e2e/frameworks.test.ts type-checks this file
// (tsconfig.wrong.json) and expects tsc to fail with errors on exactly those lines.
import 'gpu-flock/element';
import type {} from 'gpu-flock/react';
import type { Flock } from 'gpu-flock';

export const wrong = [
  <gpu-flock count="many" />, // wrong: not a number
  <gpu-flock color-mode="rainbow" />, // wrong: not a colour mode
  <gpu-flock show-obstacles={false} />, // wrong: React drops false, and the default is true
  <gpu-flock backend="webgl3" />, // wrong: not a backend
  <gpu-flock onready={(e: CustomEvent<{ flock: string }>) => e} />, // wrong: detail.flock is a Flock
];

export const right = [
  <gpu-flock count={5000} color-mode="heading" show-obstacles="false" paused />,
  <gpu-flock count="5000" dimensions={2} bounds-min="-40,-40,0" bounds-max={[40, 40, 0]} />,
  <gpu-flock onready={(e) => e.detail.flock satisfies Flock} onerror={(e) => e.detail.error} />,
];
