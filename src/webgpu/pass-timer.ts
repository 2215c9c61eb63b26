/**
 * The pass timer the simulation and the renderer hold: PassTimer's face, with its code
 * (src/webgpu/timing.ts: the query set, the readback, the averages) loaded by import() once the
 * timer is made, so a page's first load does not carry it (issue 30 item 4) and the first frame
 * does not wait for it. Steps encoded before it is in are not timed, as steps encoded while a
 * batch is being read back are not; the timings stay null until the first batch is read, as
 * before. `enabled` is known at once (the device's 'timestamp-query'); a chunk that fails to
 * load leaves the timings null, as a device lost mid-read does.
 */
import type { PassAverages, PassName, PassTimer } from './timing';

export type { PassAverages, PassName };

export class LazyPassTimer {
  readonly enabled: boolean;
  private timer: PassTimer | null = null;
  private disposed = false;
  private readonly loading: Promise<void> = Promise.resolve();

  constructor(device: GPUDevice, enabled: boolean, label: string) {
    this.enabled = enabled && device.features.has('timestamp-query');
    if (!this.enabled) return;
    this.loading = import('./timing').then(
      (m) => {
        if (!this.disposed) this.timer = new m.PassTimer(device, true, label);
      },
      () => {},
    );
  }

  /** PassTimer.beginStep: false (untimed) until the timer is in. */
  beginStep(): boolean {
    return this.timer?.beginStep() ?? false;
  }

  writes(name: PassName): GPUComputePassTimestampWrites | undefined {
    return this.timer?.writes(name);
  }

  resolve(encoder: GPUCommandEncoder): boolean {
    return this.timer?.resolve(encoder) ?? false;
  }

  collect(): void {
    this.timer?.collect();
  }

  latest(): PassAverages | null {
    return this.timer?.latest() ?? null;
  }

  cumulative(): PassAverages | null {
    return this.timer?.cumulative() ?? null;
  }

  resetTotals(): void {
    this.timer?.resetTotals();
  }

  /** Resolves once the timer is in and the readback in flight (if any) has been averaged. */
  async settled(): Promise<void> {
    await this.loading;
    await this.timer?.settled();
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.timer?.dispose();
  }
}
