#version 300 es
// Pass 4, reorder, with the bitonic sort's unpack folded in: element i reads its sorted
// (key, payload) pair from the sorted blocks (canonical layout: texel i >> BLOCK_LOG2, slot
// i & (BLOCK - 1) in layer slot >> 1, half slot & 1), writes it to the sorted keys' target (one
// pair per RG32UI texel, what the cell table and the steer read) and gathers position and velocity
// by its payload (the source index), so that a cell's boids are adjacent and neighbour reads
// coherent. One pass instead of an unpack pass and a reorder pass.
#include "gpgpu.glsl"
precision highp usampler2DArray;

uniform sampler2D uPos;
uniform sampler2D uVel;
uniform usampler2DArray uBlocks;
uniform int uBlockShift;  // log2 of the block texture's width
uniform int uShift;
uniform int uCount;

layout(location = 0) out vec4 outPos;
layout(location = 1) out vec4 outVel;
// The scratch state's |N_i| target: the steer pass writes the real values (never read before).
layout(location = 2) out float outNbr;
layout(location = 3) out uvec4 outKey;

void main() {
  int i = fragIndex(uShift);
  int slot = i & ((1 << BLOCK_LOG2) - 1);
  uvec4 x = texelFetch(uBlocks, ivec3(texelOf(i >> BLOCK_LOG2, uBlockShift), slot >> 1), 0);
  uvec2 pair = (slot & 1) == 1 ? x.zw : x.xy;
  outKey = uvec4(pair, 0u, 0u);
  if (i >= uCount) {
    outPos = vec4(0.0);
    outVel = vec4(0.0);
    outNbr = 0.0;
    return;
  }
  ivec2 t = texelOf(int(pair.y), uShift);
  outPos = texelFetch(uPos, t, 0);
  outVel = texelFetch(uVel, t, 0);
  outNbr = 0.0;
}
