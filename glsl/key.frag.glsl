#version 300 es
// Pass 1, key: state -> (cellKey, payload) per element, in blocks of the blocked bitonic sort
// (glsl/bitonic-block.glsl, canonical layout: block t holds elements t * BLOCK .. t * BLOCK + BLOCK - 1),
// each block already sorted by the merges of size <= BLOCK (the plan's local stages). The payload
// is the element's index in the state texture (the reorder pass gathers by it). Padding elements
// (index >= count) get the sentinel key 0xFFFFFFFF, so they sort after every boid.
#include "gpgpu.glsl"
#include "grid.glsl"
#include "bitonic-block.glsl"

uniform sampler2D uPos;
uniform int uPosShift;  // log2 of the state texture's width
uniform int uShift;     // log2 of the block texture's width
uniform int uCount;
uniform int uLastDir;   // direction code of the merge of size BLOCK (-1: it is the last merge)

void main() {
  int t = fragIndex(uShift);
  BLOCK_REGISTERS
  STAGE_REGISTERS
#define KEY(b, r) \
  { \
    int i = t * BLOCK + r; \
    if (i >= uCount) { \
      b = uvec2(0xFFFFFFFFu, uint(i)); \
    } else { \
      b = uvec2(cellKey(texelFetch(uPos, texelOf(i, uPosShift), 0).xyz), uint(i)); \
    } \
  }
  KEY(b0, 0) KEY(b1, 1)
#if BLOCK_LOG2 >= 2
  KEY(b2, 2) KEY(b3, 3)
#endif
#if BLOCK_LOG2 >= 3
  KEY(b4, 4) KEY(b5, 5) KEY(b6, 6) KEY(b7, 7)
#endif
#if BLOCK_LOG2 >= 4
  KEY(b8, 8) KEY(b9, 9) KEY(b10, 10) KEY(b11, 11)
  KEY(b12, 12) KEY(b13, 13) KEY(b14, 14) KEY(b15, 15)
#endif
  // Merges of size 2^q, q = 1..BLOCK_LOG2: stages on bits q-1..0, descending where bit q is 1
  // (bit q of the slot; for q = BLOCK_LOG2 bit 0 of t, or ascending when it is the last merge).
#define MERGE_DIR(q) (q == BLOCK_LOG2 ? uLastDir : 32 + q)
  STAGE_DIR(MERGE_DIR(1), t)
  BLOCK_STAGE_0
#if BLOCK_LOG2 >= 2
  STAGE_DIR(MERGE_DIR(2), t)
  BLOCK_STAGE_1
  BLOCK_STAGE_0
#endif
#if BLOCK_LOG2 >= 3
  STAGE_DIR(MERGE_DIR(3), t)
  BLOCK_STAGE_2
  BLOCK_STAGE_1
  BLOCK_STAGE_0
#endif
#if BLOCK_LOG2 >= 4
  STAGE_DIR(MERGE_DIR(4), t)
  BLOCK_STAGE_3
  BLOCK_STAGE_2
  BLOCK_STAGE_1
  BLOCK_STAGE_0
#endif
  WRITE_BLOCK
}
