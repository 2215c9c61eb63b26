/**
 * The CPU backend's Web Worker: runs the reference step off the main thread so the page stays
 * responsive. Messages are handled one at a time, in the order they were posted (see cpu-engine.ts).
 * The backend sends 'params' and 'state' before any 'step' or 'read'.
 */
import { CpuEngine, replyTransfer, type CpuRequest } from './cpu-engine';

interface WorkerScope {
  onmessage: ((ev: MessageEvent<CpuRequest>) => void) | null;
  postMessage(message: unknown, transfer: Transferable[]): void;
}

const scope = self as unknown as WorkerScope;
const engine = new CpuEngine();

scope.onmessage = (ev) => {
  const reply = engine.handle(ev.data);
  scope.postMessage(reply, replyTransfer(reply));
};
