// Which adapters count as CPU adapters, and the candidate-loop unrolling each one gets
// (src/webgpu/device.ts): adapters are plain objects with the info fields browsers report.
import { describe, expect, test } from 'vitest';
import { candidateUnrollFor, isCpuAdapter } from '../../src/webgpu/device';

function adapter(info: Partial<GPUAdapterInfo> & { isFallbackAdapter?: boolean }): GPUAdapter {
  return {
    info: { vendor: '', architecture: '', device: '', description: '', ...info },
  } as unknown as GPUAdapter;
}

describe('CPU adapters and the candidate-loop unrolling', () => {
  test.each([
    // Chromium's SwiftShader, Dawn's OpenGL / Vulkan on Mesa's CPU drivers, Windows' WARP.
    [
      {
        vendor: 'google',
        architecture: 'swiftshader',
        description: 'SwiftShader Device (Subzero)',
      },
      true,
    ],
    [
      {
        description:
          'llvmpipe (LLVM 15.0.6, 256 bits) OpenGL version 4.5 (Core Profile) Mesa 22.3.6',
      },
      true,
    ],
    [{ vendor: 'mesa', description: 'lavapipe' }, true],
    [{ description: 'Microsoft Basic Render Driver' }, true],
    [{ vendor: 'nvidia', description: 'NVIDIA H200', isFallbackAdapter: true }, true],
    // Hardware GPUs.
    [{ vendor: 'nvidia', architecture: 'hopper', description: 'NVIDIA H200' }, false],
    [{ vendor: 'apple', architecture: 'metal-3' }, false],
    [{ vendor: 'qualcomm', architecture: 'adreno-7xx' }, false],
    [
      { vendor: 'intel', architecture: 'gen-12lp', description: 'Intel(R) UHD Graphics 770' },
      false,
    ],
    // Words that only contain a CPU driver's name are not one.
    [{ vendor: 'amd', description: 'Radeon RX 7900 XTX (warpath edition)' }, false],
  ])('%o: CPU adapter %s', (info, cpu) => {
    const a = adapter(info);
    expect(isCpuAdapter(a)).toBe(cpu);
    expect(candidateUnrollFor(a)).toBe(cpu ? 1 : 4);
  });

  test('an adapter without info is taken for a hardware one (unroll 4)', () => {
    const a = {} as unknown as GPUAdapter;
    expect(isCpuAdapter(a)).toBe(false);
    expect(candidateUnrollFor(a)).toBe(4);
  });
});
