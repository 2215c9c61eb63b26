// A float colour target for the WebGL2 browser tests.

/**
 * An RGBA32F texture of `width` x `height` (immutable storage) attached as colour 0 of a new
 * framebuffer, left bound to FRAMEBUFFER. It is complete only where EXT_color_buffer_float was
 * enabled on `gl` (getExtension); the caller deletes both.
 */
export function float32Framebuffer(
  gl: WebGL2RenderingContext,
  width: number,
  height: number,
): { tex: WebGLTexture; fbo: WebGLFramebuffer } {
  const tex = gl.createTexture();
  gl.bindTexture(gl.TEXTURE_2D, tex);
  gl.texStorage2D(gl.TEXTURE_2D, 1, gl.RGBA32F, width, height);
  const fbo = gl.createFramebuffer();
  gl.bindFramebuffer(gl.FRAMEBUFFER, fbo);
  gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, tex, 0);
  return { tex, fbo };
}
