// Fragment-pass helpers: the element index a fragment of a data texture writes.
#include "common.glsl"

int fragIndex(int shift) {
  ivec2 c = ivec2(gl_FragCoord.xy);
  return (c.y << shift) | c.x;
}
