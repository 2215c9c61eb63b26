/**
 * The scene of the default view, which a renderer draws when its RenderView carries none (the
 * flock's frames carry one: src/flock/frame-view.ts). Apart from src/core/scene.ts, which the
 * flock runs at first load: only the renderers import this, so a bundle loads it with them.
 */
import type { FlockParams } from './params';
import { buildScene, viewStatic, type RenderScene, type ViewStatic } from './scene';
import { defaultView } from './view';

let defaultFixed: ViewStatic | null = null;

/** The scene of the default view (renderers use it when a RenderView carries none). */
export function defaultScene(params: FlockParams, boidSize: number): RenderScene {
  const view = defaultView();
  defaultFixed ??= viewStatic(view);
  return buildScene(params, view, defaultFixed, boidSize);
}
