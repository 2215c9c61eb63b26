/**
 * The errors every part of the flock raises when work is cut short, and the few helpers that must
 * never throw themselves (a message of anything thrown, a teardown of a lost backend).
 */
import type { Backend } from '../backend';
import { FlockError, describeValue } from '../core/errors';

/** A thrown value's message, never throwing itself. */
export function messageOf(e: unknown): string {
  try {
    return e instanceof Error ? e.message : describeValue(e);
  } catch {
    return 'unknown error';
  }
}

/** Work cut short by dispose(): FlockError field 'flock'. */
export function disposedError(detail?: string): FlockError {
  return new FlockError('flock', 'disposed', 'a flock that has not been disposed', detail);
}

/** Work cut short by a context or device loss: FlockError field 'flock'. */
export function lostError(detail: string): FlockError {
  return new FlockError('flock', 'lost', 'a flock whose context or device stays up', detail);
}

/** True for the FlockError of work cut short by dispose(). */
export function isDisposed(e: unknown): boolean {
  return e instanceof FlockError && e.field === 'flock' && e.value === 'disposed';
}

/** Disposes `b`; a lost device or context may throw on teardown, and nothing is left to free then. */
export function safeDispose(b: Backend | null | undefined): void {
  try {
    b?.dispose();
  } catch {
    // nothing is left to free
  }
}

/** A count the backend `b` cannot hold: FlockError on 'count' with its limit. */
export function countError(count: number, b: Pick<Backend, 'maxCount' | 'kind'>): FlockError {
  return new FlockError(
    'count',
    count,
    `an integer from 1 to ${b.maxCount} (the ${b.kind} backend's limit on this device)`,
  );
}
