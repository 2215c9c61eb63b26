/**
 * The Node GPU tests' device: Dawn through the `webgpu` package (Vulkan where present, else the
 * OpenGL backend on Mesa in compatibility mode; ../shared/GPU.md). Without an adapter the tests
 * are skipped with the reason printed, except under CI=true, where that is a failure.
 */
import { createDawnDevice, type DawnDevice } from '../../src/webgpu/node-dawn';

let cached: Promise<DawnDevice | { device: null; reason: string }> | null = null;

/** One device per test file (Dawn start-up is slow); close it in afterAll. */
export function dawnDevice(): Promise<DawnDevice | { device: null; reason: string }> {
  cached ??= createDawnDevice();
  return cached;
}

/**
 * The device, or null when the tests must be skipped (reason printed).
 * @throws Error with the reason when there is no adapter and process.env.CI === 'true'.
 */
export async function deviceOrSkip(): Promise<DawnDevice | null> {
  const d = await dawnDevice();
  if (d.device) return d as DawnDevice;
  const reason = (d as { reason: string }).reason;
  if (process.env.CI === 'true') throw new Error(`node-gpu tests need a WebGPU adapter: ${reason}`);
  console.warn(`[node-gpu] SKIPPED: ${reason}`);
  return null;
}
