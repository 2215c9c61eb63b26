#version 300 es
// Pass 2, last step: the sorted blocks (canonical layout: element i in texel i >> BLOCK_LOG2,
// slot i & (BLOCK - 1)) -> one (key, payload) pair per RG32UI texel, element i at texel i.
#include "gpgpu.glsl"
precision highp usampler2DArray;

uniform usampler2DArray uBlocks;
uniform int uBlockShift;  // log2 of the block texture's width
uniform int uShift;       // log2 of the output's width

out uvec4 outKey;

void main() {
  int i = fragIndex(uShift);
  int slot = i & ((1 << BLOCK_LOG2) - 1);
  uvec4 x = texelFetch(uBlocks, ivec3(texelOf(i >> BLOCK_LOG2, uBlockShift), slot >> 1), 0);
  outKey = uvec4((slot & 1) == 1 ? x.zw : x.xy, 0u, 0u);
}
