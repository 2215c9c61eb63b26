/**
 * Asynchronous readback: readPixels (or copyBufferSubData from a buffer) into a PIXEL_PACK_BUFFER,
 * a fence, clientWaitSync polled from setTimeout (WebGL updates sync status only between tasks),
 * then getBufferSubData. The page never blocks on the GPU, and the copy is taken at the point of
 * the call, so later work on the source cannot change what is read. Owns the buffers and syncs of
 * reads in flight; dispose() cancels them.
 */
import type { Target } from './textures';
import { rowsFor } from './tex-rows';

/** Pixels of one colour attachment of a framebuffer. */
export interface PixelReadRequest {
  fbo: WebGLFramebuffer;
  /** gl.COLOR_ATTACHMENTk of `fbo`. */
  attachment: number;
  /** Texels per row and rows to read from (0, 0). */
  width: number;
  rows: number;
  /** gl.RGBA + gl.FLOAT for float targets, gl.RGBA_INTEGER + gl.UNSIGNED_INT for uint ones. */
  format: number;
  type: number;
  /** Receives width * rows * 4 values. */
  dst: Float32Array | Uint32Array;
}

/** dst.byteLength bytes of a buffer from byte `offset` (default 0). */
export interface BufferReadRequest {
  buffer: WebGLBuffer;
  offset?: number;
  dst: Float32Array | Uint32Array;
}

export type ReadRequest = PixelReadRequest | BufferReadRequest;

interface InFlight {
  buffer: WebGLBuffer;
  sync: WebGLSync | null;
  timer: ReturnType<typeof setTimeout> | null;
  reject: (e: Error) => void;
}

/**
 * Resolves once the GPU process has run every GL command issued on `gl` so far (a fence, polled
 * with clientWaitSync(…, 0) from timers: the page never waits on it). Before a call that would
 * wait for the driver (a link's status, a read), this lets the page keep answering meanwhile.
 * Resolves at once on a lost context; gives up polling after `boundMs` (the caller's call then
 * waits for what is left).
 */
export function gpuDone(gl: WebGL2RenderingContext, boundMs = 10_000): Promise<void> {
  if (gl.isContextLost()) return Promise.resolve();
  const sync = gl.fenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0);
  gl.flush();
  if (!sync) return Promise.resolve();
  const t0 = performance.now();
  return new Promise<void>((resolve) => {
    const poll = () => {
      const status = gl.isContextLost() ? gl.WAIT_FAILED : gl.clientWaitSync(sync, 0, 0);
      if (status === gl.TIMEOUT_EXPIRED && performance.now() - t0 < boundMs) {
        setTimeout(poll, 2);
        return;
      }
      gl.deleteSync(sync);
      resolve();
    };
    setTimeout(poll, 0);
  });
}

export class AsyncReader {
  private readonly inFlight = new Set<InFlight>();

  constructor(private readonly gl: WebGL2RenderingContext) {}

