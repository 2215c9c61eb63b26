// Precision and texel addressing shared by every GLSL ES 3.00 shader of the WebGL2 paths.
// Include right after `#version 300 es`. Data textures have a power-of-two width 1 << shift, so
// element i lives at texel (i & (width - 1), i >> shift) and rows are filled in index order.
precision highp float;
precision highp int;
precision highp sampler2D;
precision highp usampler2D;
precision highp isampler2D;

ivec2 texelOf(int i, int shift) {
  return ivec2(i & ((1 << shift) - 1), i >> shift);
}
