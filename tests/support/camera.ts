// The camera of the hand-worked pointer and projection tests.
import type { OrbitCamera } from '../../src/core/render-math';

/**
 * An orbit camera 10 units from its target (the origin) on +z, yaw 0, pitch 0, fovY 90 degrees
 * (tan 45 = 1): on the plane through the target it shows +-10 world units vertically, so
 * NDC (x, y) lands on (10 x, 10 y, 0) for a square view. `over` replaces any of its fields.
 */
export const camera = (over: Partial<OrbitCamera> = {}): OrbitCamera => ({
  target: [0, 0, 0],
  distance: 10,
  yaw: 0,
  pitch: 0,
  fovY: Math.PI / 2,
  ...over,
});