  /**
   * Queues the reads after all submitted GL work and resolves once their data is in `dst`.
   * With no requests it resolves once all submitted work has finished (a sync point).
   * @throws Error (rejects) when the context is lost or the reader is disposed meanwhile.
   */
  read(reqs: readonly ReadRequest[]): Promise<void> {
    const gl = this.gl;
    if (gl.isContextLost()) return Promise.reject(new Error('WebGL context lost'));
    const offsets: number[] = [];
    let bytes = 0;
    for (const r of reqs) {
      // 16-byte aligned: a copy into the buffer at an offset that is not a multiple of the texel
      // size (16 for RGBA32F) makes ANGLE read back through the CPU (a stall).
      bytes = Math.ceil(bytes / 16) * 16;
      offsets.push(bytes);
      bytes += r.dst.byteLength;
    }
    const buffer = gl.createBuffer()!;
    gl.bindBuffer(gl.PIXEL_PACK_BUFFER, buffer);
    gl.bufferData(gl.PIXEL_PACK_BUFFER, bytes, gl.STREAM_READ);
    reqs.forEach((r, k) => {
      if ('buffer' in r) {
        gl.bindBuffer(gl.COPY_READ_BUFFER, r.buffer);
        gl.copyBufferSubData(
          gl.COPY_READ_BUFFER,
          gl.PIXEL_PACK_BUFFER,
          r.offset ?? 0,
          offsets[k]!,
          r.dst.byteLength,
        );
        // A buffer left on COPY_READ_BUFFER cannot be a transform-feedback target (BROWSER.md).
        gl.bindBuffer(gl.COPY_READ_BUFFER, null);
        return;
      }
      gl.bindFramebuffer(gl.READ_FRAMEBUFFER, r.fbo);
      gl.readBuffer(r.attachment);
      gl.readPixels(0, 0, r.width, r.rows, r.format, r.type, offsets[k]!);
    });
    gl.bindBuffer(gl.PIXEL_PACK_BUFFER, null);
    gl.bindFramebuffer(gl.READ_FRAMEBUFFER, null);
    const sync = gl.fenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0);
    gl.flush();
    return new Promise<void>((resolve, reject) => {
      const job: InFlight = { buffer, sync, timer: null, reject };
      this.inFlight.add(job);
      const finish = (err: Error | null) => {
        this.release(job);
        if (err) reject(err);
        else resolve();
      };
      const poll = () => {
        job.timer = null;
        if (gl.isContextLost()) return finish(new Error('WebGL context lost during readback'));
        const status = gl.clientWaitSync(job.sync!, 0, 0);
        if (status === gl.WAIT_FAILED) return finish(new Error('clientWaitSync failed'));
        if (status === gl.TIMEOUT_EXPIRED) {
          job.timer = setTimeout(poll, 1);
          return;
        }
        gl.bindBuffer(gl.PIXEL_PACK_BUFFER, buffer);
        reqs.forEach((r, k) => gl.getBufferSubData(gl.PIXEL_PACK_BUFFER, offsets[k]!, r.dst));
        gl.bindBuffer(gl.PIXEL_PACK_BUFFER, null);
        finish(null);
      };
      job.timer = setTimeout(poll, 0);
    });
  }

  private release(job: InFlight): void {
    if (!this.inFlight.delete(job)) return;
    if (job.timer !== null) clearTimeout(job.timer);
    this.gl.deleteSync(job.sync);
    this.gl.deleteBuffer(job.buffer);
  }

  /** Cancels every read in flight (they reject) and frees their objects. Idempotent. */
  dispose(): void {
    for (const job of [...this.inFlight]) {
      this.release(job);
      job.reject(new Error('backend disposed during readback'));
    }
  }
}

/**
 * A read of the first `count` elements (whole rows) of colour attachment `attachment` of `t`:
 * `dst` gets `stride` values per texel (Float32Array for float targets, Uint32Array for uint ones):
 * the attachment's own channels when the implementation reads that format (RED/FLOAT of an R32F
 * target, RG_INTEGER of RG32UI: IMPLEMENTATION_COLOR_READ_FORMAT), else 4 (RGBA, the format WebGL2
 * always reads). Reading in the attachment's own format lets ANGLE copy into the pixel-pack buffer
 * on the GPU; a converting read makes it wait for the GPU on the CPU and log "GPU stall due to
 * ReadPixels" (issue 21).
 */
export function targetRead<T extends Float32Array | Uint32Array>(
  gl: WebGL2RenderingContext,
  t: Target,
  attachment: number,
  count: number,
  make: new (length: number) => T,
): { req: ReadRequest; data: T; stride: number } {
  const { width } = t.layout;
  const rows = rowsFor(t.layout, count);
  const float = make === (Float32Array as unknown);
  const own = nativeReadFormat(gl, t.fbo, attachment, float);
  const stride = own?.channels ?? 4;
  const data = new make(stride * width * rows);
  const req: ReadRequest = {
    fbo: t.fbo,
    attachment,
    width,
    rows,
    format: own?.format ?? (float ? gl.RGBA : gl.RGBA_INTEGER),
    type: float ? gl.FLOAT : gl.UNSIGNED_INT,
    dst: data,
  };
  return { req, data, stride };
}

/**
 * The implementation's own read format of one attachment when it reads 32-bit values of the
 * wanted kind (FLOAT or UNSIGNED_INT) without conversion; null otherwise (read as RGBA).
 * Binds READ_FRAMEBUFFER and leaves it unbound.
 */
function nativeReadFormat(
  gl: WebGL2RenderingContext,
  fbo: WebGLFramebuffer,
  attachment: number,
  float: boolean,
): { format: number; channels: number } | null {
  gl.bindFramebuffer(gl.READ_FRAMEBUFFER, fbo);
  gl.readBuffer(attachment);
  const format = gl.getParameter(gl.IMPLEMENTATION_COLOR_READ_FORMAT) as number;
  const type = gl.getParameter(gl.IMPLEMENTATION_COLOR_READ_TYPE) as number;
  gl.bindFramebuffer(gl.READ_FRAMEBUFFER, null);
  if (type !== (float ? gl.FLOAT : gl.UNSIGNED_INT)) return null;
  const channels: [number, number, number][] = [
    [gl.RED, gl.RED_INTEGER, 1],
    [gl.RG, gl.RG_INTEGER, 2],
    [gl.RGBA, gl.RGBA_INTEGER, 4],
  ];
  const row = channels.find(([f, fi]) => (float ? f : fi) === format);
  return row ? { format, channels: row[2] } : null;
}
