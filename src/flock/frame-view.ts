/**
 * What one draw needs (src/backend.ts RenderView) from the flock's camera, parameters and view:
 * the view-projection for the drawing buffer's aspect and framing, the boid size, and the scene.
 */
import type { RenderView } from '../backend';
import type { FlockParams } from '../core/params';
import { boidSizeFor, fitScale, viewProjection, type OrbitCamera } from '../core/render-math';
import { buildScene, predatorScene, type ViewStatic } from '../core/scene';
import type { ViewOptions } from '../core/view';

/**
 * @param width, height the drawing buffer, device pixels
 * @param time simulated time of the state drawn, seconds (where the predators are)
 */
export function frameView(
  width: number,
  height: number,
  camera: OrbitCamera,
  params: FlockParams,
  view: ViewOptions,
  fixed: ViewStatic,
  time: number,
): RenderView {
  const aspect = width / Math.max(1, height);
  const viewProj = viewProjection(camera, aspect, false, fitScale(params, view.fit, aspect));
  // Boid length in world units: view.boidSize, or one from the box when that is 0.
  const boidSize = view.boidSize > 0 ? view.boidSize : boidSizeFor(params);
  const predators =
    view.showPredators && params.predators > 0 ? predatorScene(params, time) : undefined;
  const scene = buildScene(params, view, fixed, boidSize, predators);
  return { viewProj, width, height, boidSize, scene };
}
