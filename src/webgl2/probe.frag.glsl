#version 300 es
// Capability probe: writes known values that survive only a true 32-bit target (float: values
// that float16 or 8-bit targets round; uint: 32-bit patterns), to be read back and compared.
#include "common.glsl"

#if UINT_TARGET
out uvec4 outValue;
void main() {
  outValue = uvec4(0xFFFFFFFFu, 123456789u, 0u, 1u);
}
#else
out vec4 outValue;
void main() {
  outValue = vec4(1.0001, -2.5e5, 3.1415927, 0.125);
}
#endif
