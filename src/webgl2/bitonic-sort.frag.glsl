#version 300 es
// Pass 2, the bitonic sort (Batcher 1968) in blocks: one pass of the blocked plan of
// src/core/bitonic.ts (blockedPassUniforms says what each uniform holds). The fragment gathers its
// block from the previous layout (BLOCK texels of the input array), runs up to BLOCK_LOG2 stages in
// registers on positions BLOCK_LOG2 - 1, BLOCK_LOG2 - 2, ... and writes the block.
// Needs #define STAGES (1..BLOCK_LOG2): the pass's stage count. Pairs are
// ordered by key, then payload; payloads are unique, so the order is total and deterministic.
#include "gpgpu.glsl"
#include "bitonic-block.glsl"

#define RUNS (3 * BLOCK_LOG2 + 1)

uniform usampler2DArray uBlocks;
uniform int uShift;               // log2 of the block texture's width
uniform int uSlotTexel[BLOCK];    // output slot r's part of the input texel index
uniform int uSlotRegister[BLOCK]; // ... and of the input slot
uniform ivec4 uRuns[RUNS];        // (src, mask, dst, into the slot?) of the output texel index
uniform int uDir[BLOCK_LOG2];

void main() {
  int t = fragIndex(uShift);
  BLOCK_REGISTERS
  STAGE_REGISTERS
  int tIn = 0;
  int rIn = 0;
  // Runs unrolled (constant indices; unused runs have mask 0).
#define RUN(k) \
  { \
    ivec4 run = uRuns[k]; \
    int v = ((t >> run.x) & run.y) << run.z; \
    tIn |= v & (run.w - 1); \
    rIn |= v & -run.w; \
  }
  RUN(0) RUN(1) RUN(2) RUN(3)
#if BLOCK_LOG2 >= 2
  RUN(4) RUN(5) RUN(6)
#endif
#if BLOCK_LOG2 >= 3
  RUN(7) RUN(8) RUN(9)
#endif
#if BLOCK_LOG2 >= 4
  RUN(10) RUN(11) RUN(12)
#endif
  // Gather slot by slot (constant indices, see bitonic-block.glsl).
#define GATHER(b, r) \
  { \
    int slot = rIn | uSlotRegister[r]; \
    uvec4 x = texelFetch(uBlocks, ivec3(texelOf(tIn | uSlotTexel[r], uShift), slot >> 1), 0); \
    uint hi = uint(slot & 1); \
    b = x.xy * (1u - hi) + x.zw * hi; \
  }
  GATHER(b0, 0) GATHER(b1, 1)
#if BLOCK_LOG2 >= 2
  GATHER(b2, 2) GATHER(b3, 3)
#endif
#if BLOCK_LOG2 >= 3
  GATHER(b4, 4) GATHER(b5, 5) GATHER(b6, 6) GATHER(b7, 7)
#endif
#if BLOCK_LOG2 >= 4
  GATHER(b8, 8) GATHER(b9, 9) GATHER(b10, 10) GATHER(b11, 11)
  GATHER(b12, 12) GATHER(b13, 13) GATHER(b14, 14) GATHER(b15, 15)
#endif
  // Stage s on register position BLOCK_LOG2 - 1 - s, for s < STAGES (the first pass may have
  // fewer): a define, one program per stage count, since a branch on a uniform around the stages
  // cost SwiftShader 15-20% of the pass (measured: README's performance section).
#define STAGE(s, RHO_STAGE) \
  { \
    STAGE_DIR(uDir[s], t) \
    RHO_STAGE \
  }
#if BLOCK_LOG2 == 4
  STAGE(0, BLOCK_STAGE_3)
#if STAGES > 1
  STAGE(1, BLOCK_STAGE_2)
#endif
#if STAGES > 2
  STAGE(2, BLOCK_STAGE_1)
#endif
#if STAGES > 3
  STAGE(3, BLOCK_STAGE_0)
#endif
#elif BLOCK_LOG2 == 3
  STAGE(0, BLOCK_STAGE_2)
#if STAGES > 1
  STAGE(1, BLOCK_STAGE_1)
#endif
#if STAGES > 2
  STAGE(2, BLOCK_STAGE_0)
#endif
#elif BLOCK_LOG2 == 2
  STAGE(0, BLOCK_STAGE_1)
#if STAGES > 1
  STAGE(1, BLOCK_STAGE_0)
#endif
#else
  STAGE(0, BLOCK_STAGE_0)
#endif
  WRITE_BLOCK
}
