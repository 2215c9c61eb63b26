#version 300 es
// Pass 1, key: state -> (cellKey, payload) per element, in blocks of the blocked bitonic sort
// (src/webgl2/bitonic-block.glsl, canonical layout: block t holds elements t * BLOCK .. t * BLOCK + BLOCK - 1),
// each block already sorted by the merges of size <= BLOCK (the plan's local stages). The payload
// is the element's index in the state texture (the reorder pass gathers by it). Padding elements
// (index >= count) get the sentinel key 0xFFFFFFFF, so they sort after every boid.
#include "gpgpu.glsl"
#include "grid.glsl"
#include "bitonic-block.glsl"

#if BLOCK_LOG2 == 1
#define SHIFT_IN(k) b0 = b1; b1 = k;
#elif BLOCK_LOG2 == 2
#define SHIFT_IN(k) b0 = b1; b1 = b2; b2 = b3; b3 = k;
#elif BLOCK_LOG2 == 3
#define SHIFT_IN(k) b0 = b1; b1 = b2; b2 = b3; b3 = b4; b4 = b5; b5 = b6; b6 = b7; b7 = k;
#else
#define SHIFT_IN(k) \
  b0 = b1; b1 = b2; b2 = b3; b3 = b4; b4 = b5; b5 = b6; b6 = b7; b7 = b8; \
  b8 = b9; b9 = b10; b10 = b11; b11 = b12; b12 = b13; b13 = b14; b14 = b15; b15 = k;
#endif

uniform sampler2D uPos;
uniform int uPosShift;  // log2 of the state texture's width
uniform int uShift;     // log2 of the block texture's width
uniform int uCount;
uniform int uBlock;     // BLOCK (a uniform: the key loop must stay a loop)
uniform int uLastDir;   // direction code of the merge of size BLOCK (-1: it is the last merge)

void main() {
  int t = fragIndex(uShift);
  BLOCK_REGISTERS
  STAGE_REGISTERS
  // The block's keys in a loop the compiler cannot unroll (its bound is a uniform): written out
  // BLOCK times, the inlined cellKey made Mesa's llvmpipe take seconds (4 copies) to minutes
  // (8 or more) to compile the pass at its first draw, and Firefox hung. Each key enters at the top
  // register and the others move down one, so that after BLOCK keys register r holds element r
  // (constant indices only, see bitonic-block.glsl).
  for (int r = 0; r < uBlock; r++) {
    int i = t * BLOCK + r;
    uvec2 k;
    if (i >= uCount) {
      k = uvec2(0xFFFFFFFFu, uint(i));
    } else {
      k = uvec2(cellKey(texelFetch(uPos, texelOf(i, uPosShift), 0).xyz), uint(i));
    }
    SHIFT_IN(k)
  }
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
