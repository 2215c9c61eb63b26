// A block of the blocked bitonic sort (src/core/bitonic.ts, "the blocked form"): BLOCK = 2^BLOCK_LOG2
// (key, payload) pairs held in registers b0..b15; slot r lives in layer r >> 1, half r & 1 (xy or
// zw) of an RGBA32UI texel of the block texture array, written through BLOCK / 2 colour attachments.
// Needs #define BLOCK_LOG2 (1..4). BLOCK_STAGE_N mirrors blockStage(rho = N) in src/core/bitonic.ts.
// Written out slot by slot with plain variables (no array, no loop, no branch): SwiftShader runs an
// array indexed in a loop, and && / || / ?: on lanes, several times slower.
precision highp usampler2DArray;

const int BLOCK = 1 << BLOCK_LOG2;

layout(location = 0) out uvec4 outBlock0;
#if BLOCK_LOG2 >= 2
layout(location = 1) out uvec4 outBlock1;
#endif
#if BLOCK_LOG2 >= 3
layout(location = 2) out uvec4 outBlock2;
layout(location = 3) out uvec4 outBlock3;
#endif
#if BLOCK_LOG2 >= 4
layout(location = 4) out uvec4 outBlock4;
layout(location = 5) out uvec4 outBlock5;
layout(location = 6) out uvec4 outBlock6;
layout(location = 7) out uvec4 outBlock7;
#endif

// The block's registers (declare in main with BLOCK_REGISTERS; unused ones are dropped).
#define BLOCK_REGISTERS uvec2 b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11, b12, b13, b14, b15;

#if BLOCK_LOG2 == 1
#define WRITE_BLOCK outBlock0 = uvec4(b0, b1);
#elif BLOCK_LOG2 == 2
#define WRITE_BLOCK outBlock0 = uvec4(b0, b1); outBlock1 = uvec4(b2, b3);
#elif BLOCK_LOG2 == 3
#define WRITE_BLOCK \
  outBlock0 = uvec4(b0, b1); outBlock1 = uvec4(b2, b3); \
  outBlock2 = uvec4(b4, b5); outBlock3 = uvec4(b6, b7);
#else
#define WRITE_BLOCK \
  outBlock0 = uvec4(b0, b1); outBlock1 = uvec4(b2, b3); \
  outBlock2 = uvec4(b4, b5); outBlock3 = uvec4(b6, b7); \
  outBlock4 = uvec4(b8, b9); outBlock5 = uvec4(b10, b11); \
  outBlock6 = uvec4(b12, b13); outBlock7 = uvec4(b14, b15);
#endif

// 1 where pair a orders before pair b, else 0 (by key, then payload).
uint pairLess(uvec2 a, uvec2 b) {
  return uint(a.x < b.x) | (uint(a.x == b.x) & uint(a.y < b.y));
}

// Registers x (slot lo) and y (slot lo | 1 << rho) compared; the lower slot keeps the smaller pair,
// or the larger where the direction is descending: bit dsh of lo where dmask is 1, else db (the
// stage's direction, from STAGE_DIR).
#define CAS(x, y, lo) \
  { \
    uint desc_ = ((uint(lo) >> dsh) & dmask) | db; \
    uvec2 d_ = (x ^ y) & uvec2(0u - (pairLess(y, x) ^ desc_)); \
    x ^= d_; \
    y ^= d_; \
  }

// A stage's direction code dir (-1 ascending, 0..31 bit dir of the block's texel index t, 32 + q
// bit q of the slot) as the shift, mask and constant that CAS reads.
#define STAGE_DIR(dir, t) \
  dsh = uint(max((dir) - 32, 0)); \
  dmask = uint((dir) >= 32); \
  db = uint((dir) >= 0 && (dir) < 32) & (uint(t) >> uint(clamp(dir, 0, 31))) & 1u;
#define STAGE_REGISTERS uint dsh, dmask, db;

#if BLOCK_LOG2 == 1
#define BLOCK_STAGE_0 CAS(b0, b1, 0)
#endif
#if BLOCK_LOG2 == 2
#define BLOCK_STAGE_0 CAS(b0, b1, 0) CAS(b2, b3, 2)
#endif
#if BLOCK_LOG2 == 3
#define BLOCK_STAGE_0 CAS(b0, b1, 0) CAS(b2, b3, 2) CAS(b4, b5, 4) CAS(b6, b7, 6)
#endif
#if BLOCK_LOG2 == 4
#define BLOCK_STAGE_0 CAS(b0, b1, 0) CAS(b2, b3, 2) CAS(b4, b5, 4) CAS(b6, b7, 6) CAS(b8, b9, 8) CAS(b10, b11, 10) CAS(b12, b13, 12) CAS(b14, b15, 14)
#endif
#if BLOCK_LOG2 == 2
#define BLOCK_STAGE_1 CAS(b0, b2, 0) CAS(b1, b3, 1)
#endif
#if BLOCK_LOG2 == 3
#define BLOCK_STAGE_1 CAS(b0, b2, 0) CAS(b1, b3, 1) CAS(b4, b6, 4) CAS(b5, b7, 5)
#endif
#if BLOCK_LOG2 == 4
#define BLOCK_STAGE_1 CAS(b0, b2, 0) CAS(b1, b3, 1) CAS(b4, b6, 4) CAS(b5, b7, 5) CAS(b8, b10, 8) CAS(b9, b11, 9) CAS(b12, b14, 12) CAS(b13, b15, 13)
#endif
#if BLOCK_LOG2 == 3
#define BLOCK_STAGE_2 CAS(b0, b4, 0) CAS(b1, b5, 1) CAS(b2, b6, 2) CAS(b3, b7, 3)
#endif
#if BLOCK_LOG2 == 4
#define BLOCK_STAGE_2 CAS(b0, b4, 0) CAS(b1, b5, 1) CAS(b2, b6, 2) CAS(b3, b7, 3) CAS(b8, b12, 8) CAS(b9, b13, 9) CAS(b10, b14, 10) CAS(b11, b15, 11)
#endif
#if BLOCK_LOG2 == 4
#define BLOCK_STAGE_3 CAS(b0, b8, 0) CAS(b1, b9, 1) CAS(b2, b10, 2) CAS(b3, b11, 3) CAS(b4, b12, 4) CAS(b5, b13, 5) CAS(b6, b14, 6) CAS(b7, b15, 7)
#endif
