/**
 * The CPU backend's Web Worker: runs the reference step off the main thread so the page stays
 * responsive. Messages are handled one at a time, in the order they were posted (see cpu-engine.ts).
 * The backend sends 'params' and 'state' before any 'step' or 'read'.
 * The library's one worker file also answers the WebGL2 capability probe off the page's thread
 * (`{ webgl2Probe: disable }`, from src/webgl2/capabilities.ts: probeInWorker), its code loaded
 * only then.
 */
import { CpuEngine, replyTransfer, type CpuRequest } from './cpu-engine';

interface WorkerScope {
  onmessage: ((ev: MessageEvent<CpuRequest>) => void) | null;
  postMessage(message: unknown, transfer: Transferable[]): void;
}

const scope = self as unknown as WorkerScope;
const engine = new CpuEngine();

scope.onmessage = (ev) => {
  const probe = (ev.data as { webgl2Probe?: string[] }).webgl2Probe;
  if (probe) {
    import('../webgl2/capabilities')
      .then(({ probeWebGL2Here }) => probeWebGL2Here(new Set(probe)))
      .catch(() => null)
      .then((answer) => scope.postMessage({ webgl2Probe: answer }, []));
    return;
  }
  const reply = engine.handle(ev.data);
  scope.postMessage(reply, replyTransfer(reply));
};
