/**
 * What every WebGL2 pass module needs: the context, an empty vertex array for full-screen passes
 * and the program cache. Owned by the backend; the pass functions own nothing.
 */
import type { ProgramCache } from './program';

export interface PassEnv {
  readonly gl: WebGL2RenderingContext;
  /** An empty VAO: passes take their vertices from gl_VertexID. */
  readonly vao: WebGLVertexArrayObject;
  readonly programs: ProgramCache;
}
